//! What answers claim, proved again before it counts: a line that replays to a value shows
//! that the value can be reached, not that it is best play, and a bound is only a number
//! in a file. [`Merge::verify`] proves every claim by a solve of its unit in the narrow
//! window that decides it, so that a forged answer is refused, never merged;
//! [`Merge::trust`] takes every claim as it is, for answers from one's own machines.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;

use kalah_solver::Solver;

use super::merge::{Merge, MergeError};
use crate::game::bounds::{from_mover, Bounds};

/// What a merge stopped by Ctrl-C while it proved the answers of `units` units again
/// reports, in words: nothing is written, since the report would rest on bounds not yet
/// proved.
pub fn verify_interrupted(units: usize) -> String {
    format!(
        "nothing written: the answers of {units} units were being proved again; run the same \
         command again (or add --trust-answers)"
    )
}

impl Merge<'_> {
    /// The units, by id, whose answers claim more than is proved: their claims count only
    /// once [`Merge::verify`] proves them again (or [`Merge::trust`] takes them).
    pub fn unverified(&self) -> Vec<usize> {
        (0..self.known.len())
            .filter(|&u| self.known[u] != self.claimed[u])
            .collect()
    }

    /// Proves again every claim of the answers (see [`Merge::unverified`]) by solves of
    /// their units with `solver`, `workers` at a time (the solver's table shared): an
    /// exact value `v` in the window `(v-1, v+1)`, which proves it exactly `v`; a bound in
    /// the null window that decides it. A claim a solve refutes is refused: the answer is
    /// wrong (the first such unit by id is named). `progress` hears how many solves are
    /// done and how many there are. Stops early when `cancel` is raised: what was proved
    /// counts, the units not reached stay unverified.
    pub fn verify(
        &mut self,
        solver: &Solver,
        workers: usize,
        cancel: &AtomicBool,
        progress: &(dyn Fn(usize, usize) + Sync),
    ) -> Result<(), MergeError> {
        let mut solves: Vec<(usize, Bounds)> = Vec::new();
        for u in self.unverified() {
            let (lo, hi) = self.claimed[u];
            if lo == hi {
                solves.push((u, (lo - 1, lo + 1)));
                continue;
            }
            if lo > self.known[u].0 {
                solves.push((u, (lo - 1, lo)));
            }
            if hi < self.known[u].1 {
                solves.push((u, (hi, hi + 1)));
            }
        }
        let proved = self.solve_all(solver, &solves, workers.max(1), cancel, progress);
        for (&(u, _), proved) in solves.iter().zip(proved) {
            if let Some(proved) = proved {
                self.take(u, proved)?;
            }
        }
        Ok(())
    }

    /// What solves of `solves` (a unit and a window from South) prove, in order, `workers`
    /// threads taking the next one; `None` for a solve cancelled or never started.
    fn solve_all(
        &self,
        solver: &Solver,
        solves: &[(usize, Bounds)],
        workers: usize,
        cancel: &AtomicBool,
        progress: &(dyn Fn(usize, usize) + Sync),
    ) -> Vec<Option<Bounds>> {
        let results: Vec<Mutex<Option<Bounds>>> = solves.iter().map(|_| Mutex::new(None)).collect();
        let (next, done) = (AtomicUsize::new(0), AtomicUsize::new(0));
        progress(0, solves.len());
        std::thread::scope(|scope| {
            for _ in 0..workers.min(solves.len()) {
                scope.spawn(|| loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= solves.len() || cancel.load(Ordering::Relaxed) {
                        return;
                    }
                    let (u, window) = solves[i];
                    let Some(proved) = self.prove(solver, u, window, cancel) else {
                        return;
                    };
                    *results[i].lock().expect("no proof panics") = Some(proved);
                    progress(done.fetch_add(1, Ordering::Relaxed) + 1, solves.len());
                });
            }
        });
        results
            .into_iter()
            .map(|r| r.into_inner().expect("no proof panics"))
            .collect()
    }

    /// Takes every claim of the answers as proved, without a solve: for answers from
    /// one's own machines. Returns the units taken on trust; the report says that its
    /// values are exact only if the answers are.
    pub fn trust(&mut self) -> usize {
        let taken = (0..self.known.len())
            .filter(|&u| self.known[u] != self.claimed[u])
            .count();
        self.known.clone_from(&self.claimed);
        self.trusted += taken;
        taken
    }

    /// What a solve of unit `u` in `window` (from South) proves of its value, from South;
    /// `None` when cancelled.
    fn prove(
        &self,
        solver: &Solver,
        u: usize,
        window: Bounds,
        cancel: &AtomicBool,
    ) -> Option<Bounds> {
        let pos = *self.tree.unit_position(u);
        let (alpha, beta) = from_mover(pos.side_to_move(), window);
        let result = solver
            .solve_window(&pos, alpha, beta, cancel, &mut |_| {})
            .ok()?;
        Some(match result {
            Ok(solution) => {
                let v = solution.value_from_south();
                (v, v)
            }
            Err(bound) => bound.from_south(),
        })
    }

    /// Takes what a solve proved of unit `u`; refuses the unit's claims when the proof
    /// contradicts them.
    fn take(&mut self, u: usize, proved: Bounds) -> Result<(), MergeError> {
        // The claim refuted, as the answers put it: a value, or the bound past the proof.
        let (lo, hi) = self.claimed[u];
        let claim = match () {
            _ if lo == hi => (lo, hi),
            _ if lo > proved.1 => (lo, i32::MAX),
            _ => (i32::MIN, hi),
        };
        if lo > proved.1 || hi < proved.0 {
            return Err(MergeError::Unproved {
                id: u as u64,
                claim,
                proved,
            });
        }
        let meet = |(a, b): Bounds| (a.max(proved.0), b.min(proved.1));
        self.known[u] = meet(self.known[u]);
        self.claimed[u] = meet(self.claimed[u]);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_interrupted_verification_says_nothing_was_written() {
        assert_eq!(
            verify_interrupted(7),
            "nothing written: the answers of 7 units were being proved again; run the same \
             command again (or add --trust-answers)"
        );
    }
}
