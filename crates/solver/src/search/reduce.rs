//! Late move reductions for the depth-limited searches of an analysis: a quiet child far
//! down the search order is first searched shallower with a null window, and at its full
//! depth only where it beats the window. A heuristic saving for the deepening only: the
//! exact search ([`EXACT_DEPTH`]) never reduces, and the entries of a reduced search are
//! depth-limited ones, which never serve an exact search.
//!
//! The rule, which child is late and by how much it is reduced ([`late_reduction`]), is
//! the same in both searches that reduce: the sowing games' (here) and the cyclic search
//! ([`crate::cyclic_search`]); each decides for itself which children are quiet.

use super::moves::Kid;
use super::Worker;
use crate::score::Bounds;
use crate::tt::EXACT_DEPTH;

/// The children searched before later quiet ones are reduced.
const LATE: usize = 3;
/// The least depth of a child that is reduced (it keeps at least one sowing).
const MIN_DEPTH: i32 = 3;

/// The sowings a quiet child searched `n`th (from 0) to `depth` sowings is first searched
/// shallower by: none for the first [`LATE`] children and below [`MIN_DEPTH`], one
/// after them, two from the `2 * LATE`th on at depth 6 or more.
#[inline(always)]
pub(crate) fn late_reduction(n: usize, depth: i32) -> Option<i32> {
    (n >= LATE && depth >= MIN_DEPTH).then(|| 1 + i32::from(n >= 2 * LATE && depth >= 6))
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
        let cut =
            match self.reductions && depth != EXACT_DEPTH && !kid.same_mover && kid.known.is_none()
            {
                true => late_reduction(n, i32::from(depth)),
                false => None,
            };
        if let Some(cut) = cut {
            let null = Bounds {
                lo: window.lo,
                hi: window.lo + 1,
            };
            // At most 2, and `depth` is at least `MIN_DEPTH`.
            let v = self.kid_score(kid, null, depth - cut as u8, ply, claim)?;
            if v <= window.lo || self.aborted {
                return Some(v);
            }
        }
        self.kid_score(kid, window, depth, ply, claim)
    }
}
