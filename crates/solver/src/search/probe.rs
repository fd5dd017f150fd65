//! A node's probes before it searches: its own table entry (bounds and the move to try
//! first) and its children's values where the game's end, the database or the table
//! already gives them (enhanced transposition cut-offs).

use std::ops::ControlFlow;

use super::moves::{Kid, MoveList};
use super::{Node, Worker, INF};
use crate::score::Bounds;
use crate::tt::{Entry, EXACT_DEPTH};

/// In the exact search, a move stored by the iterative deepening is tried first only where
/// that search still had at least this many sowings to go: the best move of a shallow
/// store-margin search is a worse guess than the static order (extra turns, captures).
/// Ignoring every deepening move (only exact entries) makes larger proofs.
const HINT_MIN_DEPTH: u8 = 8;

/// An exact pass follows the moves the deepening stored (at nodes no exact pass has
/// stored yet) only where its window is at most this far from the deepening's guess. The
/// deepening's best moves are the strongest refutations near the guessed value; a proof far
/// from it has cheaper refutations, which fastest-first ordering finds.
pub(crate) const DEEPENING_HINT_REACH: i32 = 2;

/// The bounds of entry `e` for a position of store margin `margin`.
#[inline(always)]
pub(super) fn entry_bounds(e: &Entry, margin: i32) -> Bounds {
    Bounds {
        lo: e.lower as i32 + margin,
        hi: e.upper as i32 + margin,
    }
}

impl Worker<'_> {
    /// Reads the table entry of `node`: narrows its bounds, keeps an exact entry for the
    /// store, and gives the move to try first. Breaks with the score where the bounds
    /// alone answer `window`.
    ///
    /// Called after the children are generated, so that the entry (prefetched by the
    /// parent) had the sowings to arrive.
    #[inline(always)]
    pub(super) fn probe_table(
        &self,
        node: &mut Node,
        window: Bounds,
    ) -> ControlFlow<i32, Option<u8>> {
        let Some(e) = self.tt.probe(node.key) else {
            return ControlFlow::Continue(None);
        };
        // The exact search takes the move of an exact entry, and the deepening's from
        // enough depth while the pass is near its guess.
        let hint = if node.depth != EXACT_DEPTH
            || e.depth == EXACT_DEPTH
            || (e.depth >= HINT_MIN_DEPTH && self.deepening_hints)
        {
            e.best
        } else {
            None
        };
        if e.depth >= node.depth {
            let stored = entry_bounds(&e, node.margin);
            let b = &mut node.bounds;
            b.lo = b.lo.max(stored.lo);
            b.hi = b.hi.min(stored.hi);
            if b.lo >= window.hi || b.hi <= window.lo || b.lo == b.hi {
                return ControlFlow::Break(if b.lo >= window.hi { b.lo } else { b.hi });
            }
            if node.depth == EXACT_DEPTH {
                // Exact bounds from earlier windows stay true: keep the tighter pair.
                node.merge = Some(e);
            }
        }
        ControlFlow::Continue(hint)
    }

    /// Settles the children that need no search (the game is over, the database holds
    /// them, or the table pins their value or bounds them at most alpha): their score for
    /// this node's mover goes in [`Kid::known`].
    ///
    /// Enhanced transposition cut-offs: breaks with a score where a child's known value or
    /// stored bound already refutes `window`, or where the upper bounds of all children
    /// are known and all at most alpha. The table is asked only with `probe_kids`.
    #[inline(always)]
    pub(super) fn settle_kids(
        &mut self,
        list: &mut MoveList,
        depth: u8,
        probe_kids: bool,
        window: Bounds,
    ) -> ControlFlow<i32> {
        let mut all_known = true;
        let mut max_upper = -INF;
        for kid in list.kids_mut() {
            let Some(own) = self.kid_bounds(kid, depth, probe_kids) else {
                all_known = false;
                continue;
            };
            let b = own.across(kid.same_mover);
            if b.lo == b.hi {
                kid.known = Some(b.lo);
            } else if b.hi <= window.lo {
                // Searching it would return this bound at once.
                kid.known = Some(b.hi);
            }
            if b.lo >= window.hi {
                return ControlFlow::Break(b.lo);
            }
            max_upper = max_upper.max(b.hi);
        }
        if all_known && max_upper <= window.lo {
            return ControlFlow::Break(max_upper);
        }
        ControlFlow::Continue(())
    }

    /// The bounds of `kid`'s value for its own mover, where they are known without a
    /// search of `depth` sowings (the table is asked only with `probe_kids`).
    #[inline(always)]
    fn kid_bounds(&mut self, kid: &Kid, depth: u8, probe_kids: bool) -> Option<Bounds> {
        let margin = kid.pos.store_margin();
        if kid.pos.is_over() {
            Some(Bounds::exact(margin))
        } else if kid.in_db {
            Some(Bounds::exact(
                margin + self.db_value(&kid.pos, kid.db_index),
            ))
        } else if probe_kids && kid.tabled {
            match self.tt.probe(kid.key) {
                // Only an exact entry serves an exact search: a depth-limited one never
                // passes as exact bounds (depths stay far below EXACT_DEPTH - 1).
                Some(e)
                    if e.depth == EXACT_DEPTH
                        || (depth != EXACT_DEPTH && e.depth >= depth.saturating_sub(1)) =>
                {
                    Some(entry_bounds(&e, margin))
                }
                _ => None,
            }
        } else {
            None
        }
    }
}
