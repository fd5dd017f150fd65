//! Bao's table for [`Board::export`](crate::game::Board::export): every position within
//! the depth ([`super`]), exact from the start's game graph solved within its
//! memory where it solves, else each analysed within the limits, the entries kept in the
//! partial file as records and taken from it on the next run; one output.

use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use kalah_core::bao::{BaoPosition, BaoRules};
use kalah_io::{Checks, Output};
use kalah_solver::bao::{BaoSolveError, GraphStop};
use serde_json::Value;

use super::{self as bao_table, AnalyseStop, TableError};
use crate::export::resume::ResumeError;
use crate::export::table::{bao as table, bao_written_line, TableFormat};
use crate::export::{Export, ExportError, ExportProgress};
use crate::game::bao_solve::{bao_solve_within, BAO_SOLVE_INTERRUPTED};
use crate::run::outputs;
use crate::run::progress::bao_graph_message;

/// Bao's table: every position within the depth, exact from the start's solved game graph
/// where it solves, else each analysed (resuming from the partial file), in one output.
pub(in crate::export) fn export(
    rules: &BaoRules,
    start: &BaoPosition,
    request: &Export,
    shown: &dyn ExportProgress,
    cancel: &AtomicBool,
) -> Result<String, ExportError> {
    let file = bao_file(request)?;
    let checks = Checks::of(outputs::TABLE, request.force)
        .reading(request.inputs.iter().map(std::path::PathBuf::as_path));
    let output = Output::open_with(file, &checks)?;
    let started = Instant::now();
    let rows = bao_table::reachable(start, request.depth)
        .map_err(|e| ExportError::Refused(e.to_string()))?;
    let exact = bao_table::solves_exactly(request.exact, request.limits.as_ref(), start);
    let entries = match exact {
        true => {
            shown.spinner();
            let solved = bao_solve_within(start, request.memory_mb, cancel, &mut |p| {
                shown.message(bao_graph_message(p))
            });
            shown.clear();
            let graph = solved.map_err(|e| match e {
                BaoSolveError::Stopped(GraphStop::Cancelled) => ExportError::Cancelled {
                    kept: BAO_SOLVE_INTERRUPTED.to_string(),
                },
                error => ExportError::Graph {
                    error,
                    memory_mb: request.memory_mb,
                },
            })?;
            rows.iter()
                .map(|r| bao_table::exact_entry(&graph, r))
                .collect()
        }
        false => {
            let partial = output.sibling(".partial");
            let entries = bao_analysed(
                rules,
                start,
                request,
                &rows,
                partial.as_deref(),
                shown,
                cancel,
            )?;
            if let Some(p) = &partial {
                let _ = std::fs::remove_file(p);
            }
            entries
        }
    };
    let text = match request.format_of(file) {
        TableFormat::Csv => table::table_csv(&entries),
        TableFormat::Json => table::table_json(&rules.to_string(), start, request.depth, &entries),
    };
    output.replace(text.as_bytes())?;
    let seconds = started.elapsed().as_secs_f64();
    Ok(bao_written_line(
        entries.len(),
        request.depth,
        file,
        exact,
        seconds,
    ))
}

/// The one file Bao's table goes to, the depth checked first.
fn bao_file(request: &Export) -> Result<&Path, ExportError> {
    if request.depth > bao_table::MAX_DEPTH {
        return Err(ExportError::Refused(
            TableError::TooDeep(request.depth).to_string(),
        ));
    }
    match request.outputs.as_slice() {
        [file] => Ok(file),
        _ => Err(ExportError::Refused(
            "--rules bao writes one table: give --output once".to_string(),
        )),
    }
}

