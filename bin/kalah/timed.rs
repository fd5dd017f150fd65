//! `--time SECONDS` of `kalah play`, `kalah batch` and `kalah openings`: the time limit
//! of their anytime analysis, and the solver options it runs with.

use std::time::Duration;

use kalah_solver::Limits;

use crate::solving::SolverArgs;

/// The solver options of an analysis within a time: those given, but no endgame database
/// unless one is asked for (by a flag or the environment), since building one can take
/// longer than the analysis (as `kalah analyse`).
pub fn solver_args(args: &SolverArgs) -> SolverArgs {
    let mut args = args.clone();
    let from_env = std::env::var_os(kalah_solver::EGDB_PATH_VAR).is_some();
    if args.egdb.is_none() && args.egdb_seeds.is_none() && !from_env {
        args.egdb_seeds = Some(0);
    }
    args
}

/// The limits of `--time` (`None` without it).
pub fn limits(time: Option<Duration>) -> Option<Limits> {
    time.map(Limits::time)
}
