//! `--time SECONDS` of `kalah play`, `kalah batch` and `kalah openings`: the time limit
//! of their anytime analysis (run with [`kalah_analysis::solving::Solving::within`]).

use std::time::Duration;

use kalah_solver::Limits;

/// The limits of `--time` (`None` without it).
pub fn limits(time: Option<Duration>) -> Option<Limits> {
    time.map(Limits::time)
}
