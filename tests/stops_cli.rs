//! Stopping cleanly and leaving nothing behind: `egdb build` stopped by SIGINT
//! or SIGTERM keeps its finished levels in FILE.partial, leaves no other file, says how to
//! resume, and the resumed build equals an uninterrupted one; the cache lists and cleans
//! the temporaries a killed build left, and clears only its own databases; a split too
//! large for the memory is refused before any work; a solve interrupted while it builds
//! its database says what it knows and keeps the build for the next.

use crate::support::guard;

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::mpsc;

use guard::{finish, HANG_GUARD};

/// A directory of the test's own, removed when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("kalah-stops-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }

    fn path(&self) -> &Path {
        &self.0
    }

    /// The names of the files in it (hidden ones too), sorted.
    fn names(&self) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(&self.0)
            .unwrap()
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The binary with no cache (unless the test sets one) and no database directory.
fn kalah() -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_kalah"));
    cmd.env_remove("KALAH_EGDB_PATH")
        .env("KALAH_CACHE", "off")
        .stdin(Stdio::null());
    cmd
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The build of a 5-house database of 18 seeds to `file` in `dir`, its arguments.
fn build_args(file: &str) -> Vec<String> {
    [
        "egdb",
        "build",
        "--houses",
        "5",
        "--max-seeds",
        "18",
        "--out",
        file,
    ]
    .map(String::from)
    .to_vec()
}

/// Starts the build to `dir/a.egdb`, sends `signal` once its 12-seed level is finished
/// (it reports each level on standard error), and returns what it printed.
fn signalled_build(dir: &Path, signal: &str) -> Output {
    let mut cmd = kalah();
    cmd.args(build_args("a.egdb")).current_dir(dir);
    signalled(cmd, signal)
}

/// Starts the build `cmd`, sends `signal` once its 12-seed level is finished (it reports
/// each level on standard error), and returns what it printed.
fn signalled(cmd: Command, signal: &str) -> Output {
    signalled_after(
        cmd,
        signal,
        |line| line.trim_start().starts_with("12 seeds:"),
        0,
    )
}

/// Starts `cmd`, sends `signal` once it has printed a line on standard error that `ready`
/// accepts and then used `work` more clock ticks (hundredths of a second) of processor
/// time, and returns what it printed.
fn signalled_after(
    mut cmd: Command,
    signal: &str,
    ready: impl Fn(&str) -> bool,
    work: u64,
) -> Output {
    let mut child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let pipe = child.stderr.take().unwrap();
    let (lines, seen) = mpsc::channel();
    let reader = std::thread::spawn(move || {
        let mut all = Vec::new();
        for line in BufReader::new(pipe).lines().map_while(Result::ok) {
            let _ = lines.send(line.clone());
            all.push(line);
        }
        all
    });
    loop {
        let line = seen
            .recv_timeout(HANG_GUARD)
            .expect("the command says it is ready");
        if ready(&line) {
            break;
        }
    }
    let ticks = || guard::processor(child.id()).map_or(0, |(_, t)| t);
    let at_ready = ticks();
    guard::wait_until("processor time after the ready line", || {
        ticks() >= at_ready + work
    });
    let pid = child.id().to_string();
    assert!(Command::new("kill")
        .args([signal, &pid])
        .status()
        .unwrap()
        .success());
    let mut out = finish(child, "the signalled egdb build");
    out.stderr = reader.join().unwrap().join("\n").into_bytes();
    out
}

/// The build stopped by `signal`, then resumed: exit 2 with what was kept, nothing but
/// the partial file left, and the resumed file the bytes of an uninterrupted build.
fn build_stops_on(signal: &str) {
    let dir = Scratch::new(&format!("signal{signal}"));
    let out = signalled_build(dir.path(), signal);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.contains("a.egdb.partial keeps seed levels 0 to")
            && err.contains("run the same command again to resume from it"),
        "{err}"
    );
    assert_eq!(dir.names(), vec!["a.egdb.partial".to_string()]);
    let resumed = kalah()
        .args(build_args("a.egdb"))
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(resumed.status.success(), "{}", stderr(&resumed));
    assert!(
        stdout(&resumed).contains("levels resumed"),
        "{}",
        stdout(&resumed)
    );
    let whole = kalah()
        .args(build_args("b.egdb"))
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(whole.status.success(), "{}", stderr(&whole));
    assert_eq!(
        dir.names(),
        vec!["a.egdb".to_string(), "b.egdb".to_string()]
    );
    let (a, b) = (dir.path().join("a.egdb"), dir.path().join("b.egdb"));
    assert!(std::fs::read(a).unwrap() == std::fs::read(b).unwrap());
}

