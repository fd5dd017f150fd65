//! Atomic outputs and output locks for the command line and the coming Python package:
//! the one way every command writes a file. The path is checked before any work, a lock
//! is held for the whole run, whole files are replaced atomically, non-regular files are
//! streamed to, and header and record checks let an interrupted run be resumed safely.
//!
//! ```
//! use kalah_io::{seal, unseal, Output};
//!
//! let dir = tempfile::tempdir().unwrap();
//! let path = dir.path().join("table.json");
//! let output = Output::open(&path).unwrap(); // checked and locked before the work
//! output.replace(b"{}\n").unwrap(); // written whole, atomically
//! assert_eq!(std::fs::read(&path).unwrap(), b"{}\n");
//!
//! // A record with its checksum: a damaged one is told apart.
//! assert_eq!(unseal(&seal("4,4,0,4,4,0:S 2")), Some("4,4,0,4,4,0:S 2"));
//! ```
//!
//! [`Output::open_with`] is called before the work starts. It refuses a directory, a
//! missing directory or a path that names no file (`.`, `..`, `dir/`), and takes an
//! exclusive advisory lock (`flock`) on `FILE.kalah-lock` beside the file and, where the
//! file exists, on the file itself, held until the [`Output`] is dropped: a second run on
//! the same file, under the same name or another (a hard link), fails at once with
//! [`OutputError::Busy`] instead of mixing its work into the first one's. The lock file
//! is removed by the run that holds it when the run ends or is refused (never by one
//! that does not hold it; `Lock` says why the race with a waiting run is harmless), so
//! none is left behind.
//!
//! **Existing paths** (docs/outputs.md has the table for every command). An output
//! replaces only what it wrote: an existing file that is not of its [`Kind`] (told by the
//! file's first bytes), or a read-only one, is refused with [`OutputError::Foreign`] or
//! [`OutputError::ReadOnly`] unless [`Checks::force`] is set; an empty file holds nothing
//! to lose and is taken. A symbolic link to a file (or to nothing yet) is never written
//! through: it is refused with [`OutputError::Symlink`], and with `force` the link itself
//! is replaced, its target left alone; a link to a FIFO or a device is streamed to like
//! the FIFO itself. An input of the command ([`Checks::inputs`]) is never its output,
//! `force` or not ([`OutputError::IsInput`]): compared by device and inode, so a hard
//! link or another spelling of the input is found too; so is the regular file on standard
//! input (and its FIFO where the command reads it, [`Checks::stdin`]). This holds for
//! paths under `/dev` and `/proc` too: `/dev/stdin`, `/dev/fd/0` or `/proc/self/fd/0`
//! are followed to the file they reach and refused where that is an input.
//!
//! A regular file (or one still to be created) is written whole with
//! [`Output::replace`] (a temporary file in the target's directory, synced, then renamed
//! over it: a crash leaves the old file or the new one, never half of one), or extended in
//! place with [`Output::append`] for a resumable run. Anything else (a FIFO, a character
//! device such as `/dev/stdout` or `/dev/null`) is never replaced and never read: it is
//! [streamed](OutputKind::Stream) to directly, and cannot be resumed. Sockets and block
//! devices are refused.
//!
//! Files that a later run resumes from start with a [`Header`] naming the kind of file
//! and every parameter the work depends on; [`Header::differences`] says what a resume
//! would change. Their records can carry a checksum ([`seal`], [`unseal`]) so that a
//! damaged record is found and its work done again.
//!
//! Input is read bounded ([`LineReader`], [`read_bounded`]): a line longer than
//! [`MAX_LINE`] or a file larger than its bound is an error that names it, never an
//! exhausted memory.
#![deny(missing_docs)]

mod existing;
mod read;

pub use existing::{first_line, Checks, Kind, HEAD};
pub use read::{read_bounded, read_regular_bounded, Line, LineReader, TooLong, MAX_LINE};

use existing::Found;

use std::fmt;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Seek, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

use fs4::FileExt;

