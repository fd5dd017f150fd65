//! What a front end asks of the position on a [`Board`], of either kind, answered once
//! here: who moves, whether the game is over, the counts and the legal moves in the
//! notation; another position of the same game (read from the notation, or reached by
//! moves); the board's notation (`Display`) and its equality (the same game and
//! position). Python's `Position` is a `Board` and asks these.

use std::fmt;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

use kalah_core::bao::{BaoPosition, BaoRules};
use kalah_core::{notation, Game, Position, Side};

use super::setup::bao as bao_setup;
use super::setup::{self, SetupError};
use super::{Board, BoardError};

impl Board {
    /// The player to move.
    pub fn side_to_move(&self) -> Side {
        match self {
            Board::Sowing(_, pos) => pos.side_to_move(),
            Board::Bao(_, pos) => pos.side(),
        }
    }

    /// True when the game is over: no seed left in any house (a sowing game), or the
    /// mover's front row empty or no legal move (Bao: the mover has lost).
    pub fn is_over(&self) -> bool {
        match self {
            Board::Sowing(_, pos) => pos.is_over(),
            Board::Bao(_, pos) => bao_setup::is_over(pos),
        }
    }

    /// The counts of every bin in the notation's order: a sowing game's houses and stores
    /// (South's houses from South's left, South's store, North's houses, North's store),
    /// Bao's four rows top to bottom as its notation writes them.
    pub fn counts(&self) -> Vec<u32> {
        match self {
            Board::Sowing(_, pos) => pos.absolute_counts().into_iter().map(u32::from).collect(),
            Board::Bao(_, pos) => pos
                .text_rows()
                .iter()
                .flatten()
                .map(|&c| c.into())
                .collect(),
        }
    }

    /// The seeds still in play: in the houses of a sowing game, on Bao's board (where
    /// every seed stays).
    pub fn seeds_in_play(&self) -> u32 {
        match self {
            Board::Sowing(_, pos) => pos.seeds_in_houses(),
            Board::Bao(_, pos) => pos.seeds() as u32,
        }
    }

    /// The legal moves in the notation: bins (`3`, `3<` clockwise) in bin order, or Bao's
    /// moves (`A3+`) in canonical order; none once the game is over.
    pub fn moves(&self) -> Vec<String> {
        match self {
            Board::Sowing(game, pos) => notation::move_names(game, pos),
            Board::Bao(_, pos) if pos.is_over() => Vec::new(),
            Board::Bao(_, pos) => pos.legal().moves().map(|m| m.to_string()).collect(),
        }
    }

    /// The sowing game and its position, None for Bao.
    pub fn sowing(&self) -> Option<(&Arc<Game>, Position)> {
        match self {
            Board::Sowing(game, pos) => Some((game, *pos)),
            Board::Bao(..) => None,
        }
    }

    /// Bao's position, None for a sowing game.
    pub fn bao_position(&self) -> Option<BaoPosition> {
        match self {
            Board::Sowing(..) => None,
            Board::Bao(_, pos) => Some(*pos),
        }
    }

    /// The position reached from this one by `moves` in the notation of its kind (bins
    /// and turns joined by dashes, or Bao's moves; separated by spaces or commas), every
    /// one checked: the same game, shared.
    pub fn play(&self, moves: &str) -> Result<Board, BoardError> {
        match self {
            Board::Sowing(game, pos) => {
                let (next, _) = notation::play_moves(game, *pos, moves)
                    .map_err(|e| BoardError::Sowing(SetupError::Moves(e)))?;
                Ok(Board::Sowing(Arc::clone(game), next))
            }
            Board::Bao(rules, pos) => {
                let line = bao_setup::play_line(*pos, bao_setup::split_moves(moves))
                    .map_err(BoardError::Bao)?;
                Ok(Board::Bao(*rules, line.last().map_or(*pos, |p| p.after)))
            }
        }
    }

    /// The position `text` (in the notation of its kind) of this board's game: refused
    /// where it does not fit the game (another number of houses or pits, more seeds than
    /// the game holds), as the command line refuses a `--position` with `--houses` and
    /// `--seeds` given; a finished sowing game is settled.
    pub fn at(&self, text: &str) -> Result<Board, BoardError> {
        match self {
            Board::Sowing(game, _) => {
                let pos = setup::position_in(game, text).map_err(BoardError::Sowing)?;
                Ok(Board::Sowing(Arc::clone(game), pos))
            }
            Board::Bao(rules, _) => {
                let pos = bao_setup::position_in(rules, text).map_err(BoardError::Bao)?;
                Ok(Board::Bao(*rules, pos))
            }
        }
    }

    /// Bao's position `pos` on this board's rules (a position a search of this board
    /// reached), None for a sowing game.
    pub fn bao_at(&self, pos: BaoPosition) -> Option<Board> {
        self.bao_rules().map(|rules| Board::Bao(rules, pos))
    }

    /// The start of Bao's `rules`.
    pub fn bao_start(rules: BaoRules) -> Board {
        Board::Bao(rules, rules.start())
    }
}

impl fmt::Display for Board {
    /// The position in the notation of its kind (`4,4,...:S`; Bao's four rows).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Board::Sowing(_, pos) => pos.fmt(f),
            Board::Bao(_, pos) => pos.fmt(f),
        }
    }
}

