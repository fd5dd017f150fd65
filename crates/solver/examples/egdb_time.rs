//! Times an endgame database build:
//! `cargo run --release -p kalah-solver --features examples --example egdb_time -- H K [standard|empty] [stop [TOTAL]]`.
//!
//! Builds the plain database ([`Egdb`]) of `H` houses and `K` seeds, or with `stop` the
//! early stop's ([`StopDb`]) for totals of the parity of `TOTAL` (default `2 * H * 4`),
//! and prints the time and a checksum of its values (a sum for the plain one, an FNV-1a
//! hash for the early stop's), which a change that keeps the contents keeps.
use std::sync::atomic::Ordering::Relaxed;

use kalah_core::{Capture, Game, Rules};
use kalah_solver::egdb::Egdb;
use kalah_solver::stopdb::StopDb;

fn main() {
    let a: Vec<String> = std::env::args().collect();
    let h: u8 = a.get(1).map_or(6, |s| s.parse().unwrap());
    let k: usize = a.get(2).map_or(16, |s| s.parse().unwrap());
    let capture = if a.get(3).map_or("standard", |s| s) == "empty" {
        Capture::Empty
    } else {
        Capture::Standard
    };
    let stop = a.get(4).is_some_and(|s| s == "stop");
    let game = Game::new(Rules {
        capture,
        early_stop: stop,
        ..Rules::kalah(h, 8)
    })
    .unwrap();
    let t = std::time::Instant::now();
    if stop {
        let total: u32 = a.get(5).map_or(8 * h as u32, |s| s.parse().unwrap());
        let db = StopDb::build(&game, k, total).expect("the early stop's database fits");
        let s = t.elapsed().as_secs_f64();
        let hash = (0..db.len() as u64).fold(0xcbf2_9ce4_8422_2325u64, |x, i| {
            (x ^ db.value_at(i) as u8 as u64).wrapping_mul(0x100_0000_01b3)
        });
        println!(
            "H={h} K={k} early stop, totals of the parity of {total}: {} entries in {s:.2} s \
             ({:.1} M/s), hash {hash:016x}",
            db.len(),
            db.len() as f64 / s / 1e6
        );
        return;
    }
    let db = Egdb::build(&game, k, &|_, _, _| {}).unwrap();
    let s = t.elapsed().as_secs_f64();
    let n = Egdb::entries(h as usize, k);
    let sum: i64 = db.bytes().iter().map(|b| b.load(Relaxed) as i64).sum();
    println!(
        "H={h} K={k}: {n} entries in {s:.2} s ({:.1} M/s), checksum {sum}",
        n as f64 / s / 1e6
    );
}
