//! The games file of `kalah match --games`: one JSON object a game, for the sowing games
//! and Bao alike, written by [`write_games`] and read back by [`read_game`].
//!
//! A game: `game` (its number, from 0), `opening` (its opening's number), `rules` (as
//! text), the players by colour (`south`, `north`, and `player1_is`), `opening_moves` and
//! `moves` (turns in the game's notation), the result (`score` from South: the final store
//! difference of a sowing game, +1, -1 or 0 in Bao; `winner` `south`, `north` or null for
//! a draw; `player1_points`), `adjudicated` (stopped at the most turns a game lasts) and
//! `values` (the exact value from South of each position where the match proved it; empty
//! where none were asked for, and always in Bao).

use serde_json::{json, Value};

use crate::matches::GameRecord;
use crate::wire::{field, int_field, FormatError};

/// One game, played under `rules` (as text) by `names` (player 1, player 2).
pub fn game_json(rules: &str, names: &[String; 2], g: &GameRecord) -> Value {
    let winner = match g.score.signum() {
        1 => Some("south"),
        -1 => Some("north"),
        _ => None,
    };
    json!({
        "game": g.index,
        "opening": g.opening,
        "rules": rules,
        "south": names[g.south],
        "north": names[1 - g.south],
        "player1_is": if g.south == 0 { "south" } else { "north" },
        "opening_moves": g.opening_moves,
        "moves": g.moves,
        "winner": winner,
        "score": g.score,
        "player1_points": g.points(0),
        "adjudicated": g.adjudicated,
        "values": g.values,
    })
}

/// Every game, one JSON line each.
pub fn write_games(rules: &str, names: &[String; 2], games: &[GameRecord]) -> String {
    let mut text = String::new();
    for g in games {
        text.push_str(&game_json(rules, names, g).to_string());
        text.push('\n');
    }
    text
}

/// A list of strings.
fn strings(v: &Value, name: &str) -> Result<Vec<String>, FormatError> {
    let bad = || FormatError(format!("a game: \"{name}\" is not a list of strings"));
    field(v, name, "a game")?
        .as_array()
        .ok_or_else(bad)?
        .iter()
        .map(|s| s.as_str().map(str::to_string).ok_or_else(bad))
        .collect()
}

/// One game read back: the record, with the rules as written.
pub fn read_game(line: &str) -> Result<(String, GameRecord), FormatError> {
    let v: Value = serde_json::from_str(line).map_err(|e| FormatError(format!("a game: {e}")))?;
    let what = "a game";
    let count = |name: &str| {
        usize::try_from(int_field(&v, name, what)?)
            .map_err(|_| FormatError(format!("{what}: \"{name}\" is negative")))
    };
    let south = match field(&v, "player1_is", what)?.as_str() {
        Some("south") => 0,
        Some("north") => 1,
        _ => return Err(FormatError(format!("{what}: bad \"player1_is\""))),
    };
    let values = field(&v, "values", what)?
        .as_array()
        .ok_or_else(|| FormatError(format!("{what}: \"values\" is not a list")))?
        .iter()
        .map(|x| x.as_i64().map(|x| x as i32))
        .collect();
    let record = GameRecord {
        index: count("game")?,
        opening: count("opening")?,
        south,
        opening_moves: strings(&v, "opening_moves")?,
        moves: strings(&v, "moves")?,
        score: int_field(&v, "score", what)? as i32,
        adjudicated: field(&v, "adjudicated", what)?
            .as_bool()
            .ok_or_else(|| FormatError(format!("{what}: \"adjudicated\" is not true or false")))?,
        values,
    };
    let rules = crate::wire::text_field(&v, "rules", what)?.to_string();
    Ok((rules, record))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(score: i32, values: Vec<Option<i32>>) -> GameRecord {
        GameRecord {
            index: 3,
            opening: 1,
            south: 1,
            opening_moves: vec!["A3+".into()],
            moves: vec!["b2-".into(), "A1+".into()],
            score,
            adjudicated: false,
            values,
        }
    }

    #[test]
    fn a_game_round_trips_through_its_line() {
        let names = ["one".to_string(), "two".to_string()];
        for (rules, g) in [
            ("Bao(4,2)", record(-1, Vec::new())),
            ("Kalah(6,4)", record(4, vec![Some(2), None, Some(4)])),
        ] {
            let text = write_games(rules, &names, std::slice::from_ref(&g));
            assert_eq!(text.lines().count(), 1);
            let v: Value = serde_json::from_str(text.trim_end()).unwrap();
            assert_eq!(v["north"], "one", "player 1 played North");
            let (back_rules, back) = read_game(text.trim_end()).unwrap();
            assert_eq!((back_rules.as_str(), back), (rules, g));
        }
        let winners: Vec<Value> = [1, 0, -1]
            .map(|score| {
                game_json("Bao(4,2)", &names, &record(score, Vec::new()))["winner"].clone()
            })
            .to_vec();
        assert_eq!(winners, [json!("south"), Value::Null, json!("north")]);
        assert!(read_game("{\"game\": 1}").is_err());
    }
}
