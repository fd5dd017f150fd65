//! Loading a database file: mapped or copied into memory ([`Residence`]), and verified
//! (size, checksum, and a sample of entries against their children) every time.

use std::fs::File;
use std::path::{Path, PathBuf};

use kalah_core::{Game, Ranker};
use rayon::prelude::*;

use super::format::{checksum, checksum_seed, read_header, read_info, HEADER};
use super::io_error;
use super::requirements::Requirements;
use crate::db::egdb::{store::Bytes, Egdb, EgdbError};

/// Entries checked against their children on load.
const SPOT_CHECKS: u64 = 4096;

/// The database file in `dir` best suited to solving positions of `game` with at most
/// `seeds` seeds in the houses: the first of [`candidates`]. `None` when there is none; an
/// error only when `dir` cannot be read.
pub fn find_in(dir: &Path, game: &Game, seeds: usize) -> Result<Option<PathBuf>, EgdbError> {
    Ok(candidates(dir, game, seeds)?
        .into_iter()
        .next()
        .map(|(p, _)| p))
}

/// The finished `*.egdb` files in `dir` built for the rules and board of `game` (by their
/// headers; other files are passed over), with their seeds, best first for solving
/// positions with at most `seeds` seeds in the houses: those that hold `seeds` seeds,
/// smallest first, then the others, largest first. A header says nothing of the rest of
/// the file: a loader that finds the first damaged takes the next. An error only when
/// `dir` cannot be read.
pub fn candidates(
    dir: &Path,
    game: &Game,
    seeds: usize,
) -> Result<Vec<(PathBuf, usize)>, EgdbError> {
    let mut found: Vec<(usize, PathBuf)> = std::fs::read_dir(dir)
        .map_err(io_error(dir))?
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "egdb") && super::is_regular(p))
        .filter_map(|p| {
            let info = read_info(&p).ok()?;
            (info.levels == info.max_seeds + 1
                && crate::db::egdb::serves(&info.rules, game.rules()))
            .then_some((info.max_seeds, p))
        })
        .collect();
    found.sort();
    let (mut enough, mut fewer): (Vec<_>, Vec<_>) =
        found.into_iter().partition(|(k, _)| *k >= seeds);
    fewer.reverse();
    enough.append(&mut fewer);
    Ok(enough.into_iter().map(|(k, p)| (p, k)).collect())
}

/// A private read-only map of the whole of `f`; `None` where the system cannot map it
/// (the file is then read instead). Its pages are mapped as the checksum first reads
/// them, on every core (faster than mapping them all up front on one thread).
///
/// A loaded database is mapped rather than read: its pages are those of the page cache,
/// so nothing is copied, and no fresh memory has to be zeroed first (on a virtual
/// machine the first touch of memory can cost more than the copy). The file must not be
/// changed in place while it is in use; builds and saves replace a file by renaming a new
/// one over it, which leaves an open map of the old file intact.
///
/// The map is advised huge pages: a file read from disk through it is then cached in 2 MiB
/// pages and mapped whole pages at a time, so later loads set up a few thousand entries
/// instead of millions (a load then spends almost no time in the kernel), and the
/// search's reads miss the TLB far less: it searches as fast as in a copy on huge pages.
/// A file already cached in small pages (by a copy, or written by `write`) stays so until
/// the system drops it; a build drops what it wrote ([`drop_cached`](super::build::drop_cached)).
pub(super) fn map(f: &File) -> Option<memmap2::Mmap> {
    // SAFETY: the map is read-only (shared with the page cache, never written through)
    // and only read through `Bytes`; a file truncated under it by another program could
    // fault, as the doc above says.
    let map = unsafe { memmap2::MmapOptions::new().map(f) }.ok()?;
    // The checksum reads it from end to end first: read ahead (a cold file loads ten
    // times faster so).
    #[cfg(unix)]
    let _ = map.advise(memmap2::Advice::Sequential);
    #[cfg(target_os = "linux")]
    let _ = map.advise(memmap2::Advice::HugePage);
    Some(map)
}

