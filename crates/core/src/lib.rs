//! Kalah rules, packed positions, sowing, notation and perft.
//!
//! [`Rules`] name a [`Family`] (Kalah, or the General and Nigerian Kalah of *Este tablero*) and
//! its options; a [`Game`] is a validated [`Rules`] with its precomputed sowing tables; a
//! [`Position`] is a small `Copy` value (the house counts packed in byte lanes of a
//! `u128`, mover first).
//! Sowing is copy-make: [`Game::play_unchecked`] returns the next position.
//!
//! ```
//! use kalah_core::{Game, Rules, Position, Sowing};
//!
//! let game = Game::new(Rules::kalah(6, 4)).unwrap();
//! let start = game.start();
//! assert_eq!(start.to_string(), "4,4,4,4,4,4,0,4,4,4,4,4,4,0:S");
//! // House 3 (bin 3) holds 4 seeds: the last one lands in South's store.
//! let (next, how) = game.try_play(&start, 2).unwrap();
//! assert_eq!(how, Sowing::ExtraTurn);
//! assert_eq!(next.to_string(), "4,4,0,5,5,5,1,4,4,4,4,4,4,0:S");
//! let parsed: Position = "4,4,0,5,5,5,1,4,4,4,4,4,4,0:S".parse().unwrap();
//! assert_eq!(parsed, next);
//! assert_eq!(kalah_core::perft(&game, &start, 2), 35);
//! ```
#![deny(missing_docs)]

pub mod bao;
mod error;
mod game;
mod key;
pub mod notation;
mod perft;
mod position;
mod rules;

pub use error::{MoveError, PositionError};
pub use game::{Game, RowSowing, Sowing, CLOCKWISE};
pub use key::{binomial, mix, Ranker};
pub use perft::{divide, perft, perft_depths, PerftDepths};
pub use position::{Moves, Position, Side};
pub use rules::{
    Capture, End, Family, GrandSlam, Leftovers, Preset, Rules, RulesError, MAX_HOUSES,
    MAX_TOTAL_SEEDS,
};
