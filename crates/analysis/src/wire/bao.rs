//! Bao's values and analyses as JSON, in the vocabulary of the sowing games' outputs
//! (docs/outputs.md): `eval` from South and `eval_mover` for the side to move (points, 100
//! a seed), `value` from South and `value_for_mover` (+1 a win, -1 a loss, 0 a draw),
//! `best_turn`, `pv`, `turns` (one object a move: `turn`, ...). What Bao adds is the
//! proven outcome in words for the side to move: `result` (`win`, `loss` or `draw`) and
//! the distance to the end of the game (`plies` for an exact value of the whole game
//! graph, `within_moves` for a win or loss the search proved).
//!
//! The fields here are shared by the tasks that write Bao: the answer line of `kalah batch
//! --rules bao` (`crate::wire::answer::bao`), the table of `kalah export --rules bao`
//! (`crate::export::table::bao`) and the reports of `kalah solve`, `openings` and
//! `analyse` (`analyse::bao`, `openings::report`); the words they share are in [`text`].

pub mod analysis;
pub mod text;

use kalah_core::bao::{BaoMove, BaoPosition};
use kalah_core::Side;
use kalah_solver::bao::Value as Wld;
use kalah_solver::bao_search::Outcome;
use kalah_solver::{Analysis, RootTurn};
use serde_json::{json, Map, Value};

/// Moves as text, one string a move.
pub fn moves_json(line: &[BaoMove]) -> Vec<String> {
    line.iter().map(|m| m.to_string()).collect()
}

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

/// An exact value of the solved game graph for `mover`, the side to move: `value` (from
/// South), `value_for_mover`, `result` and `plies` (null for a draw).
pub fn exact_fields(mover: Side, v: Wld) -> Map<String, Value> {
    let mut out = Map::new();
    out.insert("value".into(), json!(v.sign() * mover.sign()));
    out.insert("value_for_mover".into(), json!(v.sign()));
    let (result, plies) = match v {
        Wld::Win(d) => ("win", json!(d)),
        Wld::Loss(d) => ("loss", json!(d)),
        Wld::Draw => ("draw", Value::Null),
    };
    out.insert("result".into(), json!(result));
    out.insert("plies".into(), plies);
    out
}

/// What the search proved for `mover`, the side to move: `value` (from South),
/// `value_for_mover`, `result` (`win` or `loss`) and `within_moves`, all null where
/// nothing is proven (a draw is never claimed by the search).
pub fn proven_fields(mover: Side, proven: Option<Outcome>) -> Map<String, Value> {
    let (value, result, moves) = match proven {
        Some(o @ Outcome::Won { moves }) => (json!(o.sign()), json!("win"), json!(moves)),
        Some(o @ Outcome::Lost { moves }) => (json!(o.sign()), json!("loss"), json!(moves)),
        None => (Value::Null, Value::Null, Value::Null),
    };
    let mut out = Map::new();
    out.insert(
        "value".into(),
        value
            .as_i64()
            .map_or(Value::Null, |v| json!(v * mover.sign() as i64)),
    );
    out.insert("value_for_mover".into(), value);
    out.insert("result".into(), result);
    out.insert("within_moves".into(), moves);
    out
}

/// One root move of the search: `turn`, `eval` (from South), `eval_mover`, `depth`,
/// `exact` (a win or loss proven) and what is proven ([`proven_fields`]).
pub fn root_move_json(mover: Side, t: &RootTurn<BaoMove>) -> Value {
    let mut out = Map::new();
    out.insert("turn".into(), json!(t.turn.to_string()));
    out.insert("eval".into(), json!(mover.sign() * t.eval));
    out.insert("eval_mover".into(), json!(t.eval));
    out.insert("depth".into(), json!(t.depth));
    out.insert("exact".into(), json!(t.proven.is_some()));
    out.extend(proven_fields(mover, t.proven));
    Value::Object(out)
}

/// The fields of one report of Bao's anytime analysis: `side`, `depth`, `eval` (from
/// South), `eval_mover`, `exact`, what is proven ([`proven_fields`]), `best_turn`, `pv`,
/// the `turns` shown (the `shown` best; all where `shown` is 0), `nodes`,
/// `nodes_per_second`, `seconds`.
pub fn analysis_fields(a: &Analysis<BaoMove>, shown: usize) -> Map<String, Value> {
    let n = match shown {
        0 => a.turns.len(),
        n => n.min(a.turns.len()),
    };
    let mut out = Map::new();
    out.insert("side".into(), json!(a.side.to_string()));
    out.insert("depth".into(), json!(a.depth));
    out.insert("eval".into(), json!(a.eval_from_south()));
    out.insert("eval_mover".into(), json!(a.eval));
    out.insert("exact".into(), json!(a.proven.is_some()));
    out.extend(proven_fields(a.side, a.proven));
    out.insert(
        "best_turn".into(),
        json!(a.best_turn().map(|m| m.to_string())),
    );
    out.insert("pv".into(), json!(moves_json(&a.pv)));
    let turns: Vec<Value> = a.turns[..n]
        .iter()
        .map(|t| root_move_json(a.side, t))
        .collect();
    out.insert("turns".into(), json!(turns));
    out.insert("nodes".into(), json!(a.nodes));
    out.insert(
        "nodes_per_second".into(),
        json!(a.nodes_per_second().round() as u64),
    );
    out.insert("seconds".into(), json!(a.elapsed.as_secs_f64()));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_values_are_from_south_and_for_the_mover() {
        let north_wins = exact_fields(Side::North, Wld::Win(3));
        assert_eq!(north_wins["value"], -1);
        assert_eq!(north_wins["value_for_mover"], 1);
        assert_eq!(north_wins["result"], "win");
        assert_eq!(north_wins["plies"], 3);
        let draw = exact_fields(Side::South, Wld::Draw);
        assert_eq!(draw["value"], 0);
        assert_eq!(draw["plies"], Value::Null);
    }

    #[test]
    fn a_proven_loss_of_north_is_a_south_win() {
        let lost = proven_fields(Side::North, Some(Outcome::Lost { moves: 2 }));
        assert_eq!(lost["value"], 1);
        assert_eq!(lost["value_for_mover"], -1);
        assert_eq!(lost["result"], "loss");
        assert_eq!(lost["within_moves"], 2);
        let none = proven_fields(Side::South, None);
        assert!(none.values().all(Value::is_null));
    }
}
