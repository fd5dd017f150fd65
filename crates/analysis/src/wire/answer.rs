//! The answer line of `kalah batch`: one JSON object for each position of the input,
//! written by [`write()`] and read by [`AnswerLine`] (to resume a batch, and to merge the
//! answers of a split).
//!
//! Every line has `line` (the input's 1-based line number), `input` (its text) and `rules`
//! (as text). A solved line adds `position`, `value` (from South), `best_turn`, `pv` (one
//! string a turn), `nodes` and `seconds`; a work unit's also `id` and `window`, and where
//! its value lies outside the window `at_least` or `at_most` instead of `value` (with an
//! empty `pv`). A line that could not be solved has `error` instead.
//!
//! An answer of `kalah batch --time` whose analysis did not prove the value within the
//! time is *heuristic*: it has `"exact": false`, the evaluation `eval` (from South; and
//! `eval_mover` for the side to move) and the `depth` it was reached at, the proven interval `lower`..`upper` (from South, the
//! exact value lies in it) and the best turn and line guessed (`best_turn`, `pv`), but
//! no `value`, `at_least` or `at_most`, so that nothing reads it as exact
//! ([`AnswerLine::claim`] refuses it). An exact answer is written as without `--time`.
//!
//! Bao's answer line is [`bao`]'s; it is read back by the same [`AnswerLine`].

use std::fmt;
use std::time::Duration;

use kalah_core::{Game, Position, Rules};
use kalah_solver::Turn;
use serde_json::{json, Value};

pub mod bao;

use crate::wire::unit::Unit;
use crate::wire::{field, int_field, read_line, write_line, FormatError};

/// What an answer's value is: the value itself, or a bound where the value lies outside
/// the unit's window.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The exact value.
    Exact,
    /// The value is at least this (at least the window's upper end).
    AtLeast,
    /// The value is at most this (at most the window's lower end).
    AtMost,
    /// Not proved: the value is a heuristic evaluation (from South) reached at `depth`,
    /// and the exact value lies in the proven interval `lower..=upper` (from South).
    Heuristic {
        /// Proven lower bound, from South.
        lower: i32,
        /// Proven upper bound, from South.
        upper: i32,
        /// The depth of the evaluation, in sowings.
        depth: u8,
    },
}

impl Bound {
    /// Whether the answer is heuristic: not proved.
    pub fn is_heuristic(self) -> bool {
        matches!(self, Bound::Heuristic { .. })
    }

    /// The field the value is written in.
    fn name(self) -> &'static str {
        match self {
            Bound::Exact => "value",
            Bound::AtLeast => "at_least",
            Bound::AtMost => "at_most",
            Bound::Heuristic { .. } => "eval",
        }
    }
}

/// The answer for one position: exact, or for a work unit whose value lies outside its
/// window, a bound.
#[derive(Clone, Debug)]
pub struct Answer {
    /// The position solved.
    pub position: Position,
    /// Its value from South, or the bound, or the heuristic evaluation (see
    /// [`Answer::bound`]).
    pub value: i32,
    /// Whether `value` is the value or a bound of it.
    pub bound: Bound,
    /// A principal variation (empty when the game is over or the value is a bound),
    /// replayed and checked; for a heuristic answer, the line guessed (not checked).
    pub pv: Vec<Turn>,
    /// The work unit the line held, if it held one.
    pub unit: Option<Unit>,
    /// Nodes searched.
    pub nodes: u64,
    /// Wall time of the solve.
    pub elapsed: Duration,
}

impl Answer {
    /// The best turn of the player to move (none when the game is over).
    pub fn best_turn(&self) -> Option<&Turn> {
        self.pv.first()
    }
}

/// The answer line for input line `line` with the text `input`, solved under `rules`:
/// the answer, or the error that kept it from one.
pub fn write(
    line: usize,
    input: &str,
    rules: &Rules,
    result: Result<&Answer, &dyn fmt::Display>,
) -> Value {
    let mut out = json!({
        "line": line,
        "input": input,
        "rules": rules.to_string(),
    });
    let a = match result {
        Ok(a) => a,
        Err(e) => {
            out["error"] = json!(e.to_string());
            return out;
        }
    };
    let h = rules.houses as usize;
    if let Some(u) = &a.unit {
        out["id"] = json!(u.id);
        out["window"] = u.window.to_json();
    }
    out["position"] = json!(a.position.to_string());
    if let Bound::Heuristic {
        lower,
        upper,
        depth,
    } = a.bound
    {
        out["exact"] = json!(false);
        out["eval_mover"] = json!(a.value * a.position.side_to_move().sign());
        out["lower"] = json!(lower);
        out["upper"] = json!(upper);
        out["depth"] = json!(depth);
    }
    out[a.bound.name()] = json!(a.value);
    out["best_turn"] = json!(a.best_turn().map(|t| t.notation(h)));
    out["pv"] = json!(write_line(h, &a.pv));
    out["nodes"] = json!(a.nodes);
    out["seconds"] = json!(a.elapsed.as_secs_f64());
    out
}

