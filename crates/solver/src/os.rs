//! What the operating system says about the machine: the memory available to a new
//! allocation of this process and the free space of a file system (`None` where it cannot
//! tell), and the budget the solvers of one process share.
//!
//! The memory available is the least of three limits, each where the system has it:
//! - the machine's: `MemAvailable` of `/proc/meminfo`;
//! - the control group's (a Slurm job's `--mem`, a container's limit): for the group of
//!   this process and each group above it, its limit less what it uses (the cache it can
//!   drop first not counted), cgroup v2 (`memory.max`, `memory.current`) and v1
//!   (`memory.limit_in_bytes`, `memory.usage_in_bytes`);
//! - the address space's (`ulimit -v`): `RLIMIT_AS` less the address space the process
//!   has already (`VmSize`), since every allocation counts against it, whatever the
//!   machine has free.
//!
//! A solver that budgets a share of it for a while (a retrograde solve, which may grow to
//! most of the machine) reserves that share ([`reserve_memory`]): what another such
//! solver of the process can reserve then leaves it out, so that two of them running at
//! once do not both take most of the machine.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::{Mutex, OnceLock};

/// The processor time this process has spent so far, in user mode and in the kernel
/// (`getrusage`, every thread); `None` where the system does not tell. The kernel's share
/// is mostly memory set up: page faults of the table and the databases.
pub fn process_times() -> Option<(std::time::Duration, std::time::Duration)> {
    #[cfg(unix)]
    {
        // SAFETY: getrusage fills the struct it is given; zeroed is a valid rusage.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        // SAFETY: a valid pointer to a rusage of our own.
        if unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) } != 0 {
            return None;
        }
        let time = |t: libc::timeval| {
            std::time::Duration::from_secs(t.tv_sec.max(0) as u64)
                + std::time::Duration::from_micros(t.tv_usec.max(0) as u64)
        };
        Some((time(usage.ru_utime), time(usage.ru_stime)))
    }
    #[cfg(not(unix))]
    None
}

/// Memory available to a new allocation of this process: the least of the machine's,
/// the control group's and the address space's limits (see the module doc; `None` where
/// none is known).
pub fn available_memory() -> Option<u64> {
    let read = |path: &str| std::fs::read_to_string(path).ok();
    let machine = read("/proc/meminfo").and_then(|t| mem_available(&t));
    let group = cgroup_available();
    let address = address_space_limit().and_then(|limit| {
        let size = read("/proc/self/status").and_then(|t| vm_size(&t))?;
        Some(limit.saturating_sub(size))
    });
    least(&[machine, group, address])
}

/// The least of the limits known.
fn least(limits: &[Option<u64>]) -> Option<u64> {
    limits.iter().flatten().copied().min()
}

/// `MemAvailable` of the text of `/proc/meminfo`, in bytes.
fn mem_available(meminfo: &str) -> Option<u64> {
    kib_field(meminfo, "MemAvailable:")
}

/// `VmSize` (the address space the process has) of the text of `/proc/self/status`.
fn vm_size(status: &str) -> Option<u64> {
    kib_field(status, "VmSize:")
}

/// The value in bytes of the line `name  N kB` of `text`.
fn kib_field(text: &str, name: &str) -> Option<u64> {
    let line = text.lines().find(|l| l.starts_with(name))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib.saturating_mul(1024))
}

/// The soft `RLIMIT_AS` in bytes (`None` where unlimited or unknown).
fn address_space_limit() -> Option<u64> {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: getrlimit writes into the struct we own.
        let mut limit: libc::rlimit = unsafe { std::mem::zeroed() };
        // SAFETY: as above.
        if unsafe { libc::getrlimit(libc::RLIMIT_AS, &mut limit) } != 0 {
            return None;
        }
        (limit.rlim_cur != libc::RLIM_INFINITY).then_some(limit.rlim_cur as u64)
    }
    #[cfg(not(target_os = "linux"))]
    None
}

/// A limit as a control group file writes it: `max` (v2) or a number near `i64::MAX`
/// (v1, rounded down to a page) for none.
fn cgroup_limit(text: &str) -> Option<u64> {
    let n: u64 = text.trim().parse().ok()?;
    (n < 1 << 62).then_some(n)
}