#[test]
fn egdb_build_stopped_by_sigterm_keeps_its_levels_and_resumes_to_the_same_file() {
    build_stops_on("-TERM");
}

#[test]
fn egdb_build_stopped_by_ctrl_c_keeps_its_levels_and_resumes_to_the_same_file() {
    build_stops_on("-INT");
}

/// Runs the binary with the cache in `dir`; checks that it succeeded.
fn in_cache(dir: &Path, args: &[&str]) -> Output {
    let out = kalah().env("KALAH_CACHE", dir).args(args).output().unwrap();
    assert!(out.status.success(), "{args:?}: {}", stderr(&out));
    out
}

/// A cache holding one small database (3 houses, 6 seeds), and that file's name.
fn cache_with_a_database(name: &str) -> (Scratch, String) {
    let dir = Scratch::new(name);
    let grow = [
        "egdb",
        "cache",
        "grow",
        "--houses",
        "3",
        "--max-seeds",
        "6",
        "-q",
    ];
    in_cache(dir.path(), &grow);
    let names = dir.names();
    assert_eq!(names.len(), 1, "{names:?}");
    (dir, names[0].clone())
}

/// A process id that runs no process (past Linux's largest).
const DEAD: u32 = 4_194_305;

#[test]
fn cache_list_shows_a_stale_temporary_and_cache_clean_removes_it() {
    let (dir, db) = cache_with_a_database("stale");
    // What a build killed while it saved into the cache leaves.
    let stale = format!(".{db}.{DEAD}.tmp.tmp");
    std::fs::write(dir.path().join(&stale), [0u8; 4096]).unwrap();
    let list = stdout(&in_cache(dir.path(), &["egdb", "cache", "list"]));
    assert!(
        list.lines()
            .any(|l| l.contains(&stale) && l.contains("stale temporary")),
        "{list}"
    );
    let json: serde_json::Value =
        serde_json::from_slice(&in_cache(dir.path(), &["egdb", "cache", "list", "--json"]).stdout)
            .unwrap();
    let left = &json["leftovers"][0];
    assert_eq!(left["kind"], "temporary");
    assert_eq!(left["stale"], true);
    assert_eq!(left["pid"], DEAD);
    let clean = stdout(&in_cache(dir.path(), &["egdb", "cache", "clean"]));
    assert!(clean.contains("1 file removed"), "{clean}");
    assert_eq!(dir.names(), vec![db], "the database is kept");
}

#[test]
fn cache_clear_keeps_a_file_that_is_not_a_kalah_database() {
    let (dir, db) = cache_with_a_database("foreign");
    let notes = dir.path().join("notes.egdb");
    std::fs::write(&notes, "my own notes\n").unwrap();
    std::fs::write(dir.path().join(format!(".{db}.{DEAD}.tmp")), [1u8; 64]).unwrap();
    let clear = stdout(&in_cache(dir.path(), &["egdb", "cache", "clear"]));
    assert!(clear.contains("2 files removed"), "{clear}");
    assert!(
        clear.contains("kept") && clear.contains("notes.egdb: not a kalah endgame database"),
        "{clear}"
    );
    assert_eq!(dir.names(), vec!["notes.egdb".to_string()]);
    assert_eq!(std::fs::read_to_string(&notes).unwrap(), "my own notes\n");
}

#[test]
fn a_split_too_large_for_the_memory_is_refused_in_its_first_levels() {
    // Once, this grew past 7.5 GB with no estimate and no progress.
    let dir = Scratch::new("split");
    let out_dir = dir.path().join("s");
    let out = kalah()
        .args([
            "split", "--houses", "4", "--seeds", "3", "--depth", "24", "--out",
        ])
        .arg(&out_dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.contains("a split of depth 24 does not fit in memory")
            && err.contains("estimated from its first")
            && err.contains("choose --depth"),
        "{err}"
    );
    let written = std::fs::read_dir(&out_dir).map_or(0, |d| d.count());
    assert_eq!(written, 0, "nothing written");
}

