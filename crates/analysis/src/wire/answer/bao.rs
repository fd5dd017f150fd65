//! Bao's answer line, of `kalah batch --rules bao` ([`answer_line`]), in the vocabulary
//! of the sowing games' outputs (`crate::wire::bao`'s fields). It is read back by the
//! sowing games' reader, [`AnswerLine`](super::AnswerLine), to resume a batch: both have
//! `line`, `input` and `rules`, and `error` for a line not answered.

use std::fmt;

use kalah_core::bao::{BaoMove, BaoPosition, BaoRules};
use kalah_solver::bao::Value as Wld;
use kalah_solver::Analysis;
use serde_json::{json, Map, Value};

use crate::wire::bao::{exact_fields, moves_json, proven_fields};

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_answer_line_round_trips_through_the_batch_reader() {
        use super::super::AnswerLine;
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
}
