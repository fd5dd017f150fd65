//! The `kalah` command line: parse the arguments, run one subcommand, turn the outcome
//! into an exit status.
//!
//! Each subcommand is one module with a `clap::Args` struct named `Args` and a function
//! `run(&Args, &mut dyn Write) -> Result<(), CliError>`. Adding a subcommand means adding
//! its file, one `mod` line and one variant of [`Command`] with its arm in [`run`] (and,
//! where it plays Bao under `--rules bao`, a row of `kalah_analysis::game::options`'
//! table).

mod analyse;
mod analysis_io;
mod args;
mod atlas;
mod batch;
mod bench;
mod book;
mod book_args;
mod egdb;
mod engine;
mod error;
mod export;
mod r#match;
mod merge;
mod openings;
mod perft;
mod pie;
mod play;
mod serve;
mod show;
mod solve;
mod solving;
mod split;

use std::ffi::OsString;
use std::io::{self, Write};
use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

use crate::error::CliError;

/// Exit status for every error: bad arguments, a bad position or move, failed I/O.
/// (clap's own usage errors exit with 2 as well.)
const EXIT_ERROR: u8 = 2;
/// Exit status of `kalah merge` while answers are still missing: the output is complete
/// for what the answers prove, the value is not decided yet.
const EXIT_INCOMPLETE: u8 = 3;

/// An exact solver and analysis engine for the mancala game Kalah.
///
/// Positions are written as the counts of South's houses, South's store, North's houses and
/// North's store, then the side to move: `4,4,4,4,4,4,0,4,4,4,4,4,4,0:S`. Moves are bins:
/// 1..H are South's houses, H+2..2H+1 North's; a turn with extra sowings is `3-6`.
#[derive(Parser, Debug)]
#[command(name = "kalah", version, about, long_about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// The subcommands. Each one's help text is the doc comment of its `Args` struct.
#[derive(Subcommand, Debug)]
enum Command {
    Show(show::Args),
    Perft(perft::Args),
    Play(play::Args),
    Solve(solve::Args),
    Analyse(analyse::Args),
    Bench(bench::Args),
    Openings(openings::Args),
    Pie(pie::Args),
    Atlas(atlas::Args),
    Batch(batch::Args),
    Split(split::Args),
    Merge(merge::Args),
    Export(export::Args),
    Egdb(egdb::Args),
    Serve(serve::Args),
    Engine(engine::Args),
    Match(r#match::Args),
    Book(book::Args),
}

fn main() -> ExitCode {
    let stdout = io::stdout();
    let mut out = stdout.lock();
    let result = parse(std::env::args_os()).and_then(|command| run(&command, &mut out));
    let result = result.and_then(|()| out.flush().map_err(CliError::from));
    match result {
        Ok(()) => ExitCode::SUCCESS,
        // The reader went away (`kalah perft ... | head`): nothing left to say.
        Err(CliError::Io(e)) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(CliError::Incomplete(msg)) => {
            eprintln!("{msg}");
            ExitCode::from(EXIT_INCOMPLETE)
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(EXIT_ERROR)
        }
    }
}

/// Parses the command line (clap's own errors end the program as clap's do) and checks
/// that the options given fit the game the rules name ([`args::check_game`]).
fn parse(args: impl IntoIterator<Item = OsString>) -> Result<Command, CliError> {
    let cli = Cli::command();
    let matches = cli.clone().get_matches_from(args);
    let command = Cli::from_arg_matches(&matches)
        .unwrap_or_else(|e| e.exit())
        .command;
    let Some((name, mut matched)) = matches.subcommand() else {
        return Ok(command);
    };
    let mut defined = cli.find_subcommand(name);
    // A nested subcommand (`kalah egdb build`) holds the options of its own.
    while let Some((inner, m)) = matched.subcommand() {
        defined = defined.and_then(|d| d.find_subcommand(inner));
        matched = m;
    }
    match defined {
        Some(defined) => args::check_game(name, defined, matched)?,
        None => return Err(CliError::Internal(format!("kalah {name} is not defined"))),
    }
    Ok(command)
}

/// Runs one subcommand, writing its output to `out`.
fn run(command: &Command, out: &mut dyn Write) -> Result<(), CliError> {
    match command {
        Command::Show(args) => show::run(args, out),
        Command::Perft(args) => perft::run(args, out),
        Command::Play(args) => play::run(args, out),
        Command::Solve(args) => solve::run(args, out),
        Command::Analyse(args) => analyse::run(args, out),
        Command::Bench(args) => bench::run(args, out),
        Command::Openings(args) => openings::run(args, out),
        Command::Pie(args) => pie::run(args, out),
        Command::Atlas(args) => atlas::run(args, out),
        Command::Batch(args) => batch::run(args, out),
        Command::Split(args) => split::run(args, out),
        Command::Merge(args) => merge::run(args, out),
        Command::Export(args) => export::run(args, out),
        Command::Egdb(args) => egdb::run(args, out),
        Command::Serve(args) => serve::run(args, out),
        Command::Engine(args) => engine::run(args, out),
        Command::Match(args) => r#match::run(args, out),
        Command::Book(args) => book::run(args, out),
    }
}
