//! The parallel search: every thread runs the same search over the shared table (Lazy
//! SMP); the first to finish gives the result and the others stop. What keeps them from
//! all walking the same subtree is simplified ABDADA: a thread puts off a sibling that
//! another thread is searching right now ([`Busy`]) and takes it up after the others, by
//! which time the table usually holds its value. The caller's thread is the first of the
//! threads (one thread starts none: a solve makes many short searches) and calls the
//! progress callback itself.

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
}

impl<'a> Context<'a> {
    /// A worker that searches alone, counting into `shared`.
    pub(crate) fn worker(&self, shared: &'a Shared<'a>) -> Worker<'a> {
        Worker::new(self.game, self.table, shared, self.db, self.config)
    }
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
    std::thread::scope(|s| {
        for _ in 1..threads {
            let tx = tx.clone();
            s.spawn(move || {
                let mut w = ctx.worker(shared).sharing(ctx.busy);
                let v = w.search(pos, key, alpha, beta, depth, 0);
                w.flush();
                if !w.aborted && !shared.done.swap(true, Relaxed) {
                    let _ = tx.send(v);
                }
            });
        }
        drop(tx);
        // The caller's thread is the first searcher, and the one that ticks.
        let mut w = ctx.worker(shared).sharing(ctx.busy).ticking(tick, TICK);
        let v = w.search(pos, key, alpha, beta, depth, 0);
        w.flush();
        if !w.aborted && !shared.done.swap(true, Relaxed) {
            return Some(v);
        }
        // Another thread finished first and sends its value, or the search was stopped
        // and every thread ends without one.
        rx.recv().ok()
    })
}
