//! Waiting in the tests: for a condition, a child process or a readiness signal, never for
//! a length of time. The one deadline, the hang guard, lies far beyond anything a test
//! waits for, so it only turns a hang into a failure; no test asserts how long a run took.

use std::process::{Child, Command, Output};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::{Duration, Instant};

/// How long a test waits for something that must happen before it calls it a hang.
pub const HANG_GUARD: Duration = Duration::from_secs(120);

/// How often a condition is checked again.
const POLL: Duration = Duration::from_millis(10);

/// Checks `done` until it holds; a condition still false after the hang guard fails the
/// test, saying what was awaited.
pub fn wait_until(what: &str, mut done: impl FnMut() -> bool) {
    let deadline = Instant::now() + HANG_GUARD;
    while !done() {
        assert!(
            Instant::now() < deadline,
            "hung: no {what} after {HANG_GUARD:?}"
        );
        std::thread::sleep(POLL);
    }
}

/// Waits for `child` to end and collects what it printed (pipe its standard output and
/// error to see them). A child still running after the hang guard is killed and the test
/// fails, saying what the child was doing.
pub fn finish(child: Child, what: &str) -> Output {
    let pid = child.id().to_string();
    let (ended, told) = mpsc::channel();
    let watchdog = std::thread::spawn(move || {
        let hung = matches!(
            told.recv_timeout(HANG_GUARD),
            Err(RecvTimeoutError::Timeout)
        );
        if hung {
            let _ = Command::new("kill").args(["-KILL", &pid]).status();
        }
        hung
    });
    let out = child
        .wait_with_output()
        .expect("the child can be waited for");
    let _ = ended.send(());
    let hung = watchdog.join().expect("the watchdog ends");
    assert!(
        !hung,
        "hung: {what} still running after {HANG_GUARD:?}, killed"
    );
    out
}

/// Whether process `pid` holds an `flock` lock on `path` (Linux: `/proc/locks`), read
/// without touching the lock.
pub fn holds_flock(pid: u32, path: &std::path::Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    let Ok(inode) = std::fs::metadata(path).map(|m| m.ino()) else {
        return false;
    };
    let locks = std::fs::read_to_string("/proc/locks").expect("/proc/locks is readable");
    locks.lines().any(|line| {
        // `1: FLOCK  ADVISORY  WRITE 1234 08:01:56789 0 EOF`
        let fields: Vec<&str> = line.split_whitespace().collect();
        fields.len() > 5
            && fields[1] == "FLOCK"
            && fields[4] == pid.to_string()
            && fields[5].rsplit(':').next() == Some(&inode.to_string())
    })
}

/// What `/proc/PID/stat` says of process `pid` (Linux): its state (`R` running, `S`
/// sleeping, `Z` ended and not yet waited for, ...) and the processor time it has used,
/// user and system, in clock ticks (a hundredth of a second). `None` once it is gone.
pub fn processor(pid: u32) -> Option<(char, u64)> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The fields after the command's name, which is in parentheses and may hold blanks.
    let fields: Vec<&str> = stat.rsplit(')').next()?.split_whitespace().collect();
    let state = fields.first()?.chars().next()?;
    let ticks = fields
        .get(11..13)?
        .iter()
        .map(|f| f.parse::<u64>().ok())
        .sum::<Option<u64>>()?;
    Some((state, ticks))
}
