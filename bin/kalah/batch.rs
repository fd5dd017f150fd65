//! `kalah batch`: many positions solved in parallel, answered as JSON lines in input order,
//! resumable after an interruption; the sowing games' and Bao's through one loop over the
//! library's `front::Front`.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Write};
use std::path::{Path, PathBuf};

use indicatif::ProgressBar;
use kalah_analysis::batch::resume::{kept_words, resume, Resume, ResumeError};
use kalah_analysis::batch::{
    count_positions, parse_shard, read_ahead, Item, Lines, Sharded, Streamed,
};
use kalah_analysis::front::{
    answer_stream, solves_to_size, BaoHow, BatchGameError, BatchHow, BatchOptions, Front,
};
use kalah_analysis::outputs;
use kalah_analysis::AnalysisError;
use kalah_io::{Checks, Output, OutputError, OutputKind};

use crate::analysis_io::{
    analysis_error, file_error, interrupt_flag, invalid, progress_bar, progress_counter,
};
use crate::args::{LimitArgs, RulesArgs, BAO_HEADING};
use crate::error::CliError;
use crate::solving::{parallel_solver, SolverArgs};

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

/// The options `--rules bao` takes besides the board's ([`crate::args::check_game`]).
pub const BAO_OPTIONS: &[&str] = &[
    "output",
    "resume",
    "force",
    "shard",
    "time",
    "nodes",
    "depth",
    "exact",
    "memory-mb",
    "quiet",
];

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
    /// The input's name for messages.
    pub fn input_name(&self) -> String {
        match &self.input {
            Some(p) if p.as_os_str() != "-" => p.display().to_string(),
            _ => "standard input".to_string(),
        }
    }

    /// The output, checked and locked before any work (never the input, nor any of
    /// `databases`): a stream (a FIFO, a device) cannot be resumed.
    pub fn open_output(&self, databases: &[PathBuf]) -> Result<Option<Output>, CliError> {
        let input = self.input.as_deref().filter(|p| p.as_os_str() != "-");
        let checks = Checks::of(outputs::ANSWERS, self.force)
            .reading(input)
            .reading_stdin(input.is_none())
            .reading(databases.iter().map(|p| p.as_path()));
        let output = self
            .output
            .as_deref()
            .map(|p| Output::open_with(p, &checks))
            .transpose()?;
        if let Some(o) = &output {
            if self.resume && o.kind() == OutputKind::Stream {
                return Err(OutputError::NotResumable(o.path().to_path_buf()).into());
            }
        }
        Ok(output)
    }
}

/// Runs `kalah batch`: one loop for both kinds of game, over the library's [`Front`]
/// (the kind of game, its front and its sizing chosen by `front::BatchOptions`).
pub fn run(args: &Args, out: &mut dyn Write) -> Result<(), CliError> {
    // Catch Ctrl-C from the start, before the endgame database is built.
    interrupt_flag();
    let options = BatchOptions {
        bao: args.rules.bao(),
        rules: args.rules.options(),
        rules_given: !args.rules.is_default(),
    };
    // The output is checked and locked before any work.
    let output = args
        .files
        .open_output(&options.databases(args.solver.inputs()))?;
    let (reader, count) = open_input(args.files.input.as_deref(), args.files.shard)?;
    let mut lines = Sharded::new(Lines::new(reader), args.files.shard);
    let input_name = args.files.input_name();
    let read_error = |e: io::Error| CliError::Input(format!("cannot read {input_name}: {e}"));
    // The rules: the options', or those of the work units the input holds (sowing games).
    let (read, game) = options
        .game(&mut lines)
        .map_err(|e| game_error(e, &input_name))?;
    let mut lines = read.into_iter().chain(lines);
    let at = resume_point(
        output.as_ref(),
        &mut lines,
        &game.rules_text(),
        args.files.resume,
        &read_error,
    )?;
    let skip = at.answered;
    // A few positions read ahead: none left means nothing to do (no database to build),
    // and their number sizes the database when the input's length is not known.
    // A read error (a line too long) is kept for its turn: the lines before it are answered.
    let (ahead, failed) = read_ahead(&mut lines, game.read_ahead());
    if ahead.is_empty() {
        if let Some(e) = failed {
            return Err(read_error(e));
        }
        drop_unfinished(output.as_ref(), &at)?;
        if skip > 0 && !args.solver.quiet {
            eprintln!("all {skip} positions were already answered");
        }
        return Ok(());
    }
    let mut file = match &output {
        Some(o) => Some(o.append(at.length)?),
        None => None,
    };
    let solves = solves_to_size(count, skip, ahead.len());
    let front = game.front(how(args), solves, |game, solves| {
        let solver_args = match args.time {
            Some(time) => args.solver.for_analysis(Some(time)),
            None => args.solver.clone(),
        };
        parallel_solver(&solver_args, game, game.capacity(), solves)
    })?;
    let bar = match count {
        Some(n) => progress_bar(args.solver.quiet, n - skip, "positions"),
        None => progress_counter(args.solver.quiet, "positions"),
    };
    if skip > 0 {
        bar.println(format!(
            "resuming after the {skip} positions already answered"
        ));
    }
    let sink: &mut dyn Write = match file.as_mut() {
        Some(f) => f,
        None => &mut *out,
    };
    let mut next = ahead
        .into_iter()
        .map(Ok)
        .chain(failed.map(Err))
        .chain(lines);
    let ended = answer_all(&*front, &mut next, sink, &bar);
    bar.finish_and_clear();
    let done = ended.done.map_err(|e| analysis_error(e, ""))?;
    if let Some(e) = ended.write {
        return Err(match &output {
            Some(o) => CliError::Output(o.error(e)),
            None => CliError::Io(e),
        });
    }
    if let Some(f) = file {
        f.sync_all().ok();
    }
    if let Some(e) = ended.read {
        return Err(read_error(e));
    }
    if interrupt_flag().load(std::sync::atomic::Ordering::Relaxed) {
        let kept = kept_words(output.as_ref().map(|o| o.path()), skip, done.answered);
        return Err(analysis_error(done.stop_reason(), &kept));
    }
    Ok(())
}

