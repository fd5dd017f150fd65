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
//! verifies its checksum) and is removed and rebuilt.

use std::path::{Path, PathBuf};

use kalah_core::{Game, Rules};

use crate::egdb::file::{self, FileInfo, Requirements};
use crate::egdb::{Egdb, EgdbError};

/// The environment variable that moves the cache to another directory, or turns it off
/// with `off` (also `0`, `no` or `false`).
pub const CACHE_VAR: &str = "KALAH_CACHE";

/// The environment variable that sets the most the cache may hold, in MiB.
pub const CACHE_MAX_VAR: &str = "KALAH_CACHE_MAX_MB";

/// The most the cache holds by default: room for a 28-seed database of 6 houses (5.3 GiB)
/// and a few small ones.
pub const DEFAULT_MAX_BYTES: u64 = 8 << 30;

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

impl Cache {
    /// The user's cache: the directory of [`CACHE_VAR`] where it is set (`None` where it
    /// says `off`), else the platform's cache directory (`$XDG_CACHE_HOME/kalah` or
    /// `~/.cache/kalah` on Linux); its cap from [`CACHE_MAX_VAR`], else
    /// [`DEFAULT_MAX_BYTES`]. `None` where there is no home directory to put it in.
    pub fn from_env() -> Option<Cache> {
        let dir = match std::env::var_os(CACHE_VAR) {
            Some(v) if ["off", "0", "no", "false"].iter().any(|off| v == *off) => return None,
            Some(v) if !v.is_empty() => PathBuf::from(v),
            _ => directories::ProjectDirs::from("", "", "kalah")?
                .cache_dir()
                .to_path_buf(),
        };
        let max_bytes = std::env::var(CACHE_MAX_VAR)
            .ok()
            .and_then(|mb| mb.trim().parse::<u64>().ok())
            .map_or(DEFAULT_MAX_BYTES, |mb| mb.saturating_mul(1 << 20));
        Some(Cache { dir, max_bytes })
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
        let rules = crate::egdb::describe(rules).replace([' ', '='], "-");
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
            .filter(|p| p.extension().is_some_and(|x| x == "egdb"))
            .map(|path| Cached {
                bytes: std::fs::metadata(&path).map_or(0, |m| m.len()),
                info: file::read_info(&path),
                path,
            })
            .collect();
        files.sort_by(|a, b| a.path.cmp(&b.path));
        files
    }

    /// The bytes its files take.
    pub fn bytes(&self) -> u64 {
        self.files().iter().map(|f| f.bytes).sum()
    }

    /// Keeps `db` here under [`Cache::path_for`], written whole or not at all, and removes
    /// the smaller databases of the same rules that it holds. Refused where it would take
    /// the cache past its cap (after those removals) or the disk past its free space.
    pub fn keep(&self, db: &Egdb) -> Result<PathBuf, EgdbError> {
        let path = self.path_for(db.rules(), db.max_seeds());
        let smaller: Vec<Cached> = self
            .files()
            .into_iter()
            .filter(|f| {
                f.info.as_ref().is_ok_and(|i| {
                    crate::egdb::serves(&i.rules, db.rules()) && i.max_seeds < db.max_seeds()
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
        db.save(&tmp)?;
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

    /// Removes every cached file (and leftovers of interrupted writes); the bytes freed.
    pub fn clear(&self) -> Result<u64, EgdbError> {
        let Ok(entries) = std::fs::read_dir(&self.dir) else {
            return Ok(0);
        };
        let mut freed = 0;
        for path in entries.flatten().map(|e| e.path()) {
            let name = path.file_name().unwrap_or_default().to_string_lossy();
            if name.ends_with(".egdb") || name.ends_with(".tmp") || name.ends_with(".partial") {
                let bytes = std::fs::metadata(&path).map_or(0, |m| m.len());
                std::fs::remove_file(&path).map_err(|e| EgdbError::Io {
                    path: path.display().to_string(),
                    message: e.to_string(),
                })?;
                freed += bytes;
            }
        }
        Ok(freed)
    }
}
