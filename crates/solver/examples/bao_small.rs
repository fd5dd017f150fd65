//! Solves the start of small Bao boards exactly and prints one line of JSON a board:
//! `cargo run --release -p kalah-solver --features examples --example bao_small -- 3x2 4x2` (the data of
//! docs/bao.md and data/bao/).

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use kalah_core::bao::BaoRules;
use kalah_solver::bao::solve_position;

fn main() {
    // At most this many positions (BAO_LIMIT, default 60 million: about 8 GB).
    let limit = std::env::var("BAO_LIMIT").map_or(60_000_000, |v| v.parse().expect("a number"));
    for arg in std::env::args().skip(1) {
        let (n, s) = arg.split_once('x').expect("boards are NxS, e.g. 4x2");
        let rules = BaoRules::new(n.parse().unwrap(), s.parse().unwrap()).expect("a board");
        let start = rules.start();
        let timer = Instant::now();
        let solved = solve_position(&start, limit, &AtomicBool::new(false), &mut |p| {
            if p.positions % (1 << 20) < (1 << 16) || p.decided.is_some() {
                eprintln!("{arg}: {p:?}")
            }
        })
        .expect("solved");
        let seconds = timer.elapsed().as_secs_f64();
        let stats = solved.stats();
        let moves: Vec<String> = solved
            .move_values(&start)
            .expect("the root")
            .iter()
            .map(|(m, v)| format!("\"{m}\": \"{}\"", v.describe()))
            .collect();
        let line: Vec<String> = solved.line(&start).iter().map(|m| m.to_string()).collect();
        println!(
            "{{\"board\": \"4x{n}\", \"seeds\": {s}, \"value\": \"{}\", \"positions\": {}, \
             \"moves\": {}, \"won\": {}, \"lost\": {}, \"drawn\": {}, \"longest\": {}, \
             \"seconds\": {seconds:.2}, \"first_moves\": {{{}}}, \"pv\": \"{}\"}}",
            solved.value(&start).expect("the root").describe(),
            stats.positions,
            stats.moves,
            stats.won,
            stats.lost,
            stats.drawn,
            stats.longest,
            moves.join(", "),
            line.join(" ")
        );
    }
}
