//! Bao's values in words, as the text reports of several commands share them (`kalah
//! solve`, `openings` and `analyse`, and `kalah play`'s engine): a proven outcome
//! ([`outcome_words`]) and every move's exact value ([`solved_moves`]), each line
//! without its line end.

use kalah_core::bao::BaoMove;
use kalah_solver::bao::Value as Wld;
use kalah_solver::bao_search::Outcome;

/// A proven outcome in words, for `mover` (a name and a blank, or nothing):
/// `proven: South wins within 3 moves`.
pub fn outcome_words(mover: &str, o: Outcome) -> String {
    match o {
        Outcome::Won { moves } => format!("proven: {mover}wins within {moves} moves"),
        Outcome::Lost { moves } => format!("proven: {mover}loses within {moves} moves"),
    }
}

/// The exact value of each move for its mover, one a line.
pub fn solved_moves(moves: &[(BaoMove, Wld)]) -> Vec<String> {
    moves
        .iter()
        .map(|(m, v)| format!("  {:>4}  {}", m.to_string(), v.describe()))
        .collect()
}
