//! `kalah openings --rules bao`: the value of every legal move of a Bao position, exact
//! from its solved game graph, or the anytime analysis' within limits.

use std::io::Write;

use serde_json::json;

use crate::analyse::bao::within;
use crate::args::LimitArgs;
use crate::error::CliError;
use crate::solve::bao::{solved_within, turns_json, write_moves};

/// Runs `kalah openings --rules bao`.
pub fn openings(args: &super::Args, out: &mut dyn Write) -> Result<(), CliError> {
    let (rules, pos) = args.game.bao_setup()?;
    let limits = LimitArgs {
        time: args.time,
        nodes: args.nodes,
        depth: args.depth,
    };
    if let Some(limits) = limits.given() {
        return within(&pos, &limits, args.json, true, out);
    }
    let (solution, _) = solved_within(&args.graph, args.solver.quiet, &pos)?;
    let moves = solution.move_values(&pos).expect("the root is solved");
    if args.json {
        let report = json!({
            "rules": rules.to_string(),
            "position": pos.to_string(),
            "side_to_move": pos.side().to_string(),
            "best_turn": solution.best_move(&pos).map(|(m, _)| m.to_string()),
            "turns": turns_json(&pos, &moves),
        });
        writeln!(out, "{report}")?;
        return Ok(());
    }
    writeln!(out, "position: {pos}")?;
    write_moves(&moves, out)
}
