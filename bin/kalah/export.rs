//! `kalah export`: the evaluation table of every position within N turns of the start,
//! written atomically, with finished work kept across interruptions.

use std::collections::HashMap;
use std::fs::OpenOptions;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Instant;

use kalah_analysis::export::{evaluate, plan, Entry};
use kalah_core::{notation, Game, Position};
use serde_json::json;

use crate::analysis_io::{
    analysis_error, csv_field, file_error, interrupt_flag, parallel_solver, progress_bar, sibling,
    write_atomically,
};
use crate::args::{setup, PositionArgs, RulesArgs};
use crate::error::CliError;
use crate::solving::SolverArgs;

/// Table format.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum Format {
    /// One JSON object with an array `positions`
    Json,
    /// A CSV table, one row per position
    Csv,
}

/// Export the evaluation table (opening book) of every position within N turns.
///
/// The table holds each position reached from the start (or --position/--moves) within
/// --depth turns, the positions in the middle of a turn included, each once however many
/// lines reach it: the position, the side to move, the fewest turns that reach it, its
/// exact value from South, the value from South of every legal sowing and the best sowing.
/// The schema is in the README.
///
/// The table is written to a temporary file and renamed at the end, so a crash never
/// leaves half a table. The values solved so far are kept in FILE.partial as they come;
/// after an interruption (Ctrl-C) the same command goes on from there.
///
/// Example: `kalah export --houses 6 --seeds 4 --depth 2 --output book.json`
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Turns from the start to cover
    #[arg(long, value_name = "N")]
    depth: u32,

    /// The table file to write; give it twice (`-o book.json -o book.csv`) for both formats
    /// from one run
    #[arg(long, short, value_name = "FILE", required = true)]
    output: Vec<PathBuf>,

    /// Table format [default: from each file name: csv for .csv, json otherwise]
    #[arg(long, value_enum)]
    format: Option<Format>,

    #[command(flatten)]
    rules: RulesArgs,

    #[command(flatten)]
    position: PositionArgs,

    #[command(flatten)]
    solver: SolverArgs,
}

/// Runs `kalah export`.
pub fn run(args: &Args, out: &mut dyn Write) -> Result<(), CliError> {
    // Catch Ctrl-C from the start, before the endgame database is built.
    interrupt_flag();
    let (game, start) = setup(&args.rules, &args.position)?;
    let format = |path: &Path| {
        args.format
            .unwrap_or_else(|| match path.extension().and_then(|e| e.to_str()) {
                Some(e) if e.eq_ignore_ascii_case("csv") => Format::Csv,
                _ => Format::Json,
            })
    };
    let started = Instant::now();
    let plan = plan(&game, &start, args.depth);
    let partial_path = sibling(&args.output[0], ".partial");
    let header = format!("# kalah export: {} from {}", game.rules(), start);
    let (known, cut_short) = load_partial(&partial_path, &header)?;
    let todo = plan.to_solve(&known).len();

    let (solver, workers) =
        parallel_solver(&args.solver, &game, start.seeds_in_houses() as usize, todo)?;
    let mut partial = OpenOptions::new()
        .create(true)
        .append(true)
        .open(&partial_path)
        .map_err(|e| file_error(&partial_path, e))?;
    if known.is_empty() {
        partial
            .set_len(0)
            .and_then(|()| writeln!(partial, "{header}"))
            .map_err(|e| file_error(&partial_path, e))?;
    } else if cut_short {
        // End the fragment a crash left, so the next value starts a line of its own.
        writeln!(partial).map_err(|e| file_error(&partial_path, e))?;
    }
    let partial = Mutex::new(partial);
    let write_failed = Mutex::new(None);
    let bar = progress_bar(args.solver.quiet, todo, "positions past the table solved");
    if !known.is_empty() {
        bar.println(format!(
            "resuming: {} values kept in {}",
            known.len(),
            partial_path.display()
        ));
    }
    let result = evaluate(
        &solver,
        &plan,
        &known,
        workers,
        interrupt_flag(),
        &|p, v| {
            if let Ok(mut f) = partial.lock() {
                if let Err(e) = writeln!(f, "{p} {v}") {
                    if let Ok(mut w) = write_failed.lock() {
                        w.get_or_insert(e);
                    }
                }
            }
            bar.inc(1);
        },
    );
    bar.finish_and_clear();
    if let Some(e) = write_failed.into_inner().ok().flatten() {
        return Err(file_error(&partial_path, e));
    }
    let kept = format!(
        "the values solved so far are kept in {}; run the same command again to go on",
        partial_path.display()
    );
    let table = result.map_err(|e| analysis_error(e, &kept))?;

    for path in &args.output {
        let text = match format(path) {
            Format::Json => json_table(&game, &start, args.depth, &table),
            Format::Csv => csv_table(&game, &table),
        };
        write_atomically(path, text.as_bytes())?;
    }
    let _ = std::fs::remove_file(&partial_path);
    let names: Vec<String> = args
        .output
        .iter()
        .map(|p| p.display().to_string())
        .collect();
    writeln!(
        out,
        "{} positions within {} turns written to {} ({} solved, {:.1} s)",
        table.len(),
        args.depth,
        names.join(" and "),
        todo,
        started.elapsed().as_secs_f64()
    )?;
    Ok(())
}

