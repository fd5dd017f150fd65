//! The JSON formats that travel between runs and machines, each with its writer and its
//! reader side by side: the rules ([`rules`]), the work unit ([`mod@unit`]) and its answer
//! line ([`answer`]: a batch writes it, a merge of a split reads it), and Bao's values and
//! analyses in the same vocabulary ([`bao`]); what `kalah egdb` says of database files and
//! the cache ([`egdb`]). A task's own format lives with the task: the table in
//! `crate::export::table`, the games
//! and result of `kalah match` in `crate::matches`, the manifest of a split in
//! `distributed::manifest`, the answers of openings, pie, solve and bench in their
//! folders (`openings::report`, `pie::report`, `analyse::report`, `bench::report`). The
//! helpers here read and write the fields the formats and the tasks' answers share (the
//! rules and position asked about, a line of turns).

pub mod answer;
pub mod bao;
pub mod egdb;
pub mod rules;
pub mod unit;

use std::fmt;
use std::io::{self, Write};

use kalah_core::{notation, Game, Position, Rules};
use kalah_solver::Turn;
use serde_json::Value;

/// Why a manifest, a unit or an answer could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FormatError(pub String);

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for FormatError {}

/// Field `name` of the object `v`, which is `what` in messages.
pub(crate) fn field<'v>(v: &'v Value, name: &str, what: &str) -> Result<&'v Value, FormatError> {
    v.get(name)
        .ok_or_else(|| FormatError(format!("{what} has no \"{name}\"")))
}

/// The string field `name` of `v`.
pub(crate) fn text_field<'v>(v: &'v Value, name: &str, what: &str) -> Result<&'v str, FormatError> {
    field(v, name, what)?
        .as_str()
        .ok_or_else(|| FormatError(format!("{what}: \"{name}\" is not a string")))
}

/// The integer field `name` of `v`.
pub(crate) fn int_field(v: &Value, name: &str, what: &str) -> Result<i64, FormatError> {
    field(v, name, what)?
        .as_i64()
        .ok_or_else(|| FormatError(format!("{what}: \"{name}\" is not an integer")))
}

/// The rules written as text in the field `rules` of `v`.
pub(crate) fn read_rules(v: &Value, what: &str) -> Result<Rules, FormatError> {
    let text = text_field(v, "rules", what)?;
    text.parse()
        .map_err(|e| FormatError(format!("{what}: bad rules '{text}': {e}")))
}

/// A position in the board form, checked against `game` and settled.
pub(crate) fn read_position(game: &Game, text: &str, what: &str) -> Result<Position, FormatError> {
    let pos: Position = text
        .parse()
        .map_err(|e| FormatError(format!("{what}: bad position '{text}': {e}")))?;
    game.settle(pos).map_err(|e| {
        FormatError(format!(
            "{what}: position '{text}' does not fit the rules: {e}"
        ))
    })
}

/// `fields` with the rules the answer was made under (`rules`) added.
pub(crate) fn under(rules: &Rules, mut fields: Value) -> Value {
    fields["rules"] = serde_json::json!(rules.to_string());
    fields
}

/// `fields` with the position asked about (`position`) and its side to move
/// (`side_to_move`) added.
pub(crate) fn about(pos: &Position, mut fields: Value) -> Value {
    fields["position"] = serde_json::json!(pos.to_string());
    fields["side_to_move"] = serde_json::json!(pos.side_to_move().to_string());
    fields
}

/// A line of turns as written: one string in the notation a turn.
pub fn write_line(houses: usize, line: &[Turn]) -> Vec<String> {
    line.iter().map(|t| t.notation(houses)).collect()
}

/// Reads a line of turns written in the notation, one string a turn, from `pos`, each
/// turn played with the checked move generator; the turns' ends are checked by
/// [`replay`](kalah_solver::line::replay) afterwards.
pub fn read_line(game: &Game, pos: &Position, turns: &[Value]) -> Result<Vec<Turn>, String> {
    let mut p = *pos;
    let mut out = Vec::with_capacity(turns.len());
    for t in turns {
        let text = t.as_str().ok_or("a turn of the line is not a string")?;
        let side = p.side_to_move();
        let (next, sowings) =
            notation::play_moves(game, p, text).map_err(|e| format!("turn '{text}': {e}"))?;
        out.push(Turn { side, sowings });
        p = next;
    }
    Ok(out)
}

/// Writes a report as one JSON object on a line (`json`) or as text for people: the one
/// choice every report's `write` makes.
pub fn json_or_text(
    json: bool,
    out: &mut dyn Write,
    to_json: impl FnOnce() -> Value,
    text: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> io::Result<()> {
    if json {
        writeln!(out, "{}", to_json())
    } else {
        text(out)
    }
}

/// A field for a CSV cell: quoted (its quotes doubled) when it holds a comma, a quote or a
/// line break.
pub fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::turns::{first_steps, Offer};

    #[test]
    fn a_line_round_trips_through_its_notation() {
        let game = Game::new(Rules::kalah(4, 3)).unwrap();
        let start = game.start();
        // The last turn in bin order, five times (extra sowings included).
        let (mut pos, mut line) = (start, Vec::new());
        for _ in 0..5 {
            let Some(step) = first_steps(&game, &pos, Offer::AfterTurn).pop() else {
                break;
            };
            line.push(step.turn);
            pos = step.after;
        }
        let written: Vec<Value> = write_line(4, &line).into_iter().map(Value::from).collect();
        assert_eq!(read_line(&game, &start, &written).unwrap(), line);
        assert!(read_line(&game, &start, &[Value::from(7)]).is_err());
    }

    #[test]
    fn a_cell_is_quoted_only_when_it_must_be() {
        assert_eq!(csv_field("3-6"), "3-6");
        assert_eq!(csv_field("4,4:S"), "\"4,4:S\"");
        assert_eq!(csv_field("a\"b"), "\"a\"\"b\"");
    }
}
