//! `kalah bench`: solves the fixed positions of `data/bench.txt` and prints the total node
//! count, the fingerprint of the search, with the time it took.

use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use kalah_core::notation::play_moves;
use kalah_core::{Game, Position, Preset};
use kalah_solver::{Config, Database, Solver};
use serde_json::json;

use crate::error::CliError;
use crate::solving::verify;

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

/// One line of the bench file.
struct Case {
    line: String,
    game: Game,
    pos: Position,
    /// The value from South that the line states, if it does.
    value: Option<i32>,
}

impl Case {
    /// Checks the solution's principal variation, and its value against the line's.
    fn check(&self, solution: &kalah_solver::Solution) -> Result<(), CliError> {
        verify(&self.game, &self.pos, solution)?;
        match self.value {
            Some(v) if v != solution.value_from_south() => Err(CliError::Internal(format!(
                "{}: solved {:+}, the file says {v:+}",
                self.line,
                solution.value_from_south()
            ))),
            _ => Ok(()),
        }
    }
}

fn parse(text: &str) -> Result<Vec<Case>, CliError> {
    let mut cases = Vec::new();
    for (n, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let bad = |why: String| CliError::Input(format!("bench line {}: {why}: '{line}'", n + 1));
        let f: Vec<&str> = line.split_whitespace().collect();
        if f.len() != 4 && f.len() != 5 {
            return Err(bad("expected PRESET HOUSES SEEDS POSITION [VALUE]".into()));
        }
        let value = match f.get(4) {
            Some(v) => Some(
                v.parse::<i32>()
                    .map_err(|_| bad("the value is not a number".into()))?,
            ),
            None => None,
        };
        let preset: Preset = f[0].parse().map_err(|e| bad(format!("{e}")))?;
        let houses: u8 = f[1]
            .parse()
            .map_err(|_| bad("houses is not a number".into()))?;
        let seeds: u8 = f[2]
            .parse()
            .map_err(|_| bad("seeds is not a number".into()))?;
        let game = Game::new(preset.rules(houses, seeds)).map_err(|e| bad(format!("{e}")))?;
        let pos = if f[3] == "start" {
            game.start()
        } else if let Some(moves) = f[3].strip_prefix("moves:") {
            play_moves(&game, game.start(), moves)
                .map_err(|e| bad(format!("{e}")))?
                .0
        } else {
            let p: Position = f[3].parse().map_err(|e| bad(format!("{e}")))?;
            game.settle(p).map_err(|e| bad(format!("{e}")))?
        };
        cases.push(Case {
            line: line.to_string(),
            game,
            pos,
            value,
        });
    }
    Ok(cases)
}

