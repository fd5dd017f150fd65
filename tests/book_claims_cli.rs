//! A book file the user names is a set of claims (issue 61): a wrong claim about a small
//! position is refused naming its line, a claim about a large one is reported as the
//! book's and never called exact (`openings`, `pie`, `engine`, `analyse`, `book show`),
//! and a `--book` that is not a regular file (a FIFO, a device) is refused at once.

use crate::support::cli::{kalah, kalah_ok};

use std::path::Path;
use std::process::{Command, Stdio};

use serde_json::Value;

/// The book: Kalah(4,3) to 2 turns, exact, with the start's entry and the entry
/// after turn 1 replaced by wrong exact claims (the start is +6 by 2-3; turn 1 is -6).
fn forged_small_book(dir: &Path) -> String {
    let good = dir.join("ex43.txt");
    kalah_ok(&[
        "book",
        "build",
        "--houses",
        "4",
        "--seeds",
        "3",
        "--turns",
        "2",
        "--threads",
        "1",
        "--quiet",
        "--out",
        good.to_str().unwrap(),
    ]);
    let text = std::fs::read_to_string(&good).unwrap();
    let forged: Vec<String> = text
        .lines()
        .map(|l| match l.split(' ').next() {
            Some("3,3,3,3,0,3,3,3,3,0:S") => "3,3,3,3,0,3,3,3,3,0:S 1 -4 -4 -4 exact 0".into(),
            Some("0,4,4,4,0,3,3,3,3,0:N") => "0,4,4,4,0,3,3,3,3,0:N 7-9 +10 +10 +10 exact 0".into(),
            _ => l.to_string(),
        })
        .collect();
    assert_ne!(
        forged.join("\n"),
        text.trim_end(),
        "both entries are in the book"
    );
    let path = dir.join("forged.txt");
    std::fs::write(&path, forged.join("\n") + "\n").unwrap();
    path.to_str().unwrap().to_string()
}

/// The compiled-in Kalah(6,6) book with the entry after South's turn 1-3 claimed exact
/// at +30 (too large to prove again on reading); that position.
fn forged_large_book(dir: &Path) -> (String, String) {
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("data/book/kalah-6x6-standard.txt"),
    )
    .unwrap();
    let after = "0,7,0,8,8,8,2,7,7,7,6,6,6,0:N";
    let forged: Vec<String> = text
        .lines()
        .map(|l| match l.split(' ').next() {
            Some(p) if p == after => format!("{after} 9 +30 +30 +30 exact 21"),
            Some("#") if l.starts_with("# positions ") => "# positions 71 (1 exact)".into(),
            _ => l.to_string(),
        })
        .collect();
    let path = dir.join("forged66.txt");
    std::fs::write(&path, forged.join("\n") + "\n").unwrap();
    (path.to_str().unwrap().to_string(), after.to_string())
}

