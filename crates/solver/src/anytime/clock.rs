//! The limits of one analysis as its searches poll them: the start, the deadline, the node
//! limit and the caller's cancel flag, read the same way by every kernel (the sowing
//! games' search, the cyclic search, the Bao search).

use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::time::Instant;

use super::Limits;

/// When an analysis started and when it must stop. A kernel polls it as often as its nodes
/// allow (the clock costs a system call, so most poll it once in many nodes); it is `Copy`,
/// so a long move generation can carry its own.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Clock<'a> {
    /// When the analysis started: its reports' elapsed time counts from here.
    pub(crate) start: Instant,
    /// The time limit as an instant, if any.
    pub(crate) deadline: Option<Instant>,
    /// The node limit of the whole analysis ([`u64::MAX`]: none).
    pub(crate) node_limit: u64,
    /// Set by the caller to stop the analysis.
    pub(crate) cancel: &'a AtomicBool,
}

impl<'a> Clock<'a> {
    /// The clock of an analysis to `limits` that starts now.
    pub(crate) fn start(limits: &Limits, cancel: &'a AtomicBool) -> Clock<'a> {
        let start = Instant::now();
        Clock {
            start,
            deadline: limits.time.map(|t| start + t),
            node_limit: limits.nodes.unwrap_or(u64::MAX),
            cancel,
        }
    }

    /// True once the caller cancelled.
    #[inline]
    pub(crate) fn cancelled(&self) -> bool {
        self.cancel.load(Relaxed)
    }

    /// True once the time limit has passed (never without one).
    #[inline]
    pub(crate) fn out_of_time(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// True once `nodes` have reached the node limit (never without one).
    #[inline]
    pub(crate) fn out_of_nodes(&self, nodes: u64) -> bool {
        nodes >= self.node_limit
    }

    /// True once the analysis must stop, with `nodes` searched: cancelled, or a limit
    /// reached.
    #[inline]
    pub(crate) fn reached(&self, nodes: u64) -> bool {
        self.cancelled() || self.out_of_nodes(nodes) || self.out_of_time()
    }
}
