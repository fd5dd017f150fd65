//! `kalah.solve`: the exact value of a position with its best turn and a principal
//! variation, on a solver set up as the command line sets one up; the solver settings
//! and the progress reports every long call shares.

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

use kalah_analysis::progress::phase_name;
use kalah_core::{Game, Position, Side};
use kalah_solver::egdb::EgdbError;
use kalah_solver::{Config, Overrides, Progress, Solution, SolveError, Solver, SolverError};
use pyo3::prelude::*;

use crate::errors::{error, override_error, solve_error, solver_error, Kind};
use crate::interrupt::{interruptible, Callback};
use crate::position::PyPosition;
use crate::rules::PySide;

/// The solver settings a call takes, as the command line's solver options.
#[derive(Clone, Debug, Default)]
pub struct Settings {
    /// What overrides the tuned defaults.
    pub overrides: Overrides,
}

impl Settings {
    /// The settings of the keyword arguments every solving call takes.
    pub fn new(
        threads: Option<usize>,
        hash_mb: Option<u64>,
        egdb: Option<PathBuf>,
        egdb_seeds: Option<usize>,
        cache: bool,
        deepening: Option<u8>,
    ) -> PyResult<Settings> {
        if threads == Some(0) {
            return Err(error(Kind::Rules, "threads must be at least 1"));
        }
        if hash_mb == Some(0) {
            return Err(error(Kind::Rules, "hash_mb must be at least 1"));
        }
        Ok(Settings {
            overrides: Overrides {
                threads,
                hash_mb,
                deepening,
                egdb,
                egdb_seeds,
                no_cache: !cache,
                existing_only: None,
            },
        })
    }

    /// A solver for `solves` positions of `game` with at most `seeds` seeds in the houses
    /// (the configuration `kalah solve` would use with these options); its database build
    /// stops when `cancel` is raised.
    pub fn solver(
        &self,
        game: &Game,
        seeds: usize,
        solves: usize,
        cancel: &AtomicBool,
    ) -> Result<Solver, Failure> {
        self.solver_with(game, seeds, solves, cancel, |_| {})
    }

    /// [`Settings::solver`] with its configuration changed by `adjust` first.
    pub fn solver_with(
        &self,
        game: &Game,
        seeds: usize,
        solves: usize,
        cancel: &AtomicBool,
        adjust: impl FnOnce(&mut Config),
    ) -> Result<Solver, Failure> {
        let mut config = self
            .overrides
            .config(game, seeds, solves)
            .map_err(|e| Failure::Py(override_error(&e)))?;
        adjust(&mut config);
        match Solver::new_cancellable(game.clone(), config, cancel) {
            Ok(solver) => Ok(solver),
            Err(SolverError::Database(EgdbError::Cancelled)) => Err(Failure::Cancelled),
            Err(e) => Err(Failure::Py(solver_error(&e))),
        }
    }

    /// A solver of one search thread for `solves` solves run at once, and the number of
    /// workers to run them on (`threads`, default every core), as `kalah openings` and
    /// `kalah export` make them: the solves share the one table.
    pub fn parallel_solver(
        &self,
        game: &Game,
        seeds: usize,
        solves: usize,
        cancel: &AtomicBool,
    ) -> Result<(Solver, usize), Failure> {
        let mut workers = 1;
        let solver = self.solver_with(game, seeds, solves, cancel, |c| {
            workers = c.threads.max(1);
            c.threads = 1;
        })?;
        Ok((solver, workers))
    }
}

/// Why a piece of work run off the interpreter gave no result.
pub enum Failure {
    /// Its cancel flag was raised (Ctrl-C, or a callback that raised).
    Cancelled,
    /// An error to raise.
    Py(PyErr),
}

impl Failure {
    /// The exception of a failure; a cancelled call raises what cancelled it (the
    /// KeyboardInterrupt is raised before this is reached, the callback's error here).
    pub fn into_err(self, callback: &Callback) -> PyErr {
        match self {
            Failure::Py(e) => e,
            Failure::Cancelled => callback
                .take_error()
                .unwrap_or_else(|| error(Kind::Internal, "the work was cancelled")),
        }
    }
}

impl From<kalah_analysis::AnalysisError> for Failure {
    fn from(e: kalah_analysis::AnalysisError) -> Failure {
        match e {
            kalah_analysis::AnalysisError::Cancelled => Failure::Cancelled,
            e => Failure::Py(crate::errors::analysis_error(&e)),
        }
    }
}

impl From<SolveError> for Failure {
    fn from(e: SolveError) -> Failure {
        match e {
            SolveError::Cancelled => Failure::Cancelled,
            e => Failure::Py(solve_error(&e)),
        }
    }
}

/// `(lower, upper)` of a value for the mover, from South.
pub fn from_south(side: Side, lower: i32, upper: i32) -> (i32, i32) {
    match side {
        Side::South => (lower, upper),
        Side::North => (-upper, -lower),
    }
}

