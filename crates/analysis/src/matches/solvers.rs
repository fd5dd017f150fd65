//! The solvers of a match, made from the command's one options value
//! ([`crate::run::solving::Solving`]) with what each engine asks for (its threads, its
//! evaluation), so that no front end makes them.

use kalah_core::Game;
use kalah_solver::Solver;

use super::build::{self, BuildError, PlayerSpec, ProgramSpec, SolverRequest};
use super::Match;
use crate::game::Board;
use crate::protocol::session::EvaluationChoice;
use crate::run::solving::{Solving, SolvingError};

/// The solver a match asks for ([`SolverRequest`]): an engine's ([`Solving::engine`])
/// with the request's threads and evaluation, and its table size where the options set
/// none and the family has a table (Oware's and the other cyclic families' games are
/// solved whole, without one: the request's size is the match's choice, not the user's,
/// so it is dropped there rather than refused).
pub fn for_match(
    solving: &Solving,
    game: &Game,
    request: SolverRequest<EvaluationChoice>,
) -> Result<Solver, SolvingError> {
    let mut solving = solving.clone();
    if !game.rules().family.is_cyclic() {
        let hash_mb = &mut solving.options.overrides.hash_mb;
        *hash_mb = hash_mb.or(request.hash_mb);
    }
    let evaluation = request.evaluation.for_rules(game.rules());
    solving.engine(game, Some(request.threads as usize), evaluation)
}

/// The match of `game` between the engine's search with `specs` (or player 2 the program
/// `program`), every solver it needs made by `solving` ([`for_match`]):
/// [`build::sowing_match`].
pub fn sowing_match(
    solving: &Solving,
    game: Game,
    specs: &[PlayerSpec<EvaluationChoice>; 2],
    program: Option<&ProgramSpec>,
    exact_nodes: u64,
) -> Result<Match, BuildError<SolvingError>> {
    let mut make = |game: &Game, request| for_match(solving, game, request);
    build::sowing_match(game, specs, program, exact_nodes, &mut make)
}

/// The match on the rules of `board` (a match starts from the start, whatever position
/// `board` holds): Bao's between its anytime analyses ([`build::bao_match`]), a sowing
/// game's between the engine's searches ([`sowing_match`]).
pub fn board_match(
    solving: &Solving,
    board: Board,
    specs: &[PlayerSpec<EvaluationChoice>; 2],
    program: Option<&ProgramSpec>,
    exact_nodes: u64,
) -> Result<Match, BuildError<SolvingError>> {
    match board {
        Board::Bao(rules, _) => {
            build::bao_match(rules, specs, program).map_err(BuildError::Program)
        }
        Board::Sowing(game, _) => {
            let game = std::sync::Arc::unwrap_or_clone(game);
            sowing_match(solving, game, specs, program, exact_nodes)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::run::solving::tests::small_solving;
    use kalah_core::Rules;

    #[test]
    fn a_match_request_sets_the_threads_and_the_table_where_the_options_do_not() {
        let game = Game::new(Rules::kalah(3, 2)).unwrap();
        let mut solving = small_solving();
        solving.options.overrides.hash_mb = None;
        let request = SolverRequest {
            threads: 2,
            evaluation: EvaluationChoice::Store,
            hash_mb: Some(4),
        };
        let solver = for_match(&solving, &game, request).unwrap();
        assert_eq!((solver.config().threads, solver.config().hash_mb), (2, 4));
        let solver = for_match(&small_solving(), &game, request).unwrap();
        assert_eq!(solver.config().hash_mb, 16);
    }

    #[test]
    fn a_match_of_a_family_without_a_table_drops_the_requests_table_size() {
        let game = Game::new(Rules::oware(3, 2)).unwrap();
        let mut solving = small_solving();
        solving.options.overrides.hash_mb = None;
        let exact = SolverRequest::<EvaluationChoice>::EXACT;
        assert!(exact.hash_mb.is_some());
        assert!(for_match(&solving, &game, exact).is_ok());
        // The user's own --hash-mb is still refused, with the words that say why.
        let mut given = small_solving();
        given.options.overrides.hash_mb = Some(8);
        let words = match for_match(&given, &game, exact) {
            Ok(_) => panic!("a table size given for Oware was taken"),
            Err(e) => e.to_string(),
        };
        assert!(words.contains("leave out --hash-mb"), "{words}");
    }

    #[test]
    fn a_board_match_plays_the_game_its_rules_name() {
        use crate::game::setup::RuleOptions;
        use crate::game::RulesName;
        use kalah_core::Preset;
        let spec = PlayerSpec::new(kalah_solver::Limits::depth(1), EvaluationChoice::Store, 1);
        let specs = [spec, spec];
        let options = RuleOptions {
            houses: Some(3),
            seeds: Some(2),
            ..RuleOptions::default()
        };
        let sowing = Board::set_up(RulesName::Sowing(Preset::Kalah), &options, None, None).unwrap();
        let m = board_match(&small_solving(), sowing, &specs, None, 0).unwrap();
        assert!(m.sowing_rules().is_some());
        let bao = Board::set_up(RulesName::Bao, &options, None, None).unwrap();
        let m = board_match(&small_solving(), bao, &specs, None, 0).unwrap();
        assert!(m.sowing_rules().is_none());
    }
}
