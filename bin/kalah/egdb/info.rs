//! `kalah egdb info` and `kalah egdb probe`: describe and verify a database file, look
//! positions up in one.

use std::io::Write;
use std::path::PathBuf;

use kalah_core::Position;
use kalah_solver::egdb::{self, file, Inspection, ProbeError};
use serde_json::json;

use super::{egdb_rules, MIB};
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
}

pub(super) fn info(args: &InfoArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let Inspection { info, finished } = egdb::inspect(&args.file)?;
    if args.json {
        let obj = json!({
            "file": args.file.display().to_string(),
            "version": file::VERSION,
            "rules": egdb_rules(&info.rules),
            "max_seeds": info.max_seeds,
            "levels": info.levels,
            "entries": info.entries,
            "bytes": info.file_size(),
            "checksum": format!("{:016x}", info.checksum),
            "finished": finished,
        });
        writeln!(out, "{obj}")?;
        return Ok(());
    }
    let status = if finished {
        "verified (checksum and sampled entries)".to_string()
    } else {
        format!(
            "unfinished: {} of {} seed levels (run the build again to resume)",
            info.levels,
            info.max_seeds + 1
        )
    };
    writeln!(out, "file       {}", args.file.display())?;
    writeln!(out, "format     version {}", file::VERSION)?;
    writeln!(out, "rules      {}", egdb::describe(&info.rules))?;
    writeln!(out, "max seeds  {}", info.max_seeds)?;
    writeln!(out, "positions  {}", info.entries)?;
    writeln!(
        out,
        "size       {} bytes ({:.1} MiB)",
        info.file_size(),
        info.file_size() as f64 / MIB
    )?;
    writeln!(out, "checksum   {:016x}", info.checksum)?;
    writeln!(out, "status     {status}")?;
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
        } => CliError::NotInDatabase {
            file: args.file.display().to_string(),
            houses,
            seeds,
            db_houses,
            max_seeds,
        },
    })?;
    let (pos, value) = (probed.position, probed.value);
    if args.json {
        let obj = json!({
            "position": pos.to_string(),
            "side_to_move": pos.side_to_move().to_string(),
            "value": value,
            "value_for_mover": probed.value_for_mover(),
            "moves": probed.sowings.iter().map(|s| json!({
                "bin": s.bin, "clockwise": s.clockwise, "sowing": s.name(), "value": s.value,
                "best": probed.is_best(s)
            })).collect::<Vec<_>>(),
        });
        writeln!(out, "{obj}")?;
        return Ok(());
    }
    writeln!(out, "position   {pos}")?;
    writeln!(
        out,
        "value      {value:+} (final South store minus North store; {:+} for {})",
        probed.value_for_mover(),
        pos.side_to_move()
    )?;
    for s in &probed.sowings {
        let mark = if probed.is_best(s) { "  best" } else { "" };
        writeln!(out, "sow {:>3}    {:+}{mark}", s.name(), s.value)?;
    }
    Ok(())
}
