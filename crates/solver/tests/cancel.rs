//! Cancellable database builds: every build (in memory, to a file, into the cache, and the
//! one a solver makes) stops with [`EgdbError::Cancelled`] once its flag is raised, leaves
//! no temporary file, and never passes a partial database off as a complete one; a build
//! to a file cancelled half-way resumes to the same bytes as an uninterrupted one, and so
//! does a build for the cache (a solve's), whose finished levels are kept beside it.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};

use kalah_core::{Game, Rules};
use kalah_solver::cache::Cache;
use kalah_solver::egdb::{file, Egdb, EgdbError};
use kalah_solver::{Config, Database, Solver, SolverError};

/// A fresh, empty directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("kalah-cancel-{name}-{}", std::process::id()));
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

fn bytes_of(db: &Egdb) -> Vec<i8> {
    db.bytes().iter().map(|b| b.load(Relaxed)).collect()
}

fn game() -> Game {
    Game::new(Rules::kalah(4, 3)).unwrap()
}

#[test]
fn a_raised_flag_stops_an_in_memory_build_at_once() {
    let raised = AtomicBool::new(true);
    let built = Egdb::build_cancellable(&game(), 10, &raised, &|_, _, _| {});
    assert_eq!(built.err(), Some(EgdbError::Cancelled));
    let e = EgdbError::Cancelled.to_string();
    assert!(e.contains("cancelled"), "{e}");
}

#[test]
fn a_build_cancelled_half_way_keeps_no_level_it_did_not_finish() {
    let game = game();
    let cancel = AtomicBool::new(false);
    let mut db = Egdb::empty(&game, 10).unwrap();
    for level in 0..=4 {
        db.build_level_cancellable(&game, level, &cancel, &|_, _, _| {})
            .unwrap();
    }
    cancel.store(true, Relaxed);
    assert_eq!(
        db.build_level_cancellable(&game, 5, &cancel, &|_, _, _| {}),
        Err(EgdbError::Cancelled)
    );
    assert_eq!(db.max_seeds(), 4, "level 5 is not counted as finished");
    // Built again, the level is computed whole, as by an uninterrupted build.
    cancel.store(false, Relaxed);
    for level in 5..=10 {
        db.build_level_cancellable(&game, level, &cancel, &|_, _, _| {})
            .unwrap();
    }
    let fresh = Egdb::build(&game, 10, &|_, _, _| {}).unwrap();
    assert_eq!(bytes_of(&db), bytes_of(&fresh));
}

