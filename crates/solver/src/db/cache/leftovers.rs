//! What a cache directory holds besides its finished databases, and removing it: the
//! temporaries of writes in progress or left by a process that was killed, the partial
//! files of interrupted builds, and files that are not kalah databases at all (a user's
//! own, never removed).

use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use super::Cache;
use crate::db::egdb::file::{self, held, FileInfo};
use crate::db::egdb::EgdbError;

/// A file of the cache that is not a finished database.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Leftover {
    /// Its path.
    pub path: PathBuf,
    /// Its size in bytes.
    pub bytes: u64,
    /// What it is.
    pub kind: LeftoverKind,
}

/// What a [`Leftover`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LeftoverKind {
    /// The temporary file of a database being written (`.NAME.PID.tmp`, and the
    /// `.NAME.PID.tmp.tmp` its save goes through) by process `pid`; `alive` says whether
    /// a live process still writes it (where none does, the file is stale: nothing will
    /// ever finish or remove it).
    Temporary {
        /// The process that writes it.
        pid: u32,
        /// Whether a live process holds it: it is locked, or `pid` runs and started
        /// before the file was written (where unknown, taken to be held).
        alive: bool,
    },
    /// The partial file of an interrupted build (`NAME.egdb.partial`, `levels` of its
    /// levels finished), which the same build resumes.
    Partial {
        /// The levels it holds.
        levels: usize,
    },
}

impl Leftover {
    /// True for a temporary whose process no longer runs: no one will finish or remove
    /// it, and [`Cache::clean`] does.
    pub fn is_stale(&self) -> bool {
        matches!(self.kind, LeftoverKind::Temporary { alive: false, .. })
    }
}

/// What [`Cache::clear`] or [`Cache::clean`] did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Cleared {
    /// The files removed.
    pub removed: Vec<PathBuf>,
    /// The bytes they took.
    pub freed: u64,
    /// Files named like a database that are not kalah databases (a user's own): kept.
    pub foreign: Vec<PathBuf>,
    /// Temporaries of databases a running process is writing: kept.
    pub in_use: Vec<PathBuf>,
}

/// The process whose temporary `name` is, if it is one: `.NAME.egdb.PID.tmp` or
/// `.NAME.egdb.PID.tmp.tmp` (see [`Cache::keep`] and [`crate::db::egdb::Egdb::save`]).
fn temporary_pid(name: &str) -> Option<u32> {
    let rest = name.strip_prefix('.')?.strip_suffix(".tmp")?;
    let rest = rest.strip_suffix(".tmp").unwrap_or(rest);
    let (base, pid) = rest.rsplit_once('.')?;
    if !base.ends_with(".egdb") || pid.is_empty() || !pid.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    pid.parse().ok()
}

/// Whether the temporary `path` of process `pid` is still held by a live writer (Linux),
/// else a leftover of a build that died. A writer holds its temporary locked while it
/// writes it ([`held`]), so a locked file is held. An unlocked one is held only where
/// `pid` still runs (`/proc/PID`) and the file is no older than that process (a writer
/// between its file's creation and its lock, or between the write and the rename): a file
/// older than its process is a dead build's whose PID was reused. Taken to be held where
/// the system cannot tell, so that nothing of a live process is ever called stale.
fn alive(path: &Path, pid: u32) -> bool {
    if !cfg!(target_os = "linux") || held::is_held(path) {
        return true;
    }
    if !Path::new("/proc").join(pid.to_string()).exists() {
        return false;
    }
    let written = std::fs::metadata(path).and_then(|m| m.modified());
    match (written, started(pid)) {
        // Two seconds of slack: the boot time is known to the second.
        (Ok(w), Some(s)) => w + Duration::from_secs(2) >= s,
        _ => true,
    }
}

/// When process `pid` started (Linux: `/proc/PID/stat`'s start time after the boot,
/// `/proc/stat`'s boot time), to the second; `None` where the system does not say.
fn started(pid: u32) -> Option<SystemTime> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The fields after the command's closing parenthesis, the state first (field 3):
    // the start time is field 22, in clock ticks after the boot.
    let after = stat.rsplit_once(')')?.1;
    let ticks: u64 = after.split_whitespace().nth(19)?.parse().ok()?;
    let boot: u64 = std::fs::read_to_string("/proc/stat")
        .ok()?
        .lines()
        .find_map(|l| l.strip_prefix("btime "))?
        .trim()
        .parse()
        .ok()?;
    let hz = clock_ticks()?;
    Some(UNIX_EPOCH + Duration::from_secs(boot) + Duration::from_millis(ticks * 1000 / hz))
}

