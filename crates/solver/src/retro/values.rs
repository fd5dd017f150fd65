//! The two fixed points of every solved position and the sweep that made each final
//! ([`Values`]), with the order in which values became final ([`stamp`]).

/// The value bound standing for ±∞ (far beyond any margin of 255 seeds).
pub(super) const INF: i16 = 10_000;

/// The fixed points of the solved positions and when each became final, by node.
#[derive(Default)]
pub(super) struct Values {
    pub(super) lo: Vec<i16>,
    pub(super) hi: Vec<i16>,
    /// The clock of the sweep that set `lo` (`hi`) to its final value: with the node
    /// itself, a stamp that strictly decreases along a principal variation inside a
    /// level ([`stamp`]).
    pub(super) lo_at: Vec<u32>,
    pub(super) hi_at: Vec<u32>,
    /// The clock: sweeps done by every solve so far.
    pub(super) clock: u32,
}

impl Values {
    /// The value of node `i` for the player to move, relative to the store margin.
    pub(super) fn value(&self, i: usize) -> i16 {
        self.lo[i].max(self.hi[i].min(0))
    }

    /// Only the first `n` nodes.
    pub(super) fn truncate(&mut self, n: usize) {
        self.lo.truncate(n);
        self.hi.truncate(n);
        self.lo_at.truncate(n);
        self.hi_at.truncate(n);
    }

    /// Room for `n` nodes, the new ones unsolved.
    pub(super) fn resize(&mut self, n: usize) {
        self.lo.resize(n, -INF);
        self.hi.resize(n, INF);
        self.lo_at.resize(n, 0);
        self.hi_at.resize(n, 0);
    }
}

/// The order in which values became final: the sweep, then the node (a sweep updates the
/// nodes of its chunk in increasing order, each from values set before it).
pub(super) fn stamp(at: u32, node: usize) -> u64 {
    (at as u64) << 32 | node as u64
}
