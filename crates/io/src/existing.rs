//! What an output may do to the path it is given when something is already there: a
//! file of the command's own kind is the command's to replace, anything else is left
//! alone unless the user forces it, a symbolic link is never written through, and an
//! input of the command is never its output (compared by identity, not by name).

use std::fs::{self, File};
use std::io::{self, Read};
use std::path::Path;

/// How many bytes of an existing file a [`Kind`]'s test is given.
pub const HEAD: usize = 64 << 10;

/// A kind of file a command writes, told from other files by how it starts (a magic
/// number, a header line, the first record).
#[derive(Clone, Copy, Debug)]
pub struct Kind {
    /// What such a file is, for messages: `a table written by kalah export`.
    pub name: &'static str,
    /// Whether `head`, the first bytes of a file (at most [`HEAD`], possibly cut in the
    /// middle of a line), starts a file of this kind.
    pub test: fn(&[u8]) -> bool,
}

/// What [`Output::open_with`](crate::Output::open_with) checks about the existing path
/// (see the [crate] doc, "Existing paths").
#[derive(Clone, Debug, Default)]
pub struct Checks<'a> {
    /// The kind of file this output may replace without `force`; `None`: any file.
    pub kind: Option<Kind>,
    /// Replace what is there whatever it is (`--force`): a file of another kind, a
    /// read-only file, a symbolic link (the link itself, never its target).
    pub force: bool,
    /// The files the command reads: none of them may be its output, `force` or not.
    pub inputs: Vec<&'a Path>,
    /// The command reads its standard input: where that is a FIFO, it may not be the
    /// output either (the output would come back as input). A regular file on standard
    /// input is never the output, read or not (`kalah batch -o FILE < FILE`, `-o
    /// /dev/stdin`), `force` or not.
    pub stdin: bool,
}

impl<'a> Checks<'a> {
    /// Checks for an output of `kind`, forced or not, with no inputs.
    pub fn of(kind: Kind, force: bool) -> Checks<'a> {
        Checks {
            kind: Some(kind),
            force,
            inputs: Vec::new(),
            stdin: false,
        }
    }

    /// The same checks, with `inputs` as the command's inputs.
    pub fn reading(mut self, inputs: impl IntoIterator<Item = &'a Path>) -> Checks<'a> {
        self.inputs.extend(inputs);
        self
    }

    /// The same checks, with standard input among the command's inputs where `reads`.
    pub fn reading_stdin(mut self, reads: bool) -> Checks<'a> {
        self.stdin |= reads;
        self
    }
}

/// What an existing regular file is to an output.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Found {
    /// A file of the output's kind (or an empty one, which holds nothing to lose).
    Own,
    /// A file of another kind.
    Foreign,
    /// A file of the output's kind that nobody may write (no write permission bit set).
    ReadOnly,
}

/// What the regular file `path` is to an output of `kind`.
pub(crate) fn judge(path: &Path, kind: Option<Kind>) -> io::Result<Found> {
    let meta = fs::metadata(path)?;
    if let Some(kind) = kind {
        let mut head = Vec::with_capacity(HEAD.min(meta.len() as usize));
        File::open(path)?.take(HEAD as u64).read_to_end(&mut head)?;
        if !head.is_empty() && !(kind.test)(&head) {
            return Ok(Found::Foreign);
        }
    }
    Ok(if read_only(&meta) {
        Found::ReadOnly
    } else {
        Found::Own
    })
}

#[cfg(unix)]
fn read_only(meta: &fs::Metadata) -> bool {
    use std::os::unix::fs::PermissionsExt;
    meta.permissions().mode() & 0o222 == 0
}

#[cfg(not(unix))]
fn read_only(meta: &fs::Metadata) -> bool {
    meta.permissions().readonly()
}

/// The first of `inputs` that is the file at `path` (symlinks followed on both sides),
/// compared by device and inode: a hard link or another spelling of an input is found.
pub(crate) fn same_as_input<'a>(path: &Path, inputs: &[&'a Path]) -> Option<&'a Path> {
    let out = fs::metadata(path).ok()?;
    inputs
        .iter()
        .copied()
        .find(|i| fs::metadata(i).is_ok_and(|m| same_identity(&out, &m)))
}

