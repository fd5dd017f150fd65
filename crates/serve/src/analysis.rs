//! The background analyses behind `/api/analyse`: every legal turn of a position solved
//! exactly on a shared solver (several turns at once, as `kalah openings` does), each
//! solve's proved bounds and value sent as server-sent events while it runs.
//!
//! Each analysis runs on threads of its own (the solver is synchronous and CPU-bound;
//! the async runtime only moves events). Its cancel flag is raised when the client goes
//! away (the event stream is dropped), when more than `max` analyses would run (the
//! oldest goes), and when the server stops. Solvers are kept per rule set, so their
//! transposition tables and endgame databases serve every position of a game. Making a
//! solver (building its endgame database) and solving take the slots of the limit
//! (module `work`): a build is shared by the analyses of its rules and cancelled when
//! none of them waits for it any more.
//!
//! A position that does not solve quickly (too many seeds in the houses, as
//! [`kalah_analysis::play::solves_quickly`] judges it for the engine of `kalah play`) is
//! given the anytime analysis instead, within the request's time budget: each turn's
//! evaluation, depth and proven interval as they improve (`estimate` events), exact
//! where the analysis proves the value in time. It builds no endgame database (a build
//! takes longer than the analysis) but reads a file already there, and its solvers are
//! kept per rule set too, so the file is loaded once and the table serves the next
//! position.

use std::collections::VecDeque;
use std::convert::Infallible;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use axum::response::sse::Event;
use kalah_analysis::{analyse, first_steps, Analysis, AnalysisError, Offer, Opening, Step, Watch};
use kalah_core::{Game, Position, Rules};
use kalah_solver::line::notations;
use kalah_solver::{Config, Database, Limits, Progress, Solver};
use serde_json::{json, Value};
use tokio::sync::mpsc::{unbounded_channel, UnboundedReceiver, UnboundedSender};

use super::work::{Slot, Stopped, Work};
use super::Configure;
use kalah_analysis::game::SowingLine;
use kalah_analysis::run::progress::phase_name;

/// Why an analysis stopped before its end: the client never sees it unless a newer
/// analysis took its place.
pub const CANCELLED: &str = "the analysis was cancelled: a newer one took its place";

/// Solvers kept at once (one per rule set): each holds a transposition table.
const SOLVERS_KEPT: usize = 2;

/// A solver kept for a rule set, and how many turns it solves at once.
type Kept = (Rules, Arc<Solver>, usize);

/// What the build of a solver gives the analyses waiting for it: the solver and how
/// many turns it solves at once, or why it could not be made.
type Built = Result<(Arc<Solver>, usize), String>;

/// The analyses running and the solvers they share.
pub struct Analyses {
    configure: Arc<Configure>,
    configure_analysis: Arc<Configure>,
    solvers: Mutex<VecDeque<Kept>>,
    /// The solvers of the anytime analyses, kept as `solvers` are (`workers` unused).
    timed: Mutex<VecDeque<Kept>>,
    /// The live analyses, the solvers being made for them, and the slots of the limit.
    work: Arc<Work<Rules, Built>>,
    stopping: AtomicBool,
}

/// The events of one analysis, as the response body streams them. Dropping it (the
/// client closed the connection) cancels the analysis.
pub struct Events {
    rx: UnboundedReceiver<Event>,
    cancel: Arc<AtomicBool>,
}

impl futures_core::Stream for Events {
    type Item = Result<Event, Infallible>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        self.rx.poll_recv(cx).map(|event| event.map(Ok))
    }
}

impl Drop for Events {
    fn drop(&mut self) {
        self.cancel.store(true, Relaxed);
    }
}

/// Where an analysis sends its events; a send fails once the client is gone.
pub struct Sink {
    tx: UnboundedSender<Event>,
    cancel: Arc<AtomicBool>,
}

impl Sink {
    /// Sends the event `name` with `data` as its JSON line; a client gone away cancels
    /// the analysis.
    pub fn send(&self, name: &str, data: Value) {
        let event = Event::default().event(name).data(data.to_string());
        if self.tx.send(event).is_err() {
            self.cancel.store(true, Relaxed);
        }
    }

