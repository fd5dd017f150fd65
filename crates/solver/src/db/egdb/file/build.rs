//! Writing database files: [`Egdb::save`], and the build to a file that survives
//! interruption ([`Egdb::build_file`]), with the memory and disk space it needs checked
//! up front ([`Requirements`](super::Requirements)).
//!
//! **Writing.** A build writes to `FILE.partial`: after each level it appends the
//! level's bytes, flushes them to disk, then rewrites the header with the new level
//! count and checksum and flushes again. An interrupted build therefore leaves a file
//! whose header describes only levels that are fully on disk; the next build for the same
//! rules reads them back (after checking their checksum), drops anything beyond them and
//! goes on from the first missing level. When every level is done, the file is renamed
//! to `FILE`, so `FILE` either does not exist or is complete. [`Egdb::save`] likewise
//! writes `FILE.tmp` and renames it.

use std::fs::{File, OpenOptions};
use std::io::{Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};

use kalah_core::{mix, Game};

use super::format::{
    checksum, checksum_seed, hash_level, read_header, read_info, FileInfo, HEADER,
};
use super::held;
use super::io_error;
use super::load::read_parallel;
use super::requirements::Requirements;
use crate::db::egdb::{Egdb, EgdbError};

/// The bytes [`Egdb::save_cancellable`] writes between two looks at its cancel flag.
const SAVE_BLOCK: usize = 16 << 20;

/// The path of the unfinished file of a build to `path`: `path` with `.partial` added.
pub fn partial_path(path: &Path) -> PathBuf {
    let mut s = path.as_os_str().to_owned();
    s.push(".partial");
    PathBuf::from(s)
}

/// Drops the pages of a file just written (and flushed) from the page cache, so that the
/// first load reads it back through its map, into huge pages (see [`map`](super::load::map)). Pages written
/// by `write` are cached as small pages, and a map of them stays on small pages for as
/// long as they are cached, which makes every load slower.
pub(super) fn drop_cached(f: &File) {
    #[cfg(target_os = "linux")]
    {
        use std::os::fd::AsRawFd;
        // SAFETY: advice on our own open file; failure only leaves the pages cached.
        unsafe { libc::posix_fadvise(f.as_raw_fd(), 0, 0, libc::POSIX_FADV_DONTNEED) };
    }
    #[cfg(not(target_os = "linux"))]
    let _ = f;
}

impl Egdb {
    /// Writes the database to `path` (through `path.tmp` and a rename).
    pub fn save(&self, path: &Path) -> Result<(), EgdbError> {
        self.save_cancellable(path, &AtomicBool::new(false))
    }

    /// [`Egdb::save`] that stops with [`EgdbError::Cancelled`] soon after `cancel` is
    /// raised (polled between blocks of the write). Whatever the end, cancelled or failed,
    /// `path.tmp` is removed: only a finished file is ever renamed to `path`.
    pub fn save_cancellable(&self, path: &Path, cancel: &AtomicBool) -> Result<(), EgdbError> {
        let mut tmp = path.as_os_str().to_owned();
        tmp.push(".tmp");
        self.write_levels(path, &PathBuf::from(tmp), self.max_seeds(), cancel)
    }

    /// Writes the finished levels to `path` through `tmp` and a rename, the header saying
    /// `max_seeds` seeds: a finished database where every level up to `max_seeds` is
    /// built, else the partial file of an unfinished build of `max_seeds` seeds, which
    /// [`Egdb::build_file`] and [`Egdb::build_resumable`] go on from. Whatever the end,
    /// cancelled or failed, `tmp` is removed.
    fn write_levels(
        &self,
        path: &Path,
        tmp: &Path,
        max_seeds: usize,
        cancel: &AtomicBool,
    ) -> Result<(), EgdbError> {
        let levels = self.complete;
        let entries = self.ranker.level_start(levels);
        Requirements::check_disk(path, HEADER + entries)?;
        let mut info = FileInfo {
            rules: self.rules,
            max_seeds,
            levels,
            entries,
            checksum: 0,
        };
        info.checksum = checksum(checksum_seed(&info.encode()), self, levels);
        let write = || -> Result<(), EgdbError> {
            let mut f = File::create(tmp).map_err(io_error(tmp))?;
            // Held while written: a cache's temporary no process holds is a leftover.
            held::try_lock(&f);
            f.write_all(&info.encode()).map_err(io_error(tmp))?;
            for block in self.values.as_bytes()[..entries as usize].chunks(SAVE_BLOCK) {
                if cancel.load(Relaxed) {
                    return Err(EgdbError::Cancelled);
                }
                f.write_all(block).map_err(io_error(tmp))?;
            }
            f.sync_all().map_err(io_error(tmp))?;
            drop_cached(&f);
            std::fs::rename(tmp, path).map_err(io_error(path))
        };
        write().inspect_err(|_| {
            let _ = std::fs::remove_file(tmp);
        })
    }

