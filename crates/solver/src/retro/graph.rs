//! The hash index of the game graph ([`Graph`]), used under the early stop or where the
//! boards are too many for a bitmap: later solves extend it with the positions they
//! reach.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::time::{Duration, Instant};

use kalah_core::{Game, Position};

use super::level::{level_ranges, solve_level};
use super::pipeline::{Index, NewLevels};
use super::values::Values;
use super::{held, key, moves, position, Key, RetroProgress, RetroStop};
use crate::db::egdb::Egdb;

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
    /// The first node of the last discovery (what [`Index::abandon`] removes).
    first_new: usize,
}

impl Index for Graph {
    fn holds(&self, game: &Game, root: &Position) -> bool {
        self.index.contains_key(&key(game, root))
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
        let first_new = self.keys.len();
        self.first_new = first_new;
        let root_key = key(game, root);
        let found = discover(game, self, root_key, exits, limit, cancel, start, progress);
        if let Err(stop) = found {
            self.abandon();
            return Err(stop);
        }
        renumber(self, first_new);
        let total = self.keys.len();
        let levels = level_ranges(first_new..total, |i| seeds(&self.keys[i]))
            .into_iter()
            .map(|range| (seeds(&self.keys[range.start]), range))
            .collect();
        Ok(NewLevels {
            levels,
            positions: (total - first_new) as u64,
        })
    }

    fn solve_range(&mut self, game: &Game, range: std::ops::Range<usize>, exits: Option<&Egdb>) {
        let Graph {
            index,
            keys,
            values,
            ..
        } = self;
        solve_level(
            game,
            values,
            range,
            &|i| position(game, &keys[i as usize]),
            &|p| index[&key(game, p)],
            exits,
        );
    }

    /// Removes the nodes the last discovery added.
    fn abandon(&mut self) {
        for k in self.keys.drain(self.first_new..) {
            self.index.remove(&k);
        }
        self.values.truncate(self.first_new);
    }
}

/// Depth-first discovery of the positions reachable from `root_key` that the graph lacks,
/// added to its index and keys: an error where they pass `limit` or the solve is
/// cancelled (the caller then rolls the graph back).
#[allow(clippy::too_many_arguments)]
fn discover(
    game: &Game,
    graph: &mut Graph,
    root_key: Key,
    exits: Option<&Egdb>,
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
            if c.is_over() || held(exits, &c).is_some() {
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

/// Seeds in the houses of a key.
fn seeds(k: &Key) -> u32 {
    k.0.to_le_bytes().iter().map(|&b| b as u32).sum()
}
