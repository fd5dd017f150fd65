//! `kalah analyse`, `kalah solve` with a limit and the interrupted `kalah solve` through
//! the binary: a line per depth, JSON reports that parse, intervals that hold the value
//! `solve` proves, bad limits refused with status 2, and Ctrl-C or SIGTERM during a long
//! solve printing the proven interval, a best guess and "not exact".

use crate::support::cli;
use crate::support::guard;

use cli::{json, kalah, kalah_ok};
use serde_json::Value;

/// Every line of standard output as JSON.
fn json_lines(args: &[&str]) -> Vec<Value> {
    let out = kalah_ok(args);
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}")))
        .collect()
}

const SMALL: [&str; 6] = ["--houses", "4", "--seeds", "3", "--threads", "1"];

#[test]
fn analyse_prints_a_line_per_depth_and_a_summary() {
    let mut args = vec!["analyse", "--depth", "5", "--multi", "2"];
    args.extend(SMALL);
    let out = kalah_ok(&args);
    let text = String::from_utf8(out.stdout).unwrap();
    let depths: Vec<&str> = text.lines().filter(|l| l.starts_with("depth")).collect();
    assert!(depths.len() >= 2, "{text}");
    for l in &depths {
        for word in [
            "heuristic",
            "from South",
            "proven",
            "nodes",
            "n/s",
            " s ",
            "line",
        ] {
            assert!(l.contains(word), "{word} missing in {l}");
        }
    }
    let last = text.lines().last().unwrap();
    assert!(
        last.starts_with("exact:") || last.starts_with("not exact:"),
        "{text}"
    );
    assert!(
        text.lines().any(|l| l.starts_with("    ")),
        "the turns under a line: {text}"
    );
}

#[test]
fn analyse_json_holds_the_value_solve_proves() {
    let mut solve = vec!["solve", "--json"];
    solve.extend(SMALL);
    let value = json(&solve)["value"].as_i64().unwrap();
    for limit in [
        ["--depth", "1"],
        ["--depth", "6"],
        ["--nodes", "2000"],
        ["--time", "30"],
    ] {
        let mut args = vec!["analyse", "--json", "--multi", "0"];
        args.extend(limit);
        args.extend(SMALL);
        let reports = json_lines(&args);
        assert!(reports.len() >= 2, "{limit:?}");
        let (last, earlier) = reports.split_last().unwrap();
        assert_eq!(last["final"], true);
        assert!(earlier.iter().all(|r| r["final"] == false));
        for r in &reports {
            let (lo, hi) = (r["lower"].as_i64().unwrap(), r["upper"].as_i64().unwrap());
            assert!(lo <= value && value <= hi, "{limit:?}: {value} outside {r}");
            assert!(r["turns"].as_array().unwrap().len() >= 2, "every turn: {r}");
            assert!(r["best_turn"].is_string(), "{r}");
        }
        if last["exact"] == true {
            assert_eq!(last["eval"].as_i64(), Some(value));
        }
    }
    // Thirty seconds are more than this board needs: the answer is exact.
    let mut args = vec!["analyse", "--json", "--time", "30"];
    args.extend(SMALL);
    let last = json_lines(&args).pop().unwrap();
    assert_eq!(
        (last["exact"].clone(), last["eval"].as_i64()),
        (Value::Bool(true), Some(value))
    );
}

#[test]
fn solve_with_a_limit_runs_the_analysis() {
    let mut args = vec![
        "solve",
        "--depth",
        "2",
        "--houses",
        "6",
        "--seeds",
        "6",
        "--threads",
        "1",
    ];
    args.extend(["--hash-mb", "16"]);
    let out = kalah_ok(&args);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("depth   2"), "{text}");
    assert!(
        text.lines().last().unwrap().starts_with("not exact:"),
        "{text}"
    );
}

#[test]
fn bad_limits_exit_with_status_2() {
    let bad: [&[&str]; 9] = [
        &["--time", "-1"],
        &["--time", "0"],
        &["--time", "soon"],
        &["--time", "1e9"],
        &["--time", "NaN"],
        &["--nodes", "0"],
        &["--nodes", "-5"],
        &["--depth", "0"],
        &["--depth", "200"],
    ];
    for limit in bad {
        for command in ["analyse", "solve"] {
            let mut args = vec![command];
            args.extend(limit);
            args.extend(SMALL);
            let out = kalah(&args);
            assert_eq!(out.status.code(), Some(2), "{args:?}");
            let err = String::from_utf8_lossy(&out.stderr);
            assert!(err.contains(limit[0]), "{args:?}: {err}");
        }
    }
}

/// `kalah ARGS` stopped by `signal` once its handler is in place: its exit status, its
/// standard output and its standard error.
#[cfg(target_os = "linux")]
fn stopped(args: &[&str], signal: &str, bit: u64) -> (Option<i32>, String, String) {
    use std::process::{Command, Stdio};
    let child = Command::new(env!("CARGO_BIN_EXE_kalah"))
        .env_remove("KALAH_EGDB_PATH")
        .env("KALAH_CACHE", "off")
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id().to_string();
    // The handler is in place once the process catches the signal.
    guard::wait_until("the signal handler", || {
        let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
        status
            .lines()
            .find_map(|l| l.strip_prefix("SigCgt:"))
            .and_then(|m| u64::from_str_radix(m.trim(), 16).ok())
            .is_some_and(|m| m & bit != 0)
    });
    let kill = Command::new("kill").args([signal, &pid]).status().unwrap();
    assert!(kill.success());
    let out = guard::finish(child, "the interrupted solve");
    let text = String::from_utf8(out.stdout).unwrap();
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    (out.status.code(), text, err)
}

/// A long solve stopped by `signal` (after its handler is in place) prints the proven
/// interval and a best guess, says the value is not exact, and exits with status 3.
#[cfg(target_os = "linux")]
fn interrupted_solve(signal: &str, bit: u64) {
    let args = [
        "solve",
        "--houses",
        "6",
        "--seeds",
        "6",
        "--egdb-seeds",
        "0",
        "--threads",
        "1",
        "--hash-mb",
        "16",
    ];
    let (code, text, err) = stopped(&args, signal, bit);
    assert_eq!(code, Some(3), "{text}{err}");
    assert!(
        text.starts_with("not exact: the value from South is proven in"),
        "{text}"
    );
    assert!(text.contains("best guess"), "{text}");
    assert!(err.contains("not exact"), "{err}");
}

#[cfg(target_os = "linux")]
#[test]
fn an_interrupted_solve_prints_bounds_and_a_guess() {
    interrupted_solve("-INT", 1 << 1);
    interrupted_solve("-TERM", 1 << 14);
}

/// Bao's exact solve (the whole game graph) interrupted: the best guess of a short
/// analysis, labelled, and the status of a solve that is not exact.
#[cfg(target_os = "linux")]
#[test]
fn an_interrupted_bao_solve_prints_a_guess() {
    let args = [
        "solve",
        "--rules",
        "bao",
        "--houses",
        "4",
        "--seeds",
        "2",
        "--memory-mb",
        "100000",
    ];
    let (code, text, err) = stopped(&args, "-INT", 1 << 1);
    assert_eq!(code, Some(3), "{text}{err}");
    assert!(text.starts_with("best move "), "{text}");
    assert!(err.contains("was not solved"), "{err}");
}
