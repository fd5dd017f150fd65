//! `kalah perft`: counts the sequences of sowings from a position at every depth up to a
//! limit, optionally split by first sowing; the standard check of a move generator. With
//! `--rules bao`, Bao's whole moves ([`bao`]).

mod bao;

use std::io::Write;
use std::time::Instant;

use indicatif::{ProgressBar, ProgressStyle};
use kalah_core::notation::{bin, format_move};
use kalah_core::{perft_depths, PerftDepths, CLOCKWISE};
use serde_json::json;

use crate::args::GameArgs;
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
}

/// The options `--rules bao` takes besides the board's ([`crate::args::check_game`]).
pub const BAO_OPTIONS: &[&str] = &["depth", "divide", "json"];

/// Runs `kalah perft`.
///
/// In text, each depth is printed as soon as it is counted (one traversal per depth, so a
/// long count shows its progress; the last one also splits by first sowing); the JSON
/// object comes at the end, from one traversal that counts every depth at once.
pub fn run(args: &Args, out: &mut dyn Write) -> Result<(), CliError> {
    if args.game.rules.bao() {
        return bao::perft(&args.game, args.depth, args.divide, args.json, out);
    }
    let (game, pos) = args.game.setup()?;
    let depth = args.depth as usize;
    let timer = Instant::now();
    if !args.json {
        writeln!(out, "rules:    {}", game.rules())?;
        writeln!(out, "position: {pos}")?;
        for d in 1..depth {
            let counts = perft_depths(&game, &pos, d, |_| {}).counts;
            writeln!(out, "perft({d}) = {}", counts[d - 1])?;
            out.flush()?;
        }
    }
    let bar = ProgressBar::new(game.legal_moves(&pos).len() as u64).with_style(
        ProgressStyle::with_template("perft {pos}/{len} first sowings [{elapsed}]")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let counted = perft_depths(&game, &pos, depth, |_| bar.inc(1));
    bar.finish_and_clear();
    let seconds = timer.elapsed().as_secs_f64();
    let nodes = counted.nodes();
    let PerftDepths {
        counts,
        divide: per_move,
    } = counted;

    if args.json {
        let mut report = json!({
            "rules": game.rules().to_string(),
            "position": pos.to_string(),
            "counts": counts,
            "nodes": nodes,
            "seconds": seconds,
        });
        if args.divide {
            report["divide"] = per_move
                .iter()
                .map(|&(j, n)| {
                    let b = bin(game.houses(), pos.side_to_move(), j % CLOCKWISE);
                    match j >= CLOCKWISE {
                        true => json!({ "bin": b, "clockwise": true, "count": n }),
                        false => json!({ "bin": b, "count": n }),
                    }
                })
                .collect();
        }
        writeln!(out, "{report}")?;
        return Ok(());
    }
    writeln!(out, "perft({depth}) = {}", counts[depth - 1])?;
    if args.divide {
        writeln!(out, "divide at depth {depth}:")?;
        for &(j, n) in &per_move {
            let name = format_move(game.houses(), pos.side_to_move(), j);
            writeln!(out, "  {name:>3}: {n}")?;
        }
    }
    writeln!(
        out,
        "{nodes} nodes in {seconds:.3} s ({:.1} Mnodes/s)",
        nodes as f64 / seconds.max(1e-9) / 1e6
    )?;
    Ok(())
}
