//! Anytime analysis: what the engine knows about a position at any moment of a search
//! that may stop before the exact proof does: the depth reached, a heuristic evaluation,
//! the proven interval that holds the exact value, the best turn and its line, and every
//! root turn's evaluation and proven bounds.
//!
//! One result type, [`Analysis`], for every family: the sowing games' (`Analysis<Turn>`,
//! the default) and Bao's (`Analysis<BaoMove>`) share their fields (the best turn and
//! line, the evaluation, the depth, the nodes, every root turn) and differ only in what
//! is proven ([`Move::Proof`]). The sowing games' values are final store margins for the
//! player to move at the root (as in [`crate::Solution`]); the `*_from_south` methods turn
//! them to South's view. Their proven [`Interval`] is a proof: `lower <= exact value <=
//! upper` always holds. The evaluation is not: it is the heuristic value of the deepest
//! completed depth-limited search, and it equals the exact value only when the interval
//! has closed ([`Analysis::is_exact`]). Bao's proven part is a forced win or loss
//! ([`Outcome`]), or nothing.
//!
//! **One driver, three kernels.** What every anytime analysis does the same way is here:
//! the deepening loop over the `Kernel` trait (`deepen`), the limits as the searches poll
//! them (`clock`), the time manager of a move on a clock (`manage`), the reports and their ticks (`tick`), aspiration windows at the root
//! (`window`), and the proven part with the one place a value turns from the mover's view
//! to South's ([`Proven`], `proven`). The kernels keep their node search, their table and
//! their proofs: the sowing games' search with its exact tests (`analyser`), the cyclic
//! search with its retrograde step ([`crate::cyclic_search`]), the Bao search with its
//! forced wins and losses ([`crate::bao_search`]). docs/analysis.md draws the split.

mod analyser;
mod clock;
mod deepen;
mod manage;
mod proven;
mod tick;
mod turns;
mod window;

use std::fmt;
use std::time::Duration;

use kalah_core::bao::BaoMove;
use kalah_core::Side;

use crate::line::Turn;
use crate::score::Bounds;
pub(crate) use analyser::Analyser;
pub(crate) use clock::Clock;
pub(crate) use deepen::{deepen, Kernel};
pub use manage::{MoveTimer, TimePlan};
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

/// A root move as the analysis of its family lists it, and what its search proves of a
/// value there: a sowing game's whole [`Turn`] with an [`Interval`] of final margins, or a
/// Bao move with a forced win or loss ([`Outcome`], `None` where none is proven). One
/// [`Analysis`] type serves both; the kernels differ in what they prove, not in what an
/// analysis reports.
pub trait Move: Clone + fmt::Debug + PartialEq + Eq {
    /// What is proven of a value, for the player it belongs to.
    type Proof: Copy + fmt::Debug + PartialEq + Eq + Into<Proven>;
}

impl Move for Turn {
    type Proof = Interval;
}

impl Move for BaoMove {
    type Proof = Option<Outcome>;
}

/// Whether a heuristic evaluation is the value of its depth-limited search or only an
/// upper bound of it (a root turn shown no better than the best with a null window).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScoreBound {
    /// The evaluation is the value of the depth-limited search.
    Exact,
    /// The value is at most the evaluation (the turn was refuted without a full search).
    Upper,
}

/// One root turn of an analysis, with what is known of it, for the root's mover.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RootTurn<M: Move = Turn> {
    /// The turn (every sowing of the player's turn; a Bao move).
    pub turn: M,
    /// Its heuristic evaluation for the root's mover, at [`RootTurn::depth`] (the sowing
    /// games: inside its proven interval, its exact value once that closes; Bao: in
    /// points, 100 a seed, a decided score where proven).
    pub eval: i32,
    /// Whether the evaluation is its search's value or an upper bound of it.
    pub bound: ScoreBound,
    /// The depth of the search behind the evaluation (sowings; Bao: moves, this one
    /// included).
    pub depth: u8,
    /// What is proven of the value after this turn, for the root's mover.
    pub proven: M::Proof,
}

