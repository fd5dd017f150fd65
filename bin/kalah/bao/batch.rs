//! `kalah batch --rules bao`: many Bao positions answered as JSON lines in input order, by
//! the anytime analysis within limits or, with `--exact`, by solving each game graph;
//! resumable after an interruption, like the batch of the sowing games.

use std::io::{self, Write};
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use kalah_analysis::batch::resume::{resume, Resume, ResumeError};
use kalah_analysis::batch::{read_ahead, Item, Lines, Sharded};
use kalah_analysis::setup::bao as bao_setup;
use kalah_analysis::wire::bao::{self as wire_bao, BaoAnswer};
use kalah_core::bao::{BaoPosition, BaoRules};
use kalah_solver::bao::BAO_BYTES_PER_POSITION;
use kalah_solver::bao::{solve_position, BaoSolveError, BaoSolved, GraphStop};
use kalah_solver::bao_search;
use kalah_solver::Limits;
use serde_json::Value as Json;

use crate::analyse::LimitArgs;
use crate::analysis_io::{interrupt_flag, invalid, progress_bar, progress_counter};
use crate::batch::BatchFiles;
use crate::error::CliError;

/// Answer many Bao positions: one a line, answers as JSON lines in input order.
///
/// Each input line is a position (four rows and the side to move, as --position takes it:
/// `0,3,0,0/0,2,0,0/0,1,0,2/0,0,0,0:S`) of the batch's board (--houses pits a row), or
/// moves played from the start of the board (`A3+ b8-`, with --seeds). `#` starts a
/// comment; blank lines are skipped. A line that cannot be read is answered with
/// `{"line", "input", "rules", "error"}` and the batch goes on.
///
/// By default each position is analysed for 1 second (or --time, --nodes, --depth): an
/// answer is exact (`"exact": true`, `"result"` win or loss for the side to move within
/// `"within_moves"`, `"value"` +1 or -1 from South) only where the analysis proved a
/// forced win; otherwise it is heuristic (`"exact": false`, `"eval"` from South and
/// `"eval_mover"` in points, 100 a seed, at `"depth"`, the `"best_turn"` and `"pv"`
/// guessed; a draw is never claimed). With --exact each position's whole game graph is
/// solved instead (small boards only: win, loss or draw with its distance in `"plies"`);
/// a graph larger than --memory-mb is answered with an error line (docs/outputs.md).
/// Positions of one graph (a game's later positions) are answered from it without
/// solving again.
///
/// --output FILE, --resume, --force and --shard I/N work as for the sowing games (see
/// `kalah batch --help`): the output is checked and locked before any work, never
/// overwritten, and an interrupted run (Ctrl-C keeps every finished answer) goes on with
/// --resume. One position at a time, on one thread.
///
/// Example: `kalah batch --rules bao positions.txt --time 0.5 --output answers.jsonl`
#[derive(clap::Args, Debug)]
pub struct BatchArgs {
    #[command(flatten)]
    files: BatchFiles,

    /// Solve each position's whole game graph (exact win, loss or draw; small boards)
    #[arg(long, conflicts_with_all = ["time", "nodes", "depth"])]
    exact: bool,

    #[command(flatten)]
    graph: crate::solve::bao::GraphArgs,

    /// No progress on standard error
    #[arg(long, short)]
    quiet: bool,

    #[command(flatten)]
    limits: LimitArgs,

    /// `bao`: Bao la Kujifunza, four rows of N pits (docs/bao.md)
    #[arg(long = "rules", value_name = "RULES", value_parser = ["bao"])]
    rules: String,

    /// Pits a row, 3 to 8
    #[arg(long, value_name = "N", default_value_t = 8)]
    houses: usize,

    /// Seeds in each pit at the start (for lines of moves) [default: 2]
    #[arg(long, value_name = "S", default_value_t = 2)]
    seeds: usize,
}

/// The analysis time a position when no limit is given.
const DEFAULT_SECONDS: f64 = 1.0;

/// How the positions are answered.
enum Mode {
    /// The anytime analysis within these limits.
    Analyse(Limits),
    /// The whole game graph, within this many positions; the last graph solved is kept.
    Exact {
        limit: u64,
        last: Option<Box<BaoSolved>>,
    },
}

