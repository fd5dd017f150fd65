//! What the threads of one search share besides the table: the stop flags and counters
//! ([`Shared`]) and the set of subtrees some thread is searching now ([`Busy`]).

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::time::Instant;

/// Flags and counters shared by the threads of one search.
pub(crate) struct Shared<'c> {
    pub(crate) cancel: &'c AtomicBool,
    /// Set when one thread has finished the current search: the others stop.
    pub(crate) done: AtomicBool,
    pub(crate) nodes: AtomicU64,
    /// Positions valued by the endgame database.
    pub(crate) egdb_hits: AtomicU64,
    /// The exact search follows the moves the deepening stored (see
    /// [`super::DEEPENING_HINT_REACH`]); set for each pass, read when its workers start.
    pub(crate) deepening_hints: AtomicBool,
    /// The searches stop once `nodes` reaches this ([`u64::MAX`]: no node budget).
    pub(crate) node_stop: AtomicU64,
    /// The searches stop at this instant, if any (the time budget of an analysis).
    pub(crate) deadline: Option<Instant>,
    /// Depth-limited searches reduce late quiet children (see `reduce.rs`); only an
    /// analysis with limits sets it.
    pub(crate) reductions: bool,
    /// Depth-limited searches follow extra turns and captures past the horizon
    /// ([`super::Worker::quiesce`]); only an analysis with limits sets it.
    pub(crate) quiescence: bool,
}

impl<'c> Shared<'c> {
    pub(crate) fn new(cancel: &'c AtomicBool) -> Shared<'c> {
        Shared {
            cancel,
            done: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
            egdb_hits: AtomicU64::new(0),
            deepening_hints: AtomicBool::new(true),
            node_stop: AtomicU64::new(u64::MAX),
            deadline: None,
            reductions: false,
            quiescence: false,
        }
    }

    /// True once a search must stop: another thread finished it, the caller cancelled,
    /// or the node or time budget ([`Shared::over_budget`]) is spent.
    #[inline]
    pub(crate) fn should_stop(&self) -> bool {
        self.done.load(Relaxed) || self.cancel.load(Relaxed) || self.over_budget()
    }

    /// True once the node budget or the deadline is reached (never, without them).
    #[inline]
    pub(crate) fn over_budget(&self) -> bool {
        self.nodes.load(Relaxed) >= self.node_stop.load(Relaxed)
            || self.deadline.is_some_and(|d| Instant::now() >= d)
    }
}

/// The set of subtrees some thread is searching now, for simplified ABDADA: a small
/// open-addressed array of keys (0 = free). A thread claims a child's key before searching
/// it and releases it after; a thread that finds the key taken searches other siblings
/// first. It is only a hint: a full slot or a lost race just means no deferral.
pub(crate) struct Busy {
    slots: Box<[AtomicU64]>,
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
            slots: (0..1 << 14).map(|_| AtomicU64::new(0)).collect(),
        }
    }

    #[inline]
    fn slot(&self, key: u64) -> &AtomicU64 {
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
