//! Where a solver's endgame database comes from: the request ([`Database`]), made
//! definite for the work once ([`choice`]: a directory searched, a file's header read, a
//! size chosen by the budget policy of [`budget`]), and opened when the solver is made
//! ([`open`]: built in memory, loaded from a file, or taken from the cache and kept
//! there).

mod budget;
mod choice;
mod open;

use std::path::PathBuf;

use crate::db::cache::{Cache, CacheMaxError};
use crate::env::Environment;

pub(crate) use budget::{egdb_seeds_for, work_seeds};
pub(crate) use choice::Chosen;
pub use open::CacheReport;
pub(crate) use open::{Databases, OpenError};

pub use crate::env::EGDB_PATH_VAR;

/// Where a solver's endgame database comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Database {
    /// The best file for the work in the directory `path` (a directory that cannot be
    /// read is passed over), or the file `path` where it serves the rules and board; else,
    /// with a cache, the database the work needs from the cache ([`Database::Cached`]);
    /// else [`Database::Memory`]. The command line's is [`Database::from_env`].
    Auto {
        /// A directory of database files, or one file, searched first, if any.
        path: Option<PathBuf>,
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
    /// houses ([`crate::db::egdb::file::candidates`]), past any that turns out damaged when loaded
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

impl Database {
    /// [`Database::Auto`] with no directory and no cache: a database built in memory for
    /// the work, as [`Database::Memory`]. Never looks at the environment.
    pub fn auto() -> Database {
        Database::Auto {
            path: None,
            cache: None,
        }
    }

    /// The command line's choice, from the environment ([`Environment::read`]):
    /// [`Database::Auto`] with the directory or file it names (where set and not empty)
    /// and the user's cache ([`Cache::from_env`]); an error where the cache's cap is set
    /// to no size.
    pub fn from_env() -> Result<Database, CacheMaxError> {
        Database::from_environment(&Environment::read())
    }

    /// The command line's choice as [`Database::from_env`] makes it, from an environment
    /// given as values.
    pub fn from_environment(env: &Environment) -> Result<Database, CacheMaxError> {
        Ok(Database::Auto {
            path: env
                .egdb_path
                .clone()
                .filter(|path| !path.is_empty())
                .map(PathBuf::from),
            cache: Cache::from_environment(env)?,
        })
    }

    /// This choice without the cache (`--no-cache`): a [`Database::Auto`] keeps its
    /// directory or file; any other choice is unchanged.
    pub fn without_cache(self) -> Database {
        match self {
            Database::Auto { path, .. } => Database::Auto { path, cache: None },
            other => other,
        }
    }
}
