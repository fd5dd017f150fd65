//! The one retrograde pipeline over both indices of the game graph ([`Index`]): find the
//! positions a root reaches that the index lacks, then solve them level by level from the
//! bottom.

use std::ops::Range;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::time::Instant;

use kalah_core::{Game, Position};

use super::{RetroProgress, RetroStop};
use crate::db::egdb::Egdb;

/// An index of the game graph: the positions solved so far, numbered so that each level
/// is a range of nodes ([`super::graph::Graph`], [`super::dense::Dense`]).
pub(super) trait Index {
    /// True where `root` has been solved already.
    fn holds(&self, game: &Game, root: &Position) -> bool;

    /// Finds and numbers the positions reachable from `root` that the index lacks (those
    /// `exits` holds are not followed: their values are read from it): an error where
    /// they pass `limit` or the solve is cancelled (the index is then left as it was, or
    /// empty). `progress` hears of the positions found a few times a second.
    #[allow(clippy::too_many_arguments)]
    fn discover(
        &mut self,
        game: &Game,
        root: &Position,
        exits: Option<&Egdb>,
        limit: u64,
        cancel: &AtomicBool,
        start: Instant,
        progress: &mut dyn FnMut(&RetroProgress),
    ) -> Result<NewLevels, RetroStop>;

    /// Solves the nodes `range` of one level found by [`Index::discover`] (every node they
    /// lead to outside it is solved already, or held by `exits`).
    fn solve_range(&mut self, game: &Game, range: Range<usize>, exits: Option<&Egdb>);

    /// Forgets what [`Index::discover`] found (a solve that stopped keeps nothing of it).
    fn abandon(&mut self);
}

/// What [`Index::discover`] found: the levels to solve, lowest first, each with its seeds
/// in the houses and its range of nodes, and the positions to report while solving them.
pub(super) struct NewLevels {
    pub(super) levels: Vec<(u32, Range<usize>)>,
    pub(super) positions: u64,
}

/// Solves `root` in `index`, which does not hold it yet (the caller asks
/// [`Index::holds`] first, before it reserves the memory to grow by): the positions it
/// reaches that the index lacks are found, then solved level by level from the bottom.
#[allow(clippy::too_many_arguments)]
pub(super) fn solve(
    index: &mut impl Index,
    game: &Game,
    root: &Position,
    exits: Option<&Egdb>,
    limit: u64,
    cancel: &AtomicBool,
    start: Instant,
    progress: &mut dyn FnMut(&RetroProgress),
) -> Result<(), RetroStop> {
    debug_assert!(!index.holds(game, root), "solve asked for a position held");
    let new = index.discover(game, root, exits, limit, cancel, start, progress)?;
    for (level, range) in new.levels {
        if cancel.load(Relaxed) {
            index.abandon();
            return Err(RetroStop::Cancelled);
        }
        progress(&RetroProgress {
            positions: new.positions,
            level: Some(level),
            elapsed: start.elapsed(),
        });
        index.solve_range(game, range, exits);
    }
    Ok(())
}
