//! The `kalah` binary as the tests run it: no database cache and no database directory
//! (every machine sees the same solver), no standard input.

use std::process::{Command, Output, Stdio};

use serde_json::Value;

/// Runs the binary with `args` and returns its output, whatever its exit status.
pub fn kalah(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_kalah"))
        .env_remove("KALAH_EGDB_PATH")
        .env("KALAH_CACHE", "off")
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("the kalah binary runs")
}

/// Runs the binary and checks that it succeeded (the failure shows its standard error).
pub fn kalah_ok(args: &[&str]) -> Output {
    let out = kalah(args);
    assert!(
        out.status.success(),
        "kalah {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// The one JSON object a successful run prints.
pub fn json(args: &[&str]) -> Value {
    serde_json::from_slice(&kalah_ok(args).stdout).expect("the output is JSON")
}
