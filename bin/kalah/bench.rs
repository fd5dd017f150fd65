//! `kalah bench`: solves the fixed positions of `data/bench.txt` and prints the total node
//! count, the fingerprint of the search, with the time it took.

use std::io::{self, Write};
use std::path::PathBuf;
use std::time::Instant;

use kalah_analysis::wire::bench as wire;
use kalah_solver::bench::{self, Case, Run, Totals};
use kalah_solver::{Config, Overrides};

use crate::error::CliError;

/// The positions built into the binary (the file `data/bench.txt` of the source tree).
const BUILT_IN: &str = include_str!("../../data/bench.txt");

/// The analysis suite built into the binary (the file `data/suite.txt` of the source tree).
const SUITE: &str = include_str!("../../data/suite.txt");

/// Solve a fixed set of positions and print the total node count (the search fingerprint).
///
/// With one thread (the default here) the node count depends only on the search code: a
/// commit that changes the search quotes it as `Bench: <nodes>`. Every value is checked by
/// replaying its principal variation.
///
/// With `--suite`, it solves the analysis suite instead (`data/suite.txt`: positions from
/// played games of Kalah(6,4), (6,5) and (6,6), each with its exact value) the way
/// `kalah solve` does, with every default (all cores, the database cache), and prints the
/// set-up time (loading or building the database, the table) and the search time of each.
/// Run it twice for a warm cache, or with `--no-cache` to build every database afresh.
///
/// Example: `kalah bench` or `kalah bench --threads 2 --json` or `kalah bench --suite`
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Read the positions from this file instead of the built-in set (lines `PRESET
    /// HOUSES SEEDS POSITION [VALUE]`; a value from South is checked)
    #[arg(long, value_name = "FILE")]
    file: Option<PathBuf>,

    /// Search threads (the node count is reproducible only with 1) [default: 1; with
    /// --suite all cores]
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1024))]
    threads: Option<u32>,

    /// Solve the analysis suite with the defaults of `kalah solve` (see above)
    #[arg(long)]
    suite: bool,

    /// With --suite: neither read nor grow the database cache (every database is built in
    /// memory, as on a machine that never solved anything)
    #[arg(long, requires = "suite")]
    no_cache: bool,

    /// Transposition table size in MiB
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u64).range(1..=1_048_576))]
    hash_mb: u64,

    /// Print one JSON object instead of text
    #[arg(long)]
    json: bool,
}

/// The largest file of bench positions read (64 MiB, a million positions): a larger one,
/// or an endless one (`/dev/zero`), is refused, not read into memory.
const BENCH_FILE_MAX: u64 = 64 << 20;

/// Runs `kalah bench`.
pub fn run(args: &Args, out: &mut dyn Write) -> Result<(), CliError> {
    let text = match &args.file {
        Some(path) => kalah_io::read_bounded(path, BENCH_FILE_MAX)
            .and_then(|b| {
                String::from_utf8(b).map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))
            })
            .map_err(|e| CliError::Input(format!("cannot read {}: {e}", path.display())))?,
        None if args.suite => SUITE.to_string(),
        None => BUILT_IN.to_string(),
    };
    let cases = bench::read(&text).map_err(|e| CliError::Input(e.to_string()))?;
    if args.suite {
        return suite(args, &cases, out);
    }
    let threads = args.threads.unwrap_or(1);
    let lines = (wire::case_text as Line, wire::case_json as Row);
    let (totals, rows, seconds) = run_cases(&cases, args.json, lines, out, |case| {
        Ok(case.fingerprint_config(threads as usize, args.hash_mb as usize)?)
    })?;
    if args.json {
        let obj = wire::totals_json(&totals, seconds, threads, args.hash_mb, rows);
        writeln!(out, "{obj}")?;
    } else {
        writeln!(out, "{}", wire::totals_text(&totals, seconds, threads))?;
    }
    Ok(())
}

/// `kalah bench --suite`: every case solved as `kalah solve` solves it, timed.
fn suite(args: &Args, cases: &[Case], out: &mut dyn Write) -> Result<(), CliError> {
    let lines = (wire::suite_case_text as Line, wire::suite_case_json as Row);
    let (totals, rows, seconds) = run_cases(cases, args.json, lines, out, |case| {
        let database = Overrides {
            no_cache: args.no_cache,
            ..Overrides::default()
        }
        .database()?;
        Ok(case.solve_config(&database, args.threads.map(|t| t as usize))?)
    })?;
    let cache = !args.no_cache;
    if args.json {
        let obj = wire::suite_totals_json(&totals, seconds, cache, rows);
        writeln!(out, "{obj}")?;
    } else {
        let line = wire::suite_totals_text(&totals, seconds, cases.len(), cache);
        writeln!(out, "{line}")?;
    }
    Ok(())
}

/// A case's line of text, or its row of the JSON object.
type Line = fn(&Case, &Run) -> String;
type Row = fn(&Case, &Run) -> serde_json::Value;

/// Every case of `cases` run with the settings `config` gives it: each case's line
/// (`lines.0`) written as it ends unless `json`, its row (`lines.1`) kept; the totals, the
/// rows and the seconds the whole run took.
fn run_cases(
    cases: &[Case],
    json: bool,
    lines: (Line, Row),
    out: &mut dyn Write,
    config: impl Fn(&Case) -> Result<Config, CliError>,
) -> Result<(Totals, Vec<serde_json::Value>, f64), CliError> {
    let timer = Instant::now();
    let mut totals = Totals::default();
    let mut rows = Vec::new();
    for case in cases {
        let run = case.run(config(case)?).map_err(run_error)?;
        totals.add(&run);
        if !json {
            writeln!(out, "{}", lines.0(case, &run))?;
        }
        rows.push(lines.1(case, &run));
    }
    Ok((totals, rows, timer.elapsed().as_secs_f64()))
}

/// A failed run: a solver that cannot be made, or a bug of the search (a failed check of
/// a solution), not of the input.
fn run_error(e: bench::RunError) -> CliError {
    match e {
        bench::RunError::Solver(e) => CliError::Solver(e),
        bench::RunError::Cancelled => CliError::Internal("the search was cancelled".into()),
        bench::RunError::Check(e) => CliError::Internal(e.to_string()),
    }
}
