//! `kalah egdb` and `--egdb FILE` seen from outside: build, info, probe, a solve that
//! uses the file, and the refusals (other rules, another board, a damaged file).

use crate::support::cli;

use cli::kalah;

use std::path::PathBuf;
use std::process::Command;

use serde_json::Value;

fn ok(args: &[&str]) -> String {
    let out = kalah(args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn fails(args: &[&str], message: &str) {
    let out = kalah(args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}");
    assert!(err.contains(message), "{args:?}: {err}");
}

/// `kalah egdb build` of a Kalah board of 4 houses with empty capture, up to `k` seeds, to
/// `out`, with `extra` arguments.
fn build_args<'a>(k: &'a str, out: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec![
        "egdb",
        "build",
        "--houses",
        "4",
        "--max-seeds",
        k,
        "--capture",
        "empty",
        "--out",
        out,
    ];
    args.extend_from_slice(extra);
    args
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("kalah-egdb-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn build_info_probe_and_solve_with_a_database_file() {
    let dir = scratch("flow");
    let file = dir.join("k4-10.egdb");
    let f = file.to_str().unwrap();
    let built = ok(&build_args("10", f, &["--quiet"]));
    assert!(built.contains("43758 positions"), "{built}");

    let info: Value = serde_json::from_str(&ok(&["egdb", "info", f, "--json"])).unwrap();
    assert_eq!(info["max_seeds"], 10);
    assert_eq!(info["rules"]["capture"], "empty");
    assert_eq!(info["finished"], true);

    // South's last seed sows into the store, South's row is empty and North keeps its 4:
    // South ends with 6, North with 4.
    let probe: Value = serde_json::from_str(&ok(&[
        "egdb",
        "probe",
        f,
        "--position",
        "0,0,0,1,5,0,0,1,3,0:S",
        "--json",
    ]))
    .unwrap();
    assert_eq!(probe["value"], 2);
    assert_eq!(probe["moves"].as_array().unwrap().len(), 1);

    // The solve gives the same value with the database as without, and says it used it.
    let with: Value = serde_json::from_str(&ok(&[
        "solve",
        "--houses",
        "4",
        "--seeds",
        "2",
        "--capture",
        "empty",
        "--egdb",
        f,
        "--json",
        "--quiet",
    ]))
    .unwrap();
    let without: Value = serde_json::from_str(&ok(&[
        "solve",
        "--houses",
        "4",
        "--seeds",
        "2",
        "--capture",
        "empty",
        "--egdb-seeds",
        "0",
        "--json",
        "--quiet",
    ]))
    .unwrap();
    assert_eq!(with["value"], without["value"]);
    assert_eq!(with["egdb_seeds"], 10);
    assert!(with["egdb_hits"].as_u64().unwrap() > 0);

    // A larger database started from this one: the same file as one built from nothing.
    let grown = dir.join("k4-12-from-10.egdb");
    let fresh = dir.join("k4-12.egdb");
    let build12 = |out: &PathBuf, from: Option<&str>| {
        let mut extra = vec!["--quiet"];
        extra.extend(from.map(|f| ["--from", f]).into_iter().flatten());
        ok(&build_args("12", out.to_str().unwrap(), &extra))
    };
    assert!(build12(&grown, Some(f)).contains("11 levels resumed"));
    build12(&fresh, None);
    assert_eq!(
        std::fs::read(&grown).unwrap(),
        std::fs::read(&fresh).unwrap()
    );
    fails(
        &build_args(
            "10",
            dir.join("again.egdb").to_str().unwrap(),
            &["--from", f],
        ),
        "already holds every position with up to 10 seeds",
    );

    // A directory: the smallest file that holds every seed of the position, else the
    // largest; files for other rules are passed over, and none at all is an error.
    let d = dir.to_str().unwrap();
    fn solve_in<'a>(seeds: &'a str, capture: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
        let mut args = vec![
            "solve",
            "--houses",
            "4",
            "--seeds",
            seeds,
            "--capture",
            capture,
            "--json",
            "--quiet",
        ];
        args.extend_from_slice(extra);
        args
    }
    let picked = |args: &[&str], env: Option<&str>| -> Value {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_kalah"));
        cmd.args(args)
            .env_remove("KALAH_EGDB_PATH")
            .env("KALAH_CACHE", "off");
        if let Some(dir) = env {
            cmd.env("KALAH_EGDB_PATH", dir);
        }
        let out = cmd.output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        serde_json::from_slice(&out.stdout).unwrap()
    };
    let small = picked(&solve_in("1", "empty", &["--egdb", d]), None);
    assert_eq!(small["egdb_seeds"], 10);
    assert!(small["egdb_file"].as_str().unwrap().ends_with("k4-10.egdb"));
    let large = picked(&solve_in("2", "empty", &["--egdb", d]), None);
    assert_eq!(large["egdb_seeds"], 12);
    assert_eq!(large["value"], with["value"]);
    fails(
        &solve_in("2", "standard", &["--egdb", d]),
        "holds no finished endgame database file (*.egdb) for 4 houses capture=standard",
    );
    // KALAH_EGDB_PATH: searched without --egdb or --egdb-seeds; nothing found there is no
    // error.
    let from_env = picked(&solve_in("2", "empty", &[]), Some(d));
    assert_eq!(from_env["egdb_seeds"], 12);
    let in_memory = picked(&solve_in("2", "empty", &["--egdb-seeds", "6"]), Some(d));
    assert_eq!(in_memory["egdb_seeds"], 6);
    assert!(in_memory["egdb_file"].is_null());
    let other_rules = picked(&solve_in("2", "standard", &[]), Some(d));
    assert!(other_rules["egdb_file"].is_null());

    // Other rules, another board, or the early stop: refused with a clear message.
    fails(
        &["solve", "--houses", "4", "--seeds", "2", "--egdb", f],
        "was built for 4 houses capture=empty",
    );
    fails(
        &[
            "solve",
            "--houses",
            "5",
            "--seeds",
            "2",
            "--capture",
            "empty",
            "--egdb",
            f,
        ],
        "but the game is 5 houses",
    );
    fails(
        &[
            "solve",
            "--houses",
            "4",
            "--rules",
            "online-empty",
            "--egdb",
            f,
        ],
        "early stop",
    );
    fails(
        &["egdb", "probe", f, "--position", "4,4,4,4,0,4,4,4,4,0:S"],
        "at most 10 seeds",
    );

    // A damaged file is refused.
    let mut bytes = std::fs::read(&file).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 0x10;
    std::fs::write(&file, &bytes).unwrap();
    fails(&["egdb", "info", f], "damaged");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn early_stop_build_is_refused() {
    let dir = scratch("early");
    let f = dir.join("x.egdb");
    fails(
        &[
            "egdb",
            "build",
            "--max-seeds",
            "4",
            "--rules",
            "online",
            "--out",
            f.to_str().unwrap(),
        ],
        "early stop",
    );
    assert!(!f.exists());
    let _ = std::fs::remove_dir_all(&dir);
}
