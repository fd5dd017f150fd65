//! The hash index of the game graph ([`Graph`]), used under the early stop or where the
//! boards are too many for a bitmap: later solves extend it with the positions they
//! reach.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::time::{Duration, Instant};

use kalah_core::{Game, Position};

use super::level::{level_ranges, solve_level};
use super::values::Values;
use super::{key, moves, position, Key, RetroProgress, RetroStop};

/// A hasher for [`Key`]s: a fast mix, keys being well spread already.
#[derive(Default)]
pub(super) struct KeyHasher(u64);

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

/// The positions solved so far under the early stop, or where the boards are too many for
/// a bitmap ([`Dense`]): a hash index of keys, nodes numbered level by level in the order
/// they were solved.
#[derive(Default)]
pub(super) struct Graph {
    pub(super) index: HashMap<Key, u32, BuildHasherDefault<KeyHasher>>,
    pub(super) keys: Vec<Key>,
    pub(super) values: Values,
}

/// Finds the positions reachable from `root` that the graph lacks, then solves them level
/// by level from the bottom.
pub(super) fn solve_graph(
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
    if let Err(stop) = discover(game, graph, root_key, limit, cancel, start, progress) {
        rollback(graph, first_new);
        return Err(stop);
    }
    renumber(graph, first_new);
    solve_new_levels(game, graph, first_new, cancel, start, progress)
}

/// Depth-first discovery of the positions reachable from `root_key` that the graph lacks,
/// added to its index and keys: an error where they pass `limit` or the solve is
/// cancelled (the caller then rolls the graph back).
fn discover(
    game: &Game,
    graph: &mut Graph,
    root_key: Key,
    limit: u64,
    cancel: &AtomicBool,
    start: Instant,
    progress: &mut dyn FnMut(&RetroProgress),
) -> Result<(), RetroStop> {
    let first_new = graph.keys.len();
    let mut stack = vec![root_key];
    graph.index.insert(root_key, graph.keys.len() as u32);
    graph.keys.push(root_key);
    let mut last_report = Instant::now();
    while let Some(k) = stack.pop() {
        if graph.keys.len() as u64 > limit {
            return Err(RetroStop::TooLarge { limit });
        }
        if last_report.elapsed() > Duration::from_millis(200) {
            if cancel.load(Relaxed) {
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
    Ok(())
}

/// Renumbers the nodes from `first_new` on by level, lowest first, so that each level is a
/// range, and makes room for their values.
fn renumber(graph: &mut Graph, first_new: usize) {
    let total = graph.keys.len();
    graph.keys[first_new..].sort_by_key(seeds);
    for i in first_new..total {
        let k = graph.keys[i];
        graph.index.insert(k, i as u32);
    }
    graph.values.resize(total);
}

/// Solves the nodes from `first_new` on (renumbered), level by level from the bottom.
fn solve_new_levels(
    game: &Game,
    graph: &mut Graph,
    first_new: usize,
    cancel: &AtomicBool,
    start: Instant,
    progress: &mut dyn FnMut(&RetroProgress),
) -> Result<(), RetroStop> {
    let total = graph.keys.len();
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
