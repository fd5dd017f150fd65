//! Bao's front of a batch: its positions analysed by `bao_search` within limits or,
//! exactly, by solving each game graph (the last graph kept for the positions it holds),
//! answered as Bao's answer lines ([`crate::wire::answer::bao`]); one position at a time.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use kalah_core::bao::{BaoPosition, BaoRules};
use kalah_solver::bao::{BaoSolveError, BaoSolved, GraphStop};
use kalah_solver::bao_search;
use kalah_solver::Limits;
use serde_json::Value;

use super::front::{Answered, Front};
use super::Item;
use crate::game::bao_solve::{bao_solve_within, BAO_DEFAULT_SECONDS};
use crate::game::setup::bao as bao_setup;
use crate::game::AnalysisError;
use crate::wire::answer::bao::{answer_line, BaoAnswer};

/// How Bao's positions are answered.
#[derive(Clone, Debug)]
pub enum BaoHow {
    /// By the anytime analysis within these limits (exact only where it proves a win or
    /// a loss).
    Analyse(Limits),
    /// By solving the position's whole game graph, of at most this many megabytes.
    Exact {
        /// The memory the graph may take, in megabytes.
        memory_mb: u64,
    },
}

impl BaoHow {
    /// How a command answers: with `exact`, by solving each graph within `memory_mb`;
    /// else by the analysis within `limits` ([`BaoHow::analyse`]).
    pub fn of(exact: bool, memory_mb: u64, limits: Option<Limits>) -> BaoHow {
        match exact {
            true => BaoHow::Exact { memory_mb },
            false => BaoHow::analyse(limits),
        }
    }

    /// The analysis within `limits`, or for [`BAO_DEFAULT_SECONDS`] where none are given.
    pub fn analyse(limits: Option<Limits>) -> BaoHow {
        BaoHow::Analyse(
            limits.unwrap_or_else(|| Limits::time(Duration::from_secs_f64(BAO_DEFAULT_SECONDS))),
        )
    }
}

/// Bao under `rules` behind [`Front`]: each position answered as `how` says; with
/// [`BaoHow::Exact`], a position of the last graph solved (a later position of the same
/// game) is answered from it without solving again.
pub struct Bao {
    rules: BaoRules,
    how: BaoHow,
    last: Mutex<Option<Box<BaoSolved>>>,
}

impl Bao {
    /// The front of Bao under `rules`, answering as `how` says.
    pub fn new(rules: BaoRules, how: BaoHow) -> Bao {
        Bao {
            rules,
            how,
            last: Mutex::new(None),
        }
    }

    /// The answer line of `pos`, or `None` where `cancel` stopped its work.
    fn answer_position(
        &self,
        item: &Item,
        pos: &BaoPosition,
        cancel: &AtomicBool,
    ) -> Option<Value> {
        let started = Instant::now();
        let seconds = || started.elapsed().as_secs_f64();
        let line = |result: Result<(&BaoPosition, BaoAnswer, f64), &dyn std::fmt::Display>| {
            answer_line(item.line, &item.input, &self.rules, result)
        };
        let memory_mb = match &self.how {
            BaoHow::Analyse(limits) => {
                let r = bao_search::analyse(pos, limits, cancel, &mut |_| {});
                if cancel.load(Ordering::Relaxed) {
                    return None;
                }
                return Some(line(Ok((pos, BaoAnswer::Analysed(&r), seconds()))));
            }
            BaoHow::Exact { memory_mb } => *memory_mb,
        };
        // One position at a time: the lock is never contended, and a poisoned one only
        // loses the graph kept.
        let mut last = self.last.lock().unwrap_or_else(|e| e.into_inner());
        let known = last.as_ref().is_some_and(|s| s.value(pos).is_some());
        if !known {
            match bao_solve_within(pos, memory_mb, cancel, &mut |_| {}) {
                Ok(s) => *last = Some(Box::new(s)),
                Err(BaoSolveError::Stopped(GraphStop::Cancelled)) => return None,
                Err(e) => return Some(line(Err(&e))),
            }
        }
        let solved = last.as_ref().expect("a graph holding the position");
        let pv = solved.line(pos);
        let exact = BaoAnswer::Exact {
            value: solved.value(pos).expect("the graph holds its root"),
            best: solved.best_move(pos).map(|(m, _)| m),
            pv: &pv,
            positions: solved.stats().positions,
            reused: known,
        };
        Some(line(Ok((pos, exact, seconds()))))
    }
}

