//! Quick timing of start positions (the solve's wall time, and its processor time, steadier on a shared machine): `cargo run --release -p kalah-solver --features examples --example quick -- H S empty|standard threads [deepening [hash_mb]]`
//! (the command line's settings when left out). Environment: KALAH_EGDB (seeds of an
//! in-memory database), KALAH_EGDB_FILE (a database file), KALAH_SMALL, KALAH_ETC,
//! KALAH_SHARE (the tuning fields of `Config`), KALAH_TRACE (print every progress report), KALAH_ONLINE (the online rules: early stop, mover stuck),
//! KALAH_RESIDENCE (`mapped`, `copied` or `huge`: how to hold the file; else as the command line does).
use std::sync::atomic::AtomicBool;

use kalah_core::{Capture, Game, Rules};
use kalah_solver::egdb::Residence;
use kalah_solver::{Config, Database, Solver};

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
    // The command line's settings for this solve, then what the arguments and the
    // environment change.
    let database = match (std::env::var("KALAH_EGDB_FILE"), env("KALAH_EGDB")) {
        (Ok(path), _) => Database::File(path.into()),
        (_, Some(k)) => Database::Build(k),
        _ => Database::from_env().expect("KALAH_CACHE_MAX_MB is a whole number of MiB"),
    };
    let mut config = Config::for_seeds(&game, game.capacity(), 1, &database).unwrap();
    config.threads = threads;
    if let Some(depth) = a.get(5) {
        config.deepening = depth.parse().unwrap();
    }
    if let Some(mb) = a.get(6) {
        config.hash_mb = mb.parse().unwrap();
    }
    config.table_min_seeds = env("KALAH_SMALL").unwrap_or(config.table_min_seeds);
    config.etc_min_seeds = env("KALAH_ETC").unwrap_or(config.etc_min_seeds);
    config.share_min_seeds = env("KALAH_SHARE").unwrap_or(config.share_min_seeds);
    config.residence = match std::env::var("KALAH_RESIDENCE").as_deref() {
        Ok("mapped") => Residence::Mapped,
        Ok("copied") => Residence::Copied,
        Ok("huge") => Residence::Huge,
        _ => config.residence,
    };
    let built = std::time::Instant::now();
    let solver = Solver::new(game.clone(), config).unwrap();
    eprintln!("setup {:.3}s", built.elapsed().as_secs_f64());
    let cpu0 = cpu_seconds();
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
    let cpu = cpu_seconds() - cpu0;
    let pv: Vec<String> = sol.pv.iter().map(|t| t.notation(h as usize)).collect();
    println!(
        "Kalah({h},{s}) {capture:?}: value {} nodes {} time {:.3}s {:.1} Mn/s cpu {cpu:.3}s {:.1} Mn/cpu-s pv {}",
        sol.value_from_south(),
        sol.nodes,
        sol.elapsed.as_secs_f64(),
        sol.nodes_per_second() / 1e6,
        sol.nodes as f64 / cpu / 1e6,
        pv.join(" ")
    );
}

/// The process's processor time so far (user and system, every thread), in seconds: on a
/// shared machine a steadier measure than the wall clock.
fn cpu_seconds() -> f64 {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: all-zero bytes are a valid rusage (integers only).
        let mut u: libc::rusage = unsafe { std::mem::zeroed() };
        // SAFETY: getrusage only writes the struct it is given.
        unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut u) };
        let t = |v: libc::timeval| v.tv_sec as f64 + v.tv_usec as f64 * 1e-6;
        t(u.ru_utime) + t(u.ru_stime)
    }
    #[cfg(not(target_os = "linux"))]
    0.0
}

fn env(name: &str) -> Option<usize> {
    std::env::var(name).ok().and_then(|v| v.parse().ok())
}
