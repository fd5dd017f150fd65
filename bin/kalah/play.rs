//! `kalah play`: a human plays against the engine in the terminal, one turn at a time.
//!
//! The engine plays perfectly by default: each of its turns is the first turn of the
//! exact solver's principal variation, so it never gives away a seed of the position's
//! value. `--engine greedy` plays the simple [`greedy_turn`] instead (the largest store
//! margin at the end of its own turn), for a weaker opponent. `--time S` (and the default
//! on boards that do not solve quickly) moves within S seconds by the anytime analysis.
//! With `--rules bao`, a game of Bao ([`bao`]).

mod bao;

use std::io::{self, BufRead, IsTerminal, Write};

use kalah_core::notation::{bin, format_turn};
use kalah_core::{Game, Position, Side};

use kalah_analysis::greedy::greedy_turn;
use kalah_analysis::play::{self, result_for, typed, typed_turn, EngineError, Typed};
use kalah_solver::{Analysis, Limits, Solver};

use crate::analysis_io::signed;
use crate::args::{setup, PositionArgs, RulesArgs};
use crate::book_args::BookArgs;
use crate::error::{move_message, CliError};
use crate::show;
use crate::solving::{progress_message, SolverArgs};

/// Play against the engine in the terminal.
///
/// Type a bin number (or a whole turn such as `3-6`) when it is
/// your move, `help` for help, `quit` to stop. Reads moves from standard input, so a game
/// can also be piped in: `printf '3\n6\n' | kalah play`.
///
/// The engine plays perfectly (the exact solver) where the game solves quickly: at most
/// 48 seeds in the houses at the start (Kalah(6,4)), 24 in the families whose positions
/// repeat (Oware(4,3)). On a larger board (`--houses 6 --seeds 6`) it takes 5 seconds a move by
/// default: the anytime analysis, exact where it proves the value in time, else its best
/// turn. `--time S` sets that time on any board; each engine move then says whether it
/// was exact or heuristic (with the interval proved to hold the value).
///
/// With --rules bao, a game of Bao: type a move such as `A3+` (`printf 'A1+\n' | kalah
/// play --rules bao --houses 3`). A position that comes back a third time ends the game
/// as a draw (BAO.md R9.1: play that only cycles is a draw). On a small board (at most a
/// billion ways to lay the seeds in the pits: 4 rows of 3 pits with 2 seeds, or fewer
/// seeds) the engine plays perfectly: the whole game graph is solved first (minutes for
/// 4×3 with 2 seeds, within --memory-mb). On larger boards, or with --time, it analyses
/// each move for --time seconds (default 1) and says whether its move is proven (a forced
/// win found) or a heuristic choice.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The side you play; South moves first
    #[arg(long = "as", value_enum, value_name = "SIDE", default_value = "south")]
    human: Player,

    /// Break ties between equally good engine turns with this seed (without it the engine
    /// takes the first of them in bin order)
    #[arg(long, value_name = "N")]
    seed: Option<u64>,

    /// How the engine plays: perfectly (the exact solver) or greedily
    #[arg(long, value_enum, default_value = "perfect")]
    engine: EngineKind,

    /// Let the engine move within SECONDS (decimals allowed): exact where the analysis
    /// proves the value in time, else its best turn [default: the exact solver where the
    /// game solves quickly, else 5; Bao: 1]
    #[arg(long, value_name = "SECONDS", value_parser = crate::args::parse_seconds, conflicts_with = "engine")]
    time: Option<std::time::Duration>,

    #[command(flatten)]
    solver: SolverArgs,

    #[command(flatten)]
    rules: RulesArgs,

    #[command(flatten)]
    position: PositionArgs,

    #[command(flatten)]
    book: BookArgs,

    #[command(flatten)]
    graph: crate::solving::GraphArgs,
}

/// The options `--rules bao` takes besides the board's ([`crate::args::check_game`]).
pub const BAO_OPTIONS: &[&str] = &["as", "time", "memory-mb", "quiet"];

/// The engine's way of playing.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum EngineKind {
    /// The exact solver's best turn (one solver, its table kept between turns).
    Perfect,
    /// The turn that leaves the largest store margin at once.
    Greedy,
}

/// A side, as the command line names it.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum Player {
    South,
    North,
}

impl From<Player> for Side {
    fn from(p: Player) -> Side {
        match p {
            Player::South => Side::South,
            Player::North => Side::North,
        }
    }
}

/// The engine of one game.
enum Engine {
    /// The exact solver.
    Perfect(Solver),
    /// The anytime analysis within the limits.
    Timed(Solver, Limits),
    /// The greedy turn.
    Greedy,
}

