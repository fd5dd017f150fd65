//! `kalah.Engine`: the solver kept for a whole game. Each module-level `solve` or `analyse`
//! sets up a solver of its own (its transposition table, its databases) and drops it; an
//! `Engine` sets one up at its first call on a game's rules and keeps it, with its table,
//! for every later call on positions of those rules, as `kalah engine` keeps its table
//! between `go`s. For Bao it keeps the last solved game graph, which answers every
//! position reachable from its root.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, Mutex, MutexGuard};

use kalah_core::Game;
use kalah_solver::{Limits, Solution, Solver};
use pyo3::prelude::*;

use crate::analysis::{analyse_bao, analyse_on, limits, PyAnalysis};
use crate::bao::{self, Solved};
use crate::interrupt::{interruptible, Callback, Failure};
use crate::position::PyPosition;
use crate::rules::PyRules;
use crate::solve::{verified, PyProgress, PySolution, Settings};

/// What an engine keeps between calls.
#[derive(Default)]
struct Kept {
    /// The solver of the rules of the last sowing position, with those rules.
    solver: Option<(PyRules, Arc<Solver>)>,
    /// The last Bao game graph solved.
    graph: Option<Arc<Solved>>,
}

/// A game-long engine: the solver (its transposition table and endgame databases) set up
/// once for a game's rules and kept for every call on positions of those rules, so that
/// the analyses of successive positions of one game reuse what the earlier ones found.
#[pyclass(name = "Engine", module = "kalah", frozen)]
pub struct PyEngine {
    /// The solver options of every call.
    settings: Settings,
    /// The most positions a Bao game graph may hold.
    graph_limit: u64,
    /// The solver and the graph kept.
    kept: Mutex<Kept>,
    /// Solvers set up so far (one per rules met, and one more after each `new_game`).
    solvers_made: AtomicU64,
    /// Bao game graphs solved so far.
    graphs_solved: AtomicU64,
}

impl PyEngine {
    /// What the engine keeps, its lock taken (a call that panicked leaves nothing half
    /// made: the kept values are replaced whole).
    fn kept(&self) -> MutexGuard<'_, Kept> {
        self.kept.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The solver of `rules` (whose game is `game`): the one kept, or a new one set up as
    /// `kalah engine` sets up its own (no endgame database built unless one is asked for;
    /// a file already there is read; the table's memory mapped before the first search),
    /// then kept in place of the last.
    fn solver(
        &self,
        rules: &PyRules,
        game: &Game,
        cancel: &AtomicBool,
    ) -> Result<Arc<Solver>, Failure> {
        let mut kept = self.kept();
        if let Some((of, solver)) = &kept.solver {
            if of.same(rules) {
                return Ok(Arc::clone(solver));
            }
        }
        let mut settings = self.settings.clone();
        settings.overrides.existing_only = Some(Limits::file_bytes_cap(None));
        let solver = Arc::new(settings.solver(game, game.capacity(), 1, cancel)?);
        solver.warm_up();
        self.solvers_made.fetch_add(1, Relaxed);
        kept.solver = Some((rules.clone(), Arc::clone(&solver)));
        Ok(solver)
    }

    /// The solved graph that holds `pos`: the one kept, or the graph of `pos` solved and
    /// kept in place of the last.
    fn graph(
        &self,
        py: Python<'_>,
        pos: &kalah_core::bao::BaoPosition,
        callback: &Callback,
    ) -> PyResult<Arc<Solved>> {
        if let Some(graph) = &self.kept().graph {
            if graph.graph.value(pos).is_some() {
                return Ok(Arc::clone(graph));
            }
        }
        let solved = bao::solve(py, pos, self.graph_limit, callback, PyProgress::of_graph)?;
        let solved = Arc::new(solved);
        self.graphs_solved.fetch_add(1, Relaxed);
        self.kept().graph = Some(Arc::clone(&solved));
        Ok(solved)
    }
}

