//! The analysis subcommands seen from outside: `openings`, `pie`, `batch` (with an
//! interrupted run resumed) and `export`, on boards small enough to solve in a blink.

use crate::support::cli;

use cli::{json, kalah};

use std::process::{Command, Stdio};

use kalah_core::{notation, Game, Rules};
use serde_json::Value;

/// A fresh scratch directory for one test, removed when dropped.
fn scratch(name: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("kalah-analysis-cli-{name}-"))
        .tempdir()
        .expect("a scratch directory")
}

/// Plays a principal variation (published notation) and returns the final score.
fn final_score(game: &Game, from: &str, pv: &Value) -> i32 {
    let moves: Vec<&str> = pv
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_str().unwrap())
        .collect();
    let start = if from.is_empty() {
        game.start()
    } else {
        game.settle(from.parse().unwrap()).unwrap()
    };
    let (end, _) = notation::play_moves(game, start, &moves.join(" ")).unwrap();
    assert!(end.is_over());
    end.score()
}

#[test]
fn openings_json_lists_every_turn_best_first_with_a_replaying_pv() {
    let v = json(&["openings", "--houses", "4", "--seeds", "3", "--json", "-q"]);
    let game = Game::new(Rules::kalah(4, 3)).unwrap();
    let turns = v["turns"].as_array().unwrap();
    assert_eq!(turns.len(), 6);
    let values: Vec<i64> = turns.iter().map(|t| t["value"].as_i64().unwrap()).collect();
    assert!(values.windows(2).all(|w| w[0] >= w[1]));
    for t in turns {
        assert_eq!(
            final_score(&game, "", &t["pv"]) as i64,
            t["value"].as_i64().unwrap()
        );
        assert!(t["pv"][0]
            .as_str()
            .unwrap()
            .starts_with(t["turn"].as_str().unwrap()));
    }
    assert_eq!(v["best_turn"], turns[0]["turn"]);
    assert_eq!(v["value"], turns[0]["value"]);

    let csv = kalah(&["openings", "--houses", "4", "--seeds", "3", "--csv", "-q"]);
    let text = String::from_utf8(csv.stdout).unwrap();
    assert!(text.starts_with("turn,value,"));
    assert_eq!(text.lines().count(), 7);
}

#[test]
fn pie_json_swaps_exactly_when_the_turn_favours_south() {
    for offer in ["turn", "first-sowing"] {
        let v = json(&[
            "pie", "--houses", "4", "--seeds", "3", "--json", "-q", "--offer", offer,
        ]);
        let turns = v["turns"].as_array().unwrap();
        let mut best = i64::MIN;
        for t in turns {
            let value = t["value"].as_i64().unwrap();
            assert_eq!(
                t["swap"].as_bool().unwrap(),
                value > 0,
                "{offer}: on a tie, no swap"
            );
            best = best.max(-value.abs());
        }
        assert_eq!(v["value"].as_i64().unwrap(), best, "{offer}");
        assert_eq!(v["best_turn"], turns[0]["turn"]);
    }
}

#[test]
fn pie_decides_for_north_after_south_turn() {
    let v = json(&[
        "pie", "--houses", "4", "--seeds", "3", "--moves", "2-4", "--json", "-q",
    ]);
    let value = v["value"].as_i64().unwrap();
    assert_eq!(v["swap"].as_bool().unwrap(), value > 0);
    assert_eq!(v["advantage"].as_i64().unwrap(), 2 * value.abs());
    // South still has an extra sowing: not a decision point unless the offer comes that early.
    let out = kalah(&["pie", "--houses", "4", "--seeds", "3", "--moves", "2", "-q"]);
    assert_eq!(out.status.code(), Some(2));
    let v = json(&[
        "pie",
        "--houses",
        "4",
        "--seeds",
        "3",
        "--moves",
        "2",
        "--offer",
        "first-sowing",
        "--json",
        "-q",
    ]);
    assert!(v["swap"].is_boolean());
}

const BATCH: &str = "# positions of Kalah(4,2)\n1\n3-4 # a turn with an extra sowing\n\n\
                     2,2,2,2,0,2,2,2,2,0:N\n9\n3 7\n4\n0,0,0,0,8,0,0,0,0,8:S\n1 6\n";

/// The answers without the timing fields, which differ from run to run.
fn answers(text: &str) -> Vec<Value> {
    text.lines()
        .map(|l| {
            let mut v: Value = serde_json::from_str(l).unwrap();
            let obj = v.as_object_mut().unwrap();
            obj.remove("nodes");
            obj.remove("seconds");
            obj.remove("pv");
            obj.remove("best_turn");
            v
        })
        .collect()
}

