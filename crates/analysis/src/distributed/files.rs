//! The files of a split written once into a directory: a second run of the same split
//! keeps them, another split there is refused (replaced with `force`), and a file there
//! that is no split's is left alone (replaced with `force`); the directory made for
//! them is removed again where the split writes nothing into it.

use std::path::{Path, PathBuf};

use kalah_io::{Checks, Output, OutputError};

use crate::run::outputs::{MANIFEST, UNITS};

/// What [`write_once`] found in the directory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Once {
    /// The files were written.
    Wrote,
    /// The directory already held this very split, kept as it is.
    Kept,
    /// The directory holds another split: nothing was written.
    Another,
}

/// Writes the units and then the manifest (the manifest last: a directory with one is a
/// finished split), each atomically. A directory that already holds this very split is
/// kept as it is, and one whose manifest is this split's but whose units are not (`kalah
/// merge --next` wrote the units still needed there) gets the split's units again; one
/// that holds another split is left alone unless `force`. A file of either name that is
/// not a split's (or a symbolic link) is refused unless `force` ([`kalah_io::Checks`]).
pub fn write_once(
    manifest_path: &Path,
    units_path: &Path,
    manifest: &str,
    units: &str,
    force: bool,
) -> Result<Once, OutputError> {
    let manifest_out = Output::open_with(manifest_path, &Checks::of(MANIFEST, force))?;
    let units_out = Output::open_with(units_path, &Checks::of(UNITS, force))?;
    if let Some(existing) = manifest_out.existing()? {
        let same_split = existing == manifest.as_bytes();
        let same_units = units_out.existing()?.as_deref() == Some(units.as_bytes());
        if same_split && same_units {
            return Ok(Once::Kept);
        }
        if !same_split && !force {
            return Ok(Once::Another);
        }
    }
    units_out.replace(units.as_bytes())?;
    manifest_out.replace(manifest.as_bytes())?;
    Ok(Once::Wrote)
}

/// Why [`write_once`] wrote nothing where the manifest at `manifest_path` holds another
/// split, with what to do.
pub fn another_split(manifest_path: &Path) -> String {
    format!(
        "{} holds another split (other rules, position or depth): choose another --out, \
         remove it, or pass --force to replace it",
        manifest_path.display()
    )
}

/// The directory a split writes into, made with its missing parents, which a split that
/// fails removes again ([`NewDir::undo`]): a refusal leaves nothing behind.
#[derive(Debug)]
pub struct NewDir {
    /// The directories made, deepest first.
    created: Vec<PathBuf>,
}

impl NewDir {
    /// Makes `dir` and its missing parents; the error says which directory could not be
    /// made.
    pub fn create(dir: &Path) -> Result<NewDir, String> {
        let created = dir
            .ancestors()
            .take_while(|d| !d.as_os_str().is_empty() && std::fs::symlink_metadata(d).is_err())
            .map(Path::to_path_buf)
            .collect();
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create the directory {}: {e}", dir.display()))?;
        Ok(NewDir { created })
    }

