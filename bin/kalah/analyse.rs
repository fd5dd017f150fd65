//! `kalah analyse` (and `kalah solve` with a limit): the anytime analysis of a position,
//! one line per completed depth with the heuristic evaluation and the proven interval,
//! then a summary that says whether the value is exact. With `--rules bao`, Bao's anytime
//! analysis (`kalah_solver::bao_search`), rendered by `kalah_analysis::wire::bao`.

use std::io::Write;
use std::time::Duration;

use kalah_analysis::front::BAO_DEFAULT_SECONDS;
use kalah_analysis::wire::bao::{report, text};
use kalah_core::bao::BaoPosition;
use kalah_core::{Game, Position};
use kalah_solver::bao_search::{self, BaoAnalysis};
use kalah_solver::{Analysis, Limits, Solver};

use kalah_analysis::wire::analysis::SummaryError;
pub use kalah_analysis::wire::analysis::View;

use crate::analysis_io::interrupt_flag;
use crate::args::{GameArgs, LimitArgs};
use crate::book_args::BookArgs;
use crate::error::CliError;
use crate::solving::{analysis_solver, SolverArgs};
use kalah_analysis::book::Entry;

/// The time limit of `kalah analyse` when no limit is given, in seconds.
const DEFAULT_SECONDS: f64 = 3.0;

/// Analyse a position within a time, node or depth limit: the heuristic evaluation, the
/// interval proved to hold the exact value, the best turn and its line.
///
/// One line per completed depth of the iterative deepening: the depth in sowings, the
/// heuristic evaluation (final store difference South minus North that the search
/// guesses), the proven interval (the exact value lies in it, whatever the evaluation
/// says), nodes, nodes per second, time and the line. The proof runs beside the
/// deepening (null-window tests of the exact search); once the interval closes the value
/// is exact and the line is checked to replay to it. The summary says which. Ctrl-C
/// stops the analysis and prints the summary.
///
/// Without a limit the analysis runs for 3 seconds. No endgame database is built unless
/// one is asked for (--egdb, --egdb-seeds): building one would take longer than the
/// analysis. A file already there (in KALAH_EGDB_PATH, else the database cache, as a
/// solve leaves it) is read where it serves the rules and board and loads in a fraction
/// of the time: up to a GiB per second of --time (at least 256 MiB; 2 GiB without a time
/// limit). The summary names it.
///
/// With --rules bao, Bao's anytime analysis on any board (default: 1 second): one line per
/// completed depth in whole moves, with the heuristic evaluation (points, 100 a seed, from
/// South), what is proven (a forced win or loss found within the searched tree; a draw is
/// never claimed), nodes, nodes per second, time and the line.
///
/// Example: `kalah analyse --houses 6 --seeds 6 --time 1 --multi 3` or `kalah analyse
/// --rules bao --time 1`
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Evaluate the N best turns in full and show them under each line, with their
    /// evaluations and proven intervals (0: every turn); the others are only shown to be
    /// no better, which lets the search go deeper
    #[arg(long, value_name = "N", default_value_t = 1)]
    multi: usize,

    /// Print one JSON object per report (every depth and every change of the proven
    /// interval) and a final one with "final": true, instead of text
    #[arg(long)]
    json: bool,

    /// Also print a progress line about every half second while a long depth or exact
    /// test runs (nodes, time, the proven interval); in JSON these lines always come, with
    /// "kind": "tick"
    #[arg(long)]
    verbose: bool,

    #[command(flatten)]
    limits: LimitArgs,

    #[command(flatten)]
    game: GameArgs,

    #[command(flatten)]
    solver: SolverArgs,

    #[command(flatten)]
    book: BookArgs,
}

/// The options `--rules bao` takes besides the board's ([`crate::args::check_game`]).
pub const BAO_OPTIONS: &[&str] = &["json", "time", "nodes", "depth"];

