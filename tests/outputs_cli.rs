//! Outputs replace only what they wrote: every command with
//! an output path leaves a file of another kind, a read-only file and a symbolic link's
//! target alone unless --force, never writes onto one of its own inputs, and locks its
//! output by the file's identity, so that a hard link to it is the same output.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use crate::support::cli;
use crate::support::guard;
use cli::kalah;
use guard::{finish, holds_flock, wait_until};

const PRECIOUS: &str = "precious\n";

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Asserts a clean refusal: exit status 2, no panic, every one of `says` in the message.
fn assert_refused(out: &Output, says: &[&str]) {
    let err = stderr(out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    for s in says {
        assert!(err.contains(s), "{s:?} not in: {err}");
    }
}

fn assert_ok(out: &Output) {
    assert!(out.status.success(), "{}", stderr(out));
}

/// `path` as an argument.
fn arg(path: &Path) -> &str {
    path.to_str().expect("a UTF-8 scratch path")
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap()
}

/// `kalah export` of Kalah(4,3) to depth 1 to `path`, with `more`.
fn export(path: &Path, more: &[&str]) -> Output {
    let base = ["export", "--houses", "4", "--seeds", "3", "--depth", "1"];
    let tail = ["--threads", "1", "-q", "-o", arg(path)];
    kalah(&[&base[..], &tail, more].concat())
}

/// `kalah egdb build` of a 3-house database of 4 seeds to `path`, with `more`.
fn egdb_build(path: &Path, more: &[&str]) -> Output {
    let base = ["egdb", "build", "--houses", "3", "--max-seeds", "4", "-q"];
    kalah(&[&base[..], &["--out", arg(path)], more].concat())
}

/// `kalah split` of Kalah(4,3) to depth 2 into `dir`, with `more`.
fn split(dir: &Path, more: &[&str]) -> Output {
    let base = ["split", "--houses", "4", "--seeds", "3", "--depth", "2"];
    kalah(&[&base[..], &["--out", arg(dir)], more].concat())
}

/// `kalah openings` of Kalah(3,2) to `path`, with `more`.
fn openings(path: &Path, more: &[&str]) -> Output {
    let base = [
        "openings",
        "--houses",
        "3",
        "--seeds",
        "2",
        "--threads",
        "1",
    ];
    kalah(&[&base[..], &["-q", "-o", arg(path)], more].concat())
}

/// The options of a batch on Kalah(4,3).
const BATCH: [&str; 8] = [
    "batch",
    "--houses",
    "4",
    "--seeds",
    "3",
    "--threads",
    "1",
    "-q",
];

/// A file holding what a user wrote, in `dir`.
fn precious(dir: &Path, name: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, PRECIOUS).unwrap();
    path
}

fn make_read_only(path: &Path) {
    let mut perms = std::fs::metadata(path).unwrap().permissions();
    perms.set_readonly(true);
    std::fs::set_permissions(path, perms).unwrap();
}

#[test]
fn export_replaces_its_own_table_but_no_other_file_unless_forced() {
    let dir = tempfile::tempdir().unwrap();
    // Once, notes.txt became a table, with exit status 0.
    let notes = precious(dir.path(), "notes.txt");
    assert_refused(
        &export(&notes, &[]),
        &[
            "notes.txt exists and is not a table written by kalah export",
            "--force",
        ],
    );
    assert_eq!(read(&notes), PRECIOUS);
    // A table of its own is replaced as before, JSON and CSV alike.
    let book = dir.path().join("book.json");
    let csv = dir.path().join("book.csv");
    for path in [&book, &csv] {
        assert_ok(&export(path, &[]));
        let first = read(path);
        assert_ok(&export(path, &[]));
        assert_eq!(read(path), first);
    }
    // A read-only file, even a table, is left alone unless forced.
    let ro = precious(dir.path(), "ro.txt");
    make_read_only(&ro);
    assert_refused(&export(&ro, &[]), &["ro.txt exists and is not a table"]);
    assert_eq!(read(&ro), PRECIOUS);
    make_read_only(&book);
    assert_refused(&export(&book, &[]), &["book.json is read-only", "--force"]);
    // Forced, the file is replaced by the table.
    assert_ok(&export(&notes, &["--force"]));
    let table: serde_json::Value = serde_json::from_str(&read(&notes)).unwrap();
    assert!(table["count"].as_u64().unwrap() > 0);
}