/// Why an output file cannot be used or written.
#[derive(Debug)]
pub enum OutputError {
    /// The path names no file: `.`, `..`, a path ending in `/`, or the empty path.
    NotAFileName(PathBuf),
    /// The path is a directory.
    Directory(PathBuf),
    /// The directory the file would go in does not exist.
    NoDirectory {
        /// The output as given.
        path: PathBuf,
        /// The directory that is missing.
        dir: PathBuf,
    },
    /// A socket, a block device, or a file under `/dev` or `/proc` that does not exist:
    /// neither replaced, created nor written to.
    Unsupported(PathBuf),
    /// Another process holds the lock on this output.
    Busy(PathBuf),
    /// Resuming asks for a regular file and the output is not one.
    NotResumable(PathBuf),
    /// An existing file of another kind than the output's: left alone without `force`.
    Foreign {
        /// The output as given.
        path: PathBuf,
        /// What the output writes (`a table written by kalah export`).
        kind: &'static str,
    },
    /// An existing file that nobody may write: left alone without `force`.
    ReadOnly(PathBuf),
    /// The path is a symbolic link: never written through, and replaced (the link
    /// itself) only with `force`.
    Symlink {
        /// The output as given.
        path: PathBuf,
        /// Where the link leads.
        target: PathBuf,
    },
    /// The output is one of the command's inputs, or the file or FIFO on standard input
    /// (the same file, by device and inode, whatever path reaches it: `/dev/stdin`,
    /// `/dev/fd/0`, `/proc/self/fd/0`, a link, a hard link).
    IsInput {
        /// The output as given.
        path: PathBuf,
        /// The input as given.
        input: PathBuf,
    },
    /// Reading or writing the file failed (disk full, closed pipe, no permission...).
    Io {
        /// The file.
        path: PathBuf,
        /// What failed.
        error: io::Error,
    },
}

impl fmt::Display for OutputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OutputError::NotAFileName(p) => {
                write!(f, "{}: not a file name: give a file to write", p.display())
            }
            OutputError::Directory(p) => write!(
                f,
                "{} is a directory: give a file to write, such as {}",
                p.display(),
                p.join("out.json").display()
            ),
            OutputError::NoDirectory { path, dir } => write!(
                f,
                "cannot write {}: the directory {} does not exist",
                path.display(),
                dir.display()
            ),
            OutputError::Unsupported(p) => write!(
                f,
                "{} is not a file that can be written (a socket, a block device, or a new \
                 file under /dev or /proc): give a regular file, a FIFO or /dev/stdout",
                p.display()
            ),
            OutputError::Busy(p) => write!(
                f,
                "{} is being written by another kalah process: wait for it to finish or \
                 write elsewhere",
                p.display()
            ),
            OutputError::NotResumable(p) => write!(
                f,
                "{} is not a regular file: only a regular file can be resumed",
                p.display()
            ),
            OutputError::Foreign { path, kind } => write!(
                f,
                "{} exists and is not {kind}: it is left as it is; name another file, remove \
                 it, or pass --force to replace it",
                path.display()
            ),
            OutputError::ReadOnly(p) => write!(
                f,
                "{} is read-only: it is left as it is; make it writable, or pass --force to \
                 replace it",
                p.display()
            ),
            OutputError::Symlink { path, target } => write!(
                f,
                "{} is a symbolic link to {}: an output is never written through a link; \
                 name {} itself, or pass --force to replace the link (its target is left as \
                 it is)",
                path.display(),
                target.display(),
                target.display()
            ),
            OutputError::IsInput { path, input } => write!(
                f,
                "{} is the file {} that this command reads (the output would replace its \
                 input): write the output elsewhere, or to standard output (leave the output \
                 out, or give /dev/stdout with standard output redirected to another file)",
                path.display(),
                input.display()
            ),
            OutputError::Io { path, error } => {
                write!(f, "cannot write {}: {error}", path.display())
            }
        }
    }
}

impl std::error::Error for OutputError {}

/// What kind of file an [`Output`] writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OutputKind {
    /// A regular file, or one still to be created: replaced atomically, resumable.
    File,
    /// A FIFO or character device (`/dev/stdout`, a pipe): written to directly.
    Stream,
}

/// An output file checked and locked for one run (see the [module](self) doc).
#[derive(Debug)]
pub struct Output {
    /// The path as the user gave it, for messages.
    shown: PathBuf,
    /// The file written: the path itself (a link only where `force` replaces it), or the
    /// FIFO or device a link leads to.
    target: PathBuf,
    kind: OutputKind,
    /// The lock files (beside the target and, for a file another output keeps beside
    /// its own, beside that one too), held and removed when the output is dropped.
    _locks: Vec<Lock>,
    /// The existing file, locked by its identity (device and inode) while the run lasts.
    held: Option<File>,
    /// What is at the path is not this output's (a foreign file, a link) and is replaced
    /// whole (`force`): never read back, removed before an append creates the file.
    fresh: AtomicBool,
}

impl Output {
    /// Checks `path` and locks it for this run, taking any existing file and refusing a
    /// symbolic link (`Output::open_with` with no [`Kind`], no inputs, no force).
    pub fn open(path: &Path) -> Result<Output, OutputError> {
        Output::open_with(path, &Checks::default())
    }

