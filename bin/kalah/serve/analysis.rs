//! The background analyses behind `/api/analyse`: every legal turn of a position solved
//! exactly on a shared solver (several turns at once, as `kalah openings` does), each
//! solve's proved bounds and value sent as server-sent events while it runs.
//!
//! Each analysis runs on threads of its own (the solver is synchronous and CPU-bound;
//! the async runtime only moves events). Its cancel flag is raised when the client goes
//! away (the event stream is dropped), when more than `max` analyses would run (the
//! oldest goes), and when the server stops. Solvers are kept per rule set, so their
//! transposition tables and endgame databases serve every position of a game.

use std::collections::VecDeque;
use std::convert::Infallible;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Instant;

use axum::response::sse::Event;
use kalah_analysis::{first_steps, solve_steps, AnalysisError, Offer, Opening};
use kalah_core::{Game, Rules};
use kalah_solver::{Database, Phase, Progress, Solver};
use serde_json::{json, Value};
use tokio::sync::mpsc::{unbounded_channel, UnboundedReceiver, UnboundedSender};

use super::params::Setup;
use crate::analysis_io::line_strings;
use crate::solving::{phase_name, SolverArgs};

/// Why an analysis stopped before its end: the client never sees it unless a newer
/// analysis took its place.
const CANCELLED: &str = "the analysis was cancelled: a newer one took its place";

/// Solvers kept at once (one per rule set): each holds a transposition table.
const SOLVERS_KEPT: usize = 2;

/// A solver kept for a rule set, and how many turns it solves at once.
type Kept = (Rules, Arc<Solver>, usize);

/// The analyses running and the solvers they share.
pub struct Analyses {
    solver_args: SolverArgs,
    max: usize,
    solvers: Mutex<VecDeque<Kept>>,
    /// Held while a solver is made: two analyses of new rules at once make it once.
    making: Mutex<()>,
    running: Mutex<VecDeque<(u64, Arc<AtomicBool>)>>,
    next_id: AtomicU64,
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
struct Sink {
    tx: UnboundedSender<Event>,
    cancel: Arc<AtomicBool>,
}

impl Sink {
    fn send(&self, name: &str, data: Value) {
        let event = Event::default().event(name).data(data.to_string());
        if self.tx.send(event).is_err() {
            self.cancel.store(true, Relaxed);
        }
    }

    fn status(&self, message: &str) {
        self.send("status", json!({ "message": message }));
    }
}

impl Analyses {
    /// No analysis yet; at most `max` at a time, solvers made from `solver_args`.
    pub fn new(solver_args: SolverArgs, max: usize) -> Analyses {
        Analyses {
            solver_args,
            max: max.max(1),
            solvers: Mutex::new(VecDeque::new()),
            making: Mutex::new(()),
            running: Mutex::new(VecDeque::new()),
            next_id: AtomicU64::new(0),
            stopping: AtomicBool::new(false),
        }
    }

    /// Starts analysing `setup`'s position on a thread of its own; the oldest analysis
    /// is cancelled if `max` are already running.
    pub fn start(self: &Arc<Self>, setup: Setup) -> Result<Events, String> {
        let cancel = Arc::new(AtomicBool::new(self.stopping.load(Relaxed)));
        let id = self.next_id.fetch_add(1, Relaxed);
        {
            let mut running = lock(&self.running);
            while running.len() >= self.max {
                if let Some((_, old)) = running.pop_front() {
                    old.store(true, Relaxed);
                }
            }
            running.push_back((id, cancel.clone()));
        }
        let (tx, rx) = unbounded_channel();
        let sink = Sink {
            tx,
            cancel: cancel.clone(),
        };
        let me = self.clone();
        std::thread::Builder::new()
            .name(format!("analysis-{id}"))
            .spawn(move || {
                if let Err(e) = me.analyse(&setup, &sink) {
                    let error = match me.stopping.load(Relaxed) {
                        true => "the server is stopping".to_string(),
                        false => e,
                    };
                    sink.send("error", json!({ "error": error }));
                }
                lock(&me.running).retain(|(other, _)| *other != id);
            })
            .map_err(|e| format!("could not start the analysis thread: {e}"))?;
        Ok(Events { rx, cancel })
    }

