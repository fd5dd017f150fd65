//! `kalah match` seen from outside: a small match between two settings whose score adds
//! up, every opening played with both colours, a games file whose games replay to their
//! results, the engine against itself through the engine protocol, and bad input.

use crate::support::cli;

use cli::{json, kalah};

use kalah_core::{notation, Game, Rules};
use serde_json::Value;

/// A fresh scratch directory for one test, removed when dropped.
fn scratch(name: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("kalah-match-cli-{name}-"))
        .tempdir()
        .expect("a scratch directory")
}

/// The strings of a JSON array.
fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap().to_string())
        .collect()
}

/// Checks the games of a match on `game`: pairs of one opening with the colours
/// swapped, turns that replay to the score, points that follow from the score and the
/// colour, exact values that end with the score; returns player 1's points.
fn check_games(game: &Game, text: &str) -> f64 {
    let games: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).expect("each line is JSON"))
        .collect();
    assert!(
        !games.is_empty() && games.len() % 2 == 0,
        "{} games",
        games.len()
    );
    let mut points = 0.0;
    for (k, g) in games.iter().enumerate() {
        assert_eq!(g["game"], k);
        let pair = &games[k - k % 2];
        assert_eq!(g["opening_moves"], pair["opening_moves"]);
        assert_eq!(g["opening"], pair["opening"]);
        let colour = if k % 2 == 0 { "south" } else { "north" };
        assert_eq!(g["player1_is"], colour, "game {k}");
        let mut all = strings(&g["opening_moves"]);
        all.extend(strings(&g["moves"]));
        let (end, _) = notation::play_moves(game, game.start(), &all.join(" ")).unwrap();
        assert!(end.is_over(), "game {k} ends");
        let score = g["score"].as_i64().unwrap() as i32;
        assert_eq!(end.score(), score);
        let south_points = match score.signum() {
            1 => 1.0,
            0 => 0.5,
            _ => 0.0,
        };
        let p1 = if colour == "south" {
            south_points
        } else {
            1.0 - south_points
        };
        assert_eq!(g["player1_points"].as_f64().unwrap(), p1);
        points += p1;
        let values = g["values"].as_array().unwrap();
        assert_eq!(values.len(), strings(&g["moves"]).len() + 1);
        assert_eq!(values.last().unwrap().as_i64(), Some(score as i64));
    }
    points
}

/// This build's engine as `--engine2` runs it: one thread, a small table.
fn own_engine() -> String {
    format!(
        "{} engine --threads 1 --hash-mb 8 --quiet",
        env!("CARGO_BIN_EXE_kalah")
    )
}

/// The JSON summary of a quiet match on Kalah(4,3) with `extra` arguments.
fn small_match(extra: &[&str]) -> Value {
    let mut args = vec![
        "match", "--houses", "4", "--seeds", "3", "--json", "--quiet",
    ];
    args.extend(extra);
    json(&args)
}

#[test]
fn a_small_match_adds_up_and_its_games_replay() {
    let dir = scratch("small");
    let file = dir.path().join("games.jsonl");
    let summary = small_match(&[
        "--count",
        "8",
        "--nodes1",
        "3000",
        "--nodes2",
        "100",
        "--hash-mb",
        "16",
        "--games",
        file.to_str().unwrap(),
    ]);
    let (w, d, l) = (
        summary["wins"].as_u64().unwrap(),
        summary["draws"].as_u64().unwrap(),
        summary["losses"].as_u64().unwrap(),
    );
    assert_eq!(w + d + l, 8);
    assert_eq!(summary["games"], 8);
    let points = summary["points"].as_f64().unwrap();
    assert_eq!(points, w as f64 + 0.5 * d as f64);
    assert_eq!(summary["score"].as_f64().unwrap(), points / 8.0);
    assert_eq!(summary["interval_from"], "pairs");
    let hw = summary["interval95"].as_f64().unwrap();
    assert!((0.0..=1.0).contains(&hw), "{hw}");
    let game = Game::new(Rules::kalah(4, 3)).unwrap();
    let text = std::fs::read_to_string(&file).unwrap();
    assert_eq!(text.lines().count(), 8);
    assert_eq!(check_games(&game, &text), points);
    // Small boards: every position's exact value is proved.
    let known = &summary["exact_values"];
    assert_eq!(known["known"], known["positions"]);
    // ... so every turn is judged, by one player or the other.
    let turns: usize = text
        .lines()
        .map(|l| {
            serde_json::from_str::<Value>(l).unwrap()["moves"]
                .as_array()
                .unwrap()
                .len()
        })
        .sum();
    let judged: u64 = (0..2)
        .map(|p| summary["accuracy"][p]["judged"].as_u64().unwrap())
        .sum();
    assert_eq!(judged as usize, turns);
}

#[test]
fn the_same_seed_plays_the_same_match() {
    let args = [
        "match",
        "--houses",
        "3",
        "--seeds",
        "3",
        "--count",
        "4",
        "--nodes1",
        "500",
        "--nodes2",
        "50",
        "--hash-mb",
        "8",
        "--json",
        "--quiet",
        "--seed",
        "9",
    ];
    assert_eq!(json(&args), json(&args));
}

