//! `kalah openings`: every first turn of the player to move (with `--rules bao`, every
//! first move of Bao), asked of the board's `kalah_analysis::openings::Openings` and
//! rendered with a progress display.

use std::io::Write;

use indicatif::ProgressBar;
use kalah_analysis::openings::{chosen_first_turns, Asked, Meter, OpeningsError, Tick};
use kalah_solver::Limits;

use crate::analysis_io::{analysis_error, interrupt_flag, invalid, progress_bar, with_output};
use crate::args::{GameArgs, OutputArgs, BAO_HEADING};
use crate::book_args::BookArgs;
use crate::error::CliError;
use crate::solving::{graph_error, spinner, SetupSpinner, SolverArgs};

/// Solve every first turn of the player to move (South at the start) exactly.
///
/// A turn is the chain of sowings made while the extra turns last (`1`, `3-6`, ...); every
/// chain is listed, not only the best. Each is solved exactly with its principal
/// variation (replayed before printing), several at once sharing one transposition
/// table, and listed best first for the player to move. Values are from South: the final
/// South store minus North store under perfect play after that turn.
///
/// `--threads` sets how many turns are solved at once (one search thread each).
///
/// --time S analyses each turn for at most S seconds instead (on boards too large to
/// solve): a turn whose value the analysis proves in time is exact, any other shows its
/// heuristic evaluation (`~`), the depth reached and the interval proved to hold the value;
/// the JSON turns then say "exact": false with "eval", "depth", "lower" and "upper" (no
/// "value"), the CSV has the columns turn, exact, eval, lower, upper, depth,
/// eval_mover, position_after, pv. No endgame database unless asked for.
///
/// With --rules bao, the value of every legal move of a Bao position (win, loss or draw
/// from its solved game graph, as `kalah solve --rules bao`), or with --time, --nodes or
/// --depth each move's evaluation by the anytime analysis.
///
/// Example: `kalah openings --houses 6 --seeds 4 --capture empty` or `kalah openings
/// --rules bao --houses 3`
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Print one JSON object with an array `turns` (turn, value, pv, ...) instead of text
    #[arg(long, conflicts_with = "csv")]
    json: bool,

    /// Print a CSV table (turn, value, value_for_mover, position_after, pv) instead of text
    #[arg(long)]
    csv: bool,

    /// Analyse each turn for at most SECONDS (decimals allowed) instead of solving it:
    /// exact where proved in time, else a heuristic evaluation with its proven interval
    #[arg(long, value_name = "SECONDS", value_parser = crate::args::parse_seconds)]
    time: Option<std::time::Duration>,

    /// Analyse for about N nodes (at least 1)
    #[arg(long, value_name = "N", help_heading = BAO_HEADING,
          value_parser = clap::value_parser!(u64).range(1..))]
    nodes: Option<u64>,

    /// Analyse to D moves (1 to 120)
    #[arg(long, value_name = "D", help_heading = BAO_HEADING,
          value_parser = clap::value_parser!(u8).range(1..=120))]
    depth: Option<u8>,

    #[command(flatten)]
    graph: crate::solving::GraphArgs,

    #[command(flatten)]
    output: OutputArgs,

    #[command(flatten)]
    game: GameArgs,

    #[command(flatten)]
    solver: SolverArgs,

    #[command(flatten)]
    book: BookArgs,
}

/// Runs `kalah openings`.
pub fn run(args: &Args, out: &mut dyn Write) -> Result<(), CliError> {
    // Catch Ctrl-C from the start, before the endgame database is built.
    interrupt_flag();
    // The book read is an input too: never the report's file.
    let mut inputs = args.solver.inputs();
    inputs.extend(args.book.book.clone());
    with_output(
        args.output.file(),
        args.output.force(),
        &inputs,
        out,
        |out| report(args, out),
    )
}

/// Answers every first turn of the board the options set up and prints them to `out`: a
/// sowing game's from the opening book where it is to be used ([`chosen_first_turns`]),
/// else on a parallel solver made by the options (for an analysis with `--time`).
fn report(args: &Args, out: &mut dyn Write) -> Result<(), CliError> {
    let board = args.game.board()?;
    let limits = Limits {
        time: args.time,
        nodes: args.nodes,
        depth: args.depth,
    };
    let asked = Asked {
        json: args.json,
        csv: args.csv,
        limits: (!limits.is_unbounded()).then_some(limits),
        memory_mb: args.graph.memory_mb,
    };
    let timed = args.time.is_some();
    let setup = SetupSpinner::of(&args.solver);
    let openings = board.openings(
        asked,
        |game, pos| chosen_first_turns::<CliError>(&args.book.choice(), timed, game, pos),
        &args.solver.solving(&setup),
    )?;
    let quiet = args.solver.quiet;
    let bar = match openings.meter() {
        Meter::Bar { len, unit } => progress_bar(quiet, len, unit),
        Meter::Spinner => spinner(quiet),
        Meter::Nothing => ProgressBar::hidden(),
    };
    let listed = openings.run(interrupt_flag(), &|tick| match tick {
        Tick::Line(line) => {
            bar.println(line);
            bar.inc(1);
        }
        Tick::Note(note) => {
            bar.set_message(note);
            bar.inc(1);
        }
        Tick::Words(words) => bar.set_message(words),
    });
    bar.finish_and_clear();
    openings.write(&listed?, out)?;
    Ok(())
}

/// The command-line error of first turns not answered.
impl From<OpeningsError> for CliError {
    fn from(e: OpeningsError) -> CliError {
        match e {
            OpeningsError::Analysis(e) => analysis_error(e, "nothing printed"),
            OpeningsError::Graph { error, memory_mb } => graph_error(error, memory_mb),
            e @ OpeningsError::BookLacks { .. } => invalid(e.to_string()),
            OpeningsError::Solver(e) => e.into(),
        }
    }
}