/// Clock ticks a second, the unit of `/proc`'s times.
fn clock_ticks() -> Option<u64> {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: sysconf reads a system constant.
        let hz = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
        u64::try_from(hz).ok().filter(|&hz| hz > 0)
    }
    #[cfg(not(target_os = "linux"))]
    None
}

/// The header of the kalah database file `path`, where it has one: `None` for a file of
/// another kind (or one that cannot be read), which the cache never removes.
fn kalah_header(path: &Path) -> Option<Result<FileInfo, EgdbError>> {
    match file::read_info(path) {
        Ok(info) => Some(Ok(info)),
        Err(EgdbError::NotADatabase { .. } | EgdbError::NotAFile { .. } | EgdbError::Io { .. }) => {
            None
        }
        // The magic bytes are there: ours, damaged or of another version.
        Err(e) => Some(Err(e)),
    }
}

impl Cache {
    /// The files of the cache directory, with their names.
    fn entries(&self) -> Vec<(PathBuf, String, u64)> {
        let Ok(entries) = std::fs::read_dir(self.dir()) else {
            return Vec::new();
        };
        let mut found: Vec<(PathBuf, String, u64)> = entries
            .flatten()
            .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
            .map(|e| {
                let bytes = e.metadata().map_or(0, |m| m.len());
                (
                    e.path(),
                    e.file_name().to_string_lossy().into_owned(),
                    bytes,
                )
            })
            .collect();
        found.sort();
        found
    }

    /// The temporaries and partial files in the cache, in name order (see [`Leftover`]).
    pub fn leftovers(&self) -> Vec<Leftover> {
        self.entries()
            .into_iter()
            .filter_map(|(path, name, bytes)| {
                let kind = if let Some(pid) = temporary_pid(&name) {
                    LeftoverKind::Temporary {
                        pid,
                        alive: alive(&path, pid),
                    }
                } else if name.ends_with(".egdb.partial") {
                    let levels = kalah_header(&path)?.map_or(0, |info| info.levels);
                    LeftoverKind::Partial { levels }
                } else {
                    return None;
                };
                Some(Leftover { path, bytes, kind })
            })
            .collect()
    }

    /// Removes the stale temporaries ([`Leftover::is_stale`]): those of processes that no
    /// longer run. Finished databases, partial files and a running process's temporaries
    /// are kept.
    pub fn clean(&self) -> Result<Cleared, EgdbError> {
        let mut cleared = Cleared::default();
        for left in self.leftovers() {
            match left.is_stale() {
                true => remove(&left.path, left.bytes, &mut cleared)?,
                false if matches!(left.kind, LeftoverKind::Temporary { .. }) => {
                    cleared.in_use.push(left.path)
                }
                false => {}
            }
        }
        Ok(cleared)
    }

    /// Removes every database of the cache (the `*.egdb` files whose header is a kalah
    /// database's, damaged ones included), the partial files of interrupted builds and the
    /// stale temporaries. A `*.egdb` of another kind (a user's own file) is kept and named
    /// in [`Cleared::foreign`], and a running process's temporary in [`Cleared::in_use`].
    /// The databases that `kalah bench` keeps between runs ([`Cache::bench_dir`]) are
    /// removed the same way.
    pub fn clear(&self) -> Result<Cleared, EgdbError> {
        let mut cleared = self.clear_here()?;
        let bench = Cache::at(self.bench_dir(), self.max_bytes()).clear_here()?;
        cleared.removed.extend(bench.removed);
        cleared.freed += bench.freed;
        cleared.foreign.extend(bench.foreign);
        cleared.in_use.extend(bench.in_use);
        Ok(cleared)
    }

    /// [`Cache::clear`] of this directory alone.
    fn clear_here(&self) -> Result<Cleared, EgdbError> {
        let mut cleared = self.clean()?;
        for (path, name, bytes) in self.entries() {
            if !(name.ends_with(".egdb") || name.ends_with(".egdb.partial")) {
                continue;
            }
            match kalah_header(&path) {
                Some(_) => remove(&path, bytes, &mut cleared)?,
                None => cleared.foreign.push(path),
            }
        }
        Ok(cleared)
    }
}

