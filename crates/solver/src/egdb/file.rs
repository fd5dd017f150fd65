//! Endgame database files: the format, a build that survives interruption, and loading
//! with verification.
//!
//! **Format** (version 1, little-endian), a 64-byte header then the values:
//!
//! ```text
//! offset size  field
//!      0    8  magic "KALAHEDB"
//!      8    4  format version (1)
//!     12    1  houses per side
//!     13    1  seeds per house of the rules given at build time (informative only)
//!     14    1  capture    0 standard, 1 empty
//!     15    1  end        0 row-empty, 1 mover-stuck
//!     16    1  leftovers  0 owner, 1 discard
//!     17    1  K, the most seeds in the houses
//!     18    1  levels finished (K + 1 in a finished file)
//!     19    5  zero
//!     24    8  entries that follow (the boards of the finished levels)
//!     32    8  checksum
//!     40   24  zero
//!     64    .  one signed byte per board, in rank order (see kalah_core::Ranker)
//! ```
//!
//! The checksum chains the levels: it starts from a hash of bytes `0..17` of the header
//! (magic, version, board and rules) and takes in each finished level's hash in turn,
//! `sum = mix(sum ^ hash(level))`, where a level's hash combines the hashes of its
//! 1 MiB blocks (computed in parallel) the same way. It is checked, with the size and a
//! sample of entries against their children, every time a file is loaded.
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
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use kalah_core::{mix, Capture, End, Family, Game, Leftovers, Ranker, Rules};
use rayon::prelude::*;

use super::{store::Bytes, Egdb, EgdbError, MAX_SEEDS};

/// The magic bytes that open every database file.
pub const MAGIC: [u8; 8] = *b"KALAHEDB";
/// The format version this program writes and reads.
pub const VERSION: u32 = 1;
/// Bytes before the values.
pub const HEADER: u64 = 64;
/// Entries checked against their children on load.
const SPOT_CHECKS: u64 = 4096;
/// Bytes per block of the checksum.
const BLOCK: usize = 1 << 20;

/// What building (or loading) a database of `K` seeds on `H` houses takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Requirements {
    /// Entries (boards with at most `K` seeds), one byte each.
    pub entries: u64,
    /// Bytes of memory for the values.
    pub memory: u64,
    /// Bytes of the finished file.
    pub disk: u64,
}

impl Requirements {
    /// The requirements of a database of `max_seeds` seeds on `houses` houses per side.
    pub fn of(houses: usize, max_seeds: usize) -> Result<Requirements, EgdbError> {
        if max_seeds > MAX_SEEDS {
            return Err(EgdbError::TooManySeeds {
                seeds: max_seeds,
                limit: MAX_SEEDS,
            });
        }
        let entries = Egdb::entries(houses, max_seeds);
        if entries > (isize::MAX as u128).min(u64::MAX as u128 / 2) {
            return Err(EgdbError::NotEnoughMemory {
                needed: u64::MAX,
                available: available_memory().unwrap_or(0),
            });
        }
        let entries = entries as u64;
        Ok(Requirements {
            entries,
            memory: entries,
            disk: HEADER + entries,
        })
    }

    /// Refuses when the memory the values need is not available now.
    pub fn check_memory(&self) -> Result<(), EgdbError> {
        match available_memory() {
            Some(available) if self.memory > available => Err(EgdbError::NotEnoughMemory {
                needed: self.memory,
                available,
            }),
            _ => Ok(()),
        }
    }

    /// Refuses when the file system of `path` has less than `needed` bytes free.
    pub fn check_disk(path: &Path, needed: u64) -> Result<(), EgdbError> {
        match available_disk(path) {
            Some(available) if needed > available => Err(EgdbError::NotEnoughDisk {
                path: path.display().to_string(),
                needed,
                available,
            }),
            _ => Ok(()),
        }
    }
}

/// Memory available to a new allocation, from `/proc/meminfo` (`None` where unknown).
pub fn available_memory() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// Free bytes on the file system that holds `path` (or would hold it).
pub fn available_disk(path: &Path) -> Option<u64> {
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::ffi::OsStrExt;
        let dir = match path.parent() {
            Some(p) if !p.as_os_str().is_empty() => p,
            _ => Path::new("."),
        };
        let c = std::ffi::CString::new(dir.as_os_str().as_bytes()).ok()?;
        // SAFETY: statvfs writes into the zeroed struct we own; `c` is a valid C string.
        let mut st: libc::statvfs = unsafe { std::mem::zeroed() };
        // SAFETY: as above.
        if unsafe { libc::statvfs(c.as_ptr(), &mut st) } != 0 {
            return None;
        }
        Some(st.f_bavail as u64 * st.f_frsize as u64)
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = path;
        None
    }
}

