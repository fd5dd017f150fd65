//! Lazy SMP: every thread runs the same search over the shared table; the first to
//! finish gives the result and the others stop. Helpers start from other root moves
//! (see the rotation in the search), so they fill the table with bounds the main line
//! needs soon. One thread is the same code with `threads = 1`.

use std::sync::atomic::Ordering::Relaxed;
use std::sync::mpsc;
use std::time::Duration;

use kalah_core::Position;

use crate::search::Worker;
use crate::{Shared, Solver};

/// Solver settings.
#[derive(Clone, Copy, Debug)]
pub struct Config {
    /// Search threads.
    pub threads: usize,
    /// Transposition table size in MiB.
    pub hash_mb: usize,
    /// Depth of the iterative-deepening phase, in sowings.
    pub deepening: u8,
    /// Build an endgame database of positions with at most this many seeds in the
    /// houses when the solver is created (in memory; `None`: no database).
    pub egdb_seeds: Option<usize>,
    /// Positions with fewer seeds than this in the houses are searched without the
    /// transposition table (they are cheaper to search than to look up).
    pub table_min_seeds: usize,
    /// Enhanced transposition cut-offs (probing every child's entry before searching
    /// any) at positions with at least this many seeds in the houses.
    pub etc_min_seeds: usize,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            hash_mb: 256,
            deepening: 12,
            egdb_seeds: None,
            table_min_seeds: 0,
            etc_min_seeds: 10,
        }
    }
}

impl Config {
    /// The in-memory endgame database worth building for `game` by default: small enough
    /// to build in a fraction of the solve it speeds up. `None` under the early stop (the
    /// database leaves the stores out) or on tiny boards.
    pub fn default_egdb_seeds(game: &kalah_core::Game) -> Option<usize> {
        if game.rules().early_stop || game.capacity() < 24 {
            return None;
        }
        // About a million entries: 12 seeds on 6 houses.
        let mut k = 0;
        while k < game.capacity() / 2
            && crate::egdb::Egdb::entries(game.houses(), k + 1) <= 3_000_000
        {
            k += 1;
        }
        (k > 0).then_some(k)
    }
}

/// Runs one search on every thread; `None` if it was cancelled. `tick` gets the node
/// count a few times a second while it runs.
pub(crate) fn search(
    solver: &Solver,
    pos: &Position,
    alpha: i32,
    beta: i32,
    depth: u8,
    shared: &Shared,
    tick: &mut dyn FnMut(u64),
) -> Option<i32> {
    shared.done.store(false, Relaxed);
    let (tx, rx) = mpsc::channel();
    std::thread::scope(|s| {
        for id in 0..solver.config.threads.max(1) {
            let tx = tx.clone();
            s.spawn(move || {
                let mut w = Worker::new(
                    &solver.game,
                    &solver.table,
                    shared,
                    solver.egdb.as_deref(),
                    &solver.config,
                    id,
                );
                let v = w.search(pos, solver.game.key(pos), alpha, beta, depth, 0);
                w.flush();
                if !w.aborted && !shared.done.swap(true, Relaxed) {
                    let _ = tx.send(Some(v));
                } else if w.aborted && id == 0 {
                    let _ = tx.send(None);
                }
            });
        }
        drop(tx);
        loop {
            match rx.recv_timeout(Duration::from_millis(100)) {
                Ok(Some(v)) => {
                    shared.done.store(true, Relaxed);
                    return Some(v);
                }
                Ok(None) => {
                    if shared.cancel.load(Relaxed) {
                        return None;
                    }
                }
                Err(mpsc::RecvTimeoutError::Timeout) => tick(shared.nodes.load(Relaxed)),
                Err(mpsc::RecvTimeoutError::Disconnected) => return None,
            }
        }
    })
}
