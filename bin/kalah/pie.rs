//! `kalah pie`: the pie rule (swap) for every first turn, or North's decision in one position.

use std::io::Write;
use std::sync::atomic::AtomicBool;

use kalah_analysis::wire::{self, report};
use kalah_analysis::{decide, pie, replay, Offer, Opening, PieAnalysis, PieDecision};
use kalah_core::{Game, Position, Side};
use kalah_solver::Turn;

use crate::analysis_io::{
    analysis_error, interrupt_flag, invalid, signed, single_solver, with_output,
};
use crate::args::{GameArgs, OutputArgs};
use crate::error::CliError;
use crate::openings::with_progress;
use crate::solving::{progress_message, SolverArgs};

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
}

/// Runs `kalah pie`.
pub fn run(args: &Args, out: &mut dyn Write) -> Result<(), CliError> {
    // Catch Ctrl-C from the start, before the endgame database is built.
    interrupt_flag();
    let offer = match args.offer {
        OfferArg::Turn => Offer::AfterTurn,
        OfferArg::FirstSowing => Offer::AfterFirstSowing,
    };
    with_output(args.output.file(), out, |out| {
        if args.game.position.is_given() {
            decide_one(args, offer, out)
        } else {
            analyse(args, offer, out)
        }
    })
}

/// The whole pie-rule analysis from the start position.
fn analyse(args: &Args, offer: Offer, out: &mut dyn Write) -> Result<(), CliError> {
    let (game, start) = args.game.setup()?;
    let (analysis, seconds) = with_progress(
        &args.solver,
        &game,
        &start,
        offer,
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
        write_text(&game, &analysis, plain, seconds, out)
    }
}

/// The analysis as a table for people: its conventions, every first move, the verdict.
fn write_text(
    game: &Game,
    analysis: &PieAnalysis,
    plain: &Opening,
    seconds: f64,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let offer = analysis.offer;
    writeln!(out, "rules       {}", game.rules())?;
    writeln!(
        out,
        "pie rule    offered after South's {}; North swaps exactly when the value is \
         positive for South (on a tie North keeps the sides)",
        match offer {
            Offer::AfterTurn => "whole first turn",
            Offer::AfterFirstSowing => "first sowing (the rest of the turn goes with the side)",
        }
    )?;
    writeln!(
        out,
        "values      value: from South without the rule; first player: the final margin of \
         the player who moved first, with the rule"
    )?;
    writeln!(out)?;
    write_choices(game.houses(), analysis, out)?;
    writeln!(out)?;
    write_verdict(game.houses(), analysis, plain, seconds, out)
}

/// What a first move is called in the text (`turn`, `sowing`).
fn move_word(offer: Offer) -> &'static str {
    match offer {
        Offer::AfterTurn => "turn",
        Offer::AfterFirstSowing => "sowing",
    }
}

/// The table of first moves: value, North's decision, the first player's outcome.
fn write_choices(h: usize, analysis: &PieAnalysis, out: &mut dyn Write) -> Result<(), CliError> {
    let what = move_word(analysis.offer);
    let choices = &analysis.choices;
    let width = choices
        .iter()
        .map(|c| c.opening.step.turn.notation(h).len())
        .max()
        .unwrap_or(4)
        .max(6);
    writeln!(out, "{what:<width$}  value  North  first player")?;
    for c in choices {
        writeln!(
            out,
            "{:<width$}  {:>5}  {:<5}  {:>12}",
            c.opening.step.turn.notation(h),
            signed(c.opening.value),
            if c.decision.swap { "swap" } else { "keep" },
            signed(c.decision.first_player)
        )?;
    }
    Ok(())
}

/// The best first move with the rule, the values with and without it, the work.
fn write_verdict(
    h: usize,
    analysis: &PieAnalysis,
    plain: &Opening,
    seconds: f64,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let what = move_word(analysis.offer);
    let best = analysis.best();
    writeln!(
        out,
        "best first {what} with the pie rule   {} (North {})",
        best.opening.step.turn.notation(h),
        if best.decision.swap {
            "swaps"
        } else {
            "keeps the sides"
        }
    )?;
    writeln!(
        out,
        "value with the pie rule         {} for the first player",
        signed(analysis.value)
    )?;
    writeln!(
        out,
        "value without the pie rule      {} for South (best first {what} {})",
        signed(plain.value),
        plain.step.turn.notation(h)
    )?;
    writeln!(
        out,
        "{} first {what}s solved exactly in {seconds:.2} s",
        analysis.choices.len()
    )?;
    Ok(())
}

/// North's decision in the position after South's first move.
fn decide_one(args: &Args, offer: Offer, out: &mut dyn Write) -> Result<(), CliError> {
    let (game, pos) = args.game.setup()?;
    if !pos.is_over() && pos.side_to_move() == Side::South && offer == Offer::AfterTurn {
        return Err(invalid(
            "South is to move in this position, so South's first turn is not over: the swap \
             is offered to North after South's whole turn (give the position after it, or \
             --offer first-sowing to decide after South's first sowing)",
        ));
    }
    let solver = single_solver(&args.solver, &game, pos.seeds_in_houses() as usize)?;
    let spinner = args.solver.spinner();
    let cancel: &AtomicBool = interrupt_flag();
    let sign = pos.side_to_move().sign();
    let solution = solver
        .solve(&pos, cancel, &mut |p| {
            spinner.set_message(progress_message(p, sign))
        })
        .map_err(|e| analysis_error(e.into(), "nothing printed"))?;
    spinner.finish_and_clear();
    let value = solution.value_from_south();
    replay(&game, &pos, &solution.pv, value).map_err(|e| CliError::Internal(e.to_string()))?;
    let decision = Decision {
        game: &game,
        pos: &pos,
        offer,
        decision: decide(value),
        pv: &solution.pv,
    };
    if args.json {
        writeln!(out, "{}", decision.json())?;
    } else {
        decision.write_text(out)?;
    }
    Ok(())
}

/// North's decision in one position, as JSON or as text.
struct Decision<'a> {
    game: &'a Game,
    pos: &'a Position,
    offer: Offer,
    decision: PieDecision,
    /// The principal variation from the position.
    pv: &'a [Turn],
}

impl Decision<'_> {
    /// The decision as one JSON object.
    fn json(&self) -> serde_json::Value {
        report::decision_json(self.game, self.pos, self.offer, &self.decision, self.pv)
    }

    /// The decision for people: the value, the verdict and the line.
    fn write_text(&self, out: &mut dyn Write) -> Result<(), CliError> {
        let (d, value) = (&self.decision, self.decision.value);
        writeln!(out, "rules      {}", self.game.rules())?;
        writeln!(out, "position   {}", self.pos)?;
        writeln!(
            out,
            "value      {} from South (the side that made the first move), without a swap",
            signed(value)
        )?;
        let verdict = if d.swap {
            format!(
                "swap: North takes over South's side and ends {} instead of {} ({} better)",
                signed(value),
                signed(-value),
                d.advantage
            )
        } else if value == 0 {
            "keep the sides: a draw either way (on a tie North does not swap)".to_string()
        } else {
            format!(
                "keep the sides: North ends {} instead of {} by swapping ({} better)",
                signed(-value),
                signed(value),
                d.advantage
            )
        };
        writeln!(out, "decision   {verdict}")?;
        let pv = wire::write_line(self.game.houses(), self.pv);
        writeln!(out, "pv         {}", pv.join(" "))?;
        Ok(())
    }
}