    /// Sends a `status` event: what the analysis is doing or waiting for.
    pub fn status(&self, message: &str) {
        self.send("status", json!({ "message": message }));
    }

    /// The analysis's cancel flag, for the solver to poll: raised when the client goes
    /// away, a newer analysis takes its place, or the server stops.
    pub fn cancel(&self) -> &AtomicBool {
        &self.cancel
    }
}

impl Analyses {
    /// No analysis yet; at most `max` at a time (builds and solves taking the same
    /// slots), solvers configured by `configure`, those of the anytime analyses by
    /// `configure_analysis`.
    pub fn new(
        configure: Arc<Configure>,
        configure_analysis: Arc<Configure>,
        max: usize,
    ) -> Analyses {
        Analyses {
            configure,
            configure_analysis,
            solvers: Mutex::new(VecDeque::new()),
            timed: Mutex::new(VecDeque::new()),
            work: Arc::new(Work::new(max)),
            stopping: AtomicBool::new(false),
        }
    }

    /// Starts analysing `setup`'s position on a thread of its own; the oldest analysis
    /// is cancelled if `max` are already running.
    pub fn start(self: &Arc<Self>, setup: SowingLine, budget: Duration) -> Result<Events, String> {
        let me = self.clone();
        self.spawn(move |sink| me.analyse(&setup, budget, sink))
    }

    /// Runs the analysis `run` on a thread of its own, its events streamed to the client:
    /// it counts as a live analysis of the limit (the oldest is cancelled if `max` are
    /// already running), its error, if any, is sent as an `error` event. `run` takes a
    /// slot ([`Analyses::slot`]) before it solves, and polls [`Sink::cancel`].
    pub fn spawn<F>(self: &Arc<Self>, run: F) -> Result<Events, String>
    where
        F: FnOnce(&Sink) -> Result<(), String> + Send + 'static,
    {
        let cancel = Arc::new(AtomicBool::new(false));
        let id = self.work.admit(cancel.clone());
        let (tx, rx) = unbounded_channel();
        let sink = Sink {
            tx,
            cancel: cancel.clone(),
        };
        let me = self.clone();
        std::thread::Builder::new()
            .name(format!("analysis-{id}"))
            .spawn(move || {
                if let Err(e) = run(&sink) {
                    let error = match me.stopping.load(Relaxed) {
                        true => "the server is stopping".to_string(),
                        false => e,
                    };
                    sink.send("error", json!({ "error": error }));
                }
                me.work.leave(id);
            })
            .map_err(|e| {
                self.work.leave(id);
                format!("could not start the analysis thread: {e}")
            })?;
        Ok(Events { rx, cancel })
    }

