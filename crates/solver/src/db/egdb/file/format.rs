//! The file format: the header ([`FileInfo`]) and the checksum that chains the levels
//! (see the parent module for the layout).

use std::fs::File;
use std::io::Read;
use std::path::Path;

use kalah_core::{mix, Capture, End, Family, GrandSlam, Leftovers, Rules};
use rayon::prelude::*;

use super::io_error;
use crate::db::egdb::{Egdb, EgdbError, MAX_SEEDS};

/// The magic bytes that open every database file.
pub const MAGIC: [u8; 8] = *b"KALAHEDB";
/// The format version this program writes and reads.
pub const VERSION: u32 = 1;
/// Bytes before the values.
pub const HEADER: u64 = 64;
/// Bytes per block of the checksum.
const BLOCK: usize = 1 << 20;

/// The rule families by their code in byte 19 of the header.
const FAMILIES: [Family; 5] = [
    Family::Kalah,
    Family::General,
    Family::Nigerian,
    Family::Ethiopian,
    Family::Oware,
];

/// The code of `family` in the header ([`FAMILIES`]).
fn family_code(family: Family) -> u8 {
    FAMILIES.iter().position(|&f| f == family).unwrap_or(0) as u8
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
    /// The header of a build of `rules` to `max_seeds` seeds with no level written yet.
    pub(super) fn unwritten(rules: Rules, max_seeds: usize) -> FileInfo {
        FileInfo {
            rules,
            max_seeds,
            levels: 0,
            entries: 0,
            checksum: 0,
        }
    }

    pub(super) fn encode(&self) -> [u8; HEADER as usize] {
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
        h[19] = family_code(self.rules.family);
        h[20] = (self.rules.grand_slam == GrandSlam::CaptureAll) as u8;
        h[24..32].copy_from_slice(&self.entries.to_le_bytes());
        h[32..40].copy_from_slice(&self.checksum.to_le_bytes());
        let check = header_check(&h);
        h[40..48].copy_from_slice(&check.to_le_bytes());
        h
    }

    pub(super) fn decode(h: &[u8; HEADER as usize], path: &str) -> Result<FileInfo, EgdbError> {
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
        // Files written before the header had its own check hold zeros there.
        let check = u64::from_le_bytes(h[40..48].try_into().unwrap_or_default());
        if check != 0 && check != header_check(h) {
            return Err(corrupt("the header does not match its own checksum"));
        }
        let flag = |b: u8, what: &str| match b {
            0 => Ok(false),
            1 => Ok(true),
            _ => Err(corrupt(&format!("unknown {what} rule {b} in the header"))),
        };
        // Files written before the other families hold 0 (Kalah) there.
        let family = FAMILIES
            .get(h[19] as usize)
            .copied()
            .ok_or_else(|| corrupt(&format!("unknown rule family {} in the header", h[19])))?;
        let rules = Rules {
            family,
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
            grand_slam: match flag(h[20], "grand slam")? {
                true => GrandSlam::CaptureAll,
                false => GrandSlam::NoCapture,
            },
        };
        if rules.grand_slam != GrandSlam::NoCapture && family != Family::Oware {
            return Err(corrupt(
                "a grand slam rule for a family without one in the header",
            ));
        }
        if rules.capture == Capture::Empty && !family.has_capture_option() {
            return Err(corrupt(
                "a capture rule for a family without one in the header",
            ));
        }
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

    /// True where the file holds every level of its database (`K + 1`), not only those an
    /// interrupted build finished.
    pub fn is_finished(&self) -> bool {
        self.levels == self.max_seeds + 1
    }

    /// The size of a file holding this header's levels.
    pub fn file_size(&self) -> u64 {
        HEADER + self.entries
    }
}

/// The boards in the first `levels` levels.
pub(super) fn entries_below(houses: usize, levels: usize) -> u64 {
    if levels == 0 {
        0
    } else {
        Egdb::entries(houses, levels - 1) as u64
    }
}

/// The check of the header's first 40 bytes, stored in bytes 40..48 (never 0, which marks
/// a file written before the header had one): a damaged header (a flipped rules byte, say)
/// is found as damage when the file is opened, not taken for a file of other rules.
fn header_check(header: &[u8; HEADER as usize]) -> u64 {
    hash_bytes(&header[0..40]).max(1)
}

/// The header fields the checksum starts from: the board and the rules (bytes 0..17),
/// then the family where it is not Kalah (byte 19; Kalah's files came first).
pub(super) fn checksum_seed(header: &[u8; HEADER as usize]) -> u64 {
    let seed = hash_bytes(&header[0..17]);
    let seed = match header[19] {
        0 => seed,
        family => mix(seed ^ family as u64),
    };
    match header[20] {
        0 => seed,
        grand_slam => mix(seed ^ (grand_slam as u64) << 8),
    }
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
pub(super) fn hash_level(bytes: &[u8]) -> u64 {
    let blocks = block_hashes(bytes);
    blocks
        .iter()
        .fold(bytes.len() as u64, |acc, &b| mix(acc ^ b))
}

/// The checksum of the first `levels` levels of `values`.
pub(super) fn checksum(seed: u64, db: &Egdb, levels: usize) -> u64 {
    let bytes = db.values.as_bytes();
    (0..levels).fold(seed, |acc, n| {
        let lo = db.ranker.level_start(n) as usize;
        let hi = db.ranker.level_start(n + 1) as usize;
        mix(acc ^ hash_level(&bytes[lo..hi]))
    })
}

/// Reads the header of a database file.
pub fn read_info(path: &Path) -> Result<FileInfo, EgdbError> {
    let mut f = super::open_regular(path, false)?;
    read_header(&mut f, path)
}

pub(super) fn read_header(f: &mut File, path: &Path) -> Result<FileInfo, EgdbError> {
    let name = path.display().to_string();
    let mut h = [0u8; HEADER as usize];
    f.read_exact(&mut h).map_err(|e| match e.kind() {
        std::io::ErrorKind::UnexpectedEof => EgdbError::NotADatabase { path: name.clone() },
        _ => io_error(path)(e),
    })?;
    FileInfo::decode(&h, &name)
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
        assert_eq!(FileInfo::decode(&info.encode(), "x"), Ok(info.clone()));
        // A header written before it had its own check (zeros there) still reads.
        let mut legacy = info.encode();
        legacy[40..48].fill(0);
        assert_eq!(FileInfo::decode(&legacy, "x"), Ok(info.clone()));
        // A flipped rules byte is damage.
        let mut flipped = info.encode();
        flipped[14] ^= 1;
        assert!(matches!(
            FileInfo::decode(&flipped, "x"),
            Err(EgdbError::Corrupt { .. })
        ));
    }

    #[test]
    fn entries_below_counts_finished_levels() {
        assert_eq!(entries_below(2, 0), 0);
        assert_eq!(entries_below(2, 1), 1);
        assert_eq!(entries_below(2, 3), Egdb::entries(2, 2) as u64);
    }
}
