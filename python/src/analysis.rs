//! `kalah.analyse`, `kalah.openings`, `kalah.pie` and `kalah.probe`: the anytime analysis
//! within limits, every first turn solved, the pie rule, and a database file's values.

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use kalah_analysis::openings::{first_steps, Offer, Opening};
use kalah_analysis::{openings as solve_openings, pie as solve_pie};
use kalah_core::bao::{BaoMove, BaoPosition};
use kalah_core::{Game, Position, Side};
use kalah_solver::anytime::interval_from_south;
use kalah_solver::bao_search::Outcome;
use kalah_solver::egdb::{self, ProbeError};
use kalah_solver::line::Turn;
use kalah_solver::{Analysis, Limits, Move, Proven, RootTurn, Solver};
use pyo3::prelude::*;

use crate::bao;
use crate::errors::{analysis_error, bao_error, error, position_error, rules_error, Kind};
use crate::interrupt::{interruptible, Callback, Failure};
use crate::position::PyPosition;
use crate::rules::PySide;
use crate::solve::{PyProgress, Settings};

/// One root turn of an analysis: its evaluation and proven interval (Bao: its proven
/// outcome).
#[pyclass(name = "TurnAnalysis", module = "kalah", frozen, get_all)]
#[derive(Clone, Debug)]
pub struct PyTurnAnalysis {
    /// The turn in the notation.
    pub turn: String,
    /// Its evaluation from South (heuristic unless `exact`; Bao: points, 100 a seed).
    pub value: i32,
    /// Its evaluation for the player to move at the root.
    pub value_for_mover: i32,
    /// True when what the turn gives is proved: the sowing games' interval has closed
    /// (`value` is exact), Bao's outcome is proven.
    pub exact: bool,
    /// The proven interval from South; None for Bao, which proves outcomes.
    pub lower: Option<i32>,
    /// See `lower`.
    pub upper: Option<i32>,
    /// The depth behind the evaluation, in sowings (Bao: moves).
    pub depth: u8,
    /// What is proven of the turn for the player to move at the root: `win`, `loss`,
    /// `draw`, or None while it is not.
    pub result: Option<String>,
    /// Bao: a proven outcome comes within this many moves of both players; None otherwise.
    pub within_moves: Option<u32>,
}

/// What an interval from the mover's view proves of the result: `win` above 0, `loss`
/// below, `draw` when it is exactly 0, else nothing.
pub fn result_of_interval(lower: i32, upper: i32) -> Option<String> {
    let word = if lower > 0 {
        "win"
    } else if upper < 0 {
        "loss"
    } else if (lower, upper) == (0, 0) {
        "draw"
    } else {
        return None;
    };
    Some(word.to_string())
}

#[pymethods]
impl PyTurnAnalysis {
    fn __repr__(&self) -> String {
        format!(
            "TurnAnalysis(turn={:?}, value={}, lower={}, upper={}, result={}, depth={})",
            self.turn,
            self.value,
            py_int(self.lower),
            py_int(self.upper),
            py_str(self.result.as_deref()),
            self.depth
        )
    }
}

/// What an analysis within limits knows: an evaluation inside the proven interval that
/// holds the exact value (exact once they meet), the best turn and line, every root turn.
/// Bao's analysis proves outcomes (a forced win or loss), not intervals.
#[pyclass(name = "Analysis", module = "kalah", frozen, get_all)]
#[derive(Clone)]
pub struct PyAnalysis {
    /// The position analysed.
    pub position: PyPosition,
    /// The evaluation from South: heuristic unless `exact`, always within the interval
    /// (Bao: points, 100 a seed; a proven win or loss scores ±(1000000 - moves)).
    pub value: i32,
    /// The evaluation for the player to move.
    pub value_for_mover: i32,
    /// The player to move.
    pub side_to_move: PySide,
    /// The best turn found; None when the game is over.
    pub best_turn: Option<String>,
    /// The best line (to the end of the game, replaying to the value, once exact).
    pub line: Vec<String>,
    /// True when the proven interval has closed (Bao: the outcome is proven).
    pub exact: bool,
    /// The proven interval from South: the exact value lies in `[lower, upper]`; None for
    /// Bao, which proves outcomes.
    pub lower: Option<i32>,
    /// See `lower`.
    pub upper: Option<i32>,
    /// The deepest completed depth-limited search, in sowings (Bao: moves).
    pub depth: u8,
    /// Every root turn, best first.
    pub turns: Vec<PyTurnAnalysis>,
    /// Nodes searched by every thread.
    pub nodes: u64,
    /// Wall time in seconds.
    pub seconds: f64,
    /// What is proven of the result for the player to move: `win`, `loss`, `draw`, or
    /// None while it is not (Bao never proves a draw within limits).
    pub result: Option<String>,
    /// Bao: a proven outcome comes within this many moves of both players; None otherwise.
    pub within_moves: Option<u32>,
}

