//! Bounded reads of input: a line never longer than [`MAX_LINE`], a file read whole never
//! larger than the bound its caller gives, so that endless or foreign input (`/dev/zero`,
//! a binary file, a file without line breaks) is a clear error, never an exhausted memory.

use std::fmt;
use std::fs::File;
use std::io::{self, BufRead, Read};
use std::path::Path;

/// The longest input line read, in bytes (1 MiB). Every line this program reads (a
/// position, a work unit, an answer with its principal variation) is a few kilobytes at
/// most, so a longer one is not one of its lines (`/dev/zero`, a binary file) and is
/// refused before it fills the memory.
pub const MAX_LINE: usize = 1 << 20;

/// An input line longer than the limit, or a file larger than its bound: the error
/// inside the [`io::Error`] (of kind [`io::ErrorKind::InvalidData`]) that a bounded read
/// returns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TooLong {
    /// Line `line` (1-based) holds more than `limit` bytes.
    Line {
        /// The line's number.
        line: usize,
        /// The most a line may hold, in bytes.
        limit: usize,
    },
    /// The file holds more than `limit` bytes.
    File {
        /// The most the file may hold, in bytes.
        limit: u64,
    },
}

impl fmt::Display for TooLong {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TooLong::Line { line, limit } => write!(
                f,
                "line {line} is longer than {} ({limit} bytes), the most an input line may \
                 hold: this is not a file of positions, work units or answers",
                size(*limit as u64)
            ),
            TooLong::File { limit } => write!(
                f,
                "larger than {} ({limit} bytes), the most such a file may hold: this is \
                 not a file that kalah wrote",
                size(*limit)
            ),
        }
    }
}

impl std::error::Error for TooLong {}

/// A size in words: `1 GiB`, `1 MiB`, `512 KiB`, `300 bytes`.
fn size(bytes: u64) -> String {
    match bytes {
        b if b >= 1 << 30 && b % (1 << 30) == 0 => format!("{} GiB", b >> 30),
        b if b >= 1 << 20 && b % (1 << 20) == 0 => format!("{} MiB", b >> 20),
        b if b >= 1 << 10 && b % (1 << 10) == 0 => format!("{} KiB", b >> 10),
        b => format!("{b} bytes"),
    }
}

/// One line read by a [`LineReader`].
#[derive(Debug, PartialEq, Eq)]
pub struct Line<'a> {
    /// The 1-based line number.
    pub number: usize,
    /// The line's bytes, without its line break (`\n` or `\r\n`; a last line's `\r`
    /// too).
    pub bytes: &'a [u8],
    /// Whether a line break ended it (a last line without one may have been cut short).
    pub ended: bool,
}

/// The lines of a reader, each at most a limit long ([`MAX_LINE`] by default): the one
/// way input lines are read. A longer line is an error naming its number and the limit,
/// read no further than the limit; after any error the reader gives no more lines.
pub struct LineReader<R> {
    reader: R,
    limit: usize,
    line: usize,
    buf: Vec<u8>,
    failed: bool,
}

impl<R: BufRead> LineReader<R> {
    /// The lines of `reader`, each at most [`MAX_LINE`] bytes.
    pub fn new(reader: R) -> LineReader<R> {
        LineReader::with_limit(reader, MAX_LINE)
    }

    /// The lines of `reader`, each at most `limit` bytes (line break not counted).
    pub fn with_limit(reader: R, limit: usize) -> LineReader<R> {
        LineReader {
            reader,
            limit,
            line: 0,
            buf: Vec::new(),
            failed: false,
        }
    }

    /// The next line, `None` at the end of the input (and after an error).
    pub fn next_line(&mut self) -> io::Result<Option<Line<'_>>> {
        if self.failed {
            return Ok(None);
        }
        self.buf.clear();
        let ended = match self.fill() {
            Ok(ended) => ended,
            Err(e) => {
                self.failed = true;
                return Err(e);
            }
        };
        if !ended && self.buf.is_empty() {
            return Ok(None);
        }
        self.line += 1;
        let bytes = self.buf.strip_suffix(b"\r").unwrap_or(&self.buf);
        Ok(Some(Line {
            number: self.line,
            bytes,
            ended,
        }))
    }

    /// Reads one line into `buf` (without its `\n`); whether a `\n` ended it.
    fn fill(&mut self) -> io::Result<bool> {
        loop {
            let available = match self.reader.fill_buf() {
                Ok(b) => b,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if available.is_empty() {
                return Ok(false);
            }
            let (take, found) = match available.iter().position(|&b| b == b'\n') {
                Some(i) => (i, true),
                None => (available.len(), false),
            };
            // Never more than the limit and a `\r` (of a `\r\n` ending, not counted) and
            // one byte to tell a longer line by.
            let room = (self.limit + 2).saturating_sub(self.buf.len());
            self.buf.extend_from_slice(&available[..take.min(room)]);
            let counted = self.buf.len() - usize::from(self.buf.ends_with(b"\r"));
            if counted > self.limit {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidData,
                    TooLong::Line {
                        line: self.line + 1,
                        limit: self.limit,
                    },
                ));
            }
            self.reader.consume(take + usize::from(found));
            if found {
                return Ok(true);
            }
        }
    }
}

