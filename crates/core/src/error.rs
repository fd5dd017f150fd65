//! Why a move or a hand-entered position is refused: [`MoveError`] (the checked move
//! generator, `Game::try_play`) and [`PositionError`] (the board and move notation, and
//! `Game::settle`, which checks a position against the game). Below both producers, so
//! that the game and the notation each import it and neither imports the other back.

use std::fmt;

use crate::position::Side;
use crate::rules::{Family, MAX_HOUSES, MAX_TOTAL_SEEDS};

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

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
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

/// Why a position or a move could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionError {
    /// No `:S` or `:N` after the counts.
    MissingSide,
    /// The side letter is neither `S` nor `N`.
    BadSide(String),
    /// A count that is not a number from 0 to 255.
    BadCount {
        /// 1-based place in the list.
        place: usize,
        /// What was written there.
        text: String,
    },
    /// The number of counts is not `2H+2` for a supported `H`.
    WrongLength(usize),
    /// The position holds more seeds than the encoding can.
    TooManySeeds {
        /// Seeds in the position.
        seeds: usize,
        /// The most the game allows.
        capacity: usize,
    },
    /// The position is for another board size than the rules.
    WrongBoard {
        /// Houses per side in the position.
        houses: usize,
        /// Houses per side in the rules.
        expected: usize,
    },
    /// A move that is not a number.
    BadMove(String),
    /// A bin that is not a house of the player to move.
    NotMoversHouse {
        /// The bin as written.
        bin: usize,
        /// The player to move.
        side: Side,
        /// First and last bin of that player's houses.
        range: (usize, usize),
    },
    /// A sowing that is not legal here.
    Illegal {
        /// The bin as written.
        bin: usize,
        /// Why.
        why: MoveError,
    },
    /// A turn written `a-b` whose sowing `a` did not give an extra turn.
    NoExtraTurn {
        /// The bin whose sowing ended the turn.
        bin: usize,
    },
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::MissingSide => write!(
                f,
                "the position needs the side to move after a colon, e.g. 4,4,4,4,4,4,0,4,4,4,4,4,4,0:S"
            ),
            PositionError::BadSide(s) => {
                write!(f, "side to move '{s}' must be S (South) or N (North)")
            }
            PositionError::BadCount { place, text } => write!(
                f,
                "count {place} of the position, '{text}', is not a number of seeds from 0 to {MAX_TOTAL_SEEDS}"
            ),
            PositionError::WrongLength(n) => write!(
                f,
                "the position has {n} counts; it needs 2H+2 (each side's houses and store) for H from 1 to {MAX_HOUSES}, e.g. 14 for 6 houses"
            ),
            PositionError::TooManySeeds { seeds, capacity } => write!(
                f,
                "the position holds {seeds} seeds, more than the {capacity} these rules allow (raise --seeds)"
            ),
            PositionError::WrongBoard { houses, expected } => write!(
                f,
                "the position has {houses} houses per side but the rules say {expected} (set --houses {houses})"
            ),
            PositionError::BadMove(s) => write!(f, "'{s}' is not a move: write bin numbers such as 3 or a turn such as 3-6"),
            PositionError::NotMoversHouse { bin, side, range } => write!(
                f,
                "bin {bin} is not one of {side}'s houses: {side} is to move and sows from bins {} to {}",
                range.0, range.1
            ),
            PositionError::Illegal { bin, why } => write!(f, "cannot sow bin {bin}: {why}"),
            PositionError::NoExtraTurn { bin } => write!(
                f,
                "sowing bin {bin} does not end in the mover's store, so the turn ends there and cannot continue with '-'"
            ),
        }
    }
}

impl std::error::Error for PositionError {}
