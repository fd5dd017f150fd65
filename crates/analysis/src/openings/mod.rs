//! Every first turn of a position, each solved exactly with its principal variation.
//!
//! A *turn* is the chain of sowings one player makes while the extra turns last (`1`,
//! `3-6`, `3-1-4`, ...). Every chain is a turn of its own, even when two chains reach the
//! same position: they are different things to play. [`Offer::AfterFirstSowing`] looks at
//! the single first sowings instead, for the pie rule offered that early.
//!
//! [`timed_openings`] analyses each first move within limits instead
//! ([`Solver::analyse`]): exact where the analysis proves the value in time, else a
//! heuristic evaluation with its proven interval ([`TimedOpening`]). Their JSON and CSV,
//! like those of the exact turns and of Bao's moves, are written in [`report`].
//!
//! `kalah openings` runs a position of either kind ([`Openings`], in `run.rs`): a sowing
//! game's turns from the opening book, solved or analysed within a time, or Bao's moves.
//! `kalah atlas` runs them for a range of boards and keeps them in files ([`atlas`]).

pub mod atlas;
pub mod report;
mod run;

use std::io::{self, Write};
use std::sync::atomic::AtomicBool;
use std::sync::Mutex;
use std::time::Duration;

use kalah_core::{Game, Position, Side};
use kalah_solver::{Limits, Phase, Progress, Solver, Turn};

pub use crate::game::turns::{first_steps, Offer, Step};
use crate::game::AnalysisError;
use crate::run::pool;
use kalah_solver::line::{push_turn, replay};
pub use run::{
    book_first_turns, chosen_first_turns, Asked, Listed, Meter, Openings, OpeningsError, Tick,
};

/// A first move solved exactly.
#[derive(Clone, Debug)]
pub struct Opening {
    /// The move and the position it leads to.
    pub step: Step,
    /// The value from South of the position after the move (which is the value of the
    /// move): the final South store minus North store under perfect play from there.
    pub value: i32,
    /// A principal variation from the position *before* the move, starting with it (when
    /// the move earned an extra sowing, the player's next sowings join its turn). Replayed
    /// and checked to end with [`Opening::value`].
    pub pv: Vec<Turn>,
    /// Nodes searched for this move.
    pub nodes: u64,
    /// Wall time of its solve.
    pub elapsed: Duration,
}

impl Opening {
    /// The value for the player who made the move.
    pub fn value_for_mover(&self) -> i32 {
        self.step.turn.side.sign() * self.value
    }

    /// The move solved, as a progress display prints it when it is done: the turn, its
    /// value from South, the time and the nodes (`3-6         +2 from South  (0.4 s, 1200
    /// nodes)`) on a board of `houses` houses.
    pub fn done_line(&self, houses: usize) -> String {
        format!(
            "{:<10} {:>4} from South  ({:.1} s, {} nodes)",
            self.step.turn.notation(houses),
            crate::game::bounds::signed(self.value),
            self.elapsed.as_secs_f64(),
            self.nodes
        )
    }
}

/// Solves every first move of the mover in `pos` (see [`first_steps`]) on `workers`
/// threads sharing `solver`'s table, and returns them best first for the mover (ties in
/// bin order): [`analyse`] with only its value callback.
///
/// `on_done` is called from a worker thread as each move is solved (and checked). The
/// solver's own threads multiply with `workers`: give it `threads: 1`.
pub fn openings(
    solver: &Solver,
    pos: &Position,
    offer: Offer,
    workers: usize,
    cancel: &AtomicBool,
    on_done: &(dyn Fn(&Opening) + Sync),
) -> Result<Vec<Opening>, AnalysisError> {
    let steps = first_steps(solver.game(), pos, offer);
    let watch = Watch {
        value: &|_, o| on_done(o),
        ..Watch::none()
    };
    Ok(analyse(solver, pos, &steps, workers, cancel, watch)?.openings)
}