/// Runs `kalah bench`.
pub fn run(args: &Args, out: &mut dyn Write) -> Result<(), CliError> {
    let text = match &args.file {
        Some(path) => std::fs::read_to_string(path)
            .map_err(|e| CliError::Input(format!("cannot read {}: {e}", path.display())))?,
        None if args.suite => SUITE.to_string(),
        None => BUILT_IN.to_string(),
    };
    let cases = parse(&text)?;
    if args.suite {
        return suite(args, &cases, out);
    }
    let threads = args.threads.unwrap_or(1);
    let timer = Instant::now();
    let mut total_nodes = 0u64;
    // The searches alone, without allocating tables and building databases.
    let mut search_seconds = 0f64;
    let mut rows = Vec::new();
    for case in &cases {
        // The library's settings for one solve from the start of the case's game (the
        // database built in memory, never a file: the count must not depend on the
        // machine's files), with the bench's threads and table, and the deepening of the
        // board whatever the database (as the fingerprint has always been taken).
        let config = Config {
            threads: threads as usize,
            hash_mb: args.hash_mb as usize,
            deepening: Config::default_deepening(&case.game),
            ..Config::for_seeds(&case.game, case.game.capacity(), 1, &Database::Memory)?
        };
        let solver = Solver::new(case.game.clone(), config)?;
        let sol = solver
            .solve(&case.pos, &AtomicBool::new(false), &mut |_| {})
            .map_err(|_| CliError::Internal("the search was cancelled".into()))?;
        case.check(&sol)?;
        total_nodes += sol.nodes;
        search_seconds += sol.elapsed.as_secs_f64();
        if !args.json {
            writeln!(
                out,
                "{:<48} value {:+4}  nodes {:>11}  {:>8.3} s",
                case.line,
                sol.value_from_south(),
                sol.nodes,
                sol.elapsed.as_secs_f64()
            )?;
        }
        rows.push(json!({
            "case": case.line,
            "value": sol.value_from_south(),
            "nodes": sol.nodes,
            "seconds": sol.elapsed.as_secs_f64(),
        }));
    }
    let seconds = timer.elapsed().as_secs_f64();
    let nps = total_nodes as f64 / search_seconds.max(1e-9);
    if args.json {
        let obj = json!({
            "nodes": total_nodes,
            "seconds": seconds,
            "search_seconds": search_seconds,
            "nodes_per_second": nps.round(),
            "threads": threads,
            "hash_mb": args.hash_mb,
            "cases": rows,
        });
        writeln!(out, "{obj}")?;
    } else {
        writeln!(
            out,
            "Bench: {total_nodes} nodes in {seconds:.3} s ({search_seconds:.3} s searching, \
             {:.2} M nodes/s, {} threads; the rest is set-up: tables and databases)",
            nps / 1e6,
            threads
        )?;
    }
    Ok(())
}

/// `kalah bench --suite`: every case solved as `kalah solve` solves it, timed.
fn suite(args: &Args, cases: &[Case], out: &mut dyn Write) -> Result<(), CliError> {
    let timer = Instant::now();
    let (mut nodes, mut setup, mut search) = (0u64, 0f64, 0f64);
    let mut rows = Vec::new();
    for case in cases {
        let seeds = case.pos.seeds_in_houses() as usize;
        let database = if args.no_cache {
            Database::from_env().without_cache()
        } else {
            Database::from_env()
        };
        let mut config = Config::for_seeds(&case.game, seeds, 1, &database)?;
        if let Some(threads) = args.threads {
            config.threads = threads as usize;
        }
        let started = Instant::now();
        let solver = Solver::new(case.game.clone(), config)?;
        let ready = started.elapsed().as_secs_f64();
        let sol = solver
            .solve(&case.pos, &AtomicBool::new(false), &mut |_| {})
            .map_err(|_| CliError::Internal("the search was cancelled".into()))?;
        case.check(&sol)?;
        let searching = sol.elapsed.as_secs_f64();
        (nodes, setup, search) = (nodes + sol.nodes, setup + ready, search + searching);
        let db = solver.database_seeds_for(&case.pos);
        if !args.json {
            writeln!(
                out,
                "{:<52} seeds {seeds:>2}  value {:+4}  nodes {:>11}  db {:>2}  set-up {ready:>6.2} s  \
                 search {searching:>7.2} s",
                case.line,
                sol.value_from_south(),
                sol.nodes,
                db.map_or("-".to_string(), |k| k.to_string()),
            )?;
        }
        rows.push(json!({
            "case": case.line,
            "seeds": seeds,
            "value": sol.value_from_south(),
            "nodes": sol.nodes,
            "egdb_seeds": db,
            "setup_seconds": ready,
            "search_seconds": searching,
        }));
    }
    let seconds = timer.elapsed().as_secs_f64();
    if args.json {
        let obj = json!({
            "nodes": nodes,
            "seconds": seconds,
            "setup_seconds": setup,
            "search_seconds": search,
            "cache": !args.no_cache,
            "cases": rows,
        });
        writeln!(out, "{obj}")?;
    } else {
        writeln!(
            out,
            "Suite: {} positions, {nodes} nodes in {seconds:.2} s ({setup:.2} s set-up, \
             {search:.2} s searching; database cache {})",
            cases.len(),
            if args.no_cache { "off" } else { "on" }
        )?;
    }
    Ok(())
}
