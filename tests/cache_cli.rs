//! The endgame database cache across processes: the first solve builds and keeps the
//! database, the next loads it; two processes building at once leave one good file; a
//! damaged file is rebuilt, never trusted; `kalah egdb cache` lists, grows and clears.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

/// A cache directory of the test's own, removed when dropped.
struct TempCache(PathBuf);

impl TempCache {
    fn new(name: &str) -> TempCache {
        let dir =
            std::env::temp_dir().join(format!("kalah-cache-test-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        TempCache(dir)
    }

    /// The finished database files in it.
    fn files(&self) -> Vec<PathBuf> {
        let Ok(entries) = std::fs::read_dir(&self.0) else {
            return Vec::new();
        };
        let mut files: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
        files.sort();
        files
    }
}

impl Drop for TempCache {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn command(cache: &Path, args: &[&str]) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_kalah"));
    cmd.env_remove("KALAH_EGDB_PATH")
        .env_remove("KALAH_CACHE_MAX_MB")
        .env("KALAH_CACHE", cache)
        .args(args);
    cmd
}

fn run(cache: &Path, args: &[&str]) -> Output {
    let out = command(cache, args).output().expect("kalah runs");
    assert!(
        out.status.success(),
        "kalah {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// Solves Kalah(5,4) (standard capture: +10) with the default database.
const SOLVE: [&str; 8] = [
    "solve",
    "--houses",
    "5",
    "--seeds",
    "4",
    "--threads",
    "1",
    "--json",
];

fn solve(cache: &Path) -> (Value, String) {
    let out = run(cache, &SOLVE);
    let json = serde_json::from_slice(&out.stdout).expect("one JSON object");
    (json, String::from_utf8_lossy(&out.stderr).into_owned())
}

/// `kalah egdb cache grow` with `args` (the rules, board and seeds), quietly.
fn grow(cache: &Path, args: &[&str]) {
    run(
        cache,
        &[&["egdb", "cache", "grow", "-q"][..], args].concat(),
    );
}

/// `kalah egdb info` verifies the file (checksum and sampled entries).
fn verifies(cache: &Path, file: &Path) -> bool {
    command(cache, &["egdb", "info", file.to_str().unwrap()])
        .output()
        .expect("kalah runs")
        .status
        .success()
}

#[test]
fn first_solve_keeps_the_database_and_the_next_process_loads_it() {
    let cache = TempCache::new("reuse");
    let (first, said) = solve(&cache.0);
    assert_eq!(first["value"], 10);
    assert!(first["egdb_file"].is_null(), "{first}");
    assert!(said.contains("kept as"), "{said}");
    let files = cache.files();
    assert_eq!(files.len(), 1, "{files:?}");
    assert!(verifies(&cache.0, &files[0]));

    let (second, said) = solve(&cache.0);
    assert_eq!(second["value"], 10);
    assert_eq!(second["egdb_file"], files[0].to_str().unwrap());
    assert_eq!(second["egdb_seeds"], first["egdb_seeds"]);
    // The same database, the same tree on one thread.
    assert_eq!(second["nodes"], first["nodes"]);
    assert!(!said.contains("building"), "{said}");
}

#[test]
fn two_processes_building_at_once_leave_one_good_file() {
    let cache = TempCache::new("race");
    let children: Vec<_> = (0..2)
        .map(|_| {
            command(&cache.0, &SOLVE)
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .expect("kalah starts")
        })
        .collect();
    for child in children {
        let out = child.wait_with_output().expect("kalah finishes");
        assert!(out.status.success());
        let json: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(json["value"], 10);
    }
    let files = cache.files();
    assert_eq!(files.len(), 1, "one file, no leftovers: {files:?}");
    assert!(verifies(&cache.0, &files[0]));
}

#[test]
fn a_damaged_cached_file_is_rebuilt_not_trusted() {
    let cache = TempCache::new("damage");
    let (first, _) = solve(&cache.0);
    let file = cache.files().pop().expect("a cached file");
    // Flip one value in the middle of the file.
    let mut bytes = std::fs::read(&file).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0x15;
    std::fs::write(&file, &bytes).unwrap();
    assert!(!verifies(&cache.0, &file));

    let (second, said) = solve(&cache.0);
    assert_eq!(second["value"], 10);
    assert_eq!(second["nodes"], first["nodes"]);
    assert!(said.contains("damaged"), "{said}");
    assert_eq!(cache.files(), vec![file.clone()]);
    assert!(verifies(&cache.0, &file), "rebuilt and verified");
}

#[test]
fn cache_lists_grows_and_clears() {
    let cache = TempCache::new("manage");
    let _ = solve(&cache.0);
    let list = |cache: &Path| -> Value {
        serde_json::from_slice(&run(cache, &["egdb", "cache", "list", "--json"]).stdout).unwrap()
    };
    let before = list(&cache.0);
    assert_eq!(before["files"].as_array().unwrap().len(), 1);
    let held = before["files"][0]["max_seeds"].as_u64().unwrap();

    let grown = (held + 1).to_string();
    grow(&cache.0, &["--houses", "5", "--max-seeds", &grown]);
    let after = list(&cache.0);
    let files = after["files"].as_array().unwrap();
    assert_eq!(
        files.len(),
        1,
        "the larger file replaces the smaller: {after}"
    );
    assert_eq!(files[0]["max_seeds"].as_u64(), Some(held + 1));
    let (solved, _) = solve(&cache.0);
    assert_eq!(solved["egdb_seeds"].as_u64(), Some(held + 1));
    assert_eq!(solved["value"], 10);

    run(&cache.0, &["egdb", "cache", "clear"]);
    assert!(cache.files().is_empty());
}

#[test]
fn no_cache_writes_nothing() {
    let cache = TempCache::new("off");
    let out = run(&cache.0, &[&SOLVE[..], &["--no-cache"]].concat());
    let json: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["value"], 10);
    assert!(json["egdb_file"].is_null());
    assert!(!cache.0.exists());

    let off = Command::new(env!("CARGO_BIN_EXE_kalah"))
        .env_remove("KALAH_EGDB_PATH")
        .env("KALAH_CACHE", "off")
        .args(["egdb", "cache"])
        .output()
        .unwrap();
    assert_eq!(off.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&off.stderr).contains("cache is off"));
}

#[test]
fn oware_reads_a_file_the_cache_or_a_directory_holds_and_never_builds_one() {
    let solve = [
        "solve", "--rules", "oware", "--houses", "3", "--seeds", "2", "--json",
    ];
    let json = |out: Output| -> Value { serde_json::from_slice(&out.stdout).expect("JSON") };
    // An empty cache stays empty: the graph is solved, no file is built for Oware.
    let cache = TempCache::new("oware");
    let graph = json(run(&cache.0, &solve));
    assert_eq!(graph["egdb_hits"], 0, "{graph}");
    assert!(cache.files().is_empty(), "{:?}", cache.files());
    // A file grown into the cache on purpose is read by the next solve: the start (12
    // seeds) is answered from it, with the graph's value.
    grow(
        &cache.0,
        &["--rules", "oware", "--houses", "3", "--max-seeds", "12"],
    );
    assert_eq!(cache.files().len(), 1, "{:?}", cache.files());
    let cached = json(run(&cache.0, &solve));
    assert_eq!(cached["value"], graph["value"], "{cached}");
    assert_eq!(cached["egdb_hits"], 1, "{cached}");
    // --no-cache passes it over; a directory named by --egdb or KALAH_EGDB_PATH is searched.
    let off = json(run(&cache.0, &[&solve[..], &["--no-cache"]].concat()));
    assert_eq!(
        (&off["value"], &off["egdb_hits"]),
        (&graph["value"], &0.into())
    );
    let dir = cache.0.to_str().unwrap();
    let named = json(run(
        &cache.0,
        &[&solve[..], &["--no-cache", "--egdb", dir]].concat(),
    ));
    assert_eq!(
        (&named["value"], &named["egdb_hits"]),
        (&graph["value"], &1.into())
    );
    let env = command(&cache.0, &[&solve[..], &["--no-cache"]].concat())
        .env("KALAH_EGDB_PATH", dir)
        .output()
        .expect("kalah runs");
    let env = json(env);
    assert_eq!(
        (&env["value"], &env["egdb_hits"]),
        (&graph["value"], &1.into())
    );
    // A directory named without a file for the rules is an error that says so.
    let empty = TempCache::new("oware-empty");
    std::fs::create_dir_all(&empty.0).unwrap();
    let out = command(
        &cache.0,
        &[&solve[..], &["--egdb", empty.0.to_str().unwrap()]].concat(),
    )
    .output()
    .expect("kalah runs");
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("oware"),
        "{out:?}"
    );
}

#[test]
fn analysis_reads_a_file_already_there_and_never_builds_one() {
    // Kalah(5,4) with standard capture is +10 from South.
    let analyse = [
        "analyse",
        "--houses",
        "5",
        "--seeds",
        "4",
        "--depth",
        "6",
        "--threads",
        "1",
        "--json",
    ];
    let last = |out: Output| -> Value {
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        let line = text.lines().last().expect("a final line").to_owned();
        serde_json::from_str(&line).expect("JSON")
    };
    let contains_value =
        |a: &Value| a["lower"].as_i64() <= Some(10) && a["upper"].as_i64() >= Some(10);
    // An empty cache stays empty: an analysis builds no database.
    let cache = TempCache::new("analyse");
    let bare = last(run(&cache.0, &analyse));
    assert!(bare["egdb_file"].is_null(), "{bare}");
    assert!(contains_value(&bare), "{bare}");
    assert!(cache.files().is_empty(), "{:?}", cache.files());
    // A file the cache already holds is read (mapped), and the interval still holds the
    // value.
    grow(&cache.0, &["--houses", "5", "--max-seeds", "12"]);
    let files = cache.files();
    assert_eq!(files.len(), 1, "{files:?}");
    let read = last(run(&cache.0, &analyse));
    assert_eq!(read["egdb_file"], files[0].to_str().unwrap(), "{read}");
    assert!(contains_value(&read), "{read}");
    let text = String::from_utf8_lossy(&run(&cache.0, &analyse[..9]).stdout).into_owned();
    assert!(text.contains("endgame database"), "{text}");
    // Passed over with --no-cache; --egdb-seeds 0 asks for none.
    for flag in ["--no-cache", "--egdb-seeds=0"] {
        let off = last(run(&cache.0, &[&analyse[..], &[flag]].concat()));
        assert!(off["egdb_file"].is_null(), "{flag}: {off}");
    }
    // A time-limited solve builds none either: the cache gains nothing.
    run(
        &cache.0,
        &[
            "solve", "--houses", "5", "--seeds", "4", "--depth", "4", "--json",
        ],
    );
    assert_eq!(cache.files(), files);
}
