//! The answers of `kalah openings`, `kalah pie`, `kalah solve` and `kalah show` as JSON
//! (and the openings as CSV), one object per answer, for programs that read them.
//!
//! Every answer names the rules as written on the command line (`rules`); a position is
//! written in the board form, a turn and a principal variation (`pv`) in the published
//! notation ([`write_line`]); values are from South unless the field says otherwise.

use kalah_core::{notation, Game, Position, Rules, Side};
use kalah_solver::{Solution, Solver, Turn};
use serde_json::{json, Value};

use super::table::csv_field;
use super::write_line;
use crate::game::Board;
pub use crate::openings::total_nodes;
use crate::openings::TimedOpening;
use crate::{Offer, Opening, PieAnalysis, PieDecision};

/// `fields` with the rules the answer was made under (`rules`) added.
fn under(rules: &Rules, mut fields: Value) -> Value {
    fields["rules"] = json!(rules.to_string());
    fields
}

/// `fields` with the position asked about (`position`) and its side to move
/// (`side_to_move`) added.
fn about(pos: &Position, mut fields: Value) -> Value {
    fields["position"] = json!(pos.to_string());
    fields["side_to_move"] = json!(pos.side_to_move().to_string());
    fields
}

/// A turn in the published notation.
fn turn(houses: usize, t: &Turn) -> String {
    t.notation(houses)
}

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
                "turn": turn(h, &o.step.turn),
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
        "best_turn": turn(h, &list[0].step.turn),
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
            turn(houses, &o.step.turn),
            o.value,
            o.value_for_mover(),
            csv_field(&o.step.after.to_string()),
            write_line(houses, &o.pv).join(" ")
        ));
    }
    text
}

/// One turn of [`timed_openings`](crate::openings::timed_openings) as JSON: as `kalah
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
                "turn": turn(h, &c.opening.step.turn),
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
        "best_turn": turn(h, &analysis.best().opening.step.turn),
        "value": analysis.value,
        "value_without_pie": plain.value,
        "best_turn_without_pie": turn(h, &plain.step.turn),
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

/// The endgame database file `solver` loaded, if any (named, or found in a directory).
pub fn egdb_file(solver: &Solver) -> Option<String> {
    solver
        .egdb()
        .and_then(|d| d.path())
        .map(|p| p.display().to_string())
}

/// The answer of `kalah solve --json`: the value of `pos` from South and for the mover,
/// the best turn, the principal variation, and the work (nodes, seconds, speed, threads,
/// table size and use, the database's reach, hits and file).
pub fn solve_json(solver: &Solver, pos: &Position, solution: &Solution) -> Value {
    let h = solver.game().houses();
    let config = solver.config();
    let fields = json!({
        "value": solution.value_from_south(),
        "value_for_mover": solution.value,
        "best_turn": solution.best_turn().map(|t| turn(h, t)),
        "pv": write_line(h, &solution.pv),
        "nodes": solution.nodes,
        "seconds": solution.elapsed.as_secs_f64(),
        "nodes_per_second": solution.nodes_per_second().round(),
        "threads": config.threads,
        "hash_mb": config.hash_mb,
        "table_permille": solution.table_permille,
        "egdb_seeds": solver.database_seeds_for(pos),
        "egdb_hits": solution.egdb_hits,
        "egdb_file": egdb_file(solver),
    });
    under(solver.game().rules(), about(pos, fields))
}

/// The answer of `kalah show --json`: the position (`houses` South's then North's, each
/// from its owner's left; `stores` South's then North's), the side to move, the bins it
/// may sow (`moves`), whether the game is over and the `score` (South's store minus
/// North's).
pub fn show_json(game: &Game, pos: &Position) -> Value {
    let h = pos.houses_per_side();
    let houses: Vec<u8> = [Side::South, Side::North]
        .into_iter()
        .flat_map(|side| (0..h).map(move |j| pos.house(side, j)))
        .collect();
    let fields = json!({
        "position": pos.to_string(),
        "side": pos.side_to_move().to_string(),
        "houses": houses,
        "stores": [pos.store(Side::South), pos.store(Side::North)],
        "moves": notation::move_bins(game, pos),
        "over": pos.is_over(),
        "score": pos.score(),
    });
    under(game.rules(), fields)
}

impl Board {
    /// The position as JSON, as `kalah show --json` prints it (docs/outputs.md): a sowing
    /// game's by [`show_json`], Bao's by [`super::bao::report::show_json`].
    pub fn show_json(&self) -> Value {
        match self {
            Board::Sowing(game, pos) => show_json(game, pos),
            Board::Bao(rules, pos) => super::bao::report::show_json(rules, pos),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{decide, first_steps, PieChoice};
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

    #[test]
    fn a_position_is_shown_with_its_houses_stores_and_bins() {
        let game = Game::new(Rules::kalah(3, 2)).unwrap();
        let pos = game.settle("0,2,2,1,2,2,2,0:N".parse().unwrap()).unwrap();
        let v = show_json(&game, &pos);
        assert_eq!(v["houses"], json!([0, 2, 2, 2, 2, 2]));
        assert_eq!(v["stores"], json!([1, 0]));
        assert_eq!(v["side"], json!("North"));
        assert_eq!(v["moves"], json!([5, 6, 7]));
        assert_eq!((&v["over"], &v["score"]), (&json!(false), &json!(1)));
        assert_eq!(v["rules"], json!(game.rules().to_string()));
    }

    #[test]
    fn a_board_is_shown_by_the_json_of_its_kind() {
        let game = Game::new(Rules::kalah(3, 2)).unwrap();
        let start = game.start();
        let sowing = Board::Sowing(Box::new(game.clone()), start);
        assert_eq!(sowing.show_json(), show_json(&game, &start));
        let bao = crate::game::setup::bao::setup(&crate::game::setup::bao::BaoOptions {
            pits: Some(4),
            seeds: Some(2),
            position: None,
            moves: None,
        })
        .unwrap();
        let board = Board::Bao(bao.rules, bao.pos);
        assert_eq!(
            board.show_json(),
            super::super::bao::report::show_json(&bao.rules, &bao.pos)
        );
        assert_eq!(board.show_json()["rules"], bao.rules.to_string());
    }

    #[test]
    fn a_solve_reports_its_value_line_and_work() {
        let game = Game::new(Rules::kalah(3, 2)).unwrap();
        let config = kalah_solver::Config {
            threads: 1,
            hash_mb: 4,
            ..kalah_solver::Config::default()
        };
        let solver = Solver::new(game.clone(), config).unwrap();
        let pos = game.start();
        let solution = solver
            .solve(&pos, &Default::default(), &mut |_| {})
            .unwrap();
        let v = solve_json(&solver, &pos, &solution);
        assert_eq!(v["value"], json!(solution.value_from_south()));
        assert_eq!(v["pv"], json!(write_line(3, &solution.pv)));
        assert_eq!(v["best_turn"], v["pv"][0]);
        assert_eq!(v["threads"], json!(solver.config().threads));
        assert_eq!(v["egdb_file"], Value::Null);
    }
}
