//! The answers of `kalah pie` as JSON: every first turn with the rule and without it
//! ([`pie_json`]), or North's decision in one position ([`decision_json`]). Every answer
//! names the rules as written on the command line (`rules`); values are from South.

use kalah_core::{Game, Position};
use kalah_solver::Turn;
use serde_json::{json, Value};

use super::{PieAnalysis, PieDecision};
use crate::game::turns::Offer;
use crate::openings::Opening;
use crate::wire::{under, write_line};

/// The answer of `kalah pie --json`: every first move (`turns`: turn, value, swap,
/// first_player, position_after, pv) best first with the rule, the best with the rule and
/// its `value`, the best without the rule (`plain`) and its value, and the `seconds`.
pub fn pie_json(game: &Game, analysis: &PieAnalysis, plain: &Opening, seconds: f64) -> Value {
    let h = game.houses();
    let turns: Vec<_> = analysis
        .choices
        .iter()
        .map(|c| {
            json!({
                "turn": c.opening.step.turn.notation(h),
                "value": c.opening.value,
                "swap": c.decision.swap,
                "first_player": c.decision.first_player,
                "position_after": c.opening.step.after.to_string(),
                "pv": write_line(h, &c.opening.pv),
            })
        })
        .collect();
    let fields = json!({
        "offer": analysis.offer.name(),
        "tie": "no swap",
        "turns": turns,
        "best_turn": analysis.best().opening.step.turn.notation(h),
        "value": analysis.value,
        "value_without_pie": plain.value,
        "best_turn_without_pie": plain.step.turn.notation(h),
        "seconds": seconds,
    });
    under(game.rules(), fields)
}

/// The answer of `kalah pie --json` in one position: North's decision (`swap`, what North
/// ends with, `north`, and by how much that beats the other choice, `advantage`) after
/// South's first move, worth `value` to South, and the line `pv` from `pos`.
pub fn decision_json(
    game: &Game,
    pos: &Position,
    offer: Offer,
    decision: &PieDecision,
    pv: &[Turn],
) -> Value {
    let d = decision;
    let fields = json!({
        "position": pos.to_string(),
        "offer": offer.name(),
        "value": d.value,
        "swap": d.swap,
        "north": -d.first_player,
        "advantage": d.advantage,
        "pv": write_line(game.houses(), pv),
    });
    under(game.rules(), fields)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::turns::first_steps;
    use crate::pie::{decide, PieChoice};
    use kalah_core::Rules;
    use std::time::Duration;

    /// Every first turn of Kalah(4,3) with made-up values (its bin number), each line
    /// the turn alone, worst first.
    fn list(game: &Game) -> Vec<Opening> {
        first_steps(game, &game.start(), Offer::AfterTurn)
            .into_iter()
            .enumerate()
            .map(|(i, step)| Opening {
                pv: vec![step.turn.clone()],
                step,
                value: i as i32 - 2,
                nodes: 10,
                elapsed: Duration::from_millis(500),
            })
            .collect()
    }

    #[test]
    fn the_pie_states_its_offer_its_tie_and_both_values() {
        let game = Game::new(Rules::kalah(4, 3)).unwrap();
        let choices: Vec<PieChoice> = list(&game)
            .into_iter()
            .map(|opening| PieChoice {
                decision: decide(opening.value),
                opening,
            })
            .collect();
        let plain = choices.last().unwrap().opening.clone();
        let analysis = PieAnalysis {
            offer: Offer::AfterTurn,
            value: choices[0].decision.first_player,
            choices,
        };
        let v = pie_json(&game, &analysis, &plain, 2.0);
        assert_eq!(v["offer"], json!("turn"));
        assert_eq!(v["tie"], json!("no swap"));
        assert_eq!(v["value"], json!(-2));
        assert_eq!(v["value_without_pie"], json!(plain.value));
        assert_eq!(v["turns"][0]["swap"], json!(false));
        let pv = [plain.step.turn.clone()];
        let d = decision_json(
            &game,
            &plain.step.after,
            Offer::AfterFirstSowing,
            &decide(3),
            &pv,
        );
        assert_eq!(d["offer"], json!("first-sowing"));
        assert_eq!(
            (&d["swap"], &d["north"], &d["advantage"]),
            (&json!(true), &json!(3), &json!(6))
        );
        assert_eq!(
            d["pv"],
            v["best_turn_without_pie"]
                .as_str()
                .map(|t| json!([t]))
                .unwrap()
        );
    }
}
