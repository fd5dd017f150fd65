//! The progress of `kalah analyse`: every JSON report says why it was made (`"kind"`:
//! `iteration`, `proof`, `tick` or `final`, beside the `"final"` flag it always had), and
//! `--verbose` prints a line for each tick of a long search.

use crate::support::cli;

use cli::kalah_ok;
use serde_json::Value;

#[test]
fn every_json_report_says_its_kind() {
    let args = [
        "analyse",
        "--houses",
        "4",
        "--seeds",
        "3",
        "--threads",
        "1",
        "--depth",
        "6",
        "--json",
    ];
    let out = String::from_utf8(kalah_ok(&args).stdout).unwrap();
    let lines: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let kinds: Vec<&str> = lines.iter().map(|l| l["kind"].as_str().unwrap()).collect();
    assert_eq!(kinds[0], "iteration", "{kinds:?}");
    assert_eq!(kinds.last(), Some(&"final"), "{kinds:?}");
    for (l, kind) in lines.iter().zip(&kinds) {
        assert!(
            ["iteration", "proof", "tick", "final"].contains(kind),
            "{l}"
        );
        assert_eq!(l["final"].as_bool(), Some(*kind == "final"), "{l}");
    }
    let depths: Vec<u64> = lines
        .iter()
        .filter(|l| l["kind"] == "iteration")
        .map(|l| l["depth"].as_u64().unwrap())
        .collect();
    assert_eq!(depths[0], 0, "the report before any search");
    assert!(
        depths.windows(2).all(|w| w[1] == w[0] + 1),
        "one per depth: {depths:?}"
    );
}

#[test]
fn verbose_shows_the_ticks_of_a_long_search() {
    let args = [
        "analyse",
        "--houses",
        "6",
        "--seeds",
        "6",
        "--threads",
        "1",
        "--time",
        "2.5",
        "--verbose",
    ];
    let out = String::from_utf8(kalah_ok(&args).stdout).unwrap();
    assert!(out.contains("searching beyond depth"), "{out}");
    let quiet = [
        "analyse",
        "--houses",
        "6",
        "--seeds",
        "6",
        "--threads",
        "1",
        "--time",
        "1",
    ];
    let out = String::from_utf8(kalah_ok(&quiet).stdout).unwrap();
    assert!(!out.contains("searching beyond depth"), "{out}");
}