    /// Checks `path` against `checks` (see the [module](self) doc, "Existing paths") and
    /// locks it for this run. Call it before any work starts.
    pub fn open_with(path: &Path, checks: &Checks<'_>) -> Result<Output, OutputError> {
        let text = path.as_os_str().to_string_lossy();
        if text.is_empty() || text.ends_with('/') || path.file_name().is_none() {
            return Err(OutputError::NotAFileName(path.to_path_buf()));
        }
        let io_err = |error| OutputError::Io {
            path: path.to_path_buf(),
            error,
        };
        let target = resolve(path).map_err(io_err)?;
        // What the path reaches (every link followed, `/dev/stdin` and `/proc/self/fd/0`
        // included) is compared with the inputs and standard input before anything else:
        // a path under /dev or /proc is written through, never replaced, but never to an
        // input either.
        if let Some(input) = existing::same_as_input(path, &checks.inputs) {
            return Err(OutputError::IsInput {
                path: path.to_path_buf(),
                input: input.to_path_buf(),
            });
        }
        if existing::is_stdin(path, checks.stdin) {
            return Err(OutputError::IsInput {
                path: path.to_path_buf(),
                input: PathBuf::from("on standard input"),
            });
        }
        if is_special(path) || is_special(&target) {
            return special(path);
        }
        let link = fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink());
        let (kind, exists) = file_kind(path, &target, link)?;
        if kind == OutputKind::Stream {
            return Ok(Output::stream_to(path, target));
        }
        let fresh = if link {
            if !checks.force {
                return Err(OutputError::Symlink {
                    path: path.to_path_buf(),
                    target,
                });
            }
            true
        } else if exists {
            match existing::judge(path, checks.kind).map_err(io_err)? {
                Found::Own => false,
                _ if checks.force => true,
                Found::Foreign => {
                    return Err(OutputError::Foreign {
                        path: path.to_path_buf(),
                        kind: checks.kind.map_or("a file of this command", |k| k.name),
                    })
                }
                Found::ReadOnly => return Err(OutputError::ReadOnly(path.to_path_buf())),
            }
        } else {
            false
        };
        // A forced link is replaced where it is: the path itself is the file written.
        let target = if link { path.to_path_buf() } else { target };
        let mut locks = vec![lock(path, &target)?];
        // `x.json.partial` is the partial file of a run writing `x.json`: while that run
        // lasts, no other may write it.
        if let Some(owner) = sibling_owner(&target) {
            locks.push(lock(path, &owner)?);
        }
        let held = match exists && !fresh {
            true => Some(hold(path, &target)?),
            false => None,
        };
        Ok(Output {
            shown: path.to_path_buf(),
            target,
            kind,
            _locks: locks,
            held,
            fresh: AtomicBool::new(fresh),
        })
    }

    /// An output streamed to `target` (a FIFO, a device), never locked, replaced or read.
    fn stream_to(path: &Path, target: PathBuf) -> Output {
        Output {
            shown: path.to_path_buf(),
            target,
            kind: OutputKind::Stream,
            _locks: Vec::new(),
            held: None,
            fresh: AtomicBool::new(false),
        }
    }

    /// The path as given, for messages.
    pub fn path(&self) -> &Path {
        &self.shown
    }

    /// The file written: the path itself, or the FIFO or device a link leads to.
    pub fn target(&self) -> &Path {
        &self.target
    }

    /// Whether the output is a regular file or a stream.
    pub fn kind(&self) -> OutputKind {
        self.kind
    }

    /// A file beside the target named after it (`book.json` -> `book.json.partial`),
    /// covered by this output's lock; `None` for a stream, which keeps no files beside it.
    pub fn sibling(&self, suffix: &str) -> Option<PathBuf> {
        (self.kind == OutputKind::File).then(|| sibling(&self.target, suffix))
    }

    /// The file's contents when it is a regular file of this output that exists; `None`
    /// for a stream, a file not there yet, or what `force` replaces. A stream is never
    /// read.
    pub fn existing(&self) -> Result<Option<Vec<u8>>, OutputError> {
        if self.kind != OutputKind::File || self.fresh.load(Ordering::Relaxed) {
            return Ok(None);
        }
        read_regular(&self.target).map_err(|e| self.error(e))
    }

    /// Writes `contents` as the whole file: atomically for a regular file (temporary
    /// file beside the target, synced, renamed over it, keeping the permissions of a file
    /// of this output it replaces), straight through for a stream.
    pub fn replace(&self, contents: &[u8]) -> Result<(), OutputError> {
        match self.kind {
            OutputKind::File => {
                let keep_mode = !self.fresh.load(Ordering::Relaxed);
                replace_as(&self.target, contents, keep_mode).map_err(|e| self.error(e))
            }
            OutputKind::Stream => self
                .stream()
                .and_then(|mut f| f.write_all(contents).and_then(|()| f.flush()))
                .map_err(|e| self.error(e)),
        }
    }

    /// A handle that extends the file: for a regular file, created if missing and cut to
    /// its first `keep` bytes (what an interrupted run left that is kept), and locked by
    /// its identity when it is new; for a stream, opened for writing (`keep` must be 0).
    /// What `force` replaces (a foreign file, a link) is removed first.
    pub fn append(&self, keep: u64) -> Result<File, OutputError> {
        match self.kind {
            OutputKind::File => (|| {
                if self.fresh.swap(false, Ordering::Relaxed) {
                    match fs::remove_file(&self.target) {
                        Err(e) if e.kind() != io::ErrorKind::NotFound => return Err(e),
                        _ => {}
                    }
                }
                let mut f = OpenOptions::new()
                    .create(true)
                    .truncate(false)
                    .write(true)
                    .open(&self.target)?;
                f.set_len(keep)?;
                f.seek(io::SeekFrom::End(0))?;
                Ok(f)
            })()
            .map_err(|e| self.error(e))
            .and_then(|f| self.hold_new(f)),
            OutputKind::Stream => self.stream().map_err(|e| self.error(e)),
        }
    }

    /// An I/O error on this output.
    pub fn error(&self, error: io::Error) -> OutputError {
        OutputError::Io {
            path: self.shown.clone(),
            error,
        }
    }

    fn stream(&self) -> io::Result<File> {
        OpenOptions::new().write(true).open(&self.target)
    }

    /// `file`, just opened to append, locked by its identity where no lock holds it yet
    /// (it was created by this run): a run on a hard link made to it since is kept off.
    fn hold_new(&self, file: File) -> Result<File, OutputError> {
        if self.held.is_none() {
            try_lock(&file).map_err(|e| self.busy_or(e))?;
        }
        Ok(file)
    }

    fn busy_or(&self, e: fs4::TryLockError) -> OutputError {
        match e {
            fs4::TryLockError::WouldBlock => OutputError::Busy(self.shown.clone()),
            fs4::TryLockError::Error(e) => self.error(e),
        }
    }
}