impl PartialEq for Board {
    /// The same game ([`Board::same_game`]) and the same position.
    fn eq(&self, other: &Board) -> bool {
        self.same_game(other)
            && match (self, other) {
                (Board::Sowing(_, a), Board::Sowing(_, b)) => a == b,
                (Board::Bao(_, a), Board::Bao(_, b)) => a == b,
                _ => false,
            }
    }
}

impl Eq for Board {}

impl Hash for Board {
    /// The game ([`Board::hash_game`]) and the position: equal boards hash alike.
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.hash_game(state);
        match self {
            Board::Sowing(_, pos) => pos.hash(state),
            Board::Bao(_, pos) => pos.hash(state),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::setup::bao::BaoSetupError;
    use kalah_core::Rules;

    fn kalah(houses: u8, seeds: u8) -> Board {
        let game = Game::new(Rules::kalah(houses, seeds)).unwrap();
        let start = game.start();
        Board::Sowing(Arc::new(game), start)
    }

    #[test]
    fn a_position_is_asked_the_same_of_either_kind() {
        let sowing = kalah(3, 2);
        assert_eq!(sowing.side_to_move(), Side::South);
        assert!(!sowing.is_over());
        assert_eq!(sowing.counts(), [2, 2, 2, 0, 2, 2, 2, 0]);
        assert_eq!(sowing.seeds_in_play(), 12);
        assert_eq!(sowing.moves(), ["1", "2", "3"]);
        assert_eq!(sowing.to_string(), "2,2,2,0,2,2,2,0:S");
        let bao = Board::bao_start(BaoRules::new(4, 2).unwrap());
        assert_eq!(bao.side_to_move(), Side::South);
        assert_eq!((bao.counts().len(), bao.seeds_in_play()), (16, 32));
        assert!(!bao.moves().is_empty() && !bao.is_over());
        assert_eq!(bao.to_string(), "2,2,2,2/2,2,2,2/2,2,2,2/2,2,2,2:S");
        assert!(sowing.sowing().is_some() && sowing.bao_position().is_none());
        assert!(bao.sowing().is_none() && bao.bao_position().is_some());
        let next = bao.play(&bao.moves()[0]).unwrap();
        assert!(bao.bao_at(next.bao_position().unwrap()) == Some(next.clone()));
        assert!(sowing.bao_at(next.bao_position().unwrap()).is_none());
    }

    #[test]
    fn moves_played_share_the_game_and_are_checked() {
        let sowing = kalah(3, 2);
        let next = sowing.play("1").unwrap();
        let (game, _) = sowing.sowing().unwrap();
        assert!(Arc::ptr_eq(game, next.sowing().unwrap().0));
        assert!(next.same_game(&sowing) && next != sowing);
        assert!(sowing.play("").unwrap() == sowing);
        assert!(matches!(
            sowing.play("9"),
            Err(BoardError::Sowing(SetupError::Moves(_)))
        ));
        let bao = Board::bao_start(BaoRules::new(4, 2).unwrap());
        let first = bao.moves()[0].clone();
        let played = bao.play(&first).unwrap();
        assert_eq!(played.side_to_move(), Side::North);
        assert!(matches!(
            bao.play("Z9"),
            Err(BoardError::Bao(BaoSetupError::Move { .. }))
        ));
    }

    #[test]
    fn a_position_read_must_fit_the_game() {
        let sowing = kalah(3, 2);
        let at = sowing.at("1,0,0,5,0,0,6,0:N").unwrap();
        assert_eq!(at.to_string(), "1,0,0,5,0,0,6,0:N");
        assert!(at.same_game(&sowing));
        assert!(matches!(
            sowing.at("1,1,1,1,0,1,1,1,1,0:S"),
            Err(BoardError::Sowing(SetupError::HousesMismatch { .. }))
        ));
        assert!(matches!(
            sowing.at("9,0,0,5,0,0,6,0:N"),
            Err(BoardError::Sowing(SetupError::SeedsTooFew { .. }))
        ));
        let bao = Board::bao_start(BaoRules::new(3, 2).unwrap());
        assert!(bao.at("1,2,0/0,0,0/0,0,1/0,0,0:S").is_ok());
        assert!(matches!(
            bao.at("1,2,0,0/0,0,0,0/0,0,1,0/0,0,0,0:S"),
            Err(BoardError::Bao(BaoSetupError::WrongBoard { .. }))
        ));
        assert!(matches!(
            bao.at("9,9,9/0,0,0/0,0,1/0,0,0:S"),
            Err(BoardError::Bao(BaoSetupError::Overfull { .. }))
        ));
    }

    #[test]
    fn equal_boards_hash_alike() {
        let hash = |b: &Board| {
            let mut h = std::collections::hash_map::DefaultHasher::new();
            b.hash(&mut h);
            h.finish()
        };
        let a = kalah(3, 2).play("1").unwrap();
        let b = kalah(3, 2).play("1").unwrap();
        assert!(a == b && hash(&a) == hash(&b));
        assert!(a != kalah(3, 3).play("1").unwrap());
    }
}
