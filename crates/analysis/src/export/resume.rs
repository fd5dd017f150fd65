//! Resuming an interrupted export: the values solved so far go to a partial file beside
//! the table as they come (a header naming the export, then one sealed record
//! `POSITION VALUE` per value), and the next run of the same export reads them back.
//! The records are text of the export's own ([`load_records`], [`Partial::add_record`]):
//! Bao's export keeps `POSITION<tab>ENTRY` records in the same kind of file.

use std::collections::HashMap;
use std::path::Path;

use kalah_core::{Position, Rules};

use crate::game::bounds::reach;
use crate::run::partial::io_error;
#[cfg(test)]
use crate::run::partial::sealed;
pub use crate::run::partial::{without_duplicates, Partial, ResumeError};
use kalah_io::{read_regular, unseal, Header};

/// The header of the partial file of the export of `rules` from `start` to `depth` turns:
/// a file of any other export is refused.
pub fn header(rules: &Rules, start: &Position, depth: u32) -> Header {
    Header::new(
        "export-partial",
        &[
            ("rules", rules.to_string()),
            ("start", start.to_string()),
            ("depth", depth.to_string()),
        ],
    )
}

/// The values kept in a partial file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Kept {
    /// The values from South of the positions solved, each checked.
    pub values: HashMap<Position, i32>,
    /// How many whole records failed their check (their positions are solved again).
    pub damaged: usize,
}

/// The values kept at `path` by an interrupted run of the export of `header`: none when
/// there is no file or it is empty. A file from another export (other rules, start or
/// depth) or with a damaged header is refused, saying what differs; only a regular file
/// is read. The seal catches damage, not forgery: so a record whose value is outside
/// what its position's seeds allow ([`reach`]), and every record of a position that has
/// more than one, are dropped as damaged records are (counted, and solved again).
pub fn load(path: &Path, header: &Header) -> Result<Kept, ResumeError> {
    let (records, mut damaged) = load_records(path, header, parse_record)?;
    let possible: Vec<(Position, i32)> = records
        .into_iter()
        .filter(|(p, v)| {
            let (lo, hi) = reach(p);
            let fits = lo <= *v && *v <= hi;
            damaged += usize::from(!fits);
            fits
        })
        .collect();
    let (values, duplicated) = without_duplicates(possible);
    Ok(Kept {
        values,
        damaged: damaged + duplicated,
    })
}

/// The records kept at `path` by an interrupted run of the export of `header`, each read
/// by `parse`, and how many whole records failed their seal or `parse` (their positions
/// are done again): as [`load`], for records of any export.
pub fn load_records<T>(
    path: &Path,
    header: &Header,
    parse: impl Fn(&str) -> Option<T>,
) -> Result<(Vec<T>, usize), ResumeError> {
    let bytes = match read_regular(path).map_err(|e| io_error(path, e))? {
        Some(b) if !b.is_empty() => b,
        _ => return Ok((Vec::new(), 0)),
    };
    let text = String::from_utf8_lossy(&bytes);
    let mut lines = text.split('\n');
    check_header(path, header, lines.next().unwrap_or(""))?;
    let records: Vec<&str> = lines.collect();
    // The last piece is empty after a final line break, or a line a crash cut short: left
    // out without a warning.
    let whole = records.split_last().map_or(&[][..], |(_, whole)| whole);
    let mut kept = Vec::new();
    let mut damaged = 0;
    for line in whole {
        match unseal(line).and_then(&parse) {
            Some(r) => kept.push(r),
            None => damaged += 1,
        }
    }
    Ok((kept, damaged))
}

/// Refuses a first line that is not `header`, saying why.
fn check_header(path: &Path, header: &Header, first: &str) -> Result<(), ResumeError> {
    let refuse = |why: String| ResumeError::Refused {
        path: path.to_path_buf(),
        why,
    };
    header
        .resumes(first, "kalah export", "export")
        .map_err(refuse)
}

/// One record, `POSITION VALUE`, as [`record`] writes it.
fn parse_record(r: &str) -> Option<(Position, i32)> {
    let (p, v) = r.split_once(' ')?;
    Some((p.parse::<Position>().ok()?, v.parse::<i32>().ok()?))
}

/// One value as a record, as [`parse_record`] reads it.
fn value_text(p: &Position, v: i32) -> String {
    format!("{p} {v}")
}

