//! The evaluation table of either kind of game, for `kalah export`: the command sets up a
//! [`Board`], says what it asks ([`Export`]) and calls [`Board::export`]; the outputs
//! checked and locked, the table built (a sowing game's by its parallel solver over the
//! plan, `crate::export`; Bao's rows exact from the solved game graph or analysed,
//! `crate::export::bao`), its finished values kept in a partial file across interruptions,
//! and the table written stay behind it. The command shows the progress
//! ([`ExportProgress`]) and prints the line returned.

use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use kalah_core::bao::{BaoPosition, BaoRules};
use kalah_core::{Game, Position};
use kalah_io::{Checks, Output, OutputError};
use kalah_solver::bao::BaoSolveError;
use kalah_solver::egdb::file::available_memory;
use kalah_solver::{Limits, Solver};
use serde_json::Value;

use super::{bao_solve_within, Board};
use crate::export::bao::{self as bao_table, AnalyseStop, TableError};
use crate::export::resume::{self, Partial, ResumeError};
use crate::export::{evaluate, max_positions, plan_bounded, PlanError};
use crate::progress::bao_graph_message;
use crate::wire::table::{bao_written_line, written_line, TableFormat};
use crate::{outputs, wire, AnalysisError};

/// What an export asks, whatever the game.
#[derive(Clone, Debug)]
pub struct Export {
    /// Turns from the start to cover (Bao: moves).
    pub depth: u32,
    /// The table files to write (Bao's table: exactly one).
    pub outputs: Vec<PathBuf>,
    /// Replace a file that is not a table, a read-only one or a symbolic link.
    pub force: bool,
    /// The format of every file, else each file's from its name ([`TableFormat::of_path`]).
    pub format: Option<TableFormat>,
    /// The files a sowing game's solve reads (endgame databases), never replaced by an
    /// output; Bao reads none.
    pub inputs: Vec<PathBuf>,
    /// Bao: solve the start's whole game graph even where the board is large.
    pub exact: bool,
    /// Bao: the analysis' limits given, if any ([`bao_table::solves_exactly`]).
    pub limits: Option<Limits>,
    /// Bao: the memory the game graph may take, in megabytes.
    pub memory_mb: u64,
}

/// How an export shows its progress (on standard error, as the command likes). `Sync`:
/// a sowing game's values are counted from its solver's threads.
pub trait ExportProgress: Sync {
    /// A warning, always shown.
    fn warn(&self, line: &str);
    /// A line of news, shown unless the command is quiet.
    fn say(&self, line: &str);
    /// Work of `len` `unit` begins (a bar counts it).
    fn bar(&self, len: usize, unit: &str);
    /// Work of unknown length begins (a spinner shows its messages).
    fn spinner(&self);
    /// A line shown above the bar, where the bar is shown.
    fn note(&self, line: &str);
    /// One more of the bar's units done.
    fn inc(&self);
    /// The spinner's message.
    fn message(&self, msg: String);
    /// The bar or spinner is done: cleared.
    fn clear(&self);
}

/// Why an export wrote no table.
#[derive(Debug)]
pub enum ExportError {
    /// The request does not fit the game; the message says what to change.
    Refused(String),
    /// The table would not fit in the memory available; the message names the deepest
    /// depth that does.
    TooLarge(String),
    /// An output could not be checked, locked or written.
    Output(OutputError),
    /// A sowing game's partial file could not be read, written or used.
    Partial(ResumeError),
    /// Bao's game graph could not be solved (larger than its memory).
    Graph {
        /// Why.
        error: BaoSolveError,
        /// The memory it was given, in megabytes.
        memory_mb: u64,
    },
    /// Interrupted: `kept` says what was kept for the next run.
    Cancelled {
        /// What was kept, in words.
        kept: String,
    },
    /// A sowing game's solve failed; `kept` says what was kept.
    Analysis {
        /// The failure.
        error: AnalysisError,
        /// What was kept, in words.
        kept: String,
    },
}