/// What a file's header says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileInfo {
    /// The rules (seeds per house as given when it was built; they do not matter).
    pub rules: Rules,
    /// The most seeds in the houses.
    pub max_seeds: usize,
    /// Levels finished (`max_seeds + 1` in a finished file).
    pub levels: usize,
    /// Entries in the file.
    pub entries: u64,
    /// The checksum in the header.
    pub checksum: u64,
}

impl FileInfo {
    fn encode(&self) -> [u8; HEADER as usize] {
        let mut h = [0u8; HEADER as usize];
        h[0..8].copy_from_slice(&MAGIC);
        h[8..12].copy_from_slice(&VERSION.to_le_bytes());
        h[12] = self.rules.houses;
        h[13] = self.rules.seeds;
        h[14] = (self.rules.capture == Capture::Empty) as u8;
        h[15] = (self.rules.end == End::MoverStuck) as u8;
        h[16] = (self.rules.leftovers == Leftovers::Discard) as u8;
        h[17] = self.max_seeds as u8;
        h[18] = self.levels as u8;
        h[24..32].copy_from_slice(&self.entries.to_le_bytes());
        h[32..40].copy_from_slice(&self.checksum.to_le_bytes());
        h
    }

    fn decode(h: &[u8; HEADER as usize], path: &str) -> Result<FileInfo, EgdbError> {
        if h[0..8] != MAGIC {
            return Err(EgdbError::NotADatabase {
                path: path.to_string(),
            });
        }
        let version = u32::from_le_bytes([h[8], h[9], h[10], h[11]]);
        if version != VERSION {
            return Err(EgdbError::Version {
                path: path.to_string(),
                found: version,
            });
        }
        let corrupt = |why: &str| EgdbError::Corrupt {
            path: path.to_string(),
            why: why.to_string(),
        };
        let flag = |b: u8, what: &str| match b {
            0 => Ok(false),
            1 => Ok(true),
            _ => Err(corrupt(&format!("unknown {what} rule {b} in the header"))),
        };
        let rules = Rules {
            family: Family::Kalah,
            houses: h[12],
            seeds: h[13],
            capture: if flag(h[14], "capture")? {
                Capture::Empty
            } else {
                Capture::Standard
            },
            end: if flag(h[15], "end")? {
                End::MoverStuck
            } else {
                End::RowEmpty
            },
            leftovers: if flag(h[16], "leftovers")? {
                Leftovers::Discard
            } else {
                Leftovers::Owner
            },
            early_stop: false,
        };
        if rules.houses == 0 || rules.houses as usize > kalah_core::MAX_HOUSES {
            return Err(corrupt("impossible number of houses in the header"));
        }
        let info = FileInfo {
            rules,
            max_seeds: h[17] as usize,
            levels: h[18] as usize,
            entries: u64::from_le_bytes(h[24..32].try_into().unwrap_or_default()),
            checksum: u64::from_le_bytes(h[32..40].try_into().unwrap_or_default()),
        };
        if info.max_seeds > MAX_SEEDS
            || info.levels > info.max_seeds + 1
            || info.entries != entries_below(rules.houses as usize, info.levels)
        {
            return Err(corrupt("inconsistent sizes in the header"));
        }
        Ok(info)
    }

    /// The size of a file holding this header's levels.
    pub fn file_size(&self) -> u64 {
        HEADER + self.entries
    }
}

/// The boards in the first `levels` levels.
fn entries_below(houses: usize, levels: usize) -> u64 {
    if levels == 0 {
        0
    } else {
        Egdb::entries(houses, levels - 1) as u64
    }
}

/// The path of the unfinished file of a build to `path`: `path` with `.partial` added.
pub fn partial_path(path: &Path) -> PathBuf {
    let mut s = path.as_os_str().to_owned();
    s.push(".partial");
    PathBuf::from(s)
}

/// The header fields the checksum starts from.
fn checksum_seed(header: &[u8; HEADER as usize]) -> u64 {
    hash_bytes(&header[0..17])
}