#[pymethods]
impl PyAnalysis {
    fn __repr__(&self) -> String {
        format!(
            "Analysis(value={}, exact={}, lower={}, upper={}, result={}, best_turn={:?}, \
             depth={})",
            self.value,
            if self.exact { "True" } else { "False" },
            py_int(self.lower),
            py_int(self.upper),
            py_str(self.result.as_deref()),
            self.best_turn.as_deref().unwrap_or(""),
            self.depth
        )
    }
}

/// A turn of either kind's analysis as the notation writes it: a sowing game's turn on
/// its board of `houses` houses a side, Bao's move as it is.
pub trait Written: Move {
    /// The turn in the notation.
    fn written(&self, houses: usize) -> String;
}

impl Written for Turn {
    fn written(&self, houses: usize) -> String {
        self.notation(houses)
    }
}

impl Written for BaoMove {
    fn written(&self, _: usize) -> String {
        self.to_string()
    }
}

/// What a proof says, for the player to move at the root (`side`): the interval from
/// South (None for Bao's outcomes), the result in words and, for Bao, the moves it comes
/// within.
type ProofFields = (Option<i32>, Option<i32>, Option<String>, Option<u32>);

/// [`ProofFields`] of `proof`, the proof for `side`.
fn proof_fields(proof: Proven, side: Side) -> ProofFields {
    match proof {
        Proven::Interval { lower, upper } => {
            let (l, u) = interval_from_south(side, lower, upper);
            (Some(l), Some(u), result_of_interval(lower, upper), None)
        }
        Proven::Outcome(o) => {
            let (result, within_moves) = proven(o);
            (None, None, result, within_moves)
        }
    }
}

impl PyTurnAnalysis {
    /// One root turn of an analysis whose root has `side` to move, on a board of
    /// `houses` houses a side (Bao: any).
    fn of<M: Written>(t: &RootTurn<M>, side: Side, houses: usize) -> PyTurnAnalysis {
        let (lower, upper, result, within_moves) = proof_fields(t.proof(), side);
        PyTurnAnalysis {
            turn: t.turn.written(houses),
            value: side.sign() * t.eval,
            value_for_mover: t.eval,
            exact: t.is_exact(),
            lower,
            upper,
            depth: t.depth,
            result,
            within_moves,
        }
    }
}

impl PyAnalysis {
    /// The analysis `a` of `position`, of either kind: the evaluation (Bao: in points),
    /// what is proven (an interval, or Bao's outcome), the best turn, line and every turn.
    pub fn of<M: Written>(position: &PyPosition, a: &Analysis<M>) -> PyAnalysis {
        let h = position.houses_per_side();
        let (lower, upper, result, within_moves) = proof_fields(a.proof(), a.side);
        PyAnalysis {
            position: position.clone(),
            value: a.eval_from_south(),
            value_for_mover: a.eval,
            side_to_move: a.side.into(),
            best_turn: a.best_turn().map(|t| t.written(h)),
            line: a.pv.iter().map(|t| t.written(h)).collect(),
            exact: a.is_exact(),
            lower,
            upper,
            depth: a.depth,
            turns: a
                .turns
                .iter()
                .map(|t| PyTurnAnalysis::of(t, a.side, h))
                .collect(),
            nodes: a.nodes,
            seconds: a.elapsed.as_secs_f64(),
            result,
            within_moves,
        }
    }
}

/// A proven outcome of Bao's analysis: `win` or `loss` and the moves it comes within.
fn proven(o: Option<Outcome>) -> (Option<String>, Option<u32>) {
    match o {
        Some(Outcome::Won { moves }) => (Some("win".to_string()), Some(moves)),
        Some(Outcome::Lost { moves }) => (Some("loss".to_string()), Some(moves)),
        None => (None, None),
    }
}

