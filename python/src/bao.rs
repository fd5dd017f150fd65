//! Bao la Kujifunza for `kalah.solve` and `kalah.analyse`: the exact value of a position by
//! retrograde analysis of its game graph (`kalah_solver::bao`, on the boards whose graph
//! fits the memory) and the anytime analysis within limits (`kalah_solver::bao_search`),
//! run off the interpreter. `solve.rs` and `analysis.rs` turn their results into the
//! sowing games' `Solution` and `Analysis`.

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use kalah_core::bao::{BaoMove, BaoPosition};
use kalah_solver::bao::{
    solve_position, BaoSolveError, BaoSolved, GraphProgress, GraphStop, BAO_BYTES_PER_POSITION,
};
use kalah_solver::bao_search;
use kalah_solver::{Analysis, Limits};
use pyo3::prelude::*;
use pyo3::PyClass;

use crate::errors::{error, Kind};
use crate::interrupt::{interruptible, Callback, Failure};

/// The game graph's memory when none is given, in MiB: `kalah solve --rules bao`'s
/// `--memory-mb` default.
pub const DEFAULT_MEMORY_MB: u64 = 4096;

/// The time of an analysis given no limit, as `kalah analyse --rules bao` takes it: Bao's
/// search has no end short of a proof, which most positions never reach.
pub const DEFAULT_TIME: Duration = Duration::from_secs(1);

/// The most positions a game graph of `memory_mb` MiB (default [`DEFAULT_MEMORY_MB`]) holds.
pub fn memory_limit(memory_mb: Option<u64>) -> PyResult<u64> {
    match memory_mb.unwrap_or(DEFAULT_MEMORY_MB) {
        0 => Err(error(Kind::Rules, "memory_mb must be at least 1")),
        mb if mb > 1 << 20 => Err(error(
            Kind::Rules,
            format!("memory_mb must be at most {} (a TiB), not {mb}", 1u64 << 20),
        )),
        mb => Ok(mb * (1 << 20) / BAO_BYTES_PER_POSITION),
    }
}

/// A solved game graph and the time its solve took.
pub struct Solved {
    /// Every position reachable from the root, solved.
    pub graph: BaoSolved,
    /// The wall time of the solve.
    pub elapsed: Duration,
}

/// Solves every position reachable from `pos` within `limit` positions, off the
/// interpreter; the callback gets `report` of each progress report. Ctrl-C or an
/// exception of the callback stops it.
pub fn solve<T>(
    py: Python<'_>,
    pos: &BaoPosition,
    limit: u64,
    callback: &Callback,
    report: impl Fn(&GraphProgress) -> T + Sync,
) -> PyResult<Solved>
where
    T: PyClass + Send + Into<pyo3::PyClassInitializer<T>>,
{
    let solved = interruptible(py, |cancel: &AtomicBool| -> Result<Solved, Failure> {
        let timer = Instant::now();
        let graph = solve_position(pos, limit, cancel, &mut |p| {
            callback.call(cancel, |py| Ok(Bound::new(py, report(p))?.into_any()))
        });
        match graph {
            Ok(graph) => Ok(Solved {
                graph,
                elapsed: timer.elapsed(),
            }),
            Err(BaoSolveError::Stopped(GraphStop::Cancelled)) => Err(Failure::Cancelled),
            Err(e) => Err(Failure::Py(error(
                Kind::TooLarge,
                format!(
                    "{e}; kalah.analyse gives the anytime analysis's best move and what it \
                     proves on any board"
                ),
            ))),
        }
    })?;
    solved.map_err(|f| f.into_err(callback))
}

/// Analyses `pos` within `limits` (none: [`DEFAULT_TIME`]), off the interpreter; the
/// callback gets `report` of the analysis after every completed depth.
pub fn analyse<T>(
    py: Python<'_>,
    pos: &BaoPosition,
    limits: &Limits,
    callback: &Callback,
    report: impl Fn(&Analysis<BaoMove>) -> T + Sync,
) -> PyResult<Analysis<BaoMove>>
where
    T: PyClass + Send + Into<pyo3::PyClassInitializer<T>>,
{
    let limits = match (limits.time, limits.nodes, limits.depth) {
        (None, None, None) => Limits::time(DEFAULT_TIME),
        _ => *limits,
    };
    let analysed = interruptible(
        py,
        |cancel: &AtomicBool| -> Result<Analysis<BaoMove>, Failure> {
            let a = bao_search::analyse(pos, &limits, cancel, &mut |a| {
                callback.call(cancel, |py| Ok(Bound::new(py, report(a))?.into_any()))
            });
            match callback.take_error() {
                Some(e) => Err(Failure::Py(e)),
                None => Ok(a),
            }
        },
    )?;
    analysed.map_err(|failure| failure.into_err(callback))
}
