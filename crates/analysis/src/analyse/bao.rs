//! The machine-readable reports of Bao's `kalah solve`, `openings` and `analyse` (`--json`,
//! docs/outputs.md), in the vocabulary of [`super`]: a solved game graph's value and every
//! move's, or one report of the anytime analysis.

use std::time::Duration;

use kalah_core::bao::{BaoMove, BaoPosition, BaoRules};
use kalah_solver::bao::{BaoSolved, Value as Wld};
use kalah_solver::Analysis;
use serde_json::{json, Map, Value};

use super::{analysis_fields, exact_fields};

/// Every move of `pos` with its exact value (`turn`, then `value` from South,
/// `value_for_mover`, `result`, `plies`), in the order given (best first as the solver
/// lists them).
pub fn turns_json(pos: &BaoPosition, moves: &[(BaoMove, Wld)]) -> Vec<Value> {
    moves
        .iter()
        .map(|(m, v)| {
            let mut turn = Map::new();
            turn.insert("turn".into(), json!(m.to_string()));
            turn.extend(exact_fields(pos.side(), *v));
            Value::Object(turn)
        })
        .collect()
}

/// The report of `kalah solve --rules bao --json`: `pos` under `rules` from its solved
/// game graph `solved`, which took `elapsed` (the value, the best turn and line, every
/// move's value and the graph's counts).
pub fn solve_report(
    rules: &BaoRules,
    pos: &BaoPosition,
    solved: &BaoSolved,
    elapsed: Duration,
) -> Value {
    let value = solved.value(pos).expect("the root is solved");
    let moves = solved.move_values(pos).expect("the root is solved");
    let pv: Vec<String> = solved.line(pos).iter().map(|m| m.to_string()).collect();
    let stats = solved.stats();
    let mut report = json!({
        "rules": rules.to_string(),
        "position": pos.to_string(),
        "side_to_move": pos.side().to_string(),
    });
    for (k, v) in exact_fields(pos.side(), value) {
        report[k] = v;
    }
    report["best_turn"] = json!(solved.best_move(pos).map(|(m, _)| m.to_string()));
    report["pv"] = json!(pv);
    report["turns"] = json!(turns_json(pos, &moves));
    report["positions"] = json!(stats.positions);
    report["won"] = json!(stats.won);
    report["lost"] = json!(stats.lost);
    report["drawn"] = json!(stats.drawn);
    report["seconds"] = json!(elapsed.as_secs_f64());
    report
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

/// One line of `kalah analyse --rules bao --json`: a depth's report, or with `last` the
/// final one (`kind` `iteration` or `final`, `final`, then the analysis' fields).
pub fn analysis_report(a: &Analysis<BaoMove>, last: bool) -> Value {
    let mut value = Map::new();
    value.insert(
        "kind".into(),
        json!(if last { "final" } else { "iteration" }),
    );
    value.insert("final".into(), json!(last));
    value.extend(analysis_fields(a, 0));
    Value::Object(value)
}

/// The report of `kalah show --rules bao --json`: the board (`pits`, `seeds`), the
/// position and its `rows`, the `side` to move, its legal `moves` and whether it is `over`.
pub fn show_json(rules: &BaoRules, pos: &BaoPosition) -> Value {
    let moves: Vec<String> = pos.legal().moves().map(|m| m.to_string()).collect();
    json!({
        "rules": rules.to_string(),
        "pits": rules.pits(),
        "seeds": rules.seeds(),
        "position": pos.to_string(),
        "side": pos.side().to_string(),
        "rows": pos.text_rows(),
        "moves": moves,
        "over": pos.terminal_value().is_some(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicBool;

    /// A small position of Bao(4,2) whose graph solves at once (a draw).
    const E16: &str = "2,1,0,1/1,0,0,0/0,0,0,1/2,1,1,0:S";

    fn solved(pos: &BaoPosition) -> BaoSolved {
        kalah_solver::bao::solve_position(pos, 1 << 20, &AtomicBool::new(false), &mut |_| {})
            .unwrap()
    }

    #[test]
    fn the_solve_report_holds_the_value_and_every_move() {
        let rules = BaoRules::new(4, 2).unwrap();
        let pos: BaoPosition = E16.parse().unwrap();
        let graph = solved(&pos);
        let r = solve_report(&rules, &pos, &graph, Duration::from_millis(250));
        assert_eq!(r["rules"], "Bao(4,2)");
        assert_eq!(r["position"], E16);
        assert_eq!(r["result"], "draw");
        assert_eq!(r["seconds"], 0.25);
        let turns = r["turns"].as_array().unwrap();
        assert_eq!(turns.len(), pos.legal().iter().count());
        let best = turns.iter().find(|t| t["turn"] == r["best_turn"]).unwrap();
        assert_eq!(best["result"], "draw");
        assert_eq!(r["pv"][0], r["best_turn"]);
        let shown = show_json(&rules, &pos);
        assert_eq!(
            (&shown["position"], &shown["over"]),
            (&json!(E16), &json!(false))
        );
        assert_eq!(shown["moves"].as_array().unwrap().len(), turns.len());
        let o = openings_report(&rules, &pos, &graph);
        assert_eq!(
            (&o["turns"], &o["best_turn"]),
            (&r["turns"], &r["best_turn"])
        );
    }

    #[test]
    fn an_analysis_report_says_whether_it_is_the_last() {
        let pos: BaoPosition = E16.parse().unwrap();
        let a = kalah_solver::bao_search::analyse(
            &pos,
            &kalah_solver::Limits::depth(2),
            &AtomicBool::new(false),
            &mut |_| {},
        );
        let last = analysis_report(&a, true);
        assert_eq!(
            (&last["kind"], &last["final"]),
            (&json!("final"), &json!(true))
        );
        let step = analysis_report(&a, false);
        assert_eq!(step["kind"], "iteration");
        assert_eq!(step["eval"], last["eval"]);
    }
}