/// Whether the file at `path` (symlinks followed: `/dev/stdin`, `/dev/fd/0` and
/// `/proc/self/fd/0` reach standard input's file) is what this process has on its
/// standard input, compared by device and inode with standard input's own (`fstat`). A
/// regular file there always counts, whether the command reads it (`reads`) or not: no
/// command's output replaces the file it was handed as input. A FIFO counts where the
/// command reads it (its output would come back as its input). A terminal or another
/// device never counts (`-o /dev/stdout` on the terminal that is also standard input).
#[cfg(unix)]
pub(crate) fn is_stdin(path: &Path, reads: bool) -> bool {
    use std::os::fd::AsFd;
    use std::os::unix::fs::FileTypeExt;
    let Ok(out) = fs::metadata(path) else {
        return false;
    };
    // A duplicate of descriptor 0, to ask its metadata (fstat) without unsafe code.
    let Ok(fd) = io::stdin().as_fd().try_clone_to_owned() else {
        return false;
    };
    File::from(fd).metadata().is_ok_and(|m| {
        (m.is_file() || (reads && m.file_type().is_fifo())) && same_identity(&out, &m)
    })
}

#[cfg(not(unix))]
pub(crate) fn is_stdin(_: &Path, _: bool) -> bool {
    false
}

/// Whether two files' metadata name the same file (device and inode).
#[cfg(unix)]
pub(crate) fn same_identity(a: &fs::Metadata, b: &fs::Metadata) -> bool {
    use std::os::unix::fs::MetadataExt;
    a.dev() == b.dev() && a.ino() == b.ino()
}

#[cfg(not(unix))]
pub(crate) fn same_identity(_: &fs::Metadata, _: &fs::Metadata) -> bool {
    false
}

/// The first line of `head` when it is whole (ended by a line break), `None` when the
/// head ends inside it.
pub fn first_line(head: &[u8]) -> Option<&[u8]> {
    head.iter()
        .position(|&b| b == b'\n')
        .map(|end| &head[..end])
}

#[cfg(test)]
mod tests {
    use super::*;

    const STARTS_WITH_K: Kind = Kind {
        name: "a K file",
        test: |head| head.starts_with(b"K"),
    };