impl fmt::Display for ExportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExportError::Refused(msg) | ExportError::TooLarge(msg) => write!(f, "{msg}"),
            ExportError::Output(e) => write!(f, "{e}"),
            ExportError::Partial(e) => write!(f, "{e}"),
            ExportError::Graph { error, .. } => write!(f, "{error}"),
            ExportError::Cancelled { kept } => write!(f, "interrupted: {kept}"),
            ExportError::Analysis { error, kept } => write!(f, "{error}: {kept}"),
        }
    }
}

impl std::error::Error for ExportError {}

impl From<OutputError> for ExportError {
    fn from(e: OutputError) -> ExportError {
        ExportError::Output(e)
    }
}

/// What an interrupted solve of Bao's game graph keeps: nothing.
pub const GRAPH_INTERRUPTED: &str = "nothing is solved until the whole graph is; --time S \
     gives the anytime analysis's best move and what it proves";

impl Export {
    /// The format of the table written to `path`: the one asked for, else from its name.
    pub fn format_of(&self, path: &Path) -> TableFormat {
        self.format.unwrap_or_else(|| TableFormat::of_path(path))
    }
}

impl Board {
    /// Exports the table `request` asks of this position and returns the line that says
    /// what was written. A sowing game's solver and its number of workers come from
    /// `sowing` (given the game, the position and how many values are to be solved; the
    /// command's options make it); Bao needs none. `cancel` stops the work, what was
    /// finished kept in the partial file beside the (first) output.
    pub fn export<E: From<ExportError>>(
        &self,
        request: &Export,
        sowing: impl FnOnce(&Game, &Position, usize) -> Result<(Solver, usize), E>,
        shown: &dyn ExportProgress,
        cancel: &AtomicBool,
    ) -> Result<String, E> {
        match self {
            Board::Sowing(game, start) => {
                sowing_export(game, start, request, sowing, shown, cancel)
            }
            Board::Bao(rules, start) => Ok(bao_export(rules, start, request, shown, cancel)?),
        }
    }
}

/// A sowing game's table: planned within the memory available, its frontier solved in
/// parallel (resuming from the partial file), written to every output.
fn sowing_export<E: From<ExportError>>(
    game: &Game,
    start: &Position,
    request: &Export,
    sowing: impl FnOnce(&Game, &Position, usize) -> Result<(Solver, usize), E>,
    shown: &dyn ExportProgress,
    cancel: &AtomicBool,
) -> Result<String, E> {
    // Every output is checked and locked before any work.
    let checks = Checks::of(outputs::TABLE, request.force)
        .reading(request.inputs.iter().map(PathBuf::as_path));
    let outputs = request
        .outputs
        .iter()
        .map(|p| Output::open_with(p, &checks))
        .collect::<Result<Vec<_>, _>>()
        .map_err(ExportError::from)?;
    let started = Instant::now();
    // Bounded by the memory: a table too large is refused in its first turns, naming the
    // deepest depth that fits, before anything is solved or allocated for it.
    let budget = max_positions(available_memory());
    let plan = plan_bounded(game, start, request.depth, budget, cancel).map_err(|e| match e {
        PlanError::Cancelled => ExportError::Cancelled {
            kept: "nothing solved yet".to_string(),
        },
        e @ PlanError::TooLarge(_) => ExportError::TooLarge(e.to_string()),
    })?;
    // The values solved so far are kept beside the first regular output (none for streams).
    let partial_path = outputs.iter().find_map(|o| o.sibling(".partial"));
    let header = resume::header(game.rules(), start, request.depth);
    let known = match &partial_path {
        Some(path) => {
            let kept = resume::load(path, &header).map_err(ExportError::Partial)?;
            if kept.damaged > 0 {
                shown.warn(&format!(
                    "warning: {} values in {} failed their check and are solved again",
                    kept.damaged,
                    path.display()
                ));
            }
            kept.values
        }
        None => HashMap::new(),
    };
    let todo = plan.to_solve(&known).len();
    let (solver, workers) = sowing(game, start, todo)?;
    let partial = match &partial_path {
        Some(path) => Some(Partial::start(path, &header, &known).map_err(ExportError::Partial)?),
        None => None,
    };
    shown.bar(todo, "positions past the table solved");
    if let (false, Some(partial)) = (known.is_empty(), &partial) {
        shown.note(&format!(
            "resuming: {} values kept in {}",
            known.len(),
            partial.path().display()
        ));
    }
    // A failed write to the partial file stops the run as a cancel does.
    let result = evaluate(&solver, &plan, &known, workers, cancel, &|p, v| {
        if partial.as_ref().is_some_and(|f| !f.add(p, v)) {
            cancel.store(true, Ordering::Relaxed);
        }
        shown.inc();
    });
    shown.clear();
    if let Some(partial) = &partial {
        partial.failure().map_err(ExportError::Partial)?;
    }
    let table = result.map_err(|error| {
        let kept = match &partial {
            Some(partial) => format!(
                "the values solved so far are kept in {}; run the same command again to go on",
                partial.path().display()
            ),
            None => "nothing kept: the outputs are not regular files".to_string(),
        };
        match error {
            AnalysisError::Cancelled => ExportError::Cancelled { kept },
            error => ExportError::Analysis { error, kept },
        }
    })?;
    for output in &outputs {
        let text = match request.format_of(output.path()) {
            TableFormat::Json => wire::table::write_json(game, start, request.depth, &table),
            TableFormat::Csv => wire::table::write_csv(game, &table),
        };
        output.replace(text.as_bytes()).map_err(ExportError::from)?;
    }
    if let Some(path) = &partial_path {
        let _ = std::fs::remove_file(path);
    }
    let seconds = started.elapsed().as_secs_f64();
    Ok(written_line(
        table.len(),
        request.depth,
        &request.outputs,
        todo,
        seconds,
    ))
}

