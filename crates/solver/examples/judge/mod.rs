//! What the examples `suite_accuracy` and `blunders` share: the limit of an analysis as
//! written on their command lines, the position after a root turn, and the exact verdict
//! on a turn (one null-window solve). Not an example itself (a folder without
//! `main.rs`); each example includes it with `mod judge;`.
#![allow(dead_code)]

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use kalah_core::{Game, Position, Side};
use kalah_solver::{Limits, Solver, Turn};

/// The limits of `s` (seconds, or nodes with a `k`/`M` suffix), and how to name them.
pub fn parse_limit(s: &str) -> Result<(Limits, String), String> {
    let (digits, scale) = match s.as_bytes().last() {
        Some(b'k') => (&s[..s.len() - 1], 1_000),
        Some(b'M') => (&s[..s.len() - 1], 1_000_000),
        _ => (s, 0),
    };
    let bad = || format!("`{s}`: a limit is seconds (0.1) or nodes (500k, 4M)");
    let n: f64 = digits.parse().map_err(|_| bad())?;
    if !(n.is_finite() && n > 0.0) {
        return Err(bad());
    }
    Ok(if scale > 0 {
        (
            Limits::nodes((n * scale as f64) as u64),
            format!("{s} nodes"),
        )
    } else {
        (Limits::time(Duration::from_secs_f64(n)), format!("{s} s"))
    })
}

/// The position after `turn` from `pos`.
pub fn after(game: &Game, pos: &Position, turn: &Turn) -> Position {
    turn.sowings
        .iter()
        .fold(*pos, |p, &j| game.play_unchecked(&p, j))
}

/// +1 where `child`'s values are the root mover's (`side`), else -1.
pub fn mover_of(child: &Position, side: Side) -> i32 {
    if child.is_over() || child.side_to_move() == side {
        1
    } else {
        -1
    }
}

/// The exact value of `child` for `side` (the root's mover).
pub fn value_for(solver: &Solver, child: &Position, side: Side, cancel: &AtomicBool) -> i32 {
    if child.is_over() {
        return final_margin(child, side);
    }
    mover_of(child, side) * solver.value(child, cancel).expect("solve")
}

/// The final margin of a finished `pos` for `side`, whichever side it shows to move.
fn final_margin(pos: &Position, side: Side) -> i32 {
    side.sign() * pos.side_to_move().sign() * pos.store_margin()
}

/// Whether the value of `child` for `side` is at least `v` (one null-window solve).
pub fn at_least(
    solver: &Solver,
    child: &Position,
    side: Side,
    v: i32,
    cancel: &AtomicBool,
) -> bool {
    if child.is_over() {
        return final_margin(child, side) >= v;
    }
    let s = mover_of(child, side);
    // For the child's mover: at least `v` (s = 1), or at most `-v` (s = -1).
    let (alpha, beta) = if s == 1 { (v - 1, v) } else { (-v, -v + 1) };
    match solver
        .solve_window(child, alpha, beta, cancel, &mut |_| {})
        .expect("solve")
    {
        Ok(solution) => s * solution.value >= v,
        Err(bound) if s == 1 => bound.lower >= beta,
        Err(bound) => bound.upper <= alpha,
    }
}
