//! Fault injection: the commands that write files (`batch`, `export`) run against bad
//! paths, special files, full disks, closed pipes, a second run on the same output,
//! damaged and foreign resume files, bad input bytes and `kill -9`, on boards small enough
//! that each case takes a second or two. Each test is a case that once lost or mixed work.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};

use kalah_analysis::export::plan;
use kalah_core::{Game, Rules};
use serde_json::Value;

use crate::support::guard;
use guard::{finish, holds_flock, wait_until};

/// The binary, without a database from the environment.
fn kalah_command(args: &[&str]) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_kalah"));
    c.env_remove("KALAH_EGDB_PATH")
        .env("KALAH_CACHE", "off")
        .args(args);
    c
}

/// Runs the binary in `dir` without standard input, to its end (or the hang guard).
fn kalah_in(dir: &Path, args: &[&str]) -> Output {
    let child = kalah_command(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the kalah binary runs");
    finish(child, &format!("kalah {args:?}"))
}

/// `kalah egdb build` of a `houses`-house database of `max_seeds` seeds to `out`, run in
/// `dir`, quietly.
fn egdb_build(dir: &Path, houses: &str, max_seeds: &str, out: &str) -> Output {
    kalah_in(
        dir,
        &[
            "egdb",
            "build",
            "--houses",
            houses,
            "--max-seeds",
            max_seeds,
            "--out",
            out,
            "-q",
        ],
    )
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn scratch() -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix("kalah-faults-")
        .tempdir()
        .expect("a scratch directory")
}

/// A small export: Kalah(3,2) to depth 2, solved in a blink.
const SMALL_EXPORT: [&str; 11] = [
    "export",
    "--houses",
    "3",
    "--seeds",
    "2",
    "--depth",
    "2",
    "--threads",
    "1",
    "-q",
    "-o",
];

/// An export long enough to be interrupted: Kalah(4,3) to depth 3, about 700 solves.
const LONG_EXPORT: [&str; 13] = [
    "export",
    "--houses",
    "4",
    "--seeds",
    "3",
    "--depth",
    "3",
    "--threads",
    "1",
    "--egdb-seeds",
    "6",
    "-q",
    "-o",
];

/// The options of a batch on Kalah(4,3).
const BATCH: [&str; 10] = [
    "batch",
    "--houses",
    "4",
    "--seeds",
    "3",
    "--threads",
    "1",
    "--egdb-seeds",
    "6",
    "-q",
];

fn with(base: &[&str], more: &[&str]) -> Vec<String> {
    base.iter().chain(more).map(|s| s.to_string()).collect()
}

fn strs(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

/// Several hundred positions of Kalah(4,3) in the board form, one a line: the positions
/// just past three turns from the start.
fn batch_input() -> String {
    let game = Game::new(Rules::kalah(4, 3)).unwrap();
    let plan = plan(&game, &game.start(), 3);
    let mut text: String = plan
        .frontier
        .iter()
        .filter(|p| !p.is_over())
        .map(|p| format!("{p}\n"))
        .collect();
    text.insert_str(0, "# positions past three turns\n");
    text
}

/// The answers of a batch output without what depends on the run (time, nodes, and the
/// principal variation, one of several best lines).
fn answers(text: &str) -> Vec<Value> {
    text.lines()
        .map(|l| {
            let mut v: Value = serde_json::from_str(l).unwrap();
            let obj = v.as_object_mut().unwrap();
            for k in ["nodes", "seconds", "pv", "best_turn"] {
                obj.remove(k);
            }
            v
        })
        .collect()
}

/// Waits until `done()` or the child ends (`false` then), polling.
fn wait_for(child: &mut Child, done: impl Fn() -> bool) -> bool {
    let mut ended = false;
    wait_until("progress or end of the child", || {
        if done() {
            return true;
        }
        ended = child.try_wait().unwrap().is_some();
        ended
    });
    !ended
}

fn lines_in(path: &Path) -> usize {
    std::fs::read(path).map_or(0, |b| b.iter().filter(|&&c| c == b'\n').count())
}

#[test]
fn symlinked_output_is_refused_and_forced_replaces_the_link_never_its_target() {
    let dir = scratch();
    let target = dir.path().join("real.json");
    std::fs::write(&target, "old").unwrap();
    let link = dir.path().join("link.json");
    std::os::unix::fs::symlink("real.json", &link).unwrap();
    let out = kalah_in(dir.path(), &strs(&with(&SMALL_EXPORT, &["link.json"])));
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("symbolic link"), "{}", stderr(&out));
    assert!(stderr(&out).contains("--force"), "{}", stderr(&out));
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "old");
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    // A link to a file not there yet is refused the same way, and nothing is created.
    std::fs::remove_file(&target).unwrap();
    let out = kalah_in(dir.path(), &strs(&with(&SMALL_EXPORT, &["link.json"])));
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(!target.exists());
    // With --force the link itself is replaced by the table; its target is never written.
    std::fs::write(&target, "old").unwrap();
    let forced = with(&SMALL_EXPORT, &["link.json", "--force"]);
    let out = kalah_in(dir.path(), &strs(&forced));
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(!std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    let table: Value = serde_json::from_str(&std::fs::read_to_string(&link).unwrap()).unwrap();
    assert!(table["count"].as_u64().unwrap() > 0);
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "old");
}

