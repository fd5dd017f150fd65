//! The evaluation table of a sowing game: every position near the start (an opening book).
//!
//! The table holds every position reached from the start within `depth` turns: the
//! positions after 0, 1, ..., `depth` complete turns and the positions in the middle of
//! one of the first `depth` turns (after a sowing that earned an extra sowing), so a
//! player can follow the book sowing by sowing. Each position is stored once however
//! many lines reach it (transpositions), with the fewest complete turns that reach it.
//!
//! For each position: the exact value from South, the value from South of every legal
//! sowing (the value of the position it leads to), and the best sowing for the player to
//! move. Only the positions just past the table (the children of the positions after
//! `depth` turns) are solved by the exact solver, in parallel; every value in the table
//! follows from theirs by exact negamax over the table's own positions, so it is exact too.

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::AtomicBool;

use dashmap::DashMap;
use kalah_core::{Game, Position, Sowing};
use kalah_solver::Solver;

use super::budget::{check, TooLarge};
use super::table::Entry;
use crate::game::AnalysisError;
use crate::run::pool;

/// The positions of the table and the positions just past it, before any solve.
#[derive(Clone, Debug)]
pub struct Plan {
    /// The table's positions in a fixed order (by turns, then as discovered sowing by
    /// sowing in bin order), with the fewest turns that reach each.
    pub positions: Vec<(Position, u32)>,
    /// The positions just past the table, each once, whose values the solver must find.
    pub frontier: Vec<Position>,
}

/// Finds the table's positions within `depth` turns of `start`, and the frontier.
///
/// A 0-1 breadth-first search: a sowing that earns an extra sowing stays in the same turn
/// (cost 0), any other ends a turn (cost 1), so each position gets its fewest turns.
/// Positions with fewer than `depth` complete turns have all their children in the table;
/// the children of those at exactly `depth` turns that are not themselves in the table
/// form the frontier.
pub fn plan(game: &kalah_core::Game, start: &Position, depth: u32) -> Plan {
    let never = AtomicBool::new(false);
    match plan_until(game, start, depth, &never) {
        Ok(plan) => plan,
        Err(_) => unreachable!("the flag is never raised"),
    }
}

/// [`plan`], stopping with [`AnalysisError::Cancelled`] as soon as `cancel` is raised (a
/// deep table takes a while to enumerate).
pub fn plan_until(
    game: &kalah_core::Game,
    start: &Position,
    depth: u32,
    cancel: &AtomicBool,
) -> Result<Plan, AnalysisError> {
    match plan_bounded(game, start, depth, usize::MAX, cancel) {
        Ok(plan) => Ok(plan),
        Err(PlanError::Cancelled) => Err(AnalysisError::Cancelled),
        Err(PlanError::TooLarge(_)) => unreachable!("no bound"),
    }
}

/// Why [`plan_bounded`] gave no plan.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum PlanError {
    /// The cancel flag was raised.
    Cancelled,
    /// The table and the positions just past it hold more positions than allowed, or
    /// their estimate from the first turns passes that by far.
    TooLarge(TooLarge),
}

