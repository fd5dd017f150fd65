//! The database cache: endgame database files kept between runs in the user's cache
//! directory, so that a database is built once for a board and rule set and then loaded
//! (mapped, in a blink) by every later solve of any command.
//!
//! A solve with the default database ([`crate::Database::Auto`]) takes the best cached file
//! for its rules and board where one holds at least the database it would build; else it
//! builds that database in memory and keeps it here. So the cache grows with the work:
//! a larger database replaces the smaller ones of the same rules.
//!
//! Files are written whole or not at all (a temporary file of this process beside the
//! final name, synced, then renamed over it), so two processes that build the same
//! database at once leave one good file; a damaged file is never trusted (every load
//! verifies its checksum) and is removed and rebuilt. A write cut short by a kill leaves
//! its temporary, which a listing shows as stale and [`Cache::clean`] removes; clearing
//! removes only kalah databases ([`Cache::clear`], in `leftovers`).

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

use kalah_core::{Game, Rules};

use crate::db::egdb::file::{self, FileInfo, Requirements};
use crate::db::egdb::{Egdb, EgdbError};
use crate::env::Environment;

pub use crate::env::{CACHE_MAX_VAR, CACHE_VAR};
pub use leftovers::{Cleared, Leftover, LeftoverKind};

mod leftovers;

/// The most the cache holds by default: room for a 28-seed database of 6 houses (5.3 GiB)
/// and a few small ones.
pub const DEFAULT_MAX_BYTES: u64 = 8 << 30;

/// A value of [`CACHE_MAX_VAR`] that is not a cap: not a whole number of MiB (`garbage`,
/// `-5`, `0.1`, empty), zero, or more bytes than a `u64` counts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CacheMaxError {
    /// The value as set.
    pub value: String,
}

impl std::fmt::Display for CacheMaxError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{CACHE_MAX_VAR}={:?} is not a size for the database cache: give a whole number \
             of MiB, at least 1 (the default is {}), unset it for the default, or set \
             {CACHE_VAR}=off to turn the cache off",
            self.value,
            DEFAULT_MAX_BYTES >> 20
        )
    }
}

impl std::error::Error for CacheMaxError {}

/// The cap in bytes that a value of [`CACHE_MAX_VAR`] sets (MiB, digits only, at least 1).
pub fn max_bytes(value: &str) -> Result<u64, CacheMaxError> {
    let bad = || CacheMaxError {
        value: value.to_string(),
    };
    if value.is_empty() || !value.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad());
    }
    match value
        .parse::<u64>()
        .ok()
        .and_then(|mb| mb.checked_mul(1 << 20))
    {
        Some(bytes) if bytes > 0 => Ok(bytes),
        _ => Err(bad()),
    }
}

/// A directory of cached database files, with a cap on their total size.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cache {
    dir: PathBuf,
    max_bytes: u64,
}

/// A file in the cache.
#[derive(Clone, Debug)]
pub struct Cached {
    /// Its path.
    pub path: PathBuf,
    /// Its size in bytes.
    pub bytes: u64,
    /// Its header, or why it cannot be read.
    pub info: Result<FileInfo, EgdbError>,
}

/// What the cache holds: its files, in name order, and the bytes they take.
#[derive(Clone, Debug)]
pub struct Listing {
    /// Every `*.egdb` file, with its header.
    pub files: Vec<Cached>,
    /// The bytes they take in all.
    pub bytes: u64,
    /// The temporaries and partial files beside them ([`Cache::leftovers`]), not counted
    /// in `bytes`.
    pub leftovers: Vec<Leftover>,
}

impl Cache {
    /// The user's cache: the directory of [`CACHE_VAR`] where it is set (`None` where it
    /// says `off`), else the platform's cache directory (`$XDG_CACHE_HOME/kalah` or
    /// `~/.cache/kalah` on Linux); its cap from [`CACHE_MAX_VAR`], else
    /// [`DEFAULT_MAX_BYTES`]. `None` where there is no home directory to put it in; an
    /// error where [`CACHE_MAX_VAR`] is set to anything but a whole number of MiB, at
    /// least 1 (never a cap guessed from a mistyped one).
    pub fn from_env() -> Result<Option<Cache>, CacheMaxError> {
        Cache::from_environment(&Environment::read())
    }

    /// The user's cache as [`Cache::from_env`] finds it, from an environment given as
    /// values.
    pub fn from_environment(env: &Environment) -> Result<Option<Cache>, CacheMaxError> {
        let dir = match &env.cache {
            Some(v) if ["off", "0", "no", "false"].iter().any(|off| v == *off) => return Ok(None),
            Some(v) if !v.is_empty() => PathBuf::from(v),
            _ => match &env.platform_cache {
                Some(dir) => dir.clone(),
                None => return Ok(None),
            },
        };
        let max_bytes = match &env.cache_max_mb {
            None => DEFAULT_MAX_BYTES,
            Some(v) => max_bytes(&v.to_string_lossy())?,
        };
        Ok(Some(Cache { dir, max_bytes }))
    }

