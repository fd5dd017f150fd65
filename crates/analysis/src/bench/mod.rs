//! `kalah bench`: the cases read (from a file, or the text built in), each solved with
//! the configuration of its kind and checked, its row written as it ends (text) or
//! gathered (JSON), then the totals: the node count that fingerprints the search, or
//! the suite's solves with their databases.

pub mod report;

use std::io::{self, Write};
use std::path::Path;
use std::time::Instant;

use kalah_solver::bench::{self, Case, Run, RunError, Totals};
use kalah_solver::cache::{Cache, CacheMaxError};
use kalah_solver::egdb::EgdbError;
use kalah_solver::{Config, Overrides};
use serde_json::Value;

/// The most a bench file may hold: more is surely not one.
const BENCH_FILE_MAX: u64 = 64 << 20;

/// Which bench runs, with its settings.
#[derive(Clone, Copy, Debug)]
pub enum Kind {
    /// The fixed-size bench: every case with the same threads and table, and the
    /// database the library builds in memory for one solve from the start.
    Fingerprint {
        /// Search threads.
        threads: u32,
        /// The table's size in MiB.
        hash_mb: u64,
        /// Whether each case's database is kept in the cache's bench directory between
        /// runs (loaded from there when it holds exactly that database; see
        /// `kalah_solver::bench::Case::run_kept`), else built every time.
        cache: bool,
    },
    /// The suite: each case solved as `kalah solve` would, with its database.
    Suite {
        /// Search threads (`None`: all cores).
        threads: Option<u32>,
        /// Whether the database cache is used.
        cache: bool,
    },
}

/// Why a bench stopped.
#[derive(Debug)]
pub enum BenchError {
    /// The cases could not be read (the message names the file).
    Read(String),
    /// A case's database could not be set up.
    Egdb(EgdbError),
    /// The cache's size in the environment means nothing.
    CacheMax(CacheMaxError),
    /// A case could not be solved, or its value failed its check.
    Run(RunError),
    /// Writing the rows failed.
    Io(io::Error),
}

impl From<io::Error> for BenchError {
    fn from(e: io::Error) -> Self {
        BenchError::Io(e)
    }
}

/// The cases of `file`, or of `built_in` without one.
pub fn cases(file: Option<&Path>, built_in: &str) -> Result<Vec<Case>, BenchError> {
    let text = match file {
        Some(path) => kalah_io::read_bounded(path, BENCH_FILE_MAX)
            .and_then(|b| {
                String::from_utf8(b).map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))
            })
            .map_err(|e| BenchError::Read(format!("cannot read {}: {e}", path.display())))?,
        None => built_in.to_string(),
    };
    bench::read(&text).map_err(|e| BenchError::Read(e.to_string()))
}

/// Runs `cases` as `kind` says, writing to `out` a text row for each case as it ends and
/// the totals, or with `json` one object with the rows and the totals at the end.
pub fn run(cases: &[Case], kind: Kind, json: bool, out: &mut dyn Write) -> Result<(), BenchError> {
    let timer = Instant::now();
    let mut totals = Totals::default();
    let mut rows = Vec::new();
    let kept = match kind {
        Kind::Fingerprint { cache: true, .. } => Cache::from_env()
            .map_err(BenchError::CacheMax)?
            .map(|cache| cache.bench_dir()),
        _ => None,
    };
    for case in cases {
        let config = config(case, kind)?;
        let run = match &kept {
            Some(dir) => case.run_kept(config, dir),
            None => case.run(config),
        }
        .map_err(BenchError::Run)?;
        totals.add(&run);
        if !json {
            writeln!(out, "{}", row_text(case, &run, kind))?;
        }
        rows.push(row_json(case, &run, kind));
    }
    let seconds = timer.elapsed().as_secs_f64();
    match (kind, json) {
        (
            Kind::Fingerprint {
                threads, hash_mb, ..
            },
            true,
        ) => {
            let obj = report::totals_json(&totals, seconds, threads, hash_mb, rows);
            writeln!(out, "{obj}")?;
        }
        (Kind::Fingerprint { threads, .. }, false) => {
            writeln!(out, "{}", report::totals_text(&totals, seconds, threads))?;
        }
        (Kind::Suite { cache, .. }, true) => {
            writeln!(
                out,
                "{}",
                report::suite_totals_json(&totals, seconds, cache, rows)
            )?;
        }
        (Kind::Suite { cache, .. }, false) => {
            let line = report::suite_totals_text(&totals, seconds, cases.len(), cache);
            writeln!(out, "{line}")?;
        }
    }
    Ok(())
}

/// The configuration `case` is solved with under `kind`.
fn config(case: &Case, kind: Kind) -> Result<Config, BenchError> {
    match kind {
        Kind::Fingerprint {
            threads, hash_mb, ..
        } => case
            .fingerprint_config(threads as usize, hash_mb as usize)
            .map_err(BenchError::Egdb),
        Kind::Suite { threads, cache } => {
            let database = Overrides {
                no_cache: !cache,
                ..Overrides::default()
            }
            .database()
            .map_err(BenchError::CacheMax)?;
            case.solve_config(&database, threads.map(|t| t as usize))
                .map_err(BenchError::Egdb)
        }
    }
}

/// A case's text row under `kind`.
fn row_text(case: &Case, run: &Run, kind: Kind) -> String {
    match kind {
        Kind::Fingerprint { .. } => report::case_text(case, run),
        Kind::Suite { .. } => report::suite_case_text(case, run),
    }
}

/// A case's JSON row under `kind`.
fn row_json(case: &Case, run: &Run, kind: Kind) -> Value {
    match kind {
        Kind::Fingerprint { .. } => report::case_json(case, run),
        Kind::Suite { .. } => report::suite_case_json(case, run),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TWO: &str = "kalah 3 2 start\n";

    #[test]
    fn a_missing_file_is_named_and_the_built_in_cases_are_read() {
        match cases(Some(Path::new("/nonexistent/bench.txt")), TWO) {
            Err(BenchError::Read(m)) => {
                assert!(m.starts_with("cannot read /nonexistent/bench.txt: "), "{m}")
            }
            _ => panic!("a missing file is read"),
        }
        assert_eq!(cases(None, TWO).map(|c| c.len()).ok(), Some(1));
    }

    #[test]
    fn the_fingerprint_writes_a_row_a_case_then_the_totals() {
        let cases = bench::read(include_str!("../../../../data/bench.txt")).unwrap();
        let cases = &cases[..1];
        let kind = Kind::Fingerprint {
            threads: 1,
            hash_mb: 1,
            cache: false,
        };
        let mut text = Vec::new();
        run(cases, kind, false, &mut text).unwrap();
        let text = String::from_utf8(text).unwrap();
        assert_eq!(text.lines().count(), 2, "{text}");
        let mut json = Vec::new();
        run(cases, kind, true, &mut json).unwrap();
        let v: Value = serde_json::from_slice(&json).unwrap();
        assert_eq!(v["threads"], 1);
        assert_eq!(v["cases"].as_array().map(Vec::len), Some(1));
    }
}
