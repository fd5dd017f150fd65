//! Every first turn of a position of either kind, for `kalah openings`: the command says
//! what it asks ([`Asked`]), sets up a [`Board`], gets its [`Openings`] and runs them
//! with a progress display; a sowing game's turns (from an opening book, solved or
//! analysed within a time on a parallel solver), Bao's moves (ranked from the solved game
//! graph, or by the anytime analysis within limits) and the reports of each stay behind
//! it.

use std::fmt;
use std::io::{self, Write};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use kalah_core::bao::{BaoMove, BaoPosition, BaoRules};
use kalah_core::{Game, Position};
use kalah_solver::bao::{BaoSolveError, BaoSolved};
use kalah_solver::bao_search;
use kalah_solver::{Analysis, Limits, Solver};

use crate::book::choice::{Choice, LoadError};
use crate::book::{Book, BookTurn};
use crate::game::bao_solve::bao_solve_within;
use crate::game::AnalysisError;
use crate::game::Board;
use crate::openings::{self as sowing, first_steps, report, Offer, Opening, TimedOpening};
use crate::run::progress::bao_graph_message;
use crate::run::solving::{Solving, SolvingError};
use crate::wire;
use crate::wire::bao::analysis::bao_report;

/// What a command asks of the first turns of a position.
#[derive(Clone, Copy, Debug, Default)]
pub struct Asked {
    /// One JSON object instead of text.
    pub json: bool,
    /// A CSV table instead of text (the sowing games).
    pub csv: bool,
    /// Each turn analysed within these limits instead of solved (a sowing game reads only
    /// the time).
    pub limits: Option<Limits>,
    /// The memory Bao's game graph may take, in megabytes.
    pub memory_mb: u64,
}

/// The first turns of one position with what answers them, ready to run.
pub struct Openings<'a> {
    asked: Asked,
    how: How<'a>,
}

/// How the first turns are answered.
enum How<'a> {
    /// A sowing game's turns, each found in an opening book.
    Book {
        game: &'a Game,
        pos: &'a Position,
        book: Box<Book>,
        turns: Vec<BookTurn>,
    },
    /// A sowing game's `steps` turns, solved (or analysed within the asked limits) on
    /// `workers` threads sharing `solver`'s table.
    Sowing {
        game: &'a Game,
        pos: &'a Position,
        solver: Box<Solver>,
        workers: usize,
        steps: usize,
    },
    /// Bao's moves, valued from the position's solved game graph.
    BaoGraph {
        rules: &'a BaoRules,
        pos: &'a BaoPosition,
    },
    /// Bao's moves, valued by the anytime analysis within limits.
    BaoAnalysis {
        pos: &'a BaoPosition,
        limits: Limits,
    },
}

/// The first turns answered ([`Openings::run`]), for [`Openings::write`].
pub struct Listed(Answers);

enum Answers {
    Book,
    Solved(Vec<Opening>, f64),
    Analysed(Vec<TimedOpening>, f64),
    Graph(Box<BaoSolved>),
    BaoAnalysed(Box<Analysis<BaoMove>>),
}

/// What a progress display shows while the first turns are run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Meter {
    /// A bar of `len` turns, counted in `unit` (`first moves solved`).
    Bar {
        /// How many turns are answered.
        len: usize,
        /// What the bar counts.
        unit: &'static str,
    },
    /// A spinner with a message of words (Bao's game graph as it is solved).
    Spinner,
    /// Nothing: there is nothing long to wait for, or nothing to tell meanwhile.
    Nothing,
}

/// One piece of progress of a run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Tick {
    /// A turn done, as a line above the bar.
    Line(String),
    /// A turn done, as the bar's message.
    Note(String),
    /// The spinner's message.
    Words(String),
}

/// Why the first turns were not answered.
#[derive(Debug)]
pub enum OpeningsError {
    /// A sowing game's analysis failed, was cancelled, or has no turn to analyse (the game
    /// is over).
    Analysis(AnalysisError),
    /// Bao's game graph was not solved within `memory_mb` megabytes, or was cancelled.
    Graph {
        /// Why the solve stopped.
        error: BaoSolveError,
        /// The memory it was given, in megabytes.
        memory_mb: u64,
    },
    /// The opening book named by the command does not hold every first turn.
    BookLacks {
        /// Where the book came from.
        origin: String,
        /// The position whose first turns were asked for.
        pos: Position,
    },
    /// The solver could not be made.
    Solver(SolvingError),
}

impl From<SolvingError> for OpeningsError {
    fn from(e: SolvingError) -> OpeningsError {
        OpeningsError::Solver(e)
    }
}