/// True where at least nine tenths of the pages of `map` are in the page cache (by
/// `mincore`); true where that cannot be told (other systems, or the call fails), so that
/// the map is kept as before.
fn mostly_cached(map: &memmap2::Mmap) -> bool {
    #[cfg(target_os = "linux")]
    {
        let page = SMALL_PAGE;
        let pages = map.len().div_ceil(page);
        let mut resident = vec![0u8; pages];
        // SAFETY: the range is our own live mapping (page aligned, as mmap returns it);
        // `resident` holds one byte for each of its pages, which is what mincore writes.
        let r = unsafe {
            libc::mincore(
                map.as_ptr() as *mut libc::c_void,
                map.len(),
                resident.as_mut_ptr(),
            )
        };
        if r == 0 {
            let cached = resident.iter().filter(|&&b| b & 1 != 0).count();
            return cached >= pages / 10 * 9;
        }
    }
    true
}

/// The page size `mincore` reports on.
#[cfg(target_os = "linux")]
const SMALL_PAGE: usize = 4096;

/// Bytes per task when a file's values are copied into memory on every core.
pub(super) const COPY_CHUNK: usize = 32 << 20;

/// Fills `buf` from `f` at byte `offset` on, in chunks read by every core: the copy and
/// the first touch of each chunk's fresh pages (zeroed by the system first) then run in
/// parallel (about twice as fast as one sequential read).
pub(super) fn read_parallel(f: &File, offset: u64, buf: &mut [u8]) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileExt;
        buf.par_chunks_mut(COPY_CHUNK)
            .enumerate()
            .try_for_each(|(i, chunk)| f.read_exact_at(chunk, offset + (i * COPY_CHUNK) as u64))
    }
    #[cfg(not(unix))]
    {
        use std::io::{Read, Seek, SeekFrom};
        let mut f = f;
        f.seek(SeekFrom::Start(offset))?;
        f.read_exact(buf)
    }
}

/// Where a loaded database's values live.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Residence {
    /// Mapped from the file, shared with the page cache (nothing copied or zeroed): loads in a
    /// fraction of a second; the search reads it through huge pages where the system caches
    /// the file in them (a map is advised huge pages), else through small pages. The
    /// choice for short solves.
    Mapped,
    /// Copied into private memory on transparent huge pages, read by every core: the copy
    /// costs time (fresh memory is zeroed first) and the memory of the file again, but the
    /// search runs faster than through small pages.
    Copied,
    /// Mapped where the system maps the cached file with huge pages, else copied
    /// ([`Residence::Copied`]; mapped all the same where the file was mostly out of the
    /// page cache, read through the map onto huge pages, or when the copy would not fit in
    /// the memory available). The choice for long solves: the search reads either at the
    /// speed of huge pages, and a file cached in huge pages costs neither the copy nor
    /// its memory.
    Huge,
}

impl Egdb {
    /// Loads and verifies a finished database file (its header, size, checksum, and a
    /// sample of entries against their children), mapped ([`Residence::Mapped`]). Its
    /// rules are those of the file; use [`Egdb::load`] to check it against a game.
    pub fn open(path: &Path) -> Result<Egdb, EgdbError> {
        Egdb::open_as(path, Residence::Mapped)
    }

