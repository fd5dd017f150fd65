//! The answers of `kalah solve` and `kalah show` as JSON, one object per answer, for
//! programs that read them: a sowing game's ([`solve_json`], [`show_json`]) and the
//! board's of either kind ([`Board::show_json`]); Bao's are in [`super::bao`].
//!
//! Every answer names the rules as written on the command line (`rules`); a position is
//! written in the board form, a turn and a principal variation (`pv`) in the published
//! notation ([`write_line`]); values are from South unless the field says otherwise.

use kalah_core::{notation, Game, Position, Side};
use kalah_solver::{Solution, Solver};
use serde_json::{json, Value};

use crate::game::Board;
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

/// The answer of `kalah show --json`: the position (`houses` South's then North's, each
/// from its owner's left; `stores` South's then North's), the side to move, the bins it
/// may sow (`moves`), whether the game is over and the `score` (South's store minus
/// North's).
pub fn show_json(game: &Game, pos: &Position) -> Value {
    let h = pos.houses_per_side();
    let houses: Vec<u8> = [Side::South, Side::North]
        .into_iter()
        .flat_map(|side| (0..h).map(move |j| pos.house(side, j)))
        .collect();
    let fields = json!({
        "position": pos.to_string(),
        "side": pos.side_to_move().to_string(),
        "houses": houses,
        "stores": [pos.store(Side::South), pos.store(Side::North)],
        "moves": notation::move_bins(game, pos),
        "over": pos.is_over(),
        "score": pos.score(),
    });
    under(game.rules(), fields)
}

impl Board {
    /// The position as JSON, as `kalah show --json` prints it (docs/outputs.md): a sowing
    /// game's by [`show_json`], Bao's by [`super::bao::show_json`].
    pub fn show_json(&self) -> Value {
        match self {
            Board::Sowing(game, pos) => show_json(game, pos),
            Board::Bao(rules, pos) => super::bao::show_json(rules, pos),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kalah_core::Rules;

    #[test]
    fn a_position_is_shown_with_its_houses_stores_and_bins() {
        let game = Game::new(Rules::kalah(3, 2)).unwrap();
        let pos = game.settle("0,2,2,1,2,2,2,0:N".parse().unwrap()).unwrap();
        let v = show_json(&game, &pos);
        assert_eq!(v["houses"], json!([0, 2, 2, 2, 2, 2]));
        assert_eq!(v["stores"], json!([1, 0]));
        assert_eq!(v["side"], json!("North"));
        assert_eq!(v["moves"], json!([5, 6, 7]));
        assert_eq!((&v["over"], &v["score"]), (&json!(false), &json!(1)));
        assert_eq!(v["rules"], json!(game.rules().to_string()));
    }

    #[test]
    fn a_board_is_shown_by_the_json_of_its_kind() {
        let game = Game::new(Rules::kalah(3, 2)).unwrap();
        let start = game.start();
        let sowing = Board::Sowing(std::sync::Arc::new(game.clone()), start);
        assert_eq!(sowing.show_json(), show_json(&game, &start));
        let bao = crate::game::setup::bao::setup(&crate::game::setup::bao::BaoOptions {
            pits: Some(4),
            seeds: Some(2),
            position: None,
            moves: None,
        })
        .unwrap();
        let board = Board::Bao(bao.rules, bao.pos);
        assert_eq!(
            board.show_json(),
            super::super::bao::show_json(&bao.rules, &bao.pos)
        );
        assert_eq!(board.show_json()["rules"], bao.rules.to_string());
    }

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