    /// A cache in `dir` holding at most `max_bytes`.
    pub fn at(dir: impl Into<PathBuf>, max_bytes: u64) -> Cache {
        Cache {
            dir: dir.into(),
            max_bytes,
        }
    }

    /// The directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The most its files may take in all, in bytes.
    pub fn max_bytes(&self) -> u64 {
        self.max_bytes
    }

    /// The directory inside the cache where `kalah bench` keeps the databases of its
    /// cases between runs, each of exactly the seeds its case builds (apart from the
    /// cache's own files, which a larger database replaces: see
    /// [`crate::bench::Case::run_kept`]). Not counted against the cap; cleared with the
    /// rest by [`Cache::clear`].
    pub fn bench_dir(&self) -> PathBuf {
        self.dir.join("bench")
    }

    /// True where `path` is a file of this cache.
    pub fn holds(&self, path: &Path) -> bool {
        path.parent() == Some(self.dir.as_path())
    }

    /// The cached file best suited to positions of `game` with at most `seeds` seeds in the
    /// houses (see [`file::find_in`]) and its number of seeds; `None` where the cache holds
    /// none for these rules and board (or cannot be read).
    pub fn find(&self, game: &Game, seeds: usize) -> Option<(PathBuf, usize)> {
        let path = file::find_in(&self.dir, game, seeds).ok().flatten()?;
        let held = file::read_info(&path).ok()?.max_seeds;
        Some((path, held))
    }

    /// The name a database for `rules` with `max_seeds` seeds has here.
    pub fn path_for(&self, rules: &Rules, max_seeds: usize) -> PathBuf {
        let rules = crate::db::egdb::describe(rules).replace([' ', '='], "-");
        self.dir.join(format!("{rules}-{max_seeds}.egdb"))
    }

    /// Every `*.egdb` file in the cache, with its header.
    pub fn files(&self) -> Vec<Cached> {
        let Ok(entries) = std::fs::read_dir(&self.dir) else {
            return Vec::new();
        };
        let mut files: Vec<Cached> = entries
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "egdb") && file::is_regular(p))
            .map(|path| Cached {
                bytes: std::fs::metadata(&path).map_or(0, |m| m.len()),
                info: file::read_info(&path),
                path,
            })
            .collect();
        files.sort_by(|a, b| a.path.cmp(&b.path));
        files
    }

    /// Its files and the bytes they take.
    pub fn list(&self) -> Listing {
        let files = self.files();
        let bytes = files.iter().map(|f| f.bytes).sum();
        Listing {
            files,
            bytes,
            leftovers: self.leftovers(),
        }
    }

    /// The bytes its files take.
    pub fn bytes(&self) -> u64 {
        self.files().iter().map(|f| f.bytes).sum()
    }

    /// Keeps `db` here under [`Cache::path_for`], written whole or not at all, and removes
    /// the smaller databases of the same rules that it holds. Refused where it would take
    /// the cache past its cap (after those removals) or the disk past its free space.
    pub fn keep(&self, db: &Egdb) -> Result<PathBuf, EgdbError> {
        self.keep_cancellable(db, &AtomicBool::new(false))
    }

    /// [`Cache::keep`] that stops with [`EgdbError::Cancelled`] soon after `cancel` is
    /// raised, leaving no temporary file behind (see [`Egdb::save_cancellable`]).
    pub fn keep_cancellable(&self, db: &Egdb, cancel: &AtomicBool) -> Result<PathBuf, EgdbError> {
        let path = self.path_for(db.rules(), db.max_seeds());
        let smaller: Vec<Cached> = self
            .files()
            .into_iter()
            .filter(|f| {
                f.info.as_ref().is_ok_and(|i| {
                    crate::db::egdb::serves(&i.rules, db.rules()) && i.max_seeds < db.max_seeds()
                })
            })
            .collect();
        let needed = Requirements::of(db.rules().houses as usize, db.max_seeds())?.disk;
        let after = self.bytes() - smaller.iter().map(|f| f.bytes).sum::<u64>() + needed;
        if after > self.max_bytes {
            return Err(EgdbError::CacheFull {
                dir: self.dir.display().to_string(),
                needed,
                max: self.max_bytes,
            });
        }
        std::fs::create_dir_all(&self.dir).map_err(|e| EgdbError::Io {
            path: self.dir.display().to_string(),
            message: e.to_string(),
        })?;
        // A name of this process, so that two processes never write the same file.
        let tmp = self.dir.join(format!(
            ".{}.{}.tmp",
            path.file_name().unwrap_or_default().to_string_lossy(),
            std::process::id()
        ));
        db.save_cancellable(&tmp, cancel)?;
        std::fs::rename(&tmp, &path).map_err(|e| {
            let _ = std::fs::remove_file(&tmp);
            EgdbError::Io {
                path: path.display().to_string(),
                message: e.to_string(),
            }
        })?;
        for f in smaller {
            let _ = std::fs::remove_file(&f.path);
        }
        Ok(path)
    }
}