/// An optional int as Python writes it.
fn py_int(v: Option<i32>) -> String {
    v.map_or("None".to_string(), |v| v.to_string())
}

/// An optional string as Python writes it.
fn py_str(v: Option<&str>) -> String {
    v.map_or("None".to_string(), |v| format!("{v:?}"))
}

/// The limits of an analysis from its keyword arguments.
pub fn limits(time: Option<f64>, nodes: Option<u64>, depth: Option<u8>) -> PyResult<Limits> {
    let time = match time {
        Some(t) if !(t > 0.0 && t <= 1e6) => {
            return Err(error(
                Kind::Rules,
                format!("time must be more than 0 and at most 1000000 seconds, not {t}"),
            ))
        }
        t => t.map(Duration::from_secs_f64),
    };
    Ok(Limits { time, nodes, depth })
}

/// The solver of an analysis: the solve's, with no endgame database built unless one is
/// asked for (a build could take longer than the analysis; a file already there that
/// loads in a fraction of the time is read, [`Limits::file_bytes_cap`]) and, under a time
/// limit, a table of at most [`Limits::table_mb_cap`]; as `kalah analyse` makes it.
fn analysis_solver(
    settings: &Settings,
    game: &Game,
    pos: &Position,
    limits: &Limits,
    cancel: &AtomicBool,
) -> Result<Solver, Failure> {
    let mut settings = settings.clone();
    let o = &mut settings.overrides;
    o.existing_only = Some(Limits::file_bytes_cap(limits.time));
    let cap = o.hash_mb.is_none().then(|| limits.table_mb_cap()).flatten();
    settings.solver_with(game, pos.seeds_in_houses() as usize, 1, cancel, |c| {
        if let Some(cap) = cap {
            c.hash_mb = c.hash_mb.min(cap);
        }
    })
}

/// Analyses `position` within limits; see the stub for the arguments.
#[pyfunction]
#[pyo3(signature = (position, *, time = None, nodes = None, depth = None, lines = None,
                    threads = None, hash_mb = None, egdb = None, egdb_seeds = None,
                    cache = true, progress = None))]
#[allow(clippy::too_many_arguments)]
pub fn analyse(
    py: Python<'_>,
    position: PyPosition,
    time: Option<f64>,
    nodes: Option<u64>,
    depth: Option<u8>,
    lines: Option<usize>,
    threads: Option<usize>,
    hash_mb: Option<u64>,
    egdb: Option<PathBuf>,
    egdb_seeds: Option<usize>,
    cache: bool,
    progress: Option<Py<PyAny>>,
) -> PyResult<PyAnalysis> {
    let limits = limits(time, nodes, depth)?;
    let settings = Settings::new(threads, hash_mb, egdb, egdb_seeds, cache, None)?;
    let callback = Callback::new(progress);
    if let Some(pos) = position.board.bao_position() {
        settings.refuse_for_bao("kalah.analyse")?;
        return analyse_bao(py, &position, &pos, &limits, &callback);
    }
    let (game, pos) = position.sowing("kalah.analyse")?;
    let game = game.clone();
    analyse_on(py, &position, pos, &limits, lines, &callback, |cancel| {
        analysis_solver(&settings, &game, &pos, &limits, cancel).map(Arc::new)
    })
}

/// Bao's analysis of `pos` (the position of `position`) within `limits`, as an
/// `Analysis`; the callback gets one after every completed depth.
pub fn analyse_bao(
    py: Python<'_>,
    position: &PyPosition,
    pos: &BaoPosition,
    limits: &Limits,
    callback: &Callback,
) -> PyResult<PyAnalysis> {
    let report = |a: &Analysis<BaoMove>| PyAnalysis::of(position, a);
    let a = bao::analyse(py, pos, limits, callback, report)?;
    Ok(PyAnalysis::of(position, &a))
}