    /// A slot of the limit to solve in, once one is free (the client is told while it
    /// waits); given back when dropped. An error when the analysis is cancelled first.
    pub fn slot(&self, sink: &Sink) -> Result<Slot<'_, Rules, Built>, String> {
        self.work
            .slot(&sink.cancel, &mut |m| sink.status(m))
            .map_err(stopped)
    }

    /// Cancels every analysis and build, now and from now on (the server is stopping).
    pub fn stop_all(&self) {
        self.stopping.store(true, Relaxed);
        self.work.stop_all();
    }

    /// Waits at most `timeout` for the builds in progress to end (after
    /// [`Analyses::stop_all`]: a build cancelled removes what it wrote); true if they did.
    pub fn wait_builds(&self, timeout: Duration) -> bool {
        self.work.wait_builds(timeout)
    }

    /// The answer of `/api/work`: the limit, the live analyses, the slots taken, and the
    /// builds in progress (their rules, the analyses waiting for each, and whether it
    /// was cancelled and is stopping).
    pub fn work_json(&self) -> Value {
        let now = self.work.snapshot();
        let builds: Vec<Value> = now
            .builds
            .iter()
            .map(|(rules, waiting, cancelled)| {
                json!({ "rules": rules.to_string(), "waiting": waiting, "cancelled": cancelled })
            })
            .collect();
        json!({
            "max_analyses": now.max,
            "analyses": now.analyses,
            "taken": now.taken,
            "solving": now.solving,
            "builds": builds,
        })
    }

    /// The solver for `game`'s rules: kept from an earlier analysis, else made (loading
    /// or building its endgame database, which the client is told about) on a thread of
    /// its own that takes a slot of the limit, shared with the other analyses of these
    /// rules and cancelled when none of them waits for it any more.
    ///
    /// With it, how many turns to solve at once. As in `kalah openings`, each turn gets
    /// one search thread and the turns share the cores: on every board this beats solving
    /// them one after the other with every thread on each. Where positions repeat, one
    /// retrograde analysis (with every thread) solves them all.
    fn solver(self: &Arc<Self>, game: &Game, sink: &Sink) -> Result<(Arc<Solver>, usize), String> {
        let rules = *game.rules();
        if let Some(solver) = self.kept(&rules) {
            return Ok(solver);
        }
        // The database `kalah openings` would use from the start: the one the first
        // turns' solves want, and enough for every later position of the game.
        let solves = first_steps(game, &game.start(), Offer::AfterTurn).len();
        let mut config = (self.configure)(game, game.capacity(), solves.max(1))?;
        let workers = match game.rules().family.is_cyclic() {
            true => 1,
            false => std::mem::replace(&mut config.threads, 1).max(1),
        };
        sink.status(&preparing(&config.database));
        let (me, game) = (self.clone(), game.clone());
        let make = move |cancel: &AtomicBool| -> Built {
            // An earlier build of these rules, cancelled but finished, may have kept one.
            if let Some(solver) = me.kept(&rules) {
                return Ok(solver);
            }
            let solver = Arc::new(make_solver(game, config, cancel)?);
            keep(&me.solvers, (rules, solver.clone(), workers));
            Ok((solver, workers))
        };
        self.work
            .build(&rules, &sink.cancel, &mut |m| sink.status(m), make)
            .map_err(stopped)?
    }

    /// The solver of the anytime analyses of `game`'s rules, every thread on it: kept
    /// from an earlier one, else made (the client told which database file it reads, if
    /// any). It builds no endgame database, which would take longer than the analysis,
    /// but reads a file already there ([`Options::configure_analysis`]).
    ///
    /// [`Options::configure_analysis`]: crate::Options::configure_analysis
    fn timed_solver(&self, game: &Game, sink: &Sink) -> Result<Arc<Solver>, String> {
        let rules = *game.rules();
        if let Some((solver, _)) = kept(&self.timed, &rules) {
            return Ok(solver);
        }
        let config = (self.configure_analysis)(game, game.capacity(), 1)?;
        if matches!(config.database, Database::File(_)) {
            sink.status(&preparing(&config.database));
        }
        let solver = Arc::new(make_solver(game.clone(), config, &sink.cancel)?);
        // Another analysis of these rules may have made one meanwhile: either serves.
        keep(&self.timed, (rules, solver.clone(), 1));
        Ok(solver)
    }

    /// The solver kept for `rules`, marked as the most recently used.
    fn kept(&self, rules: &Rules) -> Option<(Arc<Solver>, usize)> {
        kept(&self.solvers, rules)
    }

    /// Solves every turn of the position, sending the events of docs/serve.md; a
    /// position that does not solve quickly gets the anytime analysis within `budget`.
    fn analyse(
        self: &Arc<Self>,
        setup: &SowingLine,
        budget: Duration,
        sink: &Sink,
    ) -> Result<(), String> {
        let (game, pos) = (&setup.game, &setup.pos);
        let steps = first_steps(game, pos, Offer::AfterTurn);
        sink.send("turns", turns_event(game.houses(), pos, &steps));
        let timer = Instant::now();
        if steps.is_empty() {
            sink.send("done", over_event(pos));
            return Ok(());
        }
        if !kalah_analysis::play::solves_quickly(game, pos) {
            let solver = self.timed_solver(game, sink)?;
            let _slot = self.slot(sink)?;
            return estimate_turns(&solver, setup, &steps, budget, sink);
        }
        let (solver, workers) = self.solver(game, sink)?;
        let _slot = self.slot(sink)?;
        let analysis = solve_turns(&solver, pos, &steps, workers, sink)?;
        sink.send("done", done_event(setup, &steps, &analysis, timer));
        Ok(())
    }
}

