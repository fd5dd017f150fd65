//! A split solve seen from outside: `kalah split`, `kalah batch --shard` on the work
//! units, `kalah merge` with every answer, with answers missing (exit status 3 and the
//! units to run next), with a hypothesis to confirm or refute; and every refusal.

use crate::support::cli;

use cli::kalah;

use std::path::Path;
use std::process::{Command, Output};

use kalah_core::{notation, Game, Rules};
use serde_json::Value;

fn ok(args: &[&str]) -> Output {
    let out = kalah(args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

fn json(out: &Output) -> Value {
    serde_json::from_slice(&out.stdout).expect("one JSON object")
}

fn fails(args: &[&str], status: i32, says: &str) -> String {
    let out = kalah(args);
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    assert_eq!(out.status.code(), Some(status), "{args:?}: {err}");
    assert!(err.contains(says), "{args:?}: {err}");
    err
}

fn scratch(name: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("kalah-split-cli-{name}-"))
        .tempdir()
        .expect("a scratch directory")
}

fn s(p: &Path) -> String {
    p.display().to_string()
}

/// The final score of a line played from the start of `game`.
fn final_score(game: &Game, pv: &Value) -> i32 {
    let moves: Vec<&str> = pv
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_str().unwrap())
        .collect();
    let (end, _) = notation::play_moves(game, game.start(), &moves.join(" ")).unwrap();
    assert!(end.is_over());
    end.score()
}

/// Splits `rules_args` into `dir` and answers the units in `shards` shards.
fn split_and_solve(dir: &Path, rules_args: &[&str], depth: &str, shards: usize) -> Vec<String> {
    let d = s(dir);
    let mut args = vec!["split", "--out", &d, "--depth", depth, "--json"];
    args.extend_from_slice(rules_args);
    let summary = json(&ok(&args));
    assert!(summary["units"].as_u64().unwrap() > 0);
    let units = s(&dir.join("units.jsonl"));
    (1..=shards)
        .map(|i| {
            let out = s(&dir.join(format!("r{i}.jsonl")));
            let shard = format!("{i}/{shards}");
            ok(&[
                "batch", &units, "--shard", &shard, "--output", &out, "--resume", "-q",
            ]);
            out
        })
        .collect()
}

#[test]
fn split_batch_and_merge_give_the_values_of_solve_and_pie() {
    for (rules_args, rules) in [
        (vec!["--houses", "4", "--seeds", "3"], Rules::kalah(4, 3)),
        (
            vec!["--houses", "4", "--seeds", "3", "--rules", "kalah-empty"],
            Rules {
                capture: kalah_core::Capture::Empty,
                ..Rules::kalah(4, 3)
            },
        ),
        (
            vec!["--houses", "3", "--seeds", "3", "--rules", "nigerian"],
            Rules::nigerian(3, 3),
        ),
    ] {
        let dir = scratch("values");
        let files = split_and_solve(dir.path(), &rules_args, "2", 3);
        let manifest = s(&dir.path().join("manifest.json"));
        let mut args = vec!["merge", manifest.as_str()];
        args.extend(files.iter().map(String::as_str));
        args.push("--json");
        let merged = json(&ok(&args));
        let mut solve = vec!["solve", "--json", "-q"];
        solve.extend_from_slice(&rules_args);
        let direct = json(&ok(&solve));
        assert_eq!(merged["status"], "exact");
        assert_eq!(merged["value"], direct["value"], "{rules_args:?}");
        let game = Game::new(rules).unwrap();
        assert_eq!(
            final_score(&game, &merged["pv"]) as i64,
            merged["value"].as_i64().unwrap()
        );
        let mut pie = vec!["pie", "--json", "-q"];
        pie.extend_from_slice(&rules_args);
        let pie = json(&ok(&pie));
        assert_eq!(merged["pie"]["value"], pie["value"], "{rules_args:?}");
        // Every first move: the value `openings` gives, and a line that replays to it.
        let mut openings = vec!["openings", "--json", "-q"];
        openings.extend_from_slice(&rules_args);
        let openings = json(&ok(&openings));
        for m in merged["moves"].as_array().unwrap() {
            let t = openings["turns"]
                .as_array()
                .unwrap()
                .iter()
                .find(|t| t["turn"] == m["turn"])
                .expect("the same first turns");
            assert_eq!(t["value"], m["value"], "{}", m["turn"]);
            assert_eq!(
                final_score(&game, &m["pv"]) as i64,
                m["value"].as_i64().unwrap()
            );
        }
        // The text form says the same.
        args.pop();
        let text = String::from_utf8(ok(&args).stdout).unwrap();
        let value = direct["value"].as_i64().unwrap();
        let shown = if value > 0 {
            format!("+{value}")
        } else {
            value.to_string()
        };
        assert!(
            text.contains(&format!("value      {shown} (exact")),
            "{text}"
        );
    }
}

