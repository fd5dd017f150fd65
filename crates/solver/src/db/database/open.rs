//! The opening of every database a solve uses ([`Databases`]): built in memory, loaded
//! from a file or the best file of a directory, or taken from the cache and kept there.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::{Arc, OnceLock};

use kalah_core::{Game, Position};

use super::Database;
use crate::db::cache::Cache;
use crate::db::egdb::{self, file, Egdb, EgdbError, Residence};
use crate::db::lookup::Lookup;
use crate::db::stopdb::StopDb;
use crate::os;

/// Why the databases of a solve could not be opened; the solver reports it as a
/// [`SolverError`](crate::SolverError) (`DatabaseTooLarge`, `Database`), which takes it
/// with `From` (the error types sit above the databases).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum OpenError {
    /// The database to build does not fit in the memory available.
    TooLarge {
        /// Its seeds.
        seeds: usize,
        /// Bytes it needs.
        needed: u64,
        /// Bytes of memory available.
        available: u64,
        /// The most seeds of a database that fits.
        largest: usize,
    },
    /// Any other reason a database could not be built, loaded or used.
    Database(EgdbError),
}

/// The databases a search engine reads, opened once when the solver is made: the plain
/// one, or under the early stop the one that reads the stores (one per parity of the
/// total of seeds), and what opening them did with the cache and a directory.
pub(crate) struct Databases {
    pub(crate) egdb: Option<Arc<Egdb>>,
    /// Under the early stop, the database that reads the stores (built in memory) for
    /// the start position's parity of the total of seeds.
    pub(crate) stopdb: Option<StopDb>,
    /// The same for the other parity, built when a position of that parity is first
    /// solved (only positions entered by hand have it).
    stopdb_odd: OnceLock<Option<StopDb>>,
    /// What was done with the database cache, if the database came from it.
    pub(crate) cache: Option<CacheReport>,
    /// Files of a database directory passed over because they could not be loaded.
    pub(crate) skipped: Vec<(PathBuf, EgdbError)>,
}

impl Databases {
    /// No database.
    fn none() -> Databases {
        Databases {
            egdb: None,
            stopdb: None,
            stopdb_odd: OnceLock::new(),
            cache: None,
            skipped: Vec::new(),
        }
    }

    /// The plain database `egdb` alone.
    fn plain(egdb: Egdb) -> Databases {
        Databases {
            egdb: Some(Arc::new(egdb)),
            ..Databases::none()
        }
    }

    /// Builds or loads the databases of `database` for a solver of `game` (made definite
    /// here, once), a file held as `residence` says: an error where a file or directory
    /// cannot be used, or where a database to build does not fit in the memory available;
    /// [`EgdbError::Cancelled`] where `cancel` was raised during a build (nothing of it is
    /// kept in memory; a build for the cache keeps its finished levels there, for the
    /// next: [`Egdb::build_resumable`]).
    pub(crate) fn open(
        game: &Game,
        database: &Database,
        residence: Residence,
        cancel: &AtomicBool,
    ) -> Result<Databases, OpenError> {
        let definite = database.for_solver(game).map_err(OpenError::Database)?;
        open_definite(game, &definite, residence, cancel).map_err(|e| match (e, &definite) {
            (EgdbError::NotEnoughMemory { needed, available }, Database::Build(k)) => {
                OpenError::TooLarge {
                    seeds: *k,
                    needed,
                    available,
                    largest: largest_fitting(game, *k, available),
                }
            }
            (e, _) => OpenError::Database(e),
        })
    }

    /// The most seeds in the houses of the positions a database answers (the plain one,
    /// or the early stop's), if there is one.
    pub(crate) fn seeds(&self) -> Option<usize> {
        self.egdb
            .as_deref()
            .map(|d| d.max_seeds())
            .or(self.stopdb.as_ref().map(|d| d.max_seeds()))
    }

    /// [`Databases::seeds`] for the game of `pos` (under the early stop, the database for
    /// its parity of the total of seeds, built on first use).
    pub(crate) fn seeds_for(&self, game: &Game, pos: &Position) -> Option<usize> {
        self.egdb
            .as_deref()
            .map(|d| d.max_seeds())
            .or(self.stopdb_for(game, pos).map(|d| d.max_seeds()))
    }

