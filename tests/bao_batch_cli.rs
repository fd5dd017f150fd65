//! `kalah batch --rules bao` and `kalah play --rules bao --time` through the binary: batch
//! answers equal `solve` and `analyse` of the same positions, bad lines are answered with
//! an error and the batch goes on, an interrupted output resumes to what a whole run
//! writes, and the timed engine moves on the full board.

use crate::support::cli;

use std::io::Write;
use std::process::{Command, Stdio};

use cli::{json, kalah, kalah_ok};
use serde_json::Value;

/// E6: South's only move `A4-` captures North's last front-row seeds (N = 4).
const E6: &str = "0,3,0,0/0,2,0,0/0,1,0,2/0,0,0,0:S";
/// E16: a draw by repetition across turns (N = 4).
const E16: &str = "2,1,0,1/1,0,0,0/0,0,0,1/2,1,1,0:S";

/// The answer lines of a batch run's standard output.
fn answers(text: &[u8]) -> Vec<Value> {
    String::from_utf8(text.to_vec())
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).expect("an answer line is JSON"))
        .collect()
}

/// An answer without its timing, which differs from run to run.
fn untimed(mut a: Value) -> Value {
    a.as_object_mut().unwrap().remove("seconds");
    a
}

fn input_file(dir: &tempfile::TempDir, text: &str) -> String {
    let path = dir.path().join("positions.txt");
    std::fs::write(&path, text).unwrap();
    path.to_str().unwrap().to_string()
}

#[test]
fn exact_answers_equal_solve_and_bad_lines_get_errors() {
    let dir = tempfile::tempdir().unwrap();
    let text = format!("# small boards\n{E6}\n\nA9+\n{E16}  # a draw\n1,2:S\n");
    let input = input_file(&dir, &text);
    let out = kalah_ok(&[
        "batch", "--rules", "bao", "--houses", "4", "--exact", "-q", &input,
    ]);
    let got = answers(&out.stdout);
    assert_eq!(got.len(), 4, "{got:?}");
    let lines: Vec<u64> = got.iter().map(|a| a["line"].as_u64().unwrap()).collect();
    assert_eq!(lines, [2, 4, 5, 6]);
    for (a, pos) in [(&got[0], E6), (&got[2], E16)] {
        let solved = json(&["solve", "--rules", "bao", "--position", pos, "--json", "-q"]);
        assert_eq!(a["exact"], true);
        assert_eq!(a["position"], pos);
        for field in ["value", "value_for_mover", "result", "plies", "best_turn"] {
            assert_eq!(a[field], solved[field], "{field}: {a}");
        }
        assert_eq!(a["pv"], solved["pv"], "{a}");
    }
    assert_eq!(got[0]["result"], "win");
    assert_eq!(got[2]["result"], "draw");
    for bad in [&got[1], &got[3]] {
        assert!(
            bad["error"].as_str().is_some_and(|e| !e.is_empty()),
            "{bad}"
        );
        assert_eq!(bad["rules"], "Bao(4,2)");
    }
}

#[test]
fn a_position_of_another_board_is_told_to_give_houses() {
    // Once the answer said "leave houses out to take the position's", which batch does
    // not do: its board is 8 pits a row unless --houses says otherwise.
    let dir = tempfile::tempdir().unwrap();
    let input = input_file(&dir, "0,3,0/0,2,0/0,1,2/0,0,0:S\n");
    let out = kalah_ok(&["batch", "--rules", "bao", "--exact", "-q", &input]);
    let got = answers(&out.stdout);
    let error = got[0]["error"].as_str().unwrap_or_default();
    assert!(error.contains("3 pits a row"), "{error}");
    assert!(error.contains("houses is 8"), "{error}");
    assert!(error.contains("give houses 3"), "{error}");
    assert!(!error.contains("leave houses out"), "{error}");
    // And what it says works.
    let out = kalah_ok(&[
        "batch", "--rules", "bao", "--houses", "3", "--exact", "-q", &input,
    ]);
    assert!(answers(&out.stdout)[0]["error"].is_null());
    // solve takes the position's board when houses is left out, and names houses when
    // it is given.
    let pos = "0,3,0/0,2,0/0,1,2/0,0,0:S";
    kalah_ok(&["solve", "--rules", "bao", "--position", pos, "-q"]);
    let refused = kalah(&[
        "solve",
        "--rules",
        "bao",
        "--houses",
        "4",
        "--position",
        pos,
    ]);
    let said = String::from_utf8_lossy(&refused.stderr);
    assert!(
        !refused.status.success() && said.contains("give houses 3"),
        "{said}"
    );
}