/// The values kept by an interrupted run with the same rules and start, if any, and
/// whether the file ends in the middle of a line.
fn load_partial(path: &Path, header: &str) -> Result<(HashMap<Position, i32>, bool), CliError> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok((HashMap::new(), false)),
        Err(e) => return Err(file_error(path, e)),
    };
    let mut lines = text.lines();
    if lines.next() != Some(header) {
        // Another table's work: start afresh (the file is rewritten).
        return Ok((HashMap::new(), false));
    }
    let mut known = HashMap::new();
    // A line cut short by a crash fails to parse and is simply solved again.
    for line in lines {
        let Some((p, v)) = line.split_once(' ') else {
            continue;
        };
        if let (Ok(p), Ok(v)) = (p.parse::<Position>(), v.trim().parse::<i32>()) {
            known.insert(p, v);
        }
    }
    Ok((known, !text.ends_with('\n')))
}

/// The bin of each legal sowing, as the published notation numbers them.
fn bin(game: &Game, pos: &Position, house: usize) -> usize {
    notation::bin(game.houses(), pos.side_to_move(), house)
}

fn json_table(game: &Game, start: &Position, depth: u32, table: &[Entry]) -> String {
    let rules = game.rules();
    let positions: Vec<_> = table
        .iter()
        .map(|e| {
            json!({
                "position": e.position.to_string(),
                "side": e.position.side_to_move().to_string(),
                "turns": e.turns,
                "value": e.value,
                "best": e.best.map(|j| bin(game, &e.position, j)),
                "moves": e.moves.iter().map(|&(j, v)| json!({
                    "bin": bin(game, &e.position, j),
                    "value": v,
                })).collect::<Vec<_>>(),
            })
        })
        .collect();
    // The header first, then one position a line: a table that diffs and greps well.
    let header = json!({
        "rules": rules.to_string(),
        "houses": rules.houses,
        "seeds": rules.seeds,
        "capture": rules.capture.to_string(),
        "end": rules.end.to_string(),
        "leftovers": rules.leftovers.to_string(),
        "early_stop": rules.early_stop,
        "start": start.to_string(),
        "depth": depth,
        "values": "from South: final South store minus North store under perfect play",
        "count": table.len(),
    })
    .to_string();
    let mut text = header[..header.len() - 1].to_string();
    text.push_str(",\"positions\":[\n");
    let lines: Vec<String> = positions.iter().map(|p| p.to_string()).collect();
    text.push_str(&lines.join(",\n"));
    text.push_str("\n]}\n");
    text
}

fn csv_table(game: &Game, table: &[Entry]) -> String {
    let h = game.houses();
    let mut text = String::from("position,side,turns,value,best");
    for i in 1..=h {
        text.push_str(&format!(",house{i}"));
    }
    text.push('\n');
    for e in table {
        let mut cells = vec![h_cell(None); h];
        for &(j, v) in &e.moves {
            cells[j] = h_cell(Some(v));
        }
        text.push_str(&format!(
            "{},{},{},{},{},{}\n",
            csv_field(&e.position.to_string()),
            e.position.side_to_move(),
            e.turns,
            e.value,
            e.best
                .map_or(String::new(), |j| bin(game, &e.position, j).to_string()),
            cells.join(",")
        ));
    }
    text
}

fn h_cell(v: Option<i32>) -> String {
    v.map_or(String::new(), |v| v.to_string())
}