#[test]
fn a_clocked_pondering_match_from_chosen_boards_answers_every_move_on_time() {
    let dir = scratch("clock");
    let set = dir.path().join("set.txt");
    // Two boards of Kalah(4,3) (the start after 1 and after 4), a comment and a blank line.
    std::fs::write(
        &set,
        "# a set\n0,4,4,4,0,3,3,3,3,0:N  # after 1\n\n3,3,3,0,1,4,4,3,3,0:N\n",
    )
    .unwrap();
    let file = dir.path().join("games.jsonl");
    let engine = own_engine();
    let summary = small_match(&[
        "--count",
        "4",
        "--clock",
        "0.1+0.05",
        "--ponder",
        "--engine2",
        &engine,
        "--openings",
        set.to_str().unwrap(),
        "--hash-mb",
        "8",
        "--exact-nodes",
        "0",
        "--games",
        file.to_str().unwrap(),
    ]);
    assert_eq!(summary["games"], 4);
    assert!(summary["openings"].as_str().unwrap().ends_with("set.txt"));
    // Six seconds a game on a small board: every move answered, none out of time.
    for p in 0..2 {
        assert_eq!(summary["clock"][p]["losses_on_time"], 0, "{summary}");
        assert!(
            summary["clock"][p]["moves"].as_u64().unwrap() > 0,
            "{summary}"
        );
    }
    let text = std::fs::read_to_string(&file).unwrap();
    for (k, line) in text.lines().enumerate() {
        let g: Value = serde_json::from_str(line).unwrap();
        let board = if k < 2 {
            "0,4,4,4,0,3,3,3,3,0:N"
        } else {
            "3,3,3,0,1,4,4,3,3,0:N"
        };
        assert_eq!(g["opening_position"], board, "game {k}");
        assert!(g.get("lost_on_time").is_none(), "game {k}");
    }
    // No book for these rules: --openings book says where the sets are.
    let out = kalah(&[
        "match",
        "--houses",
        "4",
        "--seeds",
        "3",
        "--openings",
        "book",
    ]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("data/openings/"), "{err}");
}

#[test]
fn the_engine_plays_itself_through_the_protocol() {
    let dir = scratch("protocol");
    let file = dir.path().join("games.jsonl");
    let engine = own_engine();
    let summary = small_match(&[
        "--count",
        "4",
        "--nodes1",
        "2000",
        "--nodes2",
        "2000",
        "--engine2",
        &engine,
        "--hash-mb",
        "8",
        "--games",
        file.to_str().unwrap(),
    ]);
    assert_eq!(summary["games"], 4);
    let players = strings(&summary["players"]);
    assert!(players[1].starts_with("kalah "), "{players:?}");
    let game = Game::new(Rules::kalah(4, 3)).unwrap();
    let points = check_games(&game, &std::fs::read_to_string(&file).unwrap());
    assert_eq!(points, summary["points"].as_f64().unwrap());
}

#[test]
fn games_played_at_once_against_programs_of_their_own_add_up_as_one_at_a_time() {
    let dir = scratch("concurrency");
    let engine = own_engine();
    let game = Game::new(Rules::kalah(4, 3)).unwrap();
    let mut openings = Vec::new();
    for tables in ["1", "3"] {
        let file = dir.path().join(format!("games-{tables}.jsonl"));
        let summary = small_match(&[
            "--count",
            "10",
            "--depth1",
            "3",
            "--depth2",
            "2",
            "--engine2",
            &engine,
            "--hash-mb",
            "8",
            "--concurrency",
            tables,
            "--games",
            file.to_str().unwrap(),
        ]);
        assert_eq!(summary["games"], 10, "{tables}");
        let text = std::fs::read_to_string(&file).unwrap();
        // The games file lists the pairs in order, each opening with both colours, as
        // one table does, whichever table played them.
        let points = check_games(&game, &text);
        assert_eq!(points, summary["points"].as_f64().unwrap());
        let known = &summary["exact_values"];
        assert_eq!(known["known"], known["positions"]);
        let lines: Vec<Value> = text
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        openings.push(
            lines
                .iter()
                .map(|g| g["opening_moves"].clone())
                .collect::<Vec<_>>(),
        );
    }
    assert_eq!(openings[0], openings[1]);
    let out = kalah(&[
        "match",
        "--houses",
        "4",
        "--seeds",
        "3",
        "--concurrency",
        "0",
    ]);
    assert!(!out.status.success());
}

#[test]
fn bad_settings_and_a_silent_engine_are_clear_errors() {
    for (args, says) in [
        (vec!["--count", "0"], "count"),
        (vec!["--time1=-1"], "time"),
        (vec!["--evaluation2", "psychic"], "psychic"),
        (vec!["--engine2", "/no/such/kalah-engine"], "--engine2"),
        // `cat` echoes `hello` and never says `hellook`.
        (
            vec!["--engine2", "cat", "--move-timeout", "0.5"],
            "no hellook",
        ),
    ] {
        let mut all = vec!["match", "--houses", "3", "--seeds", "2", "--quiet"];
        all.extend(&args);
        let out = kalah(&all);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(says), "{args:?}: {stderr}");
    }
}