/// What [`Cache::grow`] did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Grown {
    /// The cache already held a database of these rules with this many seeds, at least
    /// those asked for: nothing was built.
    Held(usize),
    /// The database was built to `path`, from the smaller cached file `from` where there
    /// was one (removed once the larger one was built).
    Built {
        /// The new file, in the cache.
        path: PathBuf,
        /// The smaller file it started from, now removed.
        from: Option<PathBuf>,
    },
}

/// Why [`Cache::grow`] failed; `E` is the error of the caller's build.
#[derive(Debug)]
pub enum GrowError<E> {
    /// The database asked for cannot be built for this board (its size).
    Requirements(EgdbError),
    /// The cache's cap leaves no room for it ([`EgdbError::CacheFull`]).
    Full(EgdbError),
    /// The cache directory could not be created.
    CreateDir {
        /// The directory.
        dir: PathBuf,
        /// What the system said.
        error: std::io::Error,
    },
    /// The smaller file, once built upon, could not be removed.
    Remove {
        /// The file.
        path: PathBuf,
        /// What the system said.
        error: std::io::Error,
    },
    /// The build failed.
    Build(E),
}

impl<E: std::fmt::Display> std::fmt::Display for GrowError<E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GrowError::Requirements(e) | GrowError::Full(e) => write!(f, "{e}"),
            GrowError::CreateDir { dir, error } => {
                write!(f, "cannot create {}: {error}", dir.display())
            }
            GrowError::Remove { path, error } => {
                write!(f, "cannot remove {}: {error}", path.display())
            }
            GrowError::Build(e) => write!(f, "{e}"),
        }
    }
}

impl Cache {
    /// Grows the cache's database for the rules and board of `game` to `max_seeds` seeds,
    /// from the largest database of the same rules it holds (whose levels the build
    /// verifies and copies instead of computing them again), and removes that smaller one
    /// once the larger one is built. Nothing is built where the cache already holds at
    /// least `max_seeds` seeds for these rules, and the growth is refused up front where
    /// the new file would take the cache past its cap (the smaller one's bytes freed).
    ///
    /// `build(target, from)` writes the database file `target` (in the cache, named by
    /// [`Cache::path_for`]) of `max_seeds` seeds, starting from the smaller file `from`
    /// where there is one and no interrupted build of `target` left its partial file (the
    /// build resumes from that instead): the caller's, so that it can take its lock on the
    /// file and show the build's progress (see [`Egdb::start_from`] and
    /// [`Egdb::build_file`]).
    pub fn grow<E>(
        &self,
        game: &Game,
        max_seeds: usize,
        build: impl FnOnce(&Path, Option<&Path>) -> Result<(), E>,
    ) -> Result<Grown, GrowError<E>> {
        let target = self.path_for(game.rules(), max_seeds);
        let from = match self.find(game, usize::MAX) {
            Some((_, held)) if held >= max_seeds => return Ok(Grown::Held(held)),
            found => found.map(|(path, _)| path),
        };
        self.make_room(game, max_seeds, from.as_deref())?;
        std::fs::create_dir_all(&self.dir).map_err(|error| GrowError::CreateDir {
            dir: self.dir.clone(),
            error,
        })?;
        // An interrupted growth resumes from its partial file, not from the smaller one.
        let start = from
            .as_deref()
            .filter(|_| !file::partial_path(&target).exists());
        build(&target, start).map_err(GrowError::Build)?;
        if let Some(smaller) = &from {
            std::fs::remove_file(smaller).map_err(|error| GrowError::Remove {
                path: smaller.clone(),
                error,
            })?;
        }
        Ok(Grown::Built { path: target, from })
    }

