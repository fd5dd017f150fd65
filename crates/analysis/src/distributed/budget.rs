//! The bounds of a split's enumeration: how many positions the memory holds, the estimate
//! of a tree's size from its first levels, the progress reported while it grows, and the
//! refusal of a tree too large for the memory, said before the work runs away.

use std::fmt;
use std::sync::atomic::AtomicBool;

pub use crate::run::levels::estimate;

/// Bytes of memory a position of a split takes at the peak of `kalah split`: the node,
/// its moves and its entry in the index, then the manifest's JSON and the units' lines,
/// held whole while they are written, which weigh the most. Measured on Kalah(4,3) splits
/// and rounded up.
pub const NODE_BYTES: u64 = 3 << 10;

/// An early refusal needs the estimate to pass the bound by this factor: the growth of a
/// tree often slows with depth (transpositions, games that end), so an estimate from the
/// first levels can run high, and a split the memory could hold is not to be refused on a
/// guess; the count of positions built is the hard bound.
const ESTIMATE_MARGIN: f64 = 4.0;

/// Levels built (below the root) before the estimate may refuse a tree: the growth of the
/// first few says little, and they cost nothing to build.
const ESTIMATE_LEVELS: usize = 4;

/// The positions a split may hold where `available` bytes of memory are free (seven tenths
/// of them, as the databases leave room for the rest); `None` (unknown memory) allows what
/// 8 GiB would hold.
pub fn max_positions(available: Option<u64>) -> usize {
    let bytes = available.map_or(8 << 30, |b| b / 10 * 7);
    (bytes / NODE_BYTES).max(1) as usize
}

/// The bounds and the reports of a split's enumeration ([`super::split_bounded`]).
pub struct Budget<'a> {
    /// The most positions the tree may hold.
    pub max_positions: usize,
    /// Raised to stop the enumeration ([`super::SplitError::Cancelled`]).
    pub cancel: &'a AtomicBool,
    /// Called after each level and every few thousand positions within one.
    pub progress: &'a mut dyn FnMut(&Growth),
}

/// How far a split's enumeration is.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Growth {
    /// The level being built (1 for the root's moves).
    pub level: usize,
    /// The levels of the whole tree.
    pub depth: usize,
    /// Positions in the tree so far.
    pub positions: usize,
    /// The estimate of the positions of the whole tree, from the levels finished (`None`
    /// before the first).
    pub estimate: Option<f64>,
}

impl Growth {
    /// The progress line of a split being built: its level and, once a level is
    /// finished, the estimate of the positions of the whole tree.
    pub fn message(&self) -> String {
        match self.estimate {
            Some(e) => format!("level {}/{}, about {e:.2e} in all", self.level, self.depth),
            None => format!("level {}/{}", self.level, self.depth),
        }
    }
}

/// Levels a split may have: beyond this the tree would not fit in memory on any board.
pub const MAX_DEPTH: usize = 24;

/// Refuses, before any work, a split of `depth` levels below a position whose game is
/// `over` or deeper than [`MAX_DEPTH`]; the message says why.
pub fn refused(depth: usize, over: bool) -> Option<String> {
    if depth > MAX_DEPTH {
        return Some(format!(
            "--depth {depth} is more than the {MAX_DEPTH} levels a split can have"
        ));
    }
    over.then(|| "the game is over in this position: there is nothing to split".to_string())
}

/// A split the memory does not hold ([`super::SplitError::TooLarge`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TooLarge {
    /// The levels asked for.
    pub depth: usize,
    /// The levels built when it was refused.
    pub levels: usize,
    /// Positions built then.
    pub positions: usize,
    /// The estimate of the whole tree's positions (the positions built where the hard
    /// bound refused it).
    pub estimate: f64,
    /// The most positions allowed.
    pub max_positions: usize,
    /// The deepest split that the estimate says fits (0 where none).
    pub fits: usize,
}

impl fmt::Display for TooLarge {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let gib = |positions: f64| positions * NODE_BYTES as f64 / (1u64 << 30) as f64;
        let fits = match self.fits {
            0 => "no depth fits: split a position further on".to_string(),
            d => format!("choose --depth {d} or less"),
        };
        write!(
            f,
            "a split of depth {} does not fit in memory: it would hold about {:.3e} positions \
             (estimated from its first {} levels, {} positions), about {:.1} GiB, where the \
             memory available holds {} positions ({:.1} GiB): {fits}, or estimate its cost \
             with --sample N",
            self.depth,
            self.estimate,
            self.levels,
            self.positions,
            gib(self.estimate),
            self.max_positions,
            gib(self.max_positions as f64),
        )
    }
}

