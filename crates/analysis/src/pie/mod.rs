//! The pie rule (swap): after South's first turn North may take over South's side.
//!
//! Convention (see docs/rules.md §3.6). Call the player who moves first the *first
//! player* and the other the *second player*. South (the first player) makes a first move
//! that leads to a position `P` of value `v` from South (the final South store minus North
//! store under perfect play from `P`). Then the second player chooses:
//!
//! - **no swap**: the players keep their sides; the first player ends `v` ahead;
//! - **swap**: the second player takes over South's side (the store, the houses and any
//!   extra sowing still owed) and the first player continues from `P` as North; the first
//!   player ends `-v` ahead.
//!
//! The second player swaps exactly when `v > 0` (the position favours whoever made the
//! move). On a tie, `v = 0`, they do **not** swap: both choices give a draw, and keeping
//! the sides is the rule's default. So each first move is worth `-|v|` to the first player
//! and `|v|` to the second, and the value of the game with the pie rule, from the first
//! player, is `max over first moves of -|v|`: South picks the most balanced move.
//!
//! Under [`Offer::AfterFirstSowing`] the offer comes after South's first sowing only. If
//! that sowing earned an extra sowing, `P` has South to move and `v` counts the rest of
//! South's turn too; whoever takes South's side plays it. The formula is the same.
//!
//! `kalah pie` runs in [`PieRun`] (or [`decide_report`] in one position), in `run.rs`;
//! its JSON is written in [`report`].

pub mod report;
mod run;

use std::io::{self, Write};
use std::sync::atomic::AtomicBool;

use kalah_core::{Game, Position, Side};
use kalah_solver::{Progress, Solver, Turn};

use crate::game::bounds::signed;
pub use crate::game::pie::{decide, PieDecision};
use crate::game::turns::Offer;
use crate::game::AnalysisError;
use crate::openings::{openings, Opening};
pub use run::{decide_report, PieRan, PieRun, PIE_UNIT};

/// One first move under the pie rule.
#[derive(Clone, Debug)]
pub struct PieChoice {
    /// The move, solved exactly (its value without the rule, from South, and its line).
    pub opening: Opening,
    /// What the second player does after it.
    pub decision: PieDecision,
}

/// The pie rule analysed for every first move.
#[derive(Clone, Debug)]
pub struct PieAnalysis {
    /// When the offer comes.
    pub offer: Offer,
    /// Every first move, best first for the first player with the rule (ties keep the
    /// order of [`openings`]: higher value without the rule first, then bin order).
    pub choices: Vec<PieChoice>,
    /// The value of the game with the pie rule, for the first player: the outcome of the
    /// best first move, `choices[0].decision.first_player`.
    pub value: i32,
}

impl PieAnalysis {
    /// The first player's best first move with the rule.
    pub fn best(&self) -> &PieChoice {
        &self.choices[0]
    }

    /// The first player's best first move without the rule: the one of highest value
    /// from South (the earliest in bin order among equals); `None` without a move.
    pub fn best_without_rule(&self) -> Option<&Opening> {
        self.choices
            .iter()
            .max_by_key(|c| {
                (
                    c.opening.value,
                    std::cmp::Reverse(c.opening.step.turn.sowings.clone()),
                )
            })
            .map(|c| &c.opening)
    }
}

/// Solves every first move of the mover of `pos` (South at the start) and applies the
/// pie rule to each; see the module documentation for the convention.
pub fn pie(
    solver: &Solver,
    pos: &Position,
    offer: Offer,
    workers: usize,
    cancel: &AtomicBool,
    on_done: &(dyn Fn(&Opening) + Sync),
) -> Result<PieAnalysis, AnalysisError> {
    Ok(apply(
        openings(solver, pos, offer, workers, cancel, on_done)?,
        offer,
    ))
}

/// The pie rule applied to first moves already solved: `all` as [`openings`] returns
/// them (best first without the rule), at least one. For a caller that solved the moves
/// itself, one at a time (the analysis board).
pub fn apply(all: Vec<Opening>, offer: Offer) -> PieAnalysis {
    let mut choices: Vec<PieChoice> = all
        .into_iter()
        .map(|o| {
            let decision = decide(o.value_for_mover());
            PieChoice {
                opening: o,
                decision,
            }
        })
        .collect();
    choices.sort_by_key(|c| -c.decision.first_player);
    let value = choices.first().map_or(0, |c| c.decision.first_player);
    PieAnalysis {
        offer,
        choices,
        value,
    }
}

/// Whether `pos` is a position where the swap is offered under `offer`: not one with South
/// still to move in its first turn when the offer comes after the whole turn.
pub fn offered(pos: &Position, offer: Offer) -> bool {
    pos.is_over() || pos.side_to_move() != Side::South || offer != Offer::AfterTurn
}

/// Why North has no decision in a position where the swap is not [`offered`] (South still
/// in its first turn), and what to give instead.
pub const NOT_OFFERED: &str = "South is to move in this position, so South's first turn is \
     not over: the swap is offered to North after South's whole turn (give the position \
     after it, or --offer first-sowing to decide after South's first sowing)";

/// The second player's decision in `pos`, the position after the first move (see
/// [`offered`]), solved exactly, with the principal variation from `pos` (replayed to its
/// value before it is returned).
pub fn decide_position(
    solver: &Solver,
    pos: &Position,
    cancel: &AtomicBool,
    progress: &mut dyn FnMut(&Progress),
) -> Result<(PieDecision, Vec<Turn>), AnalysisError> {
    let solution = solver.solve(pos, cancel, progress)?;
    let value = solution.value_from_south();
    kalah_solver::line::replay(solver.game(), pos, &solution.pv, value)?;
    Ok((decide(value), solution.pv))
}