/// What an answer says of a unit's value, from South.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Claim {
    /// The exact value, with a principal variation from the unit's position.
    Exact {
        /// The value.
        value: i32,
        /// The line that replays to it.
        pv: Vec<Turn>,
    },
    /// The value is at least this.
    AtLeast(i32),
    /// The value is at most this.
    AtMost(i32),
}

impl Claim {
    /// The bounds it states.
    pub(crate) fn bounds(&self) -> (i32, i32) {
        match *self {
            Claim::Exact { value, .. } => (value, value),
            Claim::AtLeast(v) => (v, i32::MAX),
            Claim::AtMost(v) => (i32::MIN, v),
        }
    }
}

/// One answer line as read back: any JSON value, with its fields read as they are asked
/// for, so that each reader decides which of them it needs and how a missing one reads.
#[derive(Clone, Debug, PartialEq)]
pub struct AnswerLine(Value);

impl AnswerLine {
    /// Reads one line (without its line break).
    pub fn parse(bytes: &[u8]) -> Result<AnswerLine, serde_json::Error> {
        serde_json::from_slice(bytes).map(AnswerLine)
    }

    /// The rules' text, if the line has it.
    pub fn rules(&self) -> Option<&str> {
        self.0["rules"].as_str()
    }

    /// Whether the line was answered under `rules` (written as `rules_text`).
    pub fn has_rules(&self, rules_text: &str) -> bool {
        self.0["rules"] == json!(rules_text)
    }

    /// Whether the line answers input line `line` with the text `input`.
    pub fn answers(&self, line: usize, input: &str) -> bool {
        self.0["line"] == json!(line) && self.0["input"] == json!(input)
    }

    /// The line number as written (`null` when there is none), for messages.
    pub fn line(&self) -> &Value {
        &self.0["line"]
    }

    /// The input's text, if the line has it.
    pub fn input(&self) -> Option<&str> {
        self.0["input"].as_str()
    }

    /// The work unit's id, for the answer to a unit.
    pub fn id(&self) -> Option<u64> {
        self.0.get("id").and_then(Value::as_u64)
    }

    /// Whether the line is an error instead of an answer.
    pub fn is_error(&self) -> bool {
        self.0.get("error").is_some()
    }

    /// The error's message, when it is text.
    pub fn error(&self) -> Option<&str> {
        self.0.get("error").and_then(Value::as_str)
    }

    /// The position answered, as written (not settled).
    pub fn position(&self) -> Option<Position> {
        self.0["position"].as_str().and_then(|p| p.parse().ok())
    }

    /// Whether the line is a heuristic answer (`"exact": false`, written by `kalah batch
    /// --time`): it proves no value.
    pub fn is_heuristic(&self) -> bool {
        self.0.get("exact") == Some(&json!(false))
    }

    /// The claim of the answer (`value` with `pv`, `at_least` or `at_most`) for a unit
    /// at `pos`, its line played from `pos`. A heuristic answer is refused, whatever
    /// else it holds: it proves no value.
    pub fn claim(&self, game: &Game, pos: &Position) -> Result<Claim, FormatError> {
        let (v, what) = (&self.0, "the answer");
        if self.is_heuristic() || v.get("exact").is_some_and(|e| e != &json!(true)) {
            return Err(FormatError(format!(
                "{what} is heuristic (\"exact\": false, written by batch --time): it proves \
                 no value; answer the unit again without --time"
            )));
        }
        if v.get("value").is_some() {
            let value = value_field(v, "value", what)?;
            let turns = field(v, "pv", what)?
                .as_array()
                .ok_or_else(|| FormatError(format!("{what}: \"pv\" is not a list")))?;
            let pv = read_line(game, pos, turns)
                .map_err(|e| FormatError(format!("{what}: bad principal variation: {e}")))?;
            Ok(Claim::Exact { value, pv })
        } else if v.get("at_least").is_some() {
            Ok(Claim::AtLeast(value_field(v, "at_least", what)?))
        } else if v.get("at_most").is_some() {
            Ok(Claim::AtMost(value_field(v, "at_most", what)?))
        } else {
            Err(FormatError(format!(
                "{what} has none of \"value\", \"at_least\" and \"at_most\""
            )))
        }
    }
}