impl fmt::Display for OpeningsError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            OpeningsError::Analysis(e) => write!(f, "{e}"),
            OpeningsError::Solver(e) => write!(f, "{e}"),
            OpeningsError::Graph { error, .. } => write!(f, "{error}"),
            OpeningsError::BookLacks { origin, pos } => {
                write!(
                    f,
                    "the book {origin} does not hold every first turn of {pos}"
                )
            }
        }
    }
}

impl std::error::Error for OpeningsError {}

/// The book's answer for every first turn of `pos`, with the book: `None` where it does
/// not hold every one, an error ([`OpeningsError::BookLacks`]) instead where the command
/// named the book (`named`), which then must.
pub fn book_first_turns(
    book: Book,
    named: bool,
    game: &Game,
    pos: &Position,
) -> Result<Option<(Book, Vec<BookTurn>)>, OpeningsError> {
    match book.first_turns(game, pos) {
        Some(turns) => Ok(Some((book, turns))),
        None if named => Err(OpeningsError::BookLacks {
            origin: book.origin().to_string(),
            pos: *pos,
        }),
        None => Ok(None),
    }
}

/// The book's answer for every first turn of `pos` (`kalah openings`, `kalah pie`), where
/// the book `choice` names is to be used: a file named (an error where it does not hold
/// every first turn), or, without a time limit (`timed`), the compiled-in book where the
/// exact solve is not quick and it holds every first turn
/// ([`crate::book::answers_first_turns`]).
pub fn chosen_first_turns<E: From<LoadError> + From<OpeningsError>>(
    choice: &Choice,
    timed: bool,
    game: &Game,
    pos: &Position,
) -> Result<Option<(Book, Vec<BookTurn>)>, E> {
    let named = choice.file.is_some();
    if choice.off || !crate::book::answers_first_turns(named, timed, game, pos) {
        return Ok(None);
    }
    let Some(book) = choice.load(game.rules())? else {
        return Ok(None);
    };
    Ok(book_first_turns(book, named, game, pos)?)
}

impl Board {
    /// The first turns of this position, answered as `asked` says. A sowing game's come
    /// from the book `book` gives, if it gives one (the command's options choose it: see
    /// [`crate::book::answers_first_turns`] and [`book_first_turns`]), else from the
    /// parallel solver `solving` makes for the number of turns (after the check that
    /// there is one; for an analysis within `asked`'s time: [`Solving::within`]); Bao
    /// needs neither.
    pub fn openings<E: From<OpeningsError> + From<SolvingError>>(
        &self,
        asked: Asked,
        book: impl FnOnce(&Game, &Position) -> Result<Option<(Book, Vec<BookTurn>)>, E>,
        solving: &Solving,
    ) -> Result<Openings<'_>, E> {
        let how = match self {
            Board::Sowing(game, pos) => match book(game, pos)? {
                Some((book, turns)) => How::Book {
                    game,
                    pos,
                    book: Box::new(book),
                    turns,
                },
                None => {
                    let steps = first_steps(game, pos, Offer::AfterTurn).len();
                    if steps == 0 {
                        return Err(OpeningsError::Analysis(AnalysisError::GameOver).into());
                    }
                    let seeds = pos.seeds_in_houses() as usize;
                    let (solver, workers) = match asked.limits.and_then(|l| l.time) {
                        Some(time) => solving.within(Some(time)).parallel(game, seeds, steps)?,
                        None => solving.parallel(game, seeds, steps)?,
                    };
                    How::Sowing {
                        game,
                        pos,
                        solver: Box::new(solver),
                        workers,
                        steps,
                    }
                }
            },
            Board::Bao(rules, pos) => match asked.limits {
                Some(limits) => How::BaoAnalysis { pos, limits },
                None => How::BaoGraph { rules, pos },
            },
        };
        Ok(Openings { asked, how })
    }
}

