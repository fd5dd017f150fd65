//! `kalah pie`: the pie rule (swap) for every first turn, or North's decision in one position.

use std::io::Write;

use indicatif::ProgressBar;

use kalah_analysis::openings::chosen_first_turns;
use kalah_analysis::pie::{decide_report, PieRun, PIE_UNIT};
use kalah_analysis::{pie, Offer};

use crate::analysis_io::{analysis_error, interrupt_flag, invalid, progress_bar, with_output};
use crate::args::{GameArgs, OutputArgs};
use crate::book_args::BookArgs;
use crate::error::CliError;
use crate::solving::{SetupSpinner, SolverArgs};

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
    // The book read is an input too: never the report's file.
    let mut inputs = args.solver.inputs();
    inputs.extend(args.book.book.clone());
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
    let setup = SetupSpinner::of(&args.solver);
    let analysis = PieRun::new(
        &game,
        &start,
        offer,
        |game, pos| chosen_first_turns::<CliError>(&args.book.choice(), false, game, pos),
        &args.solver.solving(&setup),
    )?
    .map_err(|e| analysis_error(e, ""))?;
    let bar = match analysis.steps() {
        Some(steps) => progress_bar(args.solver.quiet, steps, PIE_UNIT),
        None => ProgressBar::hidden(),
    };
    let ran = analysis.run(interrupt_flag(), &|line| {
        bar.println(line);
        bar.inc(1);
    });
    bar.finish_and_clear();
    let ran = ran.map_err(|e| analysis_error(e, "nothing printed"))?;
    Ok(analysis.write(&ran, args.json, out)?)
}

/// North's decision in the position after South's first move.
fn decide_one(args: &Args, offer: Offer, out: &mut dyn Write) -> Result<(), CliError> {
    let (game, pos) = args.game.setup()?;
    if !pie::offered(&pos, offer) {
        return Err(invalid(pie::NOT_OFFERED));
    }
    let setup = SetupSpinner::of(&args.solver);
    let solving = args.solver.solving(&setup);
    let solver = solving.solver(&game, pos.seeds_in_houses() as usize)?;
    let spinner = args.solver.spinner();
    let report = decide_report(
        &solver,
        &pos,
        offer,
        args.json,
        interrupt_flag(),
        &mut |w| spinner.set_message(w),
    );
    spinner.finish_and_clear();
    write!(
        out,
        "{}",
        report.map_err(|e| analysis_error(e, "nothing printed"))?
    )?;
    Ok(())
}
