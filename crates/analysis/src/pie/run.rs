//! `kalah pie` from options to report: the pie rule for every first turn of the start
//! position (from the opening book where it answers, else solved on a parallel solver),
//! or North's decision in one position. The front end parses, makes the solver, draws the
//! progress it is told of and prints what [`PieRun::write`] or [`decide_report`] write.

use std::io::{self, Write};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use kalah_core::{Game, Position};
use kalah_solver::{Progress, Solver};

use crate::book::{report as book_report, Book, BookTurn};
use crate::game::turns::{first_steps, Offer};
use crate::game::AnalysisError;
use crate::openings::Opening;
use crate::pie::{self, report, PieAnalysis};
use crate::run::progress::progress_message;
use crate::run::solving::{Solving, SolvingError};

/// What the progress bar of a solved pie analysis counts.
pub const PIE_UNIT: &str = "first moves solved";

/// The pie rule for every first turn of a position, ready to run.
pub struct PieRun<'a> {
    game: &'a Game,
    offer: Offer,
    how: How,
}

/// How the first turns are answered.
enum How {
    /// Each found in an opening book.
    Book(Box<Book>, Vec<BookTurn>),
    /// `steps` turns solved on `workers` threads sharing `solver`'s table.
    Solve {
        solver: Box<Solver>,
        workers: usize,
        steps: usize,
        pos: Position,
    },
}

/// The first turns answered ([`PieRun::run`]): none to report from the book, else the
/// analysis and the seconds it took.
pub struct PieRan(Option<(PieAnalysis, f64)>);

impl<'a> PieRun<'a> {
    /// The pie rule for every first turn of `start` under `offer`: from the book `book`
    /// gives (asked only when the offer comes after the whole turn, the book's), else
    /// from the parallel solver `solving` makes for the number of turns, after the check
    /// that there is one (else the inner error, [`AnalysisError::GameOver`]; the outer
    /// one is the book's or the solver's).
    pub fn new<E: From<SolvingError>>(
        game: &'a Game,
        start: &Position,
        offer: Offer,
        book: impl FnOnce(&Game, &Position) -> Result<Option<(Book, Vec<BookTurn>)>, E>,
        solving: &Solving,
    ) -> Result<Result<PieRun<'a>, AnalysisError>, E> {
        if offer == Offer::AfterTurn {
            if let Some((b, turns)) = book(game, start)? {
                let how = How::Book(Box::new(b), turns);
                return Ok(Ok(PieRun { game, offer, how }));
            }
        }
        let steps = first_steps(game, start, offer).len();
        if steps == 0 {
            return Ok(Err(AnalysisError::GameOver));
        }
        let (solver, workers) = solving.parallel(game, start.seeds_in_houses() as usize, steps)?;
        let how = How::Solve {
            solver: Box::new(solver),
            workers,
            steps,
            pos: *start,
        };
        Ok(Ok(PieRun { game, offer, how }))
    }

    /// The length of the progress bar ([`PIE_UNIT`]): the turns to solve; `None` where
    /// the book answers (nothing to wait for).
    pub fn steps(&self) -> Option<usize> {
        match &self.how {
            How::Book(..) => None,
            How::Solve { steps, .. } => Some(*steps),
        }
    }

    /// Answers every first turn, `done` told the line to show for each turn solved (from
    /// the workers' threads); `cancel` stops it ([`AnalysisError::Cancelled`]).
    pub fn run(
        &self,
        cancel: &AtomicBool,
        done: &(dyn Fn(String) + Sync),
    ) -> Result<PieRan, AnalysisError> {
        let How::Solve {
            solver,
            workers,
            pos,
            ..
        } = &self.how
        else {
            return Ok(PieRan(None));
        };
        let h = self.game.houses();
        let start = Instant::now();
        let on_done = |o: &Opening| done(o.done_line(h));
        let analysis = pie::pie(solver, pos, self.offer, *workers, cancel, &on_done)?;
        Ok(PieRan(Some((analysis, start.elapsed().as_secs_f64()))))
    }

    /// The report of `ran`, as one JSON object or as text. A solved analysis without a
    /// first turn (never: [`PieRun::new`] checks there is one) is an
    /// [`io::ErrorKind::InvalidInput`] error, "no first move".
    pub fn write(&self, ran: &PieRan, json: bool, out: &mut dyn Write) -> io::Result<()> {
        let game = self.game;
        match (&self.how, &ran.0) {
            (How::Book(book, turns), _) if json => {
                writeln!(out, "{}", book_report::pie_json(book, game, turns))
            }
            (How::Book(book, turns), _) => book_report::pie_text(book, game, turns, out),
            (How::Solve { .. }, Some((analysis, seconds))) => {
                let plain = analysis
                    .best_without_rule()
                    .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "no first move"))?;
                match json {
                    true => {
                        let json = report::pie_json(game, analysis, plain, *seconds);
                        writeln!(out, "{json}")
                    }
                    false => analysis.write_text(game, plain, *seconds, out),
                }
            }
            (How::Solve { .. }, None) => Ok(()),
        }
    }
}

