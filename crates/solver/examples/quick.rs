//! Quick timing of start positions: `cargo run --release --example quick -- H S empty|standard threads [deepening [hash_mb]]`
//! (the defaults of the command line when left out). Environment: KALAH_EGDB (seeds of an
//! in-memory database), KALAH_EGDB_FILE (a database file), KALAH_SMALL, KALAH_ETC,
//! KALAH_SHARE (the tuning fields of `Config`), KALAH_TRACE (print every progress report), KALAH_ONLINE (the online rules: early stop, mover stuck),
//! KALAH_RESIDENCE (`mapped`, `copied` or `huge`: how to hold the file; else as the command line does).
use std::sync::atomic::AtomicBool;

use kalah_core::{Capture, Game, Rules};
use kalah_solver::egdb::{Egdb, Residence};
use kalah_solver::{Config, Solver};

fn main() {
    let a: Vec<String> = std::env::args().collect();
    let h: u8 = a.get(1).map_or(6, |s| s.parse().unwrap());
    let s: u8 = a.get(2).map_or(4, |s| s.parse().unwrap());
    let capture = if a.get(3).map_or("empty", |s| s) == "empty" {
        Capture::Empty
    } else {
        Capture::Standard
    };
    let threads: usize = a.get(4).map_or(1, |s| s.parse().unwrap());
    let online = std::env::var("KALAH_ONLINE").is_ok();
    let game = Game::new(Rules {
        capture,
        early_stop: online,
        end: if online {
            kalah_core::End::MoverStuck
        } else {
            kalah_core::End::RowEmpty
        },
        ..Rules::kalah(h, s)
    })
    .unwrap();
    let deepening: u8 = a
        .get(5)
        .map_or(Config::default_deepening(&game), |s| s.parse().unwrap());
    let hash_mb: usize = a
        .get(6)
        .map_or(Config::default_hash_mb(&game), |s| s.parse().unwrap());
    let built = std::time::Instant::now();
    let solver = Solver::new(
        game.clone(),
        Config {
            threads,
            hash_mb,
            deepening,
            egdb_seeds: env("KALAH_EGDB"),
            table_min_seeds: env("KALAH_SMALL").unwrap_or(0),
            etc_min_seeds: env("KALAH_ETC").unwrap_or(Config::NO_ETC),
            share_min_seeds: env("KALAH_SHARE").unwrap_or(20),
        },
    );
    let solver = match std::env::var("KALAH_EGDB_FILE") {
        Ok(path) => {
            let path = std::path::Path::new(&path);
            let db = match std::env::var("KALAH_RESIDENCE").as_deref() {
                Ok("mapped") => Egdb::load_as(path, &game, Residence::Mapped),
                Ok("copied") => Egdb::load_as(path, &game, Residence::Copied),
                Ok("huge") => Egdb::load_as(path, &game, Residence::Huge),
                _ => Egdb::load_for(path, &game, game.capacity()),
            };
            solver.with_egdb(std::sync::Arc::new(db.unwrap()))
        }
        Err(_) => solver,
    };
    eprintln!("setup {:.3}s", built.elapsed().as_secs_f64());
    let sol = solver
        .solve(&game.start(), &AtomicBool::new(false), &mut |p| {
            if std::env::var("KALAH_TRACE").is_ok() {
                eprintln!(
                    "{:?} [{}, {}] nodes {} {:.3}s",
                    p.phase,
                    p.lower,
                    p.upper,
                    p.nodes,
                    p.elapsed.as_secs_f64()
                )
            }
        })
        .unwrap();
    let pv: Vec<String> = sol.pv.iter().map(|t| t.notation(h as usize)).collect();
    println!(
        "Kalah({h},{s}) {capture:?}: value {} nodes {} time {:.3}s {:.1} Mn/s pv {}",
        sol.value_from_south(),
        sol.nodes,
        sol.elapsed.as_secs_f64(),
        sol.nodes_per_second() / 1e6,
        pv.join(" ")
    );
}

fn env(name: &str) -> Option<usize> {
    std::env::var(name).ok().and_then(|v| v.parse().ok())
}
