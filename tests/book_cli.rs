//! `kalah book`: a book built and read back by every command that consults it (`book
//! show`, `analyse`, `openings`, `pie`, `play`, `engine`), each saying so; a book of other
//! rules, a file that is no book and another build's partial file refused with the
//! reason; and a build that goes on from its partial file.

use crate::support::cli::{json, kalah, kalah_ok};

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

use kalah_analysis::book::build::{self, Partial};
use kalah_analysis::book::{format, Book, Entry};
use kalah_core::{Game, Rules};

/// Builds the exact book of Kalah(3,3) to 2 turns at `path`; standard error.
fn build_book(path: &Path) -> String {
    let out = kalah_ok(&[
        "book",
        "build",
        "--houses",
        "3",
        "--seeds",
        "3",
        "--turns",
        "2",
        "--threads",
        "1",
        "--out",
        path.to_str().unwrap(),
    ]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("positions within 2 turns written to"),
        "{text}"
    );
    String::from_utf8(out.stderr).unwrap()
}

fn read(path: &Path) -> Book {
    let text = std::fs::read_to_string(path).unwrap();
    format::read(&text, Some(&Rules::kalah(3, 3))).unwrap()
}

/// `kalah engine` with `args`, fed `input`; its output.
fn engine(args: &[&str], input: &str) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_kalah"))
        .env_remove("KALAH_EGDB_PATH")
        .env("KALAH_CACHE", "off")
        .args(["engine", "--threads", "1", "--hash-mb", "4"])
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn every_command_that_consults_the_book_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("k33.txt");
    build_book(&path);
    let book = read(&path);
    assert!(book.entries().iter().all(Entry::is_exact));
    assert_eq!(book.about("turns"), Some("2"));
    let file = path.to_str().unwrap();
    let game = ["--houses", "3", "--seeds", "3", "--book", file];
    let start = &book.entries()[0];

    let mut args = vec!["book", "show"];
    args.extend(game);
    let text = String::from_utf8(kalah_ok(&args).stdout).unwrap();
    assert!(
        text.contains(&format!("best turn {}", start.best_turn.notation(3))),
        "{text}"
    );
    assert!(text.contains("exact"), "{text}");

    // analyse: the book's line beside the analysis, and in the final JSON object.
    let mut args = vec!["analyse", "--depth", "2", "--threads", "1"];
    args.extend(game);
    let text = String::from_utf8(kalah_ok(&args).stdout).unwrap();
    assert!(text.starts_with("book depth "), "{text}");
    assert!(text.lines().next().unwrap().contains(": exact "), "{text}");
    args.push("--json");
    let out = String::from_utf8(kalah_ok(&args).stdout).unwrap();
    let last: serde_json::Value = serde_json::from_str(out.lines().last().unwrap()).unwrap();
    assert_eq!(last["book"]["eval"], start.eval);
    assert_eq!(last["book"]["exact"], true);
    assert_eq!(last["book"]["file"], file);

    // openings and pie from the book agree with the exact solves.
    let mut args = vec!["openings", "--json"];
    args.extend(game);
    let from_book = json(&args);
    let solved = json(&[
        "openings",
        "--json",
        "--houses",
        "3",
        "--seeds",
        "3",
        "--no-book",
    ]);
    assert_eq!(from_book["book"], file);
    assert_eq!(from_book["exact"], true);
    assert_eq!(from_book["turns"][0]["eval"], solved["turns"][0]["value"]);
    let mut args = vec!["pie", "--json"];
    args.extend(game);
    let from_book = json(&args);
    let solved = json(&["pie", "--json", "--houses", "3", "--seeds", "3"]);
    assert_eq!(from_book["value"], solved["value"]);
    assert_eq!(from_book["book"], file);

    // play: the engine's first turn is the book's.
    let mut args = vec!["play", "--as", "north", "--time", "1", "--quiet"];
    args.extend(game);
    let text = String::from_utf8(kalah_ok(&args).stdout).unwrap();
    let played = format!("South plays {} (book depth ", start.best_turn.notation(3));
    assert!(text.contains(&played), "{text}");

    // engine: a go with a limit answered from the book, unless --no-book.
    let input = "hello\nrules --houses 3 --seeds 3\nposition start\ngo depth 4\n";
    let text = engine(&["--book", file], input);
    assert!(text.contains("\ninfo book depth "), "{text}");
    assert!(
        text.contains(&format!("bestmove {}", start.best_turn.notation(3))),
        "{text}"
    );
    assert!(text.contains(&format!("option book {file}\n")), "{text}");
    let text = engine(&["--no-book"], input);
    assert!(!text.contains("info book"), "{text}");
}

