//! `kalah atlas` from the command line: bad ranges and a damaged atlas refused in words
//! (exit status 2, nothing written), a second run leaving every finished board as it is,
//! and a board past its budget written as an interval and said to be open.

use std::path::Path;

use crate::support::cli::{kalah, kalah_ok};

fn atlas(dir: &Path, extra: &[&str]) -> std::process::Output {
    let mut args = vec![
        "atlas",
        "--dir",
        dir.to_str().unwrap(),
        "--threads",
        "1",
        "-q",
    ];
    args.extend_from_slice(extra);
    kalah(&args)
}

fn refused(out: &std::process::Output, words: &str) {
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains(words), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn no_house_a_reversed_range_and_a_damaged_atlas_are_refused_in_words() {
    let dir = tempfile::tempdir().unwrap();
    refused(
        &atlas(dir.path(), &["--houses", "0..3", "--seeds", "1"]),
        "1 to 8 houses",
    );
    refused(
        &atlas(dir.path(), &["--houses", "9", "--seeds", "1"]),
        "1 to 8 houses",
    );
    refused(
        &atlas(dir.path(), &["--houses", "2", "--seeds", "5..2"]),
        "write 2..5",
    );
    refused(
        &atlas(dir.path(), &["--houses", "2", "--seeds", "0"]),
        "at least 1 seed",
    );
    refused(
        &atlas(dir.path(), &["--houses", "x"]),
        "is not a size or a range",
    );
    assert!(!dir.path().join("atlas.json").exists());
    let damaged = "{\"format\": \"kalah atlas v1\", \"boards\": [\n{\"houses\": 2";
    std::fs::write(dir.path().join("atlas.json"), damaged).unwrap();
    refused(
        &atlas(dir.path(), &["--houses", "2", "--seeds", "1"]),
        "is not an atlas this version can read",
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("atlas.json")).unwrap(),
        damaged
    );
    std::fs::write(dir.path().join("atlas.json"), "my notes\n").unwrap();
    refused(
        &atlas(dir.path(), &["--houses", "2", "--seeds", "1"]),
        "is not an atlas written by kalah atlas",
    );
}

#[test]
fn a_second_run_leaves_every_finished_board_as_it_is() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    let first = kalah_ok(&[
        "atlas", "--houses", "1..2", "--seeds", "1..2", "--dir", d, "-q",
    ]);
    let text = String::from_utf8_lossy(&first.stdout);
    assert!(
        text.contains("8 boards solved in this run (8 exact, 0 open)"),
        "{text}"
    );
    let files: Vec<Vec<u8>> = ["atlas.json", "boards.csv", "first_turns.csv"]
        .iter()
        .map(|f| std::fs::read(dir.path().join(f)).unwrap())
        .collect();
    let second = kalah_ok(&[
        "atlas", "--houses", "1..2", "--seeds", "1..2", "--dir", d, "-q",
    ]);
    let text = String::from_utf8_lossy(&second.stdout);
    assert!(
        text.contains("8 boards already in the atlas left as they are"),
        "{text}"
    );
    assert!(text.contains("0 boards solved in this run"), "{text}");
    for (f, before) in ["atlas.json", "boards.csv", "first_turns.csv"]
        .iter()
        .zip(files)
    {
        assert_eq!(std::fs::read(dir.path().join(f)).unwrap(), before, "{f}");
    }
    let boards = std::fs::read_to_string(dir.path().join("boards.csv")).unwrap();
    assert!(boards.starts_with("houses,seeds,capture,family,value,lower,upper,status,"));
    assert!(
        boards.contains("\n2,2,standard,kalah,-2,-2,-2,exact,2,"),
        "{boards}"
    );
    assert!(!dir.path().join("atlas.json.kalah-lock").exists());
}