    /// Cancels every analysis, now and from now on (the server is stopping).
    pub fn stop_all(&self) {
        self.stopping.store(true, Relaxed);
        for (_, cancel) in lock(&self.running).iter() {
            cancel.store(true, Relaxed);
        }
    }

    /// The solver for `game`'s rules: kept from an earlier analysis, else made (loading
    /// or building its endgame database, which the client is told about).
    ///
    /// With it, how many turns to solve at once. As in `kalah openings`, each turn gets
    /// one search thread and the turns share the cores: on every board this beats solving
    /// them one after the other with every thread on each. Where positions repeat, one
    /// retrograde analysis (with every thread) solves them all.
    fn solver(&self, game: &Game, sink: &Sink) -> Result<(Arc<Solver>, usize), String> {
        let rules = *game.rules();
        if let Some(solver) = self.kept(&rules) {
            return Ok(solver);
        }
        // One solver made at a time; another analysis may have made this one meanwhile.
        let _making = lock(&self.making);
        if let Some(solver) = self.kept(&rules) {
            return Ok(solver);
        }
        // The database `kalah openings` would use from the start: the one the first
        // turns' solves want, and enough for every later position of the game.
        let solves = first_steps(game, &game.start(), Offer::AfterTurn).len();
        let mut config = self
            .solver_args
            .config(game, game.capacity(), solves.max(1))
            .map_err(|e| e.to_string())?;
        let workers = match game.rules().family.is_cyclic() {
            true => 1,
            false => std::mem::replace(&mut config.threads, 1).max(1),
        };
        match &config.database {
            Database::File(path)
            | Database::BestIn { dir: path, .. }
            | Database::Cached {
                file: Some(path), ..
            } => sink.status(&format!(
                "loading the endgame database {}",
                path.display()
            )),
            Database::Cached { seeds, cache, .. } => sink.status(&format!(
                "building the endgame database of {seeds} seeds (once: it is kept in {} for later runs)",
                cache.dir().display()
            )),
            Database::Build(k) if *k > 0 => {
                sink.status(&format!("building an endgame database of {k} seeds"))
            }
            _ => sink.status("preparing the solver"),
        }
        let solver = Arc::new(Solver::new(game.clone(), config).map_err(|e| e.to_string())?);
        let mut solvers = lock(&self.solvers);
        if solvers.len() >= SOLVERS_KEPT {
            solvers.pop_front();
        }
        solvers.push_back((rules, solver.clone(), workers));
        Ok((solver, workers))
    }

    /// The solver kept for `rules`, marked as the most recently used.
    fn kept(&self, rules: &Rules) -> Option<(Arc<Solver>, usize)> {
        let mut solvers = lock(&self.solvers);
        let i = solvers.iter().position(|(r, _, _)| r == rules)?;
        let entry = solvers.remove(i)?;
        let kept = (entry.1.clone(), entry.2);
        solvers.push_back(entry);
        Some(kept)
    }

