//! `kalah show --rules bao` (the four rows, the side to move, the legal moves) and `kalah
//! perft --rules bao` (sequences of whole moves, BAO.md R8.3).

use std::io::Write;
use std::time::Instant;

use kalah_analysis::setup::bao as bao_setup;
use kalah_core::bao::{self, BaoPosition};
use serde_json::json;

use super::{drawing, side_name, BaoArgs};
use crate::error::CliError;

/// Draw a Bao position: its four rows, the side to move and the legal moves.
///
/// Example: `kalah show --rules bao --houses 4 --moves A1+`
#[derive(clap::Args, Debug)]
pub struct ShowArgs {
    /// Print a JSON object (position, pits, side, rows, moves, over) instead of the drawing
    #[arg(long)]
    json: bool,

    #[command(flatten)]
    game: BaoArgs,
}

/// The state of the game in words: who moves, or who has won.
fn state(pos: &BaoPosition) -> String {
    match bao_setup::is_over(pos) {
        true => format!("game over: {}", bao_setup::end_words(pos)),
        false => format!("{} to move", pos.side()),
    }
}

/// Runs `kalah show --rules bao`.
pub fn show(args: &ShowArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let (rules, pos) = args.game.setup()?;
    let moves: Vec<String> = pos.legal().moves().map(|m| m.to_string()).collect();
    if args.json {
        let report = json!({
            "rules": rules.to_string(),
            "pits": rules.pits(),
            "seeds": rules.seeds(),
            "position": pos.to_string(),
            "side": side_name(pos.side()),
            "rows": pos.text_rows(),
            "moves": moves,
            "over": bao_setup::is_over(&pos),
        });
        writeln!(out, "{report}")?;
        return Ok(());
    }
    writeln!(
        out,
        "Bao la Kujifunza, 4 rows of {} pits, {} seeds a pit at the start",
        rules.pits(),
        rules.seeds()
    )?;
    write!(out, "{}", drawing(&pos))?;
    writeln!(out, "{}", state(&pos))?;
    if !moves.is_empty() {
        writeln!(out, "moves: {}", moves.join(" "))?;
    }
    writeln!(out, "position: {pos}")?;
    Ok(())
}

/// Count the sequences of whole Bao moves to a given depth (BAO.md R8.3).
///
/// perft(d) is the number of sequences of exactly d legal moves; a move that ends the game
/// counts, and nothing continues past it.
///
/// Example: `kalah perft --rules bao --depth 4 --divide`
#[derive(clap::Args, Debug)]
pub struct PerftArgs {
    /// Count sequences of 1 to DEPTH moves
    #[arg(long, short, value_name = "DEPTH", value_parser = clap::value_parser!(u32).range(1..=30))]
    depth: u32,

    /// Also list each first move with its count at DEPTH
    #[arg(long)]
    divide: bool,

    /// Print a JSON object (counts, divide, seconds) instead of text
    #[arg(long)]
    json: bool,

    #[command(flatten)]
    game: BaoArgs,
}

/// Runs `kalah perft --rules bao`: each depth printed as soon as it is counted.
pub fn perft(args: &PerftArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let (rules, pos) = args.game.setup()?;
    let timer = Instant::now();
    let mut counts = Vec::new();
    for d in 1..=args.depth {
        counts.push(bao::perft(&pos, d));
        if !args.json {
            writeln!(out, "perft({d}) = {}", counts[d as usize - 1])?;
            out.flush()?;
        }
    }
    let split = match args.divide {
        true => bao::divide(&pos, args.depth),
        false => Vec::new(),
    };
    let seconds = timer.elapsed().as_secs_f64();
    if args.json {
        let mut report = json!({
            "rules": rules.to_string(),
            "position": pos.to_string(),
            "counts": counts,
            "seconds": seconds,
        });
        if args.divide {
            report["divide"] = split
                .iter()
                .map(|(m, n)| json!({ "move": m.to_string(), "count": n }))
                .collect();
        }
        writeln!(out, "{report}")?;
        return Ok(());
    }
    if args.divide {
        writeln!(out, "divide at depth {}:", args.depth)?;
        for (m, n) in &split {
            writeln!(out, "  {:>4}: {n}", m.to_string())?;
        }
    }
    writeln!(out, "{seconds:.3} s")?;
    Ok(())
}