#[test]
fn missing_answers_exit_3_and_name_the_units_to_run_next() {
    let dir = scratch("missing");
    let files = split_and_solve(dir.path(), &["--houses", "4", "--seeds", "3"], "2", 3);
    let manifest = s(&dir.path().join("manifest.json"));
    let next = s(&dir.path().join("next.jsonl"));
    // Shard 2 lost, and the last answer of shard 1 cut short.
    let text = std::fs::read_to_string(&files[0]).unwrap();
    std::fs::write(&files[0], &text[..text.len() - 20]).unwrap();
    let lost = s(&dir.path().join("lost.jsonl"));
    let out = kalah(&[
        "merge", &manifest, &files[0], &lost, &files[2], "--next", &next, "--json",
    ]);
    assert_eq!(out.status.code(), Some(3));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("no such file") && err.contains("unfinished last line"),
        "{err}"
    );
    let v = json(&out);
    assert_eq!(v["status"], "incomplete");
    let needed = v["needed"].as_u64().unwrap();
    assert!(needed > 0);
    let next_text = std::fs::read_to_string(&next).unwrap();
    assert_eq!(next_text.lines().count() as u64, needed);
    // Running the units named completes the merge.
    let more = s(&dir.path().join("more.jsonl"));
    ok(&["batch", &next, "--output", &more, "-q"]);
    let v = json(&ok(&[
        "merge", &manifest, &files[0], &files[2], &more, "--json",
    ]));
    assert_eq!(v["status"], "exact");
    // Duplicates are fine.
    let v = json(&ok(&[
        "merge", &manifest, &files[0], &files[1], &files[2], &more, &files[1], "--json",
    ]));
    assert_eq!(v["status"], "exact");
}

#[test]
fn a_hypothesis_is_proved_in_rounds_and_a_wrong_one_refuted() {
    let dir = scratch("hypothesis");
    let d = s(dir.path());
    ok(&[
        "split", "--out", &d, "--depth", "2", "--houses", "4", "--seeds", "3",
    ]);
    let manifest = s(&dir.path().join("manifest.json"));
    let value = json(&ok(&[
        "solve", "--houses", "4", "--seeds", "3", "--json", "-q",
    ]))["value"]
        .as_i64()
        .unwrap();
    for (guess, verdict) in [
        (value, "confirmed"),
        (value + 1, "refuted"),
        (value - 2, "refuted"),
    ] {
        let g = guess.to_string();
        let mut answers: Vec<String> = Vec::new();
        let mut last = Value::Null;
        for round in 0..40 {
            let next = s(&dir.path().join(format!("w{guess}-{round}.jsonl")));
            let mut args = vec!["merge", manifest.as_str(), "--hypothesis", &g];
            args.extend(answers.iter().map(String::as_str));
            args.extend(["--next", &next, "--json", "-q"]);
            let out = kalah(&args);
            last = json(&out);
            if out.status.code() == Some(0) {
                break;
            }
            assert_eq!(out.status.code(), Some(3));
            assert_eq!(last["status"], "pending");
            let answer = s(&dir.path().join(format!("a{guess}-{round}.jsonl")));
            ok(&["batch", &next, "--output", &answer, "-q"]);
            answers.push(answer);
        }
        assert_eq!(last["status"], verdict, "{last}");
        if verdict == "refuted" {
            let (lo, hi) = match last.get("value") {
                Some(v) => (v.as_i64().unwrap(), v.as_i64().unwrap()),
                None => (
                    last["lower"].as_i64().unwrap(),
                    last["upper"].as_i64().unwrap(),
                ),
            };
            assert!(lo <= value && value <= hi && (hi < guess || lo > guess));
        } else {
            assert_eq!(last["value"].as_i64(), Some(value));
        }
    }
}

