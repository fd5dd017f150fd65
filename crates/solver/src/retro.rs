//! Exact values of games whose positions can repeat (Ethiopian Kalah, Oware) by
//! retrograde analysis of the game graph, level by level.
//!
//! **The cycle rule** (docs/rules.md §5.7): play that would go on for ever ends the game with
//! the seeds in the houses shared equally, so the store margin stands. A seed that reaches
//! a store never comes back, so the value of a position is its store margin plus a value
//! of the houses alone (the stores too under the early stop), whatever the path to it.
//!
//! **Levels.** A sowing never adds seeds to the houses, so the positions with `n` seeds in
//! the houses (a level) lead only to positions of level `n` or below. Levels are solved
//! from the bottom: when level `n` is solved, every move out of it (a capture, a seed into
//! a store, the end of the game) has a known value, its *exit* value. A move inside the
//! level changes no store and passes the turn.
//!
//! **One level** is a game with fixed exit values and infinite play worth 0 (to the houses'
//! value). Its value is computed from two fixed points of the negamax operator, found by
//! iteration from the extremes:
//! - `lo`: the value when infinite play is the worst outcome for the player to move
//!   (iterated up from −∞): the least fixed point, what the mover can force by leaving;
//! - `hi`: the value when infinite play is the best for the player to move (iterated down
//!   from +∞).
//!
//! For every threshold `t > 0`, "the mover can force at least `t`" does not depend on
//! whether infinite play counts 0 or −∞ (both are below `t`), so the value is `lo` where
//! `lo > 0`; symmetrically it is `hi` where `hi < 0`; and 0 otherwise:
//! `value = max(min(hi, 0), lo)`. Each sweep updates the positions of the level that are
//! not final yet, a chunk per thread (see `solve_level`), and the iteration stops when a
//! sweep changes nothing; `lo` only rises and `hi` only falls, over finitely many values.
//!
//! **Principal variations** replay to the value. Each `lo` and `hi` remembers the sweep
//! that set its final value (a clock over every solve of the game, so positions of
//! earlier solves are older); with the node, a `stamp`. The player who wins (value > 0)
//! moves to a child whose value was final strictly earlier, so the line reaches a lower
//! level in finitely many moves; a value of 0 may cycle, and the line then stops where a
//! position would repeat (the margin stands).
//!
//! Only the positions reachable from the positions solved are visited, with one of two
//! indices (`Graph`, a hash map that later solves extend; `Dense`, a bitmap solved
//! again whole with each new root).

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use rayon::prelude::*;

use kalah_core::{Game, Position, Side};

use crate::line::{push_sowing, Turn};

/// The value bound standing for ±∞ (far beyond any margin of 255 seeds).
const INF: i16 = 10_000;

/// A position seen from the player to move: the mover-first houses and, under the early
/// stop (whose end reads the stores), the stores `[mover, opponent]`.
type Key = (u128, [u8; 2]);

/// A hasher for [`Key`]s: a fast mix, keys being well spread already.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        kalah_core::mix(self.0)
    }
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut w = [0u8; 8];
            w[..chunk.len()].copy_from_slice(chunk);
            self.0 = kalah_core::mix(self.0 ^ u64::from_le_bytes(w));
        }
    }
    fn write_u128(&mut self, x: u128) {
        self.0 = kalah_core::mix(self.0 ^ x as u64) ^ (x >> 64) as u64;
    }
    fn write_u8(&mut self, x: u8) {
        self.0 = self.0.rotate_left(8) ^ x as u64;
    }
}

/// The fixed points of the solved positions and when each became final, by node.
#[derive(Default)]
struct Values {
    lo: Vec<i16>,
    hi: Vec<i16>,
    /// The clock of the sweep that set `lo` (`hi`) to its final value: with the node
    /// itself, a stamp that strictly decreases along a principal variation inside a
    /// level ([`stamp`]).
    lo_at: Vec<u32>,
    hi_at: Vec<u32>,
    /// The clock: sweeps done by every solve so far.
    clock: u32,
}

impl Values {
    /// The value of node `i` for the player to move, relative to the store margin.
    fn value(&self, i: usize) -> i16 {
        self.lo[i].max(self.hi[i].min(0))
    }

