//! The answers of `kalah openings`: a sowing game's every first turn as JSON and CSV,
//! exact ([`openings_json`], [`openings_csv`]) or within a time limit ([`timed_json`],
//! [`timed_csv`]), and Bao's every move as JSON ([`openings_report`]) and its analysed
//! moves as text ([`analysed_moves`]).
//!
//! Every answer names the rules as written on the command line (`rules`); a position is
//! written in the board form, a turn and a principal variation (`pv`) in the published
//! notation ([`write_line`]); values are from South unless the field says otherwise.

use kalah_core::bao::{BaoMove, BaoPosition, BaoRules};
use kalah_core::{Game, Position};
use kalah_solver::bao::BaoSolved;
use kalah_solver::Analysis;
use serde_json::{json, Value};

use super::{total_nodes, Opening, TimedOpening};
use crate::wire::bao::text::outcome_words;
use crate::wire::bao::turns_json;
use crate::wire::csv_field;
use crate::wire::{about, under, write_line};

/// The answer of `kalah openings --json`: every first turn of the mover of `pos`
/// (`turns`: turn, value, value_for_mover, position_after, pv, nodes, seconds), best
/// first, then the best turn, the value, the nodes and the `seconds` of the whole run.
/// `list` is not empty.
pub fn openings_json(game: &Game, pos: &Position, list: &[Opening], seconds: f64) -> Value {
    let h = game.houses();
    let turns: Vec<_> = list
        .iter()
        .map(|o| {
            json!({
                "turn": o.step.turn.notation(h),
                "value": o.value,
                "value_for_mover": o.value_for_mover(),
                "position_after": o.step.after.to_string(),
                "pv": write_line(h, &o.pv),
                "nodes": o.nodes,
                "seconds": o.elapsed.as_secs_f64(),
            })
        })
        .collect();
    let fields = json!({
        "turns": turns,
        "best_turn": list[0].step.turn.notation(h),
        "value": list[0].value,
        "nodes": total_nodes(list),
        "seconds": seconds,
    });
    under(game.rules(), about(pos, fields))
}

/// The answer of `kalah openings --csv`: a header, then one row a turn (turn, value,
/// value_for_mover, position_after, pv with its turns separated by spaces).
pub fn openings_csv(houses: usize, list: &[Opening]) -> String {
    let mut text = String::from("turn,value,value_for_mover,position_after,pv\n");
    for o in list {
        text.push_str(&format!(
            "{},{},{},{},{}\n",
            o.step.turn.notation(houses),
            o.value,
            o.value_for_mover(),
            csv_field(&o.step.after.to_string()),
            write_line(houses, &o.pv).join(" ")
        ));
    }
    text
}

/// One turn of [`timed_openings`](super::timed_openings) as JSON: as `kalah
/// openings --json` writes an exact turn (`turn`, `value`, `value_for_mover`,
/// `position_after`, `pv`, `nodes`, `seconds`); a heuristic one has `"exact": false`,
/// `eval`, `eval_mover`, `depth`, `lower` and `upper` (from South) instead of the
/// values.
pub fn timed_turn_json(houses: usize, o: &TimedOpening) -> Value {
    let mut v = json!({
        "turn": o.step.turn.notation(houses),
        "position_after": o.step.after.to_string(),
        "pv": write_line(houses, &o.pv),
        "nodes": o.nodes,
        "seconds": o.elapsed.as_secs_f64(),
    });
    if o.is_exact() {
        v["value"] = json!(o.eval);
        v["value_for_mover"] = json!(o.eval_for_mover());
    } else {
        v["exact"] = json!(false);
        v["eval"] = json!(o.eval);
        v["eval_mover"] = json!(o.eval_for_mover());
        v["depth"] = json!(o.depth);
        v["lower"] = json!(o.lower);
        v["upper"] = json!(o.upper);
    }
    v
}

/// The answer of `kalah openings --time --json`: every turn ([`timed_turn_json`]) best
/// first, the best turn, whether every turn is `exact`, the nodes and the `seconds`, the
/// rules and the position (as `kalah openings --json`).
pub fn timed_json(game: &Game, pos: &Position, list: &[TimedOpening], seconds: f64) -> Value {
    let h = game.houses();
    let turns: Vec<_> = list.iter().map(|o| timed_turn_json(h, o)).collect();
    json!({
        "turns": turns,
        "best_turn": list[0].step.turn.notation(h),
        "exact": list.iter().all(TimedOpening::is_exact),
        "nodes": list.iter().map(|o| o.nodes).sum::<u64>(),
        "seconds": seconds,
        "rules": game.rules().to_string(),
        "position": pos.to_string(),
        "side_to_move": pos.side_to_move().to_string(),
    })
}

