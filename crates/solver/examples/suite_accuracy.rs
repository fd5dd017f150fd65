//! The best-turn accuracy of the anytime analysis on the analysis suite (`data/suite.txt`,
//! exact values known): for every position, the turn `kalah analyse --time S` picks (its
//! settings: one line, no endgame database, a table of 16 MiB a second), the set of exact
//! best turns (each turn's value proved against the position's by a null-window solve) and,
//! where the pick is not among them, its exact value and the error (best value minus the
//! pick's, for the mover).
//!
//! `cargo run --release -p kalah-solver --example suite_accuracy -- [SECONDS [THREADS [FILTER]]]`
//! (defaults 1 s, 2 threads; FILTER: only the lines that contain it). Prints a Markdown
//! table and the share of positions where the pick is a best turn.
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use kalah_core::{Game, Position};
use kalah_solver::bench::{self, Case};
use kalah_solver::{Config, Database, Limits, Solver, Turn};

fn main() {
    let a: Vec<String> = std::env::args().collect();
    let seconds: f64 = a.get(1).map_or(1.0, |s| s.parse().expect("SECONDS"));
    let threads: usize = a.get(2).map_or(2, |s| s.parse().expect("THREADS"));
    let filter = a.get(3).cloned().unwrap_or_default();
    let text = include_str!("../../../data/suite.txt");
    let cases = bench::read(text).expect("the suite reads");
    println!("| position | value | best turns | pick (depth) | pick's value | error |");
    println!("|---|---|---|---|---|---|");
    let (mut right, mut total, mut error_sum) = (0, 0, 0);
    for case in cases.iter().filter(|c| c.line.contains(&filter)) {
        let row = measure(case, seconds, threads);
        total += 1;
        right += usize::from(row.error == 0);
        error_sum += row.error;
        println!(
            "| `{}` | {:+} | {} | {} ({}) | {:+} | {} |",
            case.line.rsplit_once(' ').map_or(&*case.line, |(l, _)| l),
            row.value,
            row.best.join(" "),
            row.pick,
            row.depth,
            row.pick_value,
            row.error
        );
    }
    println!(
        "\nbest turn at {seconds} s: {right} of {total} ({:.0}%), total error {error_sum} seeds",
        100.0 * right as f64 / total.max(1) as f64
    );
}

/// One position's measurement (values from South).
struct Row {
    value: i32,
    best: Vec<String>,
    pick: String,
    depth: u8,
    pick_value: i32,
    /// The best value minus the pick's, for the mover (0: the pick is a best turn).
    error: i32,
}

/// The analysis of `case` within `seconds`, and the exact values that judge its pick.
fn measure(case: &Case, seconds: f64, threads: usize) -> Row {
    let cancel = AtomicBool::new(false);
    let (game, pos) = (&case.game, &case.pos);
    let seeds = pos.seeds_in_houses() as usize;
    let mut config = Config::for_seeds(game, seeds, 1, &Database::Build(0)).expect("config");
    config.threads = threads;
    let limits = Limits::time(Duration::from_secs_f64(seconds));
    config.hash_mb = config
        .hash_mb
        .min(limits.table_mb_cap().expect("a time limit"));
    let analyser = Solver::new(game.clone(), config).expect("solver");
    let a = analyser
        .analyse_lines(pos, &limits, 1, &cancel, &mut |_| {})
        .expect("analysis");
    drop(analyser);

    let mut config = Config::for_seeds(game, seeds, 1, &Database::Memory).expect("config");
    config.threads = threads;
    let solver = Solver::new(game.clone(), config).expect("solver");
    let side = pos.side_to_move();
    let value = case.value.expect("the suite states every value");
    let mover_value = side.sign() * value;
    let houses = game.houses();
    let mut best = Vec::new();
    let mut pick_value = None;
    let pick = a.best_turn().expect("a position of the suite is not over");
    for t in &a.turns {
        let child = after(game, pos, &t.turn);
        // The turn is a best turn when its value reaches the position's.
        let optimal = at_least(&solver, &child, side, mover_value, &cancel);
        if optimal {
            best.push(t.turn.notation(houses));
        }
        if t.turn == *pick {
            pick_value = Some(if optimal {
                mover_value
            } else {
                mover_of(&child, side) * solver.value(&child, &cancel).expect("solve")
            });
        }
    }
    let pick_value = pick_value.expect("the pick is a root turn");
    best.sort();
    Row {
        value,
        best,
        pick: pick.notation(houses),
        depth: a.depth,
        pick_value: side.sign() * pick_value,
        error: mover_value - pick_value,
    }
}

/// The position after `turn` from `pos`.
fn after(game: &Game, pos: &Position, turn: &Turn) -> Position {
    turn.sowings
        .iter()
        .fold(*pos, |p, &j| game.play_unchecked(&p, j))
}

/// +1 where `child`'s values are the root mover's (`side`), else -1.
fn mover_of(child: &Position, side: kalah_core::Side) -> i32 {
    if child.is_over() || child.side_to_move() == side {
        1
    } else {
        -1
    }
}

/// Whether the value of `child` for `side` is at least `v` (one null-window solve).
fn at_least(
    solver: &Solver,
    child: &Position,
    side: kalah_core::Side,
    v: i32,
    cancel: &AtomicBool,
) -> bool {
    let s = mover_of(child, side);
    if child.is_over() {
        return child.store_margin() >= v;
    }
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