#[test]
fn special_files_are_written_through_never_replaced() {
    use std::os::unix::fs::FileTypeExt;
    let dir = scratch();
    // A symlink to the null device: the table goes to the device, the link stays.
    let null = dir.path().join("null.json");
    std::os::unix::fs::symlink("/dev/null", &null).unwrap();
    let out = kalah_in(dir.path(), &strs(&with(&SMALL_EXPORT, &["null.json"])));
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(std::fs::symlink_metadata(&null)
        .unwrap()
        .file_type()
        .is_symlink());
    assert!(std::fs::metadata("/dev/null")
        .unwrap()
        .file_type()
        .is_char_device());

    // A FIFO: the answers are streamed to its reader, the FIFO stays a FIFO.
    let fifo = dir.path().join("answers.fifo");
    let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || {
            let mut text = String::new();
            std::fs::File::open(fifo)
                .unwrap()
                .read_to_string(&mut text)
                .unwrap();
            text
        })
    };
    let mut child = kalah_command(&strs(&with(&BATCH, &["-o", "answers.fifo"])))
        .current_dir(dir.path())
        .stdin(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(b"1\n2\n3\n").unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(answers(&reader.join().unwrap()).len(), 3);
    assert!(std::fs::symlink_metadata(&fifo)
        .unwrap()
        .file_type()
        .is_fifo());
    // A stream cannot be resumed.
    let out = kalah_in(
        dir.path(),
        &strs(&with(&BATCH, &["-o", "answers.fifo", "--resume"])),
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("only a regular file can be resumed"));
}

#[test]
fn a_directory_as_output_is_refused_before_any_work() {
    let dir = scratch();
    let sub = dir.path().join("sub");
    std::fs::create_dir(&sub).unwrap();
    for (path, says) in [
        ("sub", "is a directory"),
        (".", "not a file name"),
        ("..", "not a file name"),
        ("sub/", "not a file name"),
        ("missing/book.json", "does not exist"),
    ] {
        // Work of hours (Kalah(6,6), no database): a refusal after it would meet the
        // hang guard instead.
        let args = [
            "export",
            "--houses",
            "6",
            "--seeds",
            "6",
            "--depth",
            "3",
            "--threads",
            "1",
            "--egdb-seeds",
            "0",
            "-q",
            "-o",
            path,
        ];
        let out = kalah_in(dir.path(), &args);
        assert_eq!(out.status.code(), Some(2), "{path}: {}", stderr(&out));
        assert!(stderr(&out).contains(says), "{path}: {}", stderr(&out));
    }
    let left: Vec<_> = walk(dir.path());
    assert_eq!(left, vec![sub], "nothing written");
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        out.push(p.clone());
        if p.is_dir() {
            out.extend(walk(&p));
        }
    }
    out
}

#[test]
fn a_second_run_on_the_same_output_fails_at_once() {
    let dir = scratch();
    // The first run holds the lock while it waits for its input.
    let mut first = kalah_command(&strs(&with(&BATCH, &["-o", "out.jsonl"])))
        .current_dir(dir.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let lock = dir.path().join("out.jsonl.kalah-lock");
    let pid = first.id();
    assert!(wait_for(&mut first, || holds_flock(pid, &lock)));
    // A second run that waited for the lock would wait for the first run's input, which
    // never ends: the hang guard.
    for extra in [&[][..], &["--resume"][..]] {
        let second = kalah_in(
            dir.path(),
            &strs(&with(&BATCH, &[&["-o", "out.jsonl"][..], extra].concat())),
        );
        assert_eq!(second.status.code(), Some(2));
        assert!(
            stderr(&second).contains("out.jsonl is being written by another kalah process"),
            "{}",
            stderr(&second)
        );
    }
    // Another export on the same file is refused the same way.
    let export = kalah_in(dir.path(), &strs(&with(&SMALL_EXPORT, &["out.jsonl"])));
    assert_eq!(export.status.code(), Some(2));
    first.stdin.take().unwrap().write_all(b"1\n2\n").unwrap();
    let out = first.wait_with_output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let text = std::fs::read_to_string(dir.path().join("out.jsonl")).unwrap();
    assert_eq!(answers(&text).len(), 2, "every answer once");
    assert!(!lock.exists(), "the lock file goes with the run");
}

#[test]
fn batch_resume_cuts_off_a_line_cut_short_even_with_nothing_left_to_answer() {
    let dir = scratch();
    std::fs::write(dir.path().join("in.txt"), "1\n2\n3\n").unwrap();
    let out_file = dir.path().join("out.jsonl");
    let run = |more: &[&str]| {
        let args = with(&BATCH, &[&["in.txt", "-o", "out.jsonl"][..], more].concat());
        kalah_in(dir.path(), &strs(&args))
    };
    assert!(run(&[]).status.success());
    let full = std::fs::read_to_string(&out_file).unwrap();
    // Every answer, then what a kill left of a line (no line break): resuming with every
    // position answered used to keep it.
    for kept in [3, 2, 0] {
        let mut text: String = full.lines().take(kept).map(|l| format!("{l}\n")).collect();
        text.push_str("{\"best_turn\":\"2\",\"inp");
        std::fs::write(&out_file, &text).unwrap();
        let out = run(&["--resume"]);
        assert!(out.status.success(), "{kept}: {}", stderr(&out));
        let resumed = std::fs::read_to_string(&out_file).unwrap();
        assert!(resumed.ends_with('\n'), "{kept}: {resumed}");
        // Whole answer lines only, each input answered once.
        assert_eq!(answers(&resumed), answers(&full), "{kept}");
    }
}

#[test]
fn batch_resume_with_other_rules_is_refused() {
    let dir = scratch();
    std::fs::write(dir.path().join("in.txt"), "1\n2\n3\n4\n").unwrap();
    let run = |more: &[&str]| {
        let args = with(&BATCH, &[&["in.txt", "-o", "out.jsonl"][..], more].concat());
        kalah_in(dir.path(), &strs(&args))
    };
    assert!(run(&[]).status.success());
    let full = std::fs::read_to_string(dir.path().join("out.jsonl")).unwrap();
    // Two answers kept, as after an interruption, then resumed under other rules.
    let two: String = full.lines().take(2).map(|l| format!("{l}\n")).collect();
    std::fs::write(dir.path().join("out.jsonl"), &two).unwrap();
    let out = run(&["--resume", "--capture", "empty"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("capture=standard"),
        "{}",
        stderr(&out)
    );
    assert!(stderr(&out).contains("capture=empty"), "{}", stderr(&out));
    assert_eq!(
        std::fs::read_to_string(dir.path().join("out.jsonl")).unwrap(),
        two
    );
    // With the same rules it goes on.
    assert!(run(&["--resume"]).status.success());
    assert_eq!(
        answers(&std::fs::read_to_string(dir.path().join("out.jsonl")).unwrap()),
        answers(&full)
    );
}

#[test]
fn export_resume_from_another_exports_work_is_refused() {
    use kalah_io::{seal, Header};
    let dir = scratch();
    let game = Game::new(Rules::kalah(3, 2)).unwrap();
    let header = |rules: String, depth: &str| {
        Header::new(
            "export-partial",
            &[
                ("rules", rules),
                ("start", game.start().to_string()),
                ("depth", depth.to_string()),
            ],
        )
        .line()
    };
    let partial = dir.path().join("book.json.partial");
    let empty = Rules {
        capture: kalah_core::Capture::Empty,
        ..Rules::kalah(3, 2)
    };
    for (head, says) in [
        (
            header(empty.to_string(), "2"),
            "capture=empty end=row-empty leftovers=owner in the file",
        ),
        (header(game.rules().to_string(), "3"), "depth: 2 here, 3"),
        (
            "# kalah export: an older file".to_string(),
            "not written by",
        ),
    ] {
        std::fs::write(
            &partial,
            format!("{head}\n{}\n", seal("2,2,2,0,2,2,2,0:N 0")),
        )
        .unwrap();
        let out = kalah_in(dir.path(), &strs(&with(&SMALL_EXPORT, &["book.json"])));
        assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
        assert!(stderr(&out).contains(says), "{}", stderr(&out));
        assert!(!dir.path().join("book.json").exists());
    }
}

/// A batch of several hundred positions on standard input writing to `output`, its input
/// left open: a batch that went on after a failed write would answer them all, then wait
/// for more input (the hang guard), rather than stop.
fn batch_with_open_input(output: &str) -> (Child, std::process::ChildStdin) {
    let mut child = kalah_command(&strs(&with(&BATCH, &["-o", output])))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    input.write_all(batch_input().as_bytes()).unwrap();
    input.flush().unwrap();
    (child, input)
}

#[test]
fn a_full_disk_or_closed_pipe_stops_the_run_with_an_error() {
    let dir = scratch();
    // The batch stops at the first answer it cannot write.
    let (child, input) = batch_with_open_input("/dev/full");
    let out = finish(child, "a batch writing to a full disk");
    drop(input);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("No space left on device"),
        "{}",
        stderr(&out)
    );
    let out = kalah_in(dir.path(), &strs(&with(&SMALL_EXPORT, &["/dev/full"])));
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("No space left on device"),
        "{}",
        stderr(&out)
    );
    // A pipe whose reader has gone: the batch stops at the first answer it cannot write.
    let (mut child, input) = batch_with_open_input("/dev/stdout");
    let mut first = [0u8; 1];
    child.stdout.take().unwrap().read_exact(&mut first).unwrap();
    let out = finish(child, "a batch writing to a closed pipe");
    drop(input);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("Broken pipe"), "{}", stderr(&out));
}

