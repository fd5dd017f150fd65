//! The parallel search: every thread runs the same search over the shared table (Lazy
//! SMP); the first to finish gives the result and the others stop. What keeps them from
//! all walking the same subtree is simplified ABDADA: a thread puts off a sibling that
//! another thread is searching right now ([`Busy`]) and takes it up after the others, by
//! which time the table usually holds its value. One thread is the same code with
//! `threads = 1` (and no `Busy` lookups).

use std::sync::atomic::Ordering::Relaxed;
use std::sync::mpsc;
use std::time::Duration;

use kalah_core::{Game, Position};

use crate::config::Config;
use crate::lookup::Lookup;
use crate::search::Worker;
use crate::tt::Table;
use crate::Shared;

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

/// Runs one search on every thread; `None` if it was cancelled. `tick` gets the node
/// count a few times a second while it runs.
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
    let (tx, rx) = mpsc::channel();
    std::thread::scope(|s| {
        for id in 0..threads {
            let tx = tx.clone();
            s.spawn(move || {
                let w = ctx.worker(shared);
                let mut w = if threads > 1 { w.sharing(ctx.busy) } else { w };
                let v = w.search(pos, key, alpha, beta, depth, 0);
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

/// The set of subtrees some thread is searching now, for simplified ABDADA: a small
/// open-addressed array of keys (0 = free). A thread claims a child's key before searching
/// it and releases it after; a thread that finds the key taken searches other siblings
/// first. It is only a hint: a full slot or a lost race just means no deferral.
pub(crate) struct Busy {
    slots: Box<[std::sync::atomic::AtomicU64]>,
}

/// The answer of [`Busy::claim`].
pub(crate) enum Claim {
    /// Another thread is searching this subtree.
    Taken,
    /// Claimed: release it after the search.
    Mine,
    /// No room to record it: search it anyway.
    Full,
}

impl Busy {
    pub(crate) fn new() -> Busy {
        Busy {
            slots: (0..1 << 14)
                .map(|_| std::sync::atomic::AtomicU64::new(0))
                .collect(),
        }
    }

    #[inline]
    fn slot(&self, key: u64) -> &std::sync::atomic::AtomicU64 {
        &self.slots[(kalah_core::mix(key) as usize) & (self.slots.len() - 1)]
    }

    #[inline]
    pub(crate) fn claim(&self, key: u64) -> Claim {
        // Only children that use the table are claimed, so key 0 (no seeds left: the
        // game is over) never reaches here.
        match self.slot(key).compare_exchange(0, key, Relaxed, Relaxed) {
            Ok(_) => Claim::Mine,
            Err(k) if k == key => Claim::Taken,
            Err(_) => Claim::Full,
        }
    }

    #[inline]
    pub(crate) fn release(&self, key: u64) {
        let _ = self.slot(key).compare_exchange(key, 0, Relaxed, Relaxed);
    }
}
