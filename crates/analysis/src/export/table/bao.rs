//! Bao's evaluation table, of `kalah export --rules bao`, as JSON ([`table_json`], read
//! back by [`read_table`]) and CSV ([`table_csv`]).

use kalah_core::bao::{BaoPosition, BaoRules};
use serde_json::{json, Value};

use crate::wire::FormatError;

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
pub fn read_table(text: &str) -> Result<BaoTable, FormatError> {
    use crate::wire::{field, int_field, text_field};
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
