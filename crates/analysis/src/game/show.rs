//! A position of either kind as JSON, as `kalah show --json` prints it
//! (docs/outputs.md): [`Board::show_json`], each kind's fields written by its own
//! function; every answer names the rules (`rules`).

use kalah_core::bao::{BaoPosition, BaoRules};
use kalah_core::{notation, Game, Position, Side};
use serde_json::{json, Value};

use super::Board;

impl Board {
    /// The position as JSON, as `kalah show --json` prints it: a sowing game's houses,
    /// stores, bins to sow and score, or Bao's board and rows.
    pub fn show_json(&self) -> Value {
        match self {
            Board::Sowing(game, pos) => sowing_json(game, pos),
            Board::Bao(rules, pos) => bao_json(rules, pos),
        }
    }
}

/// The answer of `kalah show --json`: the position (`houses` South's then North's, each
/// from its owner's left; `stores` South's then North's), the side to move, the bins it
/// may sow (`moves`), whether the game is over and the `score` (South's store minus
/// North's).
fn sowing_json(game: &Game, pos: &Position) -> Value {
    let h = pos.houses_per_side();
    let houses: Vec<u8> = [Side::South, Side::North]
        .into_iter()
        .flat_map(|side| (0..h).map(move |j| pos.house(side, j)))
        .collect();
    json!({
        "rules": game.rules().to_string(),
        "position": pos.to_string(),
        "side": pos.side_to_move().to_string(),
        "houses": houses,
        "stores": [pos.store(Side::South), pos.store(Side::North)],
        "moves": notation::move_bins(game, pos),
        "over": pos.is_over(),
        "score": pos.score(),
    })
}

/// The report of `kalah show --rules bao --json`: the board (`pits`, `seeds`), the
/// position and its `rows`, the `side` to move, its legal `moves` and whether it is `over`.
fn bao_json(rules: &BaoRules, pos: &BaoPosition) -> Value {
    let moves: Vec<String> = pos.legal().moves().map(|m| m.to_string()).collect();
    json!({
        "rules": rules.to_string(),
        "pits": rules.pits(),
        "seeds": rules.seeds(),
        "position": pos.to_string(),
        "side": pos.side().to_string(),
        "rows": pos.text_rows(),
        "moves": moves,
        "over": pos.terminal_value().is_some(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use kalah_core::Rules;

    #[test]
    fn a_position_is_shown_with_its_houses_stores_and_bins() {
        let game = Game::new(Rules::kalah(3, 2)).unwrap();
        let pos = game.settle("0,2,2,1,2,2,2,0:N".parse().unwrap()).unwrap();
        let v = sowing_json(&game, &pos);
        assert_eq!(v["houses"], json!([0, 2, 2, 2, 2, 2]));
        assert_eq!(v["stores"], json!([1, 0]));
        assert_eq!(v["side"], json!("North"));
        assert_eq!(v["moves"], json!([5, 6, 7]));
        assert_eq!((&v["over"], &v["score"]), (&json!(false), &json!(1)));
        assert_eq!(v["rules"], json!(game.rules().to_string()));
    }

    #[test]
    fn a_board_is_shown_by_the_json_of_its_kind() {
        let game = Game::new(Rules::kalah(3, 2)).unwrap();
        let start = game.start();
        let sowing = Board::Sowing(std::sync::Arc::new(game.clone()), start);
        assert_eq!(sowing.show_json(), sowing_json(&game, &start));
        let bao = crate::game::setup::bao::setup(&crate::game::setup::bao::BaoOptions {
            pits: Some(4),
            seeds: Some(2),
            position: None,
            moves: None,
        })
        .unwrap();
        let board = Board::Bao(bao.rules, bao.pos);
        assert_eq!(board.show_json(), bao_json(&bao.rules, &bao.pos));
        assert_eq!(board.show_json()["rules"], bao.rules.to_string());
    }
}