    #[test]
    fn a_file_is_judged_by_its_head_and_its_write_permission() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("f");
        fs::write(&file, "K1\n").unwrap();
        assert_eq!(judge(&file, Some(STARTS_WITH_K)).unwrap(), Found::Own);
        fs::write(&file, "precious\n").unwrap();
        assert_eq!(judge(&file, Some(STARTS_WITH_K)).unwrap(), Found::Foreign);
        assert_eq!(judge(&file, None).unwrap(), Found::Own);
        fs::write(&file, "").unwrap();
        assert_eq!(judge(&file, Some(STARTS_WITH_K)).unwrap(), Found::Own);
        fs::write(&file, "K2\n").unwrap();
        let mut perms = fs::metadata(&file).unwrap().permissions();
        perms.set_readonly(true);
        fs::set_permissions(&file, perms).unwrap();
        assert_eq!(judge(&file, Some(STARTS_WITH_K)).unwrap(), Found::ReadOnly);
    }

    #[cfg(unix)]
    #[test]
    fn an_input_is_found_by_identity_through_links_and_other_names() {
        let dir = tempfile::tempdir().unwrap();
        let a = dir.path().join("a");
        fs::write(&a, "x").unwrap();
        let hard = dir.path().join("hard");
        fs::hard_link(&a, &hard).unwrap();
        let soft = dir.path().join("soft");
        std::os::unix::fs::symlink("a", &soft).unwrap();
        let other = dir.path().join("other");
        fs::write(&other, "x").unwrap();
        let dotted = dir.path().join(".").join("a");
        for name in [&hard, &soft, &dotted] {
            assert_eq!(same_as_input(name, &[&other, &a]), Some(a.as_path()));
        }
        assert_eq!(same_as_input(&other, &[&a]), None);
        assert_eq!(same_as_input(&dir.path().join("new"), &[&a]), None);
    }

    use crate::{Output, OutputError};

    #[test]
    fn a_foreign_or_read_only_file_is_left_alone_unless_forced() {
        let dir = tempfile::tempdir().unwrap();
        let notes = dir.path().join("notes.txt");
        fs::write(&notes, "precious\n").unwrap();
        let refused = Output::open_with(&notes, &Checks::of(STARTS_WITH_K, false));
        assert!(matches!(
            refused,
            Err(OutputError::Foreign {
                kind: "a K file",
                ..
            })
        ));
        assert_eq!(fs::read(&notes).unwrap(), b"precious\n");
        // Forced: replaced whole, never read back as this output's own.
        let forced = Output::open_with(&notes, &Checks::of(STARTS_WITH_K, true)).unwrap();
        assert_eq!(forced.existing().unwrap(), None);
        forced.replace(b"K table\n").unwrap();
        drop(forced);
        assert_eq!(fs::read(&notes).unwrap(), b"K table\n");
        // A file of the output's own kind is taken, and read back.
        let own = Output::open_with(&notes, &Checks::of(STARTS_WITH_K, false)).unwrap();
        assert_eq!(own.existing().unwrap().unwrap(), b"K table\n");
        drop(own);
        let mut perms = fs::metadata(&notes).unwrap().permissions();
        perms.set_readonly(true);
        fs::set_permissions(&notes, perms).unwrap();
        let refused = Output::open_with(&notes, &Checks::of(STARTS_WITH_K, false));
        assert!(matches!(refused, Err(OutputError::ReadOnly(_))));
        assert!(Output::open_with(&notes, &Checks::of(STARTS_WITH_K, true)).is_ok());
    }

    #[cfg(unix)]
    #[test]
    fn a_symlink_is_refused_and_forced_the_link_itself_is_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("real");
        fs::write(&real, "K old\n").unwrap();
        let link = dir.path().join("link");
        std::os::unix::fs::symlink("real", &link).unwrap();
        let dangling = dir.path().join("dangling");
        std::os::unix::fs::symlink("missing/nowhere", &dangling).unwrap();
        for path in [&link, &dangling] {
            let refused = Output::open_with(path, &Checks::of(STARTS_WITH_K, false));
            assert!(
                matches!(refused, Err(OutputError::Symlink { .. })),
                "{path:?}"
            );
            let forced = Output::open_with(path, &Checks::of(STARTS_WITH_K, true)).unwrap();
            assert_eq!(forced.target(), path.as_path());
            assert_eq!(forced.existing().unwrap(), None);
        }
        let forced = Output::open_with(&link, &Checks::of(STARTS_WITH_K, true)).unwrap();
        forced.replace(b"K new\n").unwrap();
        assert!(!fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(fs::read(&link).unwrap(), b"K new\n");
        assert_eq!(fs::read(&real).unwrap(), b"K old\n");
        // Appending to a forced link removes the link first: its target is not extended.
        let forced = Output::open_with(&dangling, &Checks::of(STARTS_WITH_K, true)).unwrap();
        let mut f = forced.append(0).unwrap();
        std::io::Write::write_all(&mut f, b"K\n").unwrap();
        assert!(dangling.is_file() && !dangling.is_symlink());
        // A link to a device is streamed to, as the device itself.
        let null = dir.path().join("null");
        std::os::unix::fs::symlink("/dev/null", &null).unwrap();
        let stream = Output::open_with(&null, &Checks::of(STARTS_WITH_K, false)).unwrap();
        assert_eq!(stream.kind(), crate::OutputKind::Stream);
    }

    #[cfg(unix)]
    #[test]
    fn an_input_is_never_the_output_and_a_hard_link_shares_the_lock() {
        let dir = tempfile::tempdir().unwrap();
        let input = dir.path().join("in");
        fs::write(&input, "K\n").unwrap();
        let hard = dir.path().join("hard");
        fs::hard_link(&input, &hard).unwrap();
        let checks = Checks::of(STARTS_WITH_K, true).reading([input.as_path()]);
        for path in [&input, &hard] {
            let refused = Output::open_with(path, &checks);
            assert!(
                matches!(refused, Err(OutputError::IsInput { .. })),
                "{path:?}"
            );
        }
        // Two names of one file: the second run is refused while the first holds it.
        let first = Output::open_with(&input, &Checks::default()).unwrap();
        assert!(matches!(
            Output::open_with(&hard, &Checks::default()),
            Err(OutputError::Busy(_))
        ));
        drop(first);
        drop(Output::open_with(&hard, &Checks::default()).unwrap());
        // A file the run creates is held from its first append.
        let new = dir.path().join("new");
        let first = Output::open(&new).unwrap();
        let _file = first.append(0).unwrap();
        fs::hard_link(&new, dir.path().join("new-link")).unwrap();
        assert!(matches!(
            Output::open(&dir.path().join("new-link")),
            Err(OutputError::Busy(_))
        ));
    }

    #[test]
    fn the_first_line_is_given_only_when_whole() {
        assert_eq!(first_line(b"ab\ncd"), Some(&b"ab"[..]));
        assert_eq!(first_line(b"abcd"), None);
    }
}