    /// [`Egdb::open`] with the values held as `residence` says (a file that cannot be
    /// mapped is copied).
    pub fn open_as(path: &Path, residence: Residence) -> Result<Egdb, EgdbError> {
        let name = path.display().to_string();
        let mut f = super::open_regular(path, false)?;
        let info = read_header(&mut f, path)?;
        if info.levels != info.max_seeds + 1 {
            return Err(EgdbError::Incomplete {
                path: name,
                levels: info.levels,
                expected: info.max_seeds + 1,
            });
        }
        let len = f.metadata().map_err(io_error(path))?.len();
        if len != info.file_size() {
            return Err(EgdbError::Corrupt {
                path: name,
                why: format!("{len} bytes, the header says {}", info.file_size()),
            });
        }
        let game = crate::db::egdb::widest_game(&info.rules).map_err(|e| EgdbError::Corrupt {
            path: name.clone(),
            why: format!("impossible rules in the header: {e}"),
        })?;
        let mapped = match residence {
            Residence::Mapped | Residence::Huge => map(&f),
            Residence::Copied => None,
        };
        // A file mostly out of the page cache (right after a build, which drops the file
        // it wrote from the cache) is read from the disk through the map, advised huge
        // pages: the system then caches most of it in 2 MiB pages, and it is kept mapped,
        // never copied. A copy needs as much fresh memory again, which the system zeroes
        // first; on a virtual machine that hands freed memory back to its host, that first
        // touch cost 0.6-1.0 s of system time in a 5 s solve.
        let cold =
            residence == Residence::Huge && mapped.as_ref().is_some_and(|m| !mostly_cached(m));
        let mut db = match mapped {
            Some(map) => Egdb::with_values(&game, info.max_seeds, |entries| {
                Bytes::mapped(map, HEADER as usize, entries as usize).ok_or_else(|| {
                    EgdbError::Corrupt {
                        path: name.clone(),
                        why: "shorter than its header says".into(),
                    }
                })
            })?,
            None => {
                let need = Requirements::of(info.rules.houses as usize, info.max_seeds)?;
                need.check_memory()?;
                // Every byte is read from the file: no need to mark them unknown first.
                let mut db = Egdb::filled(&game, info.max_seeds, 0)?;
                if let Some(bytes) = db.values.as_mut_bytes() {
                    read_parallel(&f, HEADER, bytes).map_err(io_error(path))?;
                }
                db
            }
        };
        db.complete = info.levels;
        db.rules = info.rules;
        let seed = checksum_seed(&info.encode());
        if checksum(seed, &db, info.levels) != info.checksum {
            return Err(EgdbError::Corrupt {
                path: name,
                why: "checksum mismatch".into(),
            });
        }
        if let Err(rank) = db.spot_check(SPOT_CHECKS) {
            return Err(EgdbError::Corrupt {
                path: name,
                why: format!("entry {rank} disagrees with its children"),
            });
        }
        if residence == Residence::Huge
            && !cold
            && db.values.is_mapped()
            && !db.values.on_huge_pages()
        {
            let need = Requirements::of(info.rules.houses as usize, info.max_seeds)?;
            if need.check_memory().is_ok() {
                let mut copy = Egdb::filled(&game, info.max_seeds, 0)?;
                if let Some(bytes) = copy.values.as_mut_bytes() {
                    let from = db.values.as_bytes();
                    bytes
                        .par_chunks_mut(COPY_CHUNK)
                        .zip(from.par_chunks(COPY_CHUNK))
                        .for_each(|(to, from)| to.copy_from_slice(from));
                }
                copy.complete = db.complete;
                copy.rules = db.rules;
                db = copy;
            }
        }
        db.values.advise_random();
        db.path = Some(path.to_path_buf());
        Ok(db)
    }

    /// Loads and verifies a database file for `game`, mapped: refused when it was built
    /// for other rules or another number of houses. The database adopts the game's rules.
    pub fn load(path: &Path, game: &Game) -> Result<Egdb, EgdbError> {
        Egdb::load_as(path, game, Residence::Mapped)
    }

    /// [`Egdb::load`] with the values held as `residence` says.
    pub fn load_as(path: &Path, game: &Game, residence: Residence) -> Result<Egdb, EgdbError> {
        if game.rules().early_stop {
            return Err(EgdbError::EarlyStop);
        }
        // Check the rules before reading gigabytes.
        let info = read_info(path)?;
        let probe = Egdb {
            rules: info.rules,
            ranker: Ranker::new(0, 0),
            values: Bytes::empty(),
            complete: 0,
            path: None,
            sweeps: 0,
        };
        probe.for_game(game, &path.display().to_string())?;
        Egdb::open_as(path, residence)?.for_game(game, &path.display().to_string())
    }
}
