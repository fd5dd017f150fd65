//! Bao's values and analyses as JSON, in the vocabulary of the sowing games' outputs
//! (docs/outputs.md): `eval` from South and `eval_mover` for the side to move (points, 100
//! a seed), `value` from South and `value_for_mover` (+1 a win, -1 a loss, 0 a draw),
//! `best_turn`, `pv`, `turns` (one object a move: `turn`, ...). What Bao adds is the
//! proven outcome in words for the side to move: `result` (`win`, `loss` or `draw`) and
//! the distance to the end of the game (`plies` for an exact value of the whole game
//! graph, `within_moves` for a win or loss the search proved).
//!
//! The table of `kalah export --rules bao` is written by [`table_json`] (read back by
//! [`read_table`]) and [`table_csv`]. The answer line of `kalah batch --rules bao`
//! ([`answer_line`]) is read back by the
//! sowing games' reader, [`AnswerLine`](super::answer::AnswerLine), to resume a batch:
//! both have `line`, `input` and `rules`, and `error` for a line not answered. The reports
//! of `kalah solve`, `openings` and `analyse` are their tasks' (`analyse::bao`,
//! `openings::report`); the words they share are in [`text`].

pub mod text;

use std::fmt;

use kalah_core::bao::{BaoMove, BaoPosition, BaoRules};
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

/// How a position of a Bao batch was answered.
#[derive(Clone, Copy, Debug)]
pub enum BaoAnswer<'a> {
    /// By the anytime analysis (exact only where it proved a win or a loss).
    Analysed(&'a Analysis<BaoMove>),
    /// By the solved game graph.
    Exact {
        /// The value for the side to move.
        value: Wld,
        /// The best move (none where the game is over).
        best: Option<BaoMove>,
        /// The line of best play.
        pv: &'a [BaoMove],
        /// The positions of the graph solved.
        positions: u64,
        /// Whether the graph was solved for an earlier line of the batch.
        reused: bool,
    },
}

/// The answer line for input line `line` with the text `input`, under `rules`: the
/// position answered with its answer and the time it took, or the error that kept it
/// from one (docs/outputs.md lists the fields).
pub fn answer_line(
    line: usize,
    input: &str,
    rules: &BaoRules,
    result: Result<(&BaoPosition, BaoAnswer, f64), &dyn fmt::Display>,
) -> Value {
    let mut out = Map::new();
    out.insert("line".into(), json!(line));
    out.insert("input".into(), json!(input));
    out.insert("rules".into(), json!(rules.to_string()));
    let (pos, answer, seconds) = match result {
        Ok(answered) => answered,
        Err(e) => {
            out.insert("error".into(), json!(e.to_string()));
            return Value::Object(out);
        }
    };
    out.insert("position".into(), json!(pos.to_string()));
    out.insert("side".into(), json!(pos.side().to_string()));
    match answer {
        BaoAnswer::Analysed(a) => {
            out.insert("exact".into(), json!(a.proven.is_some()));
            out.extend(proven_fields(a.side, a.proven));
            out.insert("eval".into(), json!(a.eval_from_south()));
            out.insert("eval_mover".into(), json!(a.eval));
            out.insert("depth".into(), json!(a.depth));
            out.insert(
                "best_turn".into(),
                json!(a.best_turn().map(|m| m.to_string())),
            );
            out.insert("pv".into(), json!(moves_json(&a.pv)));
            out.insert("nodes".into(), json!(a.nodes));
        }
        BaoAnswer::Exact {
            value,
            best,
            pv,
            positions,
            reused,
        } => {
            out.insert("exact".into(), json!(true));
            out.extend(exact_fields(pos.side(), value));
            out.insert("best_turn".into(), json!(best.map(|m| m.to_string())));
            out.insert("pv".into(), json!(moves_json(pv)));
            out.insert("positions".into(), json!(positions));
            out.insert("reused_graph".into(), json!(reused));
        }
    }
    out.insert("seconds".into(), json!(seconds));
    Value::Object(out)
}

/// What the values of a Bao table mean, in its first line (as the sowing games' tables
/// say).
pub const TABLE_VALUES: &str = "from South: value +1 South wins, -1 North wins, 0 a draw \
                                (exact only); eval heuristic points, 100 a seed";

/// The table of `kalah export --rules bao` as JSON: a first line that says what it is
/// (`"kind": "bao table"`, the `rules` as text, the `start`, the `depth` in moves, what
/// the `values` mean), then `positions`, one entry a line.
pub fn table_json(rules: &str, start: &BaoPosition, depth: u32, entries: &[Value]) -> String {
    let mut text = format!(
        "{{\"kind\":\"bao table\",\"rules\":{},\"start\":{},\"depth\":{depth},\"values\":{},\
         \"positions\":[\n",
        json!(rules),
        json!(start.to_string()),
        json!(TABLE_VALUES)
    );
    let lines: Vec<String> = entries.iter().map(|e| e.to_string()).collect();
    text.push_str(&lines.join(",\n"));
    text.push_str("\n]}\n");
    text
}

/// A Bao table read back: its rules, start, depth and entries (each as written).
#[derive(Clone, Debug, PartialEq)]
pub struct BaoTable {
    /// The board.
    pub rules: BaoRules,
    /// The position the table starts from.
    pub start: BaoPosition,
    /// The moves from the start it covers.
    pub depth: u32,
    /// One entry a position, in the order written.
    pub positions: Vec<Value>,
}

