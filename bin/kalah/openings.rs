//! `kalah openings`: every first turn of the player to move, each solved exactly. With
//! `--rules bao`, every first move of Bao ([`bao_openings`]).

use std::io::Write;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use kalah_analysis::openings::{self, timed_openings, TimedOpening};
use kalah_analysis::wire::report;
use kalah_analysis::{first_steps, AnalysisError, Offer, Opening};

use indicatif::ProgressBar;

use crate::analysis_io::{
    analysis_error, interrupt_flag, invalid, progress_bar, signed, with_output,
};
use crate::args::{GameArgs, OutputArgs, BAO_HEADING};
use crate::book_args::BookArgs;
use crate::error::CliError;
use crate::solving::{parallel_solver, SolverArgs};
use kalah_analysis::book::{self, Book, BookTurn};

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

/// The progress of `openings` and `pie` solving: one line above the bar per move solved.
pub fn solved_line(houses: usize) -> impl Fn(&ProgressBar, &Opening) + Sync {
    move |bar, o| {
        bar.println(o.done_line(houses));
        bar.inc(1);
    }
}

/// Runs `analysis` (openings, the pie rule, or openings within a time) over every first
/// move of the mover of `pos`, several at once on one solver made with `solver_args`, with
/// a progress bar counting them in `unit` (`done` shows each move finished) and Ctrl-C,
/// and times it.
pub fn with_progress<T, O>(
    solver_args: &SolverArgs,
    game: &kalah_core::Game,
    pos: &kalah_core::Position,
    offer: Offer,
    unit: &str,
    done: impl Fn(&ProgressBar, &O) + Sync,
    analysis: impl FnOnce(
        &kalah_solver::Solver,
        usize,
        &AtomicBool,
        &(dyn Fn(&O) + Sync),
    ) -> Result<T, AnalysisError>,
) -> Result<(T, f64), CliError> {
    let steps = first_steps(game, pos, offer).len();
    if steps == 0 {
        return Err(analysis_error(AnalysisError::GameOver, ""));
    }
    let (solver, workers) =
        parallel_solver(solver_args, game, pos.seeds_in_houses() as usize, steps)?;
    let bar = progress_bar(solver_args.quiet, steps, unit);
    let start = Instant::now();
    let result = analysis(&solver, workers, interrupt_flag(), &|o: &O| done(&bar, o));
    bar.finish_and_clear();
    let t = result.map_err(|e| analysis_error(e, "nothing printed"))?;
    Ok((t, start.elapsed().as_secs_f64()))
}

/// The options `--rules bao` takes besides the board's ([`crate::args::check_game`]).
pub const BAO_OPTIONS: &[&str] = &["json", "time", "nodes", "depth", "memory-mb", "quiet"];

/// Runs `kalah openings`.
pub fn run(args: &Args, out: &mut dyn Write) -> Result<(), CliError> {
    if args.game.rules.bao() {
        return bao_openings(args, out);
    }
    // Catch Ctrl-C from the start, before the endgame database is built.
    interrupt_flag();
    let inputs = args.solver.inputs();
    with_output(
        args.output.file(),
        args.output.force(),
        &inputs,
        out,
        |out| report(args, out),
    )
}

/// Solves and prints to `out`.
fn report(args: &Args, out: &mut dyn Write) -> Result<(), CliError> {
    let (game, pos) = args.game.setup()?;
    if let Some((book, turns)) = from_book(&args.book, args.time.is_some(), &game, &pos)? {
        use kalah_analysis::book::report as book_report;
        if args.json {
            let json = book_report::openings_json(&book, &game, &pos, &turns);
            writeln!(out, "{json}")?;
        } else if args.csv {
            write!(out, "{}", book_report::openings_csv(&game, &turns))?;
        } else {
            book_report::openings_text(&book, &game, &pos, &turns, out)?;
        }
        return Ok(());
    }
    if let Some(time) = args.time {
        return timed_report(args, &game, &pos, &kalah_solver::Limits::time(time), out);
    }
    let (list, seconds) = with_progress(
        &args.solver,
        &game,
        &pos,
        Offer::AfterTurn,
        "first moves solved",
        solved_line(game.houses()),
        |solver, workers, cancel, on_done| {
            openings::openings(solver, &pos, Offer::AfterTurn, workers, cancel, on_done)
        },
    )?;
    if args.json {
        writeln!(
            out,
            "{}",
            report::openings_json(&game, &pos, &list, seconds)
        )?;
        Ok(())
    } else if args.csv {
        write!(out, "{}", report::openings_csv(game.houses(), &list))?;
        Ok(())
    } else {
        Ok(openings::write_text(&game, &pos, &list, seconds, out)?)
    }
}

