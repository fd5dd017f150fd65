//! `kalah analyse` (and `kalah solve` with a limit): the anytime analysis of a position,
//! one line per completed depth with the heuristic evaluation and the proven interval,
//! then a summary that says whether the value is exact. Either kind of game (`--rules
//! bao` too) is analysed by the board's `kalah_analysis::analyse::Analyst`.

use std::io::Write;

use kalah_analysis::analyse::{AnalystError, Shown};

use crate::analysis_io::interrupt_flag;
use crate::args::{GameArgs, LimitArgs};
use crate::book_args::BookArgs;
use crate::error::CliError;
use crate::solving::{SetupSpinner, SolverArgs};

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

/// Runs `kalah analyse`.
pub fn run(args: &Args, out: &mut dyn Write) -> Result<(), CliError> {
    let board = args.game.board()?;
    let limits = board.analysis_limits(args.limits.given());
    interrupt_flag();
    let shown = Shown {
        multi: args.multi,
        json: args.json,
        verbose: args.verbose,
    };
    let setup = SetupSpinner::of(&args.solver);
    let solving = args.solver.solving(&setup);
    let book = args.book.choice();
    let analyst = board.analyst::<CliError>(shown, &solving, &limits, Some(&book))?;
    analyst
        .analyse(&limits, interrupt_flag(), out)
        .map_err(analyst_error)
}

/// The command-line error of an analysis that ended without its summary: a line that does
/// not replay to its exact value is an internal error.
pub fn analyst_error(e: AnalystError) -> CliError {
    match e {
        AnalystError::Failed(msg) => crate::analysis_io::invalid(msg),
        AnalystError::Replay(msg) => CliError::Internal(msg),
        AnalystError::Io(e) => e.into(),
    }
}