/// The position of an input line: four rows and a side, or moves from the start.
fn position(text: &str, rules: &BaoRules) -> Result<BaoPosition, String> {
    let (board, moves) = match text.contains(':') {
        true => (Some(text), ""),
        false => (None, text),
    };
    bao_setup::position(rules, board, bao_setup::split_moves(moves)).map_err(|e| e.to_string())
}

impl Front for Bao {
    fn rules_text(&self) -> String {
        self.rules.to_string()
    }

    fn answer(&self, item: &Item, cancel: &AtomicBool) -> Result<Answered, AnalysisError> {
        let error =
            |e: &dyn std::fmt::Display| answer_line(item.line, &item.input, &self.rules, Err(e));
        let line = if !item.utf8 {
            error(&"the line is not UTF-8 text")
        } else {
            match position(&item.input, &self.rules) {
                Ok(pos) => self
                    .answer_position(item, &pos, cancel)
                    .ok_or(AnalysisError::Cancelled)?,
                Err(e) => error(&e),
            }
        };
        Ok(Answered {
            line,
            note: format!("line {}", item.line),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn item(line: usize, input: &str) -> Item {
        Item {
            line,
            input: input.to_string(),
            utf8: true,
        }
    }

    /// A small position of Bao(4,2) whose graph solves at once (a draw).
    const E16: &str = "2,1,0,1/1,0,0,0/0,0,0,1/2,1,1,0:S";

    #[test]
    fn an_exact_answer_reuses_the_graph_solved_before() {
        let rules = BaoRules::new(4, 2).unwrap();
        let front = Bao::new(rules, BaoHow::Exact { memory_mb: 64 });
        let never = AtomicBool::new(false);
        let first = front.answer(&item(1, E16), &never).unwrap();
        assert_eq!(first.line["exact"], true);
        assert_eq!(first.line["result"], "draw");
        assert_eq!(first.line["reused_graph"], false);
        assert_eq!(first.line["rules"], "Bao(4,2)");
        assert_eq!(first.note, "line 1");
        assert_eq!(front.rules_text(), "Bao(4,2)");
        let again = front.answer(&item(2, E16), &never).unwrap();
        assert_eq!(again.line["reused_graph"], true);
        assert_eq!(again.line["value"], first.line["value"]);
    }

    #[test]
    fn a_bad_line_is_answered_with_its_error_and_a_cancel_is_no_answer() {
        let rules = BaoRules::new(4, 2).unwrap();
        let front = Bao::new(rules, BaoHow::analyse(Some(Limits::nodes(1000))));
        let never = AtomicBool::new(false);
        let bad = front.answer(&item(3, "1,2:S"), &never).unwrap();
        assert!(bad.line["error"].is_string());
        let not_utf8 = Item {
            utf8: false,
            ..item(4, "x")
        };
        let line = front.answer(&not_utf8, &never).unwrap().line;
        assert_eq!(line["error"], "the line is not UTF-8 text");
        let analysed = front.answer(&item(5, E16), &never).unwrap().line;
        assert_eq!(analysed["position"], E16);
        let cancelled = AtomicBool::new(true);
        assert!(matches!(
            front.answer(&item(6, E16), &cancelled),
            Err(AnalysisError::Cancelled)
        ));
    }

    #[test]
    fn exact_solves_the_graph_and_otherwise_the_analysis_has_a_default_time() {
        assert!(matches!(
            BaoHow::of(true, 64, None),
            BaoHow::Exact { memory_mb: 64 }
        ));
        let BaoHow::Analyse(limits) = BaoHow::of(false, 64, None) else {
            panic!("an analysis")
        };
        assert_eq!(
            limits.time,
            Some(Duration::from_secs_f64(BAO_DEFAULT_SECONDS))
        );
        let depth = Some(Limits::depth(3));
        assert!(matches!(BaoHow::of(false, 64, depth), BaoHow::Analyse(l) if l.depth == Some(3)));
    }
}
