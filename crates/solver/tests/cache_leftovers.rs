//! What a solve's database build leaves in the cache when it is killed: each level is in
//! the partial file as soon as it is finished (as `egdb build` keeps them), and the
//! temporary of a build that died is removed by the next solver that opens the cache,
//! while one a live process holds locked is kept.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::Mutex;
use std::time::{Duration, SystemTime};

use kalah_core::{Game, Rules};
use kalah_solver::cache::Cache;
use kalah_solver::egdb::{file, Egdb, EgdbError};
use kalah_solver::{Config, Database, Solver};

/// A fresh, empty directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("kalah-leftover-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The names of the files in `dir`, sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

fn game() -> Game {
    Game::new(Rules::kalah(4, 3)).unwrap()
}

#[test]
fn a_cache_build_keeps_each_level_as_it_finishes() {
    // Once, a solve's build kept nothing until it was stopped by a first signal: a kill
    // lost every level.
    let dir = scratch("levels");
    let game = game();
    let cache = Cache::at(&dir, 1 << 30);
    let path = cache.path_for(game.rules(), 12);
    let partial = file::partial_path(&path);
    let snapshot = dir.join("as-a-kill-leaves-it");
    let cancel = AtomicBool::new(false);
    let seen = Mutex::new(false);
    // While level 9 is built, the file is what a kill would leave: copied aside.
    let built = Egdb::build_resumable(&game, 12, &path, &cancel, &|level, _, _| {
        let mut seen = seen.lock().unwrap();
        if level == 9 && !*seen {
            *seen = true;
            std::fs::copy(&partial, &snapshot).unwrap();
            cancel.store(true, Relaxed);
        }
    });
    assert_eq!(built.err(), Some(EgdbError::Cancelled));
    let info = file::read_info(&snapshot).unwrap();
    assert_eq!((info.levels, info.max_seeds), (9, 12), "{info:?}");
    // The next build goes on from those levels to the same bytes as a fresh build.
    std::fs::rename(&snapshot, &partial).unwrap();
    let never = AtomicBool::new(false);
    let (db, resumed) = Egdb::build_resumable(&game, 12, &path, &never, &|_, _, _| {}).unwrap();
    assert_eq!(resumed, 9);
    let fresh = Egdb::build(&game, 12, &|_, _, _| {}).unwrap();
    let bytes = |d: &Egdb| -> Vec<i8> { d.bytes().iter().map(|b| b.load(Relaxed)).collect() };
    assert_eq!(bytes(&db), bytes(&fresh));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A process id that runs no process (past Linux's largest).
const DEAD: u32 = 4_194_305;

/// Takes the exclusive lock of `f`, as a live writer holds its temporary.
#[cfg(target_os = "linux")]
fn lock(f: &File) {
    use std::os::fd::AsRawFd;
    // SAFETY: flock on an open descriptor of this test.
    assert_eq!(
        unsafe { libc::flock(f.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) },
        0
    );
}

#[cfg(target_os = "linux")]
#[test]
fn a_dead_builders_temporary_is_removed_by_the_next_solver_and_a_held_one_kept() {
    let dir = scratch("temporaries");
    let game = game();
    let cache = Cache::at(&dir, 1 << 30);
    let name = |pid: u32, ext: &str| format!(".k4-9.egdb.{pid}.{ext}");
    // Left by a build that was killed: its process is gone, nothing holds the file.
    let dead = dir.join(name(DEAD, "tmp"));
    std::fs::write(&dead, [0u8; 100]).unwrap();
    // Left by a killed build whose process id was given to a live process since (this
    // one): older than that process, and not held.
    let reused = dir.join(name(std::process::id(), "tmp.tmp"));
    std::fs::write(&reused, [0u8; 10]).unwrap();
    let long_ago = SystemTime::now() - Duration::from_secs(400 * 24 * 3600);
    File::options()
        .write(true)
        .open(&reused)
        .unwrap()
        .set_modified(long_ago)
        .unwrap();
    // Held locked by a live writer, whatever its name says of its process.
    let held = dir.join(name(DEAD, "tmp.tmp"));
    let holder = File::create(&held).unwrap();
    lock(&holder);
    // Written just now by this live process, between its write and its rename.
    let fresh = dir.join(name(std::process::id(), "tmp"));
    std::fs::write(&fresh, [0u8; 10]).unwrap();
    let config = Config {
        threads: 1,
        hash_mb: 1,
        database: Database::Cached {
            cache: cache.clone(),
            seeds: 6,
            file: None,
        },
        ..Config::default()
    };
    let solver = Solver::new(game.clone(), config).unwrap();
    let kept = cache.path_for(game.rules(), 6);
    assert_eq!(solver.cache_report().unwrap().kept, Some(Ok(kept.clone())));
    let file_name = |p: &Path| p.file_name().unwrap().to_string_lossy().into_owned();
    let mut want = vec![file_name(&held), file_name(&fresh), file_name(&kept)];
    want.sort();
    assert_eq!(names(&dir), want);
    // Let go, the held one is a leftover too.
    drop(holder);
    assert_eq!(cache.clean().unwrap().removed, vec![held.clone()]);
    let _ = std::fs::remove_dir_all(&dir);
}