/// The entries of `rows` by the anytime analysis within the limits asked (or the default
/// time), kept in `partial` as they come and taken from it where an interrupted run left
/// them. A partial file that cannot be used is refused with its reason.
fn bao_analysed(
    rules: &BaoRules,
    start: &BaoPosition,
    request: &Export,
    rows: &[bao_table::Row],
    partial: Option<&Path>,
    shown: &dyn ExportProgress,
    cancel: &AtomicBool,
) -> Result<Vec<Value>, ExportError> {
    let limits = bao_table::limits_or_default(request.limits);
    let header = bao_table::partial_header(rules, start, request.depth, &limits);
    let refused = |e: ResumeError| ExportError::Refused(e.to_string());
    let kept = bao_table::load_kept(partial, &header).map_err(refused)?;
    let file = match partial {
        Some(p) => Some(bao_table::start_partial(p, &header, &kept).map_err(refused)?),
        None => None,
    };
    let todo = rows
        .iter()
        .filter(|r| !kept.contains_key(&r.pos.to_string()))
        .count();
    if !kept.is_empty() {
        shown.say(&format!("resuming: {} values kept", kept.len()));
    }
    shown.bar(todo, "positions analysed");
    let entries = bao_table::analyse_rows(rows, &limits, kept, file.as_ref(), cancel, &mut || {
        shown.inc()
    });
    shown.clear();
    entries.map_err(|e| match e {
        AnalyseStop::Cancelled => ExportError::Cancelled {
            kept: match partial {
                Some(p) => format!(
                    "the values found so far are kept in {}; run the same command again to go on",
                    p.display()
                ),
                None => "nothing kept: the output is not a regular file".to_string(),
            },
        },
        AnalyseStop::Partial(e) => refused(e),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::export::tests::{request, Counted};
    use crate::game::Board;
    use crate::run::solving::tests::small_solving;
    use kalah_solver::Limits;
    use std::collections::HashMap;
    use std::sync::atomic::Ordering;

    /// A small position of Bao(4,2) whose graph solves at once (a draw).
    const E16: &str = "2,1,0,1/1,0,0,0/0,0,0,1/2,1,1,0:S";

    fn bao() -> (BaoRules, BaoPosition, Board) {
        let rules = BaoRules::new(4, 2).unwrap();
        let start: BaoPosition = E16.parse().unwrap();
        (rules, start, Board::Bao(rules, start))
    }

    #[test]
    fn bao_exact_writes_the_table_of_its_solved_graph() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("bao.json");
        let (rules, start, board) = bao();
        let asked = Export {
            exact: true,
            ..request(2, vec![file.clone()])
        };
        let never = AtomicBool::new(false);
        let line = board
            .export::<ExportError>(&asked, &small_solving(), &Counted::default(), &never)
            .unwrap();
        let graph = bao_solve_within(&start, 64, &never, &mut |_| {}).unwrap();
        let rows = bao_table::reachable(&start, 2).unwrap();
        let entries: Vec<Value> = rows
            .iter()
            .map(|r| bao_table::exact_entry(&graph, r))
            .collect();
        let table = table::table_json(&rules.to_string(), &start, 2, &entries);
        assert_eq!(std::fs::read_to_string(&file).unwrap(), table);
        let words = format!("{} positions within 2 moves written to ", rows.len());
        assert!(line.starts_with(&words), "{line}");
        assert!(line.contains("(exact, "), "{line}");
    }

    #[test]
    fn bao_analysed_resumes_from_its_partial_file_and_removes_it() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("bao.csv");
        let (rules, start, board) = bao();
        let limits = Limits::depth(2);
        let asked = Export {
            limits: Some(limits),
            ..request(1, vec![file.clone()])
        };
        let rows = bao_table::reachable(&start, 1).unwrap();
        let never = AtomicBool::new(false);
        let mut entries =
            bao_table::analyse_rows(&rows, &limits, HashMap::new(), None, &never, &mut || {})
                .unwrap();
        // An interrupted run kept the first row's entry (marked, to be told apart).
        entries[0]["depth"] = serde_json::json!(99);
        let partial = dir.path().join("bao.csv.partial");
        let header = bao_table::partial_header(&rules, &start, 1, &limits);
        let kept = HashMap::from([(rows[0].pos.to_string(), entries[0].clone())]);
        let f = bao_table::start_partial(&partial, &header, &kept).unwrap();
        drop(f);
        let shown = Counted::default();
        let line = board
            .export::<ExportError>(&asked, &small_solving(), &shown, &never)
            .unwrap();
        assert_eq!(
            std::fs::read_to_string(&file).unwrap(),
            table::table_csv(&entries)
        );
        assert_eq!(shown.done.load(Ordering::Relaxed), rows.len() - 1);
        assert_eq!(*shown.lines.lock().unwrap(), ["resuming: 1 values kept"]);
        assert!(!partial.exists());
        assert!(line.contains("(analysed, "), "{line}");
    }

    #[test]
    fn bao_writes_one_table_within_its_depth() {
        let (_, _, board) = bao();
        let never = AtomicBool::new(false);
        let refused = |asked: &Export| match board.export::<ExportError>(
            asked,
            &small_solving(),
            &Counted::default(),
            &never,
        ) {
            Err(ExportError::Refused(msg)) => msg,
            other => panic!("refused, not {other:?}"),
        };
        let two = request(1, vec!["a.json".into(), "b.csv".into()]);
        assert_eq!(
            refused(&two),
            "--rules bao writes one table: give --output once"
        );
        let deep = request(bao_table::MAX_DEPTH + 1, vec!["a.json".into()]);
        assert_eq!(
            refused(&deep),
            TableError::TooDeep(bao_table::MAX_DEPTH + 1).to_string()
        );
    }
}
