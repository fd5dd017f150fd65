//! The bookkeeping of a display of work done one level after another by several threads
//! (an endgame database's build, seed level by seed level): which level's display is up,
//! when to replace it, and a count that only moves forward; and the size of a tree of
//! positions estimated from its first levels ([`estimate`]), by which export and split
//! bound their work before they build it.

use std::sync::Mutex;

/// The display of one level's work, as a front end draws it (a progress bar).
pub trait LevelDisplay {
    /// Shows `done` units of the level's work finished.
    fn set(&self, done: u64);
    /// Ends the display: the level is over, or the work is.
    fn finish(self);
}

/// The display of the level in progress, shared by the threads that report on it.
pub struct LevelProgress<D> {
    current: Mutex<Option<Current<D>>>,
}

/// The level shown, its display and the most work shown done.
struct Current<D> {
    level: usize,
    display: D,
    done: u64,
}

impl<D: LevelDisplay> Default for LevelProgress<D> {
    fn default() -> Self {
        LevelProgress {
            current: Mutex::new(None),
        }
    }
}

impl<D: LevelDisplay> LevelProgress<D> {
    /// Reports `done` units of `level` finished: a report of another level than the one
    /// shown finishes that display and starts one with `start`; the count shown never
    /// goes back (threads report out of order).
    pub fn show(&self, level: usize, done: u64, start: impl FnOnce() -> D) {
        let Ok(mut guard) = self.current.lock() else {
            return;
        };
        if guard.as_ref().is_none_or(|c| c.level != level) {
            if let Some(old) = guard.take() {
                old.display.finish();
            }
            *guard = Some(Current {
                level,
                display: start(),
                done: 0,
            });
        }
        if let Some(c) = guard.as_mut() {
            if done > c.done {
                c.done = done;
                c.display.set(done);
            }
        }
    }

    /// Finishes the display of the last level, if any.
    pub fn finish(&self) {
        if let Ok(mut guard) = self.current.lock() {
            if let Some(old) = guard.take() {
                old.display.finish();
            }
        }
    }
}

/// The positions of a tree of `depth` levels, from the sizes of its first levels
/// (`levels[0]` the root's, 1): each level still to build grows by the factor of the last
/// level built.
pub fn estimate(levels: &[usize], depth: usize) -> f64 {
    let built: f64 = levels.iter().map(|&n| n as f64).sum();
    let (last, prev) = match levels {
        [.., prev, last] => (*last as f64, (*prev as f64).max(1.0)),
        _ => return built,
    };
    let growth = last / prev;
    let (mut total, mut level) = (built, last);
    for _ in levels.len()..=depth {
        level *= growth;
        total += level;
        if !total.is_finite() || total > 1e300 {
            return f64::MAX;
        }
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::RefCell;
    use std::rc::Rc;

    /// A display that logs what it is told.
    struct Log(usize, Rc<RefCell<Vec<String>>>);

    impl LevelDisplay for Log {
        fn set(&self, done: u64) {
            self.1.borrow_mut().push(format!("{} at {done}", self.0));
        }
        fn finish(self) {
            self.1.borrow_mut().push(format!("{} done", self.0));
        }
    }

    #[test]
    fn a_new_level_replaces_the_display_and_counts_only_go_forward() {
        let log = Rc::new(RefCell::new(Vec::new()));
        let levels = LevelProgress::default();
        for (level, done) in [(3, 5), (3, 4), (3, 0), (3, 9), (4, 0), (4, 2)] {
            levels.show(level, done, || Log(level, log.clone()));
        }
        levels.finish();
        levels.finish();
        let want = ["3 at 5", "3 at 9", "3 done", "4 at 2", "4 done"];
        assert_eq!(*log.borrow(), want);
    }
}