/// A lock file taken by [`lock`], held while this lives. Dropped (an output dropped, or
/// a run refused after taking it: another lock busy, the file itself held under another
/// name), it removes its file *while still holding the lock*, then lets go of it.
///
/// The race this leaves harmless: another run may have opened the same lock file just
/// before the removal and wait to lock it (or try just after the release). It then
/// locks a file no longer at the path; [`lock`] sees that (the path is gone or names
/// another file) and starts again with a fresh file. A run never removes a lock file it
/// does not hold, so it can never unlink the file that another run holds at that path.
/// Only an empty file is removed: one that is not is someone else's file of that name.
#[derive(Debug)]
struct Lock {
    path: PathBuf,
    file: File,
}

impl Drop for Lock {
    fn drop(&mut self) {
        if self.file.metadata().is_ok_and(|m| m.len() == 0) && same_file(&self.file, &self.path) {
            let _ = fs::remove_file(&self.path);
        }
    }
}

/// `path` with `suffix` added to its file name (`table.json` -> `table.json.tmp`).
pub fn sibling(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(suffix);
    path.with_file_name(name)
}

/// The contents of `path` when it is a regular file, `None` when it does not exist; an
/// error for anything else (only a regular file is read to resume from).
pub fn read_regular(path: &Path) -> io::Result<Option<Vec<u8>>> {
    match fs::metadata(path) {
        Ok(m) if m.is_file() => fs::read(path).map(Some),
        Ok(_) => Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "not a regular file: remove it",
        )),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e),
    }
}

/// Writes `contents` to `path` atomically: a temporary file in the same directory,
/// synced, renamed over `path` (keeping the permissions of the file it replaces).
pub fn replace(path: &Path, contents: &[u8]) -> io::Result<()> {
    replace_as(path, contents, true)
}

/// [`replace`], keeping the permissions of the file replaced only when `keep_mode`.
fn replace_as(path: &Path, contents: &[u8], keep_mode: bool) -> io::Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let mut builder = tempfile::Builder::new();
    let name = format!(
        ".{}.",
        path.file_name().unwrap_or_default().to_string_lossy()
    );
    builder.prefix(&name).suffix(".tmp");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        // The mode of the file replaced, else what a plain create gives (umask applies).
        let mode = fs::metadata(path)
            .ok()
            .filter(|_| keep_mode)
            .map_or(0o666, |m| m.permissions().mode() & 0o7777);
        builder.permissions(fs::Permissions::from_mode(mode));
    }
    let mut tmp = builder.tempfile_in(dir)?;
    tmp.write_all(contents)?;
    tmp.as_file().sync_all()?;
    tmp.persist(path).map_err(|e| e.error)?;
    // The rename itself is durable once the directory is synced.
    if let Ok(d) = File::open(dir) {
        let _ = d.sync_all();
    }
    Ok(())
}