/// What [`analyse`] reports while it runs. Every callback may do nothing
/// ([`Watch::none`]).
pub struct Watch<'a> {
    /// The progress of the one retrograde solve of `pos`'s whole game graph (families
    /// whose positions repeat only), on the calling thread, before any move is solved.
    pub graph: Option<&'a mut dyn FnMut(&Progress)>,
    /// `bounds(i, lower, upper, p)`: the proved bounds of `steps[i]`'s value changed;
    /// both are from South (as [`Opening::value`]), `p` is the solve's report. Called
    /// from a worker thread, once per change.
    pub bounds: &'a (dyn Fn(usize, i32, i32, &Progress) + Sync),
    /// `value(i, o)`: `steps[i]` was solved and its line checked; from a worker thread.
    pub value: &'a (dyn Fn(usize, &Opening) + Sync),
}

impl<'a> Watch<'a> {
    /// Reports nothing.
    pub fn none() -> Watch<'a> {
        Watch {
            graph: None,
            bounds: &|_, _, _, _| {},
            value: &|_, _| {},
        }
    }
}

/// Every first move of a position solved: what [`analyse`] returns.
#[derive(Clone, Debug)]
pub struct Analysis {
    /// The moves, best first for the mover (ties in bin order).
    pub openings: Vec<Opening>,
    /// The positions solved by the retrograde analysis of the position's game graph
    /// before the moves (0 where positions do not repeat).
    pub graph_positions: u64,
}

impl Analysis {
    /// The best move for the mover.
    pub fn best(&self) -> &Opening {
        &self.openings[0]
    }

    /// All the work: the graph's positions and every move's nodes.
    pub fn nodes(&self) -> u64 {
        self.graph_positions + self.openings.iter().map(|o| o.nodes).sum::<u64>()
    }
}

/// Solves `steps` (every first move of the mover of `pos`, as [`first_steps`] gives
/// them) on `workers` threads sharing `solver`'s table, reporting each move's bounds
/// and value through `watch` as it goes; the one analysis of every turn behind
/// `openings`, the pie rule and the analysis board.
///
/// Where positions repeat, one retrograde analysis of `pos` comes first: it puts every
/// move's position in its game graph, solved once for all of them. The moves are taken
/// in bin order and returned best first for the mover (ties in bin order). The solver's
/// own threads multiply with `workers`: give it `threads: 1`.
pub fn analyse(
    solver: &Solver,
    pos: &Position,
    steps: &[Step],
    workers: usize,
    cancel: &AtomicBool,
    watch: Watch<'_>,
) -> Result<Analysis, AnalysisError> {
    if steps.is_empty() {
        return Err(AnalysisError::GameOver);
    }
    let mut graph_positions = 0;
    if solver.game().rules().family.is_cyclic() {
        let mut quiet = |_: &Progress| {};
        let graph = watch.graph.unwrap_or(&mut quiet);
        graph_positions = solver.solve(pos, cancel, graph)?.nodes;
    }
    let last_bounds: Vec<Mutex<Option<(i32, i32)>>> =
        steps.iter().map(|_| Mutex::new(None)).collect();
    let progress = |i: usize, p: &Progress| {
        if matches!(p.phase, Phase::Retrograde(_)) {
            return;
        }
        let bounds = from_south(steps[i].after.side_to_move(), p);
        let mut last = last_bounds[i].lock().unwrap_or_else(|e| e.into_inner());
        if last.replace(bounds) != Some(bounds) {
            drop(last);
            (watch.bounds)(i, bounds.0, bounds.1, p);
        }
    };
    let mut openings = solve_steps(solver, pos, steps, workers, cancel, &progress, watch.value)?;
    let sign = pos.side_to_move().sign();
    // Stable: equal values keep bin order.
    openings.sort_by_key(|o| -sign * o.value);
    Ok(Analysis {
        openings,
        graph_positions,
    })
}

/// A solve's proved bounds, for the player to move at its root `mover`, from South.
fn from_south(mover: Side, p: &Progress) -> (i32, i32) {
    match mover.sign() > 0 {
        true => (p.lower, p.upper),
        false => (-p.upper, -p.lower),
    }
}