/// The analysis of `pos` (the sowing position of `position`) within `limits` on the
/// solver that `solver` makes or hands over, off the interpreter; `lines` as
/// [`analyse`] takes it.
pub fn analyse_on(
    py: Python<'_>,
    position: &PyPosition,
    pos: Position,
    limits: &Limits,
    lines: Option<usize>,
    callback: &Callback,
    solver: impl FnOnce(&AtomicBool) -> Result<Arc<Solver>, Failure> + Send,
) -> PyResult<PyAnalysis> {
    let lines = lines.unwrap_or(usize::MAX).max(1);
    let analysed = interruptible(py, |cancel| -> Result<Analysis, Failure> {
        let solver = solver(cancel)?;
        let a = solver.analyse_lines(&pos, limits, lines, cancel, &mut |a| {
            callback.call(cancel, |py| {
                Ok(Bound::new(py, PyAnalysis::of(position, a))?.into_any())
            })
        })?;
        Ok(a)
    })?;
    match analysed {
        Ok(a) => Ok(PyAnalysis::of(position, &a)),
        // An analysis stopped by its flag still knows something; only a callback's
        // exception stops it early.
        Err(failure) => Err(failure.into_err(callback)),
    }
}

/// One first turn solved exactly.
#[pyclass(name = "Opening", module = "kalah", frozen, get_all)]
#[derive(Clone)]
pub struct PyOpening {
    /// The turn in the notation.
    pub turn: String,
    /// The position it leads to.
    pub position_after: PyPosition,
    /// Its exact value from South.
    pub value: i32,
    /// Its exact value for the player who makes it.
    pub value_for_mover: i32,
    /// A principal variation from the position before the turn, starting with it.
    pub line: Vec<String>,
    /// Nodes searched for it.
    pub nodes: u64,
    /// Wall time of its solve in seconds.
    pub seconds: f64,
}

impl PyOpening {
    fn of(position: &PyPosition, o: &Opening) -> PyOpening {
        let h = position.houses_per_side();
        PyOpening {
            turn: o.step.turn.notation(h),
            position_after: position.sown(o.step.after),
            value: o.value,
            value_for_mover: o.value_for_mover(),
            line: kalah_solver::line::notations(h, &o.pv),
            nodes: o.nodes,
            seconds: o.elapsed.as_secs_f64(),
        }
    }
}

impl PyOpening {
    /// Every legal move of the Bao position `pos` (that of `position`) with its exact
    /// value from a solved graph that holds it, best first for the mover (a faster win, a
    /// draw, a slower loss; equals in canonical order).
    fn of_bao(
        position: &PyPosition,
        pos: &BaoPosition,
        solved: &bao::Solved,
    ) -> PyResult<Vec<PyOpening>> {
        let graph = &solved.graph;
        let missing = || {
            error(
                Kind::Internal,
                format!("the solved game graph does not hold {pos}"),
            )
        };
        let mut moves = graph.move_values(pos).ok_or_else(missing)?;
        moves.sort_by_key(|(_, v)| std::cmp::Reverse(v.rank()));
        moves
            .iter()
            .map(|&(mv, value)| {
                let (after, _) = pos.try_play(mv).map_err(|e| bao_error(&e))?;
                let mut line = vec![mv.to_string()];
                line.extend(graph.line(&after).iter().map(|m| m.to_string()));
                Ok(PyOpening {
                    turn: mv.to_string(),
                    position_after: position.bao_at(after),
                    value: value.sign() * pos.side().sign(),
                    value_for_mover: value.sign(),
                    line,
                    nodes: graph.stats().positions,
                    seconds: solved.elapsed.as_secs_f64(),
                })
            })
            .collect()
    }
}

#[pymethods]
impl PyOpening {
    fn __repr__(&self) -> String {
        format!("Opening(turn={:?}, value={})", self.turn, self.value)
    }
}

/// The offer of the pie rule from its name.
fn offer(name: &str) -> PyResult<Offer> {
    match name.replace('_', "-").as_str() {
        "turn" => Ok(Offer::AfterTurn),
        "first-sowing" => Ok(Offer::AfterFirstSowing),
        _ => Err(error(
            Kind::Rules,
            format!("unknown offer '{name}': expected one of turn first-sowing"),
        )),
    }
}

