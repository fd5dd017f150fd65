//! The files of a split written once into a directory: a second run of the same split
//! keeps them, another split there is refused.

use std::path::Path;

use kalah_io::{Output, OutputError};

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
/// kept as it is; one that holds another split is left alone.
pub fn write_once(
    manifest_path: &Path,
    units_path: &Path,
    manifest: &str,
    units: &str,
) -> Result<Once, OutputError> {
    let manifest_out = Output::open(manifest_path)?;
    let units_out = Output::open(units_path)?;
    if let Some(existing) = manifest_out.existing()? {
        let same_units = units_out.existing()?.as_deref() == Some(units.as_bytes());
        if existing == manifest.as_bytes() && same_units {
            return Ok(Once::Kept);
        }
        return Ok(Once::Another);
    }
    units_out.replace(units.as_bytes())?;
    manifest_out.replace(manifest.as_bytes())?;
    Ok(Once::Wrote)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_split_is_kept_and_another_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let (m, u) = (
            dir.path().join("manifest.json"),
            dir.path().join("units.jsonl"),
        );
        assert_eq!(write_once(&m, &u, "M\n", "U\n").unwrap(), Once::Wrote);
        assert_eq!(std::fs::read_to_string(&m).unwrap(), "M\n");
        assert_eq!(std::fs::read_to_string(&u).unwrap(), "U\n");
        assert_eq!(write_once(&m, &u, "M\n", "U\n").unwrap(), Once::Kept);
        assert_eq!(write_once(&m, &u, "M\n", "V\n").unwrap(), Once::Another);
        assert_eq!(write_once(&m, &u, "N\n", "U\n").unwrap(), Once::Another);
        assert_eq!(std::fs::read_to_string(&u).unwrap(), "U\n");
    }

    #[test]
    fn units_without_a_manifest_are_an_unfinished_split_written_again() {
        let dir = tempfile::tempdir().unwrap();
        let (m, u) = (
            dir.path().join("manifest.json"),
            dir.path().join("units.jsonl"),
        );
        std::fs::write(&u, "old\n").unwrap();
        assert_eq!(write_once(&m, &u, "M\n", "U\n").unwrap(), Once::Wrote);
        assert_eq!(std::fs::read_to_string(&u).unwrap(), "U\n");
    }
}
