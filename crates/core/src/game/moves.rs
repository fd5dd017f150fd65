//! The legal moves of a position and why a move is refused: the checks at the boundary,
//! before the unchecked sowing.

use super::{Game, Sowing, CLOCKWISE};
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

/// Why a move was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// The game is already over.
    GameOver,
    /// There is no such house.
    NoSuchHouse {
        /// 0-based house of the mover.
        house: usize,
        /// Houses per side.
        houses: usize,
    },
    /// The house holds no seeds.
    EmptyHouse {
        /// 0-based house of the mover.
        house: usize,
    },
    /// A clockwise sowing in a family that sows one way only.
    NoDirection(Family),
    /// Ethiopian Kalah: the house holds a single seed.
    SingleSeed {
        /// 0-based house of the mover.
        house: usize,
    },
    /// Oware: the opponent has no seeds and this sowing gives them none.
    MustFeed {
        /// 0-based house of the mover.
        house: usize,
    },
}

impl std::fmt::Display for MoveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MoveError::GameOver => write!(f, "the game is over: no move can be played"),
            MoveError::NoSuchHouse { house, houses } => {
                write!(
                    f,
                    "house {} does not exist: each side has {houses} houses",
                    house + 1
                )
            }
            MoveError::EmptyHouse { house } => {
                write!(f, "house {} of the mover is empty", house + 1)
            }
            MoveError::NoDirection(family) => write!(
                f,
                "{} sows counter-clockwise only: leave out the '<'",
                family.long_title()
            ),
            MoveError::SingleSeed { house } => write!(
                f,
                "house {} of the mover holds a single seed, which Ethiopian Kalah does not sow",
                house + 1
            ),
            MoveError::MustFeed { house } => write!(
                f,
                "the opponent has no seeds and sowing house {} gives them none: the mover must feed them",
                house + 1
            ),
        }
    }
}

impl std::error::Error for MoveError {}
