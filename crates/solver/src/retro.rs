//! Exact values of games whose positions can repeat (Ethiopian Kalah, Oware) by
//! retrograde analysis of the game graph, level by level.
//!
//! **The cycle rule** (docs/rules.md §6): play that would go on for ever ends the game with
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
//! `value = max(min(hi, 0), lo)`. Each sweep updates every position of the level from the
//! previous sweep's values (Jacobi order, in parallel), and the iteration stops when a
//! sweep changes nothing; `lo` only rises and `hi` only falls, over finitely many values.
//!
//! **Principal variations** replay to the value. Each `lo` and `hi` remembers the sweep
//! that set its final value (a global clock, so positions of earlier solves are older).
//! The player who wins (value > 0) moves to a child whose value was final strictly
//! earlier, so the line reaches a lower level in finitely many moves; a value of 0 may
//! cycle, and the line then stops where a position would repeat (the margin stands).
//!
//! Only the positions reachable from the positions solved are visited; the solved graph is
//! kept, so later solves in the same game (the openings, a batch) reuse it.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use rayon::prelude::*;

use kalah_core::{Game, Position, Side, Sowing};

use crate::{Cancelled, Turn};

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

/// The positions solved so far, with their fixed points and when each became final.
#[derive(Default)]
struct Graph {
    index: HashMap<Key, u32, BuildHasherDefault<KeyHasher>>,
    keys: Vec<Key>,
    lo: Vec<i16>,
    hi: Vec<i16>,
    /// The clock of the sweep that set `lo` (`hi`) to its final value.
    lo_at: Vec<u32>,
    hi_at: Vec<u32>,
    /// The clock: sweeps done by every solve so far.
    clock: u32,
}

impl Graph {
    /// The value of node `i` for the player to move, relative to the store margin.
    fn value(&self, i: usize) -> i16 {
        self.lo[i].max(self.hi[i].min(0))
    }
}

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

impl From<RetroStop> for Cancelled {
    fn from(_: RetroStop) -> Cancelled {
        Cancelled
    }
}

/// The limit on positions of the last solve of this process that stopped for want of
/// memory (0: none did), for the callers that only see [`Cancelled`].
static TOO_LARGE: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// Where a retrograde solve of this process stopped because the game graph holds more
/// positions than the memory does: the limit it met.
pub fn too_large() -> Option<u64> {
    match TOO_LARGE.load(Relaxed) {
        0 => None,
        limit => Some(limit),
    }
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
    graph: Mutex<Graph>,
    /// The most positions the graph may hold.
    limit: u64,
    /// Why the last solve stopped, if it did.
    last_stop: Mutex<Option<RetroStop>>,
}

/// Memory a position of the graph takes: key, index entry and its slack, fixed points and
/// clocks.
pub const BYTES_PER_POSITION: u64 = 80;

impl Retro {
    /// A solver whose graph holds at most `limit` positions.
    pub fn new(limit: u64) -> Retro {
        Retro {
            graph: Mutex::new(Graph::default()),
            limit,
            last_stop: Mutex::new(None),
        }
    }

    /// The limit on positions.
    pub fn limit(&self) -> u64 {
        self.limit
    }

    /// Positions solved so far.
    pub fn positions(&self) -> u64 {
        self.lock().keys.len() as u64
    }