#[test]
fn a_bao_match_against_the_engine_adds_up_and_its_games_replay() {
    use kalah_core::bao::{BaoPosition, BaoRules};
    let dir = scratch("bao");
    let file = dir.path().join("games.jsonl");
    let engine = format!("{} engine --threads 1 --quiet", env!("CARGO_BIN_EXE_kalah"));
    let summary = json(&[
        "match",
        "--rules",
        "bao",
        "--houses",
        "6",
        "--count",
        "6",
        "--depth1",
        "3",
        "--depth2",
        "2",
        "--engine2",
        &engine,
        "--json",
        "--quiet",
        "--games",
        file.to_str().unwrap(),
    ]);
    assert_eq!(summary["games"], 6);
    assert_eq!(summary["rules"], "Bao(6,2)");
    let rules = BaoRules::new(6, 2).unwrap();
    let mut points = 0.0;
    let text = std::fs::read_to_string(&file).unwrap();
    for line in text.lines() {
        let g: Value = serde_json::from_str(line).unwrap();
        let mut pos: BaoPosition = rules.start();
        let mut seen = std::collections::HashMap::new();
        let opening = strings(&g["opening_moves"]);
        for (k, m) in opening.iter().chain(&strings(&g["moves"])).enumerate() {
            if k >= opening.len() {
                *seen.entry(pos).or_insert(0) += 1;
            }
            pos = pos.try_play(pos.parse_move(m).unwrap()).unwrap().0;
        }
        // The result is the rules': the side to move at the end has lost, or the last
        // position came back a third time.
        let (winner, score) = if pos.is_over() || pos.legal().is_empty() {
            let w = if pos.side().sign() > 0 {
                "north"
            } else {
                "south"
            };
            (Value::from(w), -pos.side().sign())
        } else {
            assert_eq!(seen.get(&pos), Some(&2), "{line}");
            (Value::Null, 0)
        };
        assert_eq!(g["winner"], winner, "{line}");
        assert_eq!(g["score"], score, "{line}");
        points += g["player1_points"].as_f64().unwrap();
    }
    assert_eq!(points, summary["points"].as_f64().unwrap());
    // Options of the sowing games do not apply.
    let bad = kalah(&["match", "--rules", "bao", "--capture", "empty"]);
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("does not apply"));
}

#[test]
fn a_bao_match_plays_from_the_shipped_balanced_boards_on_a_clock() {
    use kalah_core::bao::BaoPosition;
    let dir = scratch("bao-openings");
    let file = dir.path().join("games.jsonl");
    let boards = concat!(env!("CARGO_MANIFEST_DIR"), "/data/openings/bao-8x2.txt");
    let summary = json(&[
        "match",
        "--rules",
        "bao",
        "--houses",
        "8",
        "--count",
        "4",
        "--openings",
        boards,
        "--clock",
        "0.05+0.05",
        "--depth1",
        "2",
        "--depth2",
        "1",
        "--json",
        "--quiet",
        "--games",
        file.to_str().unwrap(),
    ]);
    assert_eq!(summary["games"], 4);
    assert_eq!(summary["openings"], boards);
    for player in summary["clock"].as_array().expect("both clocks") {
        assert_eq!(player["losses_on_time"], 0, "{summary}");
    }
    // The games start from the file's first two boards, each with both colours.
    let text = std::fs::read_to_string(boards).unwrap();
    let firsts: Vec<&str> = text
        .lines()
        .map(|l| l.split('#').next().unwrap_or("").trim())
        .filter(|l| !l.is_empty())
        .take(2)
        .collect();
    let games: Vec<Value> = std::fs::read_to_string(&file)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(games.len(), 4);
    for (k, g) in games.iter().enumerate() {
        let board: BaoPosition = g["opening_position"].as_str().unwrap().parse().unwrap();
        let want: BaoPosition = firsts[k / 2].parse().unwrap();
        assert_eq!(board, want, "game {k}");
    }
}

#[test]
fn an_oware_match_with_its_exact_values_plays_without_a_table_option() {
    // The exact values' solver asks for a table of its own; Oware has none, and the
    // match used to refuse itself with "leave out --hash-mb", which the user never gave.
    let summary = json(&[
        "match", "--rules", "oware", "--houses", "3", "--seeds", "2", "--count", "2", "--nodes1",
        "300", "--nodes2", "300", "--json", "--quiet",
    ]);
    assert_eq!(summary["games"], 2);
    let (w, d, l) = (
        summary["wins"].as_u64().unwrap(),
        summary["draws"].as_u64().unwrap(),
        summary["losses"].as_u64().unwrap(),
    );
    assert_eq!(w + d + l, 2);
    let known = &summary["exact_values"];
    assert!(known["positions"].as_u64().unwrap() > 0, "{known}");
}