/// The hash of one block: its 64-bit words folded by multiply and rotate, then mixed.
fn hash_bytes(bytes: &[u8]) -> u64 {
    let mut h = 0x243f_6a88_85a3_08d3u64 ^ bytes.len() as u64;
    let mut words = bytes.chunks_exact(8);
    for w in &mut words {
        let w = u64::from_le_bytes(w.try_into().unwrap_or_default());
        h = (h ^ w).wrapping_mul(HASH_MUL).rotate_left(29);
    }
    let mut tail = [0u8; 8];
    tail[..words.remainder().len()].copy_from_slice(words.remainder());
    h = (h ^ u64::from_le_bytes(tail)).wrapping_mul(HASH_MUL);
    mix(h)
}

/// Multiplier of [`hash_bytes`].
const HASH_MUL: u64 = 0x9e37_79b9_7f4a_7c15;

/// [`hash_bytes`] of `LANES` blocks of the same length at once: the same values, but the
/// blocks' multiply chains are independent, so the processor overlaps them (a single
/// chain waits on each multiply).
fn hash_blocks<const LANES: usize>(blocks: [&[u8]; LANES]) -> [u64; LANES] {
    let len = blocks[0].len();
    debug_assert!(blocks.iter().all(|b| b.len() == len) && len % 8 == 0);
    let mut h = [0x243f_6a88_85a3_08d3u64 ^ len as u64; LANES];
    let word = |b: &[u8], i: usize| u64::from_le_bytes(b[i..i + 8].try_into().unwrap_or_default());
    for i in (0..len).step_by(8) {
        for (h, b) in h.iter_mut().zip(&blocks) {
            *h = (*h ^ word(b, i)).wrapping_mul(HASH_MUL).rotate_left(29);
        }
    }
    h.map(|h| mix(h.wrapping_mul(HASH_MUL)))
}

/// The hashes of the 1 MiB blocks of `bytes`, four at a time where they are whole.
fn block_hashes(bytes: &[u8]) -> Vec<u64> {
    const LANES: usize = 4;
    bytes
        .par_chunks(LANES * BLOCK)
        .flat_map_iter(|group| {
            let whole: Option<[&[u8]; LANES]> = (group.len() == LANES * BLOCK)
                .then(|| std::array::from_fn(|i| &group[i * BLOCK..(i + 1) * BLOCK]));
            match whole {
                Some(blocks) => hash_blocks(blocks).to_vec(),
                None => group.chunks(BLOCK).map(hash_bytes).collect(),
            }
        })
        .collect()
}

/// The hash of one level: the hashes of its 1 MiB blocks, computed in parallel, chained.
fn hash_level(bytes: &[u8]) -> u64 {
    let blocks = block_hashes(bytes);
    blocks
        .iter()
        .fold(bytes.len() as u64, |acc, &b| mix(acc ^ b))
}

/// The checksum of the first `levels` levels of `values`.
fn checksum(seed: u64, db: &Egdb, levels: usize) -> u64 {
    let bytes = db.values.as_bytes();
    (0..levels).fold(seed, |acc, n| {
        let lo = db.ranker.level_start(n) as usize;
        let hi = db.ranker.level_start(n + 1) as usize;
        mix(acc ^ hash_level(&bytes[lo..hi]))
    })
}

fn io_error(path: &Path) -> impl Fn(std::io::Error) -> EgdbError + '_ {
    move |e| EgdbError::Io {
        path: path.display().to_string(),
        message: e.to_string(),
    }
}

/// The database file in `dir` best suited to solving positions of `game` with at most
/// `seeds` seeds in the houses: among the finished `*.egdb` files built for its rules and
/// board (by their headers; other files are passed over), the smallest that holds `seeds`
/// seeds, else the largest. `None` when there is none; an error only when `dir` cannot be
/// read.
pub fn find_in(dir: &Path, game: &Game, seeds: usize) -> Result<Option<PathBuf>, EgdbError> {
    let mut found: Vec<(usize, PathBuf)> = std::fs::read_dir(dir)
        .map_err(io_error(dir))?
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "egdb"))
        .filter_map(|p| {
            let info = read_info(&p).ok()?;
            (info.levels == info.max_seeds + 1 && super::serves(&info.rules, game.rules()))
                .then_some((info.max_seeds, p))
        })
        .collect();
    found.sort();
    let enough = found.iter().find(|(k, _)| *k >= seeds).cloned();
    Ok(enough.or_else(|| found.pop()).map(|(_, p)| p))
}