/// `path` with its symlinks followed as far as they go (a link to a file not yet there
/// gives that file's path).
fn resolve(path: &Path) -> io::Result<PathBuf> {
    let mut p = path.to_path_buf();
    for _ in 0..40 {
        match fs::symlink_metadata(&p) {
            Ok(m) if m.file_type().is_symlink() => {
                let to = fs::read_link(&p)?;
                p = match p.parent() {
                    Some(dir) if to.is_relative() => dir.join(to),
                    _ => to,
                };
            }
            Ok(_) => return Ok(p),
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(p),
            Err(e) => return Err(e),
        }
    }
    Err(io::Error::new(
        io::ErrorKind::InvalidInput,
        "too many levels of symbolic links",
    ))
}

/// The standard streams and the process's descriptors are never replaced, whatever they
/// point at (`-o /dev/stdout > file` writes through the shell's descriptor).
fn is_special(path: &Path) -> bool {
    path.starts_with("/dev") || path.starts_with("/proc")
}

#[cfg(unix)]
fn is_streamable(m: &fs::Metadata) -> bool {
    use std::os::unix::fs::FileTypeExt;
    let t = m.file_type();
    t.is_fifo() || t.is_char_device()
}

#[cfg(not(unix))]
fn is_streamable(_: &fs::Metadata) -> bool {
    false
}

/// The suffixes of the files an output keeps beside its own (`export`'s values solved so
/// far, `egdb build`'s file being written): covered by that output's lock.
const SIBLING_SUFFIXES: [&str; 1] = [".partial"];

/// The output whose file beside it `target` is (`x.json` for `x.json.partial`), if any.
fn sibling_owner(target: &Path) -> Option<PathBuf> {
    let name = target.file_name()?.to_str()?;
    SIBLING_SUFFIXES.iter().find_map(|suffix| {
        let owner = name.strip_suffix(suffix).filter(|o| !o.is_empty())?;
        Some(target.with_file_name(owner))
    })
}

/// Takes the lock of `target`: an exclusive `flock` on `TARGET.kalah-lock`. The lock file is
/// removed when the run ends, so a run that opened it just before is checked to hold the
/// file still at that path, else it tries again with the new one. A symbolic link at that
/// path is refused, never followed: locking through it would create or lock a file
/// elsewhere.
fn lock(shown: &Path, target: &Path) -> Result<Lock, OutputError> {
    let path = sibling(target, ".kalah-lock");
    let io_err = |error| OutputError::Io {
        path: path.clone(),
        error,
    };
    loop {
        if fs::symlink_metadata(&path).is_ok_and(|m| m.file_type().is_symlink()) {
            return Err(io_err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "a symbolic link where kalah keeps its lock file: remove it (no kalah \
                 process makes one)",
            )));
        }
        let file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .map_err(io_err)?;
        match FileExt::try_lock(&file) {
            Ok(()) => {}
            Err(fs4::TryLockError::WouldBlock) => {
                return Err(OutputError::Busy(shown.to_path_buf()))
            }
            Err(fs4::TryLockError::Error(e)) => return Err(io_err(e)),
        }
        if same_file(&file, &path) {
            return Ok(Lock { path, file });
        }
    }
}

#[cfg(unix)]
fn same_file(file: &File, path: &Path) -> bool {
    match (file.metadata(), fs::symlink_metadata(path)) {
        (Ok(a), Ok(b)) => existing::same_identity(&a, &b),
        _ => false,
    }
}

#[cfg(not(unix))]
fn same_file(_: &File, _: &Path) -> bool {
    true
}

/// Locks the existing file `target` itself (by its identity: device and inode), so that a
/// run on another name of it (a hard link) fails at once.
fn hold(shown: &Path, target: &Path) -> Result<File, OutputError> {
    let io_err = |error| OutputError::Io {
        path: shown.to_path_buf(),
        error,
    };
    let file = File::open(target).map_err(io_err)?;
    match try_lock(&file) {
        Ok(()) => Ok(file),
        Err(fs4::TryLockError::WouldBlock) => Err(OutputError::Busy(shown.to_path_buf())),
        Err(fs4::TryLockError::Error(e)) => Err(io_err(e)),
    }
}

/// An exclusive advisory lock on `file` (none where locks are not advisory: on Windows a
/// lock would keep the run itself from replacing the file).
fn try_lock(file: &File) -> Result<(), fs4::TryLockError> {
    #[cfg(unix)]
    return FileExt::try_lock(file);
    #[cfg(not(unix))]
    {
        let _ = file;
        Ok(())
    }
}

/// The output at a path under `/dev` or `/proc`: written through as given (`/dev/stdout`
/// may name a pipe or the shell's file), and nothing is ever created there.
fn special(path: &Path) -> Result<Output, OutputError> {
    match fs::metadata(path) {
        Ok(m) if m.is_dir() => Err(OutputError::Directory(path.to_path_buf())),
        Ok(_) => Ok(Output::stream_to(path, path.to_path_buf())),
        Err(_) => Err(OutputError::Unsupported(path.to_path_buf())),
    }
}

