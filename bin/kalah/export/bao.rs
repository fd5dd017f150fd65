//! `kalah export --rules bao`: the table of every Bao position within N moves of the
//! start, each with its value (exact on boards whose game graph solves, else the anytime
//! analysis', labelled), written atomically, with finished values kept across
//! interruptions.

use std::collections::{HashMap, HashSet};
use std::io::Write;
use std::path::Path;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use kalah_analysis::export::resume::{load_records, Partial, ResumeError};
use kalah_analysis::{outputs, wire};
use kalah_core::bao::BaoPosition;
use kalah_io::{Checks, Header, Output};
use kalah_solver::bao::BaoSolved;
use kalah_solver::bao_search::{self, ScoreBound};
use kalah_solver::Limits;
use serde_json::{json, Value as Json};

use super::Format;
use crate::analysis_io::{interrupt_flag, interrupted, progress_bar};
use crate::args::LimitArgs;
use crate::error::CliError;
use crate::solve::bao::solved_within;

/// The most moves from the start a table covers.
const MAX_DEPTH: u32 = 40;
/// The most positions a table may hold.
const MAX_POSITIONS: usize = 1_000_000;
/// The analysis time a position when no limit is given (boards too large to solve).
const DEFAULT_SECONDS: f64 = 0.2;

/// One row of the table.
struct Row {
    pos: BaoPosition,
    turns: u32,
}

/// Runs `kalah export --rules bao`.
pub fn export(args: &super::Args, out: &mut dyn Write) -> Result<(), CliError> {
    interrupt_flag();
    if args.depth > MAX_DEPTH {
        return Err(CliError::Input(format!(
            "--depth {} is more than Bao's table covers: 0 to {MAX_DEPTH} moves",
            args.depth
        )));
    }
    let file = match args.output.as_slice() {
        [file] => file,
        _ => {
            return Err(CliError::Input(
                "--rules bao writes one table: give --output once".to_string(),
            ))
        }
    };
    let (rules, start) = args.game.bao_setup()?;
    let output = Output::open_with(file, &Checks::of(outputs::TABLE, args.force))?;
    let started = Instant::now();
    let rows = reachable(&start, args.depth)?;
    let exact = args.exact
        || (args.time.is_none()
            && args.nodes.is_none()
            && args.depth_limit.is_none()
            && kalah_analysis::play::bao_solves_quickly(&start));
    let rules_text = rules.to_string();
    let mut entries: Vec<Json> = Vec::with_capacity(rows.len());
    if exact {
        let (graph, _) = solved_within(&args.graph, args.solver.quiet, &start)?;
        entries.extend(rows.iter().map(|r| exact_entry(&graph, r)));
    } else {
        let limits = LimitArgs {
            time: args.time,
            nodes: args.nodes,
            depth: args.depth_limit,
        }
        .given()
        .unwrap_or_else(|| Limits::time(Duration::from_secs_f64(DEFAULT_SECONDS)));
        let header = Header::new(
            "bao-export-partial",
            &[
                ("rules", rules_text.clone()),
                ("start", start.to_string()),
                ("depth", args.depth.to_string()),
                ("limits", format!("{limits:?}")),
            ],
        );
        let partial = output.sibling(".partial");
        entries = analysed(args, &rows, &limits, &header, partial.as_deref())?;
        if let Some(p) = &partial {
            let _ = std::fs::remove_file(p);
        }
    }
    let csv = match args.format {
        Some(f) => f == Format::Csv,
        None => file
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("csv")),
    };
    let text = match csv {
        true => wire::bao::table_csv(&entries),
        false => wire::bao::table_json(&rules_text, &start, args.depth, &entries),
    };
    output.replace(text.as_bytes())?;
    writeln!(
        out,
        "{} positions within {} moves written to {} ({}, {:.1} s)",
        entries.len(),
        args.depth,
        file.display(),
        if exact { "exact" } else { "analysed" },
        started.elapsed().as_secs_f64()
    )?;
    Ok(())
}

/// Every position within `depth` moves of `start`, once each, in the order first reached
/// (breadth first), with the fewest moves that reach it.
fn reachable(start: &BaoPosition, depth: u32) -> Result<Vec<Row>, CliError> {
    let mut rows = vec![Row {
        pos: *start,
        turns: 0,
    }];
    let mut seen: HashSet<BaoPosition> = HashSet::from([*start]);
    let mut from = 0;
    for turns in 1..=depth {
        let level_end = rows.len();
        for i in from..level_end {
            let pos = rows[i].pos;
            for child in pos.legal().iter() {
                if seen.insert(child.next) {
                    rows.push(Row {
                        pos: child.next,
                        turns,
                    });
                }
            }
            if rows.len() > MAX_POSITIONS {
                return Err(CliError::Input(format!(
                    "more than {MAX_POSITIONS} positions within {depth} moves: give a smaller \
                     --depth"
                )));
            }
        }
        from = level_end;
    }
    Ok(rows)
}

