//! `kalah show`: draws a position as text in the layout of published analyses, with the
//! side to move, the legal moves and the score; or prints the same as JSON. With `--rules
//! bao`, Bao's four rows.

use std::io::Write;

use crate::args::{GameArgs, QuietArgs};
use crate::error::CliError;

/// Draw a position, its legal moves and its score.
///
/// North's houses on top (right to left), South's at the bottom, each labelled with its
/// bin, North's store at the left end and South's at the right; then the side to move, the
/// legal moves, the score (South's store minus North's) and the board notation.
///
/// With --rules bao, a Bao position: its four rows, the side to move and the legal moves
/// (JSON: position, pits, side, rows, moves, over).
///
/// Example: `kalah show --moves 3-6` or `kalah show --position 0,0,1,0,0,2,20,3,0,0,0,0,1,21:N`
/// or `kalah show --rules bao --houses 4 --moves A1+`
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Print a JSON object (position, side, houses, stores, moves, over, score) instead of
    /// the drawing
    #[arg(long)]
    json: bool,

    #[command(flatten)]
    game: GameArgs,

    #[allow(dead_code)] // Every command takes --quiet; this one shows no progress.
    #[command(flatten)]
    quiet: QuietArgs,
}

/// Runs `kalah show`.
pub fn run(args: &Args, out: &mut dyn Write) -> Result<(), CliError> {
    let board = args.game.board()?;
    match args.json {
        true => writeln!(out, "{}", board.show_json())?,
        false => write!(out, "{}", board.describe())?,
    }
    Ok(())
}
