//! Bao's engine in a game against a human (`kalah play --rules bao`): perfect from the
//! solved game graph on boards whose graph solves quickly, else the anytime analysis
//! within a time a move; each turn with what backs it.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use kalah_core::bao::{BaoMove, BaoPosition};
use kalah_solver::bao::{BaoSolveError, BaoSolved, Value as Wld};
use kalah_solver::bao_search::{self, Outcome};
use kalah_solver::Limits;

use crate::game::bao_solve::bao_solve_within;
use crate::run::progress::bao_graph_message;

/// The time a move of the anytime engine where none is given and the board is too large
/// to solve.
pub const BAO_ENGINE_SECONDS: u64 = 1;

/// What is said before the perfect engine solves the game graph (it takes a while).
pub const SOLVING_FIRST: &str = "Solving the game graph first...";

/// Bao's engine in a game.
pub enum BaoEngine {
    /// The solved game graph: the best move and its exact value.
    Perfect(BaoSolved),
    /// The anytime analysis for this long a move.
    Timed(Duration),
}

/// The time a move for the anytime engine, or `None` for the perfect one: `time` if
/// given, else the perfect engine where the board is small ([`super::bao_solves_quickly`])
/// and [`BAO_ENGINE_SECONDS`] a move where it is not.
pub fn engine_time(time: Option<Duration>, pos: &BaoPosition) -> Option<Duration> {
    if time.is_some() {
        return time;
    }
    (!super::bao_solves_quickly(pos)).then_some(Duration::from_secs(BAO_ENGINE_SECONDS))
}

/// The perfect engine from `pos`: its game graph solved within `memory_mb`
/// ([`bao_solve_within`]), the progress said in words on `say` (a spinner's message);
/// `cancel` stops it, and the front end says what that keeps
/// ([`crate::game::bao_solve::BAO_SOLVE_INTERRUPTED`]).
pub fn perfect_engine(
    pos: &BaoPosition,
    memory_mb: u64,
    cancel: &AtomicBool,
    say: &mut dyn FnMut(String),
) -> Result<BaoEngine, BaoSolveError> {
    let solved = bao_solve_within(pos, memory_mb, cancel, &mut |p| say(bao_graph_message(p)))?;
    Ok(BaoEngine::Perfect(solved))
}

/// What backs an engine's move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backing {
    /// The exact value of the move for its mover, from the solved graph.
    Exact(Wld),
    /// A win or loss the analysis proved.
    Proven(Outcome),
    /// The analysis' heuristic evaluation from South (points, 100 a seed) at `depth`.
    Heuristic {
        /// The evaluation from South.
        eval: i32,
        /// The depth searched.
        depth: u8,
    },
    /// Nothing was searched (the root's own moves outlasted the limit): the first legal
    /// move.
    NotSearched,
}

/// The engine's move at `pos` and what backs it; `None` where it has none (the game is
/// over, or the solved graph does not hold `pos`).
pub fn engine_turn(engine: &BaoEngine, pos: &BaoPosition) -> Option<(BaoMove, Backing)> {
    match engine {
        BaoEngine::Perfect(solved) => {
            let (mv, value) = solved.best_move(pos)?;
            Some((mv, Backing::Exact(value)))
        }
        BaoEngine::Timed(limit) => {
            let never = AtomicBool::new(false);
            let a = bao_search::analyse(pos, &Limits::time(*limit), &never, &mut |_| {});
            // Without a searched move the first legal move is played (as `protocol::session::bao`'s).
            let mv = a
                .best_turn()
                .copied()
                .or_else(|| pos.legal().moves().next())?;
            let backing = match a.proven {
                Some(o) => Backing::Proven(o),
                None if a.best_turn().is_none() => Backing::NotSearched,
                None => Backing::Heuristic {
                    eval: a.eval_from_south(),
                    depth: a.depth,
                },
            };
            Some((mv, backing))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small position of Bao(4,2) whose graph solves at once (a draw).
    const E16: &str = "2,1,0,1/1,0,0,0/0,0,0,1/2,1,1,0:S";

    #[test]
    fn the_perfect_engine_is_the_solved_graph() {
        let pos: BaoPosition = E16.parse().unwrap();
        let never = AtomicBool::new(false);
        let engine = perfect_engine(&pos, 64, &never, &mut |_| {}).unwrap();
        let BaoEngine::Perfect(solved) = &engine else {
            panic!("the perfect engine was not made");
        };
        let direct = bao_solve_within(&pos, 64, &never, &mut |_| {}).unwrap();
        assert_eq!(solved.value(&pos), direct.value(&pos));
        assert_eq!(
            engine_turn(&engine, &pos),
            engine_turn(&BaoEngine::Perfect(direct), &pos)
        );
    }

    #[test]
    fn the_perfect_engine_plays_the_graph_s_best_move_and_the_timed_one_a_legal_move() {
        let pos: BaoPosition = E16.parse().unwrap();
        assert_eq!(engine_time(None, &pos), None);
        let given = Some(Duration::from_millis(20));
        assert_eq!(engine_time(given, &pos), given);
        let solved =
            kalah_solver::bao::solve_position(&pos, 1 << 20, &AtomicBool::new(false), &mut |_| {})
                .unwrap();
        let best = solved.best_move(&pos).unwrap();
        let perfect = BaoEngine::Perfect(solved);
        assert_eq!(
            engine_turn(&perfect, &pos),
            Some((best.0, Backing::Exact(best.1)))
        );
        let timed = BaoEngine::Timed(Duration::from_millis(20));
        let (mv, _) = engine_turn(&timed, &pos).unwrap();
        assert!(pos.try_play(mv).is_ok());
    }
}