/// What `target` (the end of the links from `path`; `link`: `path` is one) is as an
/// output, and whether it exists.
fn file_kind(path: &Path, target: &Path, link: bool) -> Result<(OutputKind, bool), OutputError> {
    match fs::metadata(target) {
        Ok(m) if m.is_dir() => Err(OutputError::Directory(path.to_path_buf())),
        Ok(m) if m.is_file() => Ok((OutputKind::File, true)),
        Ok(m) if is_streamable(&m) => Ok((OutputKind::Stream, true)),
        Ok(_) => Err(OutputError::Unsupported(path.to_path_buf())),
        // A link to nothing yet is refused (or replaced) as a link, wherever it leads.
        Err(e) if e.kind() == io::ErrorKind::NotFound && link => Ok((OutputKind::File, false)),
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            let dir = match target.parent() {
                Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
                _ => PathBuf::from("."),
            };
            if !dir.is_dir() {
                return Err(OutputError::NoDirectory {
                    path: path.to_path_buf(),
                    dir,
                });
            }
            Ok((OutputKind::File, false))
        }
        Err(e) => Err(OutputError::Io {
            path: path.to_path_buf(),
            error: e,
        }),
    }
}

/// The first line of a resumable file: the kind of file and every parameter the work in
/// it depends on, as `# kalah KIND v1\tkey=value\t...\tcheck=XXXXXXXX` (the check covers
/// the rest of the line, so a damaged header is told from another run's).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// What the file holds (`export-partial`).
    pub kind: String,
    /// The parameters, in order.
    pub fields: Vec<(String, String)>,
}

/// Why a header line could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HeaderError {
    /// Not a header written by this program (another file, or an older format).
    Foreign,
    /// A header whose checksum does not match: the file is damaged.
    Damaged,
}

impl Header {
    /// A header of `kind` with `fields`.
    pub fn new(kind: &str, fields: &[(&str, String)]) -> Header {
        Header {
            kind: kind.to_string(),
            fields: fields
                .iter()
                .map(|(k, v)| (k.to_string(), v.clone()))
                .collect(),
        }
    }

    /// The header as one line, without its line break.
    pub fn line(&self) -> String {
        let mut text = format!("# kalah {} v1", self.kind);
        for (k, v) in &self.fields {
            text.push('\t');
            text.push_str(k);
            text.push('=');
            text.push_str(&v.replace(['\t', '\n'], " "));
        }
        seal(&text)
    }

    /// Reads a header line (without its line break).
    pub fn parse(line: &str) -> Result<Header, HeaderError> {
        if !line.starts_with("# kalah ") || !line.contains("\tcheck=") {
            return Err(HeaderError::Foreign);
        }
        let text = unseal(line).ok_or(HeaderError::Damaged)?;
        let mut parts = text.split('\t');
        let first = parts.next().unwrap_or("");
        let kind = first
            .strip_prefix("# kalah ")
            .and_then(|k| k.strip_suffix(" v1"))
            .ok_or(HeaderError::Foreign)?;
        let fields = parts
            .map(|p| {
                let (k, v) = p.split_once('=').unwrap_or((p, ""));
                (k.to_string(), v.to_string())
            })
            .collect();
        Ok(Header {
            kind: kind.to_string(),
            fields,
        })
    }

    /// What differs between this run's header and `found` (read from the file), one
    /// phrase each (`rules: kalah(5,4) here, kalah(5,4) capture=empty in the file`);
    /// empty when a resume may go on.
    pub fn differences(&self, found: &Header) -> Vec<String> {
        let mut out = Vec::new();
        if self.kind != found.kind {
            out.push(format!(
                "kind: {} here, {} in the file",
                self.kind, found.kind
            ));
        }
        let value = |h: &Header, k: &str| {
            h.fields
                .iter()
                .find(|(key, _)| key == k)
                .map_or_else(|| "(none)".to_string(), |(_, v)| v.clone())
        };
        let mut keys: Vec<&str> = self.fields.iter().map(|(k, _)| k.as_str()).collect();
        for (k, _) in &found.fields {
            if !keys.contains(&k.as_str()) {
                keys.push(k);
            }
        }
        for k in keys {
            let (here, there) = (value(self, k), value(found, k));
            if here != there {
                out.push(format!("{k}: {here} here, {there} in the file"));
            }
        }
        out
    }

