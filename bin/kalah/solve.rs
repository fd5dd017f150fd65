//! `kalah solve`: the exact value of a position, its best turn and a principal variation.

use std::io::Write;
use std::sync::atomic::AtomicBool;

use kalah_analysis::wire;
use kalah_core::{Game, Position};
use kalah_solver::{Solution, SolveError, Solver};

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

    let report = Report {
        game: &game,
        pos: &pos,
        solver: &solver,
        solution: &solution,
        pv: pv_strings(&game, &solution),
        best: solution.best_turn().map(|t| t.notation(game.houses())),
        egdb_file: wire::report::egdb_file(&solver),
    };
    if args.json {
        writeln!(
            out,
            "{}",
            wire::report::solve_json(&solver, &pos, &solution)
        )?;
    } else {
        report.write_text(out)?;
    }
    Ok(())
}

/// What `kalah solve` says about a solved position, as JSON or as text.
struct Report<'a> {
    game: &'a Game,
    pos: &'a Position,
    solver: &'a Solver,
    solution: &'a Solution,
    /// The principal variation in the published notation.
    pv: Vec<String>,
    /// The best turn in the published notation (none when the game is over).
    best: Option<String>,
    /// The endgame database file the solver loaded, if any.
    egdb_file: Option<String>,
}

impl Report<'_> {
    /// The report for people: the value and its line, then the work.
    fn write_text(&self, out: &mut dyn Write) -> Result<(), CliError> {
        let value = self.solution.value_from_south();
        writeln!(out, "rules      {}", self.game.rules())?;
        writeln!(out, "position   {}", self.pos)?;
        let verdict = match value {
            v if v > 0 => format!("South wins by {v}"),
            v if v < 0 => format!("North wins by {}", -v),
            _ => "draw".to_string(),
        };
        writeln!(
            out,
            "value      {value:+} ({verdict}, final South store minus North store)"
        )?;
        writeln!(
            out,
            "best turn  {}",
            self.best.as_deref().unwrap_or("none (the game is over)")
        )?;
        writeln!(out, "pv         {}", self.pv.join(" "))?;
        match self.game.rules().family.is_cyclic() {
            true => self.write_graph_work(out),
            false => self.write_search_work(out),
        }
    }

    /// Retrograde analysis: the nodes are the positions of the game graph solved.
    fn write_graph_work(&self, out: &mut dyn Write) -> Result<(), CliError> {
        let (game, pos, solution) = (self.game, self.pos, self.solution);
        if !solution.pv.is_empty() && !pv_ends_game(game, pos, solution) {
            writeln!(
                out,
                "           (the line returns to a position: play would go on for ever, \
                 and the store margin stands)"
            )?;
        }
        writeln!(
            out,
            "positions  {} of the game graph solved by retrograde analysis in {:.3} s \
             ({} threads)",
            solution.nodes,
            solution.elapsed.as_secs_f64(),
            self.solver.config().threads
        )?;
        Ok(())
    }

    /// The search: its database, nodes, speed, threads and table use.
    fn write_search_work(&self, out: &mut dyn Write) -> Result<(), CliError> {
        let solution = self.solution;
        if let Some(file) = &self.egdb_file {
            writeln!(out, "database   {file}")?;
        }
        writeln!(
            out,
            "nodes      {} in {:.3} s ({:.2} M nodes/s, {} threads, table {:.1}% used{})",
            solution.nodes,
            solution.elapsed.as_secs_f64(),
            solution.nodes_per_second() / 1e6,
            self.solver.config().threads,
            solution.table_permille as f64 / 10.0,
            self.solver
                .database_seeds_for(self.pos)
                .map_or(String::new(), |k| format!(
                    ", endgame database up to {k} seeds: {} hits",
                    solution.egdb_hits
                ))
        )?;
        Ok(())
    }
}

/// True when the principal variation of `solution` plays from `pos` to the end of the game
/// (not to a repetition).
fn pv_ends_game(game: &Game, pos: &Position, solution: &Solution) -> bool {
    kalah_solver::line::replay(game, pos, &solution.pv, solution.value_from_south())
        .is_ok_and(|end| end.is_over())
}