/// Solves `steps` (first moves of the mover of `pos`, as [`first_steps`] gives them) on
/// `workers` threads sharing `solver`'s table, taken in order, and returns them solved in
/// that order; the work behind [`analyse`].
///
/// `progress(i, p)` is called as the solve of `steps[i]` reports (the bounds are for the
/// player to move after the move), `on_done(i, o)` once it is solved and its line checked;
/// both from the worker threads.
fn solve_steps(
    solver: &Solver,
    pos: &Position,
    steps: &[Step],
    workers: usize,
    cancel: &AtomicBool,
    progress: &(dyn Fn(usize, &Progress) + Sync),
    on_done: &(dyn Fn(usize, &Opening) + Sync),
) -> Result<Vec<Opening>, AnalysisError> {
    each_step(steps.len(), workers, cancel, |i| {
        let o = solve_step(solver, pos, &steps[i], cancel, &mut |p| progress(i, p))?;
        on_done(i, &o);
        Ok(o)
    })
}

/// Runs `work(i)` for `i` in `0..count` on `workers` threads, taken in order, and returns
/// the results in that order: the first error where one fails, [`AnalysisError::Cancelled`]
/// where `cancel` stopped the pool before every one was done.
fn each_step<T: Send>(
    count: usize,
    workers: usize,
    cancel: &AtomicBool,
    work: impl Fn(usize) -> Result<T, AnalysisError> + Sync,
) -> Result<Vec<T>, AnalysisError> {
    let failure = Mutex::new(None);
    let mut done: Vec<T> = Vec::with_capacity(count);
    pool::run_in_order(
        workers,
        count,
        cancel,
        |i| match work(i) {
            Ok(o) => Some(o),
            Err(e) => {
                if let Ok(mut f) = failure.lock() {
                    f.get_or_insert(e);
                }
                None
            }
        },
        |_, o| {
            done.push(o);
            true
        },
    )?;
    if let Some(e) = failure.into_inner().ok().flatten() {
        return Err(e);
    }
    if done.len() < count {
        return Err(AnalysisError::Cancelled);
    }
    Ok(done)
}

/// Solves the position after one first move of `pos` (one of [`first_steps`]) and checks
/// the line: the move's exact value, with a principal variation from `pos` that starts
/// with the move. `progress` is called as [`Solver::solve`] calls it, for the position
/// after the move (its bounds are for the player to move there).
pub fn solve_step(
    solver: &Solver,
    pos: &Position,
    step: &Step,
    cancel: &AtomicBool,
    progress: &mut dyn FnMut(&Progress),
) -> Result<Opening, AnalysisError> {
    let solution = solver.solve(&step.after, cancel, progress)?;
    let value = solution.value_from_south();
    let mut pv = vec![step.turn.clone()];
    for t in solution.pv {
        push_turn(&mut pv, t);
    }
    replay(solver.game(), pos, &pv, value)?;
    Ok(Opening {
        step: step.clone(),
        value,
        pv,
        nodes: solution.nodes,
        elapsed: solution.elapsed,
    })
}

/// A first move analysed within limits ([`timed_openings`]): exact, or a heuristic
/// evaluation with the interval proved to hold its value. Values are from South.
#[derive(Clone, Debug)]
pub struct TimedOpening {
    /// The move and the position it leads to.
    pub step: Step,
    /// The heuristic evaluation of the move, inside `lower..=upper`: its exact value once
    /// `lower == upper`.
    pub eval: i32,
    /// Proven lower bound of the move's value.
    pub lower: i32,
    /// Proven upper bound of the move's value.
    pub upper: i32,
    /// The deepest completed search behind `eval`, in sowings after the move.
    pub depth: u8,
    /// The line from the position before the move, starting with it: replayed and checked
    /// to end with the value once exact; otherwise the line guessed.
    pub pv: Vec<Turn>,
    /// Nodes searched for this move.
    pub nodes: u64,
    /// Wall time of its analysis.
    pub elapsed: Duration,
}

