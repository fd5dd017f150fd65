//! The time manager of a move played on a clock: the caller's [`TimePlan`] (a soft and a
//! hard limit, made from the clock by the front end), started with the move's timer
//! ([`MoveTimer`]: at once, or at a ponder hit), and the deepening loop's decision after
//! each completed depth ([`Manager`]) whether to start another.
//!
//! The hard limit is the analysis's time limit ([`super::Limits::time`]) or, for a
//! pondering analysis hit later, the caller's cancel at that instant: the search never runs
//! past it. The soft limit only decides whether a new depth starts: a depth started after
//! half of it would most likely end after it, so none is. The manager stretches the soft
//! limit where the best turn changed at the last depths or its value dropped, and shrinks
//! it where the best turn has held for several depths; it stops at once where the turn is
//! forced (one legal turn) or proven best (its proven lower bound reaches every other
//! turn's upper bound). All of this is heuristic time allocation: it changes which depth
//! answers, never what is proven.

use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The time of one move on a clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimePlan {
    /// No depth starts once about half of this (as the manager scales it) has passed.
    pub soft: Duration,
    /// The search never runs past this.
    pub hard: Duration,
}

/// When a move's time started and its plan: not started while the engine ponders (the
/// opponent has not moved yet), started at once for a move on the engine's own time.
#[derive(Debug, Default)]
pub struct MoveTimer {
    started: Mutex<Option<(Instant, TimePlan)>>,
}

impl MoveTimer {
    /// A timer not started yet (a ponder search: no soft limit until [`MoveTimer::start`]).
    pub fn new() -> MoveTimer {
        MoveTimer::default()
    }

    /// A timer started now with `plan`.
    pub fn started(plan: TimePlan) -> MoveTimer {
        let t = MoveTimer::new();
        t.start(plan);
        t
    }

    /// Starts the move's time now with `plan` (a ponder hit).
    pub fn start(&self, plan: TimePlan) {
        *self.started.lock().unwrap_or_else(|e| e.into_inner()) = Some((Instant::now(), plan));
    }

    /// When the move's time started and its plan, if it has.
    pub fn get(&self) -> Option<(Instant, TimePlan)> {
        *self.started.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// What a kernel tells the manager after a completed depth.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Progress {
    /// The best turn, as a key (equal keys: the same turn).
    pub(crate) best: u64,
    /// Its evaluation for the root's mover (the sowing games: seeds).
    pub(crate) eval: i32,
    /// The root's legal turns.
    pub(crate) turns: usize,
    /// The best turn is proven at least as good as every other.
    pub(crate) decided: bool,
}

/// A drop of the best evaluation from one depth to the next, in seeds, that stretches
/// the soft limit ([`Manager::DROP_STRETCH`]).
const DROP_SEEDS: i32 = 2;

/// The deepening's time manager: what the last depths said (see the module doc).
#[derive(Debug, Default)]
pub(crate) struct Manager {
    last: Option<Progress>,
    /// Decays by half each depth, rises by one at each change of the best turn.
    changes: f64,
    /// Depths in a row with the same best turn.
    stable: u32,
}

impl Manager {
    /// The soft limit's stretch after a value drop of [`DROP_SEEDS`] or more.
    const DROP_STRETCH: f64 = 1.5;
    /// The soft limit's scale once the best turn has held [`Manager::STABLE_DEPTHS`].
    const STABLE_SCALE: f64 = 0.6;
    /// Depths in a row with the same best turn that count as stable.
    const STABLE_DEPTHS: u32 = 4;

    /// After a completed depth that says `p`, with the move's time started at `start`
    /// under `plan`: true where no further depth should start.
    pub(crate) fn enough(&mut self, p: Progress, start: Instant, plan: &TimePlan) -> bool {
        self.enough_after(p, start.elapsed(), plan)
    }

    /// [`Manager::enough`] with `elapsed` of the move's time spent.
    pub(crate) fn enough_after(&mut self, p: Progress, elapsed: Duration, plan: &TimePlan) -> bool {
        let mut scale = 1.0;
        self.changes *= 0.5;
        let mut dropped = false;
        if let Some(last) = self.last {
            if last.best != p.best {
                self.changes += 1.0;
                self.stable = 0;
            } else {
                self.stable += 1;
            }
            dropped = last.eval - p.eval >= DROP_SEEDS;
        }
        self.last = Some(p);
        if p.turns <= 1 || p.decided {
            return true;
        }
        scale *= 1.0 + self.changes;
        if dropped {
            scale *= Self::DROP_STRETCH;
        }
        if self.stable >= Self::STABLE_DEPTHS && !dropped && self.changes < 0.1 {
            scale *= Self::STABLE_SCALE;
        }
        let target = plan.soft.mul_f64(scale.clamp(0.4, 3.0)).min(plan.hard);
        elapsed.as_secs_f64() * 2.0 >= target.as_secs_f64()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan(soft_ms: u64) -> TimePlan {
        TimePlan {
            soft: Duration::from_millis(soft_ms),
            hard: Duration::from_millis(soft_ms * 4),
        }
    }

    fn p(best: u64, eval: i32) -> Progress {
        Progress {
            best,
            eval,
            turns: 6,
            decided: false,
        }
    }

    #[test]
    fn a_forced_or_decided_turn_stops_at_once() {
        let mut m = Manager::default();
        let forced = Progress {
            turns: 1,
            ..p(1, 0)
        };
        assert!(m.enough_after(forced, Duration::ZERO, &plan(1000)));
        let decided = Progress {
            decided: true,
            ..p(1, 0)
        };
        assert!(Manager::default().enough_after(decided, Duration::ZERO, &plan(1000)));
    }

    #[test]
    fn no_depth_starts_after_half_the_soft_limit() {
        let mut m = Manager::default();
        assert!(!m.enough_after(p(1, 0), Duration::from_millis(100), &plan(1000)));
        let mut m = Manager::default();
        assert!(m.enough_after(p(1, 0), Duration::from_millis(500), &plan(1000)));
    }

    #[test]
    fn an_unstable_best_turn_or_a_drop_stretches_and_a_stable_one_shrinks() {
        let at = Duration::from_millis(600);
        // A change of the best turn at the last depth: more time.
        let mut m = Manager::default();
        m.enough_after(p(1, 0), Duration::ZERO, &plan(1000));
        assert!(!m.enough_after(p(2, 0), at, &plan(1000)));
        // A drop of the value: more time.
        let mut m = Manager::default();
        m.enough_after(p(1, 5), Duration::ZERO, &plan(1000));
        assert!(!m.enough_after(p(1, 1), at, &plan(1000)));
        // The same best turn depth after depth: less.
        let mut m = Manager::default();
        for _ in 0..6 {
            m.enough_after(p(1, 0), Duration::ZERO, &plan(1000));
        }
        assert!(m.enough_after(p(1, 0), Duration::from_millis(350), &plan(1000)));
    }

    #[test]
    fn a_timer_starts_when_told() {
        let t = MoveTimer::new();
        assert!(t.get().is_none());
        t.start(plan(10));
        assert_eq!(t.get().map(|(_, p)| p), Some(plan(10)));
        assert!(MoveTimer::started(plan(5)).get().is_some());
    }
}