    /// Prepares a build of `max_seeds` seeds to `path` from the finished database file
    /// `from`, which holds fewer seeds for the same rules (a 24-seed file towards a 28-seed
    /// one): loads and verifies it like any database, then copies it to `path.partial`,
    /// from which [`Egdb::build_file`] resumes as from an interrupted build (a partial
    /// file has the layout of a finished one, and the checksum leaves `K` out). Returns the
    /// levels copied. Refused where `path.partial` exists (resume that instead) or `from`
    /// holds as many seeds as asked for.
    pub fn start_from(
        game: &Game,
        max_seeds: usize,
        from: &Path,
        path: &Path,
    ) -> Result<usize, EgdbError> {
        let partial = partial_path(path);
        let refuse = |why: String| EgdbError::FromRefused {
            path: from.display().to_string(),
            why,
        };
        if partial.exists() {
            return Err(refuse(format!(
                "{} exists (an interrupted build): resume that build instead of starting \
                 from a smaller file, or remove it",
                partial.display()
            )));
        }
        let info = read_info(from)?;
        if info.max_seeds >= max_seeds {
            return Err(refuse(format!(
                "it already holds every position with up to {} seeds, and the database to \
                 build holds up to {max_seeds}",
                info.max_seeds
            )));
        }
        // Checks the rules, the size, the checksum and a sample of entries.
        drop(Egdb::load(from, game)?);
        // Copied beside the partial file and renamed into place: a copy cut short (a
        // crash, `kill -9`) never leaves a partial file the next build would resume from.
        let mut copying = partial.as_os_str().to_owned();
        copying.push(".copy");
        let copying = std::path::PathBuf::from(copying);
        std::fs::copy(from, &copying).map_err(io_error(&copying))?;
        std::fs::rename(&copying, &partial).map_err(io_error(&partial))?;
        Ok(info.levels)
    }

    /// Builds a database of every position with at most `max_seeds` seeds to the file
    /// `path`, resuming from `path.partial` if an earlier build for the same rules was
    /// interrupted (see the module doc). Refuses up front when the memory or the disk
    /// space will not do. `progress(level, done, total)` is called from the worker threads;
    /// returns the database and the number of levels read back from the partial file.
    pub fn build_file(
        game: &Game,
        max_seeds: usize,
        path: &Path,
        progress: &(dyn Fn(usize, u64, u64) + Sync),
    ) -> Result<(Egdb, usize), EgdbError> {
        Egdb::build_file_cancellable(game, max_seeds, path, &AtomicBool::new(false), progress)
    }

    /// [`Egdb::build_file`] that stops with [`EgdbError::Cancelled`] soon after `cancel`
    /// is raised (polled between the build's tasks). `path.partial` then holds the levels
    /// finished before (its header counts only those, so it is never taken for a complete
    /// database), and the next build to `path` resumes from it; `path` is not written.
    pub fn build_file_cancellable(
        game: &Game,
        max_seeds: usize,
        path: &Path,
        cancel: &AtomicBool,
        progress: &(dyn Fn(usize, u64, u64) + Sync),
    ) -> Result<(Egdb, usize), EgdbError> {
        let partial = partial_path(path);
        let houses = game.houses();
        let need = Requirements::of(houses, max_seeds)?;
        need.check_memory()?;
        let mut db = Egdb::empty(game, max_seeds)?;
        let mut info = FileInfo::unwritten(*game.rules(), max_seeds);
        let mut f = if partial.exists() {
            db.resume_partial(game, &partial, &mut info)?
        } else {
            start_partial(&partial, &mut info)?
        };
        let resumed = db.complete;
        Requirements::check_disk(&partial, need.disk - HEADER - info.entries)?;
        for level in db.complete..=max_seeds {
            db.build_level_cancellable(game, level, cancel, progress)?;
            db.append_level(&mut f, &partial, level, &mut info)?;
        }
        drop_cached(&f);
        drop(f);
        std::fs::rename(&partial, path).map_err(io_error(path))?;
        Ok((db, resumed))
    }