/// The usage of a control group less the file cache it drops first (`inactive_file` of
/// its `memory.stat`, `total_inactive_file` in v1): the part a new allocation cannot take.
fn cgroup_usage(usage: &str, stat: Option<&str>) -> Option<u64> {
    let usage: u64 = usage.trim().parse().ok()?;
    let inactive = stat
        .and_then(|s| {
            let field = |name: &str| {
                s.lines()
                    .find_map(|l| l.strip_prefix(name)?.strip_prefix(' ')?.trim().parse().ok())
            };
            field("total_inactive_file").or_else(|| field("inactive_file"))
        })
        .unwrap_or(0u64);
    Some(usage.saturating_sub(inactive))
}

/// The directories of this process's memory control groups, innermost first, from the
/// texts of `/proc/self/cgroup` and `/proc/self/mountinfo`: for cgroup v2 (`0::PATH`) and
/// for v1's memory controller (`N:...memory...:PATH`), the group's directory under the
/// mount of its hierarchy and every directory above it up to the mount.
fn cgroup_dirs(cgroup: &str, mountinfo: &str) -> Vec<(PathBuf, Version)> {
    let mut dirs = Vec::new();
    for line in cgroup.lines() {
        let mut fields = line.splitn(3, ':');
        let (Some(_), Some(controllers), Some(path)) =
            (fields.next(), fields.next(), fields.next())
        else {
            continue;
        };
        let version = match controllers {
            "" => Version::V2,
            c if c.split(',').any(|c| c == "memory") => Version::V1,
            _ => continue,
        };
        let Some((root, mount)) = mount_of(mountinfo, version) else {
            continue;
        };
        // The mount shows the hierarchy from `root` down (a container's own group).
        let inside = Path::new(path).strip_prefix(&root).unwrap_or(Path::new(""));
        let mut dir = mount.join(inside);
        loop {
            dirs.push((dir.clone(), version));
            if dir == mount || !dir.pop() {
                break;
            }
        }
    }
    dirs
}

/// The two kinds of control groups.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Version {
    V1,
    V2,
}

/// The root and the mount point of the hierarchy of `version` in the text of
/// `/proc/self/mountinfo` (`ID PARENT DEV ROOT MOUNT OPTIONS ... - TYPE SOURCE SUPER`).
fn mount_of(mountinfo: &str, version: Version) -> Option<(PathBuf, PathBuf)> {
    mountinfo.lines().find_map(|line| {
        let (left, right) = line.split_once(" - ")?;
        let left: Vec<&str> = left.split_whitespace().collect();
        let right: Vec<&str> = right.split_whitespace().collect();
        let (root, mount) = (left.get(3)?, left.get(4)?);
        let ours = match version {
            Version::V2 => right.first() == Some(&"cgroup2"),
            Version::V1 => {
                right.first() == Some(&"cgroup") && right.get(2)?.split(',').any(|o| o == "memory")
            }
        };
        ours.then(|| {
            (
                PathBuf::from(unescape(root)),
                PathBuf::from(unescape(mount)),
            )
        })
    })
}