#[test]
fn an_interrupted_cache_grow_resumes_from_its_partial_file() {
    let dir = Scratch::new("grow");
    let grow = |k: &str| {
        let mut cmd = kalah();
        cmd.env("KALAH_CACHE", dir.path()).args([
            "egdb",
            "cache",
            "grow",
            "--houses",
            "5",
            "--max-seeds",
            k,
        ]);
        cmd
    };
    assert!(grow("8").output().unwrap().status.success());
    let small = dir.names();
    let out = signalled(grow("18"), "-TERM");
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let partial: Vec<String> = dir
        .names()
        .into_iter()
        .filter(|n| n.ends_with(".egdb.partial"))
        .collect();
    assert_eq!(partial.len(), 1, "{:?}", dir.names());
    let list = stdout(&in_cache(dir.path(), &["egdb", "cache", "list"]));
    assert!(list.contains("unfinished build"), "{list}");
    // Run again: it resumes (the smaller file is not copied over the partial one).
    let resumed = grow("18").output().unwrap();
    assert!(resumed.status.success(), "{}", stderr(&resumed));
    assert!(
        stdout(&resumed).contains("levels resumed"),
        "{}",
        stdout(&resumed)
    );
    let names = dir.names();
    assert_eq!(names.len(), 1, "{names:?}");
    assert!(
        names[0].ends_with("-18.egdb") && names != small,
        "{names:?}"
    );
}

/// `kalah solve --json` of Kalah(5,5) with the cache in `dir`: its database (23 seeds, 92
/// M positions) takes many seconds to build in a debug build. SIGINT is sent once it says
/// that it builds (and, where `work`, after that many clock ticks of processor time more:
/// its first levels finished).
fn solve_stopped_in_its_build(dir: &Path, work: u64) -> Output {
    let mut cmd = kalah();
    cmd.env("KALAH_CACHE", dir).args([
        "solve",
        "--houses",
        "5",
        "--seeds",
        "5",
        "--threads",
        "2",
        "--json",
    ]);
    signalled_after(
        cmd,
        "-INT",
        |line| line.starts_with("building the endgame database of 23 seeds"),
        work,
    )
}

#[test]
fn a_solve_interrupted_in_its_database_build_guesses_and_keeps_the_build() {
    // Once, this printed only "the endgame database build stopped; nothing of
    // it was kept" and threw the build away.
    let dir = Scratch::new("solvebuild");
    let out = solve_stopped_in_its_build(dir.path(), 200);
    let err = stderr(&out);
    // What every interrupted solve prints: the interval, a best guess, "not exact", 3.
    assert_eq!(out.status.code(), Some(3), "{err}");
    let json: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!(json["exact"], false, "{json}");
    let (lower, upper) = (
        json["lower"].as_i64().unwrap(),
        json["upper"].as_i64().unwrap(),
    );
    assert!(lower < upper, "{json}");
    assert!(json["best_turn"].is_string(), "{json}");
    assert!(
        err.contains("interrupted: not exact; the value from South is proven in")
            && err.contains("the endgame database build stopped; its seed levels 0 to")
            && err.contains("and the next run goes on from them"),
        "{err}"
    );
    // Its finished levels are kept in the cache, as an unfinished build.
    let list = stdout(&in_cache(dir.path(), &["egdb", "cache", "list"]));
    assert!(list.contains("unfinished build"), "{list}");
    // The next solve goes on from them (and, interrupted at once, keeps them).
    let again = solve_stopped_in_its_build(dir.path(), 0);
    let err = stderr(&again);
    assert_eq!(again.status.code(), Some(3), "{err}");
    assert!(
        err.contains("going on from seed levels 0 to") && err.contains(".egdb.partial"),
        "{err}"
    );
    let list = stdout(&in_cache(dir.path(), &["egdb", "cache", "list"]));
    assert!(list.contains("unfinished build"), "{list}");
}