    /// Only the first `n` nodes.
    fn truncate(&mut self, n: usize) {
        self.lo.truncate(n);
        self.hi.truncate(n);
        self.lo_at.truncate(n);
        self.hi_at.truncate(n);
    }

    /// Room for `n` nodes, the new ones unsolved.
    fn resize(&mut self, n: usize) {
        self.lo.resize(n, -INF);
        self.hi.resize(n, INF);
        self.lo_at.resize(n, 0);
        self.hi_at.resize(n, 0);
    }
}

/// The order in which values became final: the sweep, then the node (a sweep updates the
/// nodes of its chunk in increasing order, each from values set before it).
fn stamp(at: u32, node: usize) -> u64 {
    (at as u64) << 32 | node as u64
}

/// The positions solved so far under the early stop, or where the boards are too many for
/// a bitmap ([`Dense`]): a hash index of keys, nodes numbered level by level in the order
/// they were solved.
#[derive(Default)]
struct Graph {
    index: HashMap<Key, u32, BuildHasherDefault<KeyHasher>>,
    keys: Vec<Key>,
    values: Values,
}

/// The positions reachable from the positions solved so far, as a bitmap over the
/// combinatorial ranks of the boards (the ranks are ordered by seeds in the houses, so
/// each level is a range of nodes): a node is a reachable board's place among the
/// reachable ones, found from its rank by a prefix count. Eight times less memory and
/// much less time than the hash index; a position outside the set solves the whole graph
/// again with it as one more root.
struct Dense {
    ranker: kalah_core::Ranker,
    bits: Vec<u64>,
    /// Reachable boards before each word of `bits`.
    before: Vec<u32>,
    /// The positions the graph was built from.
    roots: Vec<u128>,
    values: Values,
    nodes: usize,
}

impl Dense {
    /// The node of a board, if it is reachable.
    fn node(&self, board: u128) -> Option<u32> {
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

/// Where the solved positions are kept.
enum Backend {
    Hash(Graph),
    /// Not built until the first solve.
    Dense(Option<Dense>),
}

/// The largest number of boards of a game whose reachable positions are kept in a bitmap
/// ([`Dense`]): a 4 GiB bitmap.
const DENSE_BOARDS: u128 = 1 << 35;

/// A report on a running retrograde solve.
#[derive(Clone, Copy, Debug)]
pub struct RetroProgress {
    /// Positions found so far.
    pub positions: u64,
    /// The level (seeds in the houses) being solved, once the graph is complete.
    pub level: Option<u32>,
    /// Time since the solve started.
    pub elapsed: Duration,
}

/// What a retrograde solve found.
#[derive(Clone, Debug)]
pub struct RetroSolution {
    /// The value for the player to move: the final store margin under perfect play.
    pub value: i32,
    /// A principal variation: to the end of the game, or to the position it would repeat.
    pub pv: Vec<Turn>,
    /// Positions of the game graph newly solved.
    pub positions: u64,
    /// Sweeps made over the levels.
    pub sweeps: u64,
    /// Wall time.
    pub elapsed: Duration,
}

/// Why a retrograde solve stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RetroStop {
    /// Cancelled from another thread.
    Cancelled,
    /// The game graph of the position has more positions than the limit (from the
    /// memory available).
    TooLarge {
        /// The limit on positions.
        limit: u64,
    },
}

/// The message for a game graph larger than `limit` positions.
pub fn too_large_message(limit: u64) -> String {
    format!(
        "the game graph of this position has more than {limit} positions, more than the \
         memory available holds ({BYTES_PER_POSITION} bytes each): solve a position with \
         fewer seeds in the houses, or on a machine with more memory"
    )
}

/// The retrograde solver of one game: the positions solved so far, shared by later solves.
pub struct Retro {
    backend: Mutex<Backend>,
    /// The most positions the graph may hold.
    limit: u64,
}

/// Memory a position of the graph takes with a hash index: key, index entry and its
/// slack, fixed points and clocks, the moves of its level while that is solved.
pub const BYTES_PER_POSITION: u64 = 80;

/// The same with the bitmap index ([`Dense`]).
const DENSE_BYTES_PER_POSITION: u64 = 16;

impl Retro {
    /// A solver of `game` whose graph holds at most what `memory` bytes hold.
    pub fn new(game: &Game, memory: u64) -> Retro {
        let rules = game.rules();
        let lanes = 2 * game.houses();
        let boards = kalah_core::binomial((game.capacity() + lanes) as u64, lanes as u64);
        let dense = !rules.early_stop && boards <= DENSE_BOARDS;
        let (backend, per) = match dense {
            true => (Backend::Dense(None), DENSE_BYTES_PER_POSITION),
            false => (Backend::Hash(Graph::default()), BYTES_PER_POSITION),
        };
        Retro {
            backend: Mutex::new(backend),
            limit: (memory / per).min(u32::MAX as u64 - 1),
        }
    }