    /// Why the last solve stopped early, if it did.
    pub fn last_stop(&self) -> Option<RetroStop> {
        *self.last_stop.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Graph> {
        self.graph.lock().unwrap_or_else(|e| e.into_inner())
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
        *self.last_stop.lock().unwrap_or_else(|e| e.into_inner()) = None;
        let mut graph = self.lock();
        let before = (graph.keys.len() as u64, graph.clock);
        let result = if pos.is_over() {
            Ok(())
        } else {
            solve_graph(game, &mut graph, pos, self.limit, cancel, start, progress)
        };
        if let Err(stop) = result {
            if let RetroStop::TooLarge { limit } = stop {
                TOO_LARGE.store(limit.max(1), Relaxed);
            }
            *self.last_stop.lock().unwrap_or_else(|e| e.into_inner()) = Some(stop);
            return Err(stop);
        }
        let relative = match pos.is_over() {
            true => 0,
            false => graph.value(graph.index[&key(game, pos)] as usize) as i32,
        };
        let pv = principal_variation(game, &graph, pos);
        Ok(RetroSolution {
            value: pos.store_margin() + relative,
            pv,
            positions: graph.keys.len() as u64 - before.0,
            sweeps: (graph.clock - before.1) as u64,
            elapsed: start.elapsed(),
        })
    }

    /// The exact value of every position already solved that `visit` asks for: `None`
    /// where `pos` has not been solved (yet).
    pub fn known_value(&self, game: &Game, pos: &Position) -> Option<i32> {
        if pos.is_over() {
            return Some(pos.store_margin());
        }
        let graph = self.lock();
        let i = *graph.index.get(&key(game, pos))?;
        Some(pos.store_margin() + graph.value(i as usize) as i32)
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

/// A move of a node: where it leads, and what it is worth to the mover beyond the child's
/// own value.
enum Edge {
    /// The game ended: the gain in margin.
    Over(i32),
    /// A child of the graph: `gain + sign * value(child)`.
    Child {
        node: u32,
        gain: i32,
        same_mover: bool,
    },
}

/// Every move of `pos` (a node, not over) with its child.
fn edges(game: &Game, pos: &Position, mut child_node: impl FnMut(&Position) -> u32) -> Vec<Edge> {
    let margin = pos.store_margin();
    game.legal_moves(pos)
        .map(|m| {
            let (c, how) = game.sow(pos, m);
            let same_mover = c.side_to_move() == pos.side_to_move();
            let gain = match same_mover {
                true => c.store_margin() - margin,
                false => -c.store_margin() - margin,
            };
            match how {
                Sowing::GameOver => Edge::Over(gain),
                _ => Edge::Child {
                    node: child_node(&c),
                    gain,
                    same_mover,
                },
            }
        })
        .collect()
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
        for m in game.legal_moves(&pos) {
            let (c, how) = game.sow(&pos, m);
            if how == Sowing::GameOver {
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
    if std::env::var_os("KALAH_RETRO_TRACE").is_some() {
        eprintln!(
            "found {} positions in {:.3} s",
            graph.keys.len() - first_new,
            start.elapsed().as_secs_f64()
        );
    }
    // Renumber the new nodes by level, lowest first, so that each level is a range.
    let total = graph.keys.len();
    graph.keys[first_new..].sort_by_key(seeds);
    for i in first_new..total {
        let k = graph.keys[i];
        graph.index.insert(k, i as u32);
    }
    graph.lo.resize(total, -INF);
    graph.hi.resize(total, INF);
    graph.lo_at.resize(total, 0);
    graph.hi_at.resize(total, 0);
    let mut at = first_new;
    while at < total {
        let level = seeds(&graph.keys[at]);
        let end = at
            + graph.keys[at..]
                .iter()
                .take_while(|k| seeds(k) == level)
                .count();
        if cancel.load(Relaxed) {
            rollback(graph, first_new);
            return Err(RetroStop::Cancelled);
        }
        progress(&RetroProgress {
            positions: (total - first_new) as u64,
            level: Some(level),
            elapsed: start.elapsed(),
        });
        let t = Instant::now();
        let c0 = graph.clock;
        solve_level(game, graph, at..end);
        if std::env::var_os("KALAH_RETRO_TRACE").is_some() {
            eprintln!(
                "level {level}: {} positions, {} sweeps, {:.3} s",
                end - at,
                graph.clock - c0,
                t.elapsed().as_secs_f64()
            );
        }
        at = end;
    }
    Ok(())
}

/// Removes the nodes from `first_new` on (a solve that stopped leaves the graph as it was).
fn rollback(graph: &mut Graph, first_new: usize) {
    for k in graph.keys.drain(first_new..) {
        graph.index.remove(&k);
    }
    graph.lo.truncate(first_new);
    graph.hi.truncate(first_new);
    graph.lo_at.truncate(first_new);
    graph.hi_at.truncate(first_new);
}

/// Seeds in the houses of a key.
fn seeds(k: &Key) -> u32 {
    k.0.to_le_bytes().iter().map(|&b| b as u32).sum()
}

/// Nodes of a level prepared at a time (bounds the memory of the moves before they are
/// packed).
const CHUNK: usize = 1 << 20;

/// Solves the nodes `range` of one level, new to the graph: every node they lead to
/// outside the range is solved already.
fn solve_level(game: &Game, graph: &mut Graph, range: std::ops::Range<usize>) {
    let (first, n) = (range.start, range.len());
    // Each node's best exit (−∞ if none), and its moves inside the range, packed.
    let mut exit = Vec::with_capacity(n);
    let mut offsets = Vec::with_capacity(n + 1);
    let mut inside: Vec<u32> = Vec::new();
    offsets.push(0u32);
    let g = &*graph;
    for chunk in range.clone().collect::<Vec<_>>().chunks(CHUNK) {
        let prepared: Vec<(i16, [u32; 16], u8)> = chunk
            .par_iter()
            .map(|&i| {
                let pos = position(game, &g.keys[i]);
                let mut best = -INF;
                let (mut moves, mut len) = ([0u32; 16], 0u8);
                for e in edges(game, &pos, |c| g.index[&key(game, c)]) {
                    let v = match e {
                        Edge::Over(gain) => gain,
                        Edge::Child {
                            node,
                            gain,
                            same_mover,
                        } => {
                            if range.contains(&(node as usize)) {
                                debug_assert!(!same_mover && gain == 0);
                                moves[len as usize] = node - first as u32;
                                len += 1;
                                continue;
                            }
                            let v = g.value(node as usize) as i32;
                            gain + if same_mover { v } else { -v }
                        }
                    };
                    best = best.max(v as i16);
                }
                (best, moves, len)
            })
            .collect();
        for (best, moves, len) in prepared {
            exit.push(best);
            inside.extend_from_slice(&moves[..len as usize]);
            offsets.push(inside.len() as u32);
        }
    }

    // Jacobi sweeps from the extremes until nothing changes; a node whose bounds met is
    // final (`lo` only rises, `hi` only falls).
    let mut lo = vec![-INF; n];
    let mut hi = vec![INF; n];
    let mut lo_at = vec![0u32; n];
    let mut hi_at = vec![0u32; n];
    loop {
        graph.clock += 1;
        let clock = graph.clock;
        let next: Vec<(i16, i16)> = (0..n)
            .into_par_iter()
            .map(|p| {
                if lo[p] == hi[p] {
                    return (lo[p], hi[p]);
                }
                let (mut l, mut h) = (exit[p], exit[p]);
                for &q in &inside[offsets[p] as usize..offsets[p + 1] as usize] {
                    l = l.max(-hi[q as usize]);
                    h = h.max(-lo[q as usize]);
                }
                (l, h)
            })
            .collect();
        let mut changed = false;
        for (p, &(l, h)) in next.iter().enumerate() {
            if l != lo[p] {
                lo[p] = l;
                lo_at[p] = clock;
                changed = true;
            }
            if h != hi[p] {
                hi[p] = h;
                hi_at[p] = clock;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    graph.lo[range.clone()].copy_from_slice(&lo);
    graph.hi[range.clone()].copy_from_slice(&hi);
    graph.lo_at[range.clone()].copy_from_slice(&lo_at);
    graph.hi_at[range].copy_from_slice(&hi_at);
}

/// A principal variation from `root` (solved): at each position a move that keeps the
/// value, the one whose child became final earliest; it ends with the game, or where the
/// next position would repeat one of the line (a value of 0 that cycles).
fn principal_variation(game: &Game, graph: &Graph, root: &Position) -> Vec<Turn> {
    let mut pv: Vec<Turn> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let mut pos = *root;
    while !pos.is_over() && seen.insert(pos) {
        let i = graph.index[&key(game, &pos)] as usize;
        let v = graph.value(i) as i32;
        // The fixed point the value comes from, whose clock decreases along the line.
        let winning = v > 0;
        let mut best: Option<(u32, usize, Position)> = None;
        for m in game.legal_moves(&pos) {
            let (c, how) = game.sow(&pos, m);
            let margin = pos.store_margin();
            let same_mover = c.side_to_move() == pos.side_to_move();
            let gain = match same_mover {
                true => c.store_margin() - margin,
                false => -c.store_margin() - margin,
            };
            let (worth, clock) = if how == Sowing::GameOver {
                (gain, 0)
            } else {
                let j = graph.index[&key(game, &c)] as usize;
                let cv = graph.value(j) as i32;
                let worth = gain + if same_mover { cv } else { -cv };
                // A child in the same level is solved by the same sweeps; one below or
                // solved earlier became final before (clock 0 suffices for ordering).
                let clock = match (same_mover, winning) {
                    (false, true) => graph.hi_at[j],
                    (false, false) => graph.lo_at[j],
                    (true, true) => graph.lo_at[j],
                    (true, false) => graph.hi_at[j],
                };
                (worth, clock)
            };
            if worth == v && best.map_or(true, |(b, _, _)| clock < b) {
                best = Some((clock, m, c));
            }
        }
        // The value is a fixed point, so some move keeps it.
        let Some((_, m, c)) = best else { break };
        match pv.last_mut() {
            // Same player again: the last sowing gave an extra turn.
            Some(t) if t.side == pos.side_to_move() => t.sowings.push(m),
            _ => pv.push(Turn {
                side: pos.side_to_move(),
                sowings: vec![m],
            }),
        }
        pos = c;
    }
    pv
}
