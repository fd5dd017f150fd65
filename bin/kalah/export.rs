//! `kalah export`: the evaluation table of every position within N turns of the start,
//! written atomically, with finished work kept across interruptions; either kind of game
//! (`--rules bao`: Bao's table) by the board's `kalah_analysis::game::Board::export`.

use std::io::Write;
use std::path::PathBuf;
use std::sync::Mutex;

use indicatif::ProgressBar;
use kalah_analysis::export::resume::ResumeError;
use kalah_analysis::export::table::TableFormat;
use kalah_analysis::export::{Export, ExportError, ExportProgress};

use crate::analysis_io::{
    analysis_error, file_error, interrupt_flag, interrupted, invalid, progress_bar,
};
use crate::args::{GameArgs, LimitArgs, BAO_HEADING};
use crate::error::CliError;
use crate::solving::{graph_error, spinner, SetupSpinner, SolverArgs};

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

/// Runs `kalah export`: the board's table ([`kalah_analysis::game::Board::export`]),
/// its progress on standard error and the line that says what was written.
pub fn run(args: &Args, out: &mut dyn Write) -> Result<(), CliError> {
    // Catch Ctrl-C from the start, before the endgame database is built.
    interrupt_flag();
    let board = args.game.board()?;
    let request = Export {
        depth: args.depth,
        outputs: args.output.clone(),
        force: args.force,
        format: args.format.map(|f| match f {
            Format::Json => TableFormat::Json,
            Format::Csv => TableFormat::Csv,
        }),
        inputs: args.solver.inputs(),
        exact: args.exact,
        limits: LimitArgs {
            time: args.time,
            nodes: args.nodes,
            depth: args.depth_limit,
        }
        .given(),
        memory_mb: args.graph.memory_mb,
    };
    let shown = Shown {
        quiet: args.solver.quiet,
        bar: Mutex::new(ProgressBar::hidden()),
    };
    let setup = SetupSpinner::of(&args.solver);
    let solving = args.solver.solving(&setup);
    let line = board.export::<ExportError>(&request, &solving, &shown, interrupt_flag())?;
    writeln!(out, "{line}")?;
    Ok(())
}

impl From<ExportError> for CliError {
    /// The command-line error of an export that wrote no table.
    fn from(e: ExportError) -> CliError {
        match e {
            ExportError::Refused(msg) => CliError::Input(msg),
            ExportError::TooLarge(msg) => invalid(msg),
            ExportError::Output(e) => CliError::Output(e),
            ExportError::Partial(ResumeError::Io { path, error }) => file_error(&path, error),
            ExportError::Partial(e @ ResumeError::Refused { .. }) => CliError::Input(e.to_string()),
            ExportError::Graph { error, memory_mb } => graph_error(error, memory_mb),
            ExportError::Cancelled { kept } => interrupted(&kept),
            ExportError::Analysis { error, kept } => analysis_error(error, &kept),
            ExportError::Solver(e) => e.into(),
        }
    }
}

/// The progress of an export on standard error: a bar (or spinner) while it works, hidden
/// with --quiet or off a terminal.
struct Shown {
    quiet: bool,
    bar: Mutex<ProgressBar>,
}

impl Shown {
    /// The bar or spinner now shown.
    fn current(&self) -> ProgressBar {
        self.bar.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// Shows `bar` from now on.
    fn show(&self, bar: ProgressBar) {
        *self.bar.lock().unwrap_or_else(|e| e.into_inner()) = bar;
    }
}

impl ExportProgress for Shown {
    fn warn(&self, line: &str) {
        eprintln!("{line}");
    }

    fn say(&self, line: &str) {
        if !self.quiet {
            eprintln!("{line}");
        }
    }

    fn bar(&self, len: usize, unit: &str) {
        self.show(progress_bar(self.quiet, len, unit));
    }

    fn spinner(&self) {
        self.show(spinner(self.quiet));
    }

    fn note(&self, line: &str) {
        self.current().println(line);
    }

    fn inc(&self) {
        self.current().inc(1);
    }

    fn message(&self, msg: String) {
        self.current().set_message(msg);
    }

    fn clear(&self) {
        self.current().finish_and_clear();
    }
}
