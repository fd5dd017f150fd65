//! `kalah play --rules bao`: a human plays Bao against the engine: perfect on boards whose
//! game graph solves quickly, the anytime analysis within a time a move elsewhere.

use std::io::{self, BufRead, IsTerminal, Write};

use kalah_analysis::play::bao::{engine_time, engine_turn, Backing, BaoEngine};
use kalah_analysis::play::{typed, Typed};
use kalah_analysis::setup::bao::{drawing, BaoEnd, BaoGame};
use kalah_core::bao::{BaoMove, BaoPosition};
use kalah_core::Side;

use crate::args::bao as bao_setup;
use crate::error::CliError;
use crate::solving::solved_within;
use kalah_analysis::wire::bao::text::outcome_words;

/// Runs `kalah play --rules bao`.
pub fn play(args: &super::Args, out: &mut dyn Write) -> Result<(), CliError> {
    let (_, pos) = bao_setup(&args.rules, &args.position)?;
    let human = Side::from(args.human);
    let engine = match engine_time(args.time, &pos) {
        Some(limit) => BaoEngine::Timed(limit),
        None => {
            writeln!(out, "Solving the game graph first...")?;
            BaoEngine::Perfect(solved_within(&args.graph, args.solver.quiet, &pos)?.0)
        }
    };
    if let BaoEngine::Timed(limit) = &engine {
        writeln!(
            out,
            "The engine thinks {:.2} s a move (not a perfect engine on this board).",
            limit.as_secs_f64()
        )?;
    }
    writeln!(
        out,
        "You play {}, the engine plays {}. Type 'help' for help.\n",
        human,
        human.other()
    )?;
    let stdin = io::stdin();
    let echo = !stdin.is_terminal();
    let mut input = kalah_io::LineReader::new(stdin.lock());
    let mut game = BaoGame::new(pos);
    loop {
        let pos = *game.pos();
        write!(out, "{}", drawing(&pos))?;
        if let Some(end) = game.end() {
            writeln!(out, "{}", end_words(&pos, &end))?;
            return Ok(());
        }
        let mv = match pos.side() == human {
            true => match human_move(&pos, &mut input, echo, out)? {
                Some(mv) => mv,
                None => return Ok(()),
            },
            false => engine_move(&engine, &pos, out)?,
        };
        game.play(mv)?;
    }
}

/// How the game ended at `pos`, in words.
fn end_words(pos: &BaoPosition, end: &BaoEnd) -> String {
    let (mover, other) = (pos.side(), pos.side().other());
    match end {
        BaoEnd::Won { .. } if pos.is_over() => {
            format!("{other} emptied {mover}'s front row: {other} wins")
        }
        BaoEnd::Won { .. } => format!("{mover} has no legal move: {other} wins"),
        BaoEnd::Repetition => "the position came back a third time: a draw".to_string(),
    }
}

/// The engine's move in `pos`, said on `out` with what backs it (its exact value, what
/// is proven, or the heuristic evaluation).
fn engine_move(
    engine: &BaoEngine,
    pos: &BaoPosition,
    out: &mut dyn Write,
) -> Result<BaoMove, CliError> {
    let (mv, backing) = engine_turn(engine, pos).ok_or_else(|| {
        CliError::Internal(match engine {
            BaoEngine::Perfect(_) => format!("no solved move in {pos}"),
            BaoEngine::Timed(_) => format!("no legal move in {pos}"),
        })
    })?;
    let said = match backing {
        Backing::Exact(value) => value.describe(),
        Backing::Proven(o) => outcome_words("", o),
        Backing::NotSearched => "not searched: the first legal move".to_string(),
        Backing::Heuristic { eval, depth } => {
            format!("heuristic {eval:+} points from South, depth {depth}")
        }
    };
    writeln!(out, "{} plays {mv} ({said})\n", pos.side())?;
    Ok(mv)
}

/// The human's move in `pos`: asks until the input is a legal move; `None` where the
/// human quits or the input ends.
fn human_move(
    pos: &BaoPosition,
    input: &mut kalah_io::LineReader<impl BufRead>,
    echo: bool,
    out: &mut dyn Write,
) -> Result<Option<BaoMove>, CliError> {
    let moves: Vec<String> = pos.legal().moves().map(|m| m.to_string()).collect();
    loop {
        write!(out, "{} to move ({})> ", pos.side(), moves.join(" "))?;
        out.flush()?;
        let Some(line) = super::read_typed(input, out)? else {
            return Ok(None);
        };
        let Some(line) = line else { continue };
        if echo {
            writeln!(out, "{line}")?;
        }
        let text = match typed(&line) {
            Typed::Nothing => continue,
            Typed::Quit => {
                writeln!(out, "game abandoned")?;
                return Ok(None);
            }
            Typed::Help => {
                writeln!(
                    out,
                    "A move is a row letter (yours: {}), a pit number from your left and a \
                     direction: + clockwise, - anticlockwise. Legal now: {}",
                    if pos.side() == Side::South {
                        "A front, B back"
                    } else {
                        "a front, b back"
                    },
                    moves.join(" ")
                )?;
                continue;
            }
            Typed::Turn(text) => text,
        };
        match pos
            .parse_move(text)
            .and_then(|m| pos.try_play(m).map(|_| m))
        {
            Ok(mv) => {
                writeln!(out)?;
                return Ok(Some(mv));
            }
            Err(e) => writeln!(out, "not played: {e}; try again, or type 'help'")?,
        }
    }
}
