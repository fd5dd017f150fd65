//! The kinds of file the commands write, told from any other file by how they start, so
//! that an output replaces only a file of its own kind ([`kalah_io::Checks`]).
//!
//! Each test sees the first bytes of an existing non-empty file ([`kalah_io::HEAD`] at
//! most) and looks for what the writer always puts first: a magic number, a header line
//! or a first record of the format.

use std::io::Write;
use std::path::{Path, PathBuf};

use kalah_io::{first_line, Kind, OutputError};
use serde_json::Value;

use crate::wire::unit::Unit;

/// An evaluation table written by `kalah export`, JSON or CSV.
pub const TABLE: Kind = Kind {
    name: "a table written by kalah export",
    test: is_table,
};

/// Answers written by `kalah batch`: JSON lines, the last one perhaps cut short.
pub const ANSWERS: Kind = Kind {
    name: "answers written by kalah batch",
    test: is_answers,
};

/// Work units written by `kalah split` or `kalah merge --next` (a sample's too).
pub const UNITS: Kind = Kind {
    name: "work units written by kalah split or kalah merge",
    test: is_units,
};

/// The manifest of a split.
pub const MANIFEST: Kind = Kind {
    name: "a manifest written by kalah split",
    test: is_manifest,
};

/// A report of `kalah openings` or `kalah pie`: text, JSON or CSV.
pub const REPORT: Kind = Kind {
    name: "a report written by kalah openings or kalah pie",
    test: is_report,
};

/// The games of `kalah match --games`: JSON lines, one a game.
pub const GAMES: Kind = Kind {
    name: "games written by kalah match",
    test: is_games,
};

/// An endgame database file (finished; a build's partial file has another name).
pub const DATABASE: Kind = Kind {
    name: "an endgame database written by kalah egdb build",
    test: is_database,
};

/// Runs `body` on the report it writes (`kalah openings`, `kalah pie`): to `out`, or, with
/// a file `path`, to the file, checked and locked before `body` starts (a file that is no
/// [`REPORT`], a read-only file or a symbolic link refused unless `force`; `inputs`, the
/// database files the run reads, never replaced) and written whole at the end (atomically
/// for a regular file, straight through for a FIFO or device), untouched when `body` fails.
pub fn with_report<E: From<OutputError>>(
    path: Option<&Path>,
    force: bool,
    inputs: &[PathBuf],
    out: &mut dyn Write,
    body: impl FnOnce(&mut dyn Write) -> Result<(), E>,
) -> Result<(), E> {
    let Some(path) = path else {
        return body(out);
    };
    let checks = kalah_io::Checks::of(REPORT, force).reading(inputs.iter().map(PathBuf::as_path));
    let output = kalah_io::Output::open_with(path, &checks)?;
    let mut text = Vec::new();
    body(&mut text)?;
    output.replace(&text)?;
    Ok(())
}

/// The first line of the JSON table (its header up to the list of positions), or the
/// CSV table's header.
fn is_table(head: &[u8]) -> bool {
    match first_line(head) {
        Some(line) if line.starts_with(b"{\"") => {
            line.ends_with(b",\"positions\":[") && contains(line, b"\"values\":\"from South")
        }
        Some(line) => line.starts_with(b"position,side,turns,value,best"),
        None => false,
    }
}

/// A first answer line with its input line and text; a first line not finished yet (a
/// run killed while writing it) only has to start like one.
fn is_answers(head: &[u8]) -> bool {
    match first_line(head) {
        Some(line) => {
            json_object(line).is_some_and(|v| v["line"].is_u64() && v["input"].is_string())
        }
        None => head.starts_with(b"{\""),
    }
}

/// A first line that reads as a work unit.
fn is_units(head: &[u8]) -> bool {
    first_line(head)
        .and_then(|l| std::str::from_utf8(l).ok())
        .is_some_and(|l| Unit::parse(l).is_ok())
}

/// A JSON object naming the manifest's format near its start.
fn is_manifest(head: &[u8]) -> bool {
    head.starts_with(b"{\"")
        && contains(&head[..head.len().min(512)], b"\"format\":\"kalah-split\"")
}

/// The text report's first line (`rules      Kalah(6,4) ...`), a JSON report with its
/// rules and its turns (or North's decision), or the CSV table of the openings.
fn is_report(head: &[u8]) -> bool {
    let text = head.starts_with(b"rules  ");
    let json = first_line(head).and_then(json_object).is_some_and(|v| {
        v["rules"].is_string() && (v["turns"].is_array() || v["swap"].is_boolean())
    });
    text || json || head.starts_with(b"turn,value,value_for_mover,position_after,pv")
}

/// A first line that reads as a game of a match (written whole, atomically).
fn is_games(head: &[u8]) -> bool {
    first_line(head)
        .and_then(json_object)
        .is_some_and(|v| v["game"].is_u64() && v["player1_is"].is_string())
}

fn is_database(head: &[u8]) -> bool {
    head.starts_with(&kalah_solver::egdb::file::MAGIC)
}

fn json_object(line: &[u8]) -> Option<Value> {
    serde_json::from_slice::<Value>(line)
        .ok()
        .filter(Value::is_object)
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_report_goes_to_its_file_whole_or_not_at_all() {
        let write = |text: &'static str| {
            move |w: &mut dyn Write| -> Result<(), OutputError> {
                w.write_all(text.as_bytes()).unwrap();
                Ok(())
            }
        };
        let mut out = Vec::new();
        with_report(None, false, &[], &mut out, write("to out\n")).unwrap();
        assert_eq!(out, b"to out\n");
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("report.txt");
        let mut out = Vec::new();
        with_report(Some(&path), false, &[], &mut out, write("to the file\n")).unwrap();
        assert!(out.is_empty());
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "to the file\n");
        let failed = with_report(Some(&path), false, &[], &mut out, |_| {
            Err(OutputError::NotAFileName(PathBuf::new()))
        });
        assert!(failed.is_err());
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "to the file\n");
        let other = dir.path().join("other.txt");
        std::fs::write(&other, "not a report\n").unwrap();
        let refused = with_report(Some(&other), false, &[], &mut out, write("x"));
        assert!(refused.is_err());
        assert_eq!(std::fs::read_to_string(&other).unwrap(), "not a report\n");
        with_report(Some(&other), true, &[], &mut out, write("forced\n")).unwrap();
        assert_eq!(std::fs::read_to_string(&other).unwrap(), "forced\n");
    }
}
