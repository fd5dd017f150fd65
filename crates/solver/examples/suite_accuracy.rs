//! The best-turn accuracy of the anytime analysis on the analysis suite (`data/suite.txt`,
//! exact values known): for every position, the turn `kalah analyse --time S` picks (its
//! settings: one line, a table of 16 MiB a second, and an endgame database file only
//! where one is already there: `KALAH_EGDB_PATH` or the cache, as for the command line;
//! `KALAH_CACHE=off` for none), the set of exact
//! best turns (each turn's value proved against the position's by a null-window solve) and,
//! where the pick is not among them, its exact value and the error (best value minus the
//! pick's, for the mover).
//!
//! `cargo run --release -p kalah-solver --features examples --example suite_accuracy -- [LIMIT [THREADS [FILTER [EVAL]]]]`
//! (defaults 1 s, 2 threads; LIMIT: seconds, or a node budget such as `4M` or `500k`,
//! which does not depend on the machine's load (with one thread the pick is then
//! reproducible); FILTER: only the lines that contain it, or with a leading `!` those that
//! do not; EVAL: the analysis's evaluation, `default` (as `kalah analyse` chooses), `store`,
//! `fitted` or `learned`). Prints a
//! Markdown table and the share of positions where the pick is a best turn.
//!
//! The exact verdicts (whether a turn is a best turn, a pick's exact value) are kept in
//! `target/suite_exact.txt` (or `$SUITE_EXACT`), so a second run with other settings
//! solves only the turns not judged before.
use std::collections::HashMap;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use kalah_solver::bench::{self, Case};
use kalah_solver::{Config, Database, Evaluation, Limits, Overrides, Solver};

mod judge;
use judge::{after, at_least, mover_of};

fn main() {
    let a: Vec<String> = std::env::args().collect();
    let limit = a.get(1).map_or("1", |s| s.as_str());
    let (limits, label) = judge::parse_limit(limit).unwrap_or_else(|e| {
        eprintln!("suite_accuracy: LIMIT {e}");
        std::process::exit(2)
    });
    let threads: usize = a.get(2).map_or(2, |s| s.parse().expect("THREADS"));
    let filter = a.get(3).cloned().unwrap_or_default();
    let eval = a.get(4).map_or("default", |s| s.as_str()).to_string();
    let text = include_str!("../../../data/suite.txt");
    let cases = bench::read(text).expect("the suite reads");
    let cache_path = std::env::var("SUITE_EXACT").unwrap_or_else(|_| {
        concat!(env!("CARGO_MANIFEST_DIR"), "/../../target/suite_exact.txt").into()
    });
    let mut cache = Cache::load(&cache_path);
    println!("| position | value | best turns | pick (depth) | pick's value | error | nodes |");
    println!("|---|---|---|---|---|---|---|");
    let (mut right, mut total, mut error_sum) = (0, 0, 0);
    let keep = |line: &str| match filter.strip_prefix('!') {
        Some(f) => !line.contains(f),
        None => line.contains(&*filter),
    };
    for case in cases.iter().filter(|c| keep(&c.line)) {
        let row = measure(case, &limits, threads, &eval, &mut cache);
        total += 1;
        right += usize::from(row.error == 0);
        error_sum += row.error;
        println!(
            "| `{}` | {:+} | {} | {} ({}) | {:+} | {} | {} |",
            case.line.rsplit_once(' ').map_or(&*case.line, |(l, _)| l),
            row.value,
            row.best.join(" "),
            row.pick,
            row.depth,
            row.pick_value,
            row.error,
            row.nodes
        );
        cache.save(&cache_path);
    }
    println!(
        "\nbest turn at {label} ({eval}): {right} of {total} ({:.0}%), total error {error_sum} seeds",
        100.0 * right as f64 / total.max(1) as f64
    );
}

/// The exact verdicts found so far: per position line and turn, `opt` (a best turn) or
/// the turn's exact value for the mover (not a best turn), or `no` (not a best turn, value
/// not yet solved).
struct Cache {
    map: HashMap<(String, String), String>,
}

impl Cache {
    fn load(path: &str) -> Cache {
        let text = std::fs::read_to_string(path).unwrap_or_default();
        let map = text
            .lines()
            .filter_map(|l| {
                let mut f = l.split('\t');
                Some(((f.next()?.into(), f.next()?.into()), f.next()?.into()))
            })
            .collect();
        Cache { map }
    }

