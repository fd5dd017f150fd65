//! `kalah batch --rules bao`: many Bao positions answered as JSON lines in input order, by
//! the anytime analysis within limits or, with `--exact`, by solving each game graph;
//! resumable after an interruption, like the batch of the sowing games.

use std::io::{self, Write};
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use kalah_analysis::batch::resume::{resume, Resume, ResumeError};
use kalah_analysis::batch::{read_ahead, Item, Lines, Sharded};
use kalah_analysis::setup::bao as bao_setup;
use kalah_analysis::wire::bao::{self as wire_bao, BaoAnswer};
use kalah_core::bao::{BaoPosition, BaoRules};
use kalah_solver::bao::BAO_BYTES_PER_POSITION;
use kalah_solver::bao::{solve_position, BaoSolveError, BaoSolved, GraphStop};
use kalah_solver::bao_search;
use kalah_solver::Limits;
use serde_json::Value as Json;

use super::{drop_unfinished, kept, open_input};
use crate::analysis_io::{interrupt_flag, invalid, progress_bar, progress_counter};
use crate::args::LimitArgs;
use crate::error::CliError;

/// The analysis time a position when no limit is given.
const DEFAULT_SECONDS: f64 = 1.0;

/// How the positions are answered.
enum Mode {
    /// The anytime analysis within these limits.
    Analyse(Limits),
    /// The whole game graph, within this many positions; the last graph solved is kept.
    Exact {
        limit: u64,
        last: Option<Box<BaoSolved>>,
    },
}

/// Runs `kalah batch --rules bao`.
pub fn batch(args: &super::Args, out: &mut dyn Write) -> Result<(), CliError> {
    interrupt_flag();
    let houses = args
        .rules
        .houses
        .map_or(bao_setup::DEFAULT_PITS, usize::from);
    let seeds = args
        .rules
        .seeds
        .map_or(bao_setup::DEFAULT_SEEDS, usize::from);
    let rules = BaoRules::new(houses, seeds)?;
    let quiet = args.solver.quiet;
    let rules_text = rules.to_string();
    let output = args.files.open_output(&[])?;
    let (reader, count) = open_input(args.files.input.as_deref(), args.files.shard)?;
    let mut lines = Sharded::new(Lines::new(reader), args.files.shard);
    let input_name = args.files.input_name();
    let read_error = |e: io::Error| CliError::Input(format!("cannot read {input_name}: {e}"));
    let at = match &output {
        None => Resume {
            answered: 0,
            length: 0,
        },
        Some(o) => {
            let existing = o.existing()?.unwrap_or_default();
            resume(
                &existing,
                o.path(),
                args.files.resume,
                &mut lines,
                &rules_text,
            )
            .map_err(|e| match e {
                ResumeError::Read(e) => read_error(e),
                e => invalid(e.to_string()),
            })?
        }
    };
    let skip = at.answered;
    let (ahead, failed) = read_ahead(&mut lines, 1);
    if ahead.is_empty() && failed.is_none() {
        drop_unfinished(output.as_ref(), &at)?;
        if skip > 0 && !quiet {
            eprintln!("all {skip} positions were already answered");
        }
        return Ok(());
    }
    let mut file = match &output {
        Some(o) => Some(o.append(at.length)?),
        None => None,
    };
    let sink: &mut dyn Write = match file.as_mut() {
        Some(f) => f,
        None => &mut *out,
    };
    let bar = match count {
        Some(n) => progress_bar(quiet, n - skip, "positions"),
        None => progress_counter(quiet, "positions"),
    };
    if skip > 0 {
        bar.println(format!(
            "resuming after the {skip} positions already answered"
        ));
    }
    let mut mode = match args.exact {
        true => Mode::Exact {
            limit: args.graph.memory_mb * (1 << 20) / BAO_BYTES_PER_POSITION,
            last: None,
        },
        false => Mode::Analyse(
            LimitArgs {
                time: args.time,
                nodes: args.nodes,
                depth: args.depth,
            }
            .given()
            .unwrap_or_else(|| Limits::time(Duration::from_secs_f64(DEFAULT_SECONDS))),
        ),
    };
    let mut answered = 0;
    let items = ahead
        .into_iter()
        .map(Ok)
        .chain(failed.map(Err))
        .chain(lines);
    for item in items {
        let item = item.map_err(read_error)?;
        let Some(answer) = answer(&item, &rules, &mut mode) else {
            break; // interrupted: the unfinished answer is not written
        };
        writeln!(sink, "{answer}")
            .and_then(|()| sink.flush())
            .map_err(|e| match &output {
                Some(o) => CliError::Output(o.error(e)),
                None => CliError::Io(e),
            })?;
        answered += 1;
        bar.set_message(format!("line {}", item.line));
        bar.inc(1);
    }
    bar.finish_and_clear();
    if let Some(f) = file {
        f.sync_all().ok();
    }
    if interrupt_flag().load(Ordering::Relaxed) {
        let kept = kept(output.as_ref(), skip, answered);
        return Err(crate::analysis_io::interrupted(&kept));
    }
    Ok(())
}

/// The position of an input line: four rows and a side, or moves from the start.
fn position(text: &str, rules: &BaoRules) -> Result<BaoPosition, String> {
    let (board, moves) = match text.contains(':') {
        true => (Some(text), ""),
        false => (None, text),
    };
    bao_setup::position(rules, board, bao_setup::split_moves(moves)).map_err(|e| e.to_string())
}

/// The answer line of `item`, or `None` where Ctrl-C stopped its work.
fn answer(item: &Item, rules: &BaoRules, mode: &mut Mode) -> Option<Json> {
    let line = |result: Result<(&BaoPosition, BaoAnswer, f64), &dyn std::fmt::Display>| {
        wire_bao::answer_line(item.line, &item.input, rules, result)
    };
    if !item.utf8 {
        return Some(line(Err(&"the line is not UTF-8 text")));
    }
    let pos = match position(&item.input, rules) {
        Ok(pos) => pos,
        Err(e) => return Some(line(Err(&e))),
    };
    let cancel = interrupt_flag();
    let started = Instant::now();
    let seconds = || started.elapsed().as_secs_f64();
    match mode {
        Mode::Analyse(limits) => {
            let r = bao_search::analyse(&pos, limits, cancel, &mut |_| {});
            if cancel.load(Ordering::Relaxed) {
                return None;
            }
            Some(line(Ok((&pos, BaoAnswer::Analysed(&r), seconds()))))
        }
        Mode::Exact { limit, last } => {
            let known = last.as_ref().is_some_and(|s| s.value(&pos).is_some());
            if !known {
                match solve_position(&pos, *limit, cancel, &mut |_| {}) {
                    Ok(s) => *last = Some(Box::new(s)),
                    Err(BaoSolveError::Stopped(GraphStop::Cancelled)) => return None,
                    Err(e) => return Some(line(Err(&e))),
                }
            }
            let solved = last.as_ref().expect("a graph holding the position");
            let pv = solved.line(&pos);
            let exact = BaoAnswer::Exact {
                value: solved.value(&pos).expect("the graph holds its root"),
                best: solved.best_move(&pos).map(|(m, _)| m),
                pv: &pv,
                positions: solved.stats().positions,
                reused: known,
            };
            Some(line(Ok((&pos, exact, seconds()))))
        }
    }
}
