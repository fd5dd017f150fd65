//! The iterative deepening every anytime analysis runs, written once over a small trait
//! that each node kernel implements: the sowing games' search ([`super::Analyser`]), the
//! cyclic search of Oware and Ethiopian ([`crate::cyclic_search`]) and the Bao search
//! ([`crate::bao_search`]).
//!
//! The loop is the same for all three: depth 1, 2, ... up to the last the limits allow
//! ([`Limits::last_depth`]), each depth started only while no limit is reached and the
//! answer is not settled, each dropped whole where a limit stops it (the answer is then
//! that of the deepest completed depth). What a kernel does inside a depth (its root
//! move ordering, its windows, its node search) and between depths (exact tests, a
//! replayed line) is its own.

use super::manage::{Manager, MoveTimer, Progress};
use super::Limits;

/// A node kernel as the deepening drives it.
pub(crate) trait Kernel {
    /// True where the analysis must stop before `depth` starts: the caller cancelled or a
    /// limit is reached (a kernel may always let its first depth complete).
    fn stopped(&mut self, depth: u8) -> bool;

    /// True where a deeper search cannot change the answer: the value is exact or the
    /// outcome proven, or the last depth searched the whole tree.
    fn settled(&self) -> bool;

    /// Searches every root turn to `depth`: true once the depth is complete, false (and
    /// nothing changed) where a limit stopped it.
    fn iterate(&mut self, depth: u8) -> bool;

    /// After depth `depth` completed: reports it, and does what the kernel does between
    /// depths (the sowing games' exact tests, the cyclic search's replayed line).
    fn completed(&mut self, depth: u8);

    /// The move's timer where the analysis plays on a clock (none: no time manager).
    fn timer(&self) -> Option<&MoveTimer> {
        None
    }

    /// What the time manager reads after a completed depth (none: nothing to go on).
    fn progress(&self) -> Option<Progress> {
        None
    }
}

/// Deepens `kernel` from depth 1 to `last` (see the module doc); on a clock whose time
/// has started ([`Kernel::timer`]), the time manager ([`Manager`]) may end it after any
/// completed depth.
pub(crate) fn deepen(kernel: &mut impl Kernel, last: u8) {
    let mut manager = Manager::default();
    for depth in 1..=last {
        if kernel.settled() || kernel.stopped(depth) || !kernel.iterate(depth) {
            break;
        }
        kernel.completed(depth);
        let started = kernel.timer().and_then(MoveTimer::get);
        if let (Some((start, plan)), Some(p)) = (started, kernel.progress()) {
            if manager.enough(p, start, &plan) {
                break;
            }
        }
    }
}

impl Limits {
    /// The last depth of the deepening: [`Limits::depth`], at most [`Limits::MAX_DEPTH`].
    pub fn last_depth(&self) -> u8 {
        self.depth
            .unwrap_or(Limits::MAX_DEPTH)
            .min(Limits::MAX_DEPTH)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A kernel that records the calls, stopped before depth `stop_at`, settled after
    /// depth `settle_at`, and whose depth `fail_at` is stopped inside.
    struct Fake {
        calls: Vec<(&'static str, u8)>,
        stop_at: u8,
        settle_at: u8,
        fail_at: u8,
        done: u8,
    }

    impl Kernel for Fake {
        fn stopped(&mut self, depth: u8) -> bool {
            depth >= self.stop_at
        }
        fn settled(&self) -> bool {
            self.done >= self.settle_at
        }
        fn iterate(&mut self, depth: u8) -> bool {
            self.calls.push(("iterate", depth));
            depth != self.fail_at
        }
        fn completed(&mut self, depth: u8) {
            self.calls.push(("completed", depth));
            self.done = depth;
        }
    }

    fn run(stop_at: u8, settle_at: u8, fail_at: u8, last: u8) -> Vec<(&'static str, u8)> {
        let mut k = Fake {
            calls: Vec::new(),
            stop_at,
            settle_at,
            fail_at,
            done: 0,
        };
        deepen(&mut k, last);
        k.calls
    }

    #[test]
    fn deepening_ends_at_the_last_depth_a_limit_a_settled_answer_or_a_stopped_depth() {
        let whole = |n: u8| (1..=n).flat_map(|d| [("iterate", d), ("completed", d)]);
        assert_eq!(run(99, 99, 99, 3), whole(3).collect::<Vec<_>>());
        assert_eq!(run(3, 99, 99, 9), whole(2).collect::<Vec<_>>());
        assert_eq!(run(99, 2, 99, 9), whole(2).collect::<Vec<_>>());
        let mut stopped_inside: Vec<_> = whole(1).collect();
        stopped_inside.push(("iterate", 2));
        assert_eq!(run(99, 99, 2, 9), stopped_inside);
        assert_eq!(run(99, 99, 99, 0), Vec::new());
    }
}
