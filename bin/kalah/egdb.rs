//! `kalah egdb`: build an endgame database file, describe one, look positions up in one.

mod build;
mod cache;
mod info;

use std::io::Write;

use crate::error::CliError;

use build::{build, BuildArgs};
use cache::{cache, CacheArgs};
use info::{info, probe, InfoArgs, ProbeArgs};

/// Endgame databases: the exact value of every position with at most K seeds in the houses.
///
/// A database depends on the number of houses and on the capture, end and leftovers rules,
/// not on the seeds per house the game starts with; the early stop is not supported (it
/// reads the stores). Give it to the solver with `kalah solve --egdb FILE`. Oware's
/// (`--rules oware`, each grand slam rule its own) and Ethiopian Kalah's databases are
/// built by the cycle rule of docs/cyclic.md, and their positions are answered from the
/// file by solve, openings, pie, batch, export and analyse (`--egdb FILE`).
///
/// Example: `kalah egdb build --houses 6 --max-seeds 20 --capture empty --out k6-20-empty.egdb`
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(clap::Subcommand, Debug)]
enum Command {
    Build(BuildArgs),
    Info(InfoArgs),
    Probe(ProbeArgs),
    Cache(CacheArgs),
}

/// Runs `kalah egdb`.
pub fn run(args: &Args, out: &mut dyn Write) -> Result<(), CliError> {
    match &args.command {
        Command::Build(a) => build(a, out),
        Command::Info(a) => info(a, out),
        Command::Probe(a) => probe(a, out),
        Command::Cache(a) => cache(a, out),
    }
}
