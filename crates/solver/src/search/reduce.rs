//! Late move reductions for the depth-limited searches of an analysis: a quiet child far
//! down the search order is first searched shallower with a null window, and at its full
//! depth only where it beats the window. A heuristic saving for the deepening only: the
//! exact search ([`EXACT_DEPTH`]) never reduces, and the entries of a reduced search are
//! depth-limited ones, which never serve an exact search.

use super::moves::Kid;
use super::{Bounds, Worker};
use crate::tt::EXACT_DEPTH;

/// The children searched before later quiet ones are reduced.
const LATE: usize = 3;
/// The least depth of a child that is reduced (it keeps at least one sowing).
const MIN_DEPTH: u8 = 3;

/// The sowings a late quiet child (the `n`th searched) of depth `depth` is first searched
/// shallower by.
#[inline(always)]
fn reduction(n: usize, depth: u8) -> u8 {
    1 + u8::from(n >= 2 * LATE && depth >= 6)
}

impl Worker<'_> {
    /// [`Worker::kid_score`] of the `n`th child searched, reduced first where it is late
    /// and quiet (no extra turn) in a depth-limited search of an analysis.
    #[inline(always)]
    pub(super) fn late_score(
        &mut self,
        kid: &Kid,
        window: Bounds,
        depth: u8,
        ply: u32,
        claim: bool,
        n: usize,
    ) -> Option<i32> {
        if self.reductions
            && n >= LATE
            && depth >= MIN_DEPTH
            && depth != EXACT_DEPTH
            && !kid.same_mover
            && kid.known.is_none()
        {
            let null = Bounds {
                lo: window.lo,
                hi: window.lo + 1,
            };
            let v = self.kid_score(kid, null, depth - reduction(n, depth), ply, claim)?;
            if v <= window.lo || self.aborted {
                return Some(v);
            }
        }
        self.kid_score(kid, window, depth, ply, claim)
    }
}
