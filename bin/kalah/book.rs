//! `kalah book`: build an opening book (`build`), look a position up in one (`show`)
//! (docs/book.md). The book itself is [`kalah_analysis::book`].

use std::io::Write;
use std::path::PathBuf;
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use kalah_analysis::book::about;
use kalah_analysis::book::build::{self, Partial, PartialError};
use kalah_analysis::book::report as book_report;
use kalah_analysis::book::{format, Book};
use kalah_analysis::AnalysisError;
use kalah_io::{Checks, Output};
use kalah_solver::Limits;

use crate::analysis_io::{analysis_error, interrupt_flag, progress_bar};
use crate::args::GameArgs;
use crate::args::LimitArgs;
use crate::book_args::BookArgs;
use crate::error::CliError;
use crate::solving::SolverArgs;

/// Build an opening book, or look a position up in one (docs/book.md).
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(subcommand)]
    command: BookCommand,
}

/// The `kalah book` subcommands.
#[derive(clap::Subcommand, Debug)]
enum BookCommand {
    Build(BuildArgs),
    Show(ShowArgs),
}

/// Build an opening book: every position where one of the first N turns is to be chosen
/// (after 0 to N-1 whole turns from the start, or from --position/--moves), each
/// analysed within the limits (--time, --nodes, --depth; none: solved exactly) by the
/// anytime analysis (docs/analysis.md): the best turn, the evaluation, the interval proved
/// to hold the exact value (exact where it closes) and the depth reached.
///
/// FILE is checked and locked before any work and written whole at the end (atomically);
/// an existing file that is no book is refused unless --force. Each entry goes to
/// FILE.partial as it is made: after Ctrl-C or a kill the same command goes on from
/// there. The format: docs/book.md.
///
/// Example: `kalah book build --houses 6 --seeds 6 --turns 2 --time 10 --threads 1 --out
/// data/book/kalah-6x6-standard.txt`
#[derive(clap::Args, Debug)]
pub struct BuildArgs {
    /// Whole turns from the start to cover (the positions after 0 to N-1 turns)
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=8))]
    turns: u32,

    /// The book to write
    #[arg(long, value_name = "FILE")]
    out: PathBuf,

    /// Replace an existing FILE that is not an opening book, a read-only one, or a
    /// symbolic link (the link itself)
    #[arg(long)]
    force: bool,

    #[command(flatten)]
    limits: LimitArgs,

    #[command(flatten)]
    game: GameArgs,

    #[command(flatten)]
    solver: SolverArgs,
}

/// Look a position up in the opening book of its rules: its best turn, its value
/// (heuristic unless exact, with the proven interval) and the depth behind it.
///
/// Example: `kalah book show --houses 6 --seeds 6 --moves 1-2`
#[derive(clap::Args, Debug)]
pub struct ShowArgs {
    #[command(flatten)]
    book: BookArgs,

    #[command(flatten)]
    game: GameArgs,
}

/// Runs `kalah book`.
pub fn run(args: &Args, out: &mut dyn Write) -> Result<(), CliError> {
    match &args.command {
        BookCommand::Build(a) => run_build(a, out),
        BookCommand::Show(a) => run_show(a, out),
    }
}

/// `kalah book show`.
fn run_show(args: &ShowArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let (game, pos) = args.game.setup()?;
    let Some(book) = args.book.load(game.rules())? else {
        return Err(CliError::Input(format!(
            "no opening book for {} (make one with kalah book build, and give it with --book)",
            game.rules()
        )));
    };
    for line in book_report::show_lines(&book, &game, &pos) {
        writeln!(out, "{line}")?;
    }
    Ok(())
}

/// `kalah book build`.
fn run_build(args: &BuildArgs, out: &mut dyn Write) -> Result<(), CliError> {
    interrupt_flag();
    let (game, start) = args.game.setup()?;
    let output = Output::open_with(
        &args.out,
        &Checks::of(kalah_analysis::book::KIND, args.force),
    )?;
    let started = Instant::now();
    let limits = args.limits.given().unwrap_or_else(Limits::none);
    let limits_text = build::limits_text(&limits);
    let todo = build::positions(&game, &start, args.turns);
    if todo.is_empty() {
        return Err(CliError::Input(
            "the game is over in this position: there is no turn to put in a book".into(),
        ));
    }
    let header = build::partial_header(game.rules(), &start, args.turns, &limits_text);
    let partial_path = output.sibling(".partial");
    let kept = match &partial_path {
        Some(path) => build::load_partial(&game, path, &header).map_err(partial_error)?,
        None => Default::default(),
    };
    if let Some(warning) = kept.damaged_warning() {
        eprintln!("{warning}");
    }
    let kept_here = kept.of(&todo);
    let mut partial = match &partial_path {
        Some(path) => {
            Some(Partial::start(path, &header, game.houses(), &kept_here).map_err(partial_error)?)
        }
        None => None,
    };
    let solver = crate::solving::analysis_solver(
        &args.solver,
        &game,
        start.seeds_in_houses() as usize,
        &limits,
    )?;
    let bar = progress_bar(args.solver.quiet, todo.len(), "positions analysed");
    if let Some(line) = build::resuming_line(kept_here.len(), partial_path.as_deref()) {
        eprintln!("{line}");
    }
    let h = game.houses();
    let entries = build::build(
        &solver,
        &todo,
        &limits,
        &kept.entries,
        interrupt_flag(),
        &mut |e, was_kept| -> Result<(), Fail> {
            if let (false, Some(p)) = (was_kept, partial.as_mut()) {
                p.add(e).map_err(|e| Fail::Cli(partial_error(e)))?;
            }
            bar.set_message(format!("{} {}", e.best_turn.notation(h), e.describe()));
            bar.inc(1);
            Ok(())
        },
    );
    bar.finish_and_clear();
    let entries = entries.map_err(|e| match e {
        Fail::Analysis(e) => analysis_error(e, &build::kept_words(partial_path.as_deref())),
        Fail::Cli(e) => e,
    })?;
    let exact = entries.iter().filter(|e| e.is_exact()).count();
    let seconds = started.elapsed().as_secs_f64();
    let book = Book::new(
        *game.rules(),
        about::about(&about::Made {
            start: &start,
            turns: args.turns,
            limits: &limits_text,
            threads: args.solver.threads,
            args: &std::env::args().skip(1).collect::<Vec<_>>(),
            version: env!("CARGO_PKG_VERSION"),
            commit: &commit(),
            unix_secs: SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map_or(0, |d| d.as_secs()),
            seconds,
            positions: entries.len(),
            exact,
        }),
        entries,
    );
    output.replace(format::write(&book).as_bytes())?;
    if let Some(path) = &partial_path {
        let _ = std::fs::remove_file(path);
    }
    let line = build::written_line(
        book.len(),
        args.turns,
        &args.out,
        exact,
        &limits_text,
        seconds,
    );
    writeln!(out, "{line}")?;
    Ok(())
}

/// The commit of the working directory (`git rev-parse --short HEAD`), or `unknown`.
fn commit() -> String {
    std::process::Command::new("git")
        .args(["rev-parse", "--short", "HEAD"])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| "unknown".to_string())
}

/// The command-line error for a partial file that could not be read, written or used
/// (its message names the file).
fn partial_error(e: PartialError) -> CliError {
    CliError::Input(e.to_string())
}

/// Why a build stopped: its analysis, or keeping an entry.
enum Fail {
    Analysis(AnalysisError),
    Cli(CliError),
}

impl From<AnalysisError> for Fail {
    fn from(e: AnalysisError) -> Self {
        Fail::Analysis(e)
    }
}