    /// The database a search of `pos` reads.
    pub(crate) fn lookup(&self, game: &Game, pos: &Position) -> Option<Lookup<'_>> {
        Lookup::choose(game, self.egdb.as_deref(), self.stopdb_for(game, pos))
    }

    /// The early-stop database that serves the game of `pos`: the one built with the
    /// solver where `pos` has the start position's parity of the total of seeds, else one
    /// of the same size for the other parity, built on first use.
    fn stopdb_for(&self, game: &Game, pos: &Position) -> Option<&StopDb> {
        let db = self.stopdb.as_ref()?;
        if db.serves_total(pos.total_seeds()) {
            return Some(db);
        }
        self.stopdb_odd
            .get_or_init(|| StopDb::build(game, db.max_seeds(), pos.total_seeds()))
            .as_ref()
    }
}

/// The most seeds, below `k`, of a database for `game` to build whose entries fit in
/// `available` bytes (0 if none).
fn largest_fitting(game: &Game, k: usize, available: u64) -> usize {
    (0..k)
        .rev()
        .find(|&j| {
            let entries = match game.rules().early_stop {
                true => StopDb::entries(game.houses(), j),
                false => Egdb::entries(game.houses(), j),
            };
            entries <= available as u128
        })
        .unwrap_or(0)
}

/// What a solver did with the database cache ([`Database::Cached`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CacheReport {
    /// A cached file that could not be loaded (damaged, say), removed, and why.
    pub removed: Option<(PathBuf, EgdbError)>,
    /// The file loaded from the cache.
    pub loaded: Option<PathBuf>,
    /// The database built in memory and kept in the cache: the file, or why it was not
    /// kept (the search uses it all the same).
    pub kept: Option<Result<PathBuf, EgdbError>>,
    /// The seed levels of that build read back from the partial file an interrupted build
    /// left in the cache (0 where it started afresh).
    pub resumed: usize,
}

/// Builds or loads the databases of `database`, already definite
/// ([`Database::for_solver`]), for a solver of `game`.
fn open_definite(
    game: &Game,
    database: &Database,
    residence: Residence,
    cancel: &AtomicBool,
) -> Result<Databases, EgdbError> {
    match database {
        Database::BestIn { dir, seeds } => best_in(game, dir, *seeds, residence),
        Database::File(path) => Ok(Databases::plain(Egdb::load_as(path, game, residence)?)),
        Database::Build(k) => build(game, *k, cancel),
        Database::Cached { cache, seeds, file } => {
            cached(game, cache, *seeds, file.as_deref(), residence, cancel)
        }
        _ => Ok(Databases::none()),
    }
}

/// The databases of `k` seeds built in memory: the plain one, or under the early stop
/// the one that reads the stores; [`EgdbError::Cancelled`] soon after `cancel` is raised.
fn build(game: &Game, k: usize, cancel: &AtomicBool) -> Result<Databases, EgdbError> {
    let egdb = match Egdb::build_cancellable(game, k, cancel, &|_, _, _| {}) {
        Ok(db) => Some(Arc::new(db)),
        // Under the early stop the plain database does not apply.
        Err(EgdbError::EarlyStop) => None,
        Err(e) => return Err(e),
    };
    Ok(Databases {
        egdb,
        stopdb: build_stopdb(game, k, cancel)?,
        ..Databases::none()
    })
}

/// Under the early stop, the database of `k` seeds for the start position's total (even
/// on every board), which reads the stores; refused where its values would take more
/// than seven tenths of the memory available; [`EgdbError::Cancelled`] where `cancel`
/// stopped it.
fn build_stopdb(game: &Game, k: usize, cancel: &AtomicBool) -> Result<Option<StopDb>, EgdbError> {
    match (game.rules().early_stop, os::available_memory()) {
        (true, Some(bytes)) if StopDb::entries(game.houses(), k) > bytes as u128 / 10 * 7 => {
            Err(EgdbError::NotEnoughMemory {
                needed: StopDb::entries(game.houses(), k).min(u64::MAX as u128) as u64,
                available: bytes / 10 * 7,
            })
        }
        _ => match StopDb::build_cancellable(game, k, game.start().total_seeds(), cancel) {
            None if cancel.load(Relaxed) => Err(EgdbError::Cancelled),
            built => Ok(built),
        },
    }
}

