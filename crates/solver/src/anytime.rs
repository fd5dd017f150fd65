//! Anytime analysis: what the engine knows about a position at any moment of a search
//! that may stop before the exact proof does: the depth reached, a heuristic evaluation,
//! the proven interval that holds the exact value, the best turn and its line, and every
//! root turn's evaluation and proven bounds.
//!
//! Values are final store margins for the player to move at the root (as in
//! [`crate::Solution`]); the `*_from_south` methods turn them to South's view. The proven
//! interval is a proof: `lower <= exact value <= upper` always holds. The evaluation is
//! not: it is the heuristic value of the deepest completed depth-limited search, and it
//! equals the exact value only when the interval has closed ([`Analysis::is_exact`]).
//!
//! **One driver, three kernels.** What every anytime analysis does the same way is here:
//! the deepening loop over the `Kernel` trait (`deepen`), the limits as the searches poll
//! them (`clock`), the reports and their ticks (`tick`), aspiration windows at the root
//! (`window`), and the proven part with the one place a value turns from the mover's view
//! to South's ([`Proven`], `proven`). The kernels keep their node search, their table and
//! their proofs: the sowing games' search with its exact tests (`engine`), the cyclic
//! search with its retrograde step ([`crate::cyclic_search`]), the Bao search with its
//! forced wins and losses ([`crate::bao_search`]). docs/analysis.md draws the split.

mod clock;
mod deepen;
mod engine;
mod proven;
mod tick;
mod turns;
mod window;

use std::time::Duration;

use kalah_core::Side;

use crate::line::Turn;
pub(crate) use clock::Clock;
pub(crate) use deepen::{deepen, Kernel};
pub(crate) use engine::Analyser;
pub use proven::{interval_from_south, value_from_south, Outcome, Proven};
pub(crate) use tick::Ticker;
pub(crate) use turns::{whole_turns, WholeTurn};
pub(crate) use window::{aspirate, Windowed};

/// When an analysis stops: at the first limit reached, or (no limit) when the value is
/// proved exact.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Wall time from the start of the analysis.
    pub time: Option<Duration>,
    /// Nodes searched, by all threads.
    pub nodes: Option<u64>,
    /// The deepest depth-limited search, in sowings.
    pub depth: Option<u8>,
}

impl Limits {
    /// The deepest depth-limited search an analysis runs, in sowings: a larger
    /// [`Limits::depth`] counts as this. It keeps every depth-limited table entry far from
    /// [`crate::tt::EXACT_DEPTH`], so that none can pass as an exact bound.
    pub const MAX_DEPTH: u8 = 120;

    /// No limit: the analysis runs until the value is exact.
    pub fn none() -> Limits {
        Limits::default()
    }

    /// At most `time` of wall time.
    pub fn time(time: Duration) -> Limits {
        Limits {
            time: Some(time),
            ..Limits::default()
        }
    }

    /// At most `nodes` nodes.
    pub fn nodes(nodes: u64) -> Limits {
        Limits {
            nodes: Some(nodes),
            ..Limits::default()
        }
    }

    /// Depth-limited searches to at most `depth` sowings.
    pub fn depth(depth: u8) -> Limits {
        Limits {
            depth: Some(depth),
            ..Limits::default()
        }
    }

    /// True when no limit is set.
    pub fn is_unbounded(&self) -> bool {
        self.time.is_none() && self.nodes.is_none() && self.depth.is_none()
    }

    /// These limits where one is set; none where none is (the front ends' "no limit given").
    pub fn bounded(self) -> Option<Limits> {
        (!self.is_unbounded()).then_some(self)
    }

    /// The largest table worth making for an analysis to these limits, in MiB: under a
    /// time limit, [`Limits::TABLE_MB_PER_SECOND`] MiB a second of it (a power of two),
    /// since every fresh page of the table costs time the analysis does not have; none
    /// without a time limit.
    pub fn table_mb_cap(&self) -> Option<usize> {
        let seconds = self.time?.as_secs_f64().ceil().max(1.0) as usize;
        Some((Self::TABLE_MB_PER_SECOND * seconds).next_power_of_two())
    }

    /// The table of a time-limited analysis, in MiB per second of it.
    pub const TABLE_MB_PER_SECOND: usize = 16;

    /// The largest database file an analysis to a time limit of `time` (none: no time
    /// limit) reads without being asked ([`crate::Overrides::existing_only`]): a GiB a
    /// second of the limit, at least 256 MiB, and 2 GiB without one. A file is mapped and
    /// its checksum read on every core as it loads: about a GiB in a tenth of a second
    /// when the system caches it, several times longer from disk.
    pub fn file_bytes_cap(time: Option<Duration>) -> u64 {
        const GIB: f64 = (1u64 << 30) as f64;
        match time {
            Some(t) => (t.as_secs_f64() * GIB).max(GIB / 4.0) as u64,
            None => 2 << 30,
        }
    }
}