    /// Refuses a database of `max_seeds` seeds for `game` that would take the cache past its
    /// cap, the file `replaced` (if any) removed.
    fn make_room<E>(
        &self,
        game: &Game,
        max_seeds: usize,
        replaced: Option<&Path>,
    ) -> Result<(), GrowError<E>> {
        let need = Requirements::of(game.houses(), max_seeds).map_err(GrowError::Requirements)?;
        let freed = replaced
            .and_then(|p| std::fs::metadata(p).ok())
            .map_or(0, |m| m.len());
        if self.bytes() - freed + need.disk > self.max_bytes {
            return Err(GrowError::Full(EgdbError::CacheFull {
                dir: self.dir.display().to_string(),
                needed: need.disk,
                max: self.max_bytes,
            }));
        }
        Ok(())
    }
}

#[cfg(test)]
mod grow_tests {
    use super::*;
    use kalah_core::Rules;

    /// A fresh, empty directory for one test.
    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("kalah-grow-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    /// The build a caller gives [`Cache::grow`]: the library's file build, from the smaller
    /// file where there is one.
    fn build(
        game: &Game,
        k: usize,
    ) -> impl FnOnce(&Path, Option<&Path>) -> Result<(), EgdbError> + '_ {
        move |target, from| {
            if let Some(from) = from {
                Egdb::start_from(game, k, from, target)?;
            }
            Egdb::build_file(game, k, target, &|_, _, _| {}).map(|_| ())
        }
    }

    #[test]
    fn grow_builds_then_replaces_the_smaller_file_then_holds() {
        let dir = scratch("replace");
        let cache = Cache::at(&dir, DEFAULT_MAX_BYTES);
        let game = Game::new(Rules::kalah(3, 3)).unwrap();
        let first = cache.grow(&game, 6, build(&game, 6)).unwrap();
        let small = cache.path_for(game.rules(), 6);
        assert_eq!(
            first,
            Grown::Built {
                path: small.clone(),
                from: None
            }
        );
        let second = cache.grow(&game, 8, build(&game, 8)).unwrap();
        let large = cache.path_for(game.rules(), 8);
        assert_eq!(
            second,
            Grown::Built {
                path: large.clone(),
                from: Some(small.clone())
            }
        );
        assert!(!small.exists() && large.exists());
        assert_eq!(cache.find(&game, usize::MAX), Some((large, 8)));
        let held = cache.grow(&game, 7, |_, _| -> Result<(), EgdbError> {
            panic!("built")
        });
        assert_eq!(held.unwrap(), Grown::Held(8));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn an_interrupted_growth_goes_on_from_its_partial_file_not_the_smaller_one() {
        let dir = scratch("resume");
        let cache = Cache::at(&dir, DEFAULT_MAX_BYTES);
        let game = Game::new(Rules::kalah(3, 3)).unwrap();
        cache.grow(&game, 6, build(&game, 6)).unwrap();
        let target = cache.path_for(game.rules(), 8);
        let given = |cache: &Cache| {
            let mut seen = None;
            let _ = cache.grow(&game, 8, |_, from| -> Result<(), ()> {
                seen = Some(from.map(Path::to_path_buf));
                Err(())
            });
            seen.expect("the build is called")
        };
        assert_eq!(given(&cache), Some(cache.path_for(game.rules(), 6)));
        std::fs::write(file::partial_path(&target), b"partial").unwrap();
        assert_eq!(given(&cache), None);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn the_cap_is_a_whole_number_of_mib_or_an_error() {
        assert_eq!(max_bytes("1"), Ok(1 << 20));
        assert_eq!(max_bytes("8192"), Ok(DEFAULT_MAX_BYTES));
        for bad in [
            "garbage",
            "-5",
            "0.1",
            "",
            " 5",
            "+5",
            "0",
            "99999999999999999999",
        ] {
            let e = max_bytes(bad).unwrap_err();
            assert!(e.to_string().starts_with(CACHE_MAX_VAR), "{e}");
        }
    }

    #[test]
    fn grow_is_refused_past_the_cap_before_any_work() {
        let dir = scratch("full");
        let cache = Cache::at(&dir, 16);
        let game = Game::new(Rules::kalah(3, 3)).unwrap();
        let refused = cache.grow(&game, 6, |_, _| -> Result<(), EgdbError> {
            panic!("built")
        });
        assert!(matches!(
            refused,
            Err(GrowError::Full(EgdbError::CacheFull { max: 16, .. }))
        ));
        assert!(!dir.exists(), "nothing created");
    }

    #[test]
    fn a_grow_error_of_the_file_system_names_the_path() {
        let error = std::io::Error::other("denied");
        let e: GrowError<String> = GrowError::Remove {
            path: PathBuf::from("/c/k.egdb"),
            error,
        };
        assert_eq!(e.to_string(), "cannot remove /c/k.egdb: denied");
        let e: GrowError<String> = GrowError::CreateDir {
            dir: PathBuf::from("/c"),
            error: std::io::Error::other("denied"),
        };
        assert_eq!(e.to_string(), "cannot create /c: denied");
    }
}
