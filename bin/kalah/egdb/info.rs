//! `kalah egdb info` and `kalah egdb probe`: describe and verify a database file, look
//! positions up in one.

use std::io::Write;
use std::path::PathBuf;

use kalah_analysis::wire::egdb as wire;
use kalah_core::Position;
use kalah_solver::egdb::{self, ProbeError};

use crate::args::QuietArgs;
use crate::error::CliError;

/// Describe a database file and verify it (checksum, and a sample of entries against
/// their children).
#[derive(clap::Args, Debug)]
pub(super) struct InfoArgs {
    /// The database file
    file: PathBuf,

    /// Print one JSON object instead of text
    #[arg(long)]
    json: bool,

    #[allow(dead_code)] // Every command takes --quiet; this one shows no progress.
    #[command(flatten)]
    quiet: QuietArgs,
}

/// The exact value of a position from a database file, and of each of its sowings.
#[derive(clap::Args, Debug)]
pub(super) struct ProbeArgs {
    /// The database file
    file: PathBuf,

    /// The position, e.g. `0,1,0,0,2,1,20,0,0,3,0,1,0,20:S`; its houses must hold at most
    /// the database's K seeds
    #[arg(long, value_name = "BOARD")]
    position: String,

    /// Print one JSON object instead of text
    #[arg(long)]
    json: bool,

    #[allow(dead_code)] // Every command takes --quiet; this one shows no progress.
    #[command(flatten)]
    quiet: QuietArgs,
}

pub(super) fn info(args: &InfoArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let inspection = egdb::inspect(&args.file)?;
    if args.json {
        writeln!(out, "{}", wire::info_json(&args.file, &inspection))?;
        return Ok(());
    }
    for line in wire::info_lines(&args.file, &inspection) {
        writeln!(out, "{line}")?;
    }
    Ok(())
}

pub(super) fn probe(args: &ProbeArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let pos: Position = args.position.parse().map_err(CliError::Position)?;
    let probed = egdb::probe_file(&args.file, pos).map_err(|e| match e {
        ProbeError::Egdb(e) => CliError::Egdb(e),
        ProbeError::Rules(e) => CliError::Rules(e),
        ProbeError::Position(e) => CliError::Position(e),
        ProbeError::NotInDatabase {
            houses,
            seeds,
            db_houses,
            max_seeds,
        } => CliError::Input(wire::not_in_database(
            &args.file, houses, seeds, db_houses, max_seeds,
        )),
    })?;
    if args.json {
        writeln!(out, "{}", wire::probe_json(&probed))?;
        return Ok(());
    }
    for line in wire::probe_lines(&probed) {
        writeln!(out, "{line}")?;
    }
    Ok(())
}
