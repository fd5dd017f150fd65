//! Where a solver's endgame database comes from: the [`Database`] a [`Config`] names, made
//! definite for the work (a directory searched, a file's header read, a size chosen), and
//! opened when the solver is made (built in memory, loaded from a file, or taken from the
//! cache and kept there).

use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use kalah_core::{Game, Position};

use crate::cache::Cache;
use crate::config::Config;
use crate::egdb::{self, file, Egdb, EgdbError, Residence};
use crate::error::SolverError;
use crate::lookup::Lookup;
use crate::stopdb::StopDb;

/// The environment variable naming a directory of endgame database files, searched by
/// [`Database::Auto`].
pub const EGDB_PATH_VAR: &str = "KALAH_EGDB_PATH";

/// Where a solver's endgame database comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Database {
    /// The default ([`Database::auto`]): the best file for the work in the directory named
    /// by [`EGDB_PATH_VAR`] (a directory that cannot be read is passed over); else, with a
    /// cache, the database the work needs from the cache ([`Database::Cached`]); else
    /// [`Database::Memory`].
    Auto {
        /// The database cache to read and grow, if any.
        cache: Option<Cache>,
    },
    /// Built in memory when the solver is created, sized for the work (none on tiny
    /// boards); under the early stop, the database that reads the stores.
    Memory,
    /// Built in memory: every position with at most this many seeds in the houses (0:
    /// none).
    Build(usize),
    /// Loaded from this file, or from the best file of this directory for the work (see
    /// [`Database::BestIn`]).
    File(PathBuf),
    /// Loaded from the best file in `dir` for positions with at most `seeds` seeds in the
    /// houses ([`file::candidates`]), past any that turns out damaged when loaded
    /// ([`crate::Solver::skipped_files`]). [`Database::File`] with a directory, and
    /// [`Database::Auto`], choose it.
    BestIn {
        /// The directory.
        dir: PathBuf,
        /// The most seeds in the houses of the work's positions.
        seeds: usize,
    },
    /// From `cache`: its file `file` where it has one for the work (a file that cannot be
    /// loaded, damaged say, is removed and the database built again), else a database of
    /// `seeds` seeds built in memory and kept there ([`crate::Solver::cache_report`] says how that
    /// went). [`Database::Auto`] chooses it; the cache is passed over under the early stop,
    /// whose database has no file.
    Cached {
        /// The cache.
        cache: Cache,
        /// Seeds of the database to build where the cache has none for the work.
        seeds: usize,
        /// The cached file to load.
        file: Option<PathBuf>,
    },
    /// No database.
    None,
}

impl Default for Database {
    fn default() -> Self {
        Database::auto()
    }
}

/// A [`Database`] made definite for some work: what to build or load, and how many seeds
/// it holds.
pub(crate) struct Chosen {
    /// [`Database::Build`], [`Database::File`] (a file, not a directory),
    /// [`Database::Cached`] or [`Database::None`].
    pub(crate) database: Database,
    /// The most seeds in the houses of the positions it answers (`None`: no database).
    pub(crate) seeds: Option<usize>,
}

impl Chosen {
    /// A database built in memory with `k` seeds (at most the game's), or none for 0.
    fn built(game: &Game, k: usize) -> Chosen {
        let k = k.min(game.capacity());
        Chosen {
            database: if k == 0 {
                Database::None
            } else {
                Database::Build(k)
            },
            seeds: (k > 0).then_some(k),
        }
    }

    /// The file at `path` (not a directory), by its header.
    fn file(path: PathBuf) -> Result<Chosen, EgdbError> {
        let held = file::read_info(&path)?.max_seeds;
        Ok(Chosen {
            database: Database::File(path),
            seeds: Some(held),
        })
    }

    /// The directory `dir`, sized by its best file for the work ([`file::candidates`]);
    /// `None` where it has no file for the rules and board. The file is picked when the
    /// solver loads it, past any that turns out damaged.
    fn directory(dir: &Path, game: &Game, seeds: usize) -> Result<Option<Chosen>, EgdbError> {
        Ok(file::candidates(dir, game, seeds)?
            .first()
            .map(|(_, held)| Chosen {
                database: Database::BestIn {
                    dir: dir.to_path_buf(),
                    seeds,
                },
                seeds: Some(*held),
            }))
    }

