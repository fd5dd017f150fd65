//! A time budget where a user meets it: `kalah play --time`, `kalah batch --time` and
//! `kalah openings --time`, each answer exact where the analysis proves it and otherwise
//! heuristic with a proven interval that holds the exact value (checked against a plain
//! minimax written here), and bad times refused with exit status 2.

use crate::support::cli;

use std::collections::HashMap;

use cli::{json, kalah, kalah_ok};
use kalah_core::{Game, Position, Rules, Side};
use serde_json::Value;

/// The exact value from South of `pos` by plain minimax with a memo: the reference.
fn reference(game: &Game, pos: &Position, memo: &mut HashMap<Position, i32>) -> i32 {
    if pos.is_over() {
        return pos.score();
    }
    if let Some(&v) = memo.get(pos) {
        return v;
    }
    let values = game
        .legal_moves(pos)
        .map(|j| reference(game, &game.play_unchecked(pos, j), memo));
    let v = match pos.side_to_move() {
        Side::South => values.max(),
        Side::North => values.min(),
    }
    .expect("a position not over has a move");
    memo.insert(*pos, v);
    v
}

/// Checks one answer (a batch line or an openings turn) against the exact value `exact`:
/// an exact one has `value` == `exact`; a heuristic one says `"exact": false`, has no
/// `value`, and its proven interval holds both `exact` and its evaluation. Returns
/// whether it was heuristic.
fn check_answer(v: &Value, exact: i32) -> bool {
    if v.get("exact").is_none() {
        assert_eq!(v["value"], exact, "{v}");
        return false;
    }
    assert_eq!(v["exact"], false, "{v}");
    assert!(
        v.get("value").is_none(),
        "a heuristic answer has no value: {v}"
    );
    let (lo, hi) = (v["lower"].as_i64().unwrap(), v["upper"].as_i64().unwrap());
    let eval = v["eval"].as_i64().unwrap();
    assert!(lo < hi, "{v}");
    assert!(
        lo <= exact as i64 && exact as i64 <= hi,
        "{exact} not in {v}"
    );
    assert!(lo <= eval && eval <= hi, "{v}");
    assert!(v["depth"].is_u64(), "{v}");
    true
}

/// Positions of Kalah(3,3) in the move form, the start first.
const POSITIONS: [&str; 5] = ["", "1", "2", "3", "3 5"];