/// Reads the header of a database file.
pub fn read_info(path: &Path) -> Result<FileInfo, EgdbError> {
    let mut f = File::open(path).map_err(io_error(path))?;
    read_header(&mut f, path)
}

fn read_header(f: &mut File, path: &Path) -> Result<FileInfo, EgdbError> {
    let name = path.display().to_string();
    let mut h = [0u8; HEADER as usize];
    f.read_exact(&mut h).map_err(|e| match e.kind() {
        std::io::ErrorKind::UnexpectedEof => EgdbError::NotADatabase { path: name.clone() },
        _ => io_error(path)(e),
    })?;
    FileInfo::decode(&h, &name)
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
/// the system drops it; a build drops what it wrote ([`drop_cached`]).
fn map(f: &File) -> Option<memmap2::Mmap> {
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

/// Bytes per task when a file's values are copied into memory on every core.
const COPY_CHUNK: usize = 32 << 20;

/// Fills `buf` from `f` at byte `offset` on, in chunks read by every core: the copy and
/// the first touch of each chunk's fresh pages (zeroed by the system first) then run in
/// parallel (about twice as fast as one sequential read).
fn read_parallel(f: &File, offset: u64, buf: &mut [u8]) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileExt;
        buf.par_chunks_mut(COPY_CHUNK)
            .enumerate()
            .try_for_each(|(i, chunk)| f.read_exact_at(chunk, offset + (i * COPY_CHUNK) as u64))
    }
    #[cfg(not(unix))]
    {
        let mut f = f;
        f.seek(SeekFrom::Start(offset))?;
        f.read_exact(buf)
    }
}