#[test]
fn a_file_build_cancelled_half_way_resumes_to_the_same_file() {
    let dir = scratch("file");
    let game = game();
    let path = dir.join("k4-12.egdb");
    let cancel = AtomicBool::new(false);
    // Raised from the worker threads while level 8 is being built.
    let built = Egdb::build_file_cancellable(&game, 12, &path, &cancel, &|level, _, _| {
        if level == 8 {
            cancel.store(true, Relaxed);
        }
    });
    assert_eq!(built.err(), Some(EgdbError::Cancelled));
    assert!(!path.exists(), "a cancelled build writes no finished file");
    let partial = file::partial_path(&path);
    assert_eq!(names(&dir), vec!["k4-12.egdb.partial".to_string()]);
    let info = file::read_info(&partial).unwrap();
    assert!(
        (8..=9).contains(&info.levels) && !info.is_finished(),
        "{info:?}"
    );
    // The partial file is never loaded as a database.
    assert!(matches!(
        Egdb::load(&partial, &game),
        Err(EgdbError::Incomplete { .. })
    ));
    let (db, resumed) = Egdb::build_file(&game, 12, &path, &|_, _, _| {}).unwrap();
    assert_eq!(resumed, info.levels);
    let fresh = Egdb::build(&game, 12, &|_, _, _| {}).unwrap();
    assert_eq!(bytes_of(&db), bytes_of(&fresh));
    assert_eq!(
        bytes_of(&Egdb::load(&path, &game).unwrap()),
        bytes_of(&fresh)
    );
    assert_eq!(names(&dir), vec!["k4-12.egdb".to_string()]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_cache_build_cancelled_half_way_keeps_its_levels_for_the_next_solver() {
    // Once, a solve interrupted in its database build threw the build away.
    let dir = scratch("cached");
    let game = game();
    let cache = Cache::at(&dir, 1 << 30);
    let path = cache.path_for(game.rules(), 12);
    let cancel = AtomicBool::new(false);
    // Raised from the worker threads while level 8 is being built.
    let built = Egdb::build_resumable(&game, 12, &path, &cancel, &|level, _, _| {
        if level == 8 {
            cancel.store(true, Relaxed);
        }
    });
    assert_eq!(built.err(), Some(EgdbError::Cancelled));
    // Only the finished levels, in the partial file, never taken for a database.
    let partial = file::partial_path(&path);
    let name = |p: &Path| p.file_name().unwrap().to_string_lossy().into_owned();
    assert_eq!(names(&dir), vec![name(&partial)]);
    let info = file::read_info(&partial).unwrap();
    assert!(
        (8..=9).contains(&info.levels) && info.max_seeds == 12 && !info.is_finished(),
        "{info:?}"
    );
    assert!(matches!(
        Egdb::load(&partial, &game),
        Err(EgdbError::Incomplete { .. })
    ));
    // The next solver that builds this database for the cache goes on from them, keeps
    // the whole database and removes the partial file.
    let config = Config {
        threads: 1,
        hash_mb: 1,
        database: Database::Cached {
            cache: cache.clone(),
            seeds: 12,
            file: None,
        },
        ..Config::default()
    };
    let solver = Solver::new(game.clone(), config).unwrap();
    let report = solver.cache_report().unwrap();
    assert_eq!(report.resumed, info.levels);
    assert_eq!(report.kept, Some(Ok(path.clone())));
    assert_eq!(names(&dir), vec![name(&path)]);
    let fresh = Egdb::build(&game, 12, &|_, _, _| {}).unwrap();
    assert_eq!(
        bytes_of(&Egdb::load(&path, &game).unwrap()),
        bytes_of(&fresh)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_damaged_partial_file_in_the_cache_is_built_over() {
    let dir = scratch("damaged");
    let game = game();
    let cache = Cache::at(&dir, 1 << 30);
    let path = cache.path_for(game.rules(), 10);
    let cancel = AtomicBool::new(false);
    let built = Egdb::build_resumable(&game, 10, &path, &cancel, &|level, _, _| {
        if level == 7 {
            cancel.store(true, Relaxed);
        }
    });
    assert_eq!(built.err(), Some(EgdbError::Cancelled));
    // One byte of a finished level flipped: its checksum fails, and the build starts afresh.
    let partial = file::partial_path(&path);
    let mut bytes = std::fs::read(&partial).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    std::fs::write(&partial, bytes).unwrap();
    let never = AtomicBool::new(false);
    let (db, resumed) = Egdb::build_resumable(&game, 10, &path, &never, &|_, _, _| {}).unwrap();
    assert_eq!(resumed, 0);
    let fresh = Egdb::build(&game, 10, &|_, _, _| {}).unwrap();
    assert_eq!(bytes_of(&db), bytes_of(&fresh));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_cancelled_save_leaves_no_temporary_file() {
    let dir = scratch("save");
    let db = Egdb::build(&game(), 8, &|_, _, _| {}).unwrap();
    let path = dir.join("k.egdb");
    let raised = AtomicBool::new(true);
    assert_eq!(
        db.save_cancellable(&path, &raised),
        Err(EgdbError::Cancelled)
    );
    assert!(names(&dir).is_empty(), "{:?}", names(&dir));
    let cache = Cache::at(dir.join("cache"), 1 << 30);
    assert_eq!(
        cache.keep_cancellable(&db, &raised),
        Err(EgdbError::Cancelled)
    );
    assert!(names(cache.dir()).is_empty(), "{:?}", names(cache.dir()));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A solver whose database comes from `database`, made under the raised flag.
fn cancelled_solver(game: Game, database: Database) -> Result<Solver, SolverError> {
    let config = Config {
        threads: 1,
        hash_mb: 1,
        database,
        ..Config::default()
    };
    Solver::new_cancellable(game, config, &AtomicBool::new(true))
}

#[test]
fn a_solver_made_under_a_raised_flag_builds_nothing_and_keeps_nothing() {
    let built = cancelled_solver(game(), Database::Build(10));
    assert_eq!(
        built.err(),
        Some(SolverError::Database(EgdbError::Cancelled))
    );
    let dir = scratch("solver");
    let cache = Cache::at(&dir, 1 << 30);
    let cached = Database::Cached {
        cache: cache.clone(),
        seeds: 10,
        file: None,
    };
    assert_eq!(
        cancelled_solver(game(), cached).err(),
        Some(SolverError::Database(EgdbError::Cancelled))
    );
    assert!(names(&dir).is_empty(), "{:?}", names(&dir));
    // Under the early stop, its own database.
    let early = Game::new(Rules {
        early_stop: true,
        ..Rules::kalah(4, 3)
    })
    .unwrap();
    assert_eq!(
        cancelled_solver(early, Database::Build(8)).err(),
        Some(SolverError::Database(EgdbError::Cancelled))
    );
    // The flag never raised: the same solvers are made.
    let config = Config {
        threads: 1,
        hash_mb: 1,
        database: Database::Build(10),
        ..Config::default()
    };
    let solver = Solver::new_cancellable(game(), config, &AtomicBool::new(false)).unwrap();
    assert_eq!(solver.database_seeds(), Some(10));
    let _ = std::fs::remove_dir_all(&dir);
}