    /// [`Egdb::build_cancellable`] (in memory) that keeps its work for a later build to
    /// `path` (the database cache's file, [`crate::db::cache::Cache::path_for`]) as
    /// [`Egdb::build_file`] does: it goes on from the levels of `path.partial` where an
    /// interrupted build left one for these rules that passes its checks (any other is
    /// started over), and appends each level it finishes there, so that a build stopped
    /// by `cancel`, a second signal or `kill -9` keeps every level finished by then.
    /// `path.partial` is held locked while this build writes it (`held`); where another
    /// process holds it (building the same database), this build keeps nothing and reads
    /// nothing of it, and where it cannot be written (the disk full) the build goes on in
    /// memory. `path` itself is not written: the caller keeps the finished database
    /// ([`crate::db::cache::Cache::keep`]) and removes `path.partial`. Returns the database
    /// and the levels read back.
    pub fn build_resumable(
        game: &Game,
        max_seeds: usize,
        path: &Path,
        cancel: &AtomicBool,
        progress: &(dyn Fn(usize, u64, u64) + Sync),
    ) -> Result<(Egdb, usize), EgdbError> {
        let partial = partial_path(path);
        let mut db = Egdb::empty(game, max_seeds)?;
        let mut info = FileInfo::unwritten(*game.rules(), max_seeds);
        let mut kept = open_held(&partial);
        if let Some(f) = kept.as_mut() {
            let empty = f.metadata().is_ok_and(|m| m.len() == 0);
            let read = !empty && db.read_partial(game, f, &partial, &mut info).is_ok();
            let ready = match read {
                // Anything past the finished levels was cut off by the interruption.
                true => f.set_len(info.file_size()).is_ok(),
                // Empty, damaged, or another build's: started afresh, on fresh memory.
                false => {
                    drop(db);
                    db = Egdb::empty(game, max_seeds)?;
                    info = FileInfo::unwritten(*game.rules(), max_seeds);
                    restart_partial(f, &partial, &mut info).is_ok()
                }
            };
            if !ready {
                kept = None;
            }
        }
        let resumed = db.complete;
        for level in db.complete..=max_seeds {
            if let Err(e) = db.build_level_cancellable(game, level, cancel, progress) {
                // A file of a header alone keeps nothing: not left behind.
                if kept.is_some() && db.complete == 0 {
                    let _ = std::fs::remove_file(&partial);
                }
                return Err(e);
            }
            if let Some(f) = kept.as_mut() {
                // A level that cannot be written (the disk full) ends the keeping, not
                // the build: the header still counts only the levels fully written.
                if db.append_level(f, &partial, level, &mut info).is_err() {
                    kept = None;
                }
            }
        }
        Ok((db, resumed))
    }

    /// Reads back the finished levels of the partial file `partial` of an interrupted
    /// build of `game` into the database, after checking its rules, size and checksum;
    /// `info` becomes its header. Anything past those levels is cut off.
    fn resume_partial(
        &mut self,
        game: &Game,
        partial: &Path,
        info: &mut FileInfo,
    ) -> Result<File, EgdbError> {
        let err = io_error(partial);
        let mut f = super::open_regular(partial, true)?;
        self.read_partial(game, &mut f, partial, info)?;
        // Anything past the finished levels was cut off by the interruption.
        f.set_len(info.file_size()).map_err(&err)?;
        Ok(f)
    }