impl std::fmt::Display for PlanError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PlanError::Cancelled => AnalysisError::Cancelled.fmt(f),
            PlanError::TooLarge(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for PlanError {}

/// Positions enumerated between two looks at the cancel flag and the bound.
const POLL: usize = 1 << 12;

/// [`plan_until`] bounded by `max_positions` (see [`super::max_positions`]): refused with
/// [`PlanError::TooLarge`] where the table and the positions just past it hold more, or
/// where, its first turns enumerated, the estimate of the whole passes that by far (so an
/// export too large for the memory is refused in its first turns, with the deepest
/// `--depth` that fits, not when the memory runs out); [`PlanError::Cancelled`] as soon as
/// `cancel` is raised.
pub fn plan_bounded(
    game: &kalah_core::Game,
    start: &Position,
    depth: u32,
    max_positions: usize,
    cancel: &AtomicBool,
) -> Result<Plan, PlanError> {
    let cancelled = || cancel.load(std::sync::atomic::Ordering::Relaxed);
    let mut turns: HashMap<Position, u32> = HashMap::new();
    let mut order: Vec<Position> = Vec::new();
    let mut queue = VecDeque::from([(*start, 0u32)]);
    turns.insert(*start, 0);
    order.push(*start);
    // The positions of each number of fewest turns so far: those below the turn being
    // expanded are final (a 0-1 search takes them in order).
    let mut levels = vec![1usize];
    let mut expanding = 0;
    let mut popped = 0usize;
    while let Some((p, t)) = queue.pop_front() {
        popped += 1;
        if popped % POLL == 0 {
            if cancelled() {
                return Err(PlanError::Cancelled);
            }
            if turns.len() > max_positions {
                check(&levels, depth, max_positions).map_err(PlanError::TooLarge)?;
            }
        }
        if t > expanding {
            // Every turn below `t` is enumerated: the estimate may refuse the rest.
            expanding = t;
            check(&levels[..t as usize], depth, max_positions).map_err(PlanError::TooLarge)?;
        }
        if turns.get(&p).is_some_and(|&best| best < t) || t >= depth {
            continue;
        }
        for j in game.legal_moves(&p) {
            let (c, how) = game.sow(&p, j);
            let ct = if how == Sowing::ExtraTurn { t } else { t + 1 };
            match turns.get(&c) {
                Some(&old) if old <= ct => continue,
                Some(&old) => levels[old as usize] -= 1,
                None => order.push(c),
            }
            turns.insert(c, ct);
            if levels.len() <= ct as usize {
                levels.resize(ct as usize + 1, 0);
            }
            levels[ct as usize] += 1;
            if how == Sowing::ExtraTurn {
                queue.push_front((c, ct));
            } else {
                queue.push_back((c, ct));
            }
        }
    }
    check(&levels, depth, max_positions).map_err(PlanError::TooLarge)?;
    let mut positions: Vec<(Position, u32)> = order.iter().map(|p| (*p, turns[p])).collect();
    positions.sort_by_key(|&(_, t)| t);
    let mut seen = std::collections::HashSet::new();
    let mut frontier = Vec::new();
    for (i, &(p, t)) in positions.iter().enumerate() {
        if t < depth {
            continue;
        }
        if i % POLL == 0 {
            if cancelled() {
                return Err(PlanError::Cancelled);
            }
            if positions.len() + frontier.len() > max_positions {
                let past = [levels.as_slice(), &[frontier.len()]].concat();
                check(&past, depth, max_positions).map_err(PlanError::TooLarge)?;
            }
        }
        for j in game.legal_moves(&p) {
            let c = game.play_unchecked(&p, j);
            if !turns.contains_key(&c) && seen.insert(c) {
                frontier.push(c);
            }
        }
    }
    let past = [levels.as_slice(), &[frontier.len()]].concat();
    check(&past, depth, max_positions).map_err(PlanError::TooLarge)?;
    if game.rules().family.is_cyclic() {
        // Positions can repeat: the table's own positions are solved too (by retrograde
        // analysis, cheap once the first has been), so the negamax below never recurses
        // round a cycle.
        let mut on = frontier
            .iter()
            .copied()
            .collect::<std::collections::HashSet<_>>();
        for &(p, _) in &positions {
            if !p.is_over() && on.insert(p) {
                frontier.push(p);
            }
        }
    }
    Ok(Plan {
        positions,
        frontier,
    })
}

impl Plan {
    /// The frontier positions whose values are neither in `known` nor plain (a finished
    /// game): the ones [`evaluate`] gives to the solver.
    pub fn to_solve(&self, known: &HashMap<Position, i32>) -> Vec<Position> {
        self.frontier
            .iter()
            .filter(|p| !p.is_over() && !known.contains_key(p))
            .copied()
            .collect()
    }
}

/// Builds the table of the positions of `plan` (see [`plan`]).
///
/// The frontier positions are solved on `workers` threads sharing `solver` (each value
/// kept only once its principal variation replays to it), in the order of
/// [`Plan::to_solve`], except those whose values are in `known` (values from South
/// found by an earlier run, for resuming). `on_solved(position, value)` is called from a
/// worker as each is solved, so that the caller can keep them. After a cancel nothing is
/// returned, but every value already reported through `on_solved` stays valid.
pub fn evaluate(
    solver: &Solver,
    plan: &Plan,
    known: &HashMap<Position, i32>,
    workers: usize,
    cancel: &AtomicBool,
    on_solved: &(dyn Fn(&Position, i32) + Sync),
) -> Result<Vec<Entry>, AnalysisError> {
    let values: DashMap<Position, i32> = DashMap::new();
    for p in &plan.frontier {
        if let Some(&v) = known.get(p) {
            values.insert(*p, v);
        } else if p.is_over() {
            values.insert(*p, p.score());
        }
    }
    let todo = plan.to_solve(known);
    solve_frontier(solver, plan, &todo, &values, workers, cancel, on_solved)?;
    Ok(table_entries(solver.game(), plan, &values))
}

/// Solves the frontier positions `todo` into `values`, each value kept only after its
/// principal variation replays to it; an error where one does not, where a worker's solve
/// met the graph limit (a cyclic family), or where the run was cancelled.
fn solve_frontier(
    solver: &Solver,
    plan: &Plan,
    todo: &[Position],
    values: &DashMap<Position, i32>,
    workers: usize,
    cancel: &AtomicBool,
    on_solved: &(dyn Fn(&Position, i32) + Sync),
) -> Result<(), AnalysisError> {
    let game = solver.game();
    if let (true, Some(&(root, _))) = (game.rules().family.is_cyclic(), plan.positions.first()) {
        // One retrograde analysis from the start covers every position of the table.
        if !todo.is_empty() {
            solver.solve(&root, cancel, &mut |_| {})?;
        }
    }
    let failure = std::sync::Mutex::new(None);
    // The graph limit a worker's solve met (a cyclic family), which stops the run.
    let too_large = std::sync::Mutex::new(None);
    let solved = pool::run_in_order(
        workers,
        todo.len(),
        cancel,
        |i| {
            let solution = match solver.solve(&todo[i], cancel, &mut |_| {}) {
                Ok(solution) => solution,
                Err(e) => {
                    if let (kalah_solver::SolveError::GraphTooLarge { .. }, Ok(mut t)) =
                        (&e, too_large.lock())
                    {
                        t.get_or_insert(AnalysisError::from(e));
                    }
                    return None;
                }
            };
            let v = solution.value_from_south();
            if let Err(e) = kalah_solver::line::replay(game, &todo[i], &solution.pv, v) {
                if let Ok(mut f) = failure.lock() {
                    f.get_or_insert(e);
                }
                return None;
            }
            values.insert(todo[i], v);
            on_solved(&todo[i], v);
            Some(())
        },
        |_, ()| true,
    )?;
    if let Some(e) = failure.into_inner().ok().flatten() {
        return Err(e.into());
    }
    if let Some(e) = too_large.into_inner().ok().flatten() {
        return Err(e);
    }
    if solved < todo.len() {
        return Err(AnalysisError::Cancelled);
    }
    Ok(())
}

/// The entries of the table by negamax from the frontier's `values`, deepest positions
/// first: every child of a table position is either in the table with more sowings behind
/// it, or on the frontier. The game graph has no cycles (each sowing either banks a seed or
/// moves every sown seed forward without wrapping round), so the memoised recursion ends;
/// in the families where it has cycles, every table position is on the frontier, valued by
/// the solver.
fn table_entries(game: &Game, plan: &Plan, values: &DashMap<Position, i32>) -> Vec<Entry> {
    let mut moves = HashMap::new();
    let mut entries = Vec::with_capacity(plan.positions.len());
    for &(p, t) in &plan.positions {
        let value = value_of(game, &p, values, &mut moves);
        let list = if p.is_over() {
            Vec::new()
        } else {
            moves.get(&p).cloned().unwrap_or_else(|| {
                game.legal_moves(&p)
                    .map(|j| {
                        let c = game.play_unchecked(&p, j);
                        (j, value_of(game, &c, values, &mut moves))
                    })
                    .collect()
            })
        };
        let sign = p.side_to_move().sign();
        let best = list
            .iter()
            .find(|&&(_, v)| sign * v == sign * value)
            .map(|&(j, _)| j);
        entries.push(Entry {
            position: p,
            turns: t,
            value,
            moves: list,
            best,
        });
    }
    entries
}

/// The value of `p` by memoised negamax over `values`, keeping each position's moves and
/// their values in `moves`.
fn value_of(
    game: &Game,
    p: &Position,
    values: &DashMap<Position, i32>,
    moves: &mut HashMap<Position, Vec<(usize, i32)>>,
) -> i32 {
    if let Some(v) = values.get(p) {
        return *v;
    }
    if p.is_over() {
        return p.score();
    }
    let list: Vec<(usize, i32)> = game
        .legal_moves(p)
        .map(|j| {
            let c = game.play_unchecked(p, j);
            (j, value_of(game, &c, values, moves))
        })
        .collect();
    let sign = p.side_to_move().sign();
    let v = list.iter().map(|&(_, v)| sign * v).max().unwrap_or(0) * sign;
    values.insert(*p, v);
    moves.insert(*p, list);
    v
}