    /// The limit on positions.
    pub fn limit(&self) -> u64 {
        self.limit
    }

    /// Positions solved so far.
    pub fn positions(&self) -> u64 {
        self.lock().positions()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Backend> {
        self.backend.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The exact value of `pos` for the player to move, with a principal variation.
    pub fn solve(
        &self,
        game: &Game,
        pos: &Position,
        cancel: &AtomicBool,
        progress: &mut dyn FnMut(&RetroProgress),
    ) -> Result<RetroSolution, RetroStop> {
        let start = Instant::now();
        let mut backend = self.lock();
        let before = (backend.positions(), backend.clock());
        let result = match (pos.is_over(), &mut *backend) {
            (true, _) => Ok(()),
            (false, Backend::Hash(graph)) => {
                solve_graph(game, graph, pos, self.limit, cancel, start, progress)
            }
            (false, Backend::Dense(dense)) => {
                solve_dense(game, dense, pos, self.limit, cancel, start, progress)
            }
        };
        result?;
        let (relative, pv) = match &*backend {
            _ if pos.is_over() => (0, Vec::new()),
            Backend::Hash(g) => {
                let node = |p: &Position| g.index[&key(game, p)];
                let v = g.values.value(node(pos) as usize);
                (v, principal_variation(game, &g.values, &node, pos))
            }
            Backend::Dense(d) => {
                let d = d.as_ref().expect("built by the solve");
                let node = |p: &Position| d.node(p.packed_board()).expect("reachable");
                let v = d.values.value(node(pos) as usize);
                (v, principal_variation(game, &d.values, &node, pos))
            }
        };
        let (positions, sweeps) = (backend.positions(), backend.clock());
        let dense = matches!(&*backend, Backend::Dense(_));
        Ok(RetroSolution {
            value: pos.store_margin() + relative as i32,
            pv,
            // A bitmap graph is solved again whole with each new root.
            positions: match (dense, sweeps > before.1) {
                (true, true) => positions,
                (true, false) => 0,
                (false, _) => positions - before.0,
            },
            sweeps: (sweeps - before.1) as u64,
            elapsed: start.elapsed(),
        })
    }

    /// The exact value of `pos` where it has been solved already (`None` otherwise).
    pub fn known_value(&self, game: &Game, pos: &Position) -> Option<i32> {
        if pos.is_over() {
            return Some(pos.store_margin());
        }
        let i = match &*self.lock() {
            Backend::Hash(g) => g.values.value(*g.index.get(&key(game, pos))? as usize),
            Backend::Dense(d) => {
                let d = d.as_ref()?;
                d.values.value(d.node(pos.packed_board())? as usize)
            }
        };
        Some(pos.store_margin() + i as i32)
    }
}

impl Backend {
    /// Positions solved so far.
    fn positions(&self) -> u64 {
        match self {
            Backend::Hash(g) => g.keys.len() as u64,
            Backend::Dense(d) => d.as_ref().map_or(0, |d| d.nodes as u64),
        }
    }

    /// The clock: sweeps done so far.
    fn clock(&self) -> u32 {
        match self {
            Backend::Hash(g) => g.values.clock,
            Backend::Dense(d) => d.as_ref().map_or(0, |d| d.values.clock),
        }
    }
}

/// The key of a position that is not over.
fn key(game: &Game, pos: &Position) -> Key {
    let stores = match game.rules().early_stop {
        true => pos.stores(),
        false => [0, 0],
    };
    (pos.packed_board(), stores)
}

/// The position of a key, South to move (the value is relative, so the side does not
/// matter; under the early stop the key holds the stores).
fn position(game: &Game, k: &Key) -> Position {
    Position::from_packed(game.houses(), k.0, k.1, Side::South)
}

/// The moves of `pos`: each with the position it leads to (over where the game ends),
/// whether the same player moves again, and the gain in store margin for the mover.
fn moves<'a>(
    game: &'a Game,
    pos: &'a Position,
) -> impl Iterator<Item = (usize, Position, bool, i32)> + 'a {
    let margin = pos.store_margin();
    game.legal_moves(pos).map(move |m| {
        let (c, _) = game.sow(pos, m);
        let same_mover = c.side_to_move() == pos.side_to_move();
        let gain = match same_mover {
            true => c.store_margin() - margin,
            false => -c.store_margin() - margin,
        };
        (m, c, same_mover, gain)
    })
}

/// Finds the positions reachable from `root` that the graph lacks, then solves them level
/// by level from the bottom.
fn solve_graph(
    game: &Game,
    graph: &mut Graph,
    root: &Position,
    limit: u64,
    cancel: &AtomicBool,
    start: Instant,
    progress: &mut dyn FnMut(&RetroProgress),
) -> Result<(), RetroStop> {
    let first_new = graph.keys.len();
    let root_key = key(game, root);
    if graph.index.contains_key(&root_key) {
        return Ok(());
    }
    // Depth-first discovery of the new positions.
    let mut stack = vec![root_key];
    graph.index.insert(root_key, graph.keys.len() as u32);
    graph.keys.push(root_key);
    let mut last_report = Instant::now();
    while let Some(k) = stack.pop() {
        if graph.keys.len() as u64 > limit {
            rollback(graph, first_new);
            return Err(RetroStop::TooLarge { limit });
        }
        if last_report.elapsed() > Duration::from_millis(200) {
            if cancel.load(Relaxed) {
                rollback(graph, first_new);
                return Err(RetroStop::Cancelled);
            }
            progress(&RetroProgress {
                positions: (graph.keys.len() - first_new) as u64,
                level: None,
                elapsed: start.elapsed(),
            });
            last_report = Instant::now();
        }
        let pos = position(game, &k);
        for (_, c, _, _) in moves(game, &pos) {
            if c.is_over() {
                continue;
            }
            let ck = key(game, &c);
            if !graph.index.contains_key(&ck) {
                graph.index.insert(ck, graph.keys.len() as u32);
                graph.keys.push(ck);
                stack.push(ck);
            }
        }
    }
    // Renumber the new nodes by level, lowest first, so that each level is a range.
    let total = graph.keys.len();
    graph.keys[first_new..].sort_by_key(seeds);
    for i in first_new..total {
        let k = graph.keys[i];
        graph.index.insert(k, i as u32);
    }
    graph.values.resize(total);
    let g = &*graph;
    let levels = level_ranges(first_new..total, |i| seeds(&g.keys[i]));
    for range in levels {
        if cancel.load(Relaxed) {
            rollback(graph, first_new);
            return Err(RetroStop::Cancelled);
        }
        progress(&RetroProgress {
            positions: (total - first_new) as u64,
            level: Some(seeds(&graph.keys[range.start])),
            elapsed: start.elapsed(),
        });
        let Graph {
            index,
            keys,
            values,
        } = graph;
        solve_level(
            game,
            values,
            range,
            &|i| position(game, &keys[i as usize]),
            &|p| index[&key(game, p)],
        );
    }
    Ok(())
}

/// The ranges of nodes of equal level in `nodes` (numbered level by level).
fn level_ranges(
    nodes: std::ops::Range<usize>,
    level: impl Fn(usize) -> u32,
) -> Vec<std::ops::Range<usize>> {
    let mut out = Vec::new();
    let mut at = nodes.start;
    while at < nodes.end {
        let l = level(at);
        // The first node of a higher level (levels ascend).
        let (mut a, mut b) = (at, nodes.end);
        while a < b {
            let mid = (a + b) / 2;
            if level(mid) == l {
                a = mid + 1;
            } else {
                b = mid;
            }
        }
        out.push(at..a);
        at = a;
    }
    out
}

/// Removes the nodes from `first_new` on (a solve that stopped leaves the graph as it was).
fn rollback(graph: &mut Graph, first_new: usize) {
    for k in graph.keys.drain(first_new..) {
        graph.index.remove(&k);
    }
    graph.values.truncate(first_new);
}

/// Seeds in the houses of a key.
fn seeds(k: &Key) -> u32 {
    k.0.to_le_bytes().iter().map(|&b| b as u32).sum()
}

/// Builds the bitmap graph of every position reachable from its roots and `root`, then
/// solves it level by level (a position already in it is solved already).
fn solve_dense(
    game: &Game,
    slot: &mut Option<Dense>,
    root: &Position,
    limit: u64,
    cancel: &AtomicBool,
    start: Instant,
    progress: &mut dyn FnMut(&RetroProgress),
) -> Result<(), RetroStop> {
    if slot
        .as_ref()
        .is_some_and(|d| d.node(root.packed_board()).is_some())
    {
        return Ok(());
    }
    let mut roots = slot.take().map_or(Vec::new(), |d| d.roots);
    roots.push(root.packed_board());
    let lanes = 2 * game.houses();
    let ranker = kalah_core::Ranker::new(lanes, game.capacity());
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
    for &r in &roots {
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
            if !c.is_over() && mark(&mut bits, c.packed_board()) {
                nodes += 1;
                stack.push(c.packed_board());
            }
        }
    }
    if nodes > limit {
        return Err(RetroStop::TooLarge { limit });
    }
    let mut before = Vec::with_capacity(words);
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
        nodes: nodes as usize,
    };
    dense.values.resize(dense.nodes);
    // The nodes of each level: those whose ranks are the level's.
    let mut levels = Vec::new();
    for l in 0..=game.capacity() {
        let (a, b) = (
            dense.ranker.level_start(l) as usize,
            dense.ranker.level_start(l + 1) as usize,
        );
        let range = dense.below(a)..dense.below(b);
        if !range.is_empty() {
            levels.push((l as u32, range));
        }
    }
    for (level, range) in levels {
        if cancel.load(Relaxed) {
            return Err(RetroStop::Cancelled);
        }
        progress(&RetroProgress {
            positions: nodes,
            level: Some(level),
            elapsed: start.elapsed(),
        });
        let Dense { values, .. } = &mut dense;
        let mut taken = std::mem::take(values);
        let d = &dense;
        solve_level(
            game,
            &mut taken,
            range,
            &|i| Position::from_packed(game.houses(), d.board(i), [0, 0], Side::South),
            &|p| d.node(p.packed_board()).expect("reachable"),
        );
        dense.values = taken;
    }
    *slot = Some(dense);
    Ok(())
}