    fn save(&self, path: &str) {
        let mut lines: Vec<String> = self
            .map
            .iter()
            .map(|((p, t), v)| format!("{p}\t{t}\t{v}"))
            .collect();
        lines.sort();
        let tmp = format!("{path}.tmp");
        if std::fs::write(&tmp, lines.join("\n") + "\n").is_ok() {
            let _ = std::fs::rename(&tmp, path);
        }
    }
}

/// One position's measurement (values from South).
struct Row {
    value: i32,
    best: Vec<String>,
    pick: String,
    depth: u8,
    pick_value: i32,
    /// The best value minus the pick's, for the mover (0: the pick is a best turn).
    error: i32,
    /// The nodes the analysis searched.
    nodes: u64,
}

/// The analysis of `case` within `limits`, and the exact values that judge its pick (from
/// `cache` where it has them).
fn measure(case: &Case, limits: &Limits, threads: usize, eval: &str, cache: &mut Cache) -> Row {
    let cancel = AtomicBool::new(false);
    let (game, pos) = (&case.game, &case.pos);
    let seeds = pos.seeds_in_houses() as usize;
    // As `kalah analyse` chooses: a database file already there (KALAH_EGDB_PATH, the
    // cache) that loads in a fraction of the time, none built.
    let overrides = Overrides {
        threads: Some(threads),
        existing_only: Some(Limits::file_bytes_cap(limits.time)),
        ..Overrides::default()
    };
    let mut config = overrides.config(game, seeds, 1).expect("config");
    config.evaluation = match eval {
        "default" => Evaluation::for_analysis(game.rules()),
        name => Evaluation::from_name(name, game.rules())
            .expect("EVAL: default, store, fitted or learned"),
    };
    // The table of a 1 s analysis where the limit is nodes (about what 1 s searches).
    let table_limits = match limits.time {
        Some(_) => *limits,
        None => Limits::time(Duration::from_secs(1)),
    };
    config.hash_mb = config
        .hash_mb
        .min(table_limits.table_mb_cap().expect("a time limit"));
    let analyser = Solver::new(game.clone(), config).expect("solver");
    let a = analyser
        .analyse_lines(pos, limits, 1, &cancel, &mut |_| {})
        .expect("analysis");
    drop(analyser);

    // The exact solver, built only where a verdict is not in the cache.
    let mut exact: Option<Solver> = None;
    let mut solver = || -> Solver {
        let mut config = Config::for_seeds(game, seeds, 1, &Database::Memory).expect("config");
        config.threads = threads;
        Solver::new(game.clone(), config).expect("solver")
    };
    let side = pos.side_to_move();
    let value = case.value.expect("the suite states every value");
    let mover_value = side.sign() * value;
    let houses = game.houses();
    let mut best = Vec::new();
    let mut pick_value = None;
    let pick = a.best_turn().expect("a position of the suite is not over");
    for t in &a.turns {
        let child = after(game, pos, &t.turn);
        let name = t.turn.notation(houses);
        let key = (case.line.clone(), name.clone());
        // The turn is a best turn when its value reaches the position's.
        let verdict = cache
            .map
            .entry(key)
            .or_insert_with(|| {
                if at_least(
                    exact.get_or_insert_with(&mut solver),
                    &child,
                    side,
                    mover_value,
                    &cancel,
                ) {
                    "opt".into()
                } else {
                    "no".into()
                }
            })
            .clone();
        let optimal = verdict == "opt";
        if optimal {
            best.push(name.clone());
        }
        if t.turn == *pick {
            pick_value = Some(if optimal {
                mover_value
            } else if let Ok(v) = verdict.parse::<i32>() {
                v
            } else {
                let v = mover_of(&child, side)
                    * exact
                        .get_or_insert_with(&mut solver)
                        .value(&child, &cancel)
                        .expect("solve");
                cache.map.insert((case.line.clone(), name), v.to_string());
                v
            });
        }
    }
    let pick_value = pick_value.expect("the pick is a root turn");
    best.sort();
    Row {
        value,
        best,
        pick: pick.notation(houses),
        depth: a.depth,
        pick_value: side.sign() * pick_value,
        error: mover_value - pick_value,
        nodes: a.nodes,
    }
}