#[test]
fn analysed_answers_equal_analyse_at_the_same_node_limit() {
    let dir = tempfile::tempdir().unwrap();
    let input = input_file(&dir, "A3+ b2+\n\nA3+\n");
    let out = kalah_ok(&["batch", "--rules", "bao", "--nodes", "300", "-q", &input]);
    let got = answers(&out.stdout);
    assert_eq!(got.len(), 2);
    for (a, moves) in got.iter().zip(["A3+ b2+", "A3+"]) {
        let out = kalah_ok(&[
            "analyse", "--rules", "bao", "--moves", moves, "--nodes", "300", "--json",
        ]);
        let last = answers(&out.stdout).pop().unwrap();
        assert_eq!(last["kind"], "final");
        assert_eq!(a["best_turn"], last["best_turn"], "{a}");
        assert_eq!(a["eval"], last["eval"], "{a}");
        assert_eq!(a["eval_mover"], last["eval_mover"], "{a}");
        assert_eq!(a["depth"], last["depth"], "{a}");
        assert_eq!(a["exact"], last["exact"], "{a}");
        assert_eq!(a["pv"], last["pv"], "{a}");
        if a["exact"] == false {
            assert_eq!(a["result"], Value::Null);
            assert_eq!(a["value"], Value::Null, "{a}");
        }
    }
}

#[test]
fn an_interrupted_output_resumes_to_what_a_whole_run_writes() {
    let dir = tempfile::tempdir().unwrap();
    let input = input_file(&dir, &format!("{E6}\n{E16}\nA1+\n{E6}\n"));
    let whole = dir.path().join("whole.jsonl");
    let whole_s = whole.to_str().unwrap();
    let args = [
        "batch", "--rules", "bao", "--houses", "4", "--nodes", "50", "-q",
    ];
    let run = |extra: &[&str]| {
        let mut all = args.to_vec();
        all.push(&input);
        all.extend_from_slice(extra);
        kalah(&all)
    };
    assert!(run(&["-o", whole_s]).status.success());
    let full = std::fs::read_to_string(&whole).unwrap();
    assert_eq!(full.lines().count(), 4);
    // Two answers and half of the third, as `kill -9` can leave them.
    let part = dir.path().join("part.jsonl");
    let part_s = part.to_str().unwrap();
    let cut: usize = full.lines().take(2).map(|l| l.len() + 1).sum::<usize>() + 10;
    std::fs::write(&part, &full[..cut]).unwrap();
    let refused = run(&["-o", part_s]);
    assert_eq!(refused.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("--resume"));
    assert!(run(&["-o", part_s, "--resume"]).status.success());
    let resumed = std::fs::read_to_string(&part).unwrap();
    let strip = |t: &str| -> Vec<Value> {
        t.lines()
            .map(|l| untimed(serde_json::from_str(l).unwrap()))
            .collect()
    };
    assert_eq!(strip(&resumed), strip(&full));
    // Every answer and half a line after them: nothing is left to answer, and the half
    // line is cut off all the same.
    std::fs::write(&part, format!("{full}{}", &full[..10])).unwrap();
    assert!(run(&["-o", part_s, "--resume"]).status.success());
    assert_eq!(std::fs::read_to_string(&part).unwrap(), full);
    // A file that is not a batch's answers is never replaced without --force.
    let foreign = dir.path().join("notes.txt");
    std::fs::write(&foreign, "precious\n").unwrap();
    let out = run(&["-o", foreign.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(std::fs::read_to_string(&foreign).unwrap(), "precious\n");
    // Other rules than the answers' are refused on resume.
    let out = kalah(&[
        "batch", "--rules", "bao", "--houses", "5", "--nodes", "50", "-q", &input, "-o", part_s,
        "--resume",
    ]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn the_timed_engine_moves_on_the_full_board_and_the_perfect_one_on_small_ones() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_kalah"))
        .args(["play", "--rules", "bao", "--time", "0.2"])
        .env("KALAH_CACHE", "off")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"A3+\nquit\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("The engine thinks 0.20 s a move"), "{text}");
    let said = text
        .lines()
        .find(|l| l.starts_with("North plays "))
        .unwrap_or_else(|| panic!("the engine moved: {text}"));
    assert!(
        said.contains("heuristic") || said.contains("proven"),
        "{said}"
    );
    // The move it played is one of North's legal moves after A3+.
    let mv = said.split(' ').nth(2).unwrap();
    let shown = kalah_ok(&["show", "--rules", "bao", "--moves", "A3+"]);
    assert!(String::from_utf8_lossy(&shown.stdout).contains(mv), "{mv}");
    // A board with few seeds gets the perfect engine without --time.
    let mut child = Command::new(env!("CARGO_BIN_EXE_kalah"))
        .args(["play", "--rules", "bao", "--position", E16, "--as", "north"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(b"quit\n").unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("Solving the game graph first"), "{text}");
    assert!(text.contains("South plays B1- (draw)"), "{text}");
}
