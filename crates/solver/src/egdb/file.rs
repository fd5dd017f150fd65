//! Endgame database files: the format and its checksum (`format`), loading with
//! verification (`load`), and saving and the build that survives interruption (`build`).
//! The memory and disk probes the size checks use are in the crate's `os` module.
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
//!     19    1  family     0 Kalah, 1 General, 2 Nigerian, 3 Ethiopian, 4 Oware (0 in
//!              files written before the other families; capture is then 0)
//!     20    1  grand slam 0 no-capture, 1 capture-all (Oware's option; 0 otherwise)
//!     21    3  zero
//!     24    8  entries that follow (the boards of the finished levels)
//!     32    8  checksum
//!     40    8  header check: a hash of bytes 0..40, never 0 (0 in files written before
//!              it existed, which are read without it)
//!     48   16  zero
//!     64    .  one signed byte per board, in rank order (see kalah_core::Ranker)
//! ```
//!
//! The checksum chains the levels: it starts from a hash of bytes `0..17` of the header
//! (magic, version, board and rules; mixed with the family byte and then the grand slam
//! byte where they are not 0) and takes in each finished level's hash in turn,
//! `sum = mix(sum ^ hash(level))`, where a level's hash combines the hashes of its
//! 1 MiB blocks (computed in parallel) the same way. It is checked, with the size and a
//! sample of entries against their children, every time a file is loaded.
//!
//! **Writing.** A file is written under another name and renamed when complete, so a
//! file of the final name is always finished; a build interrupted on the way leaves
//! `FILE.partial`, which the next build for the same rules resumes (see
//! [`Egdb::build_file`](super::Egdb::build_file)).

mod build;
mod format;
mod load;

use std::path::Path;

use super::EgdbError;

pub use crate::os::{available_disk, available_memory};
pub use build::{partial_path, Requirements};
pub use format::{read_info, FileInfo, HEADER, MAGIC, VERSION};
pub use load::{candidates, find_in, Residence};

/// The error of a failed read or write of `path`.
fn io_error(path: &Path) -> impl Fn(std::io::Error) -> EgdbError + '_ {
    move |e| EgdbError::Io {
        path: path.display().to_string(),
        message: e.to_string(),
    }
}
