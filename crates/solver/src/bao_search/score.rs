//! Scores of the Bao search, for the side to move: heuristic evaluations in a band around
//! 0, and decided scores (a forced win or loss found inside the searched tree) outside it.
//!
//! A node won at `p` moves from the root scores `WIN - p`, one lost there `-(WIN - p)`, so
//! a shorter win is better and a longer loss less bad. The table keeps decided scores
//! relative to the node that stored them ([`to_table`], [`from_table`]).

use super::Outcome;

/// The score of a win at the root itself (never met: a win takes a move).
pub(crate) const WIN: i32 = 1_000_000;
/// Scores at or beyond this magnitude are decided; every evaluation lies strictly inside.
pub(crate) const DECIDED: i32 = WIN - 10_000;
/// The largest magnitude an evaluation may have.
pub(crate) const EVAL_LIMIT: i32 = DECIDED / 2;
/// Above every score: the root's window.
pub(crate) const INFINITY: i32 = WIN + 1;

/// The score, for the mover, of a node `ply` moves from the root whose mover has lost.
pub(crate) fn lost_at(ply: u32) -> i32 {
    -(WIN - ply as i32)
}

/// A score relative to the root made relative to a node `ply` moves below it.
pub(crate) fn to_table(score: i32, ply: u32) -> i32 {
    if score >= DECIDED {
        score + ply as i32
    } else if score <= -DECIDED {
        score - ply as i32
    } else {
        score
    }
}

/// The inverse of [`to_table`].
pub(crate) fn from_table(score: i32, ply: u32) -> i32 {
    if score >= DECIDED {
        score - ply as i32
    } else if score <= -DECIDED {
        score + ply as i32
    } else {
        score
    }
}

/// What a score proves for the mover, if it is decided.
pub(crate) fn outcome(score: i32) -> Option<Outcome> {
    if score >= DECIDED {
        Some(Outcome::Won {
            moves: (WIN - score) as u32,
        })
    } else if score <= -DECIDED {
        Some(Outcome::Lost {
            moves: (WIN + score) as u32,
        })
    } else {
        None
    }
}