#[test]
fn a_line_that_is_not_utf8_is_answered_and_the_batch_goes_on() {
    let dir = scratch();
    std::fs::write(dir.path().join("in.txt"), b"1\n2 \xff\xfe 3\n3\n").unwrap();
    let out = kalah_in(dir.path(), &strs(&with(&BATCH, &["in.txt"])));
    assert!(out.status.success(), "{}", stderr(&out));
    let answers = answers(&String::from_utf8(out.stdout).unwrap());
    assert_eq!(answers.len(), 3);
    assert!(answers[0]["value"].is_i64());
    assert!(answers[1]["error"].as_str().unwrap().contains("UTF-8"));
    assert_eq!(answers[1]["line"], 2);
    assert!(answers[2]["value"].is_i64());
}

#[test]
fn batch_answers_standard_input_as_it_comes() {
    let mut child = kalah_command(&BATCH)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    // More than the batch reads ahead, then wait for the first answer with the pipe open.
    stdin.write_all(b"1\n2\n3\n4\n1 5\n").unwrap();
    stdin.flush().unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    let reader = std::thread::spawn(move || {
        let mut first = [0u8; 1];
        stdout.read_exact(&mut first).unwrap();
        tx.send(()).unwrap();
        let mut rest = String::new();
        stdout.read_to_string(&mut rest).unwrap();
        rest
    });
    let answered = rx.recv_timeout(guard::HANG_GUARD).is_ok();
    drop(stdin);
    if !answered {
        child.kill().unwrap();
    }
    let out = child.wait_with_output().unwrap();
    assert!(answered, "no answer before the end of the input");
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(reader.join().unwrap().lines().count(), 5);
}

#[test]
fn batch_killed_then_resumed_gives_the_uninterrupted_answers() {
    let dir = scratch();
    std::fs::write(dir.path().join("in.txt"), batch_input()).unwrap();
    let reference = kalah_in(dir.path(), &strs(&with(&BATCH, &["in.txt"])));
    assert!(reference.status.success());
    let reference = answers(&String::from_utf8(reference.stdout).unwrap());
    assert!(reference.len() > 200);

    let args = with(&BATCH, &["in.txt", "-o", "out.jsonl"]);
    let out = dir.path().join("out.jsonl");
    let mut child = kalah_command(&strs(&args))
        .current_dir(dir.path())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let killed = wait_for(&mut child, || lines_in(&out) >= 20);
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(killed, "the batch ended before it could be killed");
    // Half a line, as a kill in the middle of a write leaves.
    let mut f = std::fs::OpenOptions::new().append(true).open(&out).unwrap();
    f.write_all(b"{\"line\":9").unwrap();
    drop(f);
    let resumed = kalah_in(
        dir.path(),
        &strs(&with(&BATCH, &["in.txt", "-o", "out.jsonl", "--resume"])),
    );
    assert!(resumed.status.success(), "{}", stderr(&resumed));
    assert_eq!(answers(&std::fs::read_to_string(&out).unwrap()), reference);
}

