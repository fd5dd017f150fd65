//! `kalah batch`: many positions solved in parallel, answered as JSON lines in input order,
//! resumable after an interruption; the sowing games' and Bao's through one loop over the
//! library's `batch::Front`.

use std::io::Write;
use std::path::PathBuf;

use indicatif::ProgressBar;
use kalah_analysis::batch::parse_shard;
use kalah_analysis::batch::{
    BatchError, BatchGameError, BatchHow, BatchOptions, BatchPaths, BatchRun, BatchTick,
};
use kalah_solver::Limits;

use crate::analysis_io::{
    analysis_error, file_error, interrupt_flag, invalid, progress_bar, progress_counter,
};
use crate::args::{RulesArgs, BAO_HEADING};
use crate::error::CliError;
use crate::solving::{SetupSpinner, SolverArgs};

/// Solve many positions: one a line, answers as JSON lines in input order.
///
/// Each input line is a position in the board form (`4,4,0,5,5,0,2,5,5,5,5,4,4,0:N`) or the
/// move form (`3-6 9`: moves played from the start position of the rules given). `#` starts
/// a comment; blank lines are skipped. The input is read as it comes (a pipe is answered
/// while it is being written). Every other line gets one answer line: `{"line", "input",
/// "rules", "position", "value", "best_turn", "pv", "nodes", "seconds"}` (value from
/// South, principal variation replayed before writing), or `{"line", "input", "rules",
/// "error"}` for a line that cannot be read (not UTF-8 text, not a position); a bad line
/// never stops the batch.
///
/// A line may also be a work unit written by `kalah split` (a JSON object with "id",
/// "position", "window" and "rules"). Its answer adds "id" and "window" and, where the
/// value lies outside the window, states the bound proved instead of the value:
/// "at_least" (no "value", empty "pv") or "at_most". A file of units carries its rules:
/// without rule options the batch takes them from the first unit (rule options given
/// must agree with them).
///
/// --time S analyses each position for at most S seconds instead of solving it: an answer
/// the analysis proves is exact and written as without --time; any other is heuristic,
/// with "exact": false, "eval" (the heuristic evaluation from South) at "depth", the
/// proven interval "lower".."upper" (from South: the exact value lies in it), the
/// "best_turn" and "pv" guessed, and no "value" (merge refuses it). Without an endgame
/// database unless asked for (--egdb, --egdb-seeds).
///
/// --shard I/N answers only every N-th position, starting with the I-th (1-based), so N
/// jobs with I = 1..N share one input between them; each writes its own --output.
///
/// With --output FILE the answers go to FILE, each line written as soon as it and all
/// before it are done. FILE is checked before any work (a directory or a missing
/// directory is an error, and so is the INPUT itself, under any name, or the file on
/// standard input, --force or not), a FIFO or device
/// (`/dev/stdout`, or a link to one) is written straight through, and a file that holds
/// no answers of kalah batch, a read-only file or a symbolic link is refused unless
/// --force (which starts FILE afresh: a link is replaced, never its target). While the
/// run lasts a lock on FILE.kalah-lock beside it and on FILE itself keeps a second run
/// off the same file, under any name (a hard link). A write error (disk full, closed
/// pipe) stops the run with exit status 2, keeping the answers written.
///
/// An existing non-empty FILE is never overwritten: after an interruption (Ctrl-C keeps
/// every answer finished in order, `kill -9` at most half a line), run the same command
/// with --resume: the lines already answered are checked against the input and the rules
/// (other rules are refused), a half-written last line is dropped, and the rest is
/// appended, so nothing is lost or written twice. A finished FILE resumed adds nothing.
///
/// With --rules bao, Bao positions: each input line is a position (four rows and the side
/// to move, as --position takes it: `0,3,0,0/0,2,0,0/0,1,0,2/0,0,0,0:S`) of the batch's
/// board (--houses pits a row, default 8), or moves played from the start of the board
/// (`A3+ b8-`, with --seeds, default 2). By default each position is analysed for 1 second
/// (or --time, --nodes, --depth): an answer is exact (`"exact": true`, `"result"` win or
/// loss for the side to move within `"within_moves"`, `"value"` +1 or -1 from South) only
/// where the analysis proved a forced win; otherwise it is heuristic (`"exact": false`,
/// `"eval"` from South and `"eval_mover"` in points, 100 a seed, at `"depth"`, the
/// `"best_turn"` and `"pv"` guessed; a draw is never claimed). With --exact each
/// position's whole game graph is solved instead (small boards only: win, loss or draw
/// with its distance in `"plies"`); a graph larger than --memory-mb is answered with an
/// error line (docs/outputs.md). Positions of one graph (a game's later positions) are
/// answered from it without solving again. --output, --resume, --force and --shard work as
/// above; one position at a time, on one thread.
///
/// Example: `kalah batch positions.txt --houses 6 --seeds 4 --output answers.jsonl` or
/// `kalah batch --rules bao positions.txt --time 0.5 --output answers.jsonl`
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    files: BatchFiles,

    /// Analyse each position for at most SECONDS (decimals allowed) instead of solving
    /// it: exact where proved in time, else a heuristic answer with its proven interval
    #[arg(long, value_name = "SECONDS", value_parser = crate::args::parse_seconds)]
    time: Option<std::time::Duration>,

    #[command(flatten)]
    rules: RulesArgs,

    #[command(flatten)]
    solver: SolverArgs,

    /// Analyse each position for about N nodes (at least 1)
    #[arg(long, value_name = "N", help_heading = BAO_HEADING,
          value_parser = clap::value_parser!(u64).range(1..))]
    nodes: Option<u64>,

    /// Analyse each position to D moves (1 to 120)
    #[arg(long, value_name = "D", help_heading = BAO_HEADING,
          value_parser = clap::value_parser!(u8).range(1..=120))]
    depth: Option<u8>,

    /// Solve each position's whole game graph (exact win, loss or draw; small boards)
    #[arg(long, help_heading = BAO_HEADING, conflicts_with_all = ["time", "nodes", "depth"])]
    exact: bool,

    #[command(flatten)]
    graph: crate::solving::GraphArgs,
}