    /// [`Chosen::directory`] for a directory the caller named: one without a file for the
    /// rules and board is an error.
    fn named_directory(dir: &Path, game: &Game, seeds: usize) -> Result<Chosen, EgdbError> {
        Chosen::directory(dir, game, seeds)?.ok_or_else(|| EgdbError::NoneInDirectory {
            dir: dir.display().to_string(),
            wanted: egdb::describe(game.rules()),
        })
    }

    /// True where the chosen file was built for the rules and board of `game`.
    fn serves(&self, game: &Game) -> bool {
        match &self.database {
            Database::File(path) => {
                file::read_info(path).is_ok_and(|info| egdb::serves(&info.rules, game.rules()))
            }
            _ => false,
        }
    }
}

impl Database {
    /// The default choice: [`Database::Auto`] with the user's cache ([`Cache::from_env`]).
    pub fn auto() -> Database {
        Database::Auto {
            cache: Cache::from_env(),
        }
    }

    /// This choice made definite for solves of positions of `game` with at most `seeds`
    /// seeds in the houses, `solves` of them sharing the database: a directory is searched,
    /// a file's header read, a size chosen.
    pub(crate) fn choose(
        &self,
        game: &Game,
        seeds: usize,
        solves: usize,
    ) -> Result<Chosen, EgdbError> {
        match self {
            Database::Auto { cache } => Ok(Database::choose_auto(cache, game, seeds, solves)),
            Database::Memory => Ok(Database::memory(game, seeds, solves)),
            Database::Build(k) => Ok(Chosen::built(game, *k)),
            Database::File(dir) if dir.is_dir() => Chosen::named_directory(dir, game, seeds),
            Database::File(path) => Chosen::file(path.clone()),
            Database::BestIn { dir, seeds } => Chosen::named_directory(dir, game, *seeds),
            Database::Cached { .. } => Ok(Chosen {
                database: self.clone(),
                seeds: Some(self.cached_seeds()),
            }),
            Database::None => Ok(Chosen::built(game, 0)),
        }
    }

    /// [`Database::Auto`] made definite: never an error.
    pub(crate) fn choose_auto(
        cache: &Option<Cache>,
        game: &Game,
        seeds: usize,
        solves: usize,
    ) -> Chosen {
        // A directory (its best file for the work), or a file for these rules.
        let from_path = std::env::var_os(EGDB_PATH_VAR)
            .filter(|path| !path.is_empty())
            .map(PathBuf::from)
            .and_then(|path| match path.is_dir() {
                true => Chosen::directory(&path, game, seeds).ok().flatten(),
                false => Chosen::file(path).ok().filter(|c| c.serves(game)),
            });
        let memory = Database::memory(game, seeds, solves);
        match (from_path, cache, memory.seeds) {
            (Some(chosen), _, _) => chosen,
            (None, Some(cache), Some(k)) if !game.rules().early_stop => {
                // A cached file at least as large as the database the work needs, else
                // that database, built and kept.
                let (file, held) = match cache.find(game, seeds) {
                    Some((path, held)) if held >= k => (Some(path), held),
                    _ => (None, k),
                };
                Chosen {
                    database: Database::Cached {
                        cache: cache.clone(),
                        seeds: k,
                        file,
                    },
                    seeds: Some(held),
                }
            }
            _ => memory,
        }
    }

    /// [`Database::Memory`] made definite.
    fn memory(game: &Game, seeds: usize, solves: usize) -> Chosen {
        Chosen::built(
            game,
            Config::default_egdb_seeds_for(game, seeds, solves).unwrap_or(0),
        )
    }

    /// The seeds of a [`Database::Cached`]: its file's, else those it builds.
    fn cached_seeds(&self) -> usize {
        match self {
            Database::Cached {
                file: Some(path),
                seeds,
                ..
            } => file::read_info(path).map_or(*seeds, |info| info.max_seeds),
            Database::Cached { seeds, .. } => *seeds,
            _ => 0,
        }
    }

