//! The progress ticks of the cyclic analysis: a [`ReportKind::Tick`] about every
//! [`Analysis::TICK`] while a long depth (or the wait for the retrograde step) runs, as the
//! acyclic analysis sends them. The search asks for one every 1024 nodes (a counter), so
//! the clock is read at a thousandth of the nodes at most.

use std::time::Instant;

use crate::anytime::{Analysis, ReportKind};

/// The caller's progress callback, when it last heard, and what it last heard.
pub(super) struct Ticker<'a> {
    on_progress: &'a mut dyn FnMut(&Analysis),
    start: Instant,
    last: Instant,
    /// The last report (the deepest completed depth's line, evaluation and interval):
    /// a tick repeats it with the nodes and the time as they stand.
    known: Analysis,
}

impl<'a> Ticker<'a> {
    /// A ticker for an analysis that started at `start` and knows `known` so far (not
    /// reported: the caller reports it where it should).
    pub(super) fn new(
        on_progress: &'a mut dyn FnMut(&Analysis),
        start: Instant,
        known: Analysis,
    ) -> Ticker<'a> {
        Ticker {
            on_progress,
            start,
            last: Instant::now(),
            known,
        }
    }

    /// Reports `a` (what is known now) and remembers it for the ticks after it.
    pub(super) fn report(&mut self, a: Analysis) {
        (self.on_progress)(&a);
        self.last = Instant::now();
        self.known = a;
    }

    /// A tick with `nodes` where the caller has heard nothing for [`Analysis::TICK`].
    pub(super) fn tick(&mut self, nodes: u64) {
        let now = Instant::now();
        if now.duration_since(self.last) < Analysis::TICK {
            return;
        }
        self.last = now;
        self.known.nodes = self.known.nodes.max(nodes);
        self.known.elapsed = now.duration_since(self.start);
        self.known.report = ReportKind::Tick;
        (self.on_progress)(&self.known);
    }
}