#[test]
fn a_wrong_book_is_refused_with_the_reason() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("k33.txt");
    build_book(&path);
    let file = path.to_str().unwrap();
    let out = kalah(&[
        "analyse", "--houses", "4", "--seeds", "3", "--depth", "1", "--book", file,
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("the book was made for Kalah(3,3)"), "{err}");
    let other = dir.path().join("other.txt");
    std::fs::write(&other, "not a book\n").unwrap();
    let out = kalah(&[
        "book",
        "show",
        "--houses",
        "3",
        "--seeds",
        "3",
        "--book",
        other.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not an opening book"));
    // A build does not replace a file that is no book.
    let out = kalah(&[
        "book",
        "build",
        "--houses",
        "3",
        "--seeds",
        "3",
        "--turns",
        "1",
        "--out",
        other.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(std::fs::read_to_string(&other).unwrap(), "not a book\n");
}

#[test]
fn a_build_goes_on_from_its_partial_file() {
    let dir = tempfile::tempdir().unwrap();
    let whole = dir.path().join("whole.txt");
    build_book(&whole);
    let book = read(&whole);
    // The partial file an interrupted build would have left: three entries.
    let rules = Rules::kalah(3, 3);
    let game = Game::new(rules).unwrap();
    let header = build::partial_header(
        &rules,
        &game.start(),
        2,
        &build::limits_text(&kalah_solver::Limits::none()),
    );
    let resumed = dir.path().join("resumed.txt");
    let partial = dir.path().join("resumed.txt.partial");
    let kept: Vec<&Entry> = book.entries().iter().skip(1).take(3).collect();
    drop(Partial::start(&partial, &header, 3, &kept).unwrap());
    let err = build_book(&resumed);
    assert!(err.contains("resuming: 3 entries kept"), "{err}");
    assert!(
        !partial.exists(),
        "the partial file goes once the book is written"
    );
    let again = read(&resumed);
    let values = |b: &Book| -> Vec<(String, i32)> {
        b.entries()
            .iter()
            .map(|e| (e.position.to_string(), e.eval))
            .collect()
    };
    assert_eq!(values(&again), values(&book));
    // Another build's partial file is refused, and left alone.
    let other = build::partial_header(&rules, &game.start(), 3, "depth 2 a position");
    drop(Partial::start(&partial, &other, 3, &kept).unwrap());
    let out = kalah(&[
        "book",
        "build",
        "--houses",
        "3",
        "--seeds",
        "3",
        "--turns",
        "2",
        "--out",
        resumed.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("holds the work of another build"), "{err}");
    assert!(partial.exists());
}

#[test]
fn openings_and_pie_of_kalah_6_6_come_from_the_compiled_in_book() {
    let openings = json(&["openings", "--houses", "6", "--seeds", "6", "--json"]);
    assert_eq!(
        openings["book"],
        "data/book/kalah-6x6-standard.txt (compiled in)"
    );
    assert_eq!(openings["exact"], false);
    assert_eq!(openings["turns"].as_array().unwrap().len(), 10);
    let pie = json(&[
        "pie",
        "--houses",
        "6",
        "--seeds",
        "6",
        "--capture",
        "empty",
        "--json",
    ]);
    assert_eq!(pie["book"], "data/book/kalah-6x6-empty.txt (compiled in)");
    assert_eq!(pie["exact"], false);
    let text =
        String::from_utf8(kalah_ok(&["pie", "--houses", "6", "--seeds", "6"]).stdout).unwrap();
    assert!(text.contains("(heuristic)"), "{text}");
}