/// A report on a running solve: its phase, the interval proved so far (from South), the
/// nodes searched and the time since it started.
#[pyclass(name = "Progress", module = "kalah", frozen, get_all)]
#[derive(Clone, Debug)]
pub struct PyProgress {
    /// `deepening 12`, `proving`, `principal variation`, `retrograde` ...
    pub phase: String,
    /// The value is at least this, from South.
    pub lower: i32,
    /// The value is at most this, from South.
    pub upper: i32,
    /// Nodes searched so far by every thread.
    pub nodes: u64,
    /// Seconds since the solve started.
    pub seconds: f64,
}

impl PyProgress {
    /// The report of `p` for a root with `side` to move.
    pub fn of(p: &Progress, side: Side) -> PyProgress {
        let (lower, upper) = from_south(side, p.lower, p.upper);
        PyProgress {
            phase: phase_name(p.phase),
            lower,
            upper,
            nodes: p.nodes,
            seconds: p.elapsed.as_secs_f64(),
        }
    }
}

#[pymethods]
impl PyProgress {
    fn __repr__(&self) -> String {
        format!(
            "Progress(phase={:?}, lower={}, upper={}, nodes={}, seconds={:.3})",
            self.phase, self.lower, self.upper, self.nodes, self.seconds
        )
    }
}

/// The exact value of a position, its best turn and a principal variation to the end of
/// the game, replayed and checked before it is returned.
#[pyclass(name = "Solution", module = "kalah", frozen, get_all)]
#[derive(Clone)]
pub struct PySolution {
    /// The position solved.
    pub position: PyPosition,
    /// The value from South: final South store minus North store under perfect play.
    pub value: i32,
    /// The value for the player to move.
    pub value_for_mover: i32,
    /// The player to move.
    pub side_to_move: PySide,
    /// The best turn in the notation (`3-6`); None when the game is over.
    pub best_turn: Option<String>,
    /// The principal variation: the turns to the end of the game, in the notation.
    pub line: Vec<String>,
    /// Always True: the value is proved.
    pub exact: bool,
    /// The proven interval from South: (value, value) for an exact value.
    pub lower: i32,
    /// See `lower`.
    pub upper: i32,
    /// Nodes searched by every thread.
    pub nodes: u64,
    /// Wall time of the solve in seconds.
    pub seconds: f64,
    /// Positions valued by the endgame database.
    pub egdb_hits: u64,
}

impl PySolution {
    /// The result of `solution` of `position`.
    pub fn of(position: &PyPosition, solution: &Solution) -> PySolution {
        let h = position.pos.houses_per_side();
        let value = solution.value_from_south();
        PySolution {
            position: position.clone(),
            value,
            value_for_mover: solution.value,
            side_to_move: solution.side.into(),
            best_turn: solution.best_turn().map(|t| t.notation(h)),
            line: kalah_solver::line::notations(h, &solution.pv),
            exact: true,
            lower: value,
            upper: value,
            nodes: solution.nodes,
            seconds: solution.elapsed.as_secs_f64(),
            egdb_hits: solution.egdb_hits,
        }
    }
}

#[pymethods]
impl PySolution {
    fn __repr__(&self) -> String {
        format!(
            "Solution(value={}, best_turn={:?}, nodes={}, seconds={:.3})",
            self.value,
            self.best_turn.as_deref().unwrap_or(""),
            self.nodes,
            self.seconds
        )
    }
}

/// Checks that a solution's line replays to its value: every value returned has one.
pub fn verified(game: &Game, pos: &Position, solution: Solution) -> Result<Solution, Failure> {
    match solution.verify(game, pos) {
        Ok(()) => Ok(solution),
        Err(e) => Err(Failure::Py(error(
            Kind::Internal,
            format!("principal variation does not replay: {e}"),
        ))),
    }
}

/// Solves `position` exactly; see the stub for the arguments.
#[pyfunction]
#[pyo3(signature = (position, *, threads = None, hash_mb = None, egdb = None,
                    egdb_seeds = None, cache = true, deepening = None, progress = None))]
#[allow(clippy::too_many_arguments)]
pub fn solve(
    py: Python<'_>,
    position: PyPosition,
    threads: Option<usize>,
    hash_mb: Option<u64>,
    egdb: Option<PathBuf>,
    egdb_seeds: Option<usize>,
    cache: bool,
    deepening: Option<u8>,
    progress: Option<Py<PyAny>>,
) -> PyResult<PySolution> {
    let settings = Settings::new(threads, hash_mb, egdb, egdb_seeds, cache, deepening)?;
    let callback = Callback::new(progress);
    let game = position.rules.game().clone();
    let pos = position.pos;
    let solved = interruptible(py, |cancel| -> Result<Solution, Failure> {
        let solver = settings.solver(&game, pos.seeds_in_houses() as usize, 1, cancel)?;
        let side = pos.side_to_move();
        let solution = solver.solve(&pos, cancel, &mut |p| {
            callback.call(cancel, |py| {
                Ok(Bound::new(py, PyProgress::of(p, side))?.into_any())
            })
        })?;
        verified(&game, &pos, solution)
    })?;
    match solved {
        Ok(solution) => Ok(PySolution::of(&position, &solution)),
        Err(failure) => Err(failure.into_err(&callback)),
    }
}
