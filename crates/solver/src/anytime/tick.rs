//! The progress ticks of an analysis: a [`ReportKind::Tick`] about every
//! [`Analysis::TICK`] while a long depth, exact test (or the cyclic analysis's wait for its
//! retrograde step) runs. A kernel asks for one now and then (the cyclic search every 1024
//! nodes, the sowing games' search from its progress callback), so the clock is read at a
//! small fraction of the nodes.

use std::time::Instant;

use super::{Analysis, ReportKind};

/// The caller's progress callback, when it last heard, and what it last heard.
pub(crate) struct Ticker<'a> {
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
    pub(crate) fn new(
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
    pub(crate) fn report(&mut self, a: Analysis) {
        (self.on_progress)(&a);
        self.last = Instant::now();
        self.known = a;
    }

    /// A tick where the caller has heard nothing for [`Analysis::TICK`]: the last report
    /// with `nodes` and the time as they stand (the evaluation, the line and the interval
    /// are those of the last report).
    pub(crate) fn tick(&mut self, nodes: u64) {
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