#[pymethods]
impl PyEngine {
    /// An engine with the solver options of `kalah.solve` (`memory_mb`: the most memory a
    /// Bao game graph may take); nothing is set up until the first call.
    #[new]
    #[pyo3(signature = (*, threads = None, hash_mb = None, egdb = None, egdb_seeds = None,
                        cache = true, memory_mb = None))]
    fn new(
        threads: Option<usize>,
        hash_mb: Option<u64>,
        egdb: Option<PathBuf>,
        egdb_seeds: Option<usize>,
        cache: bool,
        memory_mb: Option<u64>,
    ) -> PyResult<PyEngine> {
        Ok(PyEngine {
            settings: Settings::new(threads, hash_mb, egdb, egdb_seeds, cache, None)?,
            graph_limit: bao::memory_limit(memory_mb)?,
            kept: Mutex::new(Kept::default()),
            solvers_made: AtomicU64::new(0),
            graphs_solved: AtomicU64::new(0),
        })
    }

    /// `kalah.analyse` on the engine's solver; see the stub for the arguments.
    #[pyo3(signature = (position, *, time = None, nodes = None, depth = None, lines = None,
                        progress = None))]
    #[allow(clippy::too_many_arguments)]
    fn analyse(
        &self,
        py: Python<'_>,
        position: PyPosition,
        time: Option<f64>,
        nodes: Option<u64>,
        depth: Option<u8>,
        lines: Option<usize>,
        progress: Option<Py<PyAny>>,
    ) -> PyResult<PyAnalysis> {
        let limits = limits(time, nodes, depth)?;
        let callback = Callback::new(progress);
        if let Some(pos) = position.board.bao_position() {
            self.settings.refuse_for_bao("Engine.analyse")?;
            return analyse_bao(py, &position, &pos, &limits, &callback);
        }
        let (game, pos) = position.sowing("Engine.analyse")?;
        let rules = position.rules.clone();
        analyse_on(py, &position, pos, &limits, lines, &callback, |cancel| {
            self.solver(&rules, game, cancel)
        })
    }

    /// `kalah.solve` on the engine's solver (Bao: from the kept game graph where it holds
    /// the position); see the stub for the arguments.
    #[pyo3(signature = (position, *, progress = None))]
    fn solve(
        &self,
        py: Python<'_>,
        position: PyPosition,
        progress: Option<Py<PyAny>>,
    ) -> PyResult<PySolution> {
        let callback = Callback::new(progress);
        if let Some(pos) = position.board.bao_position() {
            self.settings.refuse_for_bao("Engine.solve")?;
            let graph = self.graph(py, &pos, &callback)?;
            return PySolution::of_bao(&position, &pos, &graph);
        }
        let (game, pos) = position.sowing("Engine.solve")?;
        let rules = position.rules.clone();
        let solved = interruptible(py, |cancel| -> Result<Solution, Failure> {
            let solver = self.solver(&rules, game, cancel)?;
            let side = pos.side_to_move();
            let solution = solver.solve(&pos, cancel, &mut |p| {
                callback.call(cancel, |py| {
                    Ok(Bound::new(py, PyProgress::of(p, side))?.into_any())
                })
            })?;
            verified(game, &pos, solution)
        })?;
        match solved {
            Ok(solution) => Ok(PySolution::of(&position, &solution)),
            Err(failure) => Err(failure.into_err(&callback)),
        }
    }

    /// Sets up the solver of `rules` now, rather than inside the first call's time (as
    /// `isready` does for `kalah engine`): a database asked for is built, a file read, the
    /// table's memory mapped. Nothing to set up for Bao.
    fn prepare(&self, py: Python<'_>, rules: PyRules) -> PyResult<()> {
        if rules.bao().is_some() {
            return Ok(());
        }
        let game = rules.game();
        let callback = Callback::new(None);
        let made = interruptible(py, |cancel| self.solver(&rules, game, cancel).map(|_| ()))?;
        made.map_err(|f| f.into_err(&callback))
    }

    /// Drops the solver and the game graph kept: the next call sets up a fresh one (a new
    /// game that should not see what the last one proved, or memory given back).
    fn new_game(&self) {
        *self.kept() = Kept::default();
    }

    /// The rules of the solver kept, None before the first call on a sowing game.
    #[getter]
    fn rules(&self) -> Option<PyRules> {
        self.kept().solver.as_ref().map(|(rules, _)| rules.clone())
    }

    /// How many solvers the engine has set up: one for each change of rules and each
    /// call after `new_game()`, never one per call.
    #[getter]
    fn solvers_made(&self) -> u64 {
        self.solvers_made.load(Relaxed)
    }

    /// How many Bao game graphs the engine has solved: one for each position that the
    /// graph kept does not hold.
    #[getter]
    fn graphs_solved(&self) -> u64 {
        self.graphs_solved.load(Relaxed)
    }

    fn __repr__(&self) -> String {
        let rules = self.rules().map(|r| r.description());
        format!(
            "Engine(rules={}, solvers_made={}, graphs_solved={})",
            rules.map_or("None".to_string(), |r| format!("{r:?}")),
            self.solvers_made(),
            self.graphs_solved()
        )
    }
}
