//! `kalah bench`: solves the fixed positions of `data/bench.txt` and prints the total node
//! count, the fingerprint of the search, with the time it took.

use std::io::Write;
use std::path::PathBuf;

use kalah_analysis::bench::{self, BenchError, Kind};
use kalah_solver::bench::RunError;

use crate::args::QuietArgs;
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

    /// Neither read nor grow the database cache: every database is built in memory, as on
    /// a machine that never solved anything (without --suite: each case's database, which
    /// is otherwise kept in the cache's `bench` directory between runs, exactly as built,
    /// so the node count is the same either way)
    #[arg(long)]
    no_cache: bool,

    /// Transposition table size in MiB
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u64).range(1..=1_048_576))]
    hash_mb: u64,

    /// Print one JSON object instead of text
    #[arg(long)]
    json: bool,

    #[allow(dead_code)] // Every command takes --quiet; this one shows no progress.
    #[command(flatten)]
    quiet: QuietArgs,
}

/// Runs `kalah bench`.
pub fn run(args: &Args, out: &mut dyn Write) -> Result<(), CliError> {
    let built_in = if args.suite { SUITE } else { BUILT_IN };
    let kind = match args.suite {
        true => Kind::Suite {
            threads: args.threads,
            cache: !args.no_cache,
        },
        false => Kind::Fingerprint {
            threads: args.threads.unwrap_or(1),
            hash_mb: args.hash_mb,
            cache: !args.no_cache,
        },
    };
    bench::cases(args.file.as_deref(), built_in)
        .and_then(|cases| bench::run(&cases, kind, args.json, out))
        .map_err(|e| match e {
            BenchError::Read(m) => CliError::Input(m),
            BenchError::Egdb(e) => e.into(),
            BenchError::CacheMax(e) => e.into(),
            BenchError::Run(RunError::Solver(e)) => CliError::Solver(e),
            BenchError::Run(RunError::Cancelled) => {
                CliError::Internal("the search was cancelled".into())
            }
            BenchError::Run(RunError::Check(e)) => CliError::Internal(e.to_string()),
            BenchError::Io(e) => e.into(),
        })
}