/// Nodes of a level prepared at a time (bounds the memory of the moves before they are
/// packed).
const CHUNK: usize = 1 << 20;

/// Solves the nodes `range` of one level, new to the graph: every node they lead to
/// outside the range is solved already. `position` gives a node's position, `node` a
/// position's node.
fn solve_level(
    game: &Game,
    values: &mut Values,
    range: std::ops::Range<usize>,
    position: &(dyn Fn(u32) -> Position + Sync),
    node: &(dyn Fn(&Position) -> u32 + Sync),
) {
    let (first, n) = (range.start, range.len());
    // Each node's best exit (−∞ if none), and its moves inside the range, packed.
    let mut exit = Vec::with_capacity(n);
    let mut offsets = Vec::with_capacity(n + 1);
    let mut inside: Vec<u32> = Vec::new();
    offsets.push(0u32);
    let v = &*values;
    for chunk_start in range.clone().step_by(CHUNK) {
        let chunk = chunk_start..(chunk_start + CHUNK).min(range.end);
        let prepared: Vec<(i16, [u32; 16], u8)> = chunk
            .into_par_iter()
            .map(|i| {
                let pos = position(i as u32);
                let mut best = -INF;
                let (mut ins, mut len) = ([0u32; 16], 0u8);
                for (_, c, same_mover, gain) in moves(game, &pos) {
                    let worth = if c.is_over() {
                        gain
                    } else {
                        let q = node(&c) as usize;
                        if range.contains(&q) {
                            debug_assert!(!same_mover && gain == 0);
                            ins[len as usize] = (q - first) as u32;
                            len += 1;
                            continue;
                        }
                        let cv = v.value(q) as i32;
                        gain + if same_mover { cv } else { -cv }
                    };
                    best = best.max(worth as i16);
                }
                (best, ins, len)
            })
            .collect();
        for (best, ins, len) in prepared {
            exit.push(best);
            inside.extend_from_slice(&ins[..len as usize]);
            offsets.push(inside.len() as u32);
        }
    }

    // Sweeps from the extremes until nothing changes; a node whose bounds met is final
    // (`lo` only rises, `hi` only falls). Each thread updates a chunk of the level in
    // place, in increasing order (Gauss-Seidel), reading the other chunks as they were
    // at the start of the sweep; every update then reads only values set strictly
    // earlier in the order of [`stamp`].
    let threads = rayon::current_num_threads().max(1);
    let chunk = n.div_ceil(4 * threads).max(1 << 12);
    let Values {
        lo,
        hi,
        lo_at,
        hi_at,
        clock,
    } = values;
    let (lo, hi) = (&mut lo[range.clone()], &mut hi[range.clone()]);
    let (lo_at, hi_at) = (&mut lo_at[range.clone()], &mut hi_at[range]);
    loop {
        *clock += 1;
        let now = *clock;
        let (was_lo, was_hi) = match n > chunk {
            true => (lo.to_vec(), hi.to_vec()),
            false => (Vec::new(), Vec::new()),
        };
        let changed = lo
            .par_chunks_mut(chunk)
            .zip(hi.par_chunks_mut(chunk))
            .zip(lo_at.par_chunks_mut(chunk))
            .zip(hi_at.par_chunks_mut(chunk))
            .enumerate()
            .map(|(c, (((lo, hi), lo_at), hi_at))| {
                let base = c * chunk;
                let end = base + lo.len();
                let mut changed = false;
                for k in 0..lo.len() {
                    if lo[k] == hi[k] {
                        continue;
                    }
                    let p = base + k;
                    let (mut l, mut h) = (exit[p], exit[p]);
                    for &q in &inside[offsets[p] as usize..offsets[p + 1] as usize] {
                        let q = q as usize;
                        let (ql, qh) = match q >= base && q < end {
                            true => (lo[q - base], hi[q - base]),
                            false => (was_lo[q], was_hi[q]),
                        };
                        l = l.max(-qh);
                        h = h.max(-ql);
                    }
                    if l != lo[k] {
                        lo[k] = l;
                        lo_at[k] = now;
                        changed = true;
                    }
                    if h != hi[k] {
                        hi[k] = h;
                        hi_at[k] = now;
                        changed = true;
                    }
                }
                changed
            })
            .reduce(|| false, |a, b| a || b);
        if !changed {
            break;
        }
    }
}