    /// Whether a run with this header may resume from a file whose first line is `first`:
    /// `Err` says why not, as a phrase about the file (`was not written by this version of
    /// WRITER`, `has a damaged header`, `holds the work of another WORK (...)`), for the
    /// message that names it. The one check of every resumable file's header.
    pub fn resumes(&self, first: &str, writer: &str, work: &str) -> Result<(), String> {
        let found = match Header::parse(first) {
            Ok(h) => h,
            Err(HeaderError::Foreign) => {
                return Err(format!("was not written by this version of {writer}"))
            }
            Err(HeaderError::Damaged) => return Err("has a damaged header".into()),
        };
        let differences = self.differences(&found);
        match differences.is_empty() {
            true => Ok(()),
            false => Err(format!(
                "holds the work of another {work} ({})",
                differences.join("; ")
            )),
        }
    }
}

/// `record` followed by a tab and its checksum, to be checked by [`unseal`].
pub fn seal(record: &str) -> String {
    format!("{record}\tcheck={:08x}", checksum(record.as_bytes()))
}

/// The record of a line written by [`seal`], or `None` when the line is damaged (cut
/// short, a byte changed) or has no checksum.
pub fn unseal(line: &str) -> Option<&str> {
    let (record, check) = line.rsplit_once("\tcheck=")?;
    let valid = check.len() == 8 && check.bytes().all(|b| b.is_ascii_hexdigit());
    let check = u32::from_str_radix(check, 16).ok().filter(|_| valid)?;
    (check == checksum(record.as_bytes())).then_some(record)
}

