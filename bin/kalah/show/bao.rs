//! `kalah show --rules bao`: the four rows, the side to move and the legal moves of a Bao
//! position, or the same as JSON.

use std::io::Write;

use kalah_analysis::setup::bao::{drawing, end_words, is_over};
use kalah_core::bao::BaoPosition;
use serde_json::json;

use crate::args::GameArgs;
use crate::error::CliError;

/// The state of the game in words: who moves, or who has won.
fn state(pos: &BaoPosition) -> String {
    match is_over(pos) {
        true => format!("game over: {}", end_words(pos)),
        false => format!("{} to move", pos.side()),
    }
}

/// Runs `kalah show --rules bao`.
pub fn show(game: &GameArgs, json: bool, out: &mut dyn Write) -> Result<(), CliError> {
    let (rules, pos) = game.bao_setup()?;
    let moves: Vec<String> = pos.legal().moves().map(|m| m.to_string()).collect();
    if json {
        let report = json!({
            "rules": rules.to_string(),
            "pits": rules.pits(),
            "seeds": rules.seeds(),
            "position": pos.to_string(),
            "side": pos.side().to_string(),
            "rows": pos.text_rows(),
            "moves": moves,
            "over": is_over(&pos),
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
