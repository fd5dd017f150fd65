//! The sowing games' front of a batch: its positions solved (or analysed within limits) by
//! one [`Solver`] shared by its workers, answered as [`crate::wire::answer`] lines.

use std::sync::atomic::AtomicBool;

use kalah_solver::{Limits, SolveError, Solver};

use super::{Answered, Front};
use crate::batch::{solve_one, Item};
use crate::game::bounds::signed;
use crate::game::AnalysisError;
use crate::wire::answer;

/// The sowing games (Kalah and its family) behind [`Front`]: `solver` (its rules are the
/// game's) on `workers` threads, each position solved exactly or, with `limits`, analysed
/// within them (exact where proved in time, else heuristic).
pub struct Sowing {
    solver: Solver,
    limits: Option<Limits>,
    workers: usize,
}

impl Sowing {
    /// The front of `solver`'s game on `workers` threads (at least 1), analysing within
    /// `limits` where given.
    pub fn new(solver: Solver, limits: Option<Limits>, workers: usize) -> Sowing {
        Sowing {
            solver,
            limits,
            workers: workers.max(1),
        }
    }
}

impl Front for Sowing {
    fn rules_text(&self) -> String {
        self.solver.game().rules().to_string()
    }

    fn answer(&self, item: &Item, cancel: &AtomicBool) -> Result<Answered, AnalysisError> {
        let r =
            solve_one(&self.solver, item, self.limits.as_ref(), cancel).map_err(|e| match e {
                SolveError::GraphTooLarge { limit } => AnalysisError::GraphTooLarge { limit },
                SolveError::Cancelled => AnalysisError::Cancelled,
            })?;
        let rules = self.solver.game().rules();
        let result = r.as_ref().map_err(|e| e as &dyn std::fmt::Display);
        let note = match &r {
            Ok(a) if a.bound.is_heuristic() => {
                format!("line {}: about {}", item.line, signed(a.value))
            }
            Ok(a) => format!("line {}: {}", item.line, signed(a.value)),
            Err(_) => format!("line {}: error", item.line),
        };
        Ok(Answered {
            line: answer::write(item.line, &item.input, rules, result),
            note,
        })
    }

    fn workers(&self) -> usize {
        self.workers
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::batch::answer_stream;
    use crate::batch::items;
    use kalah_core::{Game, Rules};

    fn front(limits: Option<Limits>, workers: usize) -> Sowing {
        let game = Game::new(Rules::kalah(3, 2)).unwrap();
        let config = kalah_solver::Config {
            threads: 1,
            hash_mb: 1,
            ..kalah_solver::Config::default()
        };
        Sowing::new(Solver::new(game, config).unwrap(), limits, workers)
    }

    #[test]
    fn a_stream_is_answered_in_input_order_with_errors_in_their_place() {
        let front = front(None, 2);
        assert_eq!(front.rules_text(), Rules::kalah(3, 2).to_string());
        let input = items("1\n# a comment\n2\nnot a move\n\n3\n");
        let mut next = input.clone().into_iter();
        let never = AtomicBool::new(false);
        let mut got = Vec::new();
        let done = answer_stream(&front, &mut || next.next(), &never, &mut |item, a| {
            got.push((item.line, a));
            true
        })
        .unwrap();
        assert_eq!(done.answered, 4);
        let lines: Vec<usize> = got.iter().map(|(l, _)| *l).collect();
        assert_eq!(lines, [1, 3, 4, 6]);
        assert!(got[2].1.line["error"].is_string());
        assert_eq!(got[2].1.note, "line 4: error");
        for (line, a) in [&got[0], &got[1], &got[3]] {
            assert!(a.line["value"].is_i64(), "{}", a.line);
            assert!(a.note.starts_with(&format!("line {line}: ")));
        }
    }

    #[test]
    fn an_analysis_not_proved_says_about_in_its_note() {
        let front = front(Some(Limits::depth(1)), 1);
        let never = AtomicBool::new(false);
        let item = &items("1\n")[0];
        let a = front.answer(item, &never).unwrap();
        if a.line["exact"] == false {
            assert!(a.note.starts_with("line 1: about "), "{}", a.note);
        }
    }
}