/// The engine `args` ask for in the game of `game` from `pos`, and a line that says how
/// it plays where it is not the one asked for (the default time on a large board).
fn engine(args: &Args, game: &Game, pos: &Position) -> Result<(Engine, Option<String>), CliError> {
    let seeds = pos.seeds_in_houses() as usize;
    let timed = |limits: Limits| -> Result<Engine, CliError> {
        let solver = crate::solving::analysis_solver(&args.solver, game, seeds, &limits)?;
        Ok(Engine::Timed(solver, limits))
    };
    if let Some(time) = args.time {
        return Ok((timed(Limits::time(time))?, None));
    }
    if args.engine == EngineKind::Greedy {
        return Ok((Engine::Greedy, None));
    }
    match play::default_engine(game, pos) {
        None => Ok((Engine::Perfect(args.solver.solver(game, seeds)?), None)),
        Some(limits) => {
            let secs = limits.time.map_or(0.0, |t| t.as_secs_f64());
            let note = format!(
                "This board does not solve quickly: the engine takes {secs} s a move, exact \
                 where it can prove it (set the time with --time)."
            );
            Ok((timed(limits)?, Some(note)))
        }
    }
}

/// Runs `kalah play`.
pub fn run(args: &Args, out: &mut dyn Write) -> Result<(), CliError> {
    if args.rules.bao() {
        return bao::play(args, out);
    }
    let (game, mut pos) = setup(&args.rules, &args.position)?;
    let human = Side::from(args.human);
    let (engine, note) = engine(args, &game, &pos)?;
    // The book serves the timed engine (the exact solver needs none).
    let book = match &engine {
        Engine::Timed(..) => args.book.load(game.rules())?,
        _ => None,
    };
    let h = game.houses();
    let stdin = io::stdin();
    let echo = !stdin.is_terminal();
    let mut input = kalah_io::LineReader::new(stdin.lock());
    writeln!(out, "rules: {}", game.rules())?;
    writeln!(
        out,
        "You play {human} (bins {} to {}), the engine plays {}. Type 'help' for help.\n",
        bin(h, human, 0),
        bin(h, human, h - 1),
        human.other()
    )?;
    if let Some(note) = note {
        writeln!(out, "{note}\n")?;
    }
    loop {
        writeln!(out, "{}", show::board(&pos))?;
        if pos.is_over() {
            return finish(&pos, human, out);
        }
        let mover = pos.side_to_move();
        if mover != human {
            let (turn, how) = match &engine {
                Engine::Perfect(solver) => (perfect_turn(solver, &pos, &args.solver)?, None),
                Engine::Timed(solver, limits) => match book.as_ref().and_then(|b| b.lookup(&pos)) {
                    Some(e) => (e.best_turn.sowings.clone(), Some(e.describe())),
                    None => {
                        let t = timed_turn(solver, &pos, limits, &args.solver)?;
                        let how = how_timed(&t.analysis);
                        (t.sowings, Some(how))
                    }
                },
                Engine::Greedy => (greedy_turn(&game, &pos, args.seed), None),
            };
            for &j in &turn {
                pos = game.play_unchecked(&pos, j);
            }
            let how = how.map_or(String::new(), |how| format!(" ({how})"));
            writeln!(out, "{mover} plays {}{how}\n", format_turn(h, mover, &turn))?;
            continue;
        }
        match human_turn(&game, &pos, &mut input, echo, out)? {
            Some(next) => pos = next,
            None => return Ok(()),
        }
    }
}

/// The next line the player typed: `None` where the input ends (the game abandoned, as
/// said on `out`), `Some(None)` for a line that cannot be a move (not UTF-8: said on
/// `out`, to ask again).
pub(crate) fn read_typed(
    input: &mut kalah_io::LineReader<impl BufRead>,
    out: &mut dyn Write,
) -> Result<Option<Option<String>>, CliError> {
    let read = play::next_typed_line(input)
        .map_err(|e| CliError::Input(format!("cannot read standard input: {e}")))?;
    match read {
        None => {
            writeln!(out, "\nend of input: game abandoned")?;
            Ok(None)
        }
        Some(Err(e)) => {
            writeln!(out, "\nnot played: {e}; try again, or type 'help'")?;
            Ok(Some(None))
        }
        Some(Ok(line)) => Ok(Some(Some(line))),
    }
}

