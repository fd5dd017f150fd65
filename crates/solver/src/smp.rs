//! The parallel search: every thread runs the same search over the shared table (Lazy
//! SMP); the first to finish gives the result and the others stop. What keeps them from
//! all walking the same subtree is simplified ABDADA: a thread puts off a sibling that
//! another thread is searching right now ([`Busy`]) and takes it up after the others, by
//! which time the table usually holds its value. The caller's thread is the first of the
//! threads (one thread starts none: a solve makes many short searches) and calls the
//! progress callback itself; the others are the solver's own, started once and parked
//! between searches ([`helper_threads`]), since starting threads for every probe of a
//! solve cost more than the probes of a small one.

use std::sync::atomic::Ordering::Relaxed;
use std::sync::mpsc;
use std::time::Duration;

use kalah_core::{Game, Position};

use crate::config::Config;
use crate::db::lookup::Lookup;
use crate::search::{Busy, Shared, Worker};
use crate::tt::Table;

/// What the threads of one search read: everything is resolved before they start (the
/// database chosen for the position searched, in particular).
pub(crate) struct Context<'a> {
    pub(crate) game: &'a Game,
    pub(crate) table: &'a Table,
    /// The endgame database serving the position searched.
    pub(crate) db: Option<Lookup<'a>>,
    pub(crate) config: &'a Config,
    /// The subtrees some thread is searching (used with several threads).
    pub(crate) busy: &'a Busy,
    /// The solver's helper threads, parked between searches (several threads; `None`
    /// where they could not be started: each search then starts its own).
    pub(crate) helpers: Option<&'a rayon::ThreadPool>,
}

impl<'a> Context<'a> {
    /// A worker that searches alone, counting into `shared`.
    pub(crate) fn worker(&self, shared: &'a Shared<'a>) -> Worker<'a> {
        Worker::new(self.game, self.table, shared, self.db, self.config)
    }
}

/// The helper threads of a solver searching on `threads` threads (the caller's thread is
/// the first of them): `None` for one thread, or where the system would not start them
/// (each search then starts its own, as it would have).
pub(crate) fn helper_threads(threads: usize) -> Option<rayon::ThreadPool> {
    if threads <= 1 {
        return None;
    }
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads - 1)
        .thread_name(|i| format!("kalah-search-{}", i + 1))
        .build()
        .ok()
}

/// How often a search calls its progress callback.
const TICK: Duration = Duration::from_millis(100);

/// Runs one search on every thread, the caller's the first of them; `None` if it was
/// cancelled or ran out of its budget ([`Shared::over_budget`]): an aborted search stores
/// nothing. `tick` gets the node count a few times a second while it runs.
pub(crate) fn search(
    ctx: &Context,
    pos: &Position,
    alpha: i32,
    beta: i32,
    depth: u8,
    shared: &Shared,
    tick: &mut dyn FnMut(u64),
) -> Option<i32> {
    shared.done.store(false, Relaxed);
    let threads = ctx.config.threads.max(1);
    let key = ctx.game.key(pos);
    if threads == 1 {
        let mut w = ctx.worker(shared).ticking(tick, TICK);
        let v = w.search(pos, key, alpha, beta, depth, 0);
        w.flush();
        shared.done.store(true, Relaxed);
        return (!w.aborted).then_some(v);
    }
    let (tx, rx) = mpsc::channel();
    // One helper's search: its value is sent if it finished first.
    let helper = |tx: mpsc::Sender<i32>| {
        let mut w = ctx.worker(shared).sharing(ctx.busy);
        let v = w.search(pos, key, alpha, beta, depth, 0);
        w.flush();
        if !w.aborted && !shared.done.swap(true, Relaxed) {
            let _ = tx.send(v);
        }
    };
    // The caller's thread is the first searcher, and the one that ticks.
    let mut first = |tx: mpsc::Sender<i32>| {
        drop(tx);
        let mut w = ctx.worker(shared).sharing(ctx.busy).ticking(tick, TICK);
        let v = w.search(pos, key, alpha, beta, depth, 0);
        w.flush();
        if !w.aborted && !shared.done.swap(true, Relaxed) {
            return Some(v);
        }
        // Another thread finished first and sends its value, or the search was stopped
        // and every thread ends without one.
        rx.recv().ok()
    };
    match ctx.helpers {
        // The solver's own parked threads: a search starts none (a solve makes many).
        Some(pool) => pool.in_place_scope(|s| {
            for _ in 1..threads {
                let tx = tx.clone();
                s.spawn(move |_| helper(tx));
            }
            first(tx)
        }),
        None => std::thread::scope(|s| {
            for _ in 1..threads {
                let tx = tx.clone();
                s.spawn(move || helper(tx));
            }
            first(tx)
        }),
    }
}
