//! A run of many positions cut short and resumed gives what one uninterrupted run gives,
//! where the docs promise it (one thread, limits of depth or nodes, not time): a book
//! built over a prefix of its positions and finished by a fresh process (a fresh solver,
//! the prefix's entries kept) is the same book, entry for entry; and a batch resumed
//! likewise answers every position with the same value and line.

use std::collections::HashMap;
use std::sync::atomic::AtomicBool;

use kalah_analysis::batch::{items, solve_in_order, Item};
use kalah_analysis::book::build::{build, positions};
use kalah_analysis::book::Entry;
use kalah_analysis::wire::answer;
use kalah_core::{Game, Position, Rules};
use kalah_solver::{Config, Limits, Solver};

/// A solver of one thread, as a fresh process makes it.
fn fresh(game: &Game) -> Solver {
    let config = Config {
        threads: 1,
        hash_mb: 8,
        ..Config::default()
    };
    Solver::new(game.clone(), config).unwrap()
}

/// The entries of a book build of `todo` over `solver`, with `kept` taken as they are.
fn book(solver: &Solver, todo: &[Position], limits: &Limits, kept: &[Entry]) -> Vec<Entry> {
    let kept: HashMap<Position, Entry> = kept.iter().map(|e| (e.position, e.clone())).collect();
    let never = AtomicBool::new(false);
    build::<kalah_analysis::AnalysisError>(solver, todo, limits, &kept, &never, &mut |_, _| Ok(()))
        .unwrap()
}

#[test]
fn a_book_built_on_one_thread_and_resumed_is_the_uninterrupted_book() {
    let game = Game::new(Rules::kalah(5, 4)).unwrap();
    let todo = positions(&game, &game.start(), 3);
    let limits = Limits {
        depth: Some(12),
        ..Limits::none()
    };
    let whole = book(&fresh(&game), &todo, &limits, &[]);
    assert_eq!(whole.len(), todo.len());
    let mut differ = Vec::new();
    for cut in [1, todo.len() / 3] {
        // Cut after `cut` entries: a fresh process goes on from them.
        let prefix = book(&fresh(&game), &todo[..cut], &limits, &[]);
        let resumed = book(&fresh(&game), &todo, &limits, &prefix);
        let wrong = (0..todo.len()).filter(|&i| resumed[i] != whole[i]).count();
        if wrong > 0 {
            differ.push((cut, wrong));
        }
    }
    assert!(
        differ.is_empty(),
        "entries that differ (cut, count): {differ:?}"
    );
}

/// The answer lines of a batch of `items` on one worker of one thread, without their
/// `seconds` (the one field that a machine's load changes).
fn batch(game: &Game, items: &[Item]) -> Vec<serde_json::Value> {
    let solver = fresh(game);
    let never = AtomicBool::new(false);
    let mut lines = Vec::new();
    solve_in_order(&solver, items, 1, &never, &mut |i, answer| {
        let mut line = answer::write(
            items[i].line,
            &items[i].input,
            game.rules(),
            answer.as_ref().map_err(|e| e as &dyn std::fmt::Display),
        );
        line.as_object_mut().unwrap().remove("seconds");
        lines.push(line);
        true
    })
    .unwrap();
    lines
}

#[test]
fn a_batch_on_one_thread_resumed_answers_as_the_uninterrupted_batch() {
    let game = Game::new(Rules::kalah(5, 3)).unwrap();
    let text: String = positions(&game, &game.start(), 2)
        .iter()
        .map(|p| format!("{p}\n"))
        .collect();
    let all = items(&text);
    let whole = batch(&game, &all);
    assert_eq!(whole.len(), all.len());
    let mut differ = Vec::new();
    for cut in [1, all.len() / 2] {
        // Cut after `cut` answers: `--resume` answers the rest in a fresh process.
        let mut resumed = batch(&game, &all[..cut]);
        resumed.extend(batch(&game, &all[cut..]));
        let wrong: Vec<usize> = (0..all.len()).filter(|&i| resumed[i] != whole[i]).collect();
        if !wrong.is_empty() {
            differ.push((cut, wrong));
        }
    }
    assert!(
        differ.is_empty(),
        "answers that differ (cut, lines): {differ:?}"
    );
}