/// The best file of `dir` for positions with at most `seeds` seeds in the houses that
/// loads; a damaged one is passed over (and listed in [`Databases::skipped`]).
fn best_in(
    game: &Game,
    dir: &Path,
    seeds: usize,
    residence: Residence,
) -> Result<Databases, EgdbError> {
    let mut skipped = Vec::new();
    for (path, _) in file::candidates(dir, game, seeds)? {
        match Egdb::load_as(&path, game, residence) {
            Ok(db) => {
                return Ok(Databases {
                    skipped,
                    ..Databases::plain(db)
                })
            }
            Err(e) if damaged(&e) => skipped.push((path, e)),
            Err(e) => return Err(e),
        }
    }
    Err(skipped.pop().map_or_else(
        || EgdbError::NoneInDirectory {
            dir: dir.display().to_string(),
            wanted: egdb::describe(game.rules()),
        },
        |(_, e)| e,
    ))
}

/// The stale temporaries of the cache removed ([`Cache::clean`]), the cached `file`
/// where it loads (a damaged one is removed), else a database of
/// `seeds` seeds built in memory (going on from the levels an interrupted build kept in
/// `cache`, and keeping its own there where `cancel` stops it) and kept in `cache`; the
/// [`CacheReport`] says which.
fn cached(
    game: &Game,
    cache: &Cache,
    seeds: usize,
    file: Option<&Path>,
    residence: Residence,
    cancel: &AtomicBool,
) -> Result<Databases, EgdbError> {
    let mut report = CacheReport {
        removed: None,
        loaded: None,
        kept: None,
        resumed: 0,
    };
    // The temporaries of builds killed on the way (`kill -9`, a second signal) go: no one
    // would ever finish or remove them. Those a live process writes are kept; a failure
    // only leaves them for `kalah egdb cache clean`.
    let _ = cache.clean();
    if let Some(path) = file {
        match Egdb::load_as(path, game, residence) {
            Ok(db) => {
                report.loaded = Some(path.to_path_buf());
                return Ok(Databases {
                    cache: Some(report),
                    ..Databases::plain(db)
                });
            }
            // Damage: never trusted, rebuilt below.
            Err(e) if damaged(&e) => {
                let _ = std::fs::remove_file(path);
                report.removed = Some((path.to_path_buf(), e));
            }
            Err(e) => return Err(e),
        }
    }
    // Resumable: a build that `cancel` stops keeps its finished levels in the cache's
    // partial file, and the next build for these rules and size goes on from them.
    let target = cache.path_for(game.rules(), seeds);
    let (db, resumed) = Egdb::build_resumable(game, seeds, &target, cancel, &|_, _, _| {})?;
    report.resumed = resumed;
    let mut opened = Databases::plain(db);
    report.kept = opened
        .egdb
        .as_ref()
        .map(|db| cache.keep_cancellable(db, cancel));
    if report.kept.as_ref().is_some_and(|kept| kept.is_ok()) {
        let _ = std::fs::remove_file(file::partial_path(&target));
    }
    if cancel.load(Relaxed) {
        // Whatever was kept, the solver is not made: the caller asked to stop.
        return Err(EgdbError::Cancelled);
    }
    opened.cache = Some(report);
    Ok(opened)
}

/// True where a database file failed to load because of what it holds (damage, another
/// format), not because of this machine (memory, permissions).
fn damaged(e: &EgdbError) -> bool {
    matches!(
        e,
        EgdbError::Corrupt { .. }
            | EgdbError::NotADatabase { .. }
            | EgdbError::Version { .. }
            | EgdbError::Incomplete { .. }
    )
}