/// How the positions are answered, of either kind: a sowing game's solved, or analysed
/// within --time; Bao's analysed within the limits given (1 second a position by default)
/// or, with --exact, by their graphs.
fn how(args: &Args) -> BatchHow {
    let limits = LimitArgs {
        time: args.time,
        nodes: args.nodes,
        depth: args.depth,
    };
    BatchHow {
        sowing: crate::timed::limits(args.time),
        bao: BaoHow::of(args.exact, args.graph.memory_mb, limits.given()),
    }
}

/// The command-line error of a batch's game that could not be chosen.
fn game_error(e: BatchGameError, input_name: &str) -> CliError {
    match e {
        BatchGameError::Setup(e) => e.into(),
        BatchGameError::Disagree(e) => invalid(format!("{input_name} {e}")),
        BatchGameError::Rules(e) => e.into(),
        BatchGameError::Bao(e) => e.into(),
    }
}

/// Where the batch starts: after the answers the output already holds, checked against
/// the input (`lines` is left after them) and the rules (`rules`, as answers write them).
fn resume_point(
    output: Option<&Output>,
    lines: &mut dyn Iterator<Item = io::Result<Item>>,
    rules: &str,
    resuming: bool,
    read_error: &dyn Fn(io::Error) -> CliError,
) -> Result<Resume, CliError> {
    let Some(o) = output else {
        return Ok(Resume::START);
    };
    let existing = o.existing()?.unwrap_or_default();
    resume(&existing, o.path(), resuming, lines, rules).map_err(|e| match e {
        ResumeError::Read(e) => read_error(e),
        e => invalid(e.to_string()),
    })
}

/// Cuts off what an interrupted run left after its last whole answer, where every
/// position is answered and nothing is appended ([`Resume::leaves_unfinished`]).
fn drop_unfinished(output: Option<&Output>, at: &Resume) -> Result<(), CliError> {
    if let Some(o) = output {
        if o.existing()?
            .is_some_and(|e| at.leaves_unfinished(e.len() as u64))
        {
            o.append(at.length)?;
        }
    }
    Ok(())
}

/// How the answers of the input ended: the positions answered, and the write or read
/// error that stopped them.
struct Ended {
    done: Result<Streamed, AnalysisError>,
    write: Option<io::Error>,
    read: Option<io::Error>,
}

/// Answers the items of `items` by `front` and writes each answer line to `sink` in
/// input order, flushed at once.
fn answer_all(
    front: &dyn Front,
    items: &mut (dyn Iterator<Item = io::Result<Item>> + Send),
    sink: &mut dyn Write,
    bar: &ProgressBar,
) -> Ended {
    let mut write = None;
    let mut read = None;
    let mut next = || match items.next()? {
        Ok(item) => Some(item),
        Err(e) => {
            read = Some(e);
            None
        }
    };
    let done = answer_stream(front, &mut next, interrupt_flag(), &mut |_, answered| {
        if let Err(e) = writeln!(sink, "{}", answered.line).and_then(|()| sink.flush()) {
            write = Some(e);
            return false;
        }
        bar.set_message(answered.note);
        bar.inc(1);
        true
    });
    Ended { done, write, read }
}

/// The input as a reader, and its number of positions in the shard when it is a file
/// (counted in a first pass, for the progress bar); standard input is read as it comes.
fn open_input(
    path: Option<&Path>,
    shard: Option<(usize, usize)>,
) -> Result<(Box<dyn BufRead + Send>, Option<usize>), CliError> {
    match path {
        None => Ok((Box::new(BufReader::new(std::io::stdin())), None)),
        Some(p) if p.as_os_str() == "-" => Ok((Box::new(BufReader::new(std::io::stdin())), None)),
        Some(p) => {
            let open = || {
                File::open(p)
                    .map(BufReader::new)
                    .map_err(|e| file_error(p, e))
            };
            let is_file = std::fs::metadata(p).is_ok_and(|m| m.is_file());
            let count = match is_file {
                true => Some(count_positions(open()?, shard)),
                false => None,
            };
            Ok((Box::new(open()?), count))
        }
    }
}