/// Removes `path` (of `bytes` bytes), noted in `cleared`.
fn remove(path: &Path, bytes: u64, cleared: &mut Cleared) -> Result<(), EgdbError> {
    match std::fs::remove_file(path) {
        Ok(()) => {
            cleared.removed.push(path.to_path_buf());
            cleared.freed += bytes;
            Ok(())
        }
        // Gone already: its writer finished or removed it.
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(EgdbError::Io {
            path: path.display().to_string(),
            message: e.to_string(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::egdb::Egdb;
    use kalah_core::{Game, Rules};

    /// A fresh cache directory for one test, with a small database kept in it.
    fn cache_with_a_database(name: &str) -> (Cache, PathBuf) {
        let dir =
            std::env::temp_dir().join(format!("kalah-leftovers-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let cache = Cache::at(&dir, 1 << 30);
        let game = Game::new(Rules::kalah(3, 3)).unwrap();
        let db = Egdb::build(&game, 6, &|_, _, _| {}).unwrap();
        let kept = cache.keep(&db).unwrap();
        (cache, kept)
    }

    /// A process id that runs no process (past Linux's largest).
    const DEAD: u32 = 4_194_305;

    #[test]
    fn temporaries_are_known_by_name() {
        assert_eq!(temporary_pid(".k-3-6.egdb.123.tmp"), Some(123));
        assert_eq!(temporary_pid(".k-3-6.egdb.123.tmp.tmp"), Some(123));
        for not in [
            "k.egdb.123.tmp",
            ".k.egdb.tmp",
            ".notes.123.tmp",
            ".k.egdb.x1.tmp",
        ] {
            assert_eq!(temporary_pid(not), None, "{not}");
        }
    }

    #[test]
    fn a_stale_temporary_is_listed_and_cleaned_a_live_one_kept() {
        let (cache, kept) = cache_with_a_database("stale");
        let name = kept.file_name().unwrap().to_string_lossy().into_owned();
        let stale = cache.dir().join(format!(".{name}.{DEAD}.tmp.tmp"));
        let live = cache
            .dir()
            .join(format!(".{name}.{}.tmp", std::process::id()));
        std::fs::write(&stale, [0u8; 100]).unwrap();
        std::fs::write(&live, [0u8; 10]).unwrap();
        let left = cache.leftovers();
        assert_eq!(left.len(), 2, "{left:?}");
        let stale_one = left.iter().find(|l| l.path == stale).unwrap();
        assert!(stale_one.is_stale() && stale_one.bytes == 100);
        assert!(!left.iter().find(|l| l.path == live).unwrap().is_stale());
        let cleared = cache.clean().unwrap();
        assert_eq!((cleared.removed, cleared.freed), (vec![stale.clone()], 100));
        assert_eq!(cleared.in_use, vec![live.clone()]);
        assert!(!stale.exists() && live.exists() && kept.exists());
        let _ = std::fs::remove_dir_all(cache.dir());
    }

    #[test]
    fn clear_removes_only_kalah_databases() {
        let (cache, kept) = cache_with_a_database("clear");
        let notes = cache.dir().join("notes.egdb");
        std::fs::write(&notes, "my own notes\n").unwrap();
        let partial = file::partial_path(&cache.dir().join("k.egdb"));
        std::fs::copy(&kept, &partial).unwrap();
        std::fs::create_dir_all(cache.bench_dir()).unwrap();
        let bench = cache.bench_dir().join("b.egdb");
        std::fs::copy(&kept, &bench).unwrap();
        assert!(cache
            .leftovers()
            .iter()
            .any(|l| l.path == partial && matches!(l.kind, LeftoverKind::Partial { levels: 7 })));
        let cleared = cache.clear().unwrap();
        assert_eq!(cleared.foreign, vec![notes.clone()]);
        let mut removed = cleared.removed.clone();
        removed.sort();
        let mut expected = vec![partial.clone(), kept.clone(), bench.clone()];
        expected.sort();
        assert_eq!(removed, expected);
        assert!(notes.exists() && !kept.exists() && !partial.exists() && !bench.exists());
        assert_eq!(std::fs::read_to_string(&notes).unwrap(), "my own notes\n");
        let _ = std::fs::remove_dir_all(cache.dir());
    }
}