    /// Removes the directories [`NewDir::create`] made, deepest first, each only where it
    /// is empty.
    pub fn undo(self) {
        for dir in &self.created {
            let _ = std::fs::remove_dir(dir);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::distributed::Step;

    #[test]
    fn a_failed_split_removes_only_the_empty_directories_it_made() {
        let dir = tempfile::tempdir().unwrap();
        let deep = dir.path().join("a/b/c");
        let made = NewDir::create(&deep).unwrap();
        assert!(deep.is_dir());
        made.undo();
        assert!(!dir.path().join("a").exists());
        assert!(dir.path().exists());
        // A directory that holds a file is kept, and so is one that was there before.
        let made = NewDir::create(&deep).unwrap();
        std::fs::write(dir.path().join("a/b/keep"), "x").unwrap();
        made.undo();
        assert!(!deep.exists());
        assert!(dir.path().join("a/b/keep").exists());
        let there = NewDir::create(dir.path()).unwrap();
        there.undo();
        assert!(dir.path().exists());
        let blocked = dir.path().join("a/b/keep/d");
        let e = NewDir::create(&blocked).unwrap_err();
        assert!(e.starts_with(&format!(
            "cannot create the directory {}: ",
            blocked.display()
        )));
        assert!(another_split(Path::new("k/manifest.json"))
            .starts_with("k/manifest.json holds another split"));
    }

    #[test]
    fn the_same_split_is_kept_and_another_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let (m, u) = (
            dir.path().join("manifest.json"),
            dir.path().join("units.jsonl"),
        );
        let (m1, u1) = split_files(1);
        let (m2, u2) = split_files(2);
        assert_eq!(write_once(&m, &u, &m1, &u1, false).unwrap(), Once::Wrote);
        assert_eq!(std::fs::read_to_string(&m).unwrap(), m1);
        assert_eq!(std::fs::read_to_string(&u).unwrap(), u1);
        assert_eq!(write_once(&m, &u, &m1, &u1, false).unwrap(), Once::Kept);
        assert_eq!(write_once(&m, &u, &m2, &u1, false).unwrap(), Once::Another);
        assert_eq!(std::fs::read_to_string(&u).unwrap(), u1);
        // Once, `merge --next` over the split's units file left units that
        // are not the split's beside its manifest, and the same split was then refused;
        // it writes its units again.
        let (_, next) = split_files(2);
        std::fs::write(&u, &next).unwrap();
        assert_eq!(write_once(&m, &u, &m1, &u1, false).unwrap(), Once::Wrote);
        assert_eq!(std::fs::read_to_string(&u).unwrap(), u1);
        assert_eq!(std::fs::read_to_string(&m).unwrap(), m1);
        // Forced, another split replaces the one there.
        assert_eq!(write_once(&m, &u, &m2, &u2, true).unwrap(), Once::Wrote);
        assert_eq!(std::fs::read_to_string(&m).unwrap(), m2);
    }

    /// The manifest and units of the split of Kalah(3,2) `depth` turns deep.
    fn split_files(depth: usize) -> (String, String) {
        let game = kalah_core::Game::new(kalah_core::Rules::kalah(3, 2)).unwrap();
        let tree = crate::distributed::split(&game, &game.start(), Step::Turn, depth).unwrap();
        let units = tree.units_in(crate::wire::unit::Window::full(game.rules()));
        (
            format!("{}\n", tree.to_json()),
            crate::wire::unit::to_lines(&units),
        )
    }

    #[test]
    fn a_file_that_is_no_split_s_is_left_alone_unless_forced() {
        let dir = tempfile::tempdir().unwrap();
        let (m, u) = (
            dir.path().join("manifest.json"),
            dir.path().join("units.jsonl"),
        );
        let (m1, u1) = split_files(1);
        for path in [&m, &u] {
            std::fs::write(path, "precious\n").unwrap();
            let refused = write_once(&m, &u, &m1, &u1, false);
            assert!(matches!(refused, Err(OutputError::Foreign { .. })));
            assert_eq!(std::fs::read_to_string(path).unwrap(), "precious\n");
            assert_eq!(write_once(&m, &u, &m1, &u1, true).unwrap(), Once::Wrote);
            std::fs::remove_file(&m).unwrap();
        }
    }

    #[test]
    fn units_without_a_manifest_are_an_unfinished_split_written_again() {
        let dir = tempfile::tempdir().unwrap();
        let (m, u) = (
            dir.path().join("manifest.json"),
            dir.path().join("units.jsonl"),
        );
        let (m1, u1) = split_files(1);
        let (_, u2) = split_files(2);
        std::fs::write(&u, &u2).unwrap();
        assert_eq!(write_once(&m, &u, &m1, &u1, false).unwrap(), Once::Wrote);
        assert_eq!(std::fs::read_to_string(&u).unwrap(), u1);
    }
}
