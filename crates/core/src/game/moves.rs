//! The legal moves of a position and the checks at the boundary, before the unchecked
//! sowing (why a move is refused: [`MoveError`]).

use super::{Game, Sowing, CLOCKWISE};
use crate::error::MoveError;
use crate::position::{Moves, Position};
use crate::rules::Family;

impl Game {
    /// The legal moves of the player to move in `pos` (none once the game is over): the
    /// houses holding seeds, except that Ethiopian Kalah sows only houses of two seeds or
    /// more, in either direction ([`CLOCKWISE`]), and Oware, when the opponent has no
    /// seeds, only the sowings that reach them.
    pub fn legal_moves(&self, pos: &Position) -> Moves {
        let all = pos.moves();
        if pos.is_over() {
            return Moves(0);
        }
        match self.rules.family {
            Family::Ethiopian => {
                let row = pos.board as u64 & self.row;
                let two = (0..self.h)
                    .filter(|&j| (row >> (8 * j)) as u8 >= 2)
                    .fold(0u16, |m, j| m | 1 << j);
                Moves(two | two << CLOCKWISE)
            }
            Family::Oware if (pos.board >> (8 * self.h)) as u64 & self.row == 0 => {
                Moves(self.feeding(pos.board as u64 & self.row))
            }
            _ => all,
        }
    }

    /// Sows `house` after checking that it is a legal move ([`CLOCKWISE`] added for a
    /// clockwise sowing where the family has them).
    pub fn try_play(&self, pos: &Position, house: usize) -> Result<(Position, Sowing), MoveError> {
        if pos.is_over() {
            return Err(MoveError::GameOver);
        }
        let j = house % CLOCKWISE;
        if j >= self.h || house >= 2 * CLOCKWISE {
            return Err(MoveError::NoSuchHouse {
                house: j,
                houses: self.h,
            });
        }
        if house >= CLOCKWISE && !self.rules.family.has_direction() {
            return Err(MoveError::NoDirection(self.rules.family));
        }
        if pos.mover_house(j) == 0 {
            return Err(MoveError::EmptyHouse { house: j });
        }
        if !self.legal_moves(pos).contains(house) {
            return Err(match self.rules.family {
                Family::Ethiopian => MoveError::SingleSeed { house: j },
                _ => MoveError::MustFeed { house: j },
            });
        }
        Ok(self.sow(pos, house))
    }
}
