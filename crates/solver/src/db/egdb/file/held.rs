//! Advisory locks (`flock`) on the files a database build writes in a cache, so that a
//! file some process is writing is told exactly from one a killed build left behind: the
//! writer holds an exclusive lock on it for as long as its file is open, and the kernel
//! drops that lock when the process ends, however it ends (`kill -9` included).

use std::fs::File;
use std::path::Path;

/// Takes the exclusive lock of `f` without waiting: true when taken (or where the
/// platform has no `flock`, so that a build still goes on), false when another open file
/// holds it.
pub(crate) fn try_lock(f: &File) -> bool {
    #[cfg(target_os = "linux")]
    {
        use std::os::fd::AsRawFd;
        // SAFETY: flock on our own open descriptor; it touches no memory.
        unsafe { libc::flock(f.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) == 0 }
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = f;
        true
    }
}

/// Whether a process holds the lock of the regular file `path` ([`try_lock`]): false
/// where the lock could be taken (it is let go at once), true where it could not be, or
/// where the file cannot be opened or the platform cannot tell (nothing of a live writer
/// is ever taken for a leftover).
pub(crate) fn is_held(path: &Path) -> bool {
    if !cfg!(target_os = "linux") {
        return true;
    }
    match super::open_regular(path, false) {
        // Taken by this probe: nobody else holds it; dropping the file lets it go.
        Ok(f) => !try_lock(&f),
        Err(_) => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(target_os = "linux")]
    #[test]
    fn a_lock_is_seen_while_its_file_is_open_and_gone_after() {
        let dir = std::env::temp_dir().join(format!("kalah-held-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("f");
        let f = File::create(&path).unwrap();
        assert!(!is_held(&path));
        assert!(try_lock(&f));
        assert!(is_held(&path));
        drop(f);
        assert!(!is_held(&path));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