/// The whole of the file at `path`, refused (without reading further) where it holds more
/// than `limit` bytes: an error of kind [`io::ErrorKind::InvalidData`] holding
/// [`TooLong::File`]. Works for a FIFO or a device too, which have no size to check first.
pub fn read_bounded(path: &Path, limit: u64) -> io::Result<Vec<u8>> {
    let file = File::open(path)?;
    let too_large = || io::Error::new(io::ErrorKind::InvalidData, TooLong::File { limit });
    if file
        .metadata()
        .is_ok_and(|m| m.is_file() && m.len() > limit)
    {
        return Err(too_large());
    }
    let mut bytes = Vec::new();
    file.take(limit.saturating_add(1)).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(too_large());
    }
    Ok(bytes)
}

/// The whole of the regular file at `path` ([`read_bounded`]'s bound `limit`), where
/// anything else is refused before a byte is read: a FIFO, a socket or a device (whose
/// open or read may block forever or never end, as `/dev/zero`) is an error of kind
/// [`io::ErrorKind::InvalidInput`] saying so, and so is a directory. The open itself does
/// not block (`O_NONBLOCK`, which a regular file's reads ignore), so a command handed a
/// FIFO answers at once and still honours its signals; what was opened is checked with
/// `fstat`, so a file swapped for a FIFO after a check by name is refused too. A symlink
/// to a regular file is followed.
pub fn read_regular_bounded(path: &Path, limit: u64) -> io::Result<Vec<u8>> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = options.open(path)?;
    let meta = file.metadata()?;
    if !meta.is_file() {
        let what = match meta.is_dir() {
            true => "a directory",
            false => "a FIFO, a socket or a device",
        };
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("it is {what}, not a regular file (only a regular file is read here)"),
        ));
    }
    if meta.len() > limit {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            TooLong::File { limit },
        ));
    }
    let mut bytes = Vec::new();
    file.take(limit.saturating_add(1)).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            TooLong::File { limit },
        ));
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn read_regular_bounded_refuses_a_fifo_a_device_and_a_directory_without_blocking() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("b.txt");
        let status = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap();
        assert!(status.success());
        for path in [fifo.as_path(), Path::new("/dev/zero"), dir.path()] {
            let err = read_regular_bounded(path, 1 << 20).unwrap_err();
            assert_eq!(err.kind(), io::ErrorKind::InvalidInput, "{path:?}");
            assert!(err.to_string().contains("not a regular file"), "{err}");
        }
        let file = dir.path().join("ok.txt");
        std::fs::write(&file, "hello\n").unwrap();
        assert_eq!(read_regular_bounded(&file, 6).unwrap(), b"hello\n");
        let err = read_regular_bounded(&file, 5).unwrap_err();
        assert!(err.to_string().contains("5 bytes"), "{err}");
    }

    /// A line read: its number, its bytes and whether a line break ended it; or the error.
    type Read = Result<(usize, Vec<u8>, bool), String>;

    fn lines(input: &[u8], limit: usize) -> Vec<Read> {
        let mut reader = LineReader::with_limit(input, limit);
        let mut out = Vec::new();
        loop {
            match reader.next_line() {
                Ok(Some(l)) => out.push(Ok((l.number, l.bytes.to_vec(), l.ended))),
                Ok(None) => return out,
                Err(e) => out.push(Err(e.to_string())),
            }
        }
    }

    #[test]
    fn lines_are_numbered_and_lose_their_line_breaks() {
        let got = lines(b"ab\r\n\ncd", 8);
        assert_eq!(
            got,
            [
                Ok((1, b"ab".to_vec(), true)),
                Ok((2, b"".to_vec(), true)),
                Ok((3, b"cd".to_vec(), false)),
            ]
        );
    }

    #[test]
    fn a_line_at_the_limit_is_read_and_one_byte_more_is_refused_by_number() {
        assert_eq!(
            lines(b"abcd\nabcd\r\n", 4),
            [
                Ok((1, b"abcd".to_vec(), true)),
                Ok((2, b"abcd".to_vec(), true))
            ]
        );
        let got = lines(b"abcd\nabcde\nab\n", 4);
        assert_eq!(got[0], Ok((1, b"abcd".to_vec(), true)));
        let err = got[1].as_ref().unwrap_err();
        assert!(err.starts_with("line 2 is longer than 4 bytes"), "{err}");
        // Nothing after the error.
        assert_eq!(got.len(), 2);
    }

    #[test]
    fn an_endless_line_is_refused_after_the_limit() {
        let mut reader = LineReader::with_limit(io::BufReader::new(io::repeat(0)), 1000);
        let e = reader.next_line().unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::InvalidData);
        let inner = e.get_ref().and_then(|e| e.downcast_ref::<TooLong>());
        assert_eq!(
            inner,
            Some(&TooLong::Line {
                line: 1,
                limit: 1000
            })
        );
        assert!(reader.next_line().unwrap().is_none());
        assert!(TooLong::Line {
            line: 1,
            limit: MAX_LINE
        }
        .to_string()
        .contains("1 MiB"));
    }

    #[test]
    fn a_file_over_its_bound_is_refused_and_a_device_read_no_further() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("m.json");
        std::fs::write(&path, b"0123456789").unwrap();
        assert_eq!(read_bounded(&path, 10).unwrap(), b"0123456789");
        let e = read_bounded(&path, 9).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::InvalidData);
        if Path::new("/dev/zero").exists() {
            let e = read_bounded(Path::new("/dev/zero"), 1 << 16).unwrap_err();
            assert!(e.to_string().contains("64 KiB"), "{e}");
        }
    }
}