/// The input and output of a batch, and how they are shared out and resumed (the sowing
/// games' and Bao's).
#[derive(clap::Args, Debug)]
pub struct BatchFiles {
    /// The positions, one a line [default: standard input; `-` too]
    #[arg(value_name = "INPUT")]
    pub input: Option<PathBuf>,

    /// Write the answers to FILE instead of standard output
    #[arg(long, short, value_name = "FILE")]
    pub output: Option<PathBuf>,

    /// Continue the interrupted run whose answers are in --output (a missing or empty
    /// --output simply starts)
    #[arg(long, requires = "output")]
    pub resume: bool,

    /// Start afresh on an --output FILE that holds no answers of kalah batch, is
    /// read-only, or is a symbolic link (the link itself is replaced; its target is left
    /// alone); answers are never overwritten (--resume continues them)
    #[arg(long, requires = "output")]
    pub force: bool,

    /// Answer only shard I of N: the I-th position of the input, then every N-th after it
    #[arg(long, value_name = "I/N", value_parser = parse_shard)]
    pub shard: Option<(usize, usize)>,
}

impl BatchFiles {
    /// The files as the library's batch takes them.
    fn paths(&self) -> BatchPaths<'_> {
        BatchPaths {
            input: self.input.as_deref(),
            output: self.output.as_deref(),
            resume: self.resume,
            force: self.force,
            shard: self.shard,
        }
    }
}

/// Runs `kalah batch`: parses the options, runs the library's [`BatchRun`] (one loop for
/// both kinds of game) and draws its progress.
pub fn run(args: &Args, out: &mut dyn Write) -> Result<(), CliError> {
    // Catch Ctrl-C from the start, before the endgame database is built.
    interrupt_flag();
    let (time, nodes, depth) = (args.time, args.nodes, args.depth);
    let limits = Limits { time, nodes, depth };
    let batch = BatchRun {
        paths: args.files.paths(),
        options: BatchOptions {
            name: args.rules.preset,
            rules: args.rules.options(),
            rules_given: !args.rules.is_default(),
        },
        databases: args.solver.inputs(),
        how: BatchHow::of(limits, args.exact, args.graph.memory_mb),
    };
    let quiet = args.solver.quiet;
    let mut bar = ProgressBar::hidden();
    let setup = SetupSpinner::of(&args.solver);
    let solving = args.solver.solving(&setup);
    let end = batch.run::<CliError>(interrupt_flag(), &solving, out, &mut |tick| match tick {
        BatchTick::Start { len: Some(n) } => bar = progress_bar(quiet, n, "positions"),
        BatchTick::Start { len: None } => bar = progress_counter(quiet, "positions"),
        BatchTick::Line(line) => bar.println(line),
        BatchTick::Answered(note) => {
            bar.set_message(note);
            bar.inc(1);
        }
    });
    bar.finish_and_clear();
    if let Some(summary) = end?.summary().filter(|_| !quiet) {
        eprintln!("{summary}");
    }
    Ok(())
}

/// The command-line error of a batch that stopped.
impl From<BatchError> for CliError {
    fn from(e: BatchError) -> CliError {
        match e {
            BatchError::Output(e) => e.into(),
            BatchError::OpenInput { path, error } => file_error(&path, error),
            e @ BatchError::Read { .. } => CliError::Input(e.to_string()),
            BatchError::Game { error, input } => match error {
                BatchGameError::Board(e) => e.into(),
                e @ BatchGameError::Disagree(_) => invalid(format!("{input} {e}")),
                BatchGameError::Rules(e) => e.into(),
            },
            BatchError::Resume(e) => invalid(e.to_string()),
            BatchError::Stopped { error, kept } => analysis_error(error, &kept),
            BatchError::Write(e) => CliError::Io(e),
            BatchError::Solver(e) => e.into(),
        }
    }
}
