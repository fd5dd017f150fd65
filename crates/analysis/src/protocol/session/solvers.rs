//! The maker of the engine protocol's solvers, from the command's one options value
//! ([`crate::run::solving::Solving`]) with the evaluation the session asks for, so that no
//! front end makes them.

use std::sync::atomic::AtomicBool;

use kalah_core::Game;

use super::{EvaluationChoice, SolverFactory};
use crate::run::solving::{SetupShown, SolverOptions, Solving, SolvingError};

/// The maker of the engine protocol's solvers ([`SolverFactory`]), a solver each time the
/// session's game changes: [`Solving::engine`] of `options` with `evaluation` for the
/// rules, its set-up shown on `shown`, a database build stopped by `cancel`; an error in
/// the words of `words` (the front end's, which names its options).
pub fn engine_factory(
    options: SolverOptions,
    evaluation: EvaluationChoice,
    shown: Box<dyn SetupShown + Send>,
    cancel: Option<&'static AtomicBool>,
    words: fn(SolvingError) -> String,
) -> SolverFactory {
    Box::new(move |game: &Game| {
        let solving = Solving {
            options: options.clone(),
            shown: shown.as_ref(),
            cancel,
        };
        let evaluation = evaluation.for_rules(game.rules());
        solving.engine(game, None, evaluation).map_err(words)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::run::solving::tests::small_solving;
    use kalah_core::Rules;

    #[test]
    fn the_engine_factory_makes_a_solver_for_each_game() {
        let options = small_solving().options;
        let mut make = engine_factory(
            options,
            EvaluationChoice::Store,
            Box::new(crate::run::solving::Unshown),
            None,
            |e| e.to_string(),
        );
        for houses in [3, 4] {
            let game = Game::new(Rules::kalah(houses, 2)).unwrap();
            assert_eq!(make(&game).unwrap().config().threads, 1);
        }
    }
}