/// FNV-1a, 32 bits: enough to catch a damaged record, not meant against forgery.
fn checksum(bytes: &[u8]) -> u32 {
    bytes.iter().fold(0x811c_9dc5u32, |h, &b| {
        (h ^ u32::from(b)).wrapping_mul(0x0100_0193)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sealed_record_with_any_byte_flipped_is_refused() {
        let line = seal("2,2,0,2,2,0:S -3");
        assert_eq!(unseal(&line), Some("2,2,0,2,2,0:S -3"));
        for i in 0..line.len() {
            let mut bytes = line.clone().into_bytes();
            bytes[i] ^= 0x04;
            if let Ok(s) = String::from_utf8(bytes) {
                assert_eq!(unseal(&s), None, "flip at {i}: {s}");
            }
        }
        assert_eq!(unseal(&line[..line.len() - 1]), None);
    }

    #[test]
    fn the_lock_covers_the_partial_file_and_is_never_taken_through_a_link() {
        // Once, a second command could write `x.json.partial` while an
        // export to `x.json` kept its values there, and a symbolic link at
        // `x.json.kalah-lock` was followed.
        let dir = std::env::temp_dir().join(format!("kalah-output-lock-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let file = dir.join("x.json");
        let partial = dir.join("x.json.partial");
        let writing = Output::open(&file).unwrap();
        assert!(matches!(Output::open(&partial), Err(OutputError::Busy(_))));
        drop(writing);
        // Either order: a run on the partial file keeps one on its owner out.
        let on_partial = Output::open(&partial).unwrap();
        assert!(matches!(Output::open(&file), Err(OutputError::Busy(_))));
        drop(on_partial);
        assert!(!dir.join("x.json.kalah-lock").exists());
        assert!(!dir.join("x.json.partial.kalah-lock").exists());
        // A link at the lock file's path: refused, and nothing made where it points.
        #[cfg(unix)]
        {
            let elsewhere = dir.join("elsewhere");
            std::os::unix::fs::symlink(&elsewhere, dir.join("x.json.kalah-lock")).unwrap();
            let err = Output::open(&file).unwrap_err();
            assert!(err.to_string().contains("symbolic link"), "{err}");
            assert!(!elsewhere.exists());
            assert!(fs::symlink_metadata(dir.join("x.json.kalah-lock")).is_ok());
        }
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_refused_run_leaves_no_lock_file() {
        // Once, a run refused after taking its first lock (the partial file's owner
        // busy, the file held under another name) left `FILE.kalah-lock` behind.
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("x.json");
        let partial = dir.path().join("x.json.partial");
        let writing = Output::open(&file).unwrap();
        assert!(matches!(Output::open(&partial), Err(OutputError::Busy(_))));
        assert!(!dir.path().join("x.json.partial.kalah-lock").exists());
        assert!(dir.path().join("x.json.kalah-lock").exists());
        drop(writing);
        #[cfg(unix)]
        {
            fs::write(&file, "").unwrap();
            let hard = dir.path().join("hard.json");
            fs::hard_link(&file, &hard).unwrap();
            let writing = Output::open(&file).unwrap();
            assert!(matches!(Output::open(&hard), Err(OutputError::Busy(_))));
            assert!(!dir.path().join("hard.json.kalah-lock").exists());
            drop(writing);
        }
        // What is left in the directory: the outputs, never a lock file.
        let mut left: Vec<String> = fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        left.sort();
        assert!(left.iter().all(|n| !n.ends_with(".kalah-lock")), "{left:?}");
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_descriptor_path_that_reaches_an_input_is_refused() {
        // Once, any path under /dev or /proc was written through unchecked: `-o
        // /dev/fd/N` replaced the input open on descriptor N.
        use std::os::fd::AsRawFd;
        let dir = tempfile::tempdir().unwrap();
        let input = dir.path().join("positions.txt");
        fs::write(&input, "2,2,2,0,2,2,2,0:S\n").unwrap();
        let open = File::open(&input).unwrap();
        let fd = open.as_raw_fd();
        let checks = Checks {
            force: true,
            ..Checks::default()
        }
        .reading([input.as_path()]);
        for path in [format!("/dev/fd/{fd}"), format!("/proc/self/fd/{fd}")] {
            let refused = Output::open_with(Path::new(&path), &checks);
            assert!(
                matches!(refused, Err(OutputError::IsInput { .. })),
                "{path}: {refused:?}"
            );
        }
        assert_eq!(fs::read(&input).unwrap(), b"2,2,2,0,2,2,2,0:S\n");
        // A descriptor on another file, and /dev/null, are still written through.
        let other = dir.path().join("other.txt");
        let other_file = File::create(&other).unwrap();
        let path = format!("/dev/fd/{}", other_file.as_raw_fd());
        let through = Output::open_with(Path::new(&path), &checks).unwrap();
        assert_eq!(through.kind(), OutputKind::Stream);
        through.replace(b"answers\n").unwrap();
        assert_eq!(fs::read(&other).unwrap(), b"answers\n");
        let null = Output::open_with(Path::new("/dev/null"), &checks).unwrap();
        assert_eq!(null.kind(), OutputKind::Stream);
    }

    #[test]
    fn an_output_is_checked_locked_and_its_lock_file_removed() {
        let dir = std::env::temp_dir().join(format!("kalah-output-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let file = dir.join("book.json");
        assert!(matches!(Output::open(&dir), Err(OutputError::Directory(_))));
        assert!(matches!(
            Output::open(Path::new("..")),
            Err(OutputError::NotAFileName(_))
        ));
        assert!(matches!(
            Output::open(&dir.join("missing/book.json")),
            Err(OutputError::NoDirectory { .. })
        ));
        let first = Output::open(&file).unwrap();
        assert_eq!(first.kind(), OutputKind::File);
        assert!(matches!(Output::open(&file), Err(OutputError::Busy(_))));
        first.replace(b"table").unwrap();
        drop(first);
        assert_eq!(fs::read(&file).unwrap(), b"table");
        assert!(!dir.join("book.json.kalah-lock").exists());
        // A file of that name that is not an empty lock file is someone else's: kept.
        fs::write(dir.join("book.json.kalah-lock"), "mine").unwrap();
        drop(Output::open(&file).unwrap());
        assert_eq!(fs::read(dir.join("book.json.kalah-lock")).unwrap(), b"mine");
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn header_round_trips_and_names_what_differs() {
        let a = Header::new("export-partial", &[("rules", "kalah(5,4)".into())]);
        let b = Header::new("export-partial", &[("rules", "kalah(5,4) empty".into())]);
        assert_eq!(Header::parse(&a.line()), Ok(a.clone()));
        assert!(a.differences(&a).is_empty());
        assert_eq!(
            a.differences(&b),
            ["rules: kalah(5,4) here, kalah(5,4) empty in the file"]
        );
        assert_eq!(
            Header::parse("# kalah export: old"),
            Err(HeaderError::Foreign)
        );
        let mut damaged = a.line().into_bytes();
        damaged[12] ^= 1;
        assert_eq!(
            Header::parse(std::str::from_utf8(&damaged).unwrap()),
            Err(HeaderError::Damaged)
        );
        assert_eq!(Header::parse("4,4:S 3"), Err(HeaderError::Foreign));
    }

    #[test]
    fn a_resume_is_refused_with_why_for_a_foreign_damaged_or_other_header() {
        let a = Header::new("export-partial", &[("rules", "kalah(5,4)".into())]);
        let b = Header::new("export-partial", &[("rules", "kalah(5,4) empty".into())]);
        assert_eq!(a.resumes(&a.line(), "kalah export", "export"), Ok(()));
        assert_eq!(
            a.resumes("4,4:S 3", "kalah export", "export"),
            Err("was not written by this version of kalah export".to_string())
        );
        let mut damaged = a.line().into_bytes();
        damaged[12] ^= 1;
        let damaged = String::from_utf8(damaged).unwrap();
        assert_eq!(
            a.resumes(&damaged, "kalah export", "export"),
            Err("has a damaged header".to_string())
        );
        assert_eq!(
            a.resumes(&b.line(), "kalah book build", "build"),
            Err(
                "holds the work of another build (rules: kalah(5,4) here, kalah(5,4) empty \
                 in the file)"
                    .to_string()
            )
        );
    }
}
