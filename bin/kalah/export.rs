//! `kalah export`: the evaluation table of every position within N turns of the start,
//! written atomically, with finished work kept across interruptions. With `--rules bao`,
//! Bao's table (`kalah_analysis::export::bao`).

use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

use kalah_analysis::export::bao::{self as bao_table, AnalyseStop};
use kalah_analysis::export::resume::{self, Partial, ResumeError};
use kalah_analysis::export::{evaluate, max_positions, plan_bounded, Entry, Plan, PlanError};
use kalah_analysis::outputs;
use kalah_analysis::wire;
use kalah_analysis::wire::table::{bao_written_line, written_line, TableFormat};
use kalah_core::Position;
use kalah_io::{Checks, Header, Output};
use kalah_solver::Solver;

use crate::analysis_io::{
    analysis_error, file_error, interrupt_flag, interrupted, invalid, progress_bar,
};
use crate::args::{GameArgs, LimitArgs, BAO_HEADING};
use crate::error::CliError;
use crate::solving::{parallel_solver, SolverArgs};

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
/// The schema is in data/README.md.
///
/// Each FILE is checked before any work (a directory or a missing directory is an
/// error) and kept from other runs by a lock on FILE.kalah-lock beside it and on FILE
/// itself while this one lasts. The table is written to a temporary file beside FILE and
/// renamed at the end, so a crash never leaves half a table; an existing table is
/// replaced, but an existing file that is not a table written by kalah export, a
/// read-only file or a symbolic link is refused unless --force (which replaces the link
/// itself, never its target). A FIFO or device (`/dev/stdout`, or a link to one) is
/// written straight through instead, without resume. docs/outputs.md has the details.
///
/// The table is held in memory while it is built and written (about 1 KiB a position,
/// those just past the table included): an export whose positions, counted as they are
/// enumerated or estimated from the first turns, would not fit in the memory available is
/// refused before anything is solved, naming the deepest --depth that fits.
///
/// The values solved so far are kept in FILE.partial (of the first FILE) as they come,
/// each with a checksum; after an interruption (Ctrl-C, `kill -9`) the same command goes
/// on from there, solving again any value that fails its check. A FILE.partial of
/// another export (other rules, start or depth) is refused, saying what differs.
///
/// With --rules bao, the table of every Bao position within --depth moves (0 to 40) of the
/// start, each once, with the side to move, the fewest moves that reach it, its value from
/// South, its best move and every legal move's value, in one FILE. On a board whose game
/// graph solves by default (4×3 with 2 seeds, or fewer seeds), or with --exact, the graph
/// is solved once (within --memory-mb) and every value is exact (win, loss or draw).
/// Otherwise each position is analysed for --time seconds (default 0.2) or --nodes or
/// --depth-limit moves: `"exact": true` only where a forced win or loss is proven, else
/// `"eval"` (from South; `"eval_mover"` for the side to move) is a heuristic (points, 100
/// a seed) and each move's `"eval"` is the analysis' with its bound (a move's `"value"` is
/// set where its result is proven). The fields are those of docs/outputs.md. The values
/// found so far are kept in FILE.partial as they come, as above.
///
/// Example: `kalah export --houses 6 --seeds 4 --depth 2 --output book.json` or `kalah
/// export --rules bao --depth 2 --time 0.1 --output bao.json`
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Turns from the start to cover (Bao: moves)
    #[arg(long, value_name = "N")]
    depth: u32,

    /// The table file to write; give it twice (`-o book.json -o book.csv`) for both formats
    /// from one run
    #[arg(long, short, value_name = "FILE", required = true)]
    output: Vec<PathBuf>,

    /// Replace an existing FILE that is not a table written by kalah export, a read-only
    /// one, or a symbolic link (the link itself; its target is left alone)
    #[arg(long)]
    force: bool,

    /// Table format [default: from each file name: csv for .csv, json otherwise]
    #[arg(long, value_enum)]
    format: Option<Format>,

    #[command(flatten)]
    game: GameArgs,

    #[command(flatten)]
    solver: SolverArgs,

    /// Solve the start's whole game graph even where the board is large (it may not fit)
    #[arg(long, help_heading = BAO_HEADING, conflicts_with_all = ["time", "nodes", "depth_limit"])]
    exact: bool,

    /// Analyse each position for at most SECONDS (boards too large to solve)
    #[arg(long, value_name = "SECONDS", help_heading = BAO_HEADING,
          value_parser = crate::args::parse_seconds)]
    time: Option<std::time::Duration>,

    /// Analyse each position for about N nodes
    #[arg(long, value_name = "N", help_heading = BAO_HEADING,
          value_parser = clap::value_parser!(u64).range(1..))]
    nodes: Option<u64>,

    /// Analyse each position to D moves
    #[arg(long, value_name = "D", help_heading = BAO_HEADING,
          value_parser = clap::value_parser!(u8).range(1..=120))]
    depth_limit: Option<u8>,

    #[command(flatten)]
    graph: crate::solving::GraphArgs,
}

