//! One position of either kind of game, as a command that serves both sets it up: what is
//! asked of a single position (its drawing, its JSON, where a perft counts from) is
//! answered here once, each kind by its own code.

use kalah_core::bao::{BaoPosition, BaoRules};
use kalah_core::{notation, Game, Position};
use serde_json::Value;

use crate::perft::Start;
use crate::setup::bao as bao_setup;
use crate::wire;

/// A game and a position of it: a sowing game, or Bao.
#[derive(Clone)]
pub enum Board {
    /// A sowing game (Kalah and its family, boxed: its tables are large) and a position
    /// of it.
    Sowing(Box<Game>, Position),
    /// Bao's rules and a position under them.
    Bao(BaoRules, BaoPosition),
}

impl Board {
    /// The position drawn, with the side to move, the legal moves and the score, as
    /// `kalah show` prints it (several lines, each ended).
    pub fn describe(&self) -> String {
        match self {
            Board::Sowing(game, pos) => notation::describe(game, pos),
            Board::Bao(rules, pos) => bao_setup::describe(rules, pos),
        }
    }

    /// The position as JSON, as `kalah show --json` prints it (docs/outputs.md).
    pub fn show_json(&self) -> Value {
        match self {
            Board::Sowing(game, pos) => wire::report::show_json(game, pos),
            Board::Bao(rules, pos) => wire::bao::report::show_json(rules, pos),
        }
    }

    /// Where a perft of this position counts from: sowings, or Bao's whole moves.
    pub fn perft_start(&self) -> Start<'_> {
        match self {
            Board::Sowing(game, pos) => Start::Sowing(game, pos),
            Board::Bao(rules, pos) => Start::Bao(rules, pos),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kalah_core::Rules;

    #[test]
    fn each_kind_is_shown_by_its_own_drawing() {
        let game = Game::new(Rules::kalah(3, 2)).unwrap();
        let start = game.start();
        let sowing = Board::Sowing(Box::new(game.clone()), start);
        assert_eq!(sowing.describe(), notation::describe(&game, &start));
        assert_eq!(sowing.show_json(), wire::report::show_json(&game, &start));
        assert!(matches!(sowing.perft_start(), Start::Sowing(..)));
        let setup = bao_setup::setup(&bao_setup::BaoOptions {
            pits: Some(4),
            seeds: Some(2),
            position: None,
            moves: None,
        })
        .unwrap();
        let bao = Board::Bao(setup.rules, setup.pos);
        assert_eq!(
            bao.describe(),
            bao_setup::describe(&setup.rules, &setup.pos)
        );
        assert_eq!(bao.show_json()["rules"], setup.rules.to_string());
        assert!(matches!(bao.perft_start(), Start::Bao(..)));
    }
}
