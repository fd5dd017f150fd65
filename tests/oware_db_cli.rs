//! `kalah egdb build|info|probe --rules oware` seen from outside: a database of every
//! board of a small Oware game, built by the cycle rule, described, verified, and probed
//! at the start and after each first sowing against `kalah solve` of the same positions.

use crate::support::cli;

use cli::{json, kalah};

/// A fresh directory for one test's files.
fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("kalah-oware-db-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn an_oware_database_builds_describes_itself_and_probes_the_solved_values() {
    let dir = scratch("probe");
    let file = dir.join("o3-12.egdb");
    let out = file.to_str().unwrap();
    let game = ["--rules", "oware", "--houses", "3", "--seeds", "2"];
    let mut build = vec!["egdb", "build", "--max-seeds", "12", "--out", out, "-q"];
    build.extend(game);
    let built = kalah(&build);
    assert!(
        built.status.success(),
        "{}",
        String::from_utf8_lossy(&built.stderr)
    );
    let info = json(&["egdb", "info", out, "--json"]);
    assert_eq!(info["finished"], true);
    assert_eq!(info["max_seeds"], 12);
    assert_eq!(info["rules"]["family"], "oware");
    assert_eq!(info["rules"]["grand_slam"], "no-capture");
    let start = "2,2,2,0,2,2,2,0:S";
    let probed = json(&["egdb", "probe", out, "--position", start, "--json"]);
    let mut solve = vec!["solve", "--json", "--position", start];
    solve.extend(game);
    let solved = json(&solve);
    assert_eq!(probed["value"], solved["value"], "{probed} {solved}");
    for m in probed["moves"].as_array().unwrap() {
        let bin = m["bin"].as_u64().unwrap().to_string();
        let mut after = solve.clone();
        after.extend(["--moves", bin.as_str()]);
        let solved = json(&after);
        assert_eq!(m["value"], solved["value"], "after {bin}: {solved}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_damaged_oware_file_is_refused() {
    let dir = scratch("refuse");
    let file = dir.join("o3-6.egdb");
    let out = file.to_str().unwrap();
    let built = kalah(&[
        "egdb",
        "build",
        "--rules",
        "oware",
        "--houses",
        "3",
        "--max-seeds",
        "6",
        "--out",
        out,
        "-q",
    ]);
    assert!(built.status.success());
    let mut bytes = std::fs::read(&file).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    std::fs::write(&file, &bytes).unwrap();
    let info = kalah(&["egdb", "info", out]);
    assert_eq!(info.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&info.stderr).contains("damaged"));
    let _ = std::fs::remove_dir_all(&dir);
}