/// Runs the long export into `book.json`, kills it once its partial file holds
/// `records` values, and returns the partial file's path.
fn killed_export(dir: &Path, records: usize) -> PathBuf {
    let partial = dir.join("book.json.partial");
    let mut child = kalah_command(&strs(&with(&LONG_EXPORT, &["book.json"])))
        .current_dir(dir)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let killed = wait_for(&mut child, || lines_in(&partial) > records);
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(killed, "the export ended before it could be killed");
    assert!(!dir.join("book.json").exists(), "no half table");
    partial
}

#[test]
fn export_killed_then_resumed_is_byte_identical_and_damaged_records_are_solved_again() {
    let dir = scratch();
    let reference = kalah_in(dir.path(), &strs(&with(&LONG_EXPORT, &["ref.json"])));
    assert!(reference.status.success(), "{}", stderr(&reference));
    let reference = std::fs::read(dir.path().join("ref.json")).unwrap();

    // Killed, then resumed as it was.
    let partial = killed_export(dir.path(), 40);
    let resumed = kalah_in(dir.path(), &strs(&with(&LONG_EXPORT, &["book.json"])));
    assert!(resumed.status.success(), "{}", stderr(&resumed));
    assert_eq!(
        std::fs::read(dir.path().join("book.json")).unwrap(),
        reference
    );
    assert!(!partial.exists());
    std::fs::remove_file(dir.path().join("book.json")).unwrap();

    // Killed, then two values damaged: a bit flipped, a value edited by hand.
    let partial = killed_export(dir.path(), 40);
    let text = std::fs::read_to_string(&partial).unwrap();
    // Whole records only (a kill in the middle of a write leaves one cut short).
    let whole = &text[..text.rfind('\n').unwrap() + 1];
    let mut lines: Vec<String> = whole.lines().map(str::to_string).collect();
    let flip = |line: &str, at: usize| {
        let mut bytes = line.as_bytes().to_vec();
        bytes[at] ^= 0x01;
        String::from_utf8(bytes).unwrap()
    };
    lines[1] = flip(&lines[1], 0);
    let value_end = lines[2].find('\t').unwrap();
    lines[2] = flip(&lines[2], value_end - 1);
    std::fs::write(&partial, lines.join("\n") + "\n").unwrap();
    let resumed = kalah_in(dir.path(), &strs(&with(&LONG_EXPORT, &["book.json"])));
    assert!(resumed.status.success(), "{}", stderr(&resumed));
    assert!(
        stderr(&resumed).contains("warning: 2 values"),
        "{}",
        stderr(&resumed)
    );
    assert_eq!(
        std::fs::read(dir.path().join("book.json")).unwrap(),
        reference
    );
}

