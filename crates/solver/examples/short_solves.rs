//! The fixed cost of short solves: `cargo run --release -p kalah-solver --features examples --example short_solves -- [solves [hash_mb [threads [clear]]]]`
//! solves the positions two turns into Kalah(4,3) (standard capture) over and over with
//! `Solver::solve_window` on one kept solver (a 4 MiB table by default), and prints the
//! user and system time per solve: what the kernel costs each solve on top of the search.
use std::sync::atomic::AtomicBool;

use kalah_core::{Game, Position, Rules};
use kalah_solver::{process_times, Config, Solver};

fn main() {
    let a: Vec<String> = std::env::args().collect();
    let solves: usize = a.get(1).map_or(20_000, |s| s.parse().unwrap());
    let hash_mb: usize = a.get(2).map_or(4, |s| s.parse().unwrap());
    let threads: usize = a.get(3).map_or(1, |s| s.parse().unwrap());
    // `clear`: an empty table for each solve (Solver::clear_table), as a batch does.
    let clear = a.get(4).is_some_and(|s| s == "clear");
    let game = Game::new(Rules::kalah(4, 3)).unwrap();
    let start = game.start();
    let mut config = Config::for_work(&game, &start, solves);
    config.threads = threads;
    config.hash_mb = hash_mb;
    let solver = Solver::new(game.clone(), config).unwrap();
    // The units: every position two sowings in.
    let mut units: Vec<Position> = Vec::new();
    for i in start.moves() {
        let p = game.play_unchecked(&start, i);
        for j in p.moves() {
            units.push(game.play_unchecked(&p, j));
        }
    }
    let cancel = AtomicBool::new(false);
    let (u0, s0) = process_times().unwrap();
    let wall = std::time::Instant::now();
    let mut nodes = 0u64;
    for k in 0..solves {
        let pos = &units[k % units.len()];
        if clear {
            solver.clear_table();
        }
        let guess = pos.store_margin();
        match solver
            .solve_window(pos, guess - 1, guess + 1, &cancel, &mut |_| {})
            .unwrap()
        {
            Ok(s) => nodes += s.nodes,
            Err(b) => nodes += b.nodes,
        }
    }
    let (u1, s1) = process_times().unwrap();
    let per = |d: std::time::Duration| d.as_secs_f64() * 1e6 / solves as f64;
    println!(
        "{solves} solves ({} units, {hash_mb} MiB, {threads} thread(s)): {nodes} nodes, wall {:.3} s, user {:.1} us/solve, system {:.1} us/solve",
        units.len(),
        wall.elapsed().as_secs_f64(),
        per(u1 - u0),
        per(s1 - s0)
    );
}