/// A principal variation from `root` (solved): at each position a move that keeps the
/// value, the one whose child became final earliest ([`stamp`]); it ends with the game, or
/// where the next position would repeat one of the line (a value of 0 that cycles).
///
/// The player who wins (value > 0: the value is `lo`) moves to a child whose `hi` met its
/// final value before the mover's `lo` did, and the player who loses (the value is `hi`)
/// to a child whose `lo` did: the stamps fall strictly along the line inside a level, so
/// it leaves the level (every move out of it is progress) and reaches the end.
fn principal_variation(
    game: &Game,
    values: &Values,
    node: &dyn Fn(&Position) -> u32,
    root: &Position,
) -> Vec<Turn> {
    let mut pv: Vec<Turn> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let mut pos = *root;
    while !pos.is_over() && seen.insert(pos) {
        let i = node(&pos) as usize;
        let v = values.value(i) as i32;
        let winning = v > 0;
        let level = pos.seeds_in_houses();
        let mut best: Option<(u64, usize, Position)> = None;
        for (m, c, same_mover, gain) in moves(game, &pos) {
            let (worth, order) = if c.is_over() {
                (gain, 0)
            } else {
                let j = node(&c) as usize;
                let cv = values.value(j) as i32;
                let worth = gain + if same_mover { cv } else { -cv };
                // A move out of the level is progress; inside it, the child's stamp.
                let order = match c.seeds_in_houses() < level {
                    true => 0,
                    false if winning => stamp(values.hi_at[j], j),
                    false => stamp(values.lo_at[j], j),
                };
                (worth, order)
            };
            if worth == v && best.as_ref().is_none_or(|b| order < b.0) {
                best = Some((order, m, c));
            }
        }
        // The value is a fixed point, so some move keeps it.
        let Some((_, m, c)) = best else { break };
        push_sowing(&mut pv, pos.side_to_move(), m);
        pos = c;
    }
    pv
}
