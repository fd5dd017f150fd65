//! `kalah book`: build an opening book (`build`), look a position up in one (`show`)
//! (docs/book.md). The book itself is [`kalah_analysis::book`].

use std::io::Write;
use std::path::PathBuf;

use kalah_analysis::book::job::{self, Job, JobError, Maker};
use kalah_analysis::book::report as book_report;
use kalah_io::{Checks, Output};
use kalah_solver::Limits;

use crate::analysis_io::{analysis_error, interrupt_flag, progress_bar};
use crate::args::LimitArgs;
use crate::args::{GameArgs, QuietArgs};
use crate::book_args::BookArgs;
use crate::error::CliError;
use crate::solving::{SetupSpinner, SolverArgs};

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

    #[allow(dead_code)] // Every command takes --quiet; this one shows no progress.
    #[command(flatten)]
    quiet: QuietArgs,
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
    // The databases the build reads are never its output.
    let inputs = args.solver.inputs();
    let output = Output::open_with(
        &args.out,
        &Checks::of(kalah_analysis::book::KIND, args.force)
            .reading(inputs.iter().map(|p| p.as_path())),
    )?;
    let limits = args.limits.given().unwrap_or_else(Limits::none);
    let job = Job {
        game: &game,
        start: &start,
        turns: args.turns,
        limits: &limits,
        partial: output.sibling(".partial"),
    };
    let prepared = job::prepare(job, &mut |w| eprintln!("{w}")).map_err(job_error)?;
    let setup = SetupSpinner::of(&args.solver);
    let seeds = start.seeds_in_houses() as usize;
    let solver = args
        .solver
        .solving(&setup)
        .analysis(&game, seeds, &limits)?;
    let bar = progress_bar(args.solver.quiet, prepared.len(), "positions analysed");
    if let Some(line) = prepared.resuming_line() {
        eprintln!("{line}");
    }
    let maker = Maker {
        threads: args.solver.threads,
        args: &std::env::args().skip(1).collect::<Vec<_>>(),
        version: env!("CARGO_PKG_VERSION"),
        commit: &commit(),
    };
    let line = prepared.run(&solver, interrupt_flag(), &maker, &output, &mut |m| {
        bar.set_message(m.to_string());
        bar.inc(1);
    });
    bar.finish_and_clear();
    writeln!(out, "{}", line.map_err(job_error)?)?;
    Ok(())
}

/// The commit of the working directory (`git rev-parse --short HEAD`), or `unknown`.
pub(crate) fn commit() -> String {
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

/// The command-line error for a build that stopped.
fn job_error(e: JobError) -> CliError {
    match e {
        JobError::NothingToBook => CliError::Input(JobError::NOTHING_TO_BOOK.into()),
        JobError::Partial(e) => CliError::Input(e.to_string()),
        JobError::Analysis { error, kept } => analysis_error(error, &kept),
        JobError::Write(e) => e.into(),
    }
}
