//! `kalah export --rules bao` through the binary: an exact table's values equal `solve`'s,
//! an analysed table's equal `analyse`'s at the same node limit, the output is refused
//! where it is not a table, and an interrupted export goes on from its partial file.

use crate::support::cli;
use crate::support::guard;

use std::process::{Command, Stdio};

use cli::{json, kalah, kalah_ok};
use serde_json::Value;

/// E16: a draw by repetition across turns (N = 4).
const E16: &str = "2,1,0,1/1,0,0,0/0,0,0,1/2,1,1,0:S";

/// The entries of a JSON table.
fn entries(path: &std::path::Path) -> Vec<Value> {
    let text = std::fs::read_to_string(path).unwrap();
    let table: Value = serde_json::from_str(&text).expect("the table is JSON");
    table["positions"].as_array().unwrap().clone()
}

#[test]
fn an_exact_table_holds_solve_s_values_and_a_foreign_file_is_kept() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.json");
    let p = path.to_str().unwrap();
    let args = [
        "export",
        "--rules",
        "bao",
        "--position",
        E16,
        "--depth",
        "3",
        "-q",
    ];
    let run = |extra: &[&str]| kalah(&[&args[..], extra].concat());
    assert!(run(&["-o", p]).status.success());
    let rows = entries(&path);
    assert!(rows.len() > 3, "{rows:?}");
    assert_eq!(rows[0]["position"], E16);
    assert_eq!(rows[0]["turns"], 0);
    for row in &rows {
        let pos = row["position"].as_str().unwrap();
        let solved = json(&["solve", "--rules", "bao", "--position", pos, "--json", "-q"]);
        assert_eq!(row["exact"], true);
        for field in ["value", "value_for_mover", "result", "plies"] {
            assert_eq!(row[field], solved[field], "{field}: {row}");
        }
        assert_eq!(row["best"], solved["best_turn"], "{row}");
        let moves: Vec<&Value> = row["moves"].as_array().unwrap().iter().collect();
        assert_eq!(moves.len(), solved["turns"].as_array().unwrap().len());
        assert!(row["turns"].as_u64().unwrap() <= 3);
    }
    // Its own table is replaced; a file of something else is not, without --force.
    assert!(run(&["-o", p]).status.success());
    let foreign = dir.path().join("notes.json");
    std::fs::write(&foreign, "precious\n").unwrap();
    let out = run(&["-o", foreign.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(std::fs::read_to_string(&foreign).unwrap(), "precious\n");
    // CSV: a header and one row a position.
    let csv = dir.path().join("t.csv");
    assert!(run(&["-o", csv.to_str().unwrap()]).status.success());
    let text = std::fs::read_to_string(&csv).unwrap();
    assert!(text.starts_with("position,side,turns,value,best"), "{text}");
    assert_eq!(text.lines().count(), rows.len() + 1);
}

#[test]
fn an_analysed_table_holds_analyse_s_answers() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.json");
    let p = path.to_str().unwrap();
    kalah_ok(&[
        "export", "--rules", "bao", "--depth", "1", "--nodes", "200", "-q", "-o", p,
    ]);
    let rows = entries(&path);
    let first_moves = rows[0]["moves"].as_array().unwrap().len();
    assert_eq!(
        rows.len(),
        1 + first_moves,
        "the start and each first move's position"
    );
    for row in rows.iter().take(4) {
        let pos = row["position"].as_str().unwrap();
        let out = kalah_ok(&[
            "analyse",
            "--rules",
            "bao",
            "--position",
            pos,
            "--nodes",
            "200",
            "--json",
        ]);
        let text = String::from_utf8(out.stdout).unwrap();
        let last: Value = serde_json::from_str(text.lines().last().unwrap()).unwrap();
        assert_eq!(row["best"], last["best_turn"], "{row}");
        assert_eq!(row["eval"], last["eval"], "{row}");
        assert_eq!(row["eval_mover"], last["eval_mover"], "{row}");
        assert_eq!(row["exact"], last["exact"], "{row}");
        if row["exact"] == false {
            assert_eq!(row["value"], Value::Null, "{row}");
        }
    }
}

#[cfg(target_os = "linux")]
#[test]
fn an_interrupted_export_goes_on_from_its_partial_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.json");
    let partial = dir.path().join("t.json.partial");
    let p = path.to_str().unwrap();
    let args = [
        "export", "--rules", "bao", "--depth", "1", "--time", "0.2", "-q", "-o", p,
    ];
    let child = Command::new(env!("CARGO_BIN_EXE_kalah"))
        .env("KALAH_CACHE", "off")
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    guard::wait_until("two values kept", || {
        std::fs::read_to_string(&partial).is_ok_and(|t| t.lines().count() >= 3)
    });
    let pid = child.id().to_string();
    assert!(Command::new("kill")
        .args(["-INT", &pid])
        .status()
        .unwrap()
        .success());
    let out = guard::finish(child, "the interrupted export");
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("kept in"), "{err}");
    assert!(!path.exists(), "no table before the end");
    let kept = std::fs::read_to_string(&partial).unwrap().lines().count() - 1;
    assert!(kept >= 2);
    // Other limits are another export: refused, the partial file left alone.
    let mut other = args.to_vec();
    other[6] = "0.3";
    let out = kalah(&other);
    assert_eq!(out.status.code(), Some(2));
    assert!(partial.exists());
    // The same command goes on and finishes the table.
    let out = Command::new(env!("CARGO_BIN_EXE_kalah"))
        .env("KALAH_CACHE", "off")
        .args(args.iter().filter(|a| **a != "-q"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains(&format!("resuming: {kept} values kept")));
    let rows = entries(&path);
    assert_eq!(rows.len(), 1 + rows[0]["moves"].as_array().unwrap().len());
    assert!(
        !partial.exists(),
        "the partial file goes once the table is written"
    );
}
