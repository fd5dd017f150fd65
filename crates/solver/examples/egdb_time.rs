//! Times an endgame database build: `cargo run --release --example egdb_time -- H K [empty]`.
use kalah_core::{Capture, Game, Rules};
use kalah_solver::egdb::Egdb;

fn main() {
    let a: Vec<String> = std::env::args().collect();
    let h: u8 = a.get(1).map_or(6, |s| s.parse().unwrap());
    let k: usize = a.get(2).map_or(16, |s| s.parse().unwrap());
    let capture = if a.get(3).map_or("standard", |s| s) == "empty" {
        Capture::Empty
    } else {
        Capture::Standard
    };
    let game = Game::new(Rules {
        capture,
        ..Rules::kalah(h, 8)
    })
    .unwrap();
    let t = std::time::Instant::now();
    let db = Egdb::build(&game, k, &|_, _, _| {}).unwrap();
    let s = t.elapsed().as_secs_f64();
    let n = Egdb::entries(h as usize, k);
    let sum: i64 = db
        .bytes()
        .iter()
        .map(|b| b.load(std::sync::atomic::Ordering::Relaxed) as i64)
        .sum();
    println!(
        "H={h} K={k}: {n} entries in {s:.2} s ({:.1} M/s), checksum {sum}",
        n as f64 / s / 1e6
    );
}