/// Runs `kalah analyse`.
pub fn run(args: &Args, out: &mut dyn Write) -> Result<(), CliError> {
    if args.game.rules.bao() {
        return bao(args, out);
    }
    let limits = args
        .limits
        .given()
        .unwrap_or_else(|| Limits::time(Duration::from_secs_f64(DEFAULT_SECONDS)));
    let (game, pos) = args.game.setup()?;
    let seeds = pos.seeds_in_houses() as usize;
    interrupt_flag();
    let solver = analysis_solver(&args.solver, &game, seeds, &limits)?;
    let view = View {
        game: &game,
        pos: &pos,
        multi: args.multi,
        json: args.json,
        verbose: args.verbose,
        database: kalah_analysis::wire::report::egdb_file(&solver),
        book: book_entry(&args.book, &game, &pos)?,
    };
    view.book_line(out)?;
    let a = analyse(&solver, &pos, &limits, &view, out)?;
    summary(&view, &a, out)
}

/// Runs `kalah analyse --rules bao`: one line per completed depth; forced wins and losses
/// found are labelled proven, everything else is a heuristic guess (a draw is never
/// claimed).
fn bao(args: &Args, out: &mut dyn Write) -> Result<(), CliError> {
    let limits = args
        .limits
        .given()
        .unwrap_or_else(|| Limits::time(Duration::from_secs_f64(BAO_DEFAULT_SECONDS)));
    let (_, pos) = args.game.bao_setup()?;
    let mut failed = None;
    let mut report = |a: &BaoAnalysis| {
        if let Err(e) = write_bao_report(a, args.json, false, out) {
            failed.get_or_insert(e);
        }
    };
    let last = bao_search::analyse(&pos, &limits, interrupt_flag(), &mut report);
    if let Some(e) = failed {
        return Err(e.into());
    }
    write_bao_report(&last, args.json, true, out)?;
    Ok(())
}

/// `kalah solve --rules bao` within `limits` (and `openings`, with `moves`): the
/// analysis's final report alone (as the last line of `kalah analyse --rules bao`), then
/// with `moves` every move's evaluation, depth and what is proven, best first. Ctrl-C
/// stops the analysis and prints what it has.
pub fn bao_within(
    pos: &BaoPosition,
    limits: &Limits,
    json: bool,
    moves: bool,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let last = bao_search::analyse(pos, limits, interrupt_flag(), &mut |_| {});
    write_bao_report(&last, json, true, out)?;
    if moves && !json {
        for line in text::analysed_moves(&last) {
            writeln!(out, "{line}")?;
        }
    }
    Ok(())
}

/// One report of Bao's analysis, in text or JSON; `last` marks the summary.
pub(crate) fn write_bao_report(
    a: &BaoAnalysis,
    json: bool,
    last: bool,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    match json {
        true => writeln!(out, "{}", report::analysis_report(a, last)),
        false => writeln!(out, "{}", text::analysis_line(a, last)),
    }
}

/// The opening book's entry for `pos`, with the book's origin, where the book of the
/// rules holds it.
fn book_entry(
    args: &BookArgs,
    game: &Game,
    pos: &Position,
) -> Result<Option<(Entry, String)>, CliError> {
    Ok(args
        .load(game.rules())?
        .and_then(|b| Some((b.lookup(pos)?.clone(), b.origin().to_string()))))
}

/// The analysis of `pos` to `limits`, each report rendered by `view` as it comes; Ctrl-C
/// (or SIGTERM) ends it with what it knows.
pub fn analyse(
    solver: &Solver,
    pos: &Position,
    limits: &Limits,
    view: &View,
    out: &mut dyn Write,
) -> Result<Analysis, CliError> {
    let mut shown = None;
    let mut failed = None;
    let lines = if view.multi == 0 {
        usize::MAX
    } else {
        view.multi
    };
    let a = solver.analyse_lines(pos, limits, lines, interrupt_flag(), &mut |a| {
        if failed.is_none() {
            if let Err(e) = view.report(a, &mut shown, out) {
                failed = Some(e);
            }
        }
    });
    if let Some(e) = failed {
        return Err(e.into());
    }
    a.map_err(|e| crate::analysis_io::invalid(e.to_string()))
}

/// The final summary of an analysis by `view` ([`View::summary`]); a line that does not
/// replay to its exact value is an internal error.
pub fn summary(view: &View, a: &Analysis, out: &mut dyn Write) -> Result<(), CliError> {
    view.summary(a, out).map_err(|e| match e {
        SummaryError::Replay(_) => CliError::Internal(e.to_string()),
        SummaryError::Io(e) => e.into(),
    })
}