/// A path of mountinfo, whose spaces and the like are written `\040`.
fn unescape(field: &str) -> String {
    let mut out = String::new();
    let mut rest = field;
    while let Some(at) = rest.find('\\') {
        out.push_str(&rest[..at]);
        match u8::from_str_radix(rest.get(at + 1..at + 4).unwrap_or(""), 8) {
            Ok(b) => {
                out.push(b as char);
                rest = &rest[at + 4..];
            }
            Err(_) => {
                out.push('\\');
                rest = &rest[at + 1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// What the memory control groups of this process still allow: the least, over the
/// group and those above it, of its limit less its usage (`None` where no group has a
/// limit).
fn cgroup_available() -> Option<u64> {
    let read = |path: &Path| std::fs::read_to_string(path).ok();
    let left = memory_groups()
        .iter()
        .filter_map(|(dir, version)| {
            let (limit, usage) = match version {
                Version::V2 => ("memory.max", "memory.current"),
                Version::V1 => ("memory.limit_in_bytes", "memory.usage_in_bytes"),
            };
            let limit = cgroup_limit(&read(&dir.join(limit))?)?;
            let stat = read(&dir.join("memory.stat"));
            let usage = read(&dir.join(usage)).and_then(|u| cgroup_usage(&u, stat.as_deref()));
            Some(limit.saturating_sub(usage.unwrap_or(0)))
        })
        .collect::<Vec<_>>();
    left.into_iter().min()
}

/// The directories of this process's memory control groups ([`cgroup_dirs`]), found
/// once a process: reading `/proc/self/mountinfo` takes longer than solving a small
/// position, which asks for the memory available every time, and a process stays in the
/// group it was started in (Slurm and container runtimes place it before it runs). What
/// the groups allow is read afresh at every call.
fn memory_groups() -> &'static [(PathBuf, Version)] {
    static GROUPS: OnceLock<Vec<(PathBuf, Version)>> = OnceLock::new();
    GROUPS.get_or_init(|| {
        let read = |path: &str| std::fs::read_to_string(path).ok();
        match (read("/proc/self/cgroup"), read("/proc/self/mountinfo")) {
            (Some(cgroup), Some(mountinfo)) => cgroup_dirs(&cgroup, &mountinfo),
            _ => Vec::new(),
        }
    })
}

/// Bytes the running solvers of this process have reserved ([`reserve_memory`]).
static RESERVED: AtomicU64 = AtomicU64::new(0);

/// Taken while a reservation is sized, so that two solvers starting at once do not both
/// count the same memory as theirs.
static RESERVING: Mutex<()> = Mutex::new(());

/// Memory a solver has reserved from the process's budget, returned when it is dropped.
#[derive(Debug)]
pub struct Reservation {
    bytes: u64,
}

impl Reservation {
    /// The bytes reserved.
    pub fn bytes(&self) -> u64 {
        self.bytes
    }
}

impl Drop for Reservation {
    fn drop(&mut self) {
        RESERVED.fetch_sub(self.bytes, Relaxed);
    }
}

/// Reserves `share(free)` bytes until the reservation is dropped, `free` being the memory
/// available now to this process ([`available_memory`], `fallback` where it is unknown)
/// less what the other reservations hold: a solver sizes what it may take from it, and
/// one that reserves meanwhile has that much less. (What a solver already took is out
/// of the memory available as well as in its reservation: counted twice, so a solver
/// that starts beside another gets less than it could, never more.)
pub fn reserve_memory(fallback: u64, share: impl FnOnce(u64) -> u64) -> Reservation {
    let _one_at_a_time = RESERVING.lock().unwrap_or_else(|e| e.into_inner());
    let free = available_memory()
        .unwrap_or(fallback)
        .saturating_sub(RESERVED.load(Relaxed));
    let bytes = share(free);
    RESERVED.fetch_add(bytes, Relaxed);
    Reservation { bytes }
}

/// Free bytes on the file system that holds `path` (or would hold it).
pub fn available_disk(path: &Path) -> Option<u64> {
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::ffi::OsStrExt;
        let dir = match path.parent() {
            Some(p) if !p.as_os_str().is_empty() => p,
            _ => Path::new("."),
        };
        let c = std::ffi::CString::new(dir.as_os_str().as_bytes()).ok()?;
        // SAFETY: statvfs writes into the zeroed struct we own; `c` is a valid C string.
        let mut st: libc::statvfs = unsafe { std::mem::zeroed() };
        // SAFETY: as above.
        if unsafe { libc::statvfs(c.as_ptr(), &mut st) } != 0 {
            return None;
        }
        Some(st.f_bavail as u64 * st.f_frsize as u64)
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = path;
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn meminfo_and_status_give_bytes() {
        let meminfo = "MemTotal:       32768000 kB\nMemFree:  1000 kB\nMemAvailable:   2048 kB\n";
        assert_eq!(mem_available(meminfo), Some(2048 * 1024));
        assert_eq!(mem_available("MemTotal: 1 kB\n"), None);
        let status = "Name:\tkalah\nVmPeak:\t  900 kB\nVmSize:\t  812 kB\nVmRSS:\t 100 kB\n";
        assert_eq!(vm_size(status), Some(812 * 1024));
    }

    #[test]
    fn no_limit_reads_as_none() {
        assert_eq!(cgroup_limit("max\n"), None);
        assert_eq!(cgroup_limit("9223372036854771712\n"), None);
        assert_eq!(cgroup_limit("2147483648\n"), Some(2 << 30));
        assert_eq!(cgroup_limit(""), None);
    }

    #[test]
    fn usage_leaves_out_the_cache_dropped_first() {
        let v2 = "anon 100\nfile 900\ninactive_file 600\nactive_file 300\n";
        assert_eq!(cgroup_usage("1000\n", Some(v2)), Some(400));
        let v1 = "cache 900\ninactive_file 10\ntotal_inactive_file 600\n";
        assert_eq!(cgroup_usage("1000\n", Some(v1)), Some(400));
        assert_eq!(cgroup_usage("1000\n", None), Some(1000));
        assert_eq!(
            cgroup_usage("1000\n", Some("total_inactive_file 5000\n")),
            Some(0)
        );
    }

    #[test]
    fn the_least_limit_wins() {
        assert_eq!(least(&[Some(8 << 30), Some(2 << 30), None]), Some(2 << 30));
        assert_eq!(least(&[None, None, Some(5)]), Some(5));
        assert_eq!(least(&[None, None, None]), None);
    }

    #[test]
    fn a_slurm_job_under_cgroup_v2_is_read_at_every_level() {
        let cgroup = "0::/system.slice/slurmstepd.scope/job_7/step_0/user/task_0\n";
        let mountinfo = "24 1 0:22 / /sys/fs/cgroup rw,nosuid - cgroup2 cgroup2 rw,nsdelegate\n";
        let dirs: Vec<PathBuf> = cgroup_dirs(cgroup, mountinfo)
            .into_iter()
            .map(|(d, v)| {
                assert_eq!(v, Version::V2);
                d
            })
            .collect();
        let base = Path::new("/sys/fs/cgroup/system.slice/slurmstepd.scope");
        assert_eq!(dirs[0], base.join("job_7/step_0/user/task_0"));
        assert!(dirs.contains(&base.join("job_7")));
        assert_eq!(dirs.last().unwrap(), Path::new("/sys/fs/cgroup"));
        assert_eq!(dirs.len(), 7);
    }

    #[test]
    fn a_container_under_cgroup_v1_is_read_from_its_own_mount() {
        // The container sees its own group at the mount's root.
        let cgroup = "12:cpu,cpuacct:/docker/abc\n4:memory:/docker/abc\n0::/\n";
        let mountinfo = "\
            31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755\n\
            33 31 0:30 /docker/abc /sys/fs/cgroup/cpu,cpuacct rw - cgroup cgroup rw,cpu,cpuacct\n\
            35 31 0:32 /docker/abc /sys/fs/cgroup/memory rw - cgroup cgroup rw,memory\n";
        let dirs = cgroup_dirs(cgroup, mountinfo);
        assert_eq!(
            dirs,
            vec![(PathBuf::from("/sys/fs/cgroup/memory"), Version::V1)]
        );
        // A hybrid system: v1's memory and an empty v2 hierarchy mounted apart.
        let mountinfo = "\
            35 31 0:32 / /sys/fs/cgroup/memory rw - cgroup cgroup rw,memory\n\
            36 31 0:33 / /sys/fs/cgroup/un\\040ified rw - cgroup2 cgroup2 rw\n";
        let cgroup = "4:memory:/process_api/xyz\n0::/\n";
        let dirs = cgroup_dirs(cgroup, mountinfo);
        assert_eq!(
            dirs,
            vec![
                (
                    PathBuf::from("/sys/fs/cgroup/memory/process_api/xyz"),
                    Version::V1
                ),
                (
                    PathBuf::from("/sys/fs/cgroup/memory/process_api"),
                    Version::V1
                ),
                (PathBuf::from("/sys/fs/cgroup/memory"), Version::V1),
                (PathBuf::from("/sys/fs/cgroup/un ified"), Version::V2),
            ]
        );
    }

    #[test]
    fn a_second_solver_shares_what_the_first_left() {
        // Other tests of the crate may reserve meanwhile: that only leaves less.
        if available_memory().is_none() {
            return;
        }
        let first = reserve_memory(0, |free| free / 10 * 9);
        let second = reserve_memory(0, |free| free / 10 * 9);
        let now = available_memory().unwrap();
        // Give or take what the machine freed in between (1 GiB): never nine tenths again.
        assert!(
            second.bytes() <= now.saturating_sub(first.bytes()) + (1 << 30),
            "{} then {} of {now}",
            first.bytes(),
            second.bytes()
        );
        assert!(RESERVED.load(Relaxed) >= first.bytes() + second.bytes());
        drop((first, second));
        assert_eq!(reserve_memory(0, |_| 12345).bytes(), 12345);
    }
}