/// Why an analysis reports: what changed since the report before.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ReportKind {
    /// Before any search, or a depth of the deepening completed.
    #[default]
    Iteration,
    /// The proven interval narrowed (an exact test completed).
    Proof,
    /// A periodic report while a long search runs (about every [`Analysis::TICK`]): the nodes, the
    /// time and the bounds as they stand; the evaluation is that of the deepest completed
    /// depth.
    Tick,
    /// The answer at the end of the analysis.
    Final,
}

/// One root turn of an analysis, with what is known of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RootTurn {
    /// The turn (every sowing of the player's turn).
    pub turn: Turn,
    /// Its heuristic evaluation for the root's mover, at [`RootTurn::depth`], inside its
    /// proven interval (its exact value once that closes).
    pub eval: i32,
    /// The depth of the search behind the evaluation, in sowings.
    pub depth: u8,
    /// Proven lower bound of the value after this turn, for the root's mover.
    pub lower: i32,
    /// Proven upper bound of the value after this turn, for the root's mover.
    pub upper: i32,
}

/// What an analysis knows at one moment (reported as it runs, and returned at the end).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Analysis {
    /// The player to move at the root.
    pub side: Side,
    /// The deepest completed depth-limited search, in sowings (0 before the first).
    pub depth: u8,
    /// The heuristic evaluation for the mover (the best turn's), inside the proven
    /// interval: the value once exact.
    pub eval: i32,
    /// Proven lower bound of the value for the mover.
    pub lower: i32,
    /// Proven upper bound of the value for the mover.
    pub upper: i32,
    /// The best line found, best turn first: to the end of the game, replaying to the
    /// value, once exact; else the best turn and the moves the table holds after it.
    pub pv: Vec<Turn>,
    /// Every root turn, best first (by evaluation, then by proven lower bound); the first
    /// is the line's.
    pub turns: Vec<RootTurn>,
    /// Nodes searched by all threads.
    pub nodes: u64,
    /// Wall time since the analysis started.
    pub elapsed: Duration,
    /// Why this report was made ([`ReportKind::Final`]: the answer at the end).
    pub report: ReportKind,
}

impl RootTurn {
    /// True when this turn's proven interval has closed: its evaluation is its exact value.
    pub fn is_exact(&self) -> bool {
        self.lower == self.upper
    }

    /// The evaluation from South.
    pub fn eval_from_south(&self) -> i32 {
        value_from_south(self.turn.side, self.eval)
    }

    /// The proven interval from South, lower first.
    pub fn bounds_from_south(&self) -> (i32, i32) {
        interval_from_south(self.turn.side, self.lower, self.upper)
    }

    /// What is proven of this turn's value, for the root's mover: its interval.
    pub fn proof(&self) -> Proven {
        Proven::Interval {
            lower: self.lower,
            upper: self.upper,
        }
    }
}

impl Analysis {
    /// About how often an analysis reports while a search runs ([`ReportKind::Tick`]), so
    /// that a long depth or exact test does not leave the caller without news for seconds.
    pub const TICK: Duration = Duration::from_millis(500);

    /// True when the proven interval has closed: the evaluation is the exact value.
    pub fn is_exact(&self) -> bool {
        self.lower == self.upper
    }

    /// The evaluation from South.
    pub fn eval_from_south(&self) -> i32 {
        value_from_south(self.side, self.eval)
    }

    /// The proven interval from South, lower first.
    pub fn bounds_from_south(&self) -> (i32, i32) {
        interval_from_south(self.side, self.lower, self.upper)
    }

    /// What is proven of the value, for the mover: the interval (the case of the sowing
    /// games; Bao's is a win or loss, [`crate::bao_search::BaoAnalysis::proof`]).
    pub fn proof(&self) -> Proven {
        Proven::Interval {
            lower: self.lower,
            upper: self.upper,
        }
    }

    /// The best turn found (none when the game is over).
    pub fn best_turn(&self) -> Option<&Turn> {
        self.pv.first()
    }

    /// Nodes per second so far.
    pub fn nodes_per_second(&self) -> f64 {
        self.nodes as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_are_bounded_when_any_limit_is_set() {
        assert_eq!(Limits::none().bounded(), None);
        assert_eq!(Limits::nodes(5).bounded(), Some(Limits::nodes(5)));
        assert_eq!(Limits::depth(3).bounded(), Some(Limits::depth(3)));
        let time = Limits::time(Duration::from_millis(10));
        assert_eq!(time.bounded(), Some(time));
    }
}