/// Drops the pages of a file just written (and flushed) from the page cache, so that the
/// first load reads it back through its map, into huge pages (see [`map`]). Pages written
/// by `write` are cached as small pages, and a map of them stays on small pages for as
/// long as they are cached, which makes every load slower.
fn drop_cached(f: &File) {
    #[cfg(target_os = "linux")]
    {
        use std::os::fd::AsRawFd;
        // SAFETY: advice on our own open file; failure only leaves the pages cached.
        unsafe { libc::posix_fadvise(f.as_raw_fd(), 0, 0, libc::POSIX_FADV_DONTNEED) };
    }
    #[cfg(not(target_os = "linux"))]
    let _ = f;
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
    /// ([`Residence::Copied`]; mapped all the same when the copy would not fit in the
    /// memory available). The choice for long solves: the search reads either at the
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
        let mut f = File::open(path).map_err(io_error(path))?;
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
        let game = super::widest_game(&info.rules).map_err(|e| EgdbError::Corrupt {
            path: name.clone(),
            why: format!("impossible rules in the header: {e}"),
        })?;
        let mapped = match residence {
            Residence::Mapped | Residence::Huge => map(&f),
            Residence::Copied => None,
        };
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
        if residence == Residence::Huge && db.values.is_mapped() && !db.values.on_huge_pages() {
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

    /// [`Egdb::load`] for solving positions with at most `seeds` seeds in the houses: held
    /// as [`crate::Config::default_residence`] says for the file's number of seeds.
    pub fn load_for(path: &Path, game: &Game, seeds: usize) -> Result<Egdb, EgdbError> {
        let k = read_info(path)?.max_seeds;
        Egdb::load_as(path, game, crate::Config::default_residence(seeds, k))
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
            values: Bytes::filled(0, 0),
            complete: 0,
            path: None,
        };
        probe.for_game(game, &path.display().to_string())?;
        Egdb::open_as(path, residence)?.for_game(game, &path.display().to_string())
    }

    /// Writes the database to `path` (through `path.tmp` and a rename).
    pub fn save(&self, path: &Path) -> Result<(), EgdbError> {
        let mut tmp = path.as_os_str().to_owned();
        tmp.push(".tmp");
        let tmp = PathBuf::from(tmp);
        let levels = self.complete;
        let entries = self.ranker.level_start(levels);
        Requirements::check_disk(path, HEADER + entries)?;
        let mut info = FileInfo {
            rules: self.rules,
            max_seeds: self.max_seeds(),
            levels,
            entries,
            checksum: 0,
        };
        info.checksum = checksum(checksum_seed(&info.encode()), self, levels);
        let write = || -> std::io::Result<()> {
            let mut f = File::create(&tmp)?;
            f.write_all(&info.encode())?;
            f.write_all(&self.values.as_bytes()[..entries as usize])?;
            f.sync_all()?;
            drop_cached(&f);
            std::fs::rename(&tmp, path)
        };
        write().map_err(io_error(path))
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
        std::fs::copy(from, &partial).map_err(io_error(&partial))?;
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
        let partial = partial_path(path);
        let houses = game.houses();
        let need = Requirements::of(houses, max_seeds)?;
        need.check_memory()?;
        let mut db = Egdb::empty(game, max_seeds)?;
        let mut info = FileInfo {
            rules: *game.rules(),
            max_seeds,
            levels: 0,
            entries: 0,
            checksum: 0,
        };
        let err = io_error(&partial);
        let mut f;
        if partial.exists() {
            f = OpenOptions::new()
                .read(true)
                .write(true)
                .open(&partial)
                .map_err(&err)?;
            let old = read_header(&mut f, &partial)?;
            let name = partial.display().to_string();
            if !db.supports(&old.rules) {
                return Err(EgdbError::WrongGame {
                    path: format!(
                        "{name} (left by an interrupted build; remove it or build to another file)"
                    ),
                    built: super::describe(&old.rules),
                    wanted: super::describe(game.rules()),
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
            if let Some(bytes) = db.values.as_mut_bytes() {
                read_parallel(&f, HEADER, &mut bytes[..have]).map_err(&err)?;
            }
            info.rules.seeds = old.rules.seeds;
            let seed = checksum_seed(&info.encode());
            if checksum(seed, &db, old.levels) != old.checksum {
                return Err(EgdbError::Corrupt {
                    path: name,
                    why: "checksum mismatch; remove it to start again".into(),
                });
            }
            db.complete = old.levels;
            // Anything past the finished levels was cut off by the interruption.
            f.set_len(old.file_size()).map_err(&err)?;
            info.levels = old.levels;
            info.entries = old.entries;
            info.checksum = old.checksum;
        } else {
            f = OpenOptions::new()
                .read(true)
                .write(true)
                .create(true)
                .truncate(true)
                .open(&partial)
                .map_err(&err)?;
            info.checksum = checksum_seed(&info.encode());
            f.write_all(&info.encode()).map_err(&err)?;
        }
        let resumed = db.complete;
        Requirements::check_disk(&partial, need.disk - HEADER - info.entries)?;
        for level in db.complete..=max_seeds {
            db.build_level(game, level, progress);
            let lo = db.ranker.level_start(level) as usize;
            let hi = db.ranker.level_start(level + 1) as usize;
            let bytes = &db.values.as_bytes()[lo..hi];
            f.seek(SeekFrom::Start(HEADER + lo as u64)).map_err(&err)?;
            f.write_all(bytes).map_err(&err)?;
            f.sync_data().map_err(&err)?;
            info.levels = level + 1;
            info.entries = hi as u64;
            info.checksum = mix(info.checksum ^ hash_level(bytes));
            f.seek(SeekFrom::Start(0)).map_err(&err)?;
            f.write_all(&info.encode()).map_err(&err)?;
            f.sync_data().map_err(&err)?;
        }
        drop_cached(&f);
        drop(f);
        std::fs::rename(&partial, path).map_err(io_error(path))?;
        Ok((db, resumed))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_hash_as_one_at_a_time() {
        let bytes: Vec<u8> = (0..9 * BLOCK + 12345)
            .map(|i| (mix(i as u64) >> 7) as u8)
            .collect();
        let one_by_one: Vec<u64> = bytes.chunks(BLOCK).map(hash_bytes).collect();
        assert_eq!(block_hashes(&bytes), one_by_one);
        assert_eq!(block_hashes(&bytes[..4 * BLOCK]), one_by_one[..4]);
    }

    #[test]
    fn header_round_trips() {
        let info = FileInfo {
            rules: Rules {
                capture: Capture::Empty,
                end: End::MoverStuck,
                ..Rules::kalah(3, 2)
            },
            max_seeds: 5,
            levels: 6,
            entries: Egdb::entries(3, 5) as u64,
            checksum: 12345,
        };
        assert_eq!(FileInfo::decode(&info.encode(), "x"), Ok(info));
    }

    #[test]
    fn entries_below_counts_finished_levels() {
        assert_eq!(entries_below(2, 0), 0);
        assert_eq!(entries_below(2, 1), 1);
        assert_eq!(entries_below(2, 3), Egdb::entries(2, 2) as u64);
    }
}
