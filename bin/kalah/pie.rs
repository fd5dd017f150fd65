//! `kalah pie`: the pie rule (swap) for every first turn, or North's decision in one position.

use std::io::Write;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use indicatif::ProgressBar;

use kalah_analysis::wire::report;
use kalah_analysis::{first_steps, pie, AnalysisError, Offer, Opening};

use crate::analysis_io::{analysis_error, interrupt_flag, invalid, progress_bar, with_output};
use crate::args::{GameArgs, OutputArgs};
use crate::book_args::BookArgs;
use crate::error::CliError;
use crate::solving::{parallel_solver, progress_message, SolverArgs};

/// When the swap is offered.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum OfferArg {
    /// After South's complete first turn, extra sowings included (docs/rules.md §3.6)
    Turn,
    /// After South's very first sowing; whoever then owns South's side plays any extra
    /// sowing it earned
    FirstSowing,
}

/// The pie rule: after South's first turn, North may take over South's side.
///
/// Lists every first turn of South with its value (from South, without the rule), whether
/// North swaps, and the outcome for the first player with the rule; then South's best first
/// turn under the rule and the value of the game with the rule.
///
/// Convention: North swaps exactly when the value after the turn is positive for the player
/// who made it (South); on a tie (value 0) North keeps the sides, and the game is drawn
/// either way. A first turn of value v is therefore worth -|v| to the first player, and the
/// value of the game with the rule is the largest -|v| over South's first turns. After a
/// swap the first player plays North's side, so "first player" values are that player's
/// final margin, whichever side they end on.
///
/// With --position or --moves, the position is the one after South's first turn (North
/// to decide): prints whether North should swap and by how much.
///
/// Example: `kalah pie --houses 6 --seeds 4`, `kalah pie --moves 3-6`
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Print one JSON object (turns with turn/value/swap, best_turn, value) instead of text
    #[arg(long)]
    json: bool,

    /// When the swap is offered
    #[arg(long, value_enum, default_value = "turn")]
    offer: OfferArg,

    #[command(flatten)]
    output: OutputArgs,

    #[command(flatten)]
    game: GameArgs,

    #[command(flatten)]
    solver: SolverArgs,

    #[command(flatten)]
    book: BookArgs,
}

/// Runs `kalah pie`.
pub fn run(args: &Args, out: &mut dyn Write) -> Result<(), CliError> {
    // Catch Ctrl-C from the start, before the endgame database is built.
    interrupt_flag();
    let offer = match args.offer {
        OfferArg::Turn => Offer::AfterTurn,
        OfferArg::FirstSowing => Offer::AfterFirstSowing,
    };
    let inputs = args.solver.inputs();
    with_output(
        args.output.file(),
        args.output.force(),
        &inputs,
        out,
        |out| {
            if args.game.position.is_given() {
                decide_one(args, offer, out)
            } else {
                analyse(args, offer, out)
            }
        },
    )
}

/// The whole pie-rule analysis from the start position.
fn analyse(args: &Args, offer: Offer, out: &mut dyn Write) -> Result<(), CliError> {
    let (game, start) = args.game.setup()?;
    if offer == Offer::AfterTurn {
        if let Some((book, turns)) = args.book.first_turns(false, &game, &start)? {
            use kalah_analysis::book::report as book_report;
            if args.json {
                writeln!(out, "{}", book_report::pie_json(&book, &game, &turns))?;
            } else {
                book_report::pie_text(&book, &game, &turns, out)?;
            }
            return Ok(());
        }
    }
    let (analysis, seconds) = with_progress(
        &args.solver,
        &game,
        &start,
        offer,
        "first moves solved",
        solved_line(game.houses()),
        |solver, workers, cancel, on_done| pie(solver, &start, offer, workers, cancel, on_done),
    )?;
    let plain = analysis
        .best_without_rule()
        .ok_or_else(|| invalid("no first move"))?;
    if args.json {
        writeln!(
            out,
            "{}",
            report::pie_json(&game, &analysis, plain, seconds)
        )?;
        Ok(())
    } else {
        Ok(analysis.write_text(&game, plain, seconds, out)?)
    }
}

/// North's decision in the position after South's first move.
fn decide_one(args: &Args, offer: Offer, out: &mut dyn Write) -> Result<(), CliError> {
    let (game, pos) = args.game.setup()?;
    if !pie::offered(&pos, offer) {
        return Err(invalid(pie::NOT_OFFERED));
    }
    let solver = args.solver.solver(&game, pos.seeds_in_houses() as usize)?;
    let spinner = args.solver.spinner();
    let cancel: &AtomicBool = interrupt_flag();
    let sign = pos.side_to_move().sign();
    let decision = pie::decide_position(&solver, &pos, cancel, &mut |p| {
        spinner.set_message(progress_message(p, sign))
    });
    spinner.finish_and_clear();
    let (decision, pv) = decision.map_err(|e| analysis_error(e, "nothing printed"))?;
    if args.json {
        let json = report::decision_json(&game, &pos, offer, &decision, &pv);
        writeln!(out, "{json}")?;
    } else {
        decision.write_text(&game, &pos, &pv, out)?;
    }
    Ok(())
}

/// The progress of `pie` solving: one line above the bar per move solved.
fn solved_line(houses: usize) -> impl Fn(&ProgressBar, &Opening) + Sync {
    move |bar, o| {
        bar.println(o.done_line(houses));
        bar.inc(1);
    }
}

/// Runs `analysis` (the pie rule) over every first move of the mover of `pos`, several at
/// once on one solver made with `solver_args`, with a progress bar counting them in `unit`
/// (`done` shows each move finished) and Ctrl-C, and times it.
fn with_progress<T, O>(
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