/// Writes the batch input and runs `kalah batch` on it with `extra`; the answer lines.
fn batch(dir: &std::path::Path, extra: &[&str]) -> Vec<Value> {
    let input = dir.join("in.txt");
    // A blank line would be skipped: the start in the board form.
    let text: String = POSITIONS
        .iter()
        .map(|p| match p.is_empty() {
            true => "3,3,3,0,3,3,3,0:S\n".to_string(),
            false => format!("{p}\n"),
        })
        .collect();
    std::fs::write(&input, text).unwrap();
    let mut args = vec!["batch", input.to_str().unwrap(), "--houses", "3"];
    args.extend_from_slice(&["--seeds", "3", "--quiet"]);
    args.extend_from_slice(extra);
    let out = kalah_ok(&args);
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn batch_time_answers_hold_the_exact_value_in_their_interval() {
    let game = Game::new(Rules::kalah(3, 3)).unwrap();
    let mut memo = HashMap::new();
    let dir = tempfile::tempdir().unwrap();
    let exact_values: Vec<i32> = batch(dir.path(), &[])
        .iter()
        .map(|v| v["value"].as_i64().unwrap() as i32)
        .collect();
    let short = batch(dir.path(), &["--time", "0.000001"]);
    let long = batch(dir.path(), &["--time", "30"]);
    assert_eq!(short.len(), POSITIONS.len());
    let mut heuristic = 0;
    for ((s, l), &solved) in short.iter().zip(&long).zip(&exact_values) {
        let pos: Position = s["position"].as_str().unwrap().parse().unwrap();
        let exact = reference(&game, &pos, &mut memo);
        assert_eq!(solved, exact);
        heuristic += check_answer(s, exact) as usize;
        // Time enough: exact, and written as a solve writes it (the same fields).
        assert!(!check_answer(l, exact), "{l}");
        assert!(l["pv"].is_array() && l["best_turn"].is_string(), "{l}");
    }
    assert!(
        heuristic > 0,
        "a microsecond proves nothing on the start: {short:?}"
    );
    let plain = batch(dir.path(), &[]);
    let keys = |v: &Value| -> Vec<String> { v.as_object().unwrap().keys().cloned().collect() };
    assert_eq!(keys(&plain[0]), keys(&long[0]));
}

#[test]
fn openings_time_turns_hold_the_exact_value_in_their_interval() {
    let game = Game::new(Rules::kalah(3, 3)).unwrap();
    let mut memo = HashMap::new();
    let board = ["--houses", "3", "--seeds", "3", "--quiet", "--json"];
    let mut plain_args = vec!["openings"];
    plain_args.extend_from_slice(&board);
    let plain = json(&plain_args);
    for (time, want_heuristic) in [("0.000001", true), ("30", false)] {
        let mut args = vec!["openings", "--time", time];
        args.extend_from_slice(&board);
        let v = json(&args);
        let turns = v["turns"].as_array().unwrap();
        assert_eq!(turns.len(), plain["turns"].as_array().unwrap().len());
        let mut heuristic = 0;
        for t in turns {
            let after: Position = t["position_after"].as_str().unwrap().parse().unwrap();
            let exact = reference(&game, &game.settle(after).unwrap(), &mut memo);
            heuristic += check_answer(t, exact) as usize;
        }
        assert_eq!(heuristic > 0, want_heuristic, "--time {time}: {v}");
        assert_eq!(v["exact"], !want_heuristic);
    }
    // The text says which turns are heuristic.
    let out = kalah_ok(&[
        "openings", "--time", "0.000001", "--houses", "3", "--seeds", "3",
    ]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("turns analysed in"), "{text}");
    assert!(text.contains('~'), "{text}");
    // CSV: the columns of a timed table, one row a turn.
    let out = kalah_ok(&[
        "openings", "--time", "30", "--csv", "--houses", "3", "--seeds", "3",
    ]);
    let csv = String::from_utf8(out.stdout).unwrap();
    let mut rows = csv.lines();
    assert_eq!(
        rows.next(),
        Some("turn,exact,eval,lower,upper,depth,eval_mover,position_after,pv")
    );
    assert!(rows.all(|r| r.split(',').nth(1) == Some("true")), "{csv}");
}

/// `kalah play` with `args`, the engine moving first (the human plays North, standard
/// input empty: the game is abandoned after the engine's first turn); its output.
fn engine_first(args: &[&str]) -> String {
    let mut all = vec!["play", "--as", "north", "--quiet"];
    all.extend_from_slice(args);
    let out = kalah_ok(&all);
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn play_time_moves_on_a_large_board_and_says_how() {
    // Without the opening book, which holds the start.
    let text = engine_first(&[
        "--houses",
        "6",
        "--seeds",
        "6",
        "--time",
        "0.5",
        "--no-book",
    ]);
    assert!(text.contains("South plays "), "{text}");
    assert!(text.contains("(heuristic, proven interval "), "{text}");
    assert!(text.contains("end of input: game abandoned"), "{text}");
    // Stopped by its time, with an answer of a depth short of the deepest search an
    // analysis runs (120 sowings, `Limits::MAX_DEPTH`).
    let depth: u8 = text
        .split("at depth ")
        .nth(1)
        .and_then(|rest| rest.split(',').next())
        .and_then(|d| d.parse().ok())
        .unwrap_or_else(|| panic!("no depth in {text}"));
    assert!(depth < 120, "{text}");
    // Without --time the large board gets the default time, and says so.
    let text = engine_first(&["--houses", "6", "--seeds", "6"]);
    assert!(text.contains("does not solve quickly"), "{text}");
    assert!(text.contains("South plays "), "{text}");
    // A small board is proved in time: the move is exact.
    let text = engine_first(&["--houses", "3", "--seeds", "3", "--time", "30"]);
    assert!(text.contains("(exact, value "), "{text}");
    // And without --time it is today's perfect engine: no note, no label.
    let text = engine_first(&["--houses", "3", "--seeds", "3"]);
    assert!(
        !text.contains("does not solve quickly") && !text.contains("(exact"),
        "{text}"
    );
    assert!(text.contains("South plays "), "{text}");
}

#[test]
fn bad_times_exit_2() {
    let small = ["--houses", "3", "--seeds", "3"];
    for time in ["0", "-1", "abc", "1e9", "nan", "inf", ""] {
        for command in [&["play"][..], &["batch", "/dev/null"], &["openings"]] {
            let mut args = command.to_vec();
            args.extend_from_slice(&["--time", time]);
            args.extend_from_slice(&small);
            let out = kalah(&args);
            assert_eq!(out.status.code(), Some(2), "{args:?}");
            assert!(!out.stderr.is_empty(), "{args:?}");
        }
    }
    let out = kalah(&["play", "--time", "1", "--engine", "greedy"]);
    assert_eq!(out.status.code(), Some(2));
}