/// The value or bound in the field `name` of `v`, refused where it does not fit 32 bits
/// rather than cut to them (`4294967302` is not read as `6`).
fn value_field(v: &Value, name: &str, what: &str) -> Result<i32, FormatError> {
    let n = int_field(v, name, what)?;
    i32::try_from(n).map_err(|_| FormatError(format!("{what}: \"{name}\" {n} is out of range")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::turns::{first_steps, Offer};
    use crate::wire::unit::Window;

    fn answer(game: &Game, bound: Bound, unit: Option<Unit>) -> Answer {
        let start = game.start();
        let step = first_steps(game, &start, Offer::AfterTurn).remove(0);
        Answer {
            position: start,
            value: 3,
            bound,
            pv: match bound {
                Bound::Exact => vec![step.turn],
                _ => Vec::new(),
            },
            unit,
            nodes: 42,
            elapsed: Duration::from_millis(5),
        }
    }

    /// The line written for `a`, read back.
    fn round_trip(a: &Answer, rules: &Rules) -> AnswerLine {
        let text = write(9, "the input", rules, Ok(a)).to_string();
        AnswerLine::parse(text.as_bytes()).unwrap()
    }

    #[test]
    fn an_answer_round_trips_through_its_line() {
        let rules = Rules::kalah(4, 3);
        let game = Game::new(rules).unwrap();
        let unit = Unit {
            id: 5,
            position: game.start(),
            window: Window { alpha: 2, beta: 3 },
            rules,
        };
        for (bound, unit) in [
            (Bound::Exact, None),
            (Bound::Exact, Some(unit.clone())),
            (Bound::AtLeast, Some(unit.clone())),
            (Bound::AtMost, Some(unit)),
        ] {
            let a = answer(&game, bound, unit);
            let back = round_trip(&a, &rules);
            assert!(back.has_rules(&rules.to_string()));
            assert_eq!(back.rules(), Some(rules.to_string().as_str()));
            assert!(back.answers(9, "the input") && !back.answers(8, "the input"));
            assert_eq!(back.input(), Some("the input"));
            assert_eq!(back.id(), a.unit.as_ref().map(|u| u.id));
            assert_eq!(back.position(), Some(a.position));
            assert!(!back.is_error());
            let claim = back.claim(&game, &a.position).unwrap();
            let expected = match bound {
                Bound::Exact => Claim::Exact {
                    value: 3,
                    pv: a.pv.clone(),
                },
                Bound::AtLeast => Claim::AtLeast(3),
                Bound::AtMost => Claim::AtMost(3),
                Bound::Heuristic { .. } => unreachable!("not among the bounds tried"),
            };
            assert_eq!(claim, expected);
        }
    }

    #[test]
    fn a_heuristic_answer_is_labelled_and_never_claimed() {
        let rules = Rules::kalah(4, 3);
        let game = Game::new(rules).unwrap();
        let heuristic = Bound::Heuristic {
            lower: -2,
            upper: 6,
            depth: 9,
        };
        let mut a = answer(&game, heuristic, None);
        a.pv = vec![
            first_steps(&game, &game.start(), Offer::AfterTurn)
                .remove(0)
                .turn,
        ];
        let text = write(4, "x", &rules, Ok(&a));
        assert_eq!(text["exact"], json!(false));
        assert_eq!(text["eval"], json!(3));
        assert_eq!(text["eval_mover"], json!(3), "South moves at the start");
        assert_eq!((&text["lower"], &text["upper"]), (&json!(-2), &json!(6)));
        assert_eq!(text["depth"], json!(9));
        for exact_field in ["value", "at_least", "at_most"] {
            assert!(text.get(exact_field).is_none(), "{exact_field}");
        }
        let back = AnswerLine::parse(text.to_string().as_bytes()).unwrap();
        assert!(back.is_heuristic() && !back.is_error());
        let e = back.claim(&game, &a.position).unwrap_err();
        assert!(e.0.contains("heuristic"), "{}", e.0);
        // Even with a value added by hand, a line that says it is not exact is refused.
        let mut forged = text.clone();
        forged["value"] = json!(3);
        let forged = AnswerLine::parse(forged.to_string().as_bytes()).unwrap();
        assert!(forged.claim(&game, &a.position).is_err());
        // An exact answer carries no "exact" field: as written without --time.
        let exact = write(4, "x", &rules, Ok(&answer(&game, Bound::Exact, None)));
        assert!(exact.get("exact").is_none() && exact.get("eval").is_none());
    }

    #[test]
    fn an_error_round_trips_through_its_line() {
        let rules = Rules::kalah(4, 3);
        let text = write(2, "x", &rules, Err(&"bad board")).to_string();
        let back = AnswerLine::parse(text.as_bytes()).unwrap();
        assert!(back.is_error() && back.answers(2, "x"));
        assert_eq!(back.error(), Some("bad board"));
        assert_eq!(back.id(), None);
        let game = Game::new(rules).unwrap();
        assert!(back.claim(&game, &game.start()).is_err());
    }
}