/// The answer of `kalah openings --time --csv`: a header, then one row a turn (turn,
/// exact, eval, lower, upper, depth, eval_mover, position_after, pv with its turns
/// separated by spaces); `eval` is the exact value where `exact` is true.
pub fn timed_csv(houses: usize, list: &[TimedOpening]) -> String {
    let mut text = String::from("turn,exact,eval,lower,upper,depth,eval_mover,position_after,pv\n");
    for o in list {
        text.push_str(&format!(
            "{},{},{},{},{},{},{},{},{}\n",
            o.step.turn.notation(houses),
            o.is_exact(),
            o.eval,
            o.lower,
            o.upper,
            o.depth,
            o.eval_for_mover(),
            csv_field(&o.step.after.to_string()),
            write_line(houses, &o.pv).join(" ")
        ));
    }
    text
}

/// The report of `kalah openings --rules bao --json`: every move of `pos` under `rules`
/// with its exact value from the solved game graph, and the best.
pub fn openings_report(rules: &BaoRules, pos: &BaoPosition, solved: &BaoSolved) -> Value {
    let moves = solved.move_values(pos).expect("the root is solved");
    json!({
        "rules": rules.to_string(),
        "position": pos.to_string(),
        "side_to_move": pos.side().to_string(),
        "best_turn": solved.best_move(pos).map(|(m, _)| m.to_string()),
        "turns": turns_json(pos, &moves),
    })
}

/// Every move of an analysis with its evaluation for the mover, its depth and what is
/// proven, one a line, best first.
pub fn analysed_moves(a: &Analysis<BaoMove>) -> Vec<String> {
    a.turns
        .iter()
        .map(|t| {
            let proven = t
                .proven
                .map_or("heuristic".to_string(), |o| outcome_words("", o));
            format!(
                "  {:>4}  {:>+6} points for the mover, depth {:>2}  {proven}",
                t.turn.to_string(),
                t.eval,
                t.depth
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::openings::{first_steps, Offer};
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
    fn the_openings_name_their_rules_position_and_turns() {
        let game = Game::new(Rules::kalah(4, 3)).unwrap();
        let list = list(&game);
        let v = openings_json(&game, &game.start(), &list, 1.5);
        assert_eq!(v["rules"], json!(game.rules().to_string()));
        assert_eq!(v["position"], json!(game.start().to_string()));
        assert_eq!(v["side_to_move"], json!("South"));
        assert_eq!(v["best_turn"], v["turns"][0]["turn"]);
        assert_eq!(v["turns"][0]["pv"], json!([v["turns"][0]["turn"]]));
        assert_eq!(v["nodes"], json!(10 * list.len()));
        assert_eq!(v["turns"][1]["seconds"], json!(0.5));
        let csv = openings_csv(4, &list);
        let row = format!(
            "{},-2,-2,\"{}\",{0}",
            v["turns"][0]["turn"].as_str().unwrap(),
            list[0].step.after
        );
        assert_eq!(csv.lines().nth(1), Some(row.as_str()), "{csv}");
        assert_eq!(csv.lines().count(), list.len() + 1);
    }

    #[test]
    fn bao_reports_name_every_move() {
        use kalah_core::bao::{BaoPosition, BaoRules};
        use std::sync::atomic::AtomicBool;
        // A small position of Bao(4,2) whose graph solves at once (a draw).
        let pos: BaoPosition = "2,1,0,1/1,0,0,0/0,0,0,1/2,1,1,0:S".parse().unwrap();
        let never = AtomicBool::new(false);
        let rules = BaoRules::new(4, 2).unwrap();
        let graph = kalah_solver::bao::solve_position(&pos, 1 << 20, &never, &mut |_| {}).unwrap();
        let o = openings_report(&rules, &pos, &graph);
        let turns = o["turns"].as_array().unwrap();
        assert_eq!(turns.len(), pos.legal().iter().count());
        let best = turns.iter().find(|t| t["turn"] == o["best_turn"]).unwrap();
        assert_eq!(best["result"], "draw");
        let limits = kalah_solver::Limits::depth(2);
        let a = kalah_solver::bao_search::analyse(&pos, &limits, &never, &mut |_| {});
        assert_eq!(analysed_moves(&a).len(), a.turns.len());
    }
}