impl PieAnalysis {
    /// The analysis as a table for people: its conventions, every first move, the
    /// verdict; `plain` is [`PieAnalysis::best_without_rule`], `seconds` the time taken.
    pub fn write_text(
        &self,
        game: &Game,
        plain: &Opening,
        seconds: f64,
        out: &mut dyn Write,
    ) -> io::Result<()> {
        writeln!(out, "rules       {}", game.rules())?;
        writeln!(
            out,
            "pie rule    offered after South's {}; North swaps exactly when the value is \
             positive for South (on a tie North keeps the sides)",
            match self.offer {
                Offer::AfterTurn => "whole first turn",
                Offer::AfterFirstSowing => "first sowing (the rest of the turn goes with the side)",
            }
        )?;
        writeln!(
            out,
            "values      value: from South without the rule; first player: the final margin \
             of the player who moved first, with the rule"
        )?;
        writeln!(out)?;
        self.write_choices(game.houses(), out)?;
        writeln!(out)?;
        self.write_verdict(game.houses(), plain, seconds, out)
    }

    /// The table of first moves: value, North's decision, the first player's outcome.
    fn write_choices(&self, h: usize, out: &mut dyn Write) -> io::Result<()> {
        let what = move_word(self.offer);
        let width = self
            .choices
            .iter()
            .map(|c| c.opening.step.turn.notation(h).len())
            .max()
            .unwrap_or(4)
            .max(6);
        writeln!(out, "{what:<width$}  value  North  first player")?;
        for c in &self.choices {
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
        &self,
        h: usize,
        plain: &Opening,
        seconds: f64,
        out: &mut dyn Write,
    ) -> io::Result<()> {
        let what = move_word(self.offer);
        let best = self.best();
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
            signed(self.value)
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
            self.choices.len()
        )
    }
}

/// What a first move is called in the text (`turn`, `sowing`).
fn move_word(offer: Offer) -> &'static str {
    match offer {
        Offer::AfterTurn => "turn",
        Offer::AfterFirstSowing => "sowing",
    }
}

impl PieDecision {
    /// The decision in `pos` for people: the value, the verdict and the line `pv`.
    pub fn write_text(
        &self,
        game: &Game,
        pos: &Position,
        pv: &[Turn],
        out: &mut dyn Write,
    ) -> io::Result<()> {
        let value = self.value;
        writeln!(out, "rules      {}", game.rules())?;
        writeln!(out, "position   {pos}")?;
        writeln!(
            out,
            "value      {} from South (the side that made the first move), without a swap",
            signed(value)
        )?;
        writeln!(out, "decision   {}", self.verdict())?;
        let pv = kalah_solver::line::notations(game.houses(), pv);
        writeln!(out, "pv         {}", pv.join(" "))
    }

    /// The verdict in words: swap or keep, and what it gains.
    fn verdict(&self) -> String {
        let value = self.value;
        if self.swap {
            format!(
                "swap: North takes over South's side and ends {} instead of {} ({} better)",
                signed(value),
                signed(-value),
                self.advantage
            )
        } else if value == 0 {
            "keep the sides: a draw either way (on a tie North does not swap)".to_string()
        } else {
            format!(
                "keep the sides: North ends {} instead of {} by swapping ({} better)",
                signed(-value),
                signed(value),
                self.advantage
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::turns::Step;
    use kalah_core::{Game, Rules, Side};
    use kalah_solver::Turn;

    /// First moves of South from bin `k + 1` worth `value`, as `openings` returns them.
    fn solved(values: &[i32]) -> Vec<Opening> {
        let start = Game::new(Rules::kalah(4, 3)).unwrap().start();
        let mut all: Vec<Opening> = values
            .iter()
            .enumerate()
            .map(|(k, &value)| Opening {
                step: Step {
                    turn: Turn {
                        side: Side::South,
                        sowings: vec![k],
                    },
                    after: start,
                },
                value,
                pv: Vec::new(),
                nodes: 0,
                elapsed: Default::default(),
            })
            .collect();
        all.sort_by_key(|o| -o.value);
        all
    }

    #[test]
    fn the_most_balanced_move_is_best_with_the_rule_the_highest_without() {
        let analysis = apply(solved(&[3, 5, -1, 5]), Offer::AfterTurn);
        assert_eq!(analysis.best().opening.step.turn.sowings, vec![2]);
        assert_eq!(analysis.value, -1);
        let plain = analysis.best_without_rule().unwrap();
        assert_eq!((plain.value, plain.step.turn.sowings.clone()), (5, vec![1]));
    }

    #[test]
    fn the_swap_is_offered_after_the_turn_only_once_north_is_to_move() {
        let game = Game::new(Rules::kalah(4, 3)).unwrap();
        let start = game.start();
        assert!(!offered(&start, Offer::AfterTurn));
        assert!(offered(&start, Offer::AfterFirstSowing));
        let after = game.play_unchecked(&start, 0);
        assert_eq!(after.side_to_move(), Side::North);
        assert!(offered(&after, Offer::AfterTurn));
    }

    #[test]
    fn a_decision_is_written_with_its_verdict() {
        let game = Game::new(Rules::kalah(4, 3)).unwrap();
        let mut text = Vec::new();
        decide(2)
            .write_text(&game, &game.start(), &[], &mut text)
            .unwrap();
        let text = String::from_utf8(text).unwrap();
        assert!(text.contains("decision   swap: North takes over South's side and ends +2"));
        assert!(decide(0).verdict().starts_with("keep the sides: a draw"));
        assert!(decide(-3).verdict().contains("(6 better)"));
    }

    #[test]
    fn offers_are_named_as_the_command_line_takes_them() {
        assert_eq!(Offer::AfterTurn.name(), "turn");
        assert_eq!(Offer::AfterFirstSowing.name(), "first-sowing");
    }
}
