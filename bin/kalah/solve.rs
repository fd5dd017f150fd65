//! `kalah solve`: the exact value of a position, its best turn and a principal variation.

use std::io::Write;
use std::sync::atomic::AtomicBool;

use kalah_analysis::solved::SolveReport;
use kalah_analysis::wire;
use kalah_solver::SolveError;

use crate::args::GameArgs;
use crate::error::CliError;
use crate::solving::{progress_message, pv_strings, verify, SolverArgs};

/// Solve a position exactly: its value under perfect play, best turn and principal variation.
///
/// The value is the final store difference South minus North (stores already banked
/// included) when both sides play perfectly. The principal variation is replayed before
/// anything is printed, to check that it ends with exactly that value.
///
/// Example: `kalah solve --houses 6 --seeds 4 --capture empty --json`
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Print one JSON object (value, best_turn, pv, nodes, seconds, ...) instead of text
    #[arg(long)]
    json: bool,

    #[command(flatten)]
    game: GameArgs,

    #[command(flatten)]
    solver: SolverArgs,
}

/// Runs `kalah solve`.
pub fn run(args: &Args, out: &mut dyn Write) -> Result<(), CliError> {
    let (game, pos) = args.game.setup()?;
    let solver = args.solver.solver(&game, pos.seeds_in_houses() as usize)?;
    let spinner = args.solver.spinner();
    let sign = pos.side_to_move().sign();
    let solution = solver
        .solve(&pos, &AtomicBool::new(false), &mut |p| {
            spinner.set_message(progress_message(p, sign))
        })
        .map_err(|e| match e {
            SolveError::GraphTooLarge { .. } => crate::analysis_io::invalid(e.to_string()),
            SolveError::Cancelled => CliError::Internal(e.to_string()),
        })?;
    spinner.finish_and_clear();
    verify(&game, &pos, &solution)?;

    let report = SolveReport {
        game: &game,
        pos: &pos,
        solver: &solver,
        solution: &solution,
        pv: pv_strings(&game, &solution),
        best: solution.best_turn().map(|t| t.notation(game.houses())),
        egdb_file: wire::report::egdb_file(&solver),
    };
    report.write(args.json, out)?;
    Ok(())
}