/// Every first move of `pos` solved on a solver shared by parallel workers (as
/// `kalah openings` runs them), by `work`.
#[allow(clippy::too_many_arguments)]
fn every_first_move<T: Send>(
    py: Python<'_>,
    what: &str,
    position: &PyPosition,
    offer: Offer,
    settings: &Settings,
    callback: &Callback,
    work: impl Fn(&Solver, usize, &AtomicBool, &(dyn Fn(&Opening) + Sync)) -> Result<T, Failure>
        + Send
        + Sync,
) -> PyResult<T> {
    let (game, pos) = position.sowing(what)?;
    let game = game.clone();
    if pos.is_over() {
        return Err(analysis_error(&kalah_analysis::AnalysisError::GameOver));
    }
    let steps = first_steps(&game, &pos, offer).len();
    let done = interruptible(py, |cancel| -> Result<T, Failure> {
        let (solver, workers) =
            settings.parallel_solver(&game, pos.seeds_in_houses() as usize, steps, cancel)?;
        work(&solver, workers, cancel, &|o: &Opening| {
            callback.call(cancel, |py| {
                Ok(Bound::new(py, PyOpening::of(position, o))?.into_any())
            })
        })
    })?;
    done.map_err(|f| f.into_err(callback))
}

/// Every first turn of the mover solved; see the stub for the arguments.
#[pyfunction]
#[pyo3(signature = (position, *, threads = None, hash_mb = None, egdb = None,
                    egdb_seeds = None, cache = true, deepening = None, memory_mb = None,
                    progress = None))]
#[allow(clippy::too_many_arguments)]
pub fn openings(
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
) -> PyResult<Vec<PyOpening>> {
    let settings = Settings::new(threads, hash_mb, egdb, egdb_seeds, cache, deepening)?;
    if let Some(pos) = position.board.bao_position() {
        // Bao's graph solves every move at once; its progress is the solve's.
        settings.refuse_for_bao("kalah.openings")?;
        if pos.is_over() || pos.legal().is_empty() {
            return Err(analysis_error(&kalah_analysis::AnalysisError::GameOver));
        }
        let callback = Callback::new(progress);
        let limit = bao::memory_limit(memory_mb)?;
        let solved = bao::solve(py, &pos, limit, &callback, PyProgress::of_graph)?;
        return PyOpening::of_bao(&position, &pos, &solved);
    }
    if memory_mb.is_some() {
        return Err(error(
            Kind::Rules,
            "memory_mb is the memory of Bao's game graph: the sowing games take hash_mb",
        ));
    }
    let callback = Callback::new(progress);
    let (_, pos) = position.sowing("kalah.openings")?;
    let list = every_first_move(
        py,
        "kalah.openings",
        &position,
        Offer::AfterTurn,
        &settings,
        &callback,
        |solver, workers, cancel, on_done| {
            solve_openings(solver, &pos, Offer::AfterTurn, workers, cancel, on_done)
                .map_err(Failure::from)
        },
    )?;
    Ok(list.iter().map(|o| PyOpening::of(&position, o)).collect())
}

/// One first move under the pie rule, and the second player's choice after it.
#[pyclass(name = "PieChoice", module = "kalah", frozen, get_all)]
#[derive(Clone)]
pub struct PyPieChoice {
    /// The move, solved exactly (its value without the rule).
    pub opening: PyOpening,
    /// True when the second player takes over the first player's side.
    pub swap: bool,
    /// The first player's final margin with the rule: `-abs(opening.value_for_mover)`.
    pub first_player: i32,
    /// How much more the second player gets by this choice than by the other.
    pub advantage: i32,
}

#[pymethods]
impl PyPieChoice {
    fn __repr__(&self) -> String {
        format!(
            "PieChoice(turn={:?}, value={}, swap={}, first_player={})",
            self.opening.turn,
            self.opening.value,
            if self.swap { "True" } else { "False" },
            self.first_player
        )
    }
}

/// The pie rule applied to every first move.
#[pyclass(name = "PieAnalysis", module = "kalah", frozen, get_all)]
#[derive(Clone)]
pub struct PyPieAnalysis {
    /// `turn` or `first-sowing`: when the offer comes.
    pub offer: String,
    /// The value of the game with the rule, for the first player.
    pub value: i32,
    /// Every first move, best first for the first player with the rule.
    pub choices: Vec<PyPieChoice>,
    /// The first player's best first move with the rule: `choices[0]`.
    pub best: PyPieChoice,
}

#[pymethods]
impl PyPieAnalysis {
    fn __repr__(&self) -> String {
        format!(
            "PieAnalysis(value={}, best={:?}, swap={})",
            self.value,
            self.best.opening.turn,
            if self.best.swap { "True" } else { "False" }
        )
    }
}

/// The pie rule for the first moves of `position`; see the stub for the arguments.
#[pyfunction]
#[pyo3(signature = (position, *, offer = "turn", threads = None, hash_mb = None, egdb = None,
                    egdb_seeds = None, cache = true, deepening = None, progress = None))]