/// The report of North's decision in `pos`, the position after South's first turn under
/// `offer` (check first that the swap is [`pie::offered`] there), solved exactly by
/// `solver`: one JSON object, or text; `words` are told how the solve goes (its bounds
/// from South) for a spinner.
pub fn decide_report(
    solver: &Solver,
    pos: &Position,
    offer: Offer,
    json: bool,
    cancel: &AtomicBool,
    words: &mut dyn FnMut(String),
) -> Result<String, AnalysisError> {
    let game = solver.game();
    let sign = pos.side_to_move().sign();
    let (decision, pv) = pie::decide_position(solver, pos, cancel, &mut |p: &Progress| {
        words(progress_message(p, sign))
    })?;
    let mut text = Vec::new();
    match json {
        true => {
            let json = report::decision_json(game, pos, offer, &decision, &pv);
            writeln!(text, "{json}")
        }
        false => decision.write_text(game, pos, &pv, &mut text),
    }
    .expect("writing to memory does not fail");
    Ok(String::from_utf8_lossy(&text).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::run::solving::tests::{small_solving, Failed};
    use kalah_core::Rules;
    use std::sync::Mutex;

    fn solver(game: &Game) -> Solver {
        let config = kalah_solver::Config {
            threads: 1,
            hash_mb: 1,
            ..kalah_solver::Config::default()
        };
        Solver::new(game.clone(), config).unwrap()
    }

    #[test]
    fn every_first_turn_solved_is_reported_as_pie_reports_it() {
        let game = Game::new(Rules::kalah(3, 3)).unwrap();
        let start = game.start();
        let no_book = |_: &Game, _: &Position| -> Result<_, Failed> { Ok(None) };
        let run = PieRun::new(&game, &start, Offer::AfterTurn, no_book, &small_solving())
            .unwrap()
            .unwrap();
        let steps = first_steps(&game, &start, Offer::AfterTurn).len();
        assert_eq!(run.steps(), Some(steps));
        let lines = Mutex::new(Vec::new());
        let ran = run
            .run(&AtomicBool::new(false), &|l| lines.lock().unwrap().push(l))
            .unwrap();
        assert_eq!(lines.into_inner().unwrap().len(), steps);
        let mut text = Vec::new();
        run.write(&ran, false, &mut text).unwrap();
        let mut json = Vec::new();
        run.write(&ran, true, &mut json).unwrap();
        let (analysis, seconds) = ran.0.as_ref().unwrap();
        let plain = analysis.best_without_rule().unwrap();
        let mut expected = Vec::new();
        analysis
            .write_text(&game, plain, *seconds, &mut expected)
            .unwrap();
        assert_eq!(text, expected);
        let expected = report::pie_json(&game, analysis, plain, *seconds);
        assert_eq!(String::from_utf8(json).unwrap(), format!("{expected}\n"));
    }

    #[test]
    fn a_game_over_has_no_turn_and_a_decision_is_reported() {
        let game = Game::new(Rules::kalah(3, 3)).unwrap();
        let over = crate::batch::parse(&game, "0,0,0,0,0,0,9,9:S").unwrap();
        let no_book = |_: &Game, _: &Position| -> Result<_, Failed> { Ok(None) };
        let made = PieRun::new(&game, &over, Offer::AfterTurn, no_book, &small_solving());
        assert!(matches!(made, Ok(Err(AnalysisError::GameOver))));
        let after = crate::batch::parse(&game, "1").unwrap();
        let s = solver(&game);
        let cancel = AtomicBool::new(false);
        let json = decide_report(
            &s,
            &after,
            Offer::AfterFirstSowing,
            true,
            &cancel,
            &mut |_| {},
        );
        let (decision, pv) = pie::decide_position(&s, &after, &cancel, &mut |_| {}).unwrap();
        let expected =
            report::decision_json(&game, &after, Offer::AfterFirstSowing, &decision, &pv);
        assert_eq!(json.unwrap(), format!("{expected}\n"));
    }
}
