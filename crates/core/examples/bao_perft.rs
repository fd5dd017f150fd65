//! Bao perft speed on one thread: `cargo run --release -p kalah-core --features examples --example bao_perft --
//! [pits] [seeds] [depth]` counts perft of the start at each depth up to `depth` and prints
//! the moves counted per second of wall time and of this thread's CPU time (read from
//! `/proc/self/schedstat` where it exists, so that a loaded machine still measures the
//! generator and not the other processes).

use std::time::Instant;

use kalah_core::bao::{perft, BaoRules};

/// This process' CPU time in seconds (Linux), if the kernel tells it.
fn cpu_seconds() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/self/schedstat").ok()?;
    let ns: f64 = text.split_whitespace().next()?.parse().ok()?;
    Some(ns / 1e9)
}

fn main() {
    let args: Vec<usize> = std::env::args()
        .skip(1)
        .map(|a| a.parse().expect("pits seeds depth: numbers"))
        .collect();
    let (pits, seeds, depth) = (
        *args.first().unwrap_or(&8),
        *args.get(1).unwrap_or(&2),
        *args.get(2).unwrap_or(&8),
    );
    let rules = BaoRules::new(pits, seeds).unwrap_or_else(|e| panic!("{e}"));
    let start = rules.start();
    for d in 1..=depth as u32 {
        let (wall, cpu) = (Instant::now(), cpu_seconds());
        let n = perft(&start, d);
        let secs = wall.elapsed().as_secs_f64().max(1e-9);
        let cpu = cpu.zip(cpu_seconds()).map(|(a, b)| (b - a).max(1e-9));
        let rate = |s: f64| n as f64 / s / 1e6;
        print!(
            "4x{pits} S={seeds} perft({d}) = {n}  wall {secs:.3} s {:.2} M moves/s",
            rate(secs)
        );
        match cpu {
            Some(c) => println!("  cpu {c:.3} s {:.2} M moves/s", rate(c)),
            None => println!(),
        }
    }
}
