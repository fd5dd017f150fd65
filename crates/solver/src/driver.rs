//! The proof of one position's value over the parallel search ([`crate::smp`]):
//! iterative deepening for a guess and good moves in the table, then MTD(f) null-window
//! searches until the bounds meet (or leave the caller's window), then a principal
//! variation that keeps the proved value to the end of the game.

use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::time::Instant;

use kalah_core::Position;

use crate::error::SolveError;
use crate::line::{push_sowing, Turn};
use crate::outcome::{Bound, Phase, Progress, Solution};
use crate::score::{across, seed_bounds};
use crate::search::{self, Shared, INF};
use crate::smp::{self, Context};
use crate::tt::EXACT_DEPTH;

/// The exact value of `pos` for the player to move, without a principal variation.
pub(crate) fn value(ctx: &Context, pos: &Position, cancel: &AtomicBool) -> Result<i32, SolveError> {
    let shared = Shared::new(cancel);
    let (lower, _) = prove_window(ctx, pos, &shared, Instant::now(), &mut |_| {}, -INF, INF)?;
    Ok(lower)
}

/// The proof of `pos` in the window `(alpha, beta)`, then a principal variation where the
/// value came out exact: the search behind [`crate::Solver::solve`] and
/// [`crate::Solver::solve_window`].
pub(crate) fn solve_window(
    ctx: &Context,
    pos: &Position,
    alpha: i32,
    beta: i32,
    cancel: &AtomicBool,
    progress: &mut dyn FnMut(&Progress),
) -> Result<Result<Solution, Bound>, SolveError> {
    let start = Instant::now();
    let shared = Shared::new(cancel);
    let (lower, upper) = prove_window(ctx, pos, &shared, start, progress, alpha, beta)?;
    if lower < upper {
        return Ok(Err(Bound {
            side: pos.side_to_move(),
            lower,
            upper,
            nodes: shared.nodes.load(Relaxed),
            elapsed: start.elapsed(),
        }));
    }
    progress(&Progress {
        phase: Phase::PrincipalVariation,
        lower,
        upper,
        nodes: shared.nodes.load(Relaxed),
        elapsed: start.elapsed(),
    });
    shared.done.store(false, Relaxed);
    let pv = principal_variation(ctx, pos, lower, &shared)?;
    Ok(Ok(Solution {
        side: pos.side_to_move(),
        value: lower,
        pv,
        nodes: shared.nodes.load(Relaxed),
        elapsed: start.elapsed(),
        table_permille: ctx.table.usage_permille(),
        egdb_hits: shared.egdb_hits.load(Relaxed),
    }))
}

/// Iterative deepening, then MTD(f) until the bounds meet or lie outside the window
/// `(alpha, beta)`: the bounds `(lower, upper)` of the value for the mover, equal when
/// the value is inside the window (always, for the full window).
fn prove_window(
    ctx: &Context,
    pos: &Position,
    shared: &Shared,
    start: Instant,
    progress: &mut dyn FnMut(&Progress),
    alpha: i32,
    beta: i32,
) -> Result<(i32, i32), SolveError> {
    ctx.table.new_generation();
    let (mut lower, mut upper) = seed_bounds(pos);
    if pos.is_over() {
        return Ok((lower, upper));
    }
    let report = |phase, lower, upper| Progress {
        phase,
        lower,
        upper,
        nodes: shared.nodes.load(Relaxed),
        elapsed: start.elapsed(),
    };
    let guess = deepen(
        ctx,
        pos,
        shared,
        start,
        progress,
        report(Phase::Proving, lower, upper),
    )?;

    // MTD(f): null-window searches around the guess until the bounds meet.
    let mut g = guess.clamp(lower, upper);
    while lower < upper && upper > alpha && lower < beta {
        // Only a test inside the window tells something the caller needs.
        let test = if g == lower { g + 1 } else { g };
        let beta = test.clamp(alpha.max(lower) + 1, beta.min(upper));
        let p = report(Phase::Proving, lower, upper);
        let near = (beta - guess).abs() <= search::DEEPENING_HINT_REACH;
        shared.deepening_hints.store(near, Relaxed);
        g = smp::search(
            ctx,
            pos,
            beta - 1,
            beta,
            EXACT_DEPTH,
            shared,
            &mut |nodes| {
                progress(&Progress {
                    nodes,
                    elapsed: start.elapsed(),
                    ..p
                })
            },
        )
        .ok_or(SolveError::Cancelled)?;
        if g < beta {
            upper = g;
        } else {
            lower = g;
        }
    }
    progress(&report(Phase::Proving, lower, upper));
    Ok((lower, upper))
}

/// Depth-limited searches of `pos` to [`crate::Config::deepening`] sowings (at most the
/// seeds left), which leave good moves in the table: a guess for the value (the store
/// margin without any). `bounds` is the report to send, with the phase and node count
/// filled in for each depth.
fn deepen(
    ctx: &Context,
    pos: &Position,
    shared: &Shared,
    start: Instant,
    progress: &mut dyn FnMut(&Progress),
    bounds: Progress,
) -> Result<i32, SolveError> {
    let mut guess = pos.store_margin();
    let max_depth = ctx.config.deepening.min(pos.seeds_in_houses() as u8);
    for depth in 1..=max_depth {
        let p = Progress {
            phase: Phase::Deepening(depth),
            nodes: shared.nodes.load(Relaxed),
            elapsed: start.elapsed(),
            ..bounds
        };
        guess = smp::search(ctx, pos, -INF, INF, depth, shared, &mut |nodes| {
            progress(&Progress {
                nodes,
                elapsed: start.elapsed(),
                ..p
            })
        })
        .ok_or(SolveError::Cancelled)?;
    }
    Ok(guess)
}

/// Follows moves that keep the proved value to the end of the game.
pub(crate) fn principal_variation(
    ctx: &Context,
    pos: &Position,
    value: i32,
    shared: &Shared,
) -> Result<Vec<Turn>, SolveError> {
    let (game, table) = (ctx.game, ctx.table);
    let mut worker = ctx.worker(shared);
    let mut pv: Vec<Turn> = Vec::new();
    let (mut pos, mut value) = (*pos, value);
    while !pos.is_over() {
        let hint = table.probe(game.key(&pos)).and_then(|e| e.best);
        let mut moves: Vec<usize> = pos.moves().collect();
        if let Some(h) = hint {
            moves.sort_by_key(|&j| j != h as usize);
        }
        let mut next = None;
        for j in moves {
            let child = game.play_unchecked(&pos, j);
            let same_mover = child.side_to_move() == pos.side_to_move();
            let target = across(same_mover, value);
            let v = worker.search(
                &child,
                game.key(&child),
                target - 1,
                target + 1,
                EXACT_DEPTH,
                1,
            );
            if worker.aborted {
                worker.flush();
                return Err(SolveError::Cancelled);
            }
            if v == target {
                next = Some((j, child, target));
                break;
            }
        }
        // The value is exact, so some move keeps it; anything else is a solver bug.
        let (j, child, target) = next.expect("no move keeps the proved value");
        push_sowing(&mut pv, pos.side_to_move(), j);
        pos = child;
        value = target;
    }
    worker.flush();
    Ok(pv)
}
