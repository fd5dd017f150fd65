//! One position of either kind analysed within limits, for the commands of one position
//! (`kalah analyse`, and `kalah solve` given a limit): the command sets up a [`Board`],
//! makes its [`Analyst`] and runs it; the sowing games' solver and Bao's anytime analysis,
//! and the reports each renders ([`super::view`], [`super::bao`]), stay behind it.

use std::io::Write;
use std::sync::atomic::AtomicBool;

use kalah_core::bao::{BaoMove, BaoPosition};
use kalah_solver::bao_search;
use kalah_solver::{Analysis, Limits, Solver};

use super::report::egdb_file;
use super::view::{SummaryError, View};
use crate::book::choice::{Choice, LoadError};
use crate::book::Entry;
use crate::game::bao_solve::bao_analysis;
use crate::game::Board;
use crate::run::solving::{Solving, SolvingError};
use crate::wire::bao::analysis::bao_report;

/// How a command shows the reports of one position's analysis.
#[derive(Clone, Copy, Debug)]
pub struct Shown {
    /// The best turns shown under each line of a sowing game's analysis (0: all).
    pub multi: usize,
    /// JSON lines instead of text.
    pub json: bool,
    /// Text: a line for every progress tick of a sowing game's analysis too.
    pub verbose: bool,
}

/// What analyses a sowing game's position besides the game: the solver, and the opening
/// book's entry for the position with the book's origin, where a book holds it.
pub struct SowingParts {
    /// The solver that analyses (its endgame database named in the summary).
    pub solver: Solver,
    /// The book's entry and origin, reported beside the analysis.
    pub book: Option<(Entry, String)>,
}

/// One position of either kind with what analyses it and how its reports are shown:
/// what `kalah analyse` and `kalah solve` within a limit run. [`Board::analyst`] chooses
/// the kind's analyst once; the sowing games' solver with its view, or Bao's anytime
/// analysis, stays behind it.
pub trait Analyst {
    /// `kalah analyse`: every report as it comes (a sowing game's after the book's line),
    /// then the summary; `cancel` ends the analysis with what it knows.
    fn analyse(
        &self,
        limits: &Limits,
        cancel: &AtomicBool,
        out: &mut dyn Write,
    ) -> Result<(), AnalystError>;

    /// `kalah solve` within a limit: a sowing game's reports and summary as
    /// [`Analyst::analyse`] writes them (a book is never asked for), Bao's summary alone.
    fn solve_within(
        &self,
        limits: &Limits,
        cancel: &AtomicBool,
        out: &mut dyn Write,
    ) -> Result<(), AnalystError>;
}

/// A sowing game's position, analysed by its solver (the proof beside the deepening).
struct SowingAnalyst<'a> {
    /// How the reports are shown (the game, the position, the book's entry).
    view: View<'a>,
    /// The solver that analyses.
    solver: Solver,
}

/// A Bao position, analysed by `bao_search` (exact only where it proves a win or a loss).
struct BaoAnalyst<'a> {
    /// The position analysed.
    pos: &'a BaoPosition,
    /// JSON lines instead of text.
    json: bool,
}

/// Why an analysis of one position ended without its summary.
#[derive(Debug)]
pub enum AnalystError {
    /// The solver refused the analysis (the message says why).
    Failed(String),
    /// The summary's exact value did not replay along its line: a bug.
    Replay(String),
    /// The output could not be written.
    Io(std::io::Error),
}

impl From<std::io::Error> for AnalystError {
    fn from(e: std::io::Error) -> AnalystError {
        AnalystError::Io(e)
    }
}

impl From<SummaryError> for AnalystError {
    fn from(e: SummaryError) -> AnalystError {
        match e {
            SummaryError::Replay(_) => AnalystError::Replay(e.to_string()),
            SummaryError::Io(e) => AnalystError::Io(e),
        }
    }
}

impl Board {
    /// The analyst of this position to `limits`, shown as `shown` says: a sowing game's
    /// solver made by `solving` ([`Solving::analysis`]), with the entry of the book
    /// `book` chooses for the position, where one is given and holds it; Bao needs
    /// neither.
    pub fn analyst<E: From<SolvingError> + From<LoadError>>(
        &self,
        shown: Shown,
        solving: &Solving,
        limits: &Limits,
        book: Option<&Choice>,
    ) -> Result<Box<dyn Analyst + '_>, E> {
        Ok(match self {
            Board::Sowing(game, pos) => {
                let seeds = pos.seeds_in_houses() as usize;
                let solver = solving.analysis(game, seeds, limits)?;
                let book = book.map(|b| b.entry(game.rules(), pos)).transpose()?;
                let parts = SowingParts {
                    solver,
                    book: book.flatten(),
                };
                let view = View {
                    game,
                    pos,
                    multi: shown.multi,
                    json: shown.json,
                    verbose: shown.verbose,
                    database: egdb_file(&parts.solver),
                    book: parts.book,
                };
                Box::new(SowingAnalyst {
                    view,
                    solver: parts.solver,
                })
            }
            Board::Bao(_, pos) => Box::new(BaoAnalyst {
                pos,
                json: shown.json,
            }),
        })
    }
}