/// Checks the tree of `depth` levels whose first levels hold `levels` positions against
/// `max_positions`: refused where it holds more already, or where, [`ESTIMATE_LEVELS`]
/// levels built, its estimate passes the bound by [`ESTIMATE_MARGIN`].
pub(crate) fn check(levels: &[usize], depth: usize, max_positions: usize) -> Result<(), TooLarge> {
    let positions: usize = levels.iter().sum();
    let whole = estimate(levels, depth);
    let hard = positions > max_positions;
    let early = levels.len() > ESTIMATE_LEVELS && whole > ESTIMATE_MARGIN * max_positions as f64;
    if !hard && !early {
        return Ok(());
    }
    let fits = (0..=depth)
        .rev()
        .find(|&d| match d < levels.len() {
            true => levels[..=d].iter().sum::<usize>() <= max_positions,
            false => estimate(levels, d) <= max_positions as f64,
        })
        .unwrap_or(0);
    Err(TooLarge {
        depth,
        levels: levels.len() - 1,
        positions,
        estimate: if hard { positions as f64 } else { whole },
        max_positions,
        fits,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::distributed::{split, split_bounded, SplitError, Step};
    use kalah_core::{Game, Rules};
    use std::sync::atomic::Ordering::Relaxed;

    #[test]
    fn a_split_too_deep_or_of_a_finished_game_is_refused() {
        assert_eq!(refused(MAX_DEPTH, false), None);
        assert_eq!(
            refused(MAX_DEPTH + 1, true).as_deref(),
            Some("--depth 25 is more than the 24 levels a split can have")
        );
        assert_eq!(
            refused(1, true).as_deref(),
            Some("the game is over in this position: there is nothing to split")
        );
    }

    #[test]
    fn the_progress_line_gives_the_estimate_once_there_is_one() {
        let mut g = Growth {
            level: 2,
            depth: 5,
            positions: 40,
            estimate: None,
        };
        assert_eq!(g.message(), "level 2/5");
        g.estimate = Some(12345.0);
        assert_eq!(g.message(), "level 2/5, about 1.23e4 in all");
    }

    fn kalah43() -> Game {
        Game::new(Rules::kalah(4, 3)).unwrap()
    }

    /// A split of Kalah(4,3)'s start to `depth` turns within `max_positions`, with `cancel`;
    /// the progress reports too.
    fn bounded(
        depth: usize,
        max_positions: usize,
        cancel: &AtomicBool,
    ) -> (Result<crate::distributed::Tree, SplitError>, Vec<Growth>) {
        let game = kalah43();
        let mut seen = Vec::new();
        let budget = Budget {
            max_positions,
            cancel,
            progress: &mut |g| seen.push(*g),
        };
        let tree = split_bounded(&game, &game.start(), Step::Turn, depth, budget);
        (tree, seen)
    }

    #[test]
    fn an_absurd_split_is_refused_in_its_first_levels() {
        // Kalah(4,3) to 24 turns: far past any memory; refused long before the bound.
        let (tree, seen) = bounded(24, 1_000_000, &AtomicBool::new(false));
        let Err(SplitError::TooLarge(e)) = tree else {
            panic!("not refused: {tree:?}")
        };
        assert!(e.positions < 1_000_000 && e.levels < 24, "{e:?}");
        assert!(e.estimate > 2e6 && (1..24).contains(&e.fits), "{e:?}");
        assert!(seen
            .iter()
            .all(|g| g.depth == 24 && g.positions <= e.positions));
        // The depth it says fits is a split within the bound.
        let (fits, _) = bounded(e.fits, 1_000_000, &AtomicBool::new(false));
        assert!(fits.is_ok(), "depth {} was said to fit", e.fits);
    }

    #[test]
    fn a_split_within_its_bound_is_the_unbounded_split() {
        let game = kalah43();
        let whole = split(&game, &game.start(), Step::Turn, 5).unwrap();
        let (tree, seen) = bounded(5, whole.nodes.len(), &AtomicBool::new(false));
        assert_eq!(tree.unwrap(), whole);
        assert_eq!(seen.last().map(|g| g.level), Some(5));
        // One position fewer than it holds: refused by the hard bound.
        let (tree, _) = bounded(5, whole.nodes.len() - 1, &AtomicBool::new(false));
        assert!(matches!(tree, Err(SplitError::TooLarge(_))), "{tree:?}");
    }

    #[test]
    fn a_raised_flag_stops_a_split() {
        let raised = AtomicBool::new(false);
        raised.store(true, Relaxed);
        let (tree, _) = bounded(6, usize::MAX, &raised);
        assert_eq!(tree.err(), Some(SplitError::Cancelled));
    }

    #[test]
    fn the_estimate_grows_each_level_by_the_last_factor() {
        assert_eq!(estimate(&[1, 4], 1), 5.0);
        assert_eq!(estimate(&[1, 4], 3), 1.0 + 4.0 + 16.0 + 64.0);
        assert_eq!(estimate(&[1, 4, 8], 4), 1.0 + 4.0 + 8.0 + 16.0 + 32.0);
        assert_eq!(estimate(&[1], 5), 1.0);
    }

    #[test]
    fn a_tree_is_refused_past_its_bound_or_far_past_its_estimate() {
        let first = [1, 2, 4, 8, 16];
        assert!(
            check(&first, 6, 100).is_ok(),
            "127 positions: under 4 * 100"
        );
        assert!(
            check(&first[..3], 9, 100).is_ok(),
            "too few levels to refuse on a guess"
        );
        // 31 + 32 + 64 + 128 + 256 = 511 > 4 * 100: refused early, depth 5 fits.
        let e = check(&first, 8, 100).unwrap_err();
        assert_eq!((e.levels, e.positions, e.fits), (4, 31, 5));
        assert!(e.to_string().contains("choose --depth 5 or less"), "{e}");
        // Past the hard bound whatever the estimate says.
        let e = check(&[1, 60, 60], 2, 100).unwrap_err();
        assert_eq!((e.estimate, e.fits), (121.0, 1));
    }
}
