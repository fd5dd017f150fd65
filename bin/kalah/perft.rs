//! `kalah perft`: counts the sequences of sowings from a position at every depth up to a
//! limit, optionally split by first sowing; the standard check of a move generator. With
//! `--rules bao`, Bao's whole moves. One run for both (`kalah_analysis::game::perft`).

use std::io::Write;

use indicatif::{ProgressBar, ProgressStyle};
use kalah_analysis::game::perft::{self, PerftStep};

use crate::args::{GameArgs, QuietArgs};
use crate::error::CliError;

/// Count the sequences of sowings to a given depth (checks the move generator).
///
/// Counts perft(1) to perft(DEPTH): perft(d) is the number of distinct sequences of exactly d
/// sowings playable from the position (an extra turn is a further sowing by the same player;
/// a line that ends the game sooner is not counted).
///
/// With --rules bao, the sequences of whole Bao moves (BAO.md R8.3), DEPTH 1 to 30: a move
/// that ends the game counts, and nothing continues past it.
///
/// Example: `kalah perft --depth 8 --divide` or `kalah perft --houses 4 --seeds 3 --depth 10 --json`
/// or `kalah perft --rules bao --depth 4 --divide`
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Count sequences of 1 to DEPTH sowings (Bao: moves)
    #[arg(long, short, value_name = "DEPTH", value_parser = clap::value_parser!(u32).range(1..=200))]
    depth: u32,

    /// Also list each first sowing (as a bin) with its count at DEPTH
    #[arg(long)]
    divide: bool,

    /// Print a JSON object (counts, divide, seconds) instead of text
    #[arg(long)]
    json: bool,

    #[command(flatten)]
    game: GameArgs,

    #[command(flatten)]
    quiet: QuietArgs,
}

/// Runs `kalah perft`.
///
/// In text, each depth is printed as soon as it is counted (one traversal per depth, so a
/// long count shows its progress; the last one also splits by first sowing); the JSON
/// object comes at the end, from one traversal that counts every depth at once.
pub fn run(args: &Args, out: &mut dyn Write) -> Result<(), CliError> {
    let board = args.game.board()?;
    let start = board.perft_start();
    let mut bar: Option<ProgressBar> = None;
    let mut failed = None;
    let counted = perft::run(
        &start,
        args.depth,
        args.divide,
        !args.json,
        &mut |step| match step {
            PerftStep::Line(line) => {
                if let Err(e) = writeln!(out, "{line}").and_then(|()| out.flush()) {
                    failed.get_or_insert(e);
                }
            }
            PerftStep::Splitting(_) if args.quiet.quiet => {}
            PerftStep::Splitting(n) => {
                bar = Some(
                    ProgressBar::new(n).with_style(
                        ProgressStyle::with_template("perft {pos}/{len} first sowings [{elapsed}]")
                            .unwrap_or_else(|_| ProgressStyle::default_bar()),
                    ),
                )
            }
            PerftStep::Split => bar.iter().for_each(|b| b.inc(1)),
        },
    );
    bar.iter().for_each(ProgressBar::finish_and_clear);
    if let Some(e) = failed {
        return Err(e.into());
    }
    let counted = counted.map_err(|e| CliError::Input(e.to_string()))?;
    if args.json {
        writeln!(out, "{}", counted.json(args.divide))?;
        return Ok(());
    }
    for line in counted.closing_lines(args.divide) {
        writeln!(out, "{line}")?;
    }
    Ok(())
}
