//! The partial file of a long run: a header line naming the work, then one sealed record
//! a line, each added in one write as it is proved, so that a kill leaves whole records
//! and at most one cut short. Export and the atlas keep their work in one
//! (`export::resume`, `openings::atlas`); each reads its own records.

use std::collections::hash_map::Entry;
use std::collections::HashMap;
use std::fmt;
use std::fs::{File, OpenOptions};
use std::hash::Hash;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use kalah_io::{replace, seal, Header};

/// Why a partial file could not be read or written.
#[derive(Debug)]
pub enum ResumeError {
    /// Reading or writing the file failed.
    Io {
        /// The partial file.
        path: PathBuf,
        /// What went wrong.
        error: io::Error,
    },
    /// The file holds no work this run may go on from.
    Refused {
        /// The partial file.
        path: PathBuf,
        /// Why, as a phrase after the file's name (`has a damaged header`).
        why: String,
    },
}

impl fmt::Display for ResumeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ResumeError::Io { path, error } => write!(f, "{}: {error}", path.display()),
            ResumeError::Refused { path, why } => write!(
                f,
                "{} {why}: remove it to start afresh, or run the export that wrote it",
                path.display()
            ),
        }
    }
}

impl std::error::Error for ResumeError {}

/// The records by key, leaving out every record of a key found more than once (which of
/// them is right cannot be told: a run writes each key once), and how many were left out.
pub fn without_duplicates<K: Hash + Eq, T>(records: Vec<(K, T)>) -> (HashMap<K, T>, usize) {
    let mut by_key: HashMap<K, (usize, T)> = HashMap::new();
    for (k, t) in records {
        match by_key.entry(k) {
            Entry::Occupied(mut seen) => seen.get_mut().0 += 1,
            Entry::Vacant(new) => {
                new.insert((1, t));
            }
        }
    }
    let dropped = by_key.values().map(|(n, _)| *n).filter(|&n| n > 1).sum();
    let kept = by_key
        .into_iter()
        .filter(|(_, (n, _))| *n == 1)
        .map(|(k, (_, t))| (k, t))
        .collect();
    (kept, dropped)
}

/// One record as a sealed line, as `load_records` reads it.
pub(crate) fn sealed(text: &str) -> String {
    seal(text) + "\n"
}

/// The partial file of a running export, taking each value as it is solved.
#[derive(Debug)]
pub struct Partial {
    path: PathBuf,
    /// `None` once a write failed: one error is enough to end the run.
    file: Mutex<Option<File>>,
    failed: Mutex<Option<io::Error>>,
}

impl Partial {
    /// Rewrites `path` with `header` and the records `known` (as [`Partial::add_record`]
    /// writes them) and opens it to add the records made from now on.
    pub fn start_with(
        path: &Path,
        header: &Header,
        known: impl IntoIterator<Item = String>,
    ) -> Result<Partial, ResumeError> {
        let mut text = header.line();
        text.push('\n');
        for r in known {
            text.push_str(&sealed(&r));
        }
        replace(path, text.as_bytes()).map_err(|e| io_error(path, e))?;
        let file = OpenOptions::new()
            .append(true)
            .open(path)
            .map_err(|e| io_error(path, e))?;
        Ok(Partial {
            path: path.to_path_buf(),
            file: Mutex::new(Some(file)),
            failed: Mutex::new(None),
        })
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Adds one record (one line of text without a line break, sealed here), as
    /// [`Partial::add`] adds a value.
    pub fn add_record(&self, text: &str) -> bool {
        let Ok(mut guard) = self.file.lock() else {
            return true;
        };
        let Some(f) = guard.as_mut() else {
            return true;
        };
        if let Err(e) = f.write_all(sealed(text).as_bytes()) {
            if let Ok(mut failed) = self.failed.lock() {
                failed.get_or_insert(e);
            }
            *guard = None;
            return false;
        }
        true
    }

    /// The first write that failed, if any.
    pub fn failure(&self) -> Result<(), ResumeError> {
        match self.failed.lock().ok().and_then(|mut f| f.take()) {
            Some(e) => Err(io_error(&self.path, e)),
            None => Ok(()),
        }
    }
}

pub(crate) fn io_error(path: &Path, error: io::Error) -> ResumeError {
    ResumeError::Io {
        path: path.to_path_buf(),
        error,
    }
}
