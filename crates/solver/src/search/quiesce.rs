//! The quiescence search at the heuristic leaves of an analysis: a position where the
//! mover can still take an extra turn or capture is not where a guess from the stores
//! belongs, so the leaf searches on through those sowings alone, the mover free to stop
//! with the evaluation ("stand pat") whenever a quiet sowing would do better. A heuristic
//! for the deepening of an analysis only: the exact search never reaches a heuristic leaf,
//! and nothing here is stored in the table.

use kalah_core::Position;

use super::Worker;
use crate::score::across;

/// The most sowings a quiescence search follows past the horizon.
pub(crate) const MAX_PLY: u32 = 8;

/// Seeds a sowing must bank at once to be followed: more than the one a sowing past the
/// store banks, so a capture (the captured seeds and the capturing one).
const CAPTURE_BANKED: i32 = 2;

/// True where a quiescence search follows the sowing from a position of store margin
/// `margin` (for its mover) to `child`: an extra turn (`same`: the child's mover is the
/// position's) or a capture. The one test of what is noisy, for this search and the
/// cyclic families' (`cyclic_search`).
#[inline(always)]
pub(crate) fn is_noisy(margin: i32, child: &Position, same: bool) -> bool {
    same || across(same, child.store_margin()) - margin >= CAPTURE_BANKED
}

impl Worker<'_> {
    /// The fail-soft score for the mover of `pos` (store margin `margin`, the game not
    /// over, more seeds in the houses than the database holds) within `alpha..beta`: the
    /// evaluation, or better where an extra turn or a capture reaches more.
    pub(super) fn quiesce(
        &mut self,
        pos: &Position,
        margin: i32,
        mut alpha: i32,
        beta: i32,
        ply: u32,
    ) -> i32 {
        let stand = self.evaluation.score(pos, margin);
        if stand >= beta || ply >= MAX_PLY {
            return stand;
        }
        let mut best = stand;
        alpha = alpha.max(stand);
        for j in pos.moves() {
            let child = self.game.play_unchecked(pos, j);
            let same = child.side_to_move() == pos.side_to_move();
            if !is_noisy(margin, &child, same) {
                continue;
            }
            let child_margin = child.store_margin();
            let v = across(
                same,
                self.quiet_value(&child, child_margin, alpha, beta, same, ply),
            );
            if self.aborted {
                return 0;
            }
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    /// The score of `child` for its own mover, reached by a noisy sowing from a node whose
    /// window is `alpha..beta` (`same`: the child's mover is that node's).
    fn quiet_value(
        &mut self,
        child: &Position,
        margin: i32,
        alpha: i32,
        beta: i32,
        same: bool,
        ply: u32,
    ) -> i32 {
        if self.count_node() {
            return 0;
        }
        if child.is_over() {
            return margin;
        }
        let left = child.seeds_in_houses() as i32;
        if left <= self.db_seeds {
            let index = self
                .db
                .map_or(0, |db| db.index(child, || self.game.key(child)));
            return margin + self.db_value(child, index);
        }
        let (lo, hi) = if same { (alpha, beta) } else { (-beta, -alpha) };
        self.quiesce(child, margin, lo, hi, ply + 1)
    }
}