impl TimedOpening {
    /// Whether the value is proved: `eval` is then the exact value.
    pub fn is_exact(&self) -> bool {
        self.lower == self.upper
    }

    /// The evaluation for the player who made the move.
    pub fn eval_for_mover(&self) -> i32 {
        self.step.turn.side.sign() * self.eval
    }
}

/// Analyses every first move of the mover in `pos` (see [`first_steps`]) within `limits`
/// each, on `workers` threads sharing `solver`'s table, and returns them best first for
/// the mover by evaluation (ties in bin order). `on_done` is called from a worker thread
/// as each is analysed (and, when exact, its line checked). Stopped by `cancel`, it is
/// [`AnalysisError::Cancelled`].
pub fn timed_openings(
    solver: &Solver,
    pos: &Position,
    offer: Offer,
    limits: &Limits,
    workers: usize,
    cancel: &AtomicBool,
    on_done: &(dyn Fn(&TimedOpening) + Sync),
) -> Result<Vec<TimedOpening>, AnalysisError> {
    let steps = first_steps(solver.game(), pos, offer);
    if steps.is_empty() {
        return Err(AnalysisError::GameOver);
    }
    let mut done = each_step(steps.len(), workers, cancel, |i| {
        let o = analyse_step(solver, pos, &steps[i], limits, cancel)?;
        on_done(&o);
        Ok(o)
    })?;
    // A step stopped by `cancel` still answers (what it knew): the whole is cancelled.
    if cancel.load(std::sync::atomic::Ordering::Relaxed) {
        return Err(AnalysisError::Cancelled);
    }
    let sign = pos.side_to_move().sign();
    // Stable: equal evaluations keep bin order.
    done.sort_by_key(|o: &TimedOpening| -sign * o.eval);
    Ok(done)
}

/// Analyses the position after one first move of `pos` within `limits`; once exact, its
/// line from `pos` is replayed to the value.
pub fn analyse_step(
    solver: &Solver,
    pos: &Position,
    step: &Step,
    limits: &Limits,
    cancel: &AtomicBool,
) -> Result<TimedOpening, AnalysisError> {
    let a = solver.analyse(&step.after, limits, cancel, &mut |_| {})?;
    let (lower, upper) = a.bounds_from_south();
    let mut pv = vec![step.turn.clone()];
    for t in a.pv.iter().cloned() {
        push_turn(&mut pv, t);
    }
    if a.is_exact() {
        replay(solver.game(), pos, &pv, lower)?;
    }
    Ok(TimedOpening {
        step: step.clone(),
        eval: a.eval_from_south(),
        lower,
        upper,
        depth: a.depth,
        pv,
        nodes: a.nodes,
        elapsed: a.elapsed,
    })
}