/// Runs `kalah batch --rules bao`.
pub fn batch(args: &BatchArgs, out: &mut dyn Write) -> Result<(), CliError> {
    interrupt_flag();
    let rules = BaoRules::new(args.houses, args.seeds).map_err(super::bao_error)?;
    let rules_text = rules.to_string();
    let output = args.files.open_output(&[])?;
    let (reader, count) = crate::batch::open_input(args.files.input.as_deref(), args.files.shard)?;
    let mut lines = Sharded::new(Lines::new(reader), args.files.shard);
    let input_name = args.files.input_name();
    let read_error = |e: io::Error| CliError::Input(format!("cannot read {input_name}: {e}"));
    let at = match &output {
        None => Resume {
            answered: 0,
            length: 0,
        },
        Some(o) => {
            let existing = o.existing()?.unwrap_or_default();
            resume(
                &existing,
                o.path(),
                args.files.resume,
                &mut lines,
                &rules_text,
            )
            .map_err(|e| match e {
                ResumeError::Read(e) => read_error(e),
                e => invalid(e.to_string()),
            })?
        }
    };
    let skip = at.answered;
    let (ahead, failed) = read_ahead(&mut lines, 1);
    if ahead.is_empty() && failed.is_none() {
        crate::batch::drop_unfinished(output.as_ref(), &at)?;
        if skip > 0 && !args.quiet {
            eprintln!("all {skip} positions were already answered");
        }
        return Ok(());
    }
    let mut file = match &output {
        Some(o) => Some(o.append(at.length)?),
        None => None,
    };
    let sink: &mut dyn Write = match file.as_mut() {
        Some(f) => f,
        None => &mut *out,
    };
    let bar = match count {
        Some(n) => progress_bar(args.quiet, n - skip, "positions"),
        None => progress_counter(args.quiet, "positions"),
    };
    if skip > 0 {
        bar.println(format!(
            "resuming after the {skip} positions already answered"
        ));
    }
    let mut mode = match args.exact {
        true => Mode::Exact {
            limit: args.graph.memory_mb * (1 << 20) / BAO_BYTES_PER_POSITION,
            last: None,
        },
        false => Mode::Analyse(
            args.limits
                .given()
                .unwrap_or_else(|| Limits::time(Duration::from_secs_f64(DEFAULT_SECONDS))),
        ),
    };
    let mut answered = 0;
    let items = ahead
        .into_iter()
        .map(Ok)
        .chain(failed.map(Err))
        .chain(lines);
    for item in items {
        let item = item.map_err(read_error)?;
        let Some(answer) = answer(&item, &rules, &mut mode) else {
            break; // interrupted: the unfinished answer is not written
        };
        writeln!(sink, "{answer}")
            .and_then(|()| sink.flush())
            .map_err(|e| match &output {
                Some(o) => CliError::Output(o.error(e)),
                None => CliError::Io(e),
            })?;
        answered += 1;
        bar.set_message(format!("line {}", item.line));
        bar.inc(1);
    }
    bar.finish_and_clear();
    if let Some(f) = file {
        f.sync_all().ok();
    }
    if interrupt_flag().load(Ordering::Relaxed) {
        let kept = crate::batch::kept(output.as_ref(), skip, answered);
        return Err(crate::analysis_io::interrupted(&kept));
    }
    Ok(())
}

/// The position of an input line: four rows and a side, or moves from the start.
fn position(text: &str, rules: &BaoRules) -> Result<BaoPosition, String> {
    let (board, moves) = match text.contains(':') {
        true => (Some(text), ""),
        false => (None, text),
    };
    bao_setup::position(rules, board, bao_setup::split_moves(moves)).map_err(|e| e.to_string())
}

/// The answer line of `item`, or `None` where Ctrl-C stopped its work.
fn answer(item: &Item, rules: &BaoRules, mode: &mut Mode) -> Option<Json> {
    let line = |result: Result<(&BaoPosition, BaoAnswer, f64), &dyn std::fmt::Display>| {
        wire_bao::answer_line(item.line, &item.input, rules, result)
    };
    if !item.utf8 {
        return Some(line(Err(&"the line is not UTF-8 text")));
    }
    let pos = match position(&item.input, rules) {
        Ok(pos) => pos,
        Err(e) => return Some(line(Err(&e))),
    };
    let cancel = interrupt_flag();
    let started = Instant::now();
    let seconds = || started.elapsed().as_secs_f64();
    match mode {
        Mode::Analyse(limits) => {
            let r = bao_search::analyse(&pos, limits, cancel, &mut |_| {});
            if cancel.load(Ordering::Relaxed) {
                return None;
            }
            Some(line(Ok((&pos, BaoAnswer::Analysed(&r), seconds()))))
        }
        Mode::Exact { limit, last } => {
            let known = last.as_ref().is_some_and(|s| s.value(&pos).is_some());
            if !known {
                match solve_position(&pos, *limit, cancel, &mut |_| {}) {
                    Ok(s) => *last = Some(Box::new(s)),
                    Err(BaoSolveError::Stopped(GraphStop::Cancelled)) => return None,
                    Err(e) => return Some(line(Err(&e))),
                }
            }
            let solved = last.as_ref().expect("a graph holding the position");
            let pv = solved.line(&pos);
            let exact = BaoAnswer::Exact {
                value: solved.value(&pos).expect("the graph holds its root"),
                best: solved.best_move(&pos).map(|(m, _)| m),
                pv: &pv,
                positions: solved.stats().positions,
                reused: known,
            };
            Some(line(Ok((&pos, exact, seconds()))))
        }
    }
}
