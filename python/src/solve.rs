//! `kalah.solve`: the exact value of a position (Bao's by its solved game graph) with its
//! best turn and a principal variation, on a solver set up as the command line sets one
//! up; the solver settings and the progress reports every long call shares.

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

use kalah_analysis::run::progress::phase_name;
use kalah_core::bao::BaoPosition;
use kalah_core::{Game, Position, Side};
use kalah_solver::bao::{GraphProgress, Value};
use kalah_solver::egdb::EgdbError;
use kalah_solver::{Config, Overrides, Progress, Solution, Solver, SolverError};
use pyo3::prelude::*;

use crate::bao;
use crate::errors::{error, override_error, solver_error, Kind};
use crate::interrupt::{interruptible, Callback, Failure};
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

    /// Refuses the settings that Bao's solver and search do not take (`what`: the call).
    pub fn refuse_for_bao(&self, what: &str) -> PyResult<()> {
        let o = &self.overrides;
        let given = [
            ("threads", o.threads.is_some()),
            ("hash_mb", o.hash_mb.is_some()),
            ("egdb", o.egdb.is_some()),
            ("egdb_seeds", o.egdb_seeds.is_some()),
            ("deepening", o.deepening.is_some()),
        ];
        match given.iter().find(|(_, set)| *set) {
            Some((name, _)) => Err(crate::rules::not_for_bao(&format!("{what}'s {name}"))),
            None => Ok(()),
        }
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

    /// The report of a Bao game graph being solved, in the same words: its phase, the
    /// interval of the value from South (-1..1 until the end), the positions found so far
    /// as nodes.
    pub fn of_graph(p: &GraphProgress) -> PyProgress {
        PyProgress {
            phase: match p.decided {
                None => "finding positions".to_string(),
                Some(_) => "retrograde".to_string(),
            },
            lower: -1,
            upper: 1,
            nodes: p.positions,
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
    /// The value from South: final South store minus North store under perfect play (Bao:
    /// +1 South wins, -1 North wins, 0 a draw).
    pub value: i32,
    /// The value for the player to move.
    pub value_for_mover: i32,
    /// The player to move.
    pub side_to_move: PySide,
    /// The best turn in the notation (`3-6`); None when the game is over.
    pub best_turn: Option<String>,
    /// The principal variation: the turns to the end of the game, in the notation (Bao: to
    /// the end of a won or lost game, or to the first position that would repeat).
    pub line: Vec<String>,
    /// Always True: the value is proved.
    pub exact: bool,
    /// The proven interval from South: (value, value) for an exact value.
    pub lower: i32,
    /// See `lower`.
    pub upper: i32,
    /// Nodes searched by every thread (Bao: positions of the game graph solved).
    pub nodes: u64,
    /// Wall time of the solve in seconds.
    pub seconds: f64,
    /// Positions valued by the endgame database (Bao: none).
    pub egdb_hits: u64,
    /// The result for the player to move: `win`, `loss` or `draw`.
    pub result: String,
    /// Bao: the moves of both players to the end under best play (the fewest the winner
    /// can force, the most the loser can delay); None for a draw and the sowing games.
    pub plies: Option<u32>,
}

impl PySolution {
    /// The result of `solution` of `position`.
    pub fn of(position: &PyPosition, solution: &Solution) -> PySolution {
        let h = position.houses_per_side();
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
            result: result_of_sign(solution.value).to_string(),
            plies: None,
        }
    }
}

impl PySolution {
    /// The solution of the Bao position `pos` (that of `position`) from a solved graph that
    /// holds it: the value +1, 0 or -1, the moves to the end, the best move and its line.
    pub fn of_bao(
        position: &PyPosition,
        pos: &BaoPosition,
        solved: &bao::Solved,
    ) -> PyResult<PySolution> {
        let graph = &solved.graph;
        let value = graph.value(pos).ok_or_else(|| {
            error(
                Kind::Internal,
                format!("the solved game graph does not hold {pos}"),
            )
        })?;
        let south = value.sign() * pos.side().sign();
        let moves = match value {
            Value::Win(d) | Value::Loss(d) => Some(d),
            Value::Draw => None,
        };
        Ok(PySolution {
            position: position.clone(),
            value: south,
            value_for_mover: value.sign(),
            side_to_move: pos.side().into(),
            best_turn: graph.best_move(pos).map(|(m, _)| m.to_string()),
            line: graph.line(pos).iter().map(|m| m.to_string()).collect(),
            exact: true,
            lower: south,
            upper: south,
            nodes: graph.stats().positions,
            seconds: solved.elapsed.as_secs_f64(),
            egdb_hits: 0,
            result: result_of_sign(value.sign()).to_string(),
            plies: moves,
        })
    }
}

/// `win`, `loss` or `draw` for a value of that sign, for the player it is from.
pub fn result_of_sign(value: i32) -> &'static str {
    match value.signum() {
        1 => "win",
        -1 => "loss",
        _ => "draw",
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
                    egdb_seeds = None, cache = true, deepening = None, memory_mb = None,
                    progress = None))]
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
    memory_mb: Option<u64>,
    progress: Option<Py<PyAny>>,
) -> PyResult<PySolution> {
    let settings = Settings::new(threads, hash_mb, egdb, egdb_seeds, cache, deepening)?;
    if let Some(pos) = position.board.bao_position() {
        settings.refuse_for_bao("kalah.solve")?;
        let callback = Callback::new(progress);
        let limit = bao::memory_limit(memory_mb)?;
        let solved = bao::solve(py, &pos, limit, &callback, PyProgress::of_graph)?;
        return PySolution::of_bao(&position, &pos, &solved);
    }
    if memory_mb.is_some() {
        return Err(error(
            Kind::Rules,
            "memory_mb is the memory of Bao's game graph: the sowing games take hash_mb",
        ));
    }
    let callback = Callback::new(progress);
    let (game, pos) = position.sowing("kalah.solve")?;
    let game = game.clone();
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
