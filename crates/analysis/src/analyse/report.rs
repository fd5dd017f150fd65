//! The answer of `kalah solve` as JSON, one object per answer, for programs that read
//! it: a sowing game's ([`solve_json`]); Bao's is in [`super::bao`], a shown position's
//! of either kind in the game floor ([`Board::show_json`](crate::game::Board::show_json)).
//!
//! Every answer names the rules as written on the command line (`rules`); a position is
//! written in the board form, a turn and a principal variation (`pv`) in the published
//! notation ([`write_line`]); values are from South unless the field says otherwise.

use kalah_core::Position;
use kalah_solver::{Solution, Solver};
use serde_json::{json, Value};

use crate::wire::{about, under, write_line};

/// The endgame database file `solver` loaded, if any (named, or found in a directory).
pub fn egdb_file(solver: &Solver) -> Option<String> {
    solver
        .egdb()
        .and_then(|d| d.path())
        .map(|p| p.display().to_string())
}

/// The answer of `kalah solve --json`: the value of `pos` from South and for the mover,
/// the best turn, the principal variation, and the work (nodes, seconds, speed, threads,
/// table size and use, the database's reach, hits and file).
pub fn solve_json(solver: &Solver, pos: &Position, solution: &Solution) -> Value {
    let h = solver.game().houses();
    let config = solver.config();
    let fields = json!({
        "value": solution.value_from_south(),
        "value_for_mover": solution.value,
        "best_turn": solution.best_turn().map(|t| t.notation(h)),
        "pv": write_line(h, &solution.pv),
        "nodes": solution.nodes,
        "seconds": solution.elapsed.as_secs_f64(),
        "nodes_per_second": solution.nodes_per_second().round(),
        "threads": config.threads,
        "hash_mb": config.hash_mb,
        "table_permille": solution.table_permille,
        "egdb_seeds": solver.database_seeds_for(pos),
        "egdb_hits": solution.egdb_hits,
        "egdb_file": egdb_file(solver),
    });
    under(solver.game().rules(), about(pos, fields))
}

#[cfg(test)]
mod tests {
    use super::*;
    use kalah_core::{Game, Rules};

    #[test]
    fn a_solve_reports_its_value_line_and_work() {
        let game = Game::new(Rules::kalah(3, 2)).unwrap();
        let config = kalah_solver::Config {
            threads: 1,
            hash_mb: 4,
            ..kalah_solver::Config::default()
        };
        let solver = Solver::new(game.clone(), config).unwrap();
        let pos = game.start();
        let solution = solver
            .solve(&pos, &Default::default(), &mut |_| {})
            .unwrap();
        let v = solve_json(&solver, &pos, &solution);
        assert_eq!(v["value"], json!(solution.value_from_south()));
        assert_eq!(v["pv"], json!(write_line(3, &solution.pv)));
        assert_eq!(v["best_turn"], v["pv"][0]);
        assert_eq!(v["threads"], json!(solver.config().threads));
        assert_eq!(v["egdb_file"], Value::Null);
    }
}