    /// What a solver for `game` builds or loads for this choice, sized for one solve from
    /// the start where the choice leaves the size open.
    pub(crate) fn for_solver(&self, game: &Game) -> Result<Database, EgdbError> {
        match self {
            // Already definite: nothing to search or read again.
            Database::File(path) if !path.is_dir() => Ok(self.clone()),
            Database::BestIn { .. } | Database::Cached { .. } => Ok(self.clone()),
            _ => Ok(self.choose(game, game.capacity(), 1)?.database),
        }
    }
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

    /// Builds or loads the databases of `database` for a solver of `game`, a file held as
    /// `residence` says: an error where a file or directory cannot be used, or where a
    /// database to build does not fit in the memory available.
    pub(crate) fn open(
        game: &Game,
        database: &Database,
        residence: Residence,
    ) -> Result<Databases, SolverError> {
        database
            .open(game, residence)
            .map_err(|e| match (e, &database.for_solver(game)) {
                (EgdbError::NotEnoughMemory { needed, available }, Ok(Database::Build(k))) => {
                    SolverError::DatabaseTooLarge {
                        seeds: *k,
                        needed,
                        available,
                        largest: largest_fitting(game, *k, available),
                    }
                }
                (e, _) => SolverError::Database(e),
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
}

impl Database {
    /// Builds or loads this choice's databases for a solver of `game`, a file held as
    /// `residence` says.
    fn open(&self, game: &Game, residence: Residence) -> Result<Databases, EgdbError> {
        let built = |k: usize| -> Result<Databases, EgdbError> {
            Ok(Databases {
                egdb: match Egdb::build(game, k, &|_, _, _| {}) {
                    Ok(db) => Some(Arc::new(db)),
                    // Under the early stop the plain database does not apply.
                    Err(EgdbError::EarlyStop) => None,
                    Err(e) => return Err(e),
                },
                // Under the early stop: the database of the start position's total (even on
                // every board), which reads the stores; refused where its values would take
                // more than seven tenths of the memory available.
                stopdb: match (game.rules().early_stop, crate::os::available_memory()) {
                    (true, Some(bytes))
                        if StopDb::entries(game.houses(), k) > bytes as u128 / 10 * 7 =>
                    {
                        return Err(EgdbError::NotEnoughMemory {
                            needed: StopDb::entries(game.houses(), k).min(u64::MAX as u128) as u64,
                            available: bytes / 10 * 7,
                        })
                    }
                    _ => StopDb::build(game, k, game.start().total_seeds()),
                },
                ..Databases::none()
            })
        };
        Ok(match self.for_solver(game)? {
            Database::BestIn { dir, seeds } => {
                // The best file that loads; a damaged one is passed over.
                let mut skipped = Vec::new();
                for (path, _) in file::candidates(&dir, game, seeds)? {
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
                return Err(skipped.pop().map_or_else(
                    || EgdbError::NoneInDirectory {
                        dir: dir.display().to_string(),
                        wanted: egdb::describe(game.rules()),
                    },
                    |(_, e)| e,
                ));
            }
            Database::File(path) => Databases::plain(Egdb::load_as(&path, game, residence)?),
            Database::Build(k) => built(k)?,
            Database::Cached { cache, seeds, file } => {
                let mut report = CacheReport {
                    removed: None,
                    loaded: None,
                    kept: None,
                };
                if let Some(path) = file {
                    match Egdb::load_as(&path, game, residence) {
                        Ok(db) => {
                            report.loaded = Some(path);
                            return Ok(Databases {
                                cache: Some(report),
                                ..Databases::plain(db)
                            });
                        }
                        // Damage: never trusted, rebuilt below.
                        Err(e) if damaged(&e) => {
                            let _ = std::fs::remove_file(&path);
                            report.removed = Some((path, e));
                        }
                        Err(e) => return Err(e),
                    }
                }
                let mut opened = built(seeds)?;
                report.kept = opened.egdb.as_ref().map(|db| cache.keep(db));
                opened.cache = Some(report);
                opened
            }
            _ => Databases::none(),
        })
    }
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