/// The options `--rules bao` takes besides the board's ([`crate::args::check_game`]).
pub const BAO_OPTIONS: &[&str] = &[
    "depth",
    "output",
    "force",
    "format",
    "exact",
    "time",
    "nodes",
    "depth-limit",
    "memory-mb",
    "quiet",
];

/// Runs `kalah export`.
pub fn run(args: &Args, out: &mut dyn Write) -> Result<(), CliError> {
    if args.game.rules.bao() {
        return bao_export(args, out);
    }
    // Catch Ctrl-C from the start, before the endgame database is built.
    interrupt_flag();
    let (game, start) = args.game.setup()?;
    // Every output is checked and locked before any work.
    let inputs = args.solver.inputs();
    let checks = Checks::of(outputs::TABLE, args.force).reading(inputs.iter().map(|p| p.as_path()));
    let outputs = args
        .output
        .iter()
        .map(|p| Output::open_with(p, &checks))
        .collect::<Result<Vec<_>, _>>()?;
    let started = Instant::now();
    // Bounded by the memory: a table too large is refused in its first turns, naming the
    // deepest --depth that fits, before anything is solved or allocated for it.
    let budget = max_positions(kalah_solver::egdb::file::available_memory());
    let plan =
        plan_bounded(&game, &start, args.depth, budget, interrupt_flag()).map_err(|e| match e {
            PlanError::Cancelled => interrupted("nothing solved yet"),
            e @ PlanError::TooLarge(_) => invalid(e.to_string()),
        })?;
    // The values solved so far are kept beside the first regular output (none for streams).
    let partial_path = outputs.iter().find_map(|o| o.sibling(".partial"));
    let header = resume::header(game.rules(), &start, args.depth);
    let known = load_kept(partial_path.as_deref(), &header)?;
    let todo = plan.to_solve(&known).len();
    let (solver, workers) =
        parallel_solver(&args.solver, &game, start.seeds_in_houses() as usize, todo)?;
    let partial = match &partial_path {
        Some(path) => Some(Partial::start(path, &header, &known).map_err(resume_error)?),
        None => None,
    };
    let table = solve(args, &solver, workers, &plan, &known, partial.as_ref())?;
    for output in &outputs {
        let text = match format(args, output.path()) {
            TableFormat::Json => wire::table::write_json(&game, &start, args.depth, &table),
            TableFormat::Csv => wire::table::write_csv(&game, &table),
        };
        output.replace(text.as_bytes())?;
    }
    if let Some(path) = &partial_path {
        let _ = std::fs::remove_file(path);
    }
    let seconds = started.elapsed().as_secs_f64();
    let line = written_line(table.len(), args.depth, &args.output, todo, seconds);
    writeln!(out, "{line}")?;
    Ok(())
}

/// The format of the table written to `path`: `--format`, else from its extension.
fn format(args: &Args, path: &Path) -> TableFormat {
    match args.format {
        Some(Format::Json) => TableFormat::Json,
        Some(Format::Csv) => TableFormat::Csv,
        None => TableFormat::of_path(path),
    }
}

/// The values an interrupted run of this export kept at `path`, warning about the
/// records that failed their check (they are solved again).
fn load_kept(path: Option<&Path>, header: &Header) -> Result<HashMap<Position, i32>, CliError> {
    let Some(path) = path else {
        return Ok(HashMap::new());
    };
    let kept = resume::load(path, header).map_err(resume_error)?;
    if kept.damaged > 0 {
        eprintln!(
            "warning: {} values in {} failed their check and are solved again",
            kept.damaged,
            path.display()
        );
    }
    Ok(kept.values)
}

