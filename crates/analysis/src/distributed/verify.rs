//! What answers claim, proved again before it counts: a line that replays to a value shows
//! that the value can be reached, not that it is best play, and a bound is only a number
//! in a file. [`Merge::verify`] proves every claim by a solve of its unit in the narrow
//! window that decides it, so that a forged answer is refused, never merged;
//! [`Merge::trust`] takes every claim as it is, for answers from one's own machines.

use std::sync::atomic::AtomicBool;

use kalah_solver::Solver;

use super::merge::{Merge, MergeError};
use crate::bounds::{from_mover, Bounds};

impl Merge<'_> {
    /// The units, by id, whose answers claim more than is proved: their claims count only
    /// once [`Merge::verify`] proves them again (or [`Merge::trust`] takes them).
    pub fn unverified(&self) -> Vec<usize> {
        (0..self.known.len())
            .filter(|&u| self.known[u] != self.claimed[u])
            .collect()
    }

    /// Proves again every claim of the answers (see [`Merge::unverified`]) by a solve of
    /// its unit with `solver`: an exact value `v` in the window `(v-1, v+1)`, which proves
    /// it exactly `v`; a bound in the null window that decides it. A claim a solve refutes
    /// is refused: the answer is wrong. `progress` hears the units proved so far and how
    /// many there are. Stops early when `cancel` is raised: the units not reached stay
    /// unverified.
    pub fn verify(
        &mut self,
        solver: &Solver,
        cancel: &AtomicBool,
        progress: &mut dyn FnMut(usize, usize),
    ) -> Result<(), MergeError> {
        let units = self.unverified();
        for (done, &u) in units.iter().enumerate() {
            progress(done, units.len());
            let (lo, hi) = self.claimed[u];
            let windows = if lo == hi {
                vec![(lo - 1, lo + 1)]
            } else {
                let mut w = Vec::new();
                if lo > self.known[u].0 {
                    w.push((lo - 1, lo));
                }
                if hi < self.known[u].1 {
                    w.push((hi, hi + 1));
                }
                w
            };
            for window in windows {
                if !self.prove(solver, u, window, cancel)? {
                    return Ok(());
                }
            }
        }
        progress(units.len(), units.len());
        Ok(())
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

    /// Solves unit `u` in `window` (from South) and takes what the solve proves; refuses
    /// the unit's claims when the solve contradicts them. `false` when cancelled.
    fn prove(
        &mut self,
        solver: &Solver,
        u: usize,
        window: Bounds,
        cancel: &AtomicBool,
    ) -> Result<bool, MergeError> {
        let pos = *self.tree.unit_position(u);
        let (alpha, beta) = from_mover(pos.side_to_move(), window);
        let Ok(result) = solver.solve_window(&pos, alpha, beta, cancel, &mut |_| {}) else {
            return Ok(false);
        };
        let proved = match result {
            Ok(solution) => {
                let v = solution.value_from_south();
                (v, v)
            }
            Err(bound) => bound.from_south(),
        };
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
        Ok(true)
    }
}