/// A row's entry from the solved game graph.
fn exact_entry(graph: &BaoSolved, row: &Row) -> Json {
    let pos = &row.pos;
    let value = graph
        .value(pos)
        .expect("every reachable position is solved");
    let moves: Vec<Json> = graph
        .move_values(pos)
        .unwrap_or_default()
        .iter()
        .map(|(m, v)| {
            let mut entry = json!({ "move": m.to_string() });
            for (k, v) in wire::bao::exact_fields(pos.side(), *v) {
                entry[k] = v;
            }
            entry
        })
        .collect();
    let mut entry = json!({
        "position": pos.to_string(),
        "side": pos.side().to_string(),
        "turns": row.turns,
        "exact": true,
    });
    for (k, v) in wire::bao::exact_fields(pos.side(), value) {
        entry[k] = v;
    }
    entry["best"] = json!(graph.best_move(pos).map(|(m, _)| m.to_string()));
    entry["moves"] = json!(moves);
    entry
}

/// The entries of `rows` by the anytime analysis, each kept in `partial` as it comes and
/// taken from it where an interrupted run of this export left it (the partial file of the
/// sowing games' export, [`kalah_analysis::export::resume`], with `POSITION<tab>ENTRY`
/// records).
fn analysed(
    args: &super::Args,
    rows: &[Row],
    limits: &Limits,
    header: &Header,
    partial: Option<&Path>,
) -> Result<Vec<Json>, CliError> {
    let resume_error = |e: ResumeError| CliError::Input(e.to_string());
    let mut kept: HashMap<String, Json> = match partial {
        Some(p) => load_records(p, header, |r| {
            let (key, entry) = r.split_once('\t')?;
            Some((key.to_string(), serde_json::from_str::<Json>(entry).ok()?))
        })
        .map_err(resume_error)?
        .0
        .into_iter()
        .collect(),
        None => HashMap::new(),
    };
    let file = match partial {
        Some(p) => Some(
            Partial::start_with(p, header, kept.iter().map(|(k, e)| format!("{k}\t{e}")))
                .map_err(resume_error)?,
        ),
        None => None,
    };
    let todo = rows
        .iter()
        .filter(|r| !kept.contains_key(&r.pos.to_string()))
        .count();
    if !kept.is_empty() && !args.solver.quiet {
        eprintln!("resuming: {} values kept", kept.len());
    }
    let bar = progress_bar(args.solver.quiet, todo, "positions analysed");
    let cancel = interrupt_flag();
    let mut entries = Vec::with_capacity(rows.len());
    for row in rows {
        let key = row.pos.to_string();
        if let Some(e) = kept.remove(&key) {
            entries.push(e);
            continue;
        }
        let entry = analysed_entry(row, limits);
        if cancel.load(Ordering::Relaxed) {
            bar.finish_and_clear();
            return Err(interrupted(&match partial {
                Some(p) => format!(
                    "the values found so far are kept in {}; run the same command again \
                     to go on",
                    p.display()
                ),
                None => "nothing kept: the output is not a regular file".to_string(),
            }));
        }
        if let Some(f) = &file {
            if !f.add_record(&format!("{key}\t{entry}")) {
                f.failure().map_err(resume_error)?;
            }
        }
        entries.push(entry);
        bar.inc(1);
    }
    bar.finish_and_clear();
    Ok(entries)
}

/// A row's entry from the anytime analysis within `limits`.
fn analysed_entry(row: &Row, limits: &Limits) -> Json {
    let pos = &row.pos;
    let sign = pos.side().sign();
    let a = bao_search::analyse(pos, limits, interrupt_flag(), &mut |_| {});
    let moves: Vec<Json> = a
        .turns
        .iter()
        .map(|t| {
            // A mover's upper bound is South's lower bound when North moves.
            let bound = match (t.bound, sign > 0) {
                (ScoreBound::Exact, _) => "exact",
                (ScoreBound::Upper, true) => "at_most",
                (ScoreBound::Upper, false) => "at_least",
            };
            json!({
                "move": t.mv.to_string(),
                "eval": sign * t.score,
                "eval_mover": t.score,
                "bound": bound,
                "value": t.proven.map(|o| o.sign() * sign),
            })
        })
        .collect();
    let value = a.proven.map(|o| o.sign() * sign);
    json!({
        "position": pos.to_string(),
        "side": pos.side().to_string(),
        "turns": row.turns,
        "exact": value.is_some(),
        "value": value,
        "eval": a.eval_from_south(),
        "eval_mover": a.eval,
        "depth": a.depth,
        "best": a.best.map(|m| m.to_string()),
        "moves": moves,
    })
}