/// Reads a table written by [`table_json`]; each entry's `position` must be a position
/// of the table's board.
pub fn read_table(text: &str) -> Result<BaoTable, super::FormatError> {
    use super::{field, int_field, text_field, FormatError};
    let what = "a Bao table";
    let v: Value = serde_json::from_str(text).map_err(|e| FormatError(format!("{what}: {e}")))?;
    if v["kind"] != "bao table" {
        return Err(FormatError(format!(
            "{what}: \"kind\" is not \"bao table\""
        )));
    }
    let rules: BaoRules = text_field(&v, "rules", what)?
        .parse()
        .map_err(|e| FormatError(format!("{what}: {e}")))?;
    let position = |text: &str| -> Result<BaoPosition, FormatError> {
        let pos: BaoPosition = text
            .parse()
            .map_err(|e| FormatError(format!("{what}: {e}")))?;
        crate::game::setup::bao::check_board(&rules, &pos)
            .map_err(|e| FormatError(format!("{what}: {e}")))?;
        Ok(pos)
    };
    let start = position(text_field(&v, "start", what)?)?;
    let depth = u32::try_from(int_field(&v, "depth", what)?)
        .map_err(|_| FormatError(format!("{what}: bad \"depth\"")))?;
    let positions = field(&v, "positions", what)?
        .as_array()
        .ok_or_else(|| FormatError(format!("{what}: \"positions\" is not a list")))?
        .clone();
    for e in &positions {
        position(text_field(e, "position", what)?)?;
    }
    Ok(BaoTable {
        rules,
        start,
        depth,
        positions,
    })
}

/// The table as CSV: a header, then one row a position (`position`, `side`, `turns`,
/// `value`, `best`, `exact`, `eval`, `depth`, and the moves as `move=value` separated by
/// spaces, the move's evaluation where its value is not proven).
pub fn table_csv(entries: &[Value]) -> String {
    let mut text = String::from("position,side,turns,value,best,exact,eval,depth,moves\n");
    let field = |v: &Value| match v {
        Value::Null => String::new(),
        Value::String(s) => s.clone(),
        v => v.to_string(),
    };
    for e in entries {
        let moves: Vec<String> = e["moves"]
            .as_array()
            .map(|ms| {
                ms.iter()
                    .map(|m| {
                        let v = if m["value"].is_null() {
                            &m["eval"]
                        } else {
                            &m["value"]
                        };
                        format!("{}={}", field(&m["move"]), field(v))
                    })
                    .collect()
            })
            .unwrap_or_default();
        text.push_str(&format!(
            "\"{}\",{},{},{},{},{},{},{},{}\n",
            field(&e["position"]),
            field(&e["side"]),
            field(&e["turns"]),
            field(&e["value"]),
            field(&e["best"]),
            field(&e["exact"]),
            field(&e["eval"]),
            field(&e["depth"]),
            moves.join(" ")
        ));
    }
    text
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

    #[test]
    fn an_answer_line_round_trips_through_the_batch_reader() {
        use super::super::answer::AnswerLine;
        let rules = BaoRules::new(4, 2).unwrap();
        let pos: BaoPosition = "2,1,0,1/1,0,0,0/0,0,0,1/2,1,1,0:S".parse().unwrap();
        let pv: Vec<BaoMove> = pos.legal().moves().take(1).collect();
        let exact = BaoAnswer::Exact {
            value: Wld::Draw,
            best: pv.first().copied(),
            pv: &pv,
            positions: 12,
            reused: false,
        };
        let text = answer_line(5, "E16", &rules, Ok((&pos, exact, 0.25))).to_string();
        let back = AnswerLine::parse(text.as_bytes()).unwrap();
        assert!(back.answers(5, "E16") && back.has_rules("Bao(4,2)"));
        assert!(!back.is_error() && !back.is_heuristic());
        let v: Value = serde_json::from_str(&text).unwrap();
        assert_eq!((&v["value"], &v["result"]), (&json!(0), &json!("draw")));
        assert_eq!(v["best_turn"], json!(pv[0].to_string()));
        assert_eq!(v["pv"], json!(moves_json(&pv)));
        let error = answer_line(6, "x", &rules, Err(&"bad board")).to_string();
        let back = AnswerLine::parse(error.as_bytes()).unwrap();
        assert!(back.is_error() && back.answers(6, "x"));
        assert_eq!(back.error(), Some("bad board"));
    }

    #[test]
    fn a_table_round_trips_through_its_json() {
        let rules = BaoRules::new(4, 2).unwrap();
        let start = rules.start();
        let after = start.legal().iter().next().unwrap().next;
        let entries = vec![
            json!({"position": start.to_string(), "side": "South", "turns": 0, "exact": false,
                   "value": null, "eval": 12, "eval_mover": 12, "depth": 3, "best": "A1+",
                   "moves": [{"move": "A1+", "eval": 12, "eval_mover": 12, "bound": "exact",
                              "value": null}]}),
            json!({"position": after.to_string(), "side": "North", "turns": 1, "exact": true,
                   "value": 1, "best": null, "moves": []}),
        ];
        let text = table_json("Bao(4,2)", &start, 1, &entries);
        assert!(text.starts_with("{\"kind\":\"bao table\""));
        let back = read_table(&text).unwrap();
        assert_eq!(
            back,
            BaoTable {
                rules,
                start,
                depth: 1,
                positions: entries.clone()
            }
        );
        // A position of another board is refused.
        let other = BaoRules::new(3, 2).unwrap().start();
        let foreign = table_json("Bao(4,2)", &other, 1, &entries);
        assert!(read_table(&foreign).is_err());
        let csv = table_csv(&entries);
        assert_eq!(csv.lines().count(), 3);
        assert!(
            csv.lines().nth(1).unwrap().ends_with(",false,12,3,A1+=12"),
            "{csv}"
        );
    }
}