/// Bao's table: every position within the depth, exact from the start's solved game graph
/// where it solves, else each analysed (resuming from the partial file), in one output.
fn bao_export(
    rules: &BaoRules,
    start: &BaoPosition,
    request: &Export,
    shown: &dyn ExportProgress,
    cancel: &AtomicBool,
) -> Result<String, ExportError> {
    let file = bao_file(request)?;
    let output = Output::open_with(file, &Checks::of(outputs::TABLE, request.force))?;
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
                BaoSolveError::Stopped(kalah_solver::bao::GraphStop::Cancelled) => {
                    ExportError::Cancelled {
                        kept: GRAPH_INTERRUPTED.to_string(),
                    }
                }
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
        TableFormat::Csv => wire::bao::table_csv(&entries),
        TableFormat::Json => {
            wire::bao::table_json(&rules.to_string(), start, request.depth, &entries)
        }
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
    use crate::export::plan;
    use kalah_core::Rules;
    use std::sync::atomic::AtomicUsize;
    use std::sync::Mutex;

    /// A small position of Bao(4,2) whose graph solves at once (a draw).
    const E16: &str = "2,1,0,1/1,0,0,0/0,0,0,1/2,1,1,0:S";

    /// The progress of a test: the units counted and the lines said.
    #[derive(Default)]
    struct Counted {
        done: AtomicUsize,
        lines: Mutex<Vec<String>>,
    }

    impl ExportProgress for Counted {
        fn warn(&self, line: &str) {
            self.lines.lock().unwrap().push(line.to_string());
        }
        fn say(&self, line: &str) {
            self.lines.lock().unwrap().push(line.to_string());
        }
        fn bar(&self, _: usize, _: &str) {}
        fn spinner(&self) {}
        fn note(&self, line: &str) {
            self.lines.lock().unwrap().push(line.to_string());
        }
        fn inc(&self) {
            self.done.fetch_add(1, Ordering::Relaxed);
        }
        fn message(&self, _: String) {}
        fn clear(&self) {}
    }

    fn request(depth: u32, outputs: Vec<PathBuf>) -> Export {
        Export {
            depth,
            outputs,
            force: false,
            format: None,
            inputs: Vec::new(),
            exact: false,
            limits: None,
            memory_mb: 64,
        }
    }

    fn bao() -> (BaoRules, BaoPosition, Board) {
        let rules = BaoRules::new(4, 2).unwrap();
        let start: BaoPosition = E16.parse().unwrap();
        (rules, start, Board::Bao(rules, start))
    }

    /// Bao needs no solver.
    fn no_solver(_: &Game, _: &Position, _: usize) -> Result<(Solver, usize), ExportError> {
        panic!("Bao needs no solver")
    }

    fn solver(game: &Game) -> Solver {
        let config = kalah_solver::Config {
            threads: 1,
            hash_mb: 1,
            ..kalah_solver::Config::default()
        };
        Solver::new(game.clone(), config).unwrap()
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
            .export(&asked, no_solver, &Counted::default(), &never)
            .unwrap();
        let graph = bao_solve_within(&start, 64, &never, &mut |_| {}).unwrap();
        let rows = bao_table::reachable(&start, 2).unwrap();
        let entries: Vec<Value> = rows
            .iter()
            .map(|r| bao_table::exact_entry(&graph, r))
            .collect();
        let table = wire::bao::table_json(&rules.to_string(), &start, 2, &entries);
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
        let line = board.export(&asked, no_solver, &shown, &never).unwrap();
        assert_eq!(
            std::fs::read_to_string(&file).unwrap(),
            wire::bao::table_csv(&entries)
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
        let refused =
            |asked: &Export| match board.export(asked, no_solver, &Counted::default(), &never) {
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

    #[test]
    fn a_sowing_table_is_the_plan_evaluated_in_every_format() {
        let dir = tempfile::tempdir().unwrap();
        let (json, csv) = (dir.path().join("t.json"), dir.path().join("t.csv"));
        let game = Game::new(Rules::kalah(3, 2)).unwrap();
        let start = game.start();
        let board = Board::Sowing(Box::new(game.clone()), start);
        let never = AtomicBool::new(false);
        let asked = request(2, vec![json.clone(), csv.clone()]);
        let mut asked_todo = None;
        let shown = Counted::default();
        let line = board
            .export(
                &asked,
                |g, _, todo| {
                    asked_todo = Some(todo);
                    Ok::<_, ExportError>((solver(g), 1))
                },
                &shown,
                &never,
            )
            .unwrap();
        let plan = plan(&game, &start, 2);
        let todo = plan.to_solve(&HashMap::new()).len();
        assert_eq!(asked_todo, Some(todo));
        assert_eq!(shown.done.load(Ordering::Relaxed), todo);
        let table = evaluate(
            &solver(&game),
            &plan,
            &HashMap::new(),
            1,
            &never,
            &|_, _| {},
        )
        .unwrap();
        assert_eq!(
            std::fs::read_to_string(&json).unwrap(),
            wire::table::write_json(&game, &start, 2, &table)
        );
        assert_eq!(
            std::fs::read_to_string(&csv).unwrap(),
            wire::table::write_csv(&game, &table)
        );
        let words = format!(
            "{} positions within 2 turns written to {} and {} ({todo} solved, ",
            table.len(),
            json.display(),
            csv.display()
        );
        assert!(line.starts_with(&words), "{line}");
        assert!(!dir.path().join("t.json.partial").exists());
    }

    #[test]
    fn a_cancelled_sowing_export_says_what_it_kept() {
        let dir = tempfile::tempdir().unwrap();
        let game = Game::new(Rules::kalah(3, 2)).unwrap();
        let board = Board::Sowing(Box::new(game.clone()), game.start());
        let cancelled = AtomicBool::new(true);
        let asked = request(2, vec![dir.path().join("t.json")]);
        let r = board.export(
            &asked,
            |g, _, _| Ok::<_, ExportError>((solver(g), 1)),
            &Counted::default(),
            &cancelled,
        );
        assert!(matches!(&r, Err(ExportError::Cancelled { .. })), "{r:?}");
        assert!(!dir.path().join("t.json").exists());
    }

    #[test]
    fn the_format_asked_for_wins_over_the_name() {
        let asked = Export {
            format: Some(TableFormat::Csv),
            ..request(1, Vec::new())
        };
        assert_eq!(asked.format_of(Path::new("t.json")), TableFormat::Csv);
        assert_eq!(
            request(1, Vec::new()).format_of(Path::new("t.csv")),
            TableFormat::Csv
        );
    }
}