#[test]
fn ctrl_c_while_export_enumerates_the_table_stops_it_at_once() {
    let dir = scratch();
    // Enumerating ten turns of Kalah(4,3) (2.5 million positions) takes many seconds,
    // solving them far longer; it fits in the memory of any machine that runs the tests
    // (Kalah(6,4) to eight turns, once the case here, is now refused before it starts).
    let args = [
        "export",
        "--houses",
        "4",
        "--seeds",
        "3",
        "--depth",
        "10",
        "-q",
        "-o",
        "book.json",
    ];
    let mut child = kalah_command(&args)
        .current_dir(dir.path())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The output is locked after Ctrl-C is caught and just before the enumeration.
    let pid = child.id();
    let lock = dir.path().join("book.json.kalah-lock");
    assert!(wait_for(&mut child, || holds_flock(pid, &lock)));
    let sent = Command::new("kill")
        .args(["-INT", &pid.to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
    let out = finish(child, "an export after Ctrl-C");
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    // Stopped in the enumeration: no value solved, no partial file begun.
    assert!(
        stderr(&out).contains("interrupted (Ctrl-C or a signal): nothing solved yet"),
        "{}",
        stderr(&out)
    );
    assert!(!dir.path().join("book.json.partial").exists());
    assert!(!dir.path().join("book.json").exists());
}

#[test]
fn an_export_too_large_for_the_memory_is_refused_at_once_naming_a_depth_that_fits() {
    // Once, this reached 3.5 GB in 15 s, then aborted on an allocation and
    // left its lock file behind.
    let dir = scratch();
    let out = kalah_in(
        dir.path(),
        &[
            "export",
            "--houses",
            "6",
            "--seeds",
            "6",
            "--depth",
            "50",
            "-o",
            "x.json",
            "--threads",
            "1",
        ],
    );
    assert_refused(
        &out,
        &[
            "an export of depth 50 does not fit in memory",
            "estimated from its first",
        ],
    );
    let err = stderr(&out);
    let depth: u32 = err
        .split("choose --depth ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .and_then(|d| d.parse().ok())
        .unwrap_or_else(|| panic!("no depth named: {err}"));
    assert!((1..50).contains(&depth), "{err}");
    // Nothing left: no table, no partial file, no lock.
    assert_eq!(walk(dir.path()), Vec::<PathBuf>::new());
}

#[test]
fn the_depth_an_oversized_export_names_fits_its_bound() {
    use kalah_analysis::export::{plan_bounded, PlanError};
    use std::sync::atomic::AtomicBool;
    let game = Game::new(Rules::kalah(4, 3)).unwrap();
    let never = AtomicBool::new(false);
    let bound = 1_000_000;
    // Twenty turns of Kalah(4,3): refused in its first turns, long before the bound.
    let Err(PlanError::TooLarge(e)) = plan_bounded(&game, &game.start(), 20, bound, &never) else {
        panic!("not refused")
    };
    assert!(e.positions < bound && e.turns < 20, "{e:?}");
    let fits = e.fits.expect("a depth fits");
    assert!(fits >= 4, "{e:?}");
    // That depth is a table (and the positions just past it) within the bound.
    let plan = plan_bounded(&game, &game.start(), fits, bound, &never).unwrap();
    assert!(plan.positions.len() + plan.frontier.len() <= bound);
    assert_eq!(plan.positions.len(), plan_size(&game, fits));
}

/// The positions of the unbounded table of `depth` turns of `game`.
fn plan_size(game: &Game, depth: u32) -> usize {
    plan(game, &game.start(), depth).positions.len()
}

#[test]
fn openings_and_pie_write_their_output_whole_and_check_it_first() {
    let dir = scratch();
    std::fs::create_dir(dir.path().join("sub")).unwrap();
    for command in ["openings", "pie"] {
        let args = |path: &str| {
            [
                command,
                "--houses",
                "3",
                "--seeds",
                "2",
                "--json",
                "--threads",
                "1",
                "-q",
                "-o",
                path,
            ]
            .map(str::to_string)
        };
        let out = kalah_in(dir.path(), &strs(&args("out.json")));
        assert!(out.status.success(), "{command}: {}", stderr(&out));
        assert!(out.stdout.is_empty());
        let v: Value =
            serde_json::from_str(&std::fs::read_to_string(dir.path().join("out.json")).unwrap())
                .unwrap();
        assert!(v["value"].is_i64(), "{command}");
        let refused = kalah_in(dir.path(), &strs(&args("sub")));
        assert_eq!(refused.status.code(), Some(2), "{command}");
        assert!(stderr(&refused).contains("is a directory"));
    }
}

#[test]
fn memory_requests_too_large_are_errors_not_aborts() {
    // A table of a TiB and a database of a billion billion entries: more than any machine
    // that runs these tests has.
    for (args, flag) in [
        (
            &[
                "solve",
                "--houses",
                "4",
                "--seeds",
                "3",
                "--hash-mb",
                "1048576",
            ][..],
            "--hash-mb",
        ),
        (
            &[
                "solve",
                "--houses",
                "8",
                "--seeds",
                "15",
                "--egdb-seeds",
                "100",
            ][..],
            "--egdb-seeds",
        ),
        // The early stop's database.
        (
            &[
                "solve",
                "--rules",
                "online",
                "--houses",
                "8",
                "--seeds",
                "15",
                "--egdb-seeds",
                "100",
            ][..],
            "--egdb-seeds",
        ),
    ] {
        let out = kalah_command(args).output().expect("kalah runs");
        let said = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {said}");
        assert!(said.contains("at most") && said.contains(flag), "{said}");
        assert!(!said.contains("panicked"), "{said}");
    }
}

#[test]
fn a_damaged_file_in_a_database_directory_is_passed_over() {
    let dir = scratch();
    let dbs = dir.path().join("dbs");
    std::fs::create_dir(&dbs).unwrap();
    for (k, name) in [("8", "small.egdb"), ("10", "large.egdb")] {
        let out = egdb_build(dir.path(), "4", k, &format!("dbs/{name}"));
        assert!(out.status.success(), "{}", stderr(&out));
    }
    let solve = |extra: &[&str], path_var: Option<&Path>| -> (Value, String) {
        let mut cmd = kalah_command(
            &[
                &[
                    "solve",
                    "--houses",
                    "4",
                    "--seeds",
                    "3",
                    "--threads",
                    "1",
                    "--json",
                ][..],
                extra,
            ]
            .concat(),
        );
        if let Some(path) = path_var {
            cmd.env("KALAH_EGDB_PATH", path);
        }
        let out = cmd.output().expect("kalah runs");
        assert!(out.status.success(), "{}", stderr(&out));
        (serde_json::from_slice(&out.stdout).unwrap(), stderr(&out))
    };
    let (plain, _) = solve(&["--egdb-seeds", "0"], None);
    let (good, _) = solve(&["--egdb", dbs.to_str().unwrap()], None);
    assert!(good["egdb_file"].as_str().unwrap().ends_with("large.egdb"));

    // Damage the larger file, which a 24-seed game picks first.
    let large = dbs.join("large.egdb");
    let mut bytes = std::fs::read(&large).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0x21;
    std::fs::write(&large, &bytes).unwrap();
    let dir_arg = dbs.to_str().unwrap();
    for (extra, var) in [
        (&["--egdb", dir_arg][..], None),
        (&[][..], Some(dbs.as_path())),
    ] {
        let (json, said) = solve(extra, var);
        assert_eq!(json["value"], plain["value"]);
        assert!(
            json["egdb_file"].as_str().unwrap().ends_with("small.egdb"),
            "{json}"
        );
        assert!(
            said.contains("passed over") && said.contains("large.egdb"),
            "{said}"
        );
    }
    // KALAH_EGDB_PATH may name a file, too.
    let small = dbs.join("small.egdb");
    let (json, _) = solve(&[], Some(&small));
    assert_eq!(json["egdb_file"], small.to_str().unwrap());
    assert_eq!(json["value"], plain["value"]);
}

#[test]
fn egdb_build_checks_its_output_before_any_work() {
    let dir = scratch();
    let build = |out: &str| egdb_build(dir.path(), "3", "6", out);
    for bad in [".", "..", "missing/db.egdb", "sub/"] {
        let out = build(bad);
        assert_eq!(out.status.code(), Some(2), "{bad}: {}", stderr(&out));
        assert!(!stderr(&out).contains("panicked"));
    }
    assert!(walk(dir.path()).is_empty(), "{:?}", walk(dir.path()));
    // A symlink is never written through: refused, and nothing is built at its target.
    std::os::unix::fs::symlink("real.egdb", dir.path().join("link.egdb")).unwrap();
    let out = build("link.egdb");
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("symbolic link"), "{}", stderr(&out));
    assert!(dir.path().join("link.egdb").is_symlink());
    assert!(!dir.path().join("real.egdb").exists());
    // Built to the target itself, it is a database that `egdb info` reads through the link.
    let out = build("real.egdb");
    assert!(out.status.success(), "{}", stderr(&out));
    let info = kalah_in(dir.path(), &["egdb", "info", "link.egdb"]);
    assert!(info.status.success(), "{}", stderr(&info));
}

#[test]
fn egdb_build_killed_then_resumed_is_byte_identical() {
    let dir = scratch();
    let build = |out: &str| {
        let mut cmd = kalah_command(&[
            "egdb",
            "build",
            "--houses",
            "6",
            "--max-seeds",
            "16",
            "--out",
            out,
            "-q",
        ]);
        cmd.current_dir(dir.path())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        cmd
    };
    let whole = build("whole.egdb").output().unwrap();
    assert!(whole.status.success(), "{}", stderr(&whole));

    // Killed once its partial file holds 12 of the 17 levels (the last ones are the
    // largest, so the build is far from done): byte 18 of the header counts them.
    let partial = dir.path().join("cut.egdb.partial");
    let mut child = build("cut.egdb").spawn().unwrap();
    let started = wait_for(&mut child, || {
        let mut header = [0u8; 19];
        std::fs::File::open(&partial)
            .and_then(|mut f| std::io::Read::read_exact(&mut f, &mut header))
            .is_ok_and(|()| header[18] >= 12)
    });
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(started, "the build ended before it could be killed");
    assert!(!dir.path().join("cut.egdb").exists(), "no half database");

    assert!(partial.exists(), "the killed build left its partial file");
    let resumed = build("cut.egdb").output().unwrap();
    assert!(resumed.status.success(), "{}", stderr(&resumed));
    assert!(!partial.exists());
    assert_eq!(
        std::fs::read(dir.path().join("cut.egdb")).unwrap(),
        std::fs::read(dir.path().join("whole.egdb")).unwrap()
    );
}

#[test]
fn a_flipped_rules_byte_in_a_database_header_is_damage() {
    let dir = scratch();
    let out = egdb_build(dir.path(), "3", "6", "db.egdb");
    assert!(out.status.success(), "{}", stderr(&out));
    let file = dir.path().join("db.egdb");
    let mut bytes = std::fs::read(&file).unwrap();
    bytes[14] ^= 1; // capture: standard -> empty
    std::fs::write(&file, &bytes).unwrap();
    for args in [
        &["egdb", "info", "db.egdb"][..],
        &[
            "solve",
            "--houses",
            "3",
            "--seeds",
            "2",
            "--capture",
            "empty",
            "--egdb",
            "db.egdb",
        ][..],
    ] {
        let out = kalah_in(dir.path(), args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(stderr(&out).contains("checksum"), "{}", stderr(&out));
    }
}

#[test]
fn a_truncated_database_file_is_an_error_not_a_crash() {
    let dir = scratch();
    let out = egdb_build(dir.path(), "4", "8", "db.egdb");
    assert!(out.status.success(), "{}", stderr(&out));
    let file = dir.path().join("db.egdb");
    let bytes = std::fs::read(&file).unwrap();
    for keep in [bytes.len() / 2, 40, 0] {
        std::fs::write(&file, &bytes[..keep]).unwrap();
        for args in [
            &["egdb", "info", "db.egdb"][..],
            &[
                "solve", "--houses", "4", "--seeds", "3", "--egdb", "db.egdb",
            ][..],
            &[
                "egdb",
                "probe",
                "db.egdb",
                "--position",
                "1,0,0,0,0,1,0,0,0,0:S",
            ][..],
        ] {
            let out = kalah_in(dir.path(), args);
            assert_eq!(out.status.code(), Some(2), "{keep} bytes, {args:?}");
            assert!(!stderr(&out).contains("panicked"), "{}", stderr(&out));
        }
    }
}

/// A split of Kalah(4,3) to depth 2 in `dir/s` (`manifest.json`, `units.jsonl`).
fn small_split(dir: &Path) {
    let out = kalah_in(
        dir,
        &[
            "split", "--houses", "4", "--seeds", "3", "--depth", "2", "--out", "s",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
}

/// Asserts a clean refusal: exit status 2, no panic, and every one of `says` in the
/// message.
fn assert_refused(out: &Output, says: &[&str]) {
    let err = stderr(out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    for s in says {
        assert!(err.contains(s), "{s:?} not in: {err}");
    }
}

#[test]
fn a_refused_split_leaves_no_directory_it_created() {
    // Once, a split refused for its size left an empty --out behind.
    let dir = scratch();
    let out = kalah_in(
        dir.path(),
        &[
            "split", "--houses", "4", "--seeds", "3", "--depth", "24", "--out", "new/s",
        ],
    );
    assert_refused(&out, &["does not fit in memory", "choose --depth"]);
    assert_eq!(walk(dir.path()), Vec::<PathBuf>::new(), "nothing left");
    // A directory that was there stays, with what it holds.
    small_split(dir.path());
    let before = walk(dir.path());
    let out = kalah_in(
        dir.path(),
        &[
            "split", "--houses", "4", "--seeds", "3", "--depth", "1", "--out", "s",
        ],
    );
    assert_refused(&out, &["holds another split"]);
    assert_eq!(walk(dir.path()), before);
    let empty = dir.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    let out = kalah_in(
        dir.path(),
        &[
            "split", "--houses", "4", "--seeds", "3", "--depth", "24", "--out", "empty",
        ],
    );
    assert_refused(&out, &["does not fit in memory"]);
    assert!(empty.is_dir(), "a directory split did not create is kept");
}

#[test]
fn an_endless_input_line_is_refused_with_its_file_line_and_limit() {
    // Once, `kalah batch /dev/zero` read one line until the allocator aborted.
    let dir = scratch();
    if Path::new("/dev/zero").exists() {
        let out = kalah_in(dir.path(), &strs(&with(&BATCH, &["/dev/zero"])));
        assert_refused(&out, &["/dev/zero", "line 1 ", "1 MiB"]);
    }
    // The line before an over-long one is answered, then the batch stops.
    let mut text = b"4,3,3,3,0,3,3,3,3,0:S\n".to_vec();
    text.extend(vec![b'1'; (1 << 20) + 1]);
    text.extend(b"\n4,3,3,3,0,3,3,3,3,0:S\n");
    std::fs::write(dir.path().join("long.txt"), &text).unwrap();
    let out = kalah_in(dir.path(), &strs(&with(&BATCH, &["long.txt"])));
    assert_refused(&out, &["long.txt", "line 2 ", "1 MiB"]);
    assert_eq!(answers(&String::from_utf8_lossy(&out.stdout)).len(), 1);
    // merge reads its answers and its manifest bounded too.
    small_split(dir.path());
    std::fs::write(dir.path().join("long.jsonl"), &text[22..]).unwrap();
    let out = kalah_in(
        dir.path(),
        &["merge", "s/manifest.json", "long.jsonl", "-q"],
    );
    assert_refused(&out, &["long.jsonl", "line 1 ", "1 MiB"]);
    if Path::new("/dev/zero").exists() {
        let out = kalah_in(dir.path(), &["merge", "s/manifest.json", "/dev/zero", "-q"]);
        assert_refused(&out, &["/dev/zero", "line 1 "]);
        // A file read whole is bounded: bench's positions.
        let out = kalah_in(dir.path(), &["bench", "--file", "/dev/zero"]);
        assert_refused(&out, &["/dev/zero", "larger than 64 MiB"]);
    }
}

#[test]
fn a_damaged_first_unit_is_an_error_for_its_line_only() {
    // Once, a malformed first unit made the batch take Kalah(6,4) and fail
    // every later unit for its rules.
    let dir = scratch();
    small_split(dir.path());
    let units = std::fs::read_to_string(dir.path().join("s/units.jsonl")).unwrap();
    let first = units.lines().next().unwrap();
    let damaged = units.replacen(first, &first[..first.len() / 2], 1);
    std::fs::write(dir.path().join("damaged.jsonl"), &damaged).unwrap();
    let out = kalah_in(
        dir.path(),
        &["batch", "damaged.jsonl", "--threads", "1", "-q"],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let answers = answers(&String::from_utf8(out.stdout).unwrap());
    assert_eq!(answers.len(), units.lines().count());
    assert!(answers[0]["error"].as_str().unwrap().contains("work unit"));
    for a in &answers[1..] {
        assert!(a.get("error").is_none(), "{a}");
        assert!(
            a["rules"].as_str().unwrap().starts_with("Kalah(4,3)"),
            "{a}"
        );
    }
}

#[test]
fn rule_options_the_family_lacks_are_refused_even_at_the_familys_own_value() {
    // Once, `--rules general|nigerian|oware --capture standard` was accepted
    // and ignored, where `--capture empty` was refused.
    let dir = scratch();
    for (args, says) in [
        (
            &["--rules", "general", "--capture", "standard"][..],
            "no capture option",
        ),
        (
            &["--rules", "nigerian", "--capture", "standard"],
            "no capture option",
        ),
        (
            &["--rules", "oware", "--capture", "standard"],
            "no capture option",
        ),
        (
            &["--rules", "oware", "--end", "mover-stuck"],
            "own end of game",
        ),
        (
            &["--rules", "ethiopian", "--leftovers", "discard"],
            "own end of game",
        ),
        (&["--grand-slam", "no-capture"], "grand slam"),
    ] {
        for command in [
            &["show"][..],
            &["egdb", "build", "--max-seeds", "2", "--out", "x.egdb"],
        ] {
            let all: Vec<&str> = command.iter().chain(args).copied().collect();
            let out = kalah_in(dir.path(), &all);
            assert_refused(&out, &[says]);
        }
    }
    assert!(!dir.path().join("x.egdb").exists());
}

#[test]
fn a_cache_cap_that_is_no_size_is_an_error_not_the_default() {
    // Once, `KALAH_CACHE_MAX_MB=garbage` (or -5, 0.1, empty) became 8192.
    let dir = scratch();
    let solve = |max: &str| {
        let child = kalah_command(&["solve", "--houses", "3", "--seeds", "2", "-q"])
            .current_dir(dir.path())
            .env("KALAH_CACHE", dir.path().join("cache"))
            .env("KALAH_CACHE_MAX_MB", max)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the kalah binary runs");
        finish(
            child,
            &format!("kalah solve with KALAH_CACHE_MAX_MB={max:?}"),
        )
    };
    for bad in ["garbage", "-5", "0.1", "", "0"] {
        assert_refused(&solve(bad), &["KALAH_CACHE_MAX_MB", "whole number of MiB"]);
    }
    let out = solve("64");
    assert!(out.status.success(), "{}", stderr(&out));
}

#[test]
fn database_options_are_refused_where_the_family_keeps_no_database() {
    // Once, `--rules oware --egdb /nonexistent.egdb` exited 0; the table and
    // the deepening were ignored the same way. These families read database files of
    // the cycle rule now: a missing one is an error that names it, as for Kalah.
    let dir = scratch();
    for family in ["oware", "ethiopian"] {
        let args = ["solve", "--rules", family, "--houses", "3", "--seeds", "2"];
        let out = kalah_in(
            dir.path(),
            &[&args[..], &["--egdb", "/nonexistent.egdb"]].concat(),
        );
        assert_refused(&out, &["/nonexistent.egdb"]);
    }
    for db in [
        &["--egdb-seeds", "5"][..],
        &["--hash-mb", "64"],
        &["--deepening", "4"],
    ] {
        for family in ["oware", "ethiopian"] {
            let mut args = vec!["solve", "--rules", family, "--houses", "3", "--seeds", "2"];
            args.extend(db);
            let out = kalah_in(dir.path(), &args);
            assert_refused(&out, &["has no endgame database", db[0]]);
        }
    }
    // A missing file is an error for the families that have databases.
    let out = kalah_in(
        dir.path(),
        &[
            "solve",
            "--houses",
            "3",
            "--seeds",
            "2",
            "--egdb",
            "/nonexistent.egdb",
        ],
    );
    assert_refused(&out, &["/nonexistent.egdb"]);
}

#[test]
fn the_table_reported_is_the_table_allocated_and_errors_name_the_flag_given() {
    // Once, `--hash-mb 20000` reported 20000 where 16384 MiB is allocated
    // (the table is a power of two); `egdb build --max-seeds 255` spoke of --seeds.
    let dir = scratch();
    let out = kalah_in(
        dir.path(),
        &[
            "solve",
            "--houses",
            "2",
            "--seeds",
            "1",
            "--hash-mb",
            "3",
            "--json",
            "-q",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["hash_mb"], 2, "{v}");
    let out = egdb_build(dir.path(), "4", "255", "x.egdb");
    assert_refused(&out, &["--max-seeds", "at most 127"]);
    assert!(!stderr(&out).contains("--seeds"), "{}", stderr(&out));
}

#[test]
fn play_refuses_an_endless_line_of_standard_input() {
    // Every line reader is bounded, the game's moves too.
    let mut child = kalah_command(&[
        "play", "--houses", "3", "--seeds", "2", "--engine", "greedy",
    ])
    .stdin(Stdio::piped())
    .stdout(Stdio::null())
    .stderr(Stdio::piped())
    .spawn()
    .expect("the kalah binary runs");
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        // Written until the reader stops reading (then the pipe is closed).
        let chunk = vec![b'1'; 1 << 16];
        for _ in 0..64 {
            if stdin.write_all(&chunk).is_err() {
                break;
            }
        }
    });
    let out = finish(child, "kalah play with an endless line");
    writer.join().unwrap();
    assert_refused(&out, &["standard input", "line 1 ", "1 MiB"]);
}

/// Runs the binary in `dir` with `env` set (over the defaults of [`kalah_command`]), to
/// its end (or the hang guard).
fn kalah_with_env(dir: &Path, env: &[(&str, &Path)], args: &[&str]) -> Output {
    let mut command = kalah_command(args);
    for (name, value) in env {
        command.env(name, value);
    }
    let child = command
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the kalah binary runs");
    finish(child, &format!("kalah {args:?} with {env:?}"))
}

#[test]
fn a_fifo_among_the_databases_is_passed_over_or_refused_by_name() {
    // The open of a FIFO blocks until something writes to it, so a FIFO named like a
    // database once hung every command that looked at it (the hang guard turns
    // that into a failure here). Only a regular file is a database: a FIFO in a directory
    // of databases or in the cache is passed over, one named is refused by name.
    let dir = scratch();
    let (d, cache) = (dir.path().join("d"), dir.path().join("cache"));
    std::fs::create_dir(&d).unwrap();
    std::fs::create_dir(&cache).unwrap();
    let fifo = |path: &Path| {
        let made = Command::new("mkfifo").arg(path).status().unwrap();
        assert!(made.success(), "mkfifo {}", path.display());
    };
    fifo(&d.join("x.egdb"));
    fifo(&cache.join("y.egdb"));
    let ok = |out: &Output, what: &str| {
        assert!(out.status.success(), "{what}: {}", stderr(out));
    };
    let solve = ["solve", "--houses", "3", "--seeds", "2", "--json"];
    fn solve_with<'a>(extra: &[&'a str]) -> Vec<&'a str> {
        [
            &["solve", "--houses", "3", "--seeds", "2", "--json"][..],
            extra,
        ]
        .concat()
    }
    // Scanned: the environment's directory, the cache (solves and `egdb cache list`).
    let out = kalah_with_env(dir.path(), &[("KALAH_EGDB_PATH", &d)], &solve);
    ok(&out, "KALAH_EGDB_PATH");
    let out = kalah_with_env(dir.path(), &[("KALAH_CACHE", &cache)], &solve);
    ok(&out, "KALAH_CACHE");
    let listing = ["egdb", "cache", "list", "--json"];
    let out = kalah_with_env(dir.path(), &[("KALAH_CACHE", &cache)], &listing);
    ok(&out, "egdb cache list");
    assert!(!String::from_utf8_lossy(&out.stdout).contains("y.egdb"));
    // A directory named holds no database (the FIFO is not one); a real one beside the
    // FIFO is found.
    let out = kalah_in(dir.path(), &solve_with(&["--egdb", "d"]));
    assert_refused(&out, &["holds no finished endgame database"]);
    let built = egdb_build(dir.path(), "3", "6", "d/k3.egdb");
    ok(&built, "egdb build");
    let out = kalah_in(dir.path(), &solve_with(&["--egdb", "d"]));
    ok(&out, "--egdb d");
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(v.to_string().contains("k3.egdb"), "{v}");
    // Named: refused by name, without being opened.
    for args in [
        solve_with(&["--egdb", "d/x.egdb"]),
        vec!["egdb", "info", "d/x.egdb"],
        vec![
            "egdb",
            "probe",
            "d/x.egdb",
            "--position",
            "0,0,1,0,0,1,0,0:S",
        ],
    ] {
        let out = kalah_in(dir.path(), &args);
        assert_refused(&out, &["d/x.egdb", "not a regular file"]);
    }
    // An interrupted build's partial file that is a FIFO is refused too, not read.
    fifo(&d.join("k4.egdb.partial"));
    let out = egdb_build(dir.path(), "3", "7", "d/k4.egdb");
    assert_refused(&out, &["d/k4.egdb.partial", "not a regular file"]);
}

#[test]
fn a_retrograde_solve_stays_within_the_address_space_limit() {
    // The memory budgets once read only /proc/meminfo, so under `ulimit -v`
    // (as under a Slurm `--mem` or a container's cgroup limit) the retrograde graph of
    // Oware grew past the limit and the allocator aborted (SIGABRT, status 134). The limit
    // is read now: the graph is refused when it would pass it, with an error that says
    // so (or the solve answers, where the graph fits).
    let dir = scratch();
    let kalah = env!("CARGO_BIN_EXE_kalah");
    let child = Command::new("sh")
        .args([
            "-c",
            "ulimit -v 250000 && exec \"$0\" solve --rules oware --houses 8 --seeds 1",
            kalah,
        ])
        .env_remove("KALAH_EGDB_PATH")
        .env("KALAH_CACHE", "off")
        .current_dir(dir.path())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("sh runs");
    let out = finish(child, "kalah solve --rules oware under ulimit -v");
    let err = stderr(&out);
    assert!(!err.contains("memory allocation"), "{err}");
    match out.status.code() {
        Some(0) => assert!(String::from_utf8_lossy(&out.stdout).contains("value")),
        Some(2) => assert!(
            err.contains("more than the memory available holds"),
            "{err}"
        ),
        other => panic!("status {other:?}: {err}"),
    }
}