impl Openings<'_> {
    /// What a progress display shows while [`Openings::run`] runs.
    pub fn meter(&self) -> Meter {
        match &self.how {
            How::Book { .. } | How::BaoAnalysis { .. } => Meter::Nothing,
            How::Sowing { steps, .. } => Meter::Bar {
                len: *steps,
                unit: match self.asked.limits {
                    Some(_) => "first moves analysed",
                    None => "first moves solved",
                },
            },
            How::BaoGraph { .. } => Meter::Spinner,
        }
    }

    /// Answers every first turn, `tick` told as it goes (from the workers' threads);
    /// `cancel` stops the run (a sowing game's [`AnalysisError::Cancelled`], Bao's graph
    /// stopped; Bao's analysis ends with what it knows).
    pub fn run(
        &self,
        cancel: &AtomicBool,
        tick: &(dyn Fn(Tick) + Sync),
    ) -> Result<Listed, OpeningsError> {
        let answers = match &self.how {
            How::Book { .. } => Answers::Book,
            How::Sowing {
                game,
                pos,
                solver,
                workers,
                ..
            } => {
                let h = game.houses();
                let start = Instant::now();
                match &self.asked.limits {
                    None => {
                        let done = |o: &Opening| tick(Tick::Line(o.done_line(h)));
                        let list = sowing::openings(
                            solver,
                            pos,
                            Offer::AfterTurn,
                            *workers,
                            cancel,
                            &done,
                        )
                        .map_err(OpeningsError::Analysis)?;
                        Answers::Solved(list, start.elapsed().as_secs_f64())
                    }
                    Some(limits) => {
                        let done = |o: &TimedOpening| {
                            let eval = crate::game::bounds::signed(o.eval);
                            tick(Tick::Note(format!("{} ~{eval}", o.step.turn.notation(h))))
                        };
                        let list = sowing::timed_openings(
                            solver,
                            pos,
                            Offer::AfterTurn,
                            limits,
                            *workers,
                            cancel,
                            &done,
                        )
                        .map_err(OpeningsError::Analysis)?;
                        Answers::Analysed(list, start.elapsed().as_secs_f64())
                    }
                }
            }
            How::BaoGraph { pos, .. } => {
                let memory_mb = self.asked.memory_mb;
                let solved = bao_solve_within(pos, memory_mb, cancel, &mut |p| {
                    tick(Tick::Words(bao_graph_message(p)))
                })
                .map_err(|error| OpeningsError::Graph { error, memory_mb })?;
                Answers::Graph(Box::new(solved))
            }
            How::BaoAnalysis { pos, limits } => {
                let last = bao_search::analyse(pos, limits, cancel, &mut |_| {});
                Answers::BaoAnalysed(Box::new(last))
            }
        };
        Ok(Listed(answers))
    }

    /// The report of `listed` (what [`Openings::run`] returned): text, JSON or CSV as
    /// asked. Bao's analysis within limits writes its final report (as the last line of
    /// `kalah analyse --rules bao`), then in text every move's evaluation, best first.
    pub fn write(&self, listed: &Listed, out: &mut dyn Write) -> io::Result<()> {
        let Asked { json, csv, .. } = self.asked;
        match (&self.how, &listed.0) {
            (
                How::Book {
                    game,
                    pos,
                    book,
                    turns,
                },
                Answers::Book,
            ) => {
                use crate::book::report;
                if json {
                    writeln!(out, "{}", report::openings_json(book, game, pos, turns))
                } else if csv {
                    write!(out, "{}", report::openings_csv(game, turns))
                } else {
                    report::openings_text(book, game, pos, turns, out)
                }
            }
            (How::Sowing { game, pos, .. }, Answers::Solved(list, seconds)) => {
                if json {
                    let report = report::openings_json(game, pos, list, *seconds);
                    writeln!(out, "{report}")
                } else if csv {
                    write!(out, "{}", report::openings_csv(game.houses(), list))
                } else {
                    sowing::write_text(game, pos, list, *seconds, out)
                }
            }
            (How::Sowing { game, pos, .. }, Answers::Analysed(list, seconds)) => {
                if json {
                    writeln!(out, "{}", report::timed_json(game, pos, list, *seconds))
                } else if csv {
                    write!(out, "{}", report::timed_csv(game.houses(), list))
                } else {
                    sowing::write_timed_text(game, pos, list, *seconds, out)
                }
            }
            (How::BaoGraph { rules, pos }, Answers::Graph(solved)) => {
                if json {
                    let report = report::openings_report(rules, pos, solved);
                    return writeln!(out, "{report}");
                }
                writeln!(out, "position: {pos}")?;
                let moves = solved.move_values(pos).expect("the root is solved");
                for line in wire::bao::text::solved_moves(&moves) {
                    writeln!(out, "{line}")?;
                }
                Ok(())
            }
            (How::BaoAnalysis { .. }, Answers::BaoAnalysed(last)) => {
                bao_report(last, json, true, out)?;
                if !json {
                    for line in report::analysed_moves(last) {
                        writeln!(out, "{line}")?;
                    }
                }
                Ok(())
            }
            _ => unreachable!("the first turns are answered as they were asked"),
        }
    }
}

#[cfg(test)]
mod tests;