/// Every turn of `pos` solved by the library's analysis, `workers` at a time in bin
/// order, its events sent as it goes: the phases of a retrograde analysis of the game
/// graph first, then each turn's bounds when they change, then its value and line.
fn solve_turns(
    solver: &Solver,
    pos: &Position,
    steps: &[Step],
    workers: usize,
    sink: &Sink,
) -> Result<Analysis, String> {
    let h = solver.game().houses();
    let mut last_phase = None;
    let mut graph = |p: &Progress| {
        if last_phase != Some(p.phase) {
            last_phase = Some(p.phase);
            sink.status(&phase_name(p.phase));
        }
    };
    let bounds = |i: usize, lower: i32, upper: i32, p: &Progress| {
        sink.send(
            "bound",
            json!({
                "index": i, "lower": lower, "upper": upper,
                "nodes": p.nodes, "seconds": p.elapsed.as_secs_f64(),
            }),
        );
    };
    let value = |i: usize, o: &Opening| {
        sink.send(
            "value",
            json!({
                "index": i,
                "turn": o.step.turn.notation(h),
                "value": o.value,
                "value_for_mover": o.value_for_mover(),
                "pv": notations(h, &o.pv),
                "nodes": o.nodes,
                "seconds": o.elapsed.as_secs_f64(),
            }),
        );
    };
    let watch = Watch {
        graph: Some(&mut graph),
        bounds: &bounds,
        value: &value,
    };
    match analyse(solver, pos, steps, workers, &sink.cancel, watch) {
        Ok(analysis) => Ok(analysis),
        Err(AnalysisError::Cancelled) => Err(CANCELLED.to_string()),
        Err(e) => Err(e.to_string()),
    }
}

/// The time budget of an analysis when the request gives none (the `time` parameter).
pub const DEFAULT_BUDGET: Duration = Duration::from_secs(10);

/// The longest budget a request may ask for.
const MAX_BUDGET_SECONDS: f64 = 3600.0;

/// The `time` parameter of `/api/analyse`: the seconds an analysis of a large position
/// may take (more than 0, at most an hour); absent or empty, [`DEFAULT_BUDGET`].
pub fn parse_budget(text: Option<&str>) -> Result<Duration, String> {
    let Some(text) = text.map(str::trim).filter(|t| !t.is_empty()) else {
        return Ok(DEFAULT_BUDGET);
    };
    match text.parse::<f64>() {
        Ok(s) if s.is_finite() && s > 0.0 && s <= MAX_BUDGET_SECONDS => {
            Ok(Duration::from_secs_f64(s))
        }
        _ => Err(format!(
            "time is the seconds a large position is analysed for, more than 0 and at most \
             {MAX_BUDGET_SECONDS}, not `{text}`"
        )),
    }
}