#[test]
fn batch_answers_every_line_in_order_and_resumes_without_loss_or_duplicates() {
    let scratch = scratch("batch");
    let dir = scratch.path();
    let input = dir.join("in.txt");
    std::fs::write(&input, BATCH).unwrap();
    let out = dir.join("out.jsonl");
    let args = |resume: bool| {
        let mut a = vec![
            "batch".to_string(),
            input.display().to_string(),
            "--houses".into(),
            "4".into(),
            "--seeds".into(),
            "2".into(),
            "-q".into(),
            "-o".into(),
            out.display().to_string(),
        ];
        if resume {
            a.push("--resume".into());
        }
        a
    };
    let run = |resume: bool| {
        let a = args(resume);
        kalah(&a.iter().map(String::as_str).collect::<Vec<_>>())
    };
    assert!(run(false).status.success());
    let full = std::fs::read_to_string(&out).unwrap();
    let reference = answers(&full);
    assert_eq!(reference.len(), 8);
    let lines: Vec<u64> = reference
        .iter()
        .map(|v| v["line"].as_u64().unwrap())
        .collect();
    assert_eq!(lines, [2, 3, 5, 6, 7, 8, 9, 10]);
    assert!(reference[3]["error"].is_string(), "bin 9 is not South's");
    assert!(reference[1]["value"].is_i64());

    // Without --resume an existing answer file is never overwritten.
    let again = run(false);
    assert_eq!(again.status.code(), Some(2));
    assert_eq!(std::fs::read_to_string(&out).unwrap(), full);

    // An interrupted run: three whole answers and half of the fourth.
    let cut: usize = full.lines().take(3).map(|l| l.len() + 1).sum::<usize>() + 20;
    std::fs::write(&out, &full[..cut]).unwrap();
    let resumed = run(true);
    assert!(
        resumed.status.success(),
        "{}",
        String::from_utf8_lossy(&resumed.stderr)
    );
    assert_eq!(answers(&std::fs::read_to_string(&out).unwrap()), reference);

    // A finished run resumed again adds nothing.
    assert!(run(true).status.success());
    assert_eq!(answers(&std::fs::read_to_string(&out).unwrap()), reference);

    // Answers of another input are refused, not mixed in.
    std::fs::write(&input, "3\n4\n").unwrap();
    assert_eq!(run(true).status.code(), Some(2));
}

#[test]
fn batch_reads_standard_input_and_writes_standard_output() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_kalah"))
        .env_remove("KALAH_EGDB_PATH")
        .env("KALAH_CACHE", "off")
        .args(["batch", "--houses", "4", "--seeds", "2", "-q"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(BATCH.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    assert_eq!(answers(&String::from_utf8(out.stdout).unwrap()).len(), 8);
}

#[test]
fn export_writes_whole_tables_in_json_and_csv() {
    let scratch = scratch("export");
    let dir = scratch.path();
    let json_path = dir.join("book.json");
    let csv_path = dir.join("book.csv");
    for path in [&json_path, &csv_path] {
        let out = kalah(&[
            "export",
            "--houses",
            "3",
            "--seeds",
            "2",
            "--depth",
            "2",
            "-q",
            "-o",
            &path.display().to_string(),
        ]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&json_path).unwrap()).unwrap();
    let positions = v["positions"].as_array().unwrap();
    assert_eq!(v["count"].as_u64().unwrap() as usize, positions.len());
    assert_eq!(positions[0]["position"], "2,2,2,0,2,2,2,0:S");
    assert_eq!(positions[0]["turns"], 0);
    let unique: std::collections::HashSet<&str> = positions
        .iter()
        .map(|p| p["position"].as_str().unwrap())
        .collect();
    assert_eq!(unique.len(), positions.len(), "each position once");
    for p in positions {
        let moves = p["moves"].as_array().unwrap();
        if let Some(best) = p["best"].as_u64() {
            let m = moves.iter().find(|m| m["bin"] == best).unwrap();
            assert_eq!(m["value"], p["value"]);
        }
    }
    let csv = std::fs::read_to_string(&csv_path).unwrap();
    assert!(csv.starts_with("position,side,turns,value,best,house1,house2,house3\n"));
    assert_eq!(csv.lines().count(), positions.len() + 1);
    let left: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.ends_with(".tmp") || n.ends_with(".partial"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
}

#[test]
fn committed_tables_are_consistent_with_the_rules_and_themselves() {
    use kalah_core::{Capture, Position};
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data");
    for (name, capture) in [
        ("export-5-4-standard-d2", Capture::Standard),
        ("export-5-4-empty-d2", Capture::Empty),
    ] {
        let text = std::fs::read_to_string(dir.join(format!("{name}.json"))).unwrap();
        let v: Value = serde_json::from_str(&text).unwrap();
        let game = Game::new(Rules {
            capture,
            ..Rules::kalah(5, 4)
        })
        .unwrap();
        let mut values = std::collections::HashMap::new();
        for p in v["positions"].as_array().unwrap() {
            let pos: Position = p["position"].as_str().unwrap().parse().unwrap();
            values.insert(pos, p["value"].as_i64().unwrap());
        }
        assert_eq!(
            values.len(),
            v["count"].as_u64().unwrap() as usize,
            "{name}"
        );
        assert!(values.contains_key(&game.start()));
        for p in v["positions"].as_array().unwrap() {
            let pos: Position = p["position"].as_str().unwrap().parse().unwrap();
            let moves = p["moves"].as_array().unwrap();
            let bins: Vec<u64> = moves.iter().map(|m| m["bin"].as_u64().unwrap()).collect();
            let legal: Vec<u64> = pos
                .moves()
                .map(|j| notation::bin(5, pos.side_to_move(), j) as u64)
                .collect();
            assert_eq!(bins, legal, "{name} {pos}");
            let sign = pos.side_to_move().sign() as i64;
            let best = moves
                .iter()
                .map(|m| sign * m["value"].as_i64().unwrap())
                .max();
            assert_eq!(best.map(|b| sign * b), Some(p["value"].as_i64().unwrap()));
            for m in moves {
                let b = m["bin"].as_u64().unwrap() as usize;
                let (child, _) = notation::play_bin(&game, &pos, b).unwrap();
                if let Some(&cv) = values.get(&child) {
                    assert_eq!(cv, m["value"].as_i64().unwrap(), "{name} {pos} bin {b}");
                }
            }
        }
        let csv = std::fs::read_to_string(dir.join(format!("{name}.csv"))).unwrap();
        assert_eq!(csv.lines().count(), values.len() + 1, "{name}.csv");
    }
}
