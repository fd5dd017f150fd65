//! The first turns of either kind against what the code they run gives directly.

use super::*;
use crate::book::Entry;
use crate::game::setup::bao as bao_setup;
use crate::run::solving::tests::small_solving;
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
    Board::Sowing(std::sync::Arc::new(game), start)
}

fn no_book(_: &Game, _: &Position) -> Result<Option<(Book, Vec<BookTurn>)>, OpeningsError> {
    Ok(None)
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
    let openings = board.openings(asked, no_book, &small_solving()).unwrap();
    let steps = first_steps(game, start, Offer::AfterTurn).len();
    let unit = "first moves solved";
    assert_eq!(openings.meter(), Meter::Bar { len: steps, unit });
    let (text, ticks) = run_and_write(&openings);
    assert_eq!(ticks.len(), steps);
    assert!(ticks.iter().all(|t| matches!(t, Tick::Line(_))));
    let solver = Solver::new((**game).clone(), one_thread()).unwrap();
    let direct = sowing::openings(&solver, start, Offer::AfterTurn, 1, &never(), &|_| {}).unwrap();
    // Every field but the times.
    let untimed = |mut report: serde_json::Value| {
        report["seconds"].take();
        for turn in report["turns"].as_array_mut().unwrap() {
            turn["seconds"].take();
        }
        report
    };
    let report = untimed(serde_json::from_str(&text).unwrap());
    let expected = untimed(report::openings_json(game, start, &direct, 0.0));
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
    let openings = board.openings(asked, no_book, &small_solving()).unwrap();
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
    assert_eq!(text, report::timed_csv(game.houses(), &direct));
}

#[test]
fn a_game_that_is_over_has_no_first_turn_and_makes_no_solver() {
    let game = Game::new(Rules::kalah(3, 2)).unwrap();
    let over: Position = "0,0,0,6,0,0,0,6:S".parse().unwrap();
    let board = Board::Sowing(std::sync::Arc::new(game), over);
    let made = board.openings(Asked::default(), no_book, &small_solving());
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
            claim: None,
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
        .openings(Asked::default(), from_book, &small_solving())
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
    let pos = &board.bao_position().unwrap();
    let openings = board
        .openings(
            Asked {
                memory_mb: 64,
                ..Asked::default()
            },
            no_book,
            &small_solving(),
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
    let pos = &board.bao_position().unwrap();
    let limits = Limits::depth(3);
    let asked = Asked {
        limits: Some(limits),
        ..Asked::default()
    };
    let openings = board.openings(asked, no_book, &small_solving()).unwrap();
    assert_eq!(openings.meter(), Meter::Nothing);
    let (text, _) = run_and_write(&openings);
    let direct = bao_search::analyse(pos, &limits, &never(), &mut |_| {});
    let moves = report::analysed_moves(&direct);
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
    let openings = board.openings(json, no_book, &small_solving()).unwrap();
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
    let openings = board.openings(asked, no_book, &small_solving()).unwrap();
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
    let openings = board.openings(asked, no_book, &small_solving()).unwrap();
    let err = openings.run(&AtomicBool::new(true), &|_| {}).err().unwrap();
    assert!(matches!(
        err,
        OpeningsError::Graph {
            error: BaoSolveError::Stopped(GraphStop::Cancelled),
            ..
        }
    ));
}

/// Why no first turns came from the book, in the test of [`chosen_first_turns`].
#[derive(Debug)]
enum BookError {
    Load,
    Openings,
}

impl From<LoadError> for BookError {
    fn from(_: LoadError) -> BookError {
        BookError::Load
    }
}

impl From<OpeningsError> for BookError {
    fn from(_: OpeningsError) -> BookError {
        BookError::Openings
    }
}

#[test]
fn the_book_answers_first_turns_only_where_chosen_and_not_quick() {
    let game = Game::new(Rules::kalah(3, 2)).unwrap();
    let start = game.start();
    let turns =
        |choice: &Choice, timed| chosen_first_turns::<BookError>(choice, timed, &game, &start);
    let off = Choice {
        file: None,
        off: true,
    };
    assert!(matches!(turns(&off, false), Ok(None)));
    // A quick board is solved, not looked up in the compiled-in book.
    assert!(matches!(turns(&Choice::default(), false), Ok(None)));
    let missing = Choice {
        file: Some("/nonexistent/kalah.book".into()),
        off: false,
    };
    assert!(matches!(turns(&missing, true), Err(BookError::Load)));
}
