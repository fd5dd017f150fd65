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

mod dense;
mod graph;
mod level;
mod pipeline;
mod pv;
mod values;

use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use kalah_core::{Game, Position, Side};

use crate::db::egdb::Egdb;
use crate::line::Turn;
use crate::os;
use dense::Dense;
use graph::Graph;
use pipeline::Index;
use pv::principal_variation;

/// A position seen from the player to move: the mover-first houses and, under the early
/// stop (whose end reads the stores), the stores `[mover, opponent]`.
type Key = (u128, [u8; 2]);

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
    /// The memory the graph may take (for a solve again without exits).
    memory: u64,
    /// Bytes a position of the graph takes.
    per: u64,
    /// A finished database of the game: the positions it holds are exits of the graph,
    /// valued from it and not followed ([`Retro::with_exits`]).
    exits: Option<Arc<Egdb>>,
}

/// The relative value (final margin minus store margin, for its mover) of `pos` where
/// `exits` holds it and the game is not over there.
pub(crate) fn held(exits: Option<&Egdb>, pos: &Position) -> Option<i32> {
    match pos.is_over() {
        true => None,
        false => Some(exits?.probe(pos)? - pos.store_margin()),
    }
}

/// Memory a position of the graph takes with a hash index, at its peak: the index entry
/// (48 bytes, in a table up to twice the entries, and the old table beside the new one
/// while it grows), the key (32 bytes, in a list up to twice as long), the search stack,
/// fixed points and clocks, the moves of its level while that is solved. A graph sized at
/// 80 bytes a position was killed for memory at 24 GB, having reached about 220.
pub const BYTES_PER_POSITION: u64 = 256;

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
            memory,
            per,
            exits: None,
        }
    }

    /// This solver with the finished database `db` of the game (built by the cycle rule,
    /// [`crate::db::cyclic_db`]) as the exits of its graphs: a position `db` holds is valued
    /// from it and its moves are not followed, so a solve finds and sweeps only the
    /// levels above the database. Its principal variations go on from such a position by
    /// [`crate::db::cyclic_db::answer`] and are replayed; where one does not reach the value,
    /// the position is solved again without the database.
    pub fn with_exits(mut self, db: Arc<Egdb>) -> Retro {
        self.exits = Some(db);
        self
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
        let exits = self.exits.as_deref();
        let held = pos.is_over()
            || match &*backend {
                Backend::Hash(graph) => graph.holds(game, pos),
                Backend::Dense(dense) => dense.holds(game, pos),
            };
        if !held {
            // The graph grows by at most what this process's budget still holds (nine
            // tenths of it), shared with the retrograde solves running beside this one.
            // (Asked only where it grows: reading the memory available takes longer than
            // answering from the graph.)
            let budget = os::reserve_memory(self.memory, |free| (free / 10 * 9).min(self.memory));
            let limit = self.limit.min(before.0 + budget.bytes() / self.per);
            match &mut *backend {
                Backend::Hash(graph) => {
                    pipeline::solve(graph, game, pos, exits, limit, cancel, start, progress)
                }
                Backend::Dense(dense) => {
                    pipeline::solve(dense, game, pos, exits, limit, cancel, start, progress)
                }
            }?;
        }
        let (relative, pv) = match &*backend {
            _ if pos.is_over() => (0, Vec::new()),
            Backend::Hash(g) => {
                let node = |p: &Position| g.index[&key(game, p)];
                let v = g.values.value(node(pos) as usize);
                (v, principal_variation(game, &g.values, &node, pos, exits))
            }
            Backend::Dense(d) => {
                let d = d.as_ref().expect("built by the solve");
                let node = |p: &Position| d.node(p.packed_board()).expect("reachable");
                let v = d.values.value(node(pos) as usize);
                (v, principal_variation(game, &d.values, &node, pos, exits))
            }
        };
        let (positions, sweeps) = (backend.positions(), backend.clock());
        let dense = matches!(&*backend, Backend::Dense(_));
        let value = pos.store_margin() + relative as i32;
        let from_south = value * pos.side_to_move().sign();
        if exits.is_some() && crate::line::replay(game, pos, &pv, from_south).is_err() {
            // The line from the database did not reach the value: solved again without it.
            drop(backend);
            return Retro::new(game, self.memory).solve(game, pos, cancel, progress);
        }
        Ok(RetroSolution {
            value,
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
        if let Some(v) = held(self.exits.as_deref(), pos) {
            return Some(pos.store_margin() + v);
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