/// The anytime analysis of a position that does not solve quickly, within `budget`:
/// every report of [`Solver::analyse`] sent as an `estimate` event (each turn's
/// evaluation, depth and proven interval), then `done` with the best turn, exact where
/// the analysis proved the value (its line replayed), else heuristic.
fn estimate_turns(
    solver: &Solver,
    setup: &SowingLine,
    steps: &[Step],
    budget: Duration,
    sink: &Sink,
) -> Result<(), String> {
    let (h, pos) = (setup.game.houses(), &setup.pos);
    sink.status(&format!(
        "analysing within {} s (too large to solve exactly at once): evaluations and \
         proven intervals as they improve",
        budget.as_secs_f64()
    ));
    // The opening book's entry, where the compiled-in book of the rules holds the
    // position: an event of its own at once, and in `done`, beside the analysis.
    let book = kalah_analysis::book::Book::shipped(setup.game.rules())
        .ok()
        .flatten()
        .and_then(|b| {
            let e = b.lookup(pos)?;
            Some(kalah_analysis::book::report::entry_json(h, e, b.origin()))
        });
    if let Some(b) = &book {
        sink.send("book", b.clone());
    }
    let limits = Limits::time(budget);
    let file = kalah_analysis::analyse::report::egdb_file(solver);
    let a = solver
        .analyse(pos, &limits, &sink.cancel, &mut |a| {
            sink.send(
                "estimate",
                estimate_event(h, steps, a, budget, file.as_deref()),
            )
        })
        .map_err(|e| e.to_string())?;
    if sink.cancel.load(Relaxed) {
        return Err(CANCELLED.to_string());
    }
    if a.is_exact() {
        kalah_solver::line::replay(&setup.game, pos, &a.pv, a.bounds_from_south().0)
            .map_err(|e| format!("internal error, please report it: {e}"))?;
    }
    let mut done = estimate_event(h, steps, &a, budget, file.as_deref());
    let (lo, _) = a.bounds_from_south();
    let sign = pos.side_to_move().sign();
    done["over"] = json!(false);
    done["value"] = json!(a.is_exact().then_some(lo));
    done["value_for_mover"] = json!(a.is_exact().then_some(sign * lo));
    done["pie"] = Value::Null;
    done["book"] = book.unwrap_or(Value::Null);
    sink.send("done", done);
    Ok(())
}

/// One report of an anytime analysis as an event: the depth, the evaluation (from South,
/// and `eval_mover` for the side to move) and the proven interval (from South), whether it is exact, the best turn (its `index` among
/// `steps`) and line, the work, the budget, the endgame database file read (`egdb_file`,
/// null for none), and every turn (`turns`: index, turn, eval, eval_mover, depth,
/// lower, upper, exact), best first.
fn estimate_event(
    h: usize,
    steps: &[Step],
    a: &kalah_solver::Analysis,
    budget: Duration,
    egdb_file: Option<&str>,
) -> Value {
    let index = |t: &kalah_solver::Turn| steps.iter().position(|s| s.turn == *t);
    let turns: Vec<Value> = a
        .turns
        .iter()
        .map(|t| {
            let (lo, hi) = t.bounds_from_south();
            json!({
                "index": index(&t.turn), "turn": t.turn.notation(h),
                "eval": t.eval_from_south(), "eval_mover": t.eval, "depth": t.depth,
                "lower": lo, "upper": hi, "exact": t.is_exact(),
            })
        })
        .collect();
    let (lo, hi) = a.bounds_from_south();
    json!({
        "exact": a.is_exact(),
        "depth": a.depth,
        "eval": a.eval_from_south(),
        "eval_mover": a.eval,
        "lower": lo,
        "upper": hi,
        "best": a.best_turn().and_then(index),
        "best_turn": a.best_turn().map(|t| t.notation(h)),
        "pv": notations(h, &a.pv),
        "turns": turns,
        "nodes": a.nodes,
        "seconds": a.elapsed.as_secs_f64(),
        "budget": budget.as_secs_f64(),
        "egdb_file": egdb_file,
    })
}

/// The `turns` event: the position and every turn of its mover, in bin order.
fn turns_event(h: usize, pos: &Position, steps: &[Step]) -> Value {
    let turns: Vec<Value> = steps
        .iter()
        .enumerate()
        .map(|(i, s)| json!({ "index": i, "turn": s.turn.notation(h), "after": s.after.to_string() }))
        .collect();
    json!({
        "position": pos.to_string(),
        "side_to_move": pos.side_to_move().letter().to_string(),
        "turns": turns,
    })
}

/// The `done` event of a position where the game is over.
fn over_event(pos: &Position) -> Value {
    let value = pos.score();
    json!({
        "over": true, "value": value,
        "value_for_mover": pos.side_to_move().sign() * value,
        "best": null, "best_turn": null, "pv": [], "pie": null,
        "nodes": 0, "seconds": 0.0,
    })
}

