//! Timed exact solves from the start position, each asserting its published value, with one
//! thread and with all threads: `cargo bench --bench solve` (Kalah(6,3) and (5,4)), or
//! `cargo bench --bench solve -- --full` to add Kalah(6,4) under both capture rules.

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use kalah_core::{Capture, Game, Rules};
use kalah_solver::{Config, Database, Solver};

fn main() {
    let full = std::env::args().any(|a| a == "--full");
    let all = std::thread::available_parallelism().map_or(1, |n| n.get());
    // (houses, seeds, capture, published value from South)
    let mut cases = vec![
        (5, 4, Capture::Empty, 12),
        (6, 3, Capture::Empty, 2),
        (6, 3, Capture::Standard, 2),
    ];
    if full {
        // Irving et al. (2000) for empty capture; Rawlings (2015) for the standard rule.
        cases.push((6, 4, Capture::Empty, 10));
        cases.push((6, 4, Capture::Standard, 8));
    }
    println!(
        "{:<28} {:>7} {:>6} {:>13} {:>9} {:>10}",
        "game", "threads", "value", "nodes", "seconds", "M nodes/s"
    );
    for (houses, seeds, capture, want) in cases {
        let game = Game::new(Rules {
            capture,
            ..Rules::kalah(houses, seeds)
        })
        .expect("valid rules");
        let mut times = Vec::new();
        for threads in [1, all] {
            // The command line's settings for this solve, with a database built in memory.
            let config = Config {
                threads,
                ..Config::for_seeds(&game, game.capacity(), 1, &Database::Memory)
                    .expect("an in-memory database needs no file")
            };
            let timer = Instant::now();
            let solver = Solver::new(game.clone(), config).expect("no file to load");
            let sol = solver
                .solve(&game.start(), &AtomicBool::new(false), &mut |_| {})
                .expect("not cancelled");
            let seconds = timer.elapsed().as_secs_f64();
            assert_eq!(
                sol.value_from_south(),
                want,
                "Kalah({houses},{seeds}) {capture:?}"
            );
            println!(
                "{:<28} {threads:>7} {:>+6} {:>13} {seconds:>9.3} {:>10.2}",
                format!("Kalah({houses},{seeds}) capture={}", capture),
                sol.value_from_south(),
                sol.nodes,
                sol.nodes_per_second() / 1e6
            );
            times.push(seconds);
        }
        if all > 1 {
            println!(
                "{:<28} speed-up 1 -> {all} threads: {:.2}x",
                "",
                times[0] / times[1]
            );
        }
    }
}
