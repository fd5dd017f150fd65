//! `--rules bao` through the binary: show, perft, solve, openings and play on Bao la
//! Kujifunza (BAO.md), checked against BAO.md's worked examples and anchors, and the
//! options that do not apply refused.

use crate::support::cli;

use std::io::Write;
use std::process::{Command, Stdio};

use cli::{json, kalah, kalah_ok};

/// E6: South's only move `A4-` captures North's last front-row seeds (N = 4).
const E6: &str = "0,3,0,0/0,2,0,0/0,1,0,2/0,0,0,0:S";
/// E16: a draw by repetition across turns (N = 4).
const E16: &str = "2,1,0,1/1,0,0,0/0,0,0,1/2,1,1,0:S";

fn stdout(args: &[&str]) -> String {
    String::from_utf8(kalah_ok(args).stdout).unwrap()
}

/// A failing run's exit status and standard error.
fn refused(args: &[&str]) -> String {
    let out = kalah(args);
    assert_eq!(out.status.code(), Some(2), "kalah {args:?}");
    String::from_utf8(out.stderr).unwrap()
}

#[test]
fn show_draws_the_four_rows_and_the_legal_moves_of_the_start() {
    let text = stdout(&["show", "--rules", "bao"]);
    assert!(
        text.contains(" North b  2  2  2  2  2  2  2  2\n"),
        "{text}"
    );
    assert!(
        text.contains(" South B  2  2  2  2  2  2  2  2\n"),
        "{text}"
    );
    assert!(text.contains("South to move"), "{text}");
    // E12: the sixteen legal moves of the standard start, in canonical order.
    let moves = "A1+ A2+ A3+ A3- A4+ A4- A5+ A5- A6+ A6- A7- A8- B1+ B2+ B7- B8-";
    assert!(text.contains(&format!("moves: {moves}\n")), "{text}");
    let report = json(&["show", "--rules", "bao", "--position", E6, "--json"]);
    assert_eq!(report["moves"], serde_json::json!(["A4-"]));
    assert_eq!(report["pits"], 4);
    assert_eq!(report["over"], false);
}

#[test]
fn show_after_a_winning_capture_says_the_game_is_over() {
    let args = ["show", "--rules=bao", "--position", E6, "--moves", "A4-"];
    let text = stdout(&args);
    // E6's recorded position: 6 of the 8 seeds, North to move and lost.
    assert!(
        text.contains("position: 0,3,0,0/0,0,0,0/0,2,1,0/0,0,0,0:N"),
        "{text}"
    );
    assert!(
        text.contains("South emptied North's front row and won"),
        "{text}"
    );
}

#[test]
fn perft_counts_whole_moves_as_bao_md_anchors() {
    let report = json(&[
        "perft", "--rules", "bao", "--depth", "2", "--divide", "--json",
    ]);
    assert_eq!(report["counts"], serde_json::json!([16, 108]));
    let divide = report["divide"].as_array().unwrap();
    assert_eq!(divide.len(), 16);
    let sum: u64 = divide.iter().map(|d| d["count"].as_u64().unwrap()).sum();
    assert_eq!(sum, 108);
    let text = stdout(&["perft", "--rules", "bao", "--houses", "4", "--depth", "3"]);
    assert!(text.contains("perft(3) = "), "{text}");
}