#[test]
fn every_value_written_is_exact_or_an_interval_said_to_be_open() {
    // However far the budget lets the solve go, each row says what it proved.
    let dir = tempfile::tempdir().unwrap();
    let out = atlas(
        dir.path(),
        &[
            "--houses",
            "5",
            "--seeds",
            "3",
            "--capture",
            "standard",
            "--budget",
            "0.05",
        ],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let boards = std::fs::read_to_string(dir.path().join("boards.csv")).unwrap();
    let turns = std::fs::read_to_string(dir.path().join("first_turns.csv")).unwrap();
    let row: Vec<&str> = boards.lines().nth(1).unwrap().split(',').collect();
    let int = |s: &str| s.parse::<i32>().unwrap();
    let (value, lower, upper, status) = (row[4], int(row[5]), int(row[6]), row[7]);
    match status {
        "open" => assert!(value.is_empty() && lower < upper, "{boards}"),
        "exact" | "turns-open" => assert!(int(value) == lower && lower == upper, "{boards}"),
        _ => panic!("status {status}"),
    }
    for line in turns.lines().skip(1) {
        let f: Vec<&str> = line.split(',').collect();
        match f[8] {
            "true" => assert!(int(f[5]) == int(f[6]) && f[6] == f[7], "{line}"),
            "false" => assert!(f[5].is_empty() && int(f[6]) < int(f[7]), "{line}"),
            x => panic!("exact {x}"),
        }
    }
    let text = String::from_utf8_lossy(&out.stdout);
    if status == "open" {
        assert!(
            text.contains("kalah split --rules kalah --houses 5 --seeds 3"),
            "{text}"
        );
    }
}

#[test]
fn a_board_merged_from_a_split_is_taken_as_the_atlas_would_solve_it() {
    let dir = tempfile::tempdir().unwrap();
    let (split, atlas_dir, solved) = (
        dir.path().join("k33"),
        dir.path().join("atlas"),
        dir.path().join("solved"),
    );
    let s = split.to_str().unwrap();
    kalah_ok(&[
        "split", "--houses", "3", "--seeds", "3", "--depth", "1", "--out", s, "-q",
    ]);
    let answers = split.join("answers.jsonl");
    let units = split.join("units.jsonl");
    kalah_ok(&[
        "batch",
        units.to_str().unwrap(),
        "--output",
        answers.to_str().unwrap(),
        "--threads",
        "1",
        "-q",
    ]);
    let manifest = split.join("manifest.json");
    let merged = kalah_ok(&[
        "merge",
        manifest.to_str().unwrap(),
        answers.to_str().unwrap(),
        "--json",
        "-q",
    ]);
    let merged_file = dir.path().join("merged.json");
    std::fs::write(&merged_file, &merged.stdout).unwrap();
    let m = merged_file.to_str().unwrap();
    let plan = ["--houses", "3", "--seeds", "3", "--capture", "standard"];
    let taken = atlas(&atlas_dir, &[&plan[..], &["--merged", m]].concat());
    let text = String::from_utf8_lossy(&taken.stdout);
    assert!(
        taken.status.success(),
        "{}",
        String::from_utf8_lossy(&taken.stderr)
    );
    assert!(text.contains("(taken from "), "{text}");
    assert!(text.contains("0 boards solved in this run"), "{text}");
    kalah_ok(
        &[
            &["atlas", "--dir", solved.to_str().unwrap(), "-q"][..],
            &plan[..],
        ]
        .concat(),
    );
    // The values, the pie rule and the decisions are those the atlas solves itself.
    let values = |d: &Path| {
        let csv = std::fs::read_to_string(d.join("first_turns.csv")).unwrap();
        csv.lines()
            .map(|l| l.split(',').take(13).collect::<Vec<_>>().join(","))
            .collect::<Vec<_>>()
    };
    assert_eq!(values(&atlas_dir), values(&solved));
    // A value changed in the merge: refused, the atlas left as it is.
    let json = String::from_utf8(merged.stdout).unwrap();
    let forged = json.replacen("\"value\":2", "\"value\":4", 1);
    assert_ne!(forged, json);
    std::fs::write(&merged_file, forged).unwrap();
    let before = std::fs::read(atlas_dir.join("atlas.json")).unwrap();
    refused(
        &atlas(&atlas_dir, &[&plan[..], &["--merged", m]].concat()),
        "cannot be taken into the atlas",
    );
    assert_eq!(std::fs::read(atlas_dir.join("atlas.json")).unwrap(), before);
}

#[test]
fn ctrl_c_keeps_the_proved_first_turns_of_the_board_under_way() {
    use crate::support::guard;
    use std::process::{Command, Stdio};
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    let board = [
        "atlas",
        "--houses",
        "5",
        "--seeds",
        "4",
        "--capture",
        "standard",
        "--dir",
        d,
        "--threads",
        "2",
        "--egdb-seeds",
        "0",
        "-q",
    ];
    let child = Command::new(env!("CARGO_BIN_EXE_kalah"))
        .args(board)
        .env_remove("KALAH_EGDB_PATH")
        .env("KALAH_CACHE", "off")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let partial = || {
        std::fs::read_dir(dir.path())
            .unwrap()
            .filter_map(Result::ok)
            .map(|e| e.path())
            .find(|p| p.extension().is_some_and(|x| x == "partial"))
    };
    let proved = || {
        partial()
            .and_then(|p| std::fs::read_to_string(p).ok())
            .map_or(0, |t| t.lines().filter(|l| l.starts_with("turn\t")).count())
    };
    guard::wait_until("first turn proved", || proved() > 0);
    let pid = child.id().to_string();
    assert!(Command::new("kill")
        .args(["-INT", &pid])
        .status()
        .unwrap()
        .success());
    let out = guard::finish(child, "the interrupted atlas");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("interrupted") && err.contains("proved first turns"),
        "{err}"
    );
    let kept = proved();
    assert!(kept > 0, "the partial file keeps the proved turns");
    // The next run (here with a budget too short for anything more) starts from them.
    let again = kalah_ok(&[&board[..], &["--budget", "0.001"]].concat());
    assert!(String::from_utf8_lossy(&again.stdout).contains("Kalah(5,4) standard"));
    let turns = std::fs::read_to_string(dir.path().join("first_turns.csv")).unwrap();
    let exact = turns
        .lines()
        .filter(|l| l.split(',').nth(8) == Some("true"))
        .count();
    assert!(
        exact >= kept,
        "{exact} exact first turns, {kept} kept\n{turns}"
    );
}
