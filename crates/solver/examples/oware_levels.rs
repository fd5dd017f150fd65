//! Measures an Oware endgame database level by level: for each level (seeds in the houses)
//! its boards, build time, sweeps of the cycle rule and the database's size so far, and the
//! process's peak memory. `cargo run --release -p kalah-solver --features examples --example oware_levels --
//! HOUSES K [capture-all]`.

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use kalah_core::{Game, GrandSlam, Rules};
use kalah_solver::egdb::{widest_game, Egdb};

/// The CPU seconds (user and system) this process has used.
fn cpu_seconds() -> f64 {
    // SAFETY: getrusage fills the struct it is given.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: as above; RUSAGE_SELF is always valid.
    unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) };
    let secs = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    secs(usage.ru_utime) + secs(usage.ru_stime)
}

/// The process's peak resident memory in MiB (`VmHWM`), where the system says.
fn peak_mib() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024.0)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let houses: u8 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(6);
    let k: usize = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(12);
    let grand_slam = match args.get(3).map(String::as_str) {
        Some("capture-all") => GrandSlam::CaptureAll,
        _ => GrandSlam::NoCapture,
    };
    let rules = Rules {
        grand_slam,
        ..Rules::oware(houses, 4)
    };
    let game: Game = widest_game(&rules).expect("Oware rules");
    let mut db = Egdb::empty(&game, k).expect("memory for the database");
    let never = AtomicBool::new(false);
    println!("level boards seconds cpu_seconds sweeps bytes_so_far peak_mib");
    let total = Instant::now();
    for level in 0..=k {
        let (t, cpu) = (Instant::now(), cpu_seconds());
        db.build_level_cancellable(&game, level, &never, &|_, _, _| {})
            .expect("never cancelled");
        let boards = db.level_start(level + 1) - db.level_start(level);
        println!(
            "{level} {boards} {:.3} {:.3} {} {} {:.0}",
            t.elapsed().as_secs_f64(),
            cpu_seconds() - cpu,
            db.last_level_sweeps(),
            db.level_start(level + 1),
            peak_mib().unwrap_or(0.0)
        );
    }
    println!("total {:.1} s", total.elapsed().as_secs_f64());
}