#[cfg(unix)]
#[test]
fn no_output_writes_through_a_symbolic_link_to_its_target() {
    let dir = tempfile::tempdir().unwrap();
    let target = precious(dir.path(), "target.txt");
    let link = dir.path().join("link");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    let sample_dir = dir.path().join("s");
    std::fs::create_dir(&sample_dir).unwrap();
    std::os::unix::fs::symlink(&target, sample_dir.join("sample.jsonl")).unwrap();
    let mut batch = BATCH.to_vec();
    batch.extend(["/dev/null", "-o", arg(&link)]);
    let runs = [
        ("export", export(&link, &[])),
        ("egdb build", egdb_build(&link, &[])),
        ("openings", openings(&link, &[])),
        ("batch", kalah(&batch)),
        ("split --sample", split(&sample_dir, &["--sample", "5"])),
        (
            "merge --next",
            kalah(&["merge", "/nonexistent", "--next", arg(&link)]),
        ),
    ];
    for (command, out) in runs {
        assert_refused(&out, &["is a symbolic link to", "--force"]);
        assert_eq!(read(&target), PRECIOUS, "{command}");
        assert!(link.is_symlink(), "{command}");
    }
}

#[test]
fn egdb_build_replaces_a_database_but_no_other_file_and_never_its_from() {
    let dir = tempfile::tempdir().unwrap();
    let notes = precious(dir.path(), "notes.egdb");
    assert_refused(
        &egdb_build(&notes, &[]),
        &[
            "is not an endgame database written by kalah egdb build",
            "--force",
        ],
    );
    assert_eq!(read(&notes), PRECIOUS);
    assert!(!dir.path().join("notes.egdb.partial").exists());
    // A database is rebuilt in place, as before.
    let db = dir.path().join("k3.egdb");
    assert_ok(&egdb_build(&db, &[]));
    assert_ok(&egdb_build(&db, &[]));
    // The smaller file it starts from is never its output, under any name.
    let small = dir.path().join("small.egdb");
    let base = ["egdb", "build", "--houses", "3", "--max-seeds", "2", "-q"];
    assert_ok(&kalah(&[&base[..], &["--out", arg(&small)]].concat()));
    let hard = dir.path().join("hard.egdb");
    std::fs::hard_link(&small, &hard).unwrap();
    let before = std::fs::read(&small).unwrap();
    let out = egdb_build(&hard, &["--from", arg(&small), "--force"]);
    assert_refused(&out, &["is the file", "that this command reads"]);
    assert_eq!(std::fs::read(&small).unwrap(), before);
    // Forced, the foreign file becomes the database.
    assert_ok(&egdb_build(&notes, &["--force"]));
    let info = kalah(&["egdb", "info", arg(&notes)]);
    assert_ok(&info);
}

#[test]
fn split_and_its_sample_leave_files_that_are_no_split_s_alone() {
    let dir = tempfile::tempdir().unwrap();
    let s = dir.path().join("s");
    std::fs::create_dir(&s).unwrap();
    // Once, --sample replaced any sample.jsonl.
    let sample = precious(&s, "sample.jsonl");
    assert_refused(
        &split(&s, &["--sample", "5"]),
        &["sample.jsonl exists and is not work units", "--force"],
    );
    assert_eq!(read(&sample), PRECIOUS);
    assert_ok(&split(&s, &["--sample", "5", "--force"]));
    let first = read(&sample);
    assert!(first.lines().all(|l| l.contains("\"weight\"")), "{first}");
    // A sample of its own is replaced without --force.
    assert_ok(&split(&s, &["--sample", "5", "--seed", "2"]));
    // The split itself: a manifest.json or units.jsonl that is no split's is kept.
    for name in ["manifest.json", "units.jsonl"] {
        let other = dir.path().join(format!("other-{name}"));
        std::fs::create_dir(&other).unwrap();
        let file = precious(&other, name);
        assert_refused(&split(&other, &[]), &["exists and is not", "--force"]);
        assert_eq!(read(&file), PRECIOUS);
        assert_ok(&split(&other, &["--force"]));
        assert!(read(&other.join("manifest.json")).contains("kalah-split"));
    }
    // Another split in the directory is refused, and replaced only with --force.
    assert_ok(&split(&s, &[]));
    let deeper = ["--depth", "1"];
    let base = ["split", "--houses", "4", "--seeds", "3", "--out", arg(&s)];
    assert_refused(
        &kalah(&[&base[..], &deeper].concat()),
        &["holds another split", "--force"],
    );
    assert_ok(&kalah(&[&base[..], &deeper, &["--force"]].concat()));
}