#[test]
fn bad_splits_shards_and_answers_are_refused_with_a_reason() {
    let dir = scratch("refusals");
    let d = s(dir.path());
    let units = s(&dir.path().join("units.jsonl"));
    let manifest = s(&dir.path().join("manifest.json"));
    ok(&[
        "split", "--out", &d, "--depth", "1", "--houses", "4", "--seeds", "3",
    ]);
    // The same split again keeps the files; another one is refused.
    let again = ok(&[
        "split", "--out", &d, "--depth", "1", "--houses", "4", "--seeds", "3",
    ]);
    assert!(String::from_utf8_lossy(&again.stdout).contains("kept"));
    fails(
        &[
            "split", "--out", &d, "--depth", "2", "--houses", "4", "--seeds", "3",
        ],
        2,
        "holds another split",
    );
    fails(
        &[
            "split", "--out", &d, "--depth", "1", "--rules", "oware", "--houses", "3", "--seeds",
            "2",
        ],
        2,
        "repeat",
    );
    fails(
        &[
            "split",
            "--out",
            &d,
            "--depth",
            "1",
            "--position",
            "0,0,0,5,0,0,0,3:S",
        ],
        2,
        "over",
    );
    for bad in ["0/3", "4/3", "x", "1/0", "2"] {
        fails(&["batch", &units, "--shard", bad], 2, "shard");
    }
    fails(
        &["batch", &units, "--houses", "5"],
        2,
        "holds work units for the rules",
    );
    // The shards together answer every unit once.
    let mut ids = Vec::new();
    for i in 1..=3 {
        let shard = format!("{i}/3");
        let out = ok(&["batch", &units, "--shard", &shard, "-q"]);
        for line in String::from_utf8(out.stdout).unwrap().lines() {
            let v: Value = serde_json::from_str(line).unwrap();
            ids.push(v["id"].as_u64().unwrap());
        }
    }
    ids.sort_unstable();
    let n = std::fs::read_to_string(&units).unwrap().lines().count() as u64;
    assert_eq!(ids, (0..n).collect::<Vec<_>>());
    // Answers of another game, a unit with other rules, and a damaged manifest.
    let other = scratch("other");
    let files = split_and_solve(other.path(), &["--houses", "4", "--seeds", "2"], "1", 1);
    fails(&["merge", &manifest, &files[0]], 2, "rules");
    let mixed = s(&dir.path().join("mixed.jsonl"));
    let first = std::fs::read_to_string(&units).unwrap();
    let foreign = std::fs::read_to_string(other.path().join("units.jsonl")).unwrap();
    std::fs::write(
        &mixed,
        format!("{}{}", first.lines().next().unwrap(), "\n")
            + foreign.lines().next().unwrap()
            + "\n",
    )
    .unwrap();
    let out = ok(&["batch", &mixed, "-q"]);
    let lines: Vec<Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert!(lines[0].get("value").is_some());
    assert!(lines[1]["error"].as_str().unwrap().contains("rules"));
    let broken = s(&dir.path().join("broken.json"));
    let text = std::fs::read_to_string(&manifest).unwrap();
    std::fs::write(&broken, text.replacen("[\"1\",", "[\"2\",", 1)).unwrap();
    fails(&["merge", &broken], 2, "leads to");
    std::fs::write(&broken, "{\"a\": 1}").unwrap();
    fails(&["merge", &broken], 2, "not a manifest");
    // An answer whose line does not replay is refused.
    let answers = s(&dir.path().join("answers.jsonl"));
    ok(&["batch", &units, "--output", &answers, "-q"]);
    let text = std::fs::read_to_string(&answers).unwrap();
    let mut v: Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    v["value"] = Value::from(v["value"].as_i64().unwrap() + 1);
    let forged = s(&dir.path().join("forged.jsonl"));
    std::fs::write(&forged, format!("{v}\n")).unwrap();
    fails(&["merge", &manifest, &forged], 2, "principal variation");
}

#[test]
fn split_and_merge_explain_themselves() {
    for cmd in ["split", "merge"] {
        let out = ok(&[cmd, "--help"]);
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(text.contains("docs/distributed.md") || text.contains("--hypothesis"));
    }
    let out = ok(&["batch", "--help"]);
    assert!(String::from_utf8(out.stdout).unwrap().contains("--shard"));
}

#[test]
fn a_sample_of_units_estimates_the_size_of_a_split() {
    let dir = scratch("sample");
    let d = s(dir.path());
    let v = json(&ok(&[
        "split", "--out", &d, "--depth", "3", "--houses", "4", "--seeds", "3", "--sample", "2000",
        "--json",
    ]));
    // Knuth's estimate of the lines 3 turns deep, against the units of the full split
    // (which merges the few transpositions).
    let estimate = v["estimated_units"].as_f64().unwrap();
    let full = dir.path().join("full");
    let units = json(&ok(&[
        "split",
        "--out",
        &s(&full),
        "--depth",
        "3",
        "--houses",
        "4",
        "--seeds",
        "3",
        "--json",
    ]))["units"]
        .as_f64()
        .unwrap();
    assert!(
        (estimate - units).abs() < 0.1 * units,
        "{estimate} vs {units}"
    );
    let sample = s(&dir.path().join("sample.jsonl"));
    let text = std::fs::read_to_string(&sample).unwrap();
    assert_eq!(text.lines().count(), 2000);
    let first: Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    assert!(first["weight"].as_f64().unwrap() >= 1.0);
    // A hypothesis sample asks narrow windows, half of each kind.
    let h = dir.path().join("h");
    ok(&[
        "split",
        "--out",
        &s(&h),
        "--depth",
        "3",
        "--houses",
        "4",
        "--seeds",
        "3",
        "--sample",
        "10",
        "--hypothesis",
        "6",
    ]);
    let text = std::fs::read_to_string(h.join("sample.jsonl")).unwrap();
    let kinds: Vec<String> = text
        .lines()
        .map(|l| {
            serde_json::from_str::<Value>(l).unwrap()["proof"]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect();
    assert_eq!(kinds.iter().filter(|k| *k == "at-least").count(), 5);
    assert_eq!(kinds.iter().filter(|k| *k == "at-most").count(), 5);
    let answers = s(&h.join("answers.jsonl"));
    ok(&[
        "batch",
        &s(&h.join("sample.jsonl")),
        "--output",
        &answers,
        "-q",
    ]);
    let out = Command::new("python3")
        .arg(concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/estimate.py"))
        .arg(&answers)
        .output()
        .expect("python3 runs scripts/estimate.py");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && text.contains("at-least") && text.contains("total"),
        "{text}"
    );
}
