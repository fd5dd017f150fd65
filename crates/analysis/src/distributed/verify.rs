//! Bounds that answers claim proved again before they count: each by a solve of its unit
//! in the null window that decides it, so that a forged `at_least` or `at_most` cannot
//! make a value exact.

use std::sync::atomic::AtomicBool;

use kalah_solver::Solver;

use super::merge::{Merge, MergeError};
use crate::bounds::{from_mover, Bounds};

impl Merge<'_> {
    /// The units, by id, that answers bound beyond what is proved: their bounds count only
    /// once [`Merge::verify`] proves them again.
    pub fn unverified(&self) -> Vec<usize> {
        (0..self.known.len())
            .filter(|&u| self.known[u] != self.claimed[u])
            .collect()
    }

    /// Proves again every bound that answers claim (see [`Merge::unverified`]) by a solve
    /// of its unit with `solver` in the null window that decides it, so that a forged
    /// `at_least` or `at_most` can never make a value exact. A claim the solve refutes is
    /// refused. Stops early when `cancel` is raised: the units not reached stay unverified.
    pub fn verify(&mut self, solver: &Solver, cancel: &AtomicBool) -> Result<(), MergeError> {
        for u in self.unverified() {
            let (lo, hi) = self.claimed[u];
            if lo > self.known[u].0 && !self.prove(solver, u, (lo, i32::MAX), cancel)? {
                return Ok(());
            }
            if hi < self.known[u].1 && !self.prove(solver, u, (i32::MIN, hi), cancel)? {
                return Ok(());
            }
        }
        Ok(())
    }

    /// Solves unit `u` in the null window that decides `claim` (at least its lower end, or
    /// at most its upper end) and takes what the solve proves; refuses the claim when the
    /// solve contradicts it. `false` when cancelled.
    fn prove(
        &mut self,
        solver: &Solver,
        u: usize,
        claim: Bounds,
        cancel: &AtomicBool,
    ) -> Result<bool, MergeError> {
        let window = match claim {
            (lo, i32::MAX) => (lo - 1, lo),
            (_, hi) => (hi, hi + 1),
        };
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
        if claim.0 > proved.1 || claim.1 < proved.0 {
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
