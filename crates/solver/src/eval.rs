//! The heuristic evaluation at the leaves of a depth-limited search: a guess of the final
//! margin for the mover of a position the search does not follow to the end.
//!
//! An evaluation is never a proof: the exact search ([`crate::tt::EXACT_DEPTH`]) never
//! reaches a heuristic leaf, and every value built on one is reported as heuristic.

use kalah_core::Position;

/// Which evaluation the leaves of a depth-limited search get.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Evaluation {
    /// The store margin alone: the mover's store minus the opponent's.
    #[default]
    StoreDifference,
}

impl Evaluation {
    /// The guess of the final margin for the mover of `pos`, whose store margin is
    /// `margin` (passed in: the search has it at hand).
    #[inline]
    pub fn score(self, _pos: &Position, margin: i32) -> i32 {
        match self {
            Evaluation::StoreDifference => margin,
        }
    }
}