    /// Solves every turn of the position, sending the events of docs/serve.md.
    fn analyse(&self, setup: &Setup, sink: &Sink) -> Result<(), String> {
        let (game, pos) = (&setup.game, &setup.pos);
        let h = game.houses();
        let cancel = &*sink.cancel;
        let steps = first_steps(game, pos, Offer::AfterTurn);
        let turns: Vec<Value> = steps
            .iter()
            .enumerate()
            .map(|(i, s)| {
                json!({ "index": i, "turn": s.turn.notation(h), "after": s.after.to_string() })
            })
            .collect();
        sink.send(
            "turns",
            json!({
                "position": pos.to_string(),
                "side_to_move": pos.side_to_move().letter().to_string(),
                "turns": turns,
            }),
        );
        let timer = Instant::now();
        if steps.is_empty() {
            let value = pos.score();
            sink.send(
                "done",
                json!({
                    "over": true, "value": value,
                    "value_for_mover": pos.side_to_move().sign() * value,
                    "best": null, "best_turn": null, "pv": [], "pie": null,
                    "nodes": 0, "seconds": 0.0,
                }),
            );
            return Ok(());
        }
        let (solver, workers) = self.solver(game, sink)?;
        // Retrograde analysis solves the whole game graph of the position once (counting the
        // positions it solved); every turn's solve below then reads its value.
        let mut graph_positions = 0;
        if game.rules().family.is_cyclic() {
            let mut last = None;
            graph_positions = solver
                .solve(pos, cancel, &mut |p| {
                    if last != Some(p.phase) {
                        last = Some(p.phase);
                        sink.status(&phase_name(p.phase));
                    }
                })
                .map_err(|_| CANCELLED.to_string())?
                .nodes;
        }
        // Every turn solved once, `workers` at a time in bin order, its events sent as it
        // goes: its bounds when they change, then its value and line.
        let last_bounds: Vec<Mutex<Option<(i32, i32)>>> =
            steps.iter().map(|_| Mutex::new(None)).collect();
        let progress = |i: usize, p: &Progress| {
            if matches!(p.phase, Phase::Retrograde(_)) {
                return;
            }
            let (lower, upper) = match steps[i].after.side_to_move().sign() > 0 {
                true => (p.lower, p.upper),
                false => (-p.upper, -p.lower),
            };
            if lock(&last_bounds[i]).replace((lower, upper)) == Some((lower, upper)) {
                return;
            }
            sink.send(
                "bound",
                json!({
                    "index": i, "lower": lower, "upper": upper,
                    "nodes": p.nodes, "seconds": p.elapsed.as_secs_f64(),
                }),
            );
        };
        let on_done = |i: usize, o: &Opening| {
            sink.send(
                "value",
                json!({
                    "index": i,
                    "turn": o.step.turn.notation(h),
                    "value": o.value,
                    "value_for_mover": o.value_for_mover(),
                    "pv": line_strings(h, &o.pv),
                    "nodes": o.nodes,
                    "seconds": o.elapsed.as_secs_f64(),
                }),
            );
        };
        let mut solved =
            match solve_steps(&solver, pos, &steps, workers, cancel, &progress, &on_done) {
                Ok(solved) => solved,
                Err(AnalysisError::Cancelled) => return Err(CANCELLED.to_string()),
                Err(e) => return Err(e.to_string()),
            };
        let nodes: u64 = graph_positions + solved.iter().map(|o| o.nodes).sum::<u64>();
        let index_of = |o: &Opening| steps.iter().position(|s| *s == o.step);
        let sign = pos.side_to_move().sign();
        // Best first for the mover; equal values keep bin order (as `kalah openings`).
        solved.sort_by_key(|o| -sign * o.value);
        let best = &solved[0];
        let pie = if setup.at_start() {
            let analysis = kalah_analysis::pie::apply(solved.clone(), Offer::AfterTurn);
            let choices: Vec<Value> = analysis
                .choices
                .iter()
                .map(|c| {
                    json!({
                        "index": index_of(&c.opening),
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
                "best": index_of(&analysis.best().opening),
                "value": analysis.value,
            })
        } else if setup.after_first_turn() {
            let d = kalah_analysis::decide(best.value);
            json!({
                "kind": "decide", "value": best.value, "swap": d.swap,
                "first_player": d.first_player,
            })
        } else {
            Value::Null
        };
        sink.send(
            "done",
            json!({
                "over": false,
                "value": best.value,
                "value_for_mover": sign * best.value,
                "best": index_of(best),
                "best_turn": best.step.turn.notation(h),
                "pv": line_strings(h, &best.pv),
                "pie": pie,
                "nodes": nodes,
                "seconds": timer.elapsed().as_secs_f64(),
            }),
        );
        Ok(())
    }
}

/// Locks a mutex, whether or not a thread panicked while holding it (the data is a list
/// that stays consistent).
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}
