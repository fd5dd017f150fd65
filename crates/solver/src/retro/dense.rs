//! The bitmap index of the game graph ([`Dense`]): every position reachable from the
//! roots solved, found again whole with each new root.

use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::time::{Duration, Instant};

use kalah_core::{Game, Position, Ranker, Side};

use super::level::solve_level;
use super::pipeline::{Index, NewLevels};
use super::values::Values;
use super::{held, moves, RetroProgress, RetroStop};
use crate::db::egdb::Egdb;

/// The positions reachable from the positions solved so far, as a bitmap over the
/// combinatorial ranks of the boards (the ranks are ordered by seeds in the houses, so
/// each level is a range of nodes): a node is a reachable board's place among the
/// reachable ones, found from its rank by a prefix count. Eight times less memory and
/// much less time than the hash index; a position outside the set solves the whole graph
/// again with it as one more root.
pub(super) struct Dense {
    ranker: Ranker,
    bits: Vec<u64>,
    /// Reachable boards before each word of `bits`.
    before: Vec<u32>,
    /// The positions the graph was built from.
    roots: Vec<u128>,
    pub(super) values: Values,
    pub(super) nodes: usize,
}

impl Dense {
    /// The graph of the `nodes` boards marked in `bits` (over the ranks of `ranker`),
    /// reachable from `roots`, none solved yet.
    fn new(ranker: Ranker, bits: Vec<u64>, roots: Vec<u128>, nodes: usize) -> Dense {
        let mut before = Vec::with_capacity(bits.len());
        let mut count = 0u32;
        for w in &bits {
            before.push(count);
            count += w.count_ones();
        }
        let mut dense = Dense {
            ranker,
            bits,
            before,
            roots,
            values: Values::default(),
            nodes,
        };
        dense.values.resize(dense.nodes);
        dense
    }

    /// The nodes of each level, lowest first: those whose ranks are the level's.
    fn levels(&self, game: &Game) -> Vec<(u32, std::ops::Range<usize>)> {
        let mut levels = Vec::new();
        for l in 0..=game.capacity() {
            let (a, b) = (
                self.ranker.level_start(l) as usize,
                self.ranker.level_start(l + 1) as usize,
            );
            let range = self.below(a)..self.below(b);
            if !range.is_empty() {
                levels.push((l as u32, range));
            }
        }
        levels
    }

    /// The node of a board, if it is reachable.
    pub(super) fn node(&self, board: u128) -> Option<u32> {
        let r = self.ranker.rank(board) as usize;
        let word = *self.bits.get(r / 64)?;
        (word >> (r % 64) & 1 == 1).then(|| self.below(r) as u32)
    }

    /// The reachable boards of rank below `rank` (all of them past the last word).
    fn below(&self, rank: usize) -> usize {
        match self.bits.get(rank / 64) {
            Some(word) => {
                self.before[rank / 64] as usize
                    + (word & ((1u64 << (rank % 64)) - 1)).count_ones() as usize
            }
            None => self.nodes,
        }
    }

    /// The board of node `i`.
    fn board(&self, i: u32) -> u128 {
        // The last word with fewer nodes before it than `i` + 1.
        let w = self.before.partition_point(|&b| b <= i) - 1;
        let mut word = self.bits[w];
        for _ in 0..i - self.before[w] {
            word &= word - 1;
        }
        self.ranker
            .unrank((w * 64 + word.trailing_zeros() as usize) as u64)
    }
}

/// The bitmap graph, not built until the first solve; each discovery builds it again
/// whole from its roots and the new root.
impl Index for Option<Dense> {
    fn holds(&self, _: &Game, root: &Position) -> bool {
        self.as_ref()
            .is_some_and(|d| d.node(root.packed_board()).is_some())
    }

    fn discover(
        &mut self,
        game: &Game,
        root: &Position,
        exits: Option<&Egdb>,
        limit: u64,
        cancel: &AtomicBool,
        start: Instant,
        progress: &mut dyn FnMut(&RetroProgress),
    ) -> Result<NewLevels, RetroStop> {
        let mut roots = self.take().map_or(Vec::new(), |d| d.roots);
        roots.push(root.packed_board());
        let ranker = Ranker::new(2 * game.houses(), game.capacity());
        let (bits, nodes) = discover(game, &ranker, exits, &roots, limit, cancel, start, progress)?;
        if nodes > limit {
            return Err(RetroStop::TooLarge { limit });
        }
        let dense = Dense::new(ranker, bits, roots, nodes as usize);
        let levels = dense.levels(game);
        *self = Some(dense);
        Ok(NewLevels {
            levels,
            positions: nodes,
        })
    }

    fn solve_range(&mut self, game: &Game, range: std::ops::Range<usize>, exits: Option<&Egdb>) {
        let dense = self.as_mut().expect("built by the discovery");
        let mut taken = std::mem::take(&mut dense.values);
        let d = &*dense;
        solve_level(
            game,
            &mut taken,
            range,
            &|i| Position::from_packed(game.houses(), d.board(i), [0, 0], Side::South),
            &|p| d.node(p.packed_board()).expect("reachable"),
            exits,
        );
        dense.values = taken;
    }

    fn abandon(&mut self) {
        *self = None;
    }
}

/// Depth-first discovery of every board reachable from `roots` (not into those `exits`
/// holds): the bitmap over the ranks of `ranker`, and the number of boards in it; an error
/// where the solve is cancelled or passes `limit` (looked at a few times a second).
#[allow(clippy::too_many_arguments)]
fn discover(
    game: &Game,
    ranker: &Ranker,
    exits: Option<&Egdb>,
    roots: &[u128],
    limit: u64,
    cancel: &AtomicBool,
    start: Instant,
    progress: &mut dyn FnMut(&RetroProgress),
) -> Result<(Vec<u64>, u64), RetroStop> {
    let words = (ranker.count() as usize).div_ceil(64);
    let mut bits = vec![0u64; words];
    let mut nodes = 0u64;
    let mark = |bits: &mut [u64], board: u128| {
        let r = ranker.rank(board) as usize;
        let fresh = bits[r / 64] >> (r % 64) & 1 == 0;
        bits[r / 64] |= 1 << (r % 64);
        fresh
    };
    let mut stack: Vec<u128> = Vec::new();
    for &r in roots {
        if mark(&mut bits, r) {
            nodes += 1;
            stack.push(r);
        }
    }
    let mut last_report = Instant::now();
    let mut steps = 0u32;
    while let Some(b) = stack.pop() {
        steps = steps.wrapping_add(1);
        if steps % 4096 == 0 && last_report.elapsed() > Duration::from_millis(200) {
            if cancel.load(Relaxed) {
                return Err(RetroStop::Cancelled);
            }
            if nodes > limit {
                return Err(RetroStop::TooLarge { limit });
            }
            progress(&RetroProgress {
                positions: nodes,
                level: None,
                elapsed: start.elapsed(),
            });
            last_report = Instant::now();
        }
        let pos = Position::from_packed(game.houses(), b, [0, 0], Side::South);
        for (_, c, _, _) in moves(game, &pos) {
            if !c.is_over() && held(exits, &c).is_none() && mark(&mut bits, c.packed_board()) {
                nodes += 1;
                stack.push(c.packed_board());
            }
        }
    }
    Ok((bits, nodes))
}
