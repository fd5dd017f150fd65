//! The work unit: a position to solve in a window, under rules, with its id; one JSON line
//! `{"id":7,"position":"...","window":[-49,49],"rules":"Kalah(4,3) ..."}`, written by
//! `kalah split` and `kalah merge --next`, read by `kalah batch`.

use kalah_core::{Game, Position, Rules, Side};
use serde_json::{json, Value};

use super::{field, read_position, read_rules, text_field, FormatError};
use crate::game::bounds::from_mover;

/// A search window from South: the exact value is asked for where it lies strictly
/// between `alpha` and `beta`; outside, only the side it lies on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Window {
    /// Values at most this need only be shown to be at most this.
    pub alpha: i32,
    /// Values at least this need only be shown to be at least this.
    pub beta: i32,
}

impl Window {
    /// The window that holds every value of a game of `rules`: the exact value is asked for.
    pub fn full(rules: &Rules) -> Window {
        let total = rules.total_seeds() as i32;
        Window {
            alpha: -total - 1,
            beta: total + 1,
        }
    }

    /// The window for the mover of a position with `side` to move.
    pub fn for_mover(self, side: Side) -> (i32, i32) {
        from_mover(side, (self.alpha, self.beta))
    }

    /// The window as written: `[alpha, beta]`.
    pub fn to_json(self) -> Value {
        json!([self.alpha, self.beta])
    }
}

/// A work unit: a position to solve in a window, under rules, with its id. One JSON line:
/// `{"id":7,"position":"...","window":[-49,49],"rules":"Kalah(4,3) ..."}`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unit {
    /// The unit's id in its manifest.
    pub id: u64,
    /// The position.
    pub position: Position,
    /// The window, from South.
    pub window: Window,
    /// The rules.
    pub rules: Rules,
}

impl Unit {
    /// The unit as a JSON object.
    pub fn to_json(&self) -> Value {
        json!({
            "id": self.id,
            "position": self.position.to_string(),
            "window": self.window.to_json(),
            "rules": self.rules.to_string(),
        })
    }

    /// Reads a unit line; the position is checked against the unit's own rules.
    pub fn parse(line: &str) -> Result<Unit, FormatError> {
        let v: Value = serde_json::from_str(line)
            .map_err(|e| FormatError(format!("not a JSON work unit: {e}")))?;
        let what = "the work unit";
        let id = field(&v, "id", what)?
            .as_u64()
            .ok_or_else(|| FormatError(format!("{what}: \"id\" is not a whole number")))?;
        let rules = read_rules(&v, what)?;
        let game = Game::new(rules).map_err(|e| FormatError(format!("{what}: {e}")))?;
        let position = read_position(&game, text_field(&v, "position", what)?, what)?;
        let window = match v.get("window") {
            None | Some(Value::Null) => Window::full(&rules),
            Some(w) => read_window(w, what)?,
        };
        Ok(Unit {
            id,
            position,
            window,
            rules,
        })
    }
}

/// A file of units (`units.jsonl`, a `--next` file): one unit a line, each line ended.
pub fn to_lines(units: &[Unit]) -> String {
    let mut text = String::new();
    for u in units {
        text.push_str(&u.to_json().to_string());
        text.push('\n');
    }
    text
}

/// Reads `[alpha, beta]`: a window that is not empty and within reason.
fn read_window(w: &Value, what: &str) -> Result<Window, FormatError> {
    let bad = || FormatError(format!("{what}: \"window\" is not [alpha, beta]"));
    let pair = w.as_array().filter(|p| p.len() == 2).ok_or_else(bad)?;
    let alpha = pair[0].as_i64().ok_or_else(bad)?;
    let beta = pair[1].as_i64().ok_or_else(bad)?;
    // `contains`, not `abs`: the absolute value of i64::MIN overflows.
    let in_range = |x: i64| (-1000..=1000).contains(&x);
    if alpha >= beta || !in_range(alpha) || !in_range(beta) {
        return Err(FormatError(format!(
            "{what}: window [{alpha}, {beta}] is empty or out of range"
        )));
    }
    Ok(Window {
        alpha: alpha as i32,
        beta: beta as i32,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_unit_round_trips_through_its_line() {
        for rules in [Rules::kalah(4, 3), Rules::kalah(6, 4)] {
            let game = Game::new(rules).unwrap();
            for window in [Window::full(&rules), Window { alpha: -3, beta: 4 }] {
                let unit = Unit {
                    id: 7,
                    position: game.start(),
                    window,
                    rules,
                };
                let line = unit.to_json().to_string();
                assert_eq!(Unit::parse(&line).unwrap(), unit);
            }
        }
    }

    #[test]
    fn a_file_of_units_round_trips_line_by_line() {
        let rules = Rules::kalah(4, 3);
        let game = Game::new(rules).unwrap();
        let units: Vec<Unit> = (0..3)
            .map(|id| Unit {
                id,
                position: game.start(),
                window: Window::full(&rules),
                rules,
            })
            .collect();
        let text = to_lines(&units);
        let back: Vec<Unit> = text.lines().map(|l| Unit::parse(l).unwrap()).collect();
        assert_eq!(back, units);
        assert!(text.ends_with('\n'));
    }

    #[test]
    fn a_unit_without_a_window_asks_for_the_exact_value() {
        let rules = Rules::kalah(4, 3);
        let line = format!(r#"{{"id":0,"position":"3,3,3,3,0,3,3,3,3,0:S","rules":"{rules}"}}"#);
        assert_eq!(Unit::parse(&line).unwrap().window, Window::full(&rules));
        let empty = line.replace("\"rules\"", "\"window\":[2,2],\"rules\"");
        assert!(Unit::parse(&empty).is_err());
    }

    #[test]
    fn a_window_for_north_is_turned_round() {
        let w = Window { alpha: -3, beta: 4 };
        assert_eq!(w.for_mover(Side::South), (-3, 4));
        assert_eq!(w.for_mover(Side::North), (-4, 3));
    }
}
