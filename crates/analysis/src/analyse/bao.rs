//! Bao's reports of `kalah solve`, `analyse` and `show`, where Bao differs: its values are
//! outcomes (a win, a loss or a draw, and how far) rather than scores. As JSON
//! (`--json`, docs/outputs.md, in the vocabulary of [`crate::wire::bao`]): a solved game
//! graph's value and every move's ([`solve_report`]); as text, the lines without their
//! line ends: a solved game graph ([`solve_lines`]). The reports of the anytime analysis
//! are shared wire ([`crate::wire::bao::analysis`]).

use std::time::Duration;

use kalah_core::bao::{BaoPosition, BaoRules};
use kalah_solver::bao::{BaoSolved, Value as Wld};
use serde_json::{json, Value};

use crate::wire::bao::text::solved_moves;
use crate::wire::bao::{exact_fields, turns_json};

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

/// A value for the side to move, as printed: `win in 3 (South wins)`.
fn value_words(pos: &BaoPosition, v: Wld) -> String {
    let (mover, other) = (pos.side(), pos.side().other());
    match v {
        Wld::Win(_) => format!("{} ({mover} wins)", v.describe()),
        Wld::Loss(_) => format!("{} ({other} wins)", v.describe()),
        Wld::Draw => "draw (best play repeats for ever)".to_string(),
    }
}

/// The text of `kalah solve --rules bao`: `pos` from its solved game graph `solved`,
/// which took `elapsed` (the value, the best move and line, every move's value and the
/// graph's counts).
pub fn solve_lines(pos: &BaoPosition, solved: &BaoSolved, elapsed: Duration) -> Vec<String> {
    let value = solved.value(pos).expect("the root is solved");
    let moves = solved.move_values(pos).expect("the root is solved");
    let pv: Vec<String> = solved.line(pos).iter().map(|m| m.to_string()).collect();
    let stats = solved.stats();
    let mut lines = vec![
        format!("position: {pos}"),
        format!(
            "value:    {} for {} to move",
            value_words(pos, value),
            pos.side()
        ),
    ];
    if let Some((m, _)) = solved.best_move(pos) {
        lines.push(format!("best:     {m}"));
    }
    lines.push(format!("pv:       {}", pv.join(" ")));
    lines.extend(solved_moves(&moves));
    lines.push(format!(
        "{} positions ({} won, {} lost, {} drawn for the mover) in {:.2} s",
        stats.positions,
        stats.won,
        stats.lost,
        stats.drawn,
        elapsed.as_secs_f64()
    ));
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wire::bao::analysis::{analysis_line, analysis_report};
    use crate::wire::bao::text::outcome_words;
    use kalah_solver::bao_search::Outcome;
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
        let shown = crate::game::Board::bao_start(rules)
            .at(E16)
            .unwrap()
            .show_json();
        assert_eq!(
            (&shown["position"], &shown["over"]),
            (&json!(E16), &json!(false))
        );
        assert_eq!(shown["moves"].as_array().unwrap().len(), turns.len());
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

    #[test]
    fn a_solved_draw_reads_as_a_draw_with_every_move() {
        let pos: BaoPosition = E16.parse().unwrap();
        let never = AtomicBool::new(false);
        let solved = kalah_solver::bao::solve_position(&pos, 1 << 20, &never, &mut |_| {}).unwrap();
        let lines = solve_lines(&pos, &solved, Duration::from_millis(10));
        assert_eq!(lines[0], format!("position: {E16}"));
        assert_eq!(
            lines[1],
            "value:    draw (best play repeats for ever) for South to move"
        );
        let moves = solved.move_values(&pos).unwrap();
        assert!(lines.last().unwrap().ends_with(" in 0.01 s"));
        assert_eq!(lines.len(), moves.len() + 5);
    }

    #[test]
    fn an_analysis_summary_names_the_best_move_and_what_is_proven() {
        let pos: BaoPosition = E16.parse().unwrap();
        let never = AtomicBool::new(false);
        let a = kalah_solver::bao_search::analyse(
            &pos,
            &kalah_solver::Limits::depth(2),
            &never,
            &mut |_| {},
        );
        let last = analysis_line(&a, true);
        assert!(last.starts_with("best move "), "{last}");
        assert!(analysis_line(&a, false).starts_with("depth "));
        assert_eq!(
            outcome_words("North ", Outcome::Won { moves: 3 }),
            "proven: North wins within 3 moves"
        );
    }
}