#[test]
fn merge_next_never_writes_onto_its_manifest_or_answers() {
    let dir = tempfile::tempdir().unwrap();
    let s = dir.path().join("s");
    assert_ok(&split(&s, &[]));
    // Answers of the first 20 units.
    let units: String = read(&s.join("units.jsonl"))
        .lines()
        .take(20)
        .map(|l| format!("{l}\n"))
        .collect();
    let u20 = dir.path().join("u20.jsonl");
    std::fs::write(&u20, units).unwrap();
    let part = dir.path().join("part.jsonl");
    let mut batch = BATCH.to_vec();
    batch.extend([arg(&u20), "-o", arg(&part)]);
    assert_ok(&kalah(&batch));
    let answers = read(&part);
    let manifest_path = s.join("manifest.json");
    let manifest = read(&manifest_path);
    let hard = dir.path().join("hard.jsonl");
    std::fs::hard_link(&part, &hard).unwrap();
    let merge = |next: &Path, more: &[&str]| {
        let base = ["merge", arg(&manifest_path), arg(&part), "-q"];
        kalah(&[&base[..], &["--next", arg(next)], more].concat())
    };
    for next in [&part, &manifest_path, &hard] {
        for force in [&[][..], &["--force"]] {
            assert_refused(&merge(next, force), &["that this command reads"]);
            assert_eq!(read(&part), answers);
            assert_eq!(read(&manifest_path), manifest);
        }
    }
    // A file of units is the --next file's own kind: written, then replaced.
    let next = dir.path().join("next.jsonl");
    for _ in 0..2 {
        let out = merge(&next, &[]);
        assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
        assert!(read(&next).lines().count() > 0);
    }
    let notes = precious(dir.path(), "notes.jsonl");
    assert_refused(&merge(&notes, &[]), &["is not work units", "--force"]);
    assert_eq!(read(&notes), PRECIOUS);
}

/// `kalah batch` with `more` and its standard input read from the file `input`.
fn batch_reading(input: &Path, more: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_kalah"))
        .env_remove("KALAH_EGDB_PATH")
        .env("KALAH_CACHE", "off")
        .args(BATCH)
        .args(more)
        .stdin(std::fs::File::open(input).unwrap())
        .output()
        .expect("the kalah binary runs")
}

#[test]
fn batch_never_writes_onto_the_file_on_its_standard_input() {
    let dir = tempfile::tempdir().unwrap();
    let positions = dir.path().join("positions.txt");
    std::fs::write(&positions, "1\n2\n").unwrap();
    let link = dir.path().join("positions-link.txt");
    std::fs::hard_link(&positions, &link).unwrap();
    // `kalah batch -o positions.txt --force < positions.txt` replaced the positions by
    // their answers: standard input is an input, under any name, forced or not.
    for path in [&positions, &link] {
        for more in [&[][..], &["--force"], &["--resume"]] {
            let out = batch_reading(&positions, &[&["-o", arg(path)], more].concat());
            assert_refused(
                &out,
                &["is the file on standard input that this command reads"],
            );
            assert_eq!(read(&positions), "1\n2\n", "{more:?}");
        }
    }
    // Another output is written as before.
    let answers = dir.path().join("answers.jsonl");
    let out = batch_reading(&positions, &["-o", arg(&answers)]);
    assert_ok(&out);
    assert_eq!(read(&answers).lines().count(), 2);
}