/// The human's sowing (or turn) in `pos`: asks until the input is playable, and gives the
/// position it leads to; `None` where the human quits or the input ends (the game is then
/// abandoned, as said on `out`). `echo`: the input is not a terminal, so each line read is
/// shown after the prompt.
fn human_turn(
    game: &Game,
    pos: &Position,
    input: &mut kalah_io::LineReader<impl BufRead>,
    echo: bool,
    out: &mut dyn Write,
) -> Result<Option<Position>, CliError> {
    let mover = pos.side_to_move();
    loop {
        write!(
            out,
            "{mover} to move ({})> ",
            show::move_names(game, pos).join(" ")
        )?;
        out.flush()?;
        let Some(line) = read_typed(input, out)? else {
            return Ok(None);
        };
        let Some(line) = line else { continue };
        let line = line.as_str();
        if echo {
            writeln!(out, "{line}")?;
        }
        let line = match typed(line) {
            Typed::Nothing => continue,
            Typed::Quit => {
                writeln!(out, "game abandoned")?;
                return Ok(None);
            }
            Typed::Help => {
                write_help(game, pos, out)?;
                continue;
            }
            Typed::Turn(line) => line,
        };
        match typed_turn(game, pos, line) {
            Ok(next) => {
                writeln!(out)?;
                return Ok(Some(next));
            }
            Err(e) => writeln!(
                out,
                "not played: {}; try again, or type 'help'",
                move_message(&e)
            )?,
        }
    }
}

/// Explains the input the prompt accepts.
fn write_help(game: &Game, pos: &Position, out: &mut dyn Write) -> io::Result<()> {
    let h = pos.houses_per_side();
    let side = pos.side_to_move();
    writeln!(
        out,
        "Type the bin of the house to sow: {side} owns bins {} to {} (bins {} and {} are the \
         stores). A last seed in your own store gives you another sowing; you may also type \
         a whole turn at once as bins joined by '-'.{} 'quit' ends the game.",
        bin(h, side, 0),
        bin(h, side, h - 1),
        h + 1,
        2 * h + 2,
        match game.rules().family.has_direction() {
            true => " Add '<' to sow clockwise (3<).",
            false => "",
        },
    )
}

/// Announces the result of a finished game.
fn finish(pos: &Position, human: Side, out: &mut dyn Write) -> Result<(), CliError> {
    let (south, north) = (pos.store(Side::South), pos.store(Side::North));
    let score = pos.score();
    let verdict = match result_for(pos, human) {
        1 => "you win",
        -1 => "the engine wins",
        _ => "a draw",
    };
    writeln!(
        out,
        "game over: South {south}, North {north}, score {score:+} (South - North): {verdict}"
    )?;
    Ok(())
}

/// The first turn of the exact solver's principal variation from `pos`, with a spinner.
fn perfect_turn(
    solver: &Solver,
    pos: &Position,
    options: &SolverArgs,
) -> Result<Vec<usize>, CliError> {
    let spinner = options.spinner();
    let sign = pos.side_to_move().sign();
    let turn = play::perfect_turn(solver, pos, &mut |p| {
        spinner.set_message(progress_message(p, sign))
    });
    spinner.finish_and_clear();
    turn.map_err(engine_error)
}

/// The turn of the anytime analysis of `pos` within `limits`, with a spinner that shows
/// each depth, evaluation and proven interval as they come.
fn timed_turn(
    solver: &Solver,
    pos: &Position,
    limits: &Limits,
    options: &SolverArgs,
) -> Result<play::TimedTurn, CliError> {
    let spinner = options.spinner();
    let cancel = std::sync::atomic::AtomicBool::new(false);
    let turn = play::timed_turn(solver, pos, limits, &cancel, &mut |a| {
        let (lo, hi) = a.bounds_from_south();
        spinner.set_message(format!(
            "depth {}, heuristic {} from South, proven {}..{}, {} nodes",
            a.depth,
            signed(a.eval_from_south()),
            signed(lo),
            signed(hi),
            a.nodes
        ))
    });
    spinner.finish_and_clear();
    turn.map_err(engine_error)
}

/// How an engine turn of the analysis `a` was chosen: exact, or heuristic with the
/// interval proved to hold the value.
fn how_timed(a: &Analysis) -> String {
    let (lo, hi) = a.bounds_from_south();
    let secs = a.elapsed.as_secs_f64();
    match a.is_exact() {
        true => format!("exact, value {} from South, {secs:.2} s", signed(lo)),
        false => format!(
            "heuristic, proven interval {}..{} from South, evaluation {} at depth {}, \
             {secs:.2} s",
            signed(lo),
            signed(hi),
            signed(a.eval_from_south()),
            a.depth
        ),
    }
}

/// The command-line error for an engine that has no turn.
fn engine_error(e: EngineError) -> CliError {
    match e {
        EngineError::Solve(_) => CliError::Internal("the search was cancelled".into()),
        EngineError::Replay(e) => {
            CliError::Internal(format!("principal variation does not replay: {e}"))
        }
    }
}