/// Solves the table with a progress bar, each value going to `partial` as it comes; a
/// failed write stops the run as Ctrl-C does.
fn solve(
    args: &Args,
    solver: &Solver,
    workers: usize,
    plan: &Plan,
    known: &HashMap<Position, i32>,
    partial: Option<&Partial>,
) -> Result<Vec<Entry>, CliError> {
    let todo = plan.to_solve(known).len();
    let bar = progress_bar(args.solver.quiet, todo, "positions past the table solved");
    if let (false, Some(partial)) = (known.is_empty(), partial) {
        bar.println(format!(
            "resuming: {} values kept in {}",
            known.len(),
            partial.path().display()
        ));
    }
    let result = evaluate(solver, plan, known, workers, interrupt_flag(), &|p, v| {
        if partial.is_some_and(|f| !f.add(p, v)) {
            interrupt_flag().store(true, std::sync::atomic::Ordering::Relaxed);
        }
        bar.inc(1);
    });
    bar.finish_and_clear();
    if let Some(partial) = partial {
        partial.failure().map_err(resume_error)?;
    }
    let kept = match partial {
        Some(partial) => format!(
            "the values solved so far are kept in {}; run the same command again to go on",
            partial.path().display()
        ),
        None => "nothing kept: the outputs are not regular files".to_string(),
    };
    result.map_err(|e| analysis_error(e, &kept))
}

/// The command-line error for a partial file that could not be read, written or used.
fn resume_error(e: ResumeError) -> CliError {
    match e {
        ResumeError::Io { path, error } => file_error(&path, error),
        e @ ResumeError::Refused { .. } => CliError::Input(e.to_string()),
    }
}

/// Runs `kalah export --rules bao`: Bao's table, exact where the start's graph is solved,
/// else the anytime analysis', labelled (its finished entries kept across interruptions).
fn bao_export(args: &Args, out: &mut dyn Write) -> Result<(), CliError> {
    interrupt_flag();
    if args.depth > bao_table::MAX_DEPTH {
        return Err(CliError::Input(
            bao_table::TableError::TooDeep(args.depth).to_string(),
        ));
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
    let rows =
        bao_table::reachable(&start, args.depth).map_err(|e| CliError::Input(e.to_string()))?;
    let given = LimitArgs {
        time: args.time,
        nodes: args.nodes,
        depth: args.depth_limit,
    }
    .given();
    let exact = bao_table::solves_exactly(args.exact, given.as_ref(), &start);
    let entries = match exact {
        true => {
            let (graph, _) = crate::solving::solved_within(&args.graph, args.solver.quiet, &start)?;
            rows.iter()
                .map(|r| bao_table::exact_entry(&graph, r))
                .collect()
        }
        false => {
            let limits = bao_table::limits_or_default(given);
            let header = bao_table::partial_header(&rules, &start, args.depth, &limits);
            let partial = output.sibling(".partial");
            let entries = bao_analysed(args, &rows, &limits, &header, partial.as_deref())?;
            if let Some(p) = &partial {
                let _ = std::fs::remove_file(p);
            }
            entries
        }
    };
    let text = match format(args, file) {
        TableFormat::Csv => wire::bao::table_csv(&entries),
        TableFormat::Json => {
            wire::bao::table_json(&rules.to_string(), &start, args.depth, &entries)
        }
    };
    output.replace(text.as_bytes())?;
    let seconds = started.elapsed().as_secs_f64();
    let line = bao_written_line(entries.len(), args.depth, file, exact, seconds);
    writeln!(out, "{line}")?;
    Ok(())
}

/// The entries of `rows` by the anytime analysis within `limits`, with a progress bar,
/// kept in `partial` as they come and taken from it where an interrupted run left them.
fn bao_analysed(
    args: &Args,
    rows: &[bao_table::Row],
    limits: &kalah_solver::Limits,
    header: &Header,
    partial: Option<&Path>,
) -> Result<Vec<serde_json::Value>, CliError> {
    let resume_error = |e: ResumeError| CliError::Input(e.to_string());
    let kept = bao_table::load_kept(partial, header).map_err(resume_error)?;
    let file = match partial {
        Some(p) => Some(bao_table::start_partial(p, header, &kept).map_err(resume_error)?),
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
    let entries = bao_table::analyse_rows(
        rows,
        limits,
        kept,
        file.as_ref(),
        interrupt_flag(),
        &mut || bar.inc(1),
    );
    bar.finish_and_clear();
    entries.map_err(|e| match e {
        AnalyseStop::Cancelled => interrupted(&match partial {
            Some(p) => format!(
                "the values found so far are kept in {}; run the same command again to go on",
                p.display()
            ),
            None => "nothing kept: the output is not a regular file".to_string(),
        }),
        AnalyseStop::Partial(e) => resume_error(e),
    })
}