    /// Reads back the finished levels of the partial file `f` (at `partial`) into the
    /// database, after checking its rules, size and checksum; `info` (of the build, its
    /// `max_seeds` set) becomes its header.
    fn read_partial(
        &mut self,
        game: &Game,
        f: &mut File,
        partial: &Path,
        info: &mut FileInfo,
    ) -> Result<(), EgdbError> {
        let err = io_error(partial);
        let max_seeds = info.max_seeds;
        let old = read_header(f, partial)?;
        let name = partial.display().to_string();
        if !self.supports(&old.rules) {
            return Err(EgdbError::WrongGame {
                path: format!(
                    "{name} (left by an interrupted build; remove it or build to another file)"
                ),
                built: crate::db::egdb::describe(&old.rules),
                wanted: crate::db::egdb::describe(game.rules()),
            });
        }
        if old.levels > max_seeds + 1 {
            return Err(EgdbError::Corrupt {
                path: name,
                why: format!(
                    "it already holds {} levels, more than the {} of a database of {max_seeds} \
                     seeds; build one of {} seeds or more, or remove it",
                    old.levels,
                    max_seeds + 1,
                    old.levels - 1
                ),
            });
        }
        let len = f.metadata().map_err(&err)?.len();
        if len < old.file_size() {
            return Err(EgdbError::Corrupt {
                path: name,
                why: format!("{len} bytes, the header says {}", old.file_size()),
            });
        }
        let have = old.entries as usize;
        if let Some(bytes) = self.values.as_mut_bytes() {
            read_parallel(f, HEADER, &mut bytes[..have]).map_err(&err)?;
        }
        info.rules.seeds = old.rules.seeds;
        let seed = checksum_seed(&info.encode());
        if checksum(seed, self, old.levels) != old.checksum {
            return Err(EgdbError::Corrupt {
                path: name,
                why: "checksum mismatch; remove it to start again".into(),
            });
        }
        self.complete = old.levels;
        info.levels = old.levels;
        info.entries = old.entries;
        info.checksum = old.checksum;
        Ok(())
    }

    /// Appends the finished level `level` to the partial file `f` (at `partial`), flushed,
    /// then rewrites its header `info` with the new level count and checksum, flushed.
    fn append_level(
        &self,
        f: &mut File,
        partial: &Path,
        level: usize,
        info: &mut FileInfo,
    ) -> Result<(), EgdbError> {
        let err = io_error(partial);
        let lo = self.ranker.level_start(level) as usize;
        let hi = self.ranker.level_start(level + 1) as usize;
        let bytes = &self.values.as_bytes()[lo..hi];
        f.seek(SeekFrom::Start(HEADER + lo as u64)).map_err(&err)?;
        f.write_all(bytes).map_err(&err)?;
        f.sync_data().map_err(&err)?;
        info.levels = level + 1;
        info.entries = hi as u64;
        info.checksum = mix(info.checksum ^ hash_level(bytes));
        f.seek(SeekFrom::Start(0)).map_err(&err)?;
        f.write_all(&info.encode()).map_err(&err)?;
        f.sync_data().map_err(&err)
    }
}

/// Creates the partial file `partial` of a new build, holding only its header `info`
/// (no levels yet, the checksum at its seed).
fn start_partial(partial: &Path, info: &mut FileInfo) -> Result<File, EgdbError> {
    let err = io_error(partial);
    let mut f = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(true)
        .open(partial)
        .map_err(&err)?;
    info.checksum = checksum_seed(&info.encode());
    f.write_all(&info.encode()).map_err(&err)?;
    Ok(f)
}

/// Empties the open partial file `f` (at `partial`) and writes the header `info` of a new
/// build, as [`start_partial`] does for a file it creates.
fn restart_partial(f: &mut File, partial: &Path, info: &mut FileInfo) -> Result<(), EgdbError> {
    let err = io_error(partial);
    f.set_len(0).map_err(&err)?;
    f.seek(SeekFrom::Start(0)).map_err(&err)?;
    info.checksum = checksum_seed(&info.encode());
    f.write_all(&info.encode()).map_err(&err)
}

/// The partial file `partial` of a cache's build opened to read and write (created
/// where there is none, its directory too) and locked for this build ([`held`]); `None`
/// where it cannot be (a file of another kind by that name, no room, no permission) or
/// another process holds it.
fn open_held(partial: &Path) -> Option<File> {
    if partial.exists() && !super::is_regular(partial) {
        return None;
    }
    if let Some(dir) = partial.parent() {
        std::fs::create_dir_all(dir).ok()?;
    }
    let f = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(partial)
        .ok()?;
    held::try_lock(&f).then_some(f)
}