/// The book's answer for every first turn of `pos`, where the book is to be used: with
/// `--book FILE` (an error where it does not hold every first turn), or, without `--time`
/// (`timed`), where the exact solve is not quick and the compiled-in book holds every
/// first turn ([`book::answers_first_turns`]).
pub fn from_book(
    args: &BookArgs,
    timed: bool,
    game: &kalah_core::Game,
    pos: &kalah_core::Position,
) -> Result<Option<(Book, Vec<BookTurn>)>, CliError> {
    if args.no_book || !book::answers_first_turns(args.book.is_some(), timed, game, pos) {
        return Ok(None);
    }
    let Some(book) = args.load(game.rules())? else {
        return Ok(None);
    };
    match book.first_turns(game, pos) {
        Some(turns) => Ok(Some((book, turns))),
        None if args.book.is_some() => Err(invalid(format!(
            "the book {} does not hold every first turn of {pos}",
            book.origin()
        ))),
        None => Ok(None),
    }
}

/// `kalah openings --time`: every first turn analysed within `limits`, printed to `out`.
fn timed_report(
    args: &Args,
    game: &kalah_core::Game,
    pos: &kalah_core::Position,
    limits: &kalah_solver::Limits,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let h = game.houses();
    let done = |bar: &ProgressBar, o: &TimedOpening| {
        bar.set_message(format!("{} ~{}", o.step.turn.notation(h), signed(o.eval)));
        bar.inc(1);
    };
    let (list, seconds) = with_progress(
        &args.solver.for_analysis(limits.time),
        game,
        pos,
        Offer::AfterTurn,
        "first moves analysed",
        done,
        |solver, workers, cancel, on_done| {
            timed_openings(
                solver,
                pos,
                Offer::AfterTurn,
                limits,
                workers,
                cancel,
                on_done,
            )
        },
    )?;
    if args.json {
        writeln!(out, "{}", report::timed_json(game, pos, &list, seconds))?;
    } else if args.csv {
        write!(out, "{}", report::timed_csv(h, &list))?;
    } else {
        openings::write_timed_text(game, pos, &list, seconds, out)?;
    }
    Ok(())
}

/// Runs `kalah openings --rules bao`: the value of every legal move of a Bao position,
/// exact from its solved game graph, or the anytime analysis' within limits.
fn bao_openings(args: &Args, out: &mut dyn Write) -> Result<(), CliError> {
    let (rules, pos) = args.game.bao_setup()?;
    let limits = crate::args::LimitArgs {
        time: args.time,
        nodes: args.nodes,
        depth: args.depth,
    };
    if let Some(limits) = limits.given() {
        return crate::analyse::bao_within(&pos, &limits, args.json, true, out);
    }
    let (solution, _) = crate::solving::solved_within(&args.graph, args.solver.quiet, &pos)?;
    if args.json {
        let report = kalah_analysis::wire::bao::report::openings_report(&rules, &pos, &solution);
        writeln!(out, "{report}")?;
        return Ok(());
    }
    writeln!(out, "position: {pos}")?;
    let moves = solution.move_values(&pos).expect("the root is solved");
    for line in kalah_analysis::wire::bao::text::solved_moves(&moves) {
        writeln!(out, "{line}")?;
    }
    Ok(())
}
