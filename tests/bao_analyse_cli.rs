//! `kalah analyse --rules bao`: the anytime analysis of Bao positions on the command line.
//! A forced win found in the searched tree is reported as proven, everything else as a
//! heuristic guess; the best move and its line are legal; bad limits are refused.

use serde_json::Value;

use crate::support::cli;
use cli::kalah;

/// BAO.md's E6 (N = 4): South's capture ends the game during the move.
const E6: &str = "0,3,0,0/0,2,0,0/0,1,0,2/0,0,0,0:S";

fn json_lines(args: &[&str]) -> Vec<Value> {
    let out = kalah(args);
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn a_win_during_the_move_is_proven() {
    let lines = json_lines(&[
        "analyse",
        "--rules",
        "bao",
        "--position",
        E6,
        "--depth",
        "3",
        "--json",
    ]);
    let last = lines.last().unwrap();
    assert_eq!(last["kind"], "final");
    assert_eq!(last["final"], true);
    assert_eq!(last["result"], "win", "{last}");
    assert_eq!(last["within_moves"], 1, "{last}");
    assert_eq!(last["value"], 1, "South moves and wins: {last}");
    assert_eq!(last["value_for_mover"], 1, "{last}");
    assert_eq!(last["exact"], true);
    let best = last["best_turn"].as_str().unwrap();
    let shown = kalah(&["show", "--rules", "bao", "--position", E6, "--moves", best]);
    assert!(shown.status.success(), "{best} is not legal in E6");
}

#[test]
fn the_standard_start_gets_a_legal_line_at_every_depth() {
    let lines = json_lines(&["analyse", "--rules", "bao", "--depth", "4", "--json"]);
    let depths: Vec<u64> = lines
        .iter()
        .filter(|l| l["kind"] == "iteration")
        .map(|l| l["depth"].as_u64().unwrap())
        .collect();
    assert_eq!(depths, [1, 2, 3, 4]);
    let last = lines.last().unwrap();
    assert_eq!(last["kind"], "final");
    assert!(
        last["result"].is_null() && last["value"].is_null(),
        "nothing is forced at depth 4: {last}"
    );
    // South moves at the start: its evaluation is South's.
    assert_eq!(last["eval"], last["eval_mover"], "{last}");
    assert_eq!(last["exact"], false);
    let pv: Vec<&str> = last["pv"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    assert_eq!(Some(pv[0]), last["best_turn"].as_str());
    // The standard start's 16 moves (BAO.md E12) are all listed.
    assert_eq!(last["turns"].as_array().unwrap().len(), 16);
    let shown = kalah(&["show", "--rules", "bao", "--moves", &pv.join(" ")]);
    assert!(shown.status.success(), "the line {pv:?} does not replay");
}

#[test]
fn bad_limits_and_options_are_refused() {
    for args in [
        &["analyse", "--rules", "bao", "--time", "-1"][..],
        &["analyse", "--rules", "bao", "--depth", "0"],
        &["analyse", "--rules", "bao", "--capture", "empty"],
        &["analyse", "--rules", "bao", "--houses", "9"],
    ] {
        let out = kalah(args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

#[test]
fn solve_and_openings_within_a_limit_are_the_analysis() {
    // E6: the win during the move is proven by `solve --depth` as by `analyse`.
    let solved = json_lines(&[
        "solve",
        "--rules",
        "bao",
        "--position",
        E6,
        "--depth",
        "3",
        "--json",
    ]);
    assert_eq!(solved.len(), 1, "only the final report: {solved:?}");
    let analysed = json_lines(&[
        "analyse",
        "--rules",
        "bao",
        "--position",
        E6,
        "--depth",
        "3",
        "--json",
    ]);
    let (s, a) = (&solved[0], analysed.last().unwrap());
    for field in [
        "kind",
        "best_turn",
        "result",
        "within_moves",
        "value",
        "exact",
        "depth",
        "eval",
        "eval_mover",
    ] {
        assert_eq!(s[field], a[field], "{field}: {s} against {a}");
    }
    assert_eq!(s["result"], "win", "{s}");
    // On the full board, where no graph fits, `openings --time` lists every legal move.
    let out = kalah(&["openings", "--rules", "bao", "--time", "0.2"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    let start = kalah_core::bao::BaoRules::standard().start();
    for m in start.legal().moves() {
        let listed = text
            .lines()
            .any(|l| l.split_whitespace().next() == Some(&m.to_string()));
        assert!(listed, "{m} missing:\n{text}");
    }
    // A graph too large for the memory says how to get an answer anyway.
    let big = kalah(&[
        "solve",
        "--rules",
        "bao",
        "--houses",
        "4",
        "--memory-mb",
        "1",
    ]);
    assert!(!big.status.success());
    assert!(String::from_utf8_lossy(&big.stderr).contains("--time S"));
}
