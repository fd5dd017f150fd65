//! The games file of `kalah match --games`: one JSON object a game, for the sowing games
//! and Bao alike, written by [`write_games`] and read back by [`read_game`].
//!
//! A game: `game` (its number, from 0), `opening` (its opening's number), `rules` (as
//! text), the players by colour (`south`, `north`, and `player1_is`), `opening_moves` and
//! `moves` (turns in the game's notation), the result (`score` from South: the final store
//! difference of a sowing game, +1, -1 or 0 in Bao; `winner` `south`, `north` or null for
//! a draw; `player1_points`), `adjudicated` (stopped at the most turns a game lasts) and
//! `values` (the exact value from South of each position where the match proved it; empty
//! where none were asked for, and always in Bao). Two keys only where they apply:
//! `opening_position` (the board the opening starts from, where a balanced set gave it,
//! `--openings`) and `lost_on_time` (`south` or `north`, the side whose clock ran out).

use kalah_core::Side;
use serde_json::{json, Value};

use crate::matches::GameRecord;
use crate::wire::{field, int_field, FormatError};

/// One game, played under `rules` (as text) by `names` (player 1, player 2).
pub fn game_json(rules: &str, names: &[String; 2], g: &GameRecord) -> Value {
    let name = |s: Side| match s {
        Side::South => "south",
        Side::North => "north",
    };
    let winner = g.winner().map(name);
    let mut v = json!({
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
    });
    if let Some(map) = v.as_object_mut() {
        if let Some(board) = &g.opening_position {
            map.insert("opening_position".into(), json!(board));
        }
        if let Some(side) = g.lost_on_time {
            map.insert("lost_on_time".into(), json!(name(side)));
        }
    }
    v
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
        opening_position: match v.get("opening_position") {
            None | Some(Value::Null) => None,
            Some(b) => Some(
                b.as_str()
                    .ok_or_else(|| FormatError(format!("{what}: bad \"opening_position\"")))?
                    .to_string(),
            ),
        },
        lost_on_time: match v.get("lost_on_time").and_then(Value::as_str) {
            None => None,
            Some("south") => Some(Side::South),
            Some("north") => Some(Side::North),
            Some(_) => return Err(FormatError(format!("{what}: bad \"lost_on_time\""))),
        },
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
            opening_position: None,
            opening_moves: vec!["A3+".into()],
            moves: vec!["b2-".into(), "A1+".into()],
            score,
            adjudicated: false,
            lost_on_time: None,
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
        // A loss on time and a board opening are kept; without them the keys are absent.
        let plain = game_json("Bao(4,2)", &names, &record(1, Vec::new()));
        assert!(plain.get("lost_on_time").is_none() && plain.get("opening_position").is_none());
        let g = GameRecord {
            lost_on_time: Some(Side::South),
            opening_position: Some("4,4,4,0,4,4,4,0:S".into()),
            ..record(5, Vec::new())
        };
        let v = game_json("Kalah(3,4)", &names, &g);
        assert_eq!(
            (&v["winner"], &v["lost_on_time"]),
            (&json!("north"), &json!("south"))
        );
        let (_, back) = read_game(&v.to_string()).unwrap();
        assert_eq!(back, g);
        assert_eq!(back.points(0), 1.0, "player 1 played North and won on time");
        assert!(read_game("{\"game\": 1}").is_err());
    }
}