#[cfg(target_os = "linux")]
#[test]
fn batch_never_writes_onto_its_input_through_dev_or_proc() {
    // `kalah batch -o /dev/stdin < positions.txt` replaced the positions by their
    // answers, with or without --force: a path under /dev or /proc was written through
    // without looking at what it reaches.
    let dir = tempfile::tempdir().unwrap();
    let positions = dir.path().join("positions.txt");
    std::fs::write(&positions, "1\n2\n").unwrap();
    for path in ["/dev/stdin", "/dev/fd/0", "/proc/self/fd/0"] {
        for force in [&[][..], &["--force"]] {
            let out = batch_reading(&positions, &[&["-o", path], force].concat());
            assert_refused(&out, &["on standard input", "write the output elsewhere"]);
            assert_eq!(read(&positions), "1\n2\n", "{path} {force:?}");
            // The input named as well, and standard input from it.
            let named = [&[arg(&positions), "-o", path], force].concat();
            let out = batch_reading(&positions, &named);
            assert_refused(&out, &["write the output elsewhere"]);
            assert_eq!(read(&positions), "1\n2\n", "{path} {force:?}");
        }
    }
    // Refused, it leaves no lock file behind either.
    let left: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(left, ["positions.txt"]);
    // Standard output, redirected to another file, is written through as before.
    let answers = dir.path().join("answers.jsonl");
    let out = Command::new(env!("CARGO_BIN_EXE_kalah"))
        .env_remove("KALAH_EGDB_PATH")
        .env("KALAH_CACHE", "off")
        .args(BATCH)
        .args([arg(&positions), "-o", "/dev/stdout"])
        .stdout(std::fs::File::create(&answers).unwrap())
        .output()
        .expect("the kalah binary runs");
    assert_ok(&out);
    assert_eq!(read(&answers).lines().count(), 2);
}

#[test]
fn openings_and_pie_replace_their_report_but_no_other_file() {
    let dir = tempfile::tempdir().unwrap();
    let notes = precious(dir.path(), "notes.txt");
    let report = dir.path().join("report.txt");
    for (command, more) in [("openings", &[][..]), ("pie", &["--json"][..])] {
        let run = |path: &Path, force: &[&str]| {
            let base = [command, "--houses", "3", "--seeds", "2", "--threads", "1"];
            kalah(&[&base[..], more, &["-q", "-o", arg(path)], force].concat())
        };
        assert_refused(&run(&notes, &[]), &["is not a report", "--force"]);
        assert_eq!(read(&notes), PRECIOUS, "{command}");
        assert_ok(&run(&report, &[]));
        assert_ok(&run(&report, &[]));
    }
    assert_ok(&openings(&notes, &["--force"]));
    assert!(read(&notes).starts_with("rules"));
}

#[test]
fn batch_output_is_locked_by_identity_so_a_hard_link_is_the_same_output() {
    let dir = tempfile::tempdir().unwrap();
    // Once, a run on c.jsonl and one on a hard link h.jsonl both ran.
    let c = dir.path().join("c.jsonl");
    std::fs::write(&c, "").unwrap();
    let h = dir.path().join("h.jsonl");
    std::fs::hard_link(&c, &h).unwrap();
    let mut first = Command::new(env!("CARGO_BIN_EXE_kalah"))
        .env_remove("KALAH_EGDB_PATH")
        .env("KALAH_CACHE", "off")
        .args(BATCH)
        .args(["-o", arg(&c), "--resume"])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let pid = first.id();
    wait_until("the first batch's lock on c.jsonl", || holds_flock(pid, &c));
    let mut second = BATCH.to_vec();
    second.extend(["-o", arg(&h), "--resume"]);
    assert_refused(
        &kalah(&second),
        &["is being written by another kalah process"],
    );
    first.stdin.take().unwrap().write_all(b"1\n2\n3\n").unwrap();
    let out = finish(first, "the first batch");
    assert_ok(&out);
    let answers = read(&c);
    assert_eq!(answers.lines().count(), 3);
    for line in answers.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        assert!(v["value"].is_i64(), "{line}");
    }
    // Its input, under any name, is never its output; a foreign file is left alone.
    let input = dir.path().join("in.txt");
    std::fs::write(&input, "1\n").unwrap();
    let input_link = dir.path().join("in-link.txt");
    std::fs::hard_link(&input, &input_link).unwrap();
    let mut onto_input = BATCH.to_vec();
    onto_input.extend([arg(&input), "-o", arg(&input_link), "--force"]);
    assert_refused(&kalah(&onto_input), &["that this command reads"]);
    assert_eq!(read(&input), "1\n");
    let notes = precious(dir.path(), "notes.jsonl");
    let mut onto_notes = BATCH.to_vec();
    onto_notes.extend([arg(&input), "-o", arg(&notes), "--resume"]);
    assert_refused(
        &kalah(&onto_notes),
        &["is not answers written by kalah batch"],
    );
    assert_eq!(read(&notes), PRECIOUS);
}