#[allow(clippy::too_many_arguments)]
pub fn pie(
    py: Python<'_>,
    position: PyPosition,
    offer: &str,
    threads: Option<usize>,
    hash_mb: Option<u64>,
    egdb: Option<PathBuf>,
    egdb_seeds: Option<usize>,
    cache: bool,
    deepening: Option<u8>,
    progress: Option<Py<PyAny>>,
) -> PyResult<PyPieAnalysis> {
    let offer = self::offer(offer)?;
    let settings = Settings::new(threads, hash_mb, egdb, egdb_seeds, cache, deepening)?;
    let callback = Callback::new(progress);
    let (_, pos) = position.sowing("kalah.pie")?;
    let analysis = every_first_move(
        py,
        "kalah.pie",
        &position,
        offer,
        &settings,
        &callback,
        |solver, workers, cancel, on_done| {
            solve_pie(solver, &pos, offer, workers, cancel, on_done).map_err(Failure::from)
        },
    )?;
    let choices: Vec<PyPieChoice> = analysis
        .choices
        .iter()
        .map(|c| PyPieChoice {
            opening: PyOpening::of(&position, &c.opening),
            swap: c.decision.swap,
            first_player: c.decision.first_player,
            advantage: c.decision.advantage,
        })
        .collect();
    Ok(PyPieAnalysis {
        offer: analysis.offer.name().to_string(),
        value: analysis.value,
        best: choices[0].clone(),
        choices,
    })
}

/// A position's exact value read from an endgame database file.
#[pyclass(name = "Probe", module = "kalah", frozen, get_all)]
#[derive(Clone)]
pub struct PyProbe {
    /// The position probed (settled: a game over is scored).
    pub position: PyPosition,
    /// Its exact value from South.
    pub value: i32,
    /// Its exact value for the player to move.
    pub value_for_mover: i32,
    /// Each legal sowing in the notation with the exact value from South after it.
    pub moves: Vec<(String, i32)>,
    /// The best sowings for the player to move, in the notation.
    pub best: Vec<String>,
}

#[pymethods]
impl PyProbe {
    fn __repr__(&self) -> String {
        format!("Probe(value={}, best={:?})", self.value, self.best)
    }
}

/// The value of `position` in the database file `egdb`; see the stub.
#[pyfunction]
pub fn probe(py: Python<'_>, position: PyPosition, egdb: PathBuf) -> PyResult<PyProbe> {
    let (_, pos) = position.sowing("kalah.probe")?;
    let info = egdb::file::read_info(&egdb).map_err(|e| error(Kind::Database, e.to_string()))?;
    let (mine, theirs) = (position.rules.rules(), &info.rules);
    if (
        mine.family,
        mine.capture,
        mine.end,
        mine.leftovers,
        mine.grand_slam,
    ) != (
        theirs.family,
        theirs.capture,
        theirs.end,
        theirs.leftovers,
        theirs.grand_slam,
    ) || mine.early_stop
    {
        return Err(error(
            Kind::Mismatch,
            format!(
                "{} holds positions of {}, not of {mine}",
                egdb.display(),
                egdb::describe(theirs)
            ),
        ));
    }
    let path = egdb.clone();
    let probed = py.detach(move || egdb::probe_file(&path, pos));
    let probed = probed.map_err(|e| match e {
        ProbeError::Egdb(e) => error(Kind::Database, e.to_string()),
        ProbeError::Rules(e) => rules_error(&e),
        ProbeError::Position(e) => position_error(&e),
        ProbeError::NotInDatabase {
            houses,
            seeds,
            db_houses,
            max_seeds,
        } => error(
            Kind::Mismatch,
            format!(
                "{} holds positions of {db_houses} houses per side with at most {max_seeds} \
                 seeds in the houses; the position has {houses} houses per side and {seeds} \
                 seeds in the houses",
                egdb.display()
            ),
        ),
    })?;
    let best = probed
        .sowings
        .iter()
        .filter(|s| probed.is_best(s))
        .map(|s| s.name())
        .collect();
    Ok(PyProbe {
        position: position.sown(probed.position),
        value: probed.value,
        value_for_mover: probed.value_for_mover(),
        moves: probed.sowings.iter().map(|s| (s.name(), s.value)).collect(),
        best,
    })
}