/// What an analysis knows at one moment (reported as it runs, and returned at the end),
/// for the sowing games ([`Turn`]) or Bao ([`BaoMove`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Analysis<M: Move = Turn> {
    /// The player to move at the root.
    pub side: Side,
    /// The deepest completed depth-limited search, in sowings (Bao: moves; 0 before the
    /// first).
    pub depth: u8,
    /// The heuristic evaluation for the mover (the best turn's): the sowing games' inside
    /// the proven interval, the value once exact; Bao's in points (100 a seed).
    pub eval: i32,
    /// What is proven of the value, for the mover: the sowing games' interval, Bao's win
    /// or loss (`None`: `eval` is a guess, and a draw is never claimed).
    pub proven: M::Proof,
    /// The best line found, best turn first: to the end of the game, replaying to the
    /// value, once exact; else the best turn and the moves the table holds after it.
    pub pv: Vec<M>,
    /// Every root turn, best first (by evaluation, then by proven lower bound); the first
    /// is the line's.
    pub turns: Vec<RootTurn<M>>,
    /// Nodes searched by all threads.
    pub nodes: u64,
    /// Wall time since the analysis started.
    pub elapsed: Duration,
    /// Why this report was made ([`ReportKind::Final`]: the answer at the end).
    pub report: ReportKind,
}

/// The proven part of a sowing game's analysis: the exact value (a final store margin)
/// lies in `lower..=upper`, and is that value once they meet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Interval {
    /// Proven lower bound.
    pub lower: i32,
    /// Proven upper bound.
    pub upper: i32,
}

impl Interval {
    /// True when the interval has closed: it holds only the exact value.
    pub fn is_exact(&self) -> bool {
        self.lower == self.upper
    }
}

/// A proven range of a kernel's search, as its analysis reports it.
impl From<Bounds> for Interval {
    fn from(b: Bounds) -> Interval {
        Interval {
            lower: b.lo,
            upper: b.hi,
        }
    }
}

impl From<Interval> for Proven {
    fn from(i: Interval) -> Proven {
        Proven::Interval {
            lower: i.lower,
            upper: i.upper,
        }
    }
}

impl From<Option<Outcome>> for Proven {
    fn from(o: Option<Outcome>) -> Proven {
        Proven::Outcome(o)
    }
}

impl<M: Move> RootTurn<M> {
    /// True when what is proven of this turn settles its value: its interval has closed
    /// (its evaluation is its exact value), or it wins or loses.
    pub fn is_exact(&self) -> bool {
        self.proof().is_exact()
    }

    /// What is proven of this turn's value, for the root's mover.
    pub fn proof(&self) -> Proven {
        self.proven.into()
    }
}

impl RootTurn {
    /// The evaluation from South.
    pub fn eval_from_south(&self) -> i32 {
        value_from_south(self.turn.side, self.eval)
    }

    /// The proven interval from South, lower first.
    pub fn bounds_from_south(&self) -> (i32, i32) {
        interval_from_south(self.turn.side, self.proven.lower, self.proven.upper)
    }
}

impl Analysis {
    /// About how often an analysis reports while a search runs ([`ReportKind::Tick`]), so
    /// that a long depth or exact test does not leave the caller without news for seconds.
    pub const TICK: Duration = Duration::from_millis(500);

    /// The proven interval from South, lower first.
    pub fn bounds_from_south(&self) -> (i32, i32) {
        interval_from_south(self.side, self.proven.lower, self.proven.upper)
    }
}

impl<M: Move> Analysis<M> {
    /// True when what is proven settles the value: the interval has closed (the
    /// evaluation is the exact value), or a win or loss is proven.
    pub fn is_exact(&self) -> bool {
        self.proof().is_exact()
    }

    /// The evaluation from South.
    pub fn eval_from_south(&self) -> i32 {
        value_from_south(self.side, self.eval)
    }

    /// What is proven of the value, for the mover, in the form common to the families.
    pub fn proof(&self) -> Proven {
        self.proven.into()
    }

    /// The best turn found (none when the game is over, or the mover has no move).
    pub fn best_turn(&self) -> Option<&M> {
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
