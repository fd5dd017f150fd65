//! `--rules bao`: Bao la Kujifunza (docs/bao.md) in `show`, `perft`, `solve`, `openings`,
//! `play`, `analyse`, `batch`, `export` and `match` (`kalah engine` takes `rules bao`). Its options (`--houses N` pits a row, `--seeds S`, a position of four rows)
//! are not those of the sowing games, so a command line naming `--rules bao` is parsed here,
//! by its own argument structs: an option that does not apply to Bao is refused with a
//! message that says so.

mod matches;

use std::ffi::OsString;
use std::io::Write;

use clap::error::{ContextKind, ErrorKind};
use clap::{Parser, Subcommand};
use kalah_analysis::setup::bao::{self as bao_setup, BaoOptions};
use kalah_core::bao::{BaoPosition, BaoRules};

use crate::error::CliError;

/// The subcommands whose `--rules bao` is still parsed here (the others take it as one
/// more value of `--rules`).
const HERE: [&str; 2] = ["match", "engine"];

/// Whether the command line names `--rules bao` for a command parsed here.
pub fn requested(args: &[OsString]) -> bool {
    let command = args.get(1).and_then(|a| a.to_str()).unwrap_or("");
    HERE.contains(&command)
        && args.iter().enumerate().any(|(i, a)| {
            a == "--rules=bao" || (a == "--rules" && args.get(i + 1).is_some_and(|v| v == "bao"))
        })
}

/// Runs a command line that names `--rules bao`, writing to `out`.
pub fn run(args: Vec<OsString>, out: &mut dyn Write) -> Result<(), CliError> {
    let command = args.get(1).and_then(|a| a.to_str()).unwrap_or("");
    if command == "engine" {
        return Err(CliError::Input(
            "kalah engine takes Bao through its protocol: start it without --rules and send \
             `rules bao --houses N --seeds S` (docs/engine.md)"
                .to_string(),
        ));
    }
    let cli = match BaoCli::try_parse_from(&args) {
        Ok(cli) => cli,
        Err(e) if e.kind() == ErrorKind::UnknownArgument => {
            let arg = e.get(ContextKind::InvalidArg).map(|a| a.to_string());
            return Err(CliError::Input(format!(
                "{} does not apply to --rules bao: its options are --houses N (pits a row, \
                 3 to 8), --seeds S, --position and --moves (see kalah {command} --rules bao \
                 --help)",
                arg.unwrap_or_else(|| "this option".to_string())
            )));
        }
        Err(e) => e.exit(),
    };
    match &cli.command {
        BaoCommand::Match(a) => matches::run(a, out),
    }
}

/// Bao la Kujifunza, the four-row game (docs/bao.md).
#[derive(Parser, Debug)]
#[command(name = "kalah")]
struct BaoCli {
    #[command(subcommand)]
    command: BaoCommand,
}

/// The commands of Bao.
#[derive(Subcommand, Debug)]
enum BaoCommand {
    Match(matches::BaoMatchArgs),
}

/// The board and the position: `--rules bao`, `--houses`, `--seeds`, `--position`,
/// `--moves`.
#[derive(clap::Args, Debug, Clone)]
#[command(next_help_heading = "Bao")]
pub struct BaoArgs {
    /// `bao`: Bao la Kujifunza, four rows of N pits (docs/bao.md)
    #[arg(long = "rules", value_name = "RULES", value_parser = ["bao"])]
    rules: String,

    /// Pits a row, 3 to 8 [default: 8, or that of --position]
    #[arg(long, value_name = "N")]
    houses: Option<usize>,

    /// Seeds in each pit at the start [default: 2]
    #[arg(long, value_name = "S")]
    seeds: Option<usize>,

    /// Start from this position: four rows top to bottom as South sees the board (North's
    /// back row b_N..b_1, North's front row a_N..a_1, South's front row A_1..A_N, South's
    /// back row B_1..B_N), then the side to move, e.g. `0,3,0,0/0,2,0,0/0,1,0,2/0,0,0,0:S`
    #[arg(long, value_name = "POSITION")]
    pub position: Option<String>,

    /// Moves to play first, separated by spaces or commas, e.g. `"A3+ b8-"`
    #[arg(long, value_name = "LIST")]
    pub moves: Option<String>,
}

impl BaoArgs {
    /// The rules of the board and the position to start from
    /// ([`kalah_analysis::setup::bao::setup`]).
    pub fn setup(&self) -> Result<(BaoRules, BaoPosition), CliError> {
        let s = bao_setup::setup(&BaoOptions {
            pits: self.houses,
            seeds: self.seeds,
            position: self.position.as_deref(),
            moves: self.moves.as_deref(),
        })
        .map_err(|e| CliError::Input(e.to_string()))?;
        Ok((s.rules, s.pos))
    }
}
