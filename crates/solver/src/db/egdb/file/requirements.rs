//! What building or loading a database file takes ([`Requirements`]): its entries, the
//! memory for its values and the bytes of the file, checked against what the system has
//! before a build or a load starts. Below both, `build` and `load` each use it.

use std::path::Path;

use super::format::HEADER;
use crate::db::egdb::{Egdb, EgdbError, MAX_SEEDS};
use crate::os::{available_disk, available_memory};

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

/// The size in words: `52.0 M positions, 49.6 MiB` (the positions and the file's bytes).
impl std::fmt::Display for Requirements {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{:.1} M positions, {:.1} MiB",
            self.entries as f64 / 1e6,
            self.disk as f64 / (1u64 << 20) as f64
        )
    }
}
