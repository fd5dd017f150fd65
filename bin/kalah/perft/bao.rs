//! `kalah perft --rules bao`: the sequences of whole Bao moves to a depth (BAO.md R8.3); a
//! move that ends the game counts, and nothing continues past it.

use std::io::Write;
use std::time::Instant;

use kalah_core::bao;
use serde_json::json;

use crate::args::GameArgs;
use crate::error::CliError;

/// The deepest count of Bao's perft.
const MAX_DEPTH: u32 = 30;

/// Runs `kalah perft --rules bao`: each depth printed as soon as it is counted.
pub fn perft(
    game: &GameArgs,
    depth: u32,
    divide: bool,
    json: bool,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    if depth > MAX_DEPTH {
        return Err(CliError::Input(format!(
            "--depth {depth} is deeper than Bao's perft counts: 1 to {MAX_DEPTH} moves"
        )));
    }
    let (rules, pos) = game.bao_setup()?;
    let timer = Instant::now();
    let mut counts = Vec::new();
    for d in 1..=depth {
        counts.push(bao::perft(&pos, d));
        if !json {
            writeln!(out, "perft({d}) = {}", counts[d as usize - 1])?;
            out.flush()?;
        }
    }
    let split = match divide {
        true => bao::divide(&pos, depth),
        false => Vec::new(),
    };
    let seconds = timer.elapsed().as_secs_f64();
    if json {
        let mut report = json!({
            "rules": rules.to_string(),
            "position": pos.to_string(),
            "counts": counts,
            "seconds": seconds,
        });
        if divide {
            report["divide"] = split
                .iter()
                .map(|(m, n)| json!({ "move": m.to_string(), "count": n }))
                .collect();
        }
        writeln!(out, "{report}")?;
        return Ok(());
    }
    if divide {
        writeln!(out, "divide at depth {depth}:")?;
        for (m, n) in &split {
            writeln!(out, "  {:>4}: {n}", m.to_string())?;
        }
    }
    writeln!(out, "{seconds:.3} s")?;
    Ok(())
}
