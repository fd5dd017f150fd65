//! Endgame database files: the format and its checksum (`format`), loading with
//! verification (`load`), saving and the build that survives interruption (`build`), and
//! the memory and disk space those take (`requirements`).
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
pub(crate) mod held;
mod load;
mod requirements;

use std::path::Path;

use super::EgdbError;

pub use crate::os::{available_disk, available_memory};
pub use build::partial_path;
pub use format::{read_info, FileInfo, HEADER, MAGIC, VERSION};
pub use load::{candidates, find_in, Residence};
pub use requirements::Requirements;

/// The error of a failed read or write of `path`.
fn io_error(path: &Path) -> impl Fn(std::io::Error) -> EgdbError + '_ {
    move |e| EgdbError::Io {
        path: path.display().to_string(),
        message: e.to_string(),
    }
}

/// Opens the database file `path` for reading (and writing, with `write`), refusing a
/// FIFO, a socket or a device by name ([`EgdbError::NotAFile`]) before opening it: only a
/// regular file is a database, and the open of a FIFO blocks until something writes to
/// it. A symlink to a regular file is followed. The open itself does not block either
/// (`O_NONBLOCK`, which a regular file's reads ignore), and what it opened is checked
/// again, so a file swapped for a FIFO in between is refused too. A directory is left to
/// the open and the read, which say so.
pub(crate) fn open_regular(path: &Path, write: bool) -> Result<std::fs::File, EgdbError> {
    let not_a_file = || EgdbError::NotAFile {
        path: path.display().to_string(),
    };
    let special = |m: &std::fs::Metadata| !m.is_file() && !m.is_dir();
    if std::fs::metadata(path).is_ok_and(|m| special(&m)) {
        return Err(not_a_file());
    }
    let mut options = std::fs::OpenOptions::new();
    options.read(true).write(write);
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    let f = options.open(path).map_err(io_error(path))?;
    match f.metadata() {
        Ok(m) if special(&m) => Err(not_a_file()),
        _ => Ok(f),
    }
}

/// True where `path` is (or links to) a regular file: what a directory scan for databases
/// reads; anything else there is passed over without being opened.
pub(crate) fn is_regular(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|m| m.is_file())
}
