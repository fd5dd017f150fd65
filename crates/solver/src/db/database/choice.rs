//! A [`Database`] request made definite for some work ([`Chosen`]): a directory searched,
//! a file's header read, a size chosen ([`super::budget`]).

use std::path::{Path, PathBuf};

use kalah_core::Game;

use super::budget::egdb_seeds_for;
use super::Database;
use crate::db::cache::Cache;
use crate::db::egdb::{self, file, EgdbError};

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
        Chosen::directory(dir, game, seeds)?.ok_or_else(|| Chosen::none_in(dir, game))
    }

    /// The error for a directory named that has no file for the rules and board of `game`.
    fn none_in(dir: &Path, game: &Game) -> EgdbError {
        EgdbError::NoneInDirectory {
            dir: dir.display().to_string(),
            wanted: egdb::describe(game.rules()),
        }
    }

    /// The file at `path` where its header says it was built for the rules and board of
    /// `game`; `None` where it cannot be read or serves other rules.
    fn serving(path: &Path, game: &Game) -> Option<Chosen> {
        Chosen::file(path.to_path_buf())
            .ok()
            .filter(|c| c.serves(game))
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
            Database::Auto { path, cache } => Ok(Database::choose_auto(
                path.as_deref(),
                cache.as_ref(),
                game,
                seeds,
                solves,
            )),
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
    fn choose_auto(
        path: Option<&Path>,
        cache: Option<&Cache>,
        game: &Game,
        seeds: usize,
        solves: usize,
    ) -> Chosen {
        // A directory (its best file for the work), or a file for these rules.
        let from_path = path.and_then(|path| match path.is_dir() {
            true => Chosen::directory(path, game, seeds).ok().flatten(),
            false => Chosen::serving(path, game),
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

    /// The database file that answers positions of a family whose positions repeat (with
    /// at most `seeds` seeds in the houses), where there is one: a file named (its load
    /// says what is wrong with it), the best of a directory named (an error where it has
    /// none for the rules and board), else the best file of the environment's directory,
    /// else one the cache already holds. None is ever built for these families: a
    /// database of Oware takes minutes to hours (`kalah egdb build`, `egdb cache grow`).
    pub(crate) fn cyclic_file(
        &self,
        game: &Game,
        seeds: usize,
    ) -> Result<Option<PathBuf>, EgdbError> {
        match self {
            Database::File(dir) | Database::BestIn { dir, .. } if dir.is_dir() => {
                let path = file::find_in(dir, game, seeds)?;
                path.ok_or_else(|| Chosen::none_in(dir, game)).map(Some)
            }
            Database::File(path) => Ok(Some(path.clone())),
            Database::Auto { path, cache } => {
                let from_path = path.as_deref().and_then(|path| match path.is_dir() {
                    true => file::find_in(path, game, seeds).ok().flatten(),
                    false => Chosen::serving(path, game).map(|_| path.to_path_buf()),
                });
                Ok(from_path.or_else(|| Some(cache.as_ref()?.find(game, seeds)?.0)))
            }
            Database::Cached { file, .. } => Ok(file.clone()),
            _ => Ok(None),
        }
    }

    /// The database file already there that best serves an analysis of positions of
    /// `game` with at most `seeds` seeds in the houses, among those of at most
    /// `max_bytes` bytes: from the directory or file of a [`Database::Auto`] (the
    /// environment's), else from its cache, in the order of [`file::candidates`]. Never
    /// one to build: an analysis within limits reads a file that loads in a fraction of
    /// its time (mapped), but a build would take longer than the analysis. `None` for any
    /// other choice, or where no file fits.
    pub fn existing_file(&self, game: &Game, seeds: usize, max_bytes: u64) -> Option<PathBuf> {
        let Database::Auto { path, cache } = self else {
            return None;
        };
        let fits = |p: &PathBuf| std::fs::metadata(p).is_ok_and(|m| m.len() <= max_bytes);
        let best_in = |dir: &Path| {
            file::candidates(dir, game, seeds)
                .ok()?
                .into_iter()
                .map(|(p, _)| p)
                .find(fits)
        };
        let from_path = path.as_deref().and_then(|path| match path.is_dir() {
            true => best_in(path),
            false => Chosen::serving(path, game)
                .map(|_| path.to_path_buf())
                .filter(fits),
        });
        from_path.or_else(|| best_in(cache.as_ref()?.dir()))
    }

    /// [`Database::Memory`] made definite.
    pub(crate) fn memory(game: &Game, seeds: usize, solves: usize) -> Chosen {
        Chosen::built(game, egdb_seeds_for(game, seeds, solves).unwrap_or(0))
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
