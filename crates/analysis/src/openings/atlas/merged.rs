//! A board solved beyond one machine, taken into the atlas: the JSON of `kalah merge
//! --json` over a split of the board's start (`--step turn`), once every answer is in and
//! proved. Its start, every first turn with its line and the pie rule are those of the
//! merge; each line is replayed here to its value before the board is written.

use std::str::FromStr;

use kalah_core::{Game, Rules};
use serde_json::Value;

use super::record::{BoardRecord, Made, TurnRecord};
use crate::openings::{first_steps, Offer};
use crate::wire::read_line;

/// The board of a merged answer (`kalah merge --json`), checked: the merge is of a
/// board's start, split by whole turns, exact and proved (not `--trust-answers`), with
/// every first turn of the board, each line replaying to its value, and the start's value
/// the best of them. `made` says how it came in. `Err` says what is wrong, in words.
pub fn board(text: &str, made: &Made) -> Result<BoardRecord, String> {
    let v: Value = serde_json::from_str(text).map_err(|e| format!("not JSON ({e})"))?;
    let field = |k: &str| {
        v.get(k)
            .ok_or_else(|| format!("no \"{k}\": not the JSON of kalah merge"))
    };
    let rules_text = field("rules")?.as_str().ok_or("\"rules\" is not text")?;
    let rules = Rules::from_str(rules_text).map_err(|e| format!("rules: {e}"))?;
    let game = Game::new(rules).map_err(|e| format!("rules: {e}"))?;
    let start = game.start();
    if field("position")?.as_str() != Some(start.to_string().as_str()) {
        return Err(format!(
            "the merge is of another position than the start of {rules_text}: the atlas takes \
             a split of the start"
        ));
    }
    if field("step")?.as_str() != Some("turn") {
        return Err(
            "the split was made by sowings: the atlas takes one by turns (--step turn)".into(),
        );
    }
    if field("status")?.as_str() != Some("exact") || v.get("verified") != Some(&Value::Bool(true)) {
        return Err(
            "the merge is not exact and proved yet (answers missing, or --trust-answers): run \
             kalah merge until it says the value is exact"
                .into(),
        );
    }
    let value = field("value")?
        .as_i64()
        .ok_or("\"value\" is not a number")? as i32;
    let h = game.houses();
    let mut turns = Vec::new();
    for step in first_steps(&game, &start, Offer::AfterTurn) {
        let turn = step.turn.notation(h);
        let m = field("moves")?
            .as_array()
            .and_then(|ms| {
                ms.iter()
                    .find(|m| m.get("turn").and_then(Value::as_str) == Some(&turn))
            })
            .ok_or_else(|| format!("the merge lacks the first turn {turn}"))?;
        let v = m
            .get("value")
            .and_then(Value::as_i64)
            .filter(|_| m.get("verified") == Some(&Value::Bool(true)))
            .ok_or_else(|| format!("the first turn {turn} is not exact and proved in the merge"))?
            as i32;
        let pv = m
            .get("pv")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        let line = read_line(&game, &start, &pv).map_err(|e| format!("turn {turn}: {e}"))?;
        if line.first() != Some(&step.turn) {
            return Err(format!("the line of {turn} starts with another turn"));
        }
        kalah_solver::line::replay(&game, &start, &line, v)
            .map_err(|e| format!("turn {turn}: {e}"))?;
        turns.push(TurnRecord {
            turn,
            lower: v,
            upper: v,
            pv: pv
                .iter()
                .filter_map(|s| s.as_str().map(str::to_string))
                .collect(),
            nodes: 0,
            seconds: 0.0,
        });
    }
    if turns.iter().map(|t| t.lower).max() != Some(value) {
        return Err(format!(
            "the value {value} is not the best of the first turns"
        ));
    }
    Ok(BoardRecord {
        rules,
        lower: value,
        upper: value,
        turns,
        nodes: 0,
        seconds: 0.0,
        budget: None,
        made: made.clone(),
    })
}