/// The `done` event: the best turn, its line, the pie rule where it applies, the work.
fn done_event(setup: &SowingLine, steps: &[Step], analysis: &Analysis, timer: Instant) -> Value {
    let (h, pos) = (setup.game.houses(), &setup.pos);
    let best = analysis.best();
    let sign = pos.side_to_move().sign();
    json!({
        "over": false,
        "value": best.value,
        "value_for_mover": sign * best.value,
        "best": index_of(steps, best),
        "best_turn": best.step.turn.notation(h),
        "pv": notations(h, &best.pv),
        "pie": pie_event(setup, steps, analysis),
        "nodes": analysis.nodes(),
        "seconds": timer.elapsed().as_secs_f64(),
    })
}

/// The pie rule in the `done` event: South's choice at the start, North's decision after
/// South's first turn, else null.
fn pie_event(setup: &SowingLine, steps: &[Step], analysis: &Analysis) -> Value {
    let h = setup.game.houses();
    if setup.at_start() {
        let pie = kalah_analysis::pie::apply(analysis.openings.clone(), Offer::AfterTurn);
        let choices: Vec<Value> = pie
            .choices
            .iter()
            .map(|c| {
                json!({
                    "index": index_of(steps, &c.opening),
                    "turn": c.opening.step.turn.notation(h),
                    "value": c.opening.value,
                    "swap": c.decision.swap,
                    "first_player": c.decision.first_player,
                })
            })
            .collect();
        json!({
            "kind": "choose",
            "turns": choices,
            "best": index_of(steps, &pie.best().opening),
            "value": pie.value,
        })
    } else if setup.after_first_turn() {
        let value = analysis.best().value;
        let d = kalah_analysis::decide(value);
        json!({
            "kind": "decide", "value": value, "swap": d.swap,
            "first_player": d.first_player,
        })
    } else {
        Value::Null
    }
}

/// Where a solved turn stands among `steps` (its index in the events).
fn index_of(steps: &[Step], o: &Opening) -> Option<usize> {
    steps.iter().position(|s| *s == o.step)
}

/// What the client is told while a solver is made: which endgame database is loaded or
/// built.
fn preparing(database: &Database) -> String {
    match database {
        Database::File(path)
        | Database::BestIn { dir: path, .. }
        | Database::Cached {
            file: Some(path), ..
        } => format!("loading the endgame database {}", path.display()),
        Database::Cached { seeds, cache, .. } => format!(
            "building the endgame database of {seeds} seeds (once: it is kept in {} for later runs)",
            cache.dir().display()
        ),
        Database::Build(k) if *k > 0 => format!("building an endgame database of {k} seeds"),
        _ => "preparing the solver".to_string(),
    }
}

/// The solver for `game` with `config`, its database built or loaded; `cancel` raised
/// (no analysis wants it any more, or the server stops) ends a build early, leaving no
/// file behind.
fn make_solver(game: Game, config: Config, cancel: &AtomicBool) -> Result<Solver, String> {
    Solver::new_cancellable(game, config, cancel).map_err(|e| e.to_string())
}

/// The message of an analysis that got no slot or no solver.
fn stopped(e: Stopped) -> String {
    match e {
        Stopped::Cancelled => CANCELLED.to_string(),
        Stopped::Failed(why) => why,
    }
}

/// The solver kept in `solvers` for `rules` and how many turns it solves at once, marked
/// as the most recently used.
fn kept(solvers: &Mutex<VecDeque<Kept>>, rules: &Rules) -> Option<(Arc<Solver>, usize)> {
    let mut solvers = lock(solvers);
    let i = solvers.iter().position(|(r, _, _)| r == rules)?;
    let entry = solvers.remove(i)?;
    let kept = (entry.1.clone(), entry.2);
    solvers.push_back(entry);
    Some(kept)
}

/// Keeps `entry` in `solvers` as the most recently used, in place of one of the same
/// rules, the least recently used going where [`SOLVERS_KEPT`] are already kept.
fn keep(solvers: &Mutex<VecDeque<Kept>>, entry: Kept) {
    let mut solvers = lock(solvers);
    solvers.retain(|(rules, _, _)| *rules != entry.0);
    if solvers.len() >= SOLVERS_KEPT {
        solvers.pop_front();
    }
    solvers.push_back(entry);
}

/// Locks a mutex, whether or not a thread panicked while holding it (the data is a list
/// that stays consistent).
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}
