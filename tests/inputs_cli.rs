//! A command never writes its output onto a database it reads: `--egdb FILE` (or
//! `KALAH_EGDB_PATH`) is an input of `export`, `batch`, `openings` and `pie`, refused as
//! their output even with `--force`, and the database is left as it was.

use std::path::Path;
use std::process::Output;

use crate::support::cli;
use cli::kalah;

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn arg(path: &Path) -> &str {
    path.to_str().expect("a UTF-8 scratch path")
}

#[test]
fn the_database_read_is_never_the_output() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("k3.egdb");
    let built = kalah(&[
        "egdb",
        "build",
        "--houses",
        "3",
        "--max-seeds",
        "4",
        "-q",
        "--out",
        arg(&db),
    ]);
    assert!(built.status.success(), "{}", stderr(&built));
    let before = std::fs::read(&db).unwrap();
    let positions = dir.path().join("positions.txt");
    std::fs::write(&positions, "2,2,2,0,2,2,2,0:S\n").unwrap();
    let rules = ["--houses", "3", "--seeds", "2", "--threads", "1", "-q"];
    let runs: [&[&str]; 4] = [
        &["export", "--depth", "1", "-o"],
        &["openings", "--output"],
        &["pie", "--output"],
        &["batch", arg(&positions), "--output"],
    ];
    for run in runs {
        let command = [run, &[arg(&db), "--force", "--egdb", arg(&db)], &rules[..]].concat();
        let out = kalah(&command);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{run:?}: {err}");
        assert!(!err.contains("panicked"), "{run:?}: {err}");
        assert!(err.contains("that this command reads"), "{run:?}: {err}");
        assert_eq!(
            std::fs::read(&db).unwrap(),
            before,
            "{run:?} changed the database"
        );
    }
}