#[test]
fn solve_gives_win_loss_and_draw_with_lines_that_replay() {
    let won = json(&["solve", "--rules", "bao", "--position", E6, "--json"]);
    assert_eq!(
        (
            won["value"].as_i64(),
            won["result"].as_str(),
            won["plies"].as_i64()
        ),
        (Some(1), Some("win"), Some(1))
    );
    assert_eq!(won["value_for_mover"], 1, "South moves: {won}");
    assert_eq!(won["pv"], serde_json::json!(["A4-"]));
    // E10: North has only single seeds and no move.
    let lost = json(&[
        "solve",
        "--rules",
        "bao",
        "--position",
        "0,1,0/1,0,1/1,0,1/0,1,0:N",
        "--json",
    ]);
    assert_eq!(
        (&lost["result"], &lost["plies"]),
        (&"loss".into(), &0.into())
    );
    assert_eq!(lost["value"], 1, "North loses: South wins");
    assert_eq!(lost["value_for_mover"], -1);
    let drawn = json(&["solve", "--rules", "bao", "--position", E16, "--json"]);
    assert_eq!(drawn["value"], 0);
    let line = "B1- b4- B2- a4- A2- a3- A1- a2- B1- a1-";
    let pv: Vec<&str> = drawn["pv"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    assert_eq!(pv.join(" "), line);
    // The line plays: after it, the position reached after its second move is back.
    let after = |moves: &str| {
        json(&[
            "show",
            "--rules",
            "bao",
            "--position",
            E16,
            "--moves",
            moves,
            "--json",
        ])
    };
    assert_eq!(after(line)["position"], after("B1- b4-")["position"]);
    assert_eq!(after(line)["position"], "0,1,0,1/2,1,0,0/0,1,1,0/0,2,0,1:S");
}

#[test]
fn openings_values_every_first_move() {
    let report = json(&["openings", "--rules", "bao", "--position", E16, "--json"]);
    let results: Vec<(&str, i64)> = report["turns"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| (m["turn"].as_str().unwrap(), m["value"].as_i64().unwrap()))
        .collect();
    // South moves in E16: its values are South's.
    assert!(report["turns"]
        .as_array()
        .unwrap()
        .iter()
        .all(|m| m["value"] == m["value_for_mover"]));
    // E16: B1- keeps the draw, B1+ loses.
    assert_eq!(results.len(), 2);
    assert!(
        results.contains(&("B1-", 0)) && results.contains(&("B1+", -1)),
        "{results:?}"
    );
}

/// One clap tree: `bao` is a value of `--rules`, each command's help says what it means,
/// an option of Bao's own is refused under the sowing games' rules, and the engine takes
/// Bao only through its protocol.
#[test]
fn bao_is_one_value_of_the_rules_of_every_command_that_plays_it() {
    for cmd in [
        "show", "perft", "solve", "openings", "play", "analyse", "batch", "export", "match",
    ] {
        let help = String::from_utf8(kalah_ok(&[cmd, "--help"]).stdout).unwrap();
        assert!(help.contains("bao") && help.contains("pits a row"), "{cmd}");
    }
    let e = refused(&["solve", "--houses", "3", "--memory-mb", "64"]);
    assert!(e.contains("--memory-mb applies to --rules bao only"), "{e}");
    let e = refused(&["solve", "--rules", "bao", "--houses", "3", "--threads", "2"]);
    assert!(e.contains("--threads does not apply to --rules bao"), "{e}");
    let e = refused(&["engine", "--rules", "bao"]);
    assert!(e.contains("rules bao --houses N --seeds S"), "{e}");
}

#[test]
fn options_that_do_not_apply_to_bao_are_refused() {
    let e = refused(&["show", "--rules", "bao", "--capture", "empty"]);
    assert!(e.contains("--capture does not apply to --rules bao"), "{e}");
    let e = refused(&["pie", "--rules", "bao"]);
    assert!(e.contains("kalah pie does not play --rules bao"), "{e}");
    let e = refused(&["show", "--rules", "bao", "--houses", "9"]);
    assert!(e.contains('9'), "{e}");
    let e = refused(&["show", "--rules", "bao", "--position", "1,2,3:S"]);
    assert!(!e.is_empty());
    let e = refused(&["show", "--rules", "bao", "--position", E6, "--moves", "A4+"]);
    assert!(e.contains("A4+"), "{e}");
    let e = refused(&["show", "--rules", "bao", "--houses", "3", "--position", E6]);
    assert!(!e.is_empty());
    // The standard board's graph is far beyond a MiB.
    let e = refused(&["solve", "--rules", "bao", "--memory-mb", "1", "--quiet"]);
    assert!(e.contains("more than"), "{e}");
}

#[test]
fn play_against_the_engine_to_the_end() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_kalah"))
        .args(["play", "--rules", "bao", "--position", E6])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"\xff\nA4+\nA4-\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    // A line that is not UTF-8 is answered and the game goes on, as in kalah engine.
    assert!(text.contains("not played: line 1 is not UTF-8"), "{text}");
    assert!(text.contains("not played: "), "{text}");
    assert!(
        text.contains("South emptied North's front row: South wins"),
        "{text}"
    );
    // As North in E16 the engine (South) keeps the draw with B1-; the human quits.
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
    assert!(text.contains("South plays B1- (draw)"), "{text}");
    assert!(text.contains("game abandoned"), "{text}");
}

#[cfg(target_os = "linux")]
#[test]
fn a_solve_stops_soon_after_sigterm() {
    // The game graph's discovery once looked at the interrupt flag every 65,536 positions:
    // on the default board (8 pits, 2 seeds) a SIGTERM was heard some 50 s of processor
    // time later, and a position whose moves sow for long held it up for seconds more. It
    // is heard at the next position now, and within a long move: the solve ends with the
    // interrupted solve's short analysis (0.3 s) and status 3. What is bounded is the
    // processor time spent after the signal, which the machine's load does not change.
    use crate::support::guard;
    let child = Command::new(env!("CARGO_BIN_EXE_kalah"))
        .env_remove("KALAH_EGDB_PATH")
        .env("KALAH_CACHE", "off")
        .args(["solve", "--rules", "bao", "--houses", "8", "--seeds", "2"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id();
    // The handler is in place once the process catches SIGTERM (bit 15), which it does
    // from the start of the graph's discovery.
    let caught = || {
        let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
        let mask = status
            .lines()
            .find_map(|l| l.strip_prefix("SigCgt:"))
            .and_then(|m| u64::from_str_radix(m.trim(), 16).ok());
        mask.is_some_and(|m| m & (1 << 14) != 0)
    };
    guard::wait_until("SIGTERM handler", caught);
    // Well into the discovery: a second of processor time used.
    let ticks = || guard::processor(pid).map_or(0, |(_, t)| t);
    guard::wait_until("second of processor time", || ticks() >= 100);
    let at_signal = ticks();
    assert!(Command::new("kill")
        .args(["-TERM", &pid.to_string()])
        .status()
        .unwrap()
        .success());
    // Ended (a zombie until waited for, its processor time still readable).
    let ended = || guard::processor(pid).is_some_and(|(state, _)| state == 'Z');
    guard::wait_until("end after SIGTERM", ended);
    let after = ticks() - at_signal;
    let out = guard::finish(child, "the interrupted Bao solve");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{err}");
    assert!(err.contains("interrupted"), "{err}");
    assert!(
        after < 500,
        "{after} clock ticks of processor time after SIGTERM"
    );
}
