//! The board (`kalah serve`) within a time budget: a large position's turns get their
//! evaluations, depths and proven intervals as they improve, then a heuristic answer; a
//! small one is still solved exactly (checked against a plain minimax written here).

use crate::support::serve;

use std::collections::HashMap;

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

#[test]
fn the_board_shows_large_positions_within_a_time_budget_and_solves_small_ones() {
    let server = serve::Server::start(&[]);
    // Kalah(6,6) from the start: estimates as they improve, then a heuristic answer.
    let events = server.analysis("houses=6&seeds=6&time=0.5");
    let estimates: Vec<&Value> = events
        .iter()
        .filter(|(name, _)| name == "estimate")
        .map(|(_, d)| d)
        .collect();
    assert!(!estimates.is_empty(), "{events:?}");
    // The opening book holds the start: its entry comes before the estimates, and in done.
    let book = events
        .iter()
        .find(|(name, _)| name == "book")
        .map(|(_, d)| d)
        .expect("a book event");
    assert_eq!(
        book["file"],
        "data/book/kalah-6x6-standard.txt (compiled in)"
    );
    let done = &events.last().expect("an end").1;
    assert_eq!(&done["book"], book, "{done}");
    let listed = events
        .iter()
        .find(|(name, _)| name == "turns")
        .map(|(_, d)| d["turns"].as_array().unwrap().len())
        .expect("a turns event");
    for e in &estimates {
        let turns = e["turns"].as_array().unwrap();
        assert_eq!(turns.len(), listed, "every turn in each estimate: {e}");
        for t in turns {
            let (lo, hi, ev) = (&t["lower"], &t["upper"], &t["eval"]);
            let (lo, hi, ev) = (
                lo.as_i64().unwrap(),
                hi.as_i64().unwrap(),
                ev.as_i64().unwrap(),
            );
            assert!(lo <= ev && ev <= hi, "{t}");
            assert!(t["index"].is_u64() && t["depth"].is_u64(), "{t}");
        }
        assert!(e["lower"].as_i64() <= e["upper"].as_i64(), "{e}");
        assert_eq!(e["budget"], 0.5);
    }
    let (name, done) = events.last().unwrap();
    assert_eq!(name, "done", "{events:?}");
    assert_eq!(done["exact"], false, "{done}");
    assert!(
        done["value"].is_null() && done["best_turn"].is_string(),
        "{done}"
    );
    assert!(done["depth"].as_u64().unwrap() >= 1, "{done}");
    // A small position still resolves to exact values: the exact solve, not estimates.
    let game = Game::new(Rules::kalah(3, 3)).unwrap();
    let exact = reference(&game, &game.start(), &mut HashMap::new());
    let events = server.analysis("houses=3&seeds=3&time=0.5");
    assert!(
        events.iter().all(|(name, _)| name != "estimate"),
        "{events:?}"
    );
    let (name, done) = events.last().unwrap();
    assert_eq!(name, "done", "{events:?}");
    assert_eq!(done["value"], exact, "{done}");
    // A bad budget is refused.
    for bad in ["0", "-1", "x", "1e9"] {
        let path = format!("/api/analyse?houses=3&time={bad}&token={}", server.token);
        assert_eq!(server.get(&path).status, 400, "time={bad}");
    }
}

#[test]
fn the_boards_analysis_reads_a_database_file_already_there_and_keeps_its_solver() {
    // A cache holding one small Kalah(5) file, made by the command line.
    let cache = std::env::temp_dir().join(format!("kalah-serve-file-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&cache);
    let grown = std::process::Command::new(env!("CARGO_BIN_EXE_kalah"))
        .env("KALAH_CACHE", &cache)
        .env_remove("KALAH_EGDB_PATH")
        .env_remove("KALAH_CACHE_MAX_MB")
        .args([
            "egdb",
            "cache",
            "grow",
            "-q",
            "--houses",
            "5",
            "--max-seeds",
            "12",
        ])
        .output()
        .expect("kalah runs");
    assert!(grown.status.success(), "{grown:?}");
    let files = || {
        let mut f: Vec<_> = std::fs::read_dir(&cache)
            .map(|d| d.flatten().map(|e| e.path()).collect())
            .unwrap_or_default();
        f.sort();
        f
    };
    let before = files();
    assert_eq!(before.len(), 1, "{before:?}");
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_kalah"));
    command.env("KALAH_CACHE", &cache);
    let server = serve::Server::spawn(command, &["--threads", "1"]);
    // Kalah(5,10) does not solve quickly: the anytime analysis, which reads the file
    // (the client told so once) and builds none.
    let loading = |events: &[(String, Value)]| {
        events
            .iter()
            .any(|(name, d)| name == "status" && d["message"].as_str().unwrap().contains("loading"))
    };
    let name = before[0].to_str().unwrap();
    for first in [true, false] {
        let events = server.analysis("houses=5&seeds=10&time=0.3");
        let (last, done) = events.last().unwrap();
        assert_eq!(last, "done", "{events:?}");
        assert_eq!(done["egdb_file"], name, "{done}");
        assert!(done["lower"].as_i64() <= done["upper"].as_i64(), "{done}");
        assert!(done["best_turn"].is_string(), "{done}");
        // The second analysis finds the solver kept: nothing is loaded again.
        assert_eq!(loading(&events), first, "{events:?}");
    }
    assert_eq!(files(), before, "the analysis builds no database");
    drop(server);
    let _ = std::fs::remove_dir_all(&cache);
}
