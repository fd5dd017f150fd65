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

use kalah_core::bao::{BaoPosition, BaoRules};
use kalah_core::{Game, Position};
use kalah_solver::bao::{BaoSolveError, BaoSolved};
use kalah_solver::bao_search::{self, BaoAnalysis};
use kalah_solver::{Limits, Solver};

use super::{bao_report, bao_solve_within, Board};
use crate::book::{Book, BookTurn};
use crate::openings::{self as sowing, first_steps, Offer, Opening, TimedOpening};
use crate::progress::bao_graph_message;
use crate::wire;
use crate::AnalysisError;

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
    BaoAnalysed(Box<BaoAnalysis>),
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
}

impl fmt::Display for OpeningsError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            OpeningsError::Analysis(e) => write!(f, "{e}"),
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

impl Board {
    /// The first turns of this position, answered as `asked` says. A sowing game's come
    /// from the book `book` gives, if it gives one (the command's options choose it: see
    /// [`crate::book::answers_first_turns`] and [`book_first_turns`]), else from the
    /// solver and the number of workers `sowing` makes for the number of turns (after the
    /// check that there is one); Bao needs neither.
    pub fn openings<E: From<OpeningsError>>(
        &self,
        asked: Asked,
        book: impl FnOnce(&Game, &Position) -> Result<Option<(Book, Vec<BookTurn>)>, E>,
        sowing: impl FnOnce(&Game, &Position, usize) -> Result<(Solver, usize), E>,
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
                    let (solver, workers) = sowing(game, pos, steps)?;
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
                            let eval = crate::bounds::signed(o.eval);
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
                use crate::wire::report;
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
                use crate::wire::report;
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
                    let report = wire::bao::report::openings_report(rules, pos, solved);
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
                    for line in wire::bao::text::analysed_moves(last) {
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
mod tests {
    use super::*;
    use crate::book::Entry;
    use crate::setup::bao as bao_setup;
    use kalah_core::Rules;
    use kalah_solver::bao::{solve_position, GraphStop, Value};
    use kalah_solver::Config;
    use std::sync::Mutex;

    fn never() -> AtomicBool {
        AtomicBool::new(false)
    }

    fn kalah(houses: u8, seeds: u8) -> Board {
        let game = Game::new(Rules::kalah(houses, seeds)).unwrap();
        let start = game.start();
        Board::Sowing(Box::new(game), start)
    }

    fn no_book(_: &Game, _: &Position) -> Result<Option<(Book, Vec<BookTurn>)>, OpeningsError> {
        Ok(None)
    }

    fn one_worker(game: &Game, _: &Position, _: usize) -> Result<(Solver, usize), OpeningsError> {
        Ok((Solver::new(game.clone(), one_thread()).unwrap(), 1))
    }

    /// Runs `openings`, returning what it wrote and every tick.
    fn run_and_write(openings: &Openings) -> (String, Vec<Tick>) {
        let ticks = Mutex::new(Vec::new());
        let listed = openings
            .run(&never(), &|t| ticks.lock().unwrap().push(t))
            .unwrap();
        let mut out = Vec::new();
        openings.write(&listed, &mut out).unwrap();
        (String::from_utf8(out).unwrap(), ticks.into_inner().unwrap())
    }

    fn bao(position: Option<&str>) -> Board {
        let s = bao_setup::setup(&bao_setup::BaoOptions {
            pits: Some(4),
            seeds: Some(2),
            position,
            moves: None,
        })
        .unwrap();
        Board::Bao(s.rules, s.pos)
    }

    /// One search thread: with several, the node counts the reports compare vary.
    fn one_thread() -> Config {
        Config {
            threads: 1,
            ..Config::default()
        }
    }

    const MIDGAME: &str = "2,1,0,1/1,0,0,0/0,0,0,1/2,1,1,0:S";

    #[test]
    fn a_sowing_game_lists_every_first_turn_solved_as_openings_does() {
        let board = kalah(3, 2);
        let Board::Sowing(game, start) = &board else {
            unreachable!()
        };
        let asked = Asked {
            json: true,
            ..Asked::default()
        };
        let openings = board.openings(asked, no_book, one_worker).unwrap();
        let steps = first_steps(game, start, Offer::AfterTurn).len();
        let unit = "first moves solved";
        assert_eq!(openings.meter(), Meter::Bar { len: steps, unit });
        let (text, ticks) = run_and_write(&openings);
        assert_eq!(ticks.len(), steps);
        assert!(ticks.iter().all(|t| matches!(t, Tick::Line(_))));
        let solver = Solver::new((**game).clone(), one_thread()).unwrap();
        let direct =
            sowing::openings(&solver, start, Offer::AfterTurn, 1, &never(), &|_| {}).unwrap();
        // Every field but the times.
        let untimed = |mut report: serde_json::Value| {
            report["seconds"].take();
            for turn in report["turns"].as_array_mut().unwrap() {
                turn["seconds"].take();
            }
            report
        };
        let report = untimed(serde_json::from_str(&text).unwrap());
        let expected = untimed(wire::report::openings_json(game, start, &direct, 0.0));
        assert_eq!(report, expected);
    }

    #[test]
    fn a_sowing_game_within_limits_lists_the_turns_timed_openings_does() {
        let board = kalah(4, 2);
        let Board::Sowing(game, start) = &board else {
            unreachable!()
        };
        let limits = Limits::depth(4);
        let asked = Asked {
            csv: true,
            limits: Some(limits),
            ..Asked::default()
        };
        let openings = board.openings(asked, no_book, one_worker).unwrap();
        let unit = "first moves analysed";
        assert!(matches!(openings.meter(), Meter::Bar { unit: u, .. } if u == unit));
        let (text, ticks) = run_and_write(&openings);
        assert!(ticks.iter().all(|t| matches!(t, Tick::Note(_))));
        let solver = Solver::new((**game).clone(), one_thread()).unwrap();
        let direct = sowing::timed_openings(
            &solver,
            start,
            Offer::AfterTurn,
            &limits,
            1,
            &never(),
            &|_| {},
        )
        .unwrap();
        assert_eq!(text, wire::report::timed_csv(game.houses(), &direct));
    }

    #[test]
    fn a_game_that_is_over_has_no_first_turn_and_makes_no_solver() {
        let game = Game::new(Rules::kalah(3, 2)).unwrap();
        let over: Position = "0,0,0,6,0,0,0,6:S".parse().unwrap();
        let board = Board::Sowing(Box::new(game), over);
        let made = board.openings(
            Asked::default(),
            no_book,
            |_, _, _| -> Result<_, OpeningsError> { panic!("no solver for a game that is over") },
        );
        assert!(matches!(
            made,
            Err(OpeningsError::Analysis(AnalysisError::GameOver))
        ));
    }

    /// A book of Kalah(3,2) holding every position after a first turn of the start.
    fn small_book(game: &Game) -> Book {
        let entries = first_steps(game, &game.start(), Offer::AfterTurn)
            .into_iter()
            .filter(|s| !s.after.is_over())
            .map(|s| Entry {
                position: s.after,
                best_turn: first_steps(game, &s.after, Offer::AfterTurn)[0]
                    .turn
                    .clone(),
                eval: 1,
                lower: -2,
                upper: 2,
                depth: 3,
            })
            .collect();
        Book::new(*game.rules(), Vec::new(), entries)
    }

    #[test]
    fn a_book_answers_the_first_turns_only_where_it_holds_every_one() {
        let game = Game::new(Rules::kalah(3, 2)).unwrap();
        let start = game.start();
        let (book, turns) = book_first_turns(small_book(&game), false, &game, &start)
            .unwrap()
            .expect("the book holds every first turn");
        assert_eq!(turns, book.first_turns(&game, &start).unwrap());
        let empty = || Book::new(*game.rules(), Vec::new(), Vec::new());
        assert!(book_first_turns(empty(), false, &game, &start)
            .unwrap()
            .is_none());
        let lacks = book_first_turns(empty(), true, &game, &start).unwrap_err();
        assert!(matches!(lacks, OpeningsError::BookLacks { .. }));
        assert!(lacks.to_string().contains("does not hold every first turn"));
    }

    #[test]
    fn the_first_turns_from_a_book_are_its_report_and_nothing_is_solved() {
        let board = kalah(3, 2);
        let Board::Sowing(game, start) = &board else {
            unreachable!()
        };
        let from_book = |g: &Game, p: &Position| book_first_turns(small_book(g), true, g, p);
        let openings = board
            .openings(
                Asked::default(),
                from_book,
                |_, _, _| -> Result<_, OpeningsError> { panic!("a book needs no solver") },
            )
            .unwrap();
        assert_eq!(openings.meter(), Meter::Nothing);
        let (text, ticks) = run_and_write(&openings);
        assert!(ticks.is_empty());
        let book = small_book(game);
        let turns = book.first_turns(game, start).unwrap();
        let mut expected = Vec::new();
        crate::book::report::openings_text(&book, game, start, &turns, &mut expected).unwrap();
        assert_eq!(text.as_bytes(), expected);
    }

    #[test]
    fn bao_moves_solved_exactly_agree_with_each_move_solved_alone() {
        let board = bao(Some(MIDGAME));
        let Board::Bao(_, pos) = &board else {
            unreachable!()
        };
        let openings = board
            .openings(
                Asked {
                    memory_mb: 64,
                    ..Asked::default()
                },
                no_book,
                one_worker,
            )
            .unwrap();
        assert_eq!(openings.meter(), Meter::Spinner);
        let (text, ticks) = run_and_write(&openings);
        assert!(ticks.iter().all(|t| matches!(t, Tick::Words(_))));
        let moves: Vec<_> = pos
            .legal()
            .iter()
            .map(|c| match c.wins {
                true => (c.mv, Value::Win(1)),
                false => {
                    let alone = solve_position(&c.next, u64::MAX, &never(), &mut |_| {}).unwrap();
                    (c.mv, alone.value(&c.next).unwrap().through())
                }
            })
            .collect();
        let mut expected = format!("position: {pos}\n");
        for line in wire::bao::text::solved_moves(&moves) {
            expected.push_str(&line);
            expected.push('\n');
        }
        assert_eq!(text, expected);
    }

    #[test]
    fn bao_moves_within_limits_are_the_analysis_final_report_and_every_move() {
        let board = bao(Some(MIDGAME));
        let Board::Bao(_, pos) = &board else {
            unreachable!()
        };
        let limits = Limits::depth(3);
        let asked = Asked {
            limits: Some(limits),
            ..Asked::default()
        };
        let openings = board.openings(asked, no_book, one_worker).unwrap();
        assert_eq!(openings.meter(), Meter::Nothing);
        let (text, _) = run_and_write(&openings);
        let direct = bao_search::analyse(pos, &limits, &never(), &mut |_| {});
        let moves = wire::bao::text::analysed_moves(&direct);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 1 + moves.len());
        assert_eq!(
            lines[1..],
            moves.iter().map(String::as_str).collect::<Vec<_>>()
        );
        let json = Asked {
            json: true,
            ..asked
        };
        let openings = board.openings(json, no_book, one_worker).unwrap();
        let (text, _) = run_and_write(&openings);
        assert_eq!(text.lines().count(), 1);
        let report: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(report["final"], true);
    }

    #[test]
    fn a_bao_graph_too_large_or_cancelled_says_so_with_its_memory() {
        let board = bao(None);
        let asked = Asked {
            memory_mb: 0,
            ..Asked::default()
        };
        let openings = board.openings(asked, no_book, one_worker).unwrap();
        let err = openings.run(&never(), &|_| {}).err().unwrap();
        assert!(matches!(
            err,
            OpeningsError::Graph {
                error: BaoSolveError::Stopped(GraphStop::TooLarge { .. }),
                memory_mb: 0
            }
        ));
        let asked = Asked {
            memory_mb: 64,
            ..Asked::default()
        };
        let openings = board.openings(asked, no_book, one_worker).unwrap();
        let err = openings.run(&AtomicBool::new(true), &|_| {}).err().unwrap();
        assert!(matches!(
            err,
            OpeningsError::Graph {
                error: BaoSolveError::Stopped(GraphStop::Cancelled),
                ..
            }
        ));
    }
}