/// `kalah engine` with `args`, fed `input`; its output.
fn engine(args: &[&str], input: &str) -> (bool, String, String) {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_kalah"))
        .env_remove("KALAH_EGDB_PATH")
        .env("KALAH_CACHE", "off")
        .args(["engine", "--threads", "1", "--hash-mb", "4"])
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    // The engine may refuse the book before it reads a line: a broken pipe is an answer.
    let _ = stdin.write_all(input.as_bytes());
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn a_wrong_exact_claim_on_a_small_position_is_refused_naming_its_line() {
    let dir = tempfile::tempdir().unwrap();
    let book = forged_small_book(dir.path());
    let board = ["--houses", "4", "--seeds", "3"];
    let runs: Vec<Vec<&str>> = vec![
        vec!["openings", "--json", "--book", &book],
        vec!["pie", "--json", "--book", &book],
        vec![
            "analyse",
            "--time",
            "0.1",
            "--threads",
            "1",
            "--book",
            &book,
        ],
        vec!["book", "show", "--book", &book],
    ];
    for args in runs {
        let args: Vec<&str> = args.iter().chain(&board).copied().collect();
        let out = kalah(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{args:?}: {err}");
        assert!(
            err.contains("line 13") && err.contains("claims the exact value -4"),
            "{args:?}: {err}"
        );
        assert!(err.contains("its value is +6"), "{args:?}: {err}");
    }
    let input = "rules --houses 4 --seeds 3\nposition start\ngo depth 4\n";
    let (ok, out, err) = engine(&["--book", &book], input);
    assert!(
        !out.contains("exact yes") && !out.contains("bestmove 1\n"),
        "{out}"
    );
    assert!(!ok || err.contains("line 13"), "{out} {err}");
}

#[test]
fn a_claim_on_a_large_position_is_the_books_and_never_called_exact() {
    let dir = tempfile::tempdir().unwrap();
    let (book, after) = forged_large_book(dir.path());
    let board = ["--houses", "6", "--seeds", "6"];
    let run = |args: &[&str]| -> Value {
        let args: Vec<&str> = args.iter().chain(&board).copied().collect();
        serde_json::from_slice(&kalah_ok(&args).stdout).unwrap()
    };
    let openings = run(&["openings", "--json", "--book", &book]);
    assert_eq!(openings["exact"], false, "{openings}");
    let turns = openings["turns"].as_array().unwrap();
    let forged = turns.iter().find(|t| t["turn"] == "1-3").unwrap();
    assert_eq!(forged["exact"], false, "{forged}");
    assert_eq!(forged["book_exact"], true, "{forged}");
    assert_eq!(forged["eval"], 30, "{forged}");
    assert_eq!(
        (forged["book_lower"].clone(), forged["book_upper"].clone()),
        (30.into(), 30.into())
    );
    assert!(forged["lower"].as_i64().unwrap() < 0 && forged["upper"].as_i64().unwrap() > 30);
    let pie = run(&["pie", "--json", "--book", &book]);
    assert_eq!(pie["exact"], false, "{pie}");
    let forged = pie["turns"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["turn"] == "1-3")
        .unwrap();
    assert_eq!(forged["swap_proven"], false, "{forged}");
    assert_eq!(forged["exact"], false, "{forged}");
    // analyse and book show: the book's claim, said to be the book's.
    for args in [
        vec![
            "analyse",
            "--depth",
            "2",
            "--threads",
            "1",
            "--book",
            &book,
            "--position",
            &after,
        ],
        vec!["book", "show", "--book", &book, "--position", &after],
    ] {
        let args: Vec<&str> = args.iter().chain(&board).copied().collect();
        let text = String::from_utf8(kalah_ok(&args).stdout).unwrap();
        assert!(
            text.contains("exact +30 from South per the book, not proven here"),
            "{args:?}: {text}"
        );
    }
    let input = format!("rules --houses 6 --seeds 6\nposition {after}\ngo depth 2\n");
    let (ok, out, _) = engine(&["--book", &book], &input);
    let info = out
        .lines()
        .find(|l| l.starts_with("info book"))
        .unwrap_or("");
    assert!(ok && info.contains("exact no"), "{out}");
    assert!(
        !info.contains("lower 30 upper 30") && !info.contains("lower -30 upper -30"),
        "{info}"
    );
}

/// Runs the binary with `args` and returns its output, killing it if it has not
/// finished after a generous while (so that a command that blocks on a FIFO fails the
/// test rather than hanging it; nothing is asserted on the time).
fn kalah_bounded(args: &[&str]) -> (bool, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_kalah"))
        .env_remove("KALAH_EGDB_PATH")
        .env("KALAH_CACHE", "off")
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    for _ in 0..600 {
        if child.try_wait().unwrap().is_some() {
            let out = child.wait_with_output().unwrap();
            return (
                out.status.success(),
                String::from_utf8_lossy(&out.stderr).into_owned(),
            );
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    let _ = child.kill();
    let _ = child.wait();
    panic!("kalah {args:?} did not finish: blocked on its --book");
}

#[test]
fn a_book_that_is_not_a_regular_file_is_refused_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("b.txt");
    assert!(Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    let fifo = fifo.to_str().unwrap();
    for book in [fifo, "/dev/zero"] {
        for args in [
            vec![
                "analyse", "--book", book, "--houses", "4", "--seeds", "3", "--time", "0.2",
            ],
            vec![
                "book", "show", "--book", book, "--houses", "4", "--seeds", "3",
            ],
            vec!["engine", "--book", book],
        ] {
            let (ok, err) = kalah_bounded(&args);
            assert!(!ok, "{args:?}");
            assert!(err.contains("not a regular file"), "{args:?}: {err}");
        }
    }
}