/// One value as a sealed line, as [`load`] reads it.
#[cfg(test)]
fn record(p: &Position, v: i32) -> String {
    sealed(&value_text(p, v))
}

/// What an export adds to the partial file: its values.
impl Partial {
    /// Rewrites `path` with `header` and the `known` values (the good records of an
    /// interrupted run) and opens it to add the values solved from now on.
    pub fn start(
        path: &Path,
        header: &Header,
        known: &HashMap<Position, i32>,
    ) -> Result<Partial, ResumeError> {
        Partial::start_with(path, header, known.iter().map(|(p, v)| value_text(p, *v)))
    }

    /// Adds the value `v` of `p`, in one write so that a kill leaves whole records and at
    /// most one cut short. False once a write has failed (the run should stop; the
    /// error comes from [`Partial::failure`]); later values are not written.
    pub fn add(&self, p: &Position, v: i32) -> bool {
        self.add_record(&value_text(p, v))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kalah_core::Game;

    fn start_and_header() -> (Position, Header) {
        let game = Game::new(Rules::kalah(3, 2)).unwrap();
        let start = game.start();
        (start, header(game.rules(), &start, 2))
    }

    #[test]
    fn values_written_are_the_values_read_back() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("book.json.partial");
        let (start, header) = start_and_header();
        let after = Game::new(Rules::kalah(3, 2))
            .unwrap()
            .play_unchecked(&start, 0);
        let known = HashMap::from([(start, 3)]);
        let partial = Partial::start(&path, &header, &known).unwrap();
        assert!(partial.add(&after, -2));
        partial.failure().unwrap();
        let kept = load(&path, &header).unwrap();
        let mut want = known.clone();
        want.insert(after, -2);
        assert_eq!(kept.values, want);
        assert_eq!(kept.damaged, 0);
    }

    #[test]
    fn a_damaged_record_is_counted_and_a_cut_last_line_ignored() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("p");
        let (start, header) = start_and_header();
        let mut text = header.line() + "\n";
        text.push_str(&record(&start, 1).replace(" 1\t", " 7\t"));
        text.push_str(&record(&start, 1));
        text.push_str(&record(&start, 1)[..5]);
        std::fs::write(&path, text).unwrap();
        let kept = load(&path, &header).unwrap();
        assert_eq!(kept.values, HashMap::from([(start, 1)]));
        assert_eq!(kept.damaged, 1);
    }

    #[test]
    fn a_resealed_value_beyond_the_seeds_and_a_duplicated_record_are_dropped() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("p");
        let (start, header) = start_and_header();
        let game = Game::new(Rules::kalah(3, 2)).unwrap();
        let (a, b) = (
            game.play_unchecked(&start, 0),
            game.play_unchecked(&start, 1),
        );
        // Sealed afresh, as a forger would: every record passes its check.
        let mut text = header.line() + "\n";
        text.push_str(&record(&start, 999_999));
        text.push_str(&record(&start, -13));
        text.push_str(&record(&a, 2));
        text.push_str(&record(&a, 2));
        text.push_str(&record(&b, -1));
        text.push_str(&record(&b, 3));
        text.push_str(&record(&start, 12));
        std::fs::write(&path, text).unwrap();
        let kept = load(&path, &header).unwrap();
        // 12 seeds: the start's +12 fits, +999999 and -13 do not.
        assert_eq!(kept.values, HashMap::from([(start, 12)]));
        assert_eq!(kept.damaged, 6);
    }

    #[test]
    fn the_file_of_another_export_is_refused_saying_what_differs() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("p");
        let (start, header) = start_and_header();
        let other = super::header(&Rules::kalah(3, 2), &start, 3);
        Partial::start(&path, &other, &HashMap::new()).unwrap();
        let e = load(&path, &header).unwrap_err().to_string();
        assert!(e.contains("holds the work of another export (depth: 2 here, 3 in the file)"));
        std::fs::write(&path, "not a header\n").unwrap();
        let e = load(&path, &header).unwrap_err().to_string();
        assert!(
            e.contains("was not written by this version of kalah export"),
            "{e}"
        );
    }

    #[test]
    fn no_file_keeps_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let (_, header) = start_and_header();
        assert_eq!(
            load(&dir.path().join("none"), &header).unwrap(),
            Kept::default()
        );
    }
}
