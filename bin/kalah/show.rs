//! `kalah show`: draws a position as text in the layout of published analyses, with the
//! side to move, the legal moves and the score; or prints the same as JSON.

use std::io::Write;

use kalah_core::notation::bin;
use kalah_core::{Game, Position, Side};
use serde_json::json;

use crate::args::GameArgs;
use crate::error::CliError;

/// Draw a position, its legal moves and its score.
///
/// North's houses on top (right to left), South's at the bottom, each labelled with its
/// bin, North's store at the left end and South's at the right; then the side to move, the
/// legal moves, the score (South's store minus North's) and the board notation.
///
/// Example: `kalah show --moves 3-6` or `kalah show --position 0,0,1,0,0,2,20,3,0,0,0,0,1,21:N`
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Print a JSON object (position, side, houses, stores, moves, over, score) instead of
    /// the drawing
    #[arg(long)]
    json: bool,

    #[command(flatten)]
    game: GameArgs,
}

/// Runs `kalah show`.
pub fn run(args: &Args, out: &mut dyn Write) -> Result<(), CliError> {
    let (game, pos) = args.game.setup()?;
    if args.json {
        writeln!(out, "{}", to_json(&game, &pos))?;
    } else {
        write!(out, "{}", describe(&game, &pos))?;
    }
    Ok(())
}

/// The bins the player to move may sow, in increasing order (in Ethiopian Kalah each in
/// either direction).
pub fn move_bins(game: &Game, pos: &Position) -> Vec<usize> {
    let h = pos.houses_per_side();
    let side = pos.side_to_move();
    let mut bins: Vec<usize> = game
        .legal_moves(pos)
        .map(|j| bin(h, side, j % kalah_core::CLOCKWISE))
        .collect();
    bins.sort_unstable();
    bins.dedup();
    bins
}

/// The legal moves of the player to move in the notation (`3`, and `3<` for a clockwise
/// sowing where the family has them), counter-clockwise ones first.
pub fn move_names(game: &Game, pos: &Position) -> Vec<String> {
    let (h, side) = (pos.houses_per_side(), pos.side_to_move());
    game.legal_moves(pos)
        .map(|j| kalah_core::notation::format_move(h, side, j))
        .collect()
}

/// The position as a JSON object.
fn to_json(game: &Game, pos: &Position) -> serde_json::Value {
    let h = pos.houses_per_side();
    let houses: Vec<u8> = [Side::South, Side::North]
        .into_iter()
        .flat_map(|side| (0..h).map(move |j| pos.house(side, j)))
        .collect();
    json!({
        "rules": game.rules().to_string(),
        "position": pos.to_string(),
        "side": pos.side_to_move().to_string(),
        "houses": houses,
        "stores": [pos.store(Side::South), pos.store(Side::North)],
        "moves": move_bins(game, pos),
        "over": pos.is_over(),
        "score": pos.score(),
    })
}

/// The drawing followed by the side to move, the moves, the score and the notation.
pub fn describe(game: &Game, pos: &Position) -> String {
    let moves = move_names(game, pos);
    let moves = if moves.is_empty() {
        "none".to_string()
    } else {
        moves.join(" ")
    };
    let state = if pos.is_over() {
        format!("game over, final score {:+} (South - North)", pos.score())
    } else {
        format!(
            "{} to move, score so far {:+} (South - North)",
            pos.side_to_move(),
            pos.score()
        )
    };
    format!(
        "{}\nrules:    {}\nstate:    {state}\nmoves:    {moves}\nposition: {pos}\n",
        board(pos),
        game.rules()
    )
}

/// Draws the board with its bin numbers:
///
/// ```text
///          13   12   11   10    9    8   North
///         [ 4] [ 4] [ 4] [ 4] [ 4] [ 4]
/// 14 [ 0]                               [ 0] 7
///         [ 4] [ 4] [ 4] [ 4] [ 4] [ 4]
///           1    2    3    4    5    6   South
/// ```
pub fn board(pos: &Position) -> String {
    let h = pos.houses_per_side();
    let counts = pos.absolute_counts();
    // Width of a count inside its brackets, and of a bin label.
    let w = counts
        .iter()
        .map(|c| c.to_string().len())
        .max()
        .unwrap_or(1)
        .max(2)
        .max((2 * h + 1).to_string().len());
    let bw = (2 * h + 2).to_string().len();
    let cell = |c: u8| format!("[{c:>w$}]");
    let label = |b: usize| format!(" {b:>w$} ");
    let north_bins = (0..h).rev().map(|j| bin(h, Side::North, j));
    let south_bins = (0..h).map(|j| bin(h, Side::South, j));
    let row = |side: Side, rev: bool| {
        let mut cells: Vec<String> = (0..h).map(|j| cell(pos.house(side, j))).collect();
        if rev {
            cells.reverse();
        }
        cells.join(" ")
    };
    let margin = " ".repeat(bw + 1 + w + 2 + 1);
    let row_width = h * (w + 2) + (h - 1);
    let mut s = String::new();
    let labels = |bins: Vec<usize>| bins.into_iter().map(label).collect::<Vec<_>>().join(" ");
    s += &format!("{margin}{}   North\n", labels(north_bins.collect()));
    s += &format!("{margin}{}\n", row(Side::North, true));
    s += &format!(
        "{:>bw$} {}{}{} {}\n",
        2 * h + 2,
        cell(pos.store(Side::North)),
        " ".repeat(row_width + 2),
        cell(pos.store(Side::South)),
        h + 1
    );
    s += &format!("{margin}{}\n", row(Side::South, false));
    s += &format!("{margin}{}   South\n", labels(south_bins.collect()));
    s
}