impl Analyst for SowingAnalyst<'_> {
    fn analyse(
        &self,
        limits: &Limits,
        cancel: &AtomicBool,
        out: &mut dyn Write,
    ) -> Result<(), AnalystError> {
        self.view.book_line(out)?;
        sowing(&self.view, &self.solver, limits, cancel, out)
    }

    fn solve_within(
        &self,
        limits: &Limits,
        cancel: &AtomicBool,
        out: &mut dyn Write,
    ) -> Result<(), AnalystError> {
        sowing(&self.view, &self.solver, limits, cancel, out)
    }
}

impl Analyst for BaoAnalyst<'_> {
    fn analyse(
        &self,
        limits: &Limits,
        cancel: &AtomicBool,
        out: &mut dyn Write,
    ) -> Result<(), AnalystError> {
        let mut each = |a: &Analysis<BaoMove>| bao_report(a, self.json, false, out);
        let last = bao_analysis(self.pos, limits, cancel, &mut each)?;
        Ok(bao_report(&last, self.json, true, out)?)
    }

    fn solve_within(
        &self,
        limits: &Limits,
        cancel: &AtomicBool,
        out: &mut dyn Write,
    ) -> Result<(), AnalystError> {
        let last = bao_search::analyse(self.pos, limits, cancel, &mut |_| {});
        Ok(bao_report(&last, self.json, true, out)?)
    }
}

/// A sowing game's analysis of `view`'s position to `limits` by `solver`, each report
/// rendered as it comes, then the summary.
fn sowing(
    view: &View,
    solver: &Solver,
    limits: &Limits,
    cancel: &AtomicBool,
    out: &mut dyn Write,
) -> Result<(), AnalystError> {
    let mut shown = None;
    let mut failed = None;
    let lines = match view.multi {
        0 => usize::MAX,
        n => n,
    };
    let a = solver.analyse_lines(view.pos, limits, lines, cancel, &mut |a| {
        if failed.is_none() {
            if let Err(e) = view.report(a, &mut shown, out) {
                failed = Some(e);
            }
        }
    });
    if let Some(e) = failed {
        return Err(e.into());
    }
    let a = a.map_err(|e| AnalystError::Failed(e.to_string()))?;
    Ok(view.summary(&a, out)?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::run::solving::tests::{small_solving, Failed};
    use kalah_core::Game;
    use kalah_core::Rules;

    fn never() -> AtomicBool {
        AtomicBool::new(false)
    }

    #[test]
    fn a_small_sowing_game_is_analysed_to_an_exact_summary() {
        let game = Game::new(Rules::kalah(3, 2)).unwrap();
        let board = Board::Sowing(std::sync::Arc::new(game.clone()), game.start());
        let shown = Shown {
            multi: 1,
            json: true,
            verbose: false,
        };
        let limits = Limits::depth(30);
        let analyst = board
            .analyst::<Failed>(shown, &small_solving(), &limits, None)
            .unwrap();
        let mut out = Vec::new();
        analyst.analyse(&limits, &never(), &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        let last: serde_json::Value = serde_json::from_str(text.lines().last().unwrap()).unwrap();
        assert_eq!(last["final"], true);
    }

    #[test]
    fn bao_reports_every_depth_but_within_a_solve_only_its_summary() {
        let pos: BaoPosition = "2,1,0,1/1,0,0,0/0,0,0,1/2,1,1,0:S".parse().unwrap();
        let rules = kalah_core::bao::BaoRules::new(4, 2).unwrap();
        let board = Board::Bao(rules, pos);
        let shown = Shown {
            multi: 1,
            json: false,
            verbose: false,
        };
        let limits = Limits::depth(3);
        let analyst = board
            .analyst::<Failed>(shown, &small_solving(), &limits, None)
            .unwrap();
        let mut every = Vec::new();
        analyst.analyse(&limits, &never(), &mut every).unwrap();
        let mut within = Vec::new();
        analyst
            .solve_within(&limits, &never(), &mut within)
            .unwrap();
        let every = String::from_utf8(every).unwrap();
        let within = String::from_utf8(within).unwrap();
        assert_eq!(within.lines().count(), 1);
        assert_eq!(every.lines().last(), within.lines().last());
    }
}