/// The turns `list` of `pos` as [`timed_openings`] returns them (best first, at least
/// one), as a table for people: an exact value, or `~` and the evaluation with the depth
/// and the proven interval; `seconds` is the time they took.
pub fn write_timed_text(
    game: &Game,
    pos: &Position,
    list: &[TimedOpening],
    seconds: f64,
    out: &mut dyn Write,
) -> io::Result<()> {
    use crate::game::bounds::signed;
    let h = game.houses();
    writeln!(out, "rules      {}", game.rules())?;
    writeln!(out, "position   {pos} ({} to move)", pos.side_to_move())?;
    writeln!(
        out,
        "values     from South: exact where proved in time, else ~ a heuristic \
         evaluation at a depth, with the interval proved to hold the value"
    )?;
    writeln!(out)?;
    let width = list
        .iter()
        .map(|o| o.step.turn.notation(h).len())
        .max()
        .unwrap_or(4)
        .max(4);
    writeln!(out, "{:<width$}  value  depth  proven    line", "turn")?;
    for o in list {
        let value = match o.is_exact() {
            true => signed(o.eval),
            false => format!("~{}", signed(o.eval)),
        };
        let depth = match o.is_exact() {
            true => "exact".to_string(),
            false => o.depth.to_string(),
        };
        let proven = format!("{}..{}", signed(o.lower), signed(o.upper));
        let line = kalah_solver::line::notations(h, &o.pv).join(" ");
        let turn = o.step.turn.notation(h);
        writeln!(
            out,
            "{turn:<width$}  {value:>5}  {depth:>5}  {proven:<8}  {line}"
        )?;
    }
    writeln!(out)?;
    let exact = list.iter().filter(|o| o.is_exact()).count();
    let best = &list[0];
    let what = match best.is_exact() {
        true => format!("value {} from South, exact", signed(best.eval)),
        false => format!(
            "heuristic {} from South, proven {}..{}",
            signed(best.eval),
            signed(best.lower),
            signed(best.upper)
        ),
    };
    writeln!(out, "best turn  {} ({what})", best.step.turn.notation(h))?;
    let nodes: u64 = list.iter().map(|o| o.nodes).sum();
    writeln!(
        out,
        "{} turns analysed in {seconds:.2} s, {exact} of them exact, {nodes} nodes",
        list.len()
    )
}

/// The turns `list` of `pos` as [`openings`] returns them (best first, at least one), as a
/// table for people; `seconds` is the time they took.
pub fn write_text(
    game: &Game,
    pos: &Position,
    list: &[Opening],
    seconds: f64,
    out: &mut dyn Write,
) -> io::Result<()> {
    let h = game.houses();
    writeln!(out, "rules      {}", game.rules())?;
    writeln!(out, "position   {pos} ({} to move)", pos.side_to_move())?;
    writeln!(
        out,
        "values     from South: final South store minus North store under perfect play"
    )?;
    writeln!(out)?;
    let width = list
        .iter()
        .map(|o| o.step.turn.notation(h).len())
        .max()
        .unwrap_or(4)
        .max(4);
    writeln!(out, "{:<width$}  value  principal variation", "turn")?;
    for o in list {
        writeln!(
            out,
            "{:<width$}  {:>5}  {}",
            o.step.turn.notation(h),
            crate::game::bounds::signed(o.value),
            kalah_solver::line::notations(h, &o.pv).join(" ")
        )?;
    }
    writeln!(out)?;
    writeln!(
        out,
        "best turn  {} (value {} from South)",
        list[0].step.turn.notation(h),
        crate::game::bounds::signed(list[0].value)
    )?;
    writeln!(
        out,
        "{} turns solved exactly in {seconds:.2} s, {} nodes",
        list.len(),
        total_nodes(list)
    )
}

/// The nodes of every turn's solve.
pub fn total_nodes(list: &[Opening]) -> u64 {
    list.iter().map(|o| o.nodes).sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use kalah_core::Rules;

    #[test]
    fn the_text_lists_every_turn_and_names_the_best() {
        let game = Game::new(Rules::kalah(3, 2)).unwrap();
        let solver = Solver::new(
            game.clone(),
            kalah_solver::Config {
                hash_mb: 1,
                ..kalah_solver::Config::default()
            },
        )
        .unwrap();
        let cancel = AtomicBool::new(false);
        let pos = game.start();
        let list = openings(&solver, &pos, Offer::AfterTurn, 1, &cancel, &|_| {}).unwrap();
        let mut text = Vec::new();
        write_text(&game, &pos, &list, 0.5, &mut text).unwrap();
        let text = String::from_utf8(text).unwrap();
        let best = list[0].step.turn.notation(game.houses());
        assert!(text.contains(&format!("best turn  {best} (value")));
        assert!(text.contains(&format!("{} turns solved exactly in 0.50 s", list.len())));
        let done = list[0].done_line(game.houses());
        assert!(done.starts_with(&format!("{best:<10} ")), "{done}");
        assert!(
            done.contains(" from South  (") && done.ends_with(" nodes)"),
            "{done}"
        );
    }
}
