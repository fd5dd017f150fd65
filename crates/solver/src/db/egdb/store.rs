//! The bytes of a database: either an owned block of `AtomicI8` (see [`crate::pages`]),
//! which a build writes, or a read-only memory map of a finished file.

use std::sync::atomic::AtomicI8;

use crate::pages::Block;

/// Who owns the memory behind [`Bytes`].
enum Owner {
    /// Zeroed memory of our own, written by a build.
    Block(#[allow(dead_code)] Block<AtomicI8>),
    /// A private read-only mapping of a database file; the values start `HEADER` bytes
    /// in. Never written: only a build writes values, and a build starts from an
    /// owned block ([`super::Egdb::build_level`] refuses a mapped database).
    Map(#[allow(dead_code)] memmap2::Mmap),
}

/// A fixed-size block of atomic bytes (byte-level access to an owned [`Block`] or to a
/// mapped file).
pub(crate) struct Bytes {
    ptr: *const AtomicI8,
    len: usize,
    owner: Owner,
}

// SAFETY: the pointer points into `owner`, which is Send and Sync (a Block of atomics,
// or a read-only mapping); shared access goes through atomics or plain reads of bytes
// nobody writes.
unsafe impl Send for Bytes {}
// SAFETY: as above.
unsafe impl Sync for Bytes {}

impl Bytes {
    /// No bytes.
    pub(crate) fn empty() -> Bytes {
        let block = Block::<AtomicI8>::zeroed_empty();
        Bytes {
            ptr: block.as_ptr(),
            len: 0,
            owner: Owner::Block(block),
        }
    }

    /// `len` bytes, each set to `value`; `None` where the system has not that much memory
    /// to give.
    pub(crate) fn filled(len: usize, value: i8) -> Option<Bytes> {
        let block = Block::<AtomicI8>::try_zeroed(len)?;
        let mut bytes = Bytes {
            ptr: block.as_ptr(),
            len,
            owner: Owner::Block(block),
        };
        if value != 0 {
            if let Some(b) = bytes.as_mut_bytes() {
                b.fill(value as u8);
            }
        }
        Some(bytes)
    }

    /// The `len` bytes of `map` from byte `offset` on (`None` when the map is shorter).
    pub(crate) fn mapped(map: memmap2::Mmap, offset: usize, len: usize) -> Option<Bytes> {
        if offset.checked_add(len)? > map.len() {
            return None;
        }
        // SAFETY: in bounds, checked above; AtomicI8 has the layout of u8.
        let ptr = unsafe { map.as_ptr().add(offset) } as *const AtomicI8;
        Some(Bytes {
            ptr,
            len,
            owner: Owner::Map(map),
        })
    }

    /// Tells the system that a mapped file is now read at random (no read-ahead).
    pub(crate) fn advise_random(&self) {
        #[cfg(unix)]
        if let Owner::Map(map) = &self.owner {
            let _ = map.advise(memmap2::Advice::Random);
        }
    }

    /// True for a mapped file that the system maps mostly with 2 MiB pages (at least
    /// three quarters of it, by `FilePmdMapped` in `/proc/self/smaps`, read once its pages
    /// are all mapped; a file read from the disk through a map advised huge pages comes
    /// out about 85% so, and copying all of it for the rest costs more fresh memory than
    /// it saves); false where that cannot be told (other systems) or for owned memory.
    pub(crate) fn on_huge_pages(&self) -> bool {
        match &self.owner {
            Owner::Map(map) => {
                huge_mapped(map.as_ptr() as usize).is_some_and(|b| b >= map.len() as u64 / 4 * 3)
            }
            Owner::Block(_) => false,
        }
    }

    /// True for the bytes of a mapped file (read-only).
    pub(crate) fn is_mapped(&self) -> bool {
        matches!(self.owner, Owner::Map(_))
    }

    /// The bytes as plain memory, for filling and reading a file into them; `None` for a
    /// mapped file, which is read-only.
    pub(crate) fn as_mut_bytes(&mut self) -> Option<&mut [u8]> {
        match &self.owner {
            // SAFETY: `&mut self` excludes every other access to the block we own;
            // AtomicI8 has the layout of u8.
            Owner::Block(_) => {
                Some(unsafe { std::slice::from_raw_parts_mut(self.ptr as *mut u8, self.len) })
            }
            Owner::Map(_) => None,
        }
    }

    /// The bytes as plain memory, for writing and hashing once no thread writes them.
    pub(crate) fn as_bytes(&self) -> &[u8] {
        // SAFETY: callers hold the database without any build running (a build needs
        // `&mut Egdb`), so no atomic store races with these plain reads.
        unsafe { std::slice::from_raw_parts(self.ptr as *const u8, self.len) }
    }

    /// Asks the CPU to bring byte `i` into cache.
    #[inline]
    pub(crate) fn prefetch(&self, i: usize) {
        debug_assert!(i < self.len);
        #[cfg(target_arch = "x86_64")]
        // SAFETY: the pointer is in bounds; prefetching has no other effect.
        unsafe {
            std::arch::x86_64::_mm_prefetch(
                self.ptr.add(i) as *const i8,
                std::arch::x86_64::_MM_HINT_T0,
            )
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = i;
    }
}

impl Bytes {
    /// The bytes `start..start + len` as plain signed bytes, for a build that reads
    /// finished entries while it writes others.
    ///
    /// # Safety
    ///
    /// No thread writes any of these bytes while the slice lives, and their last writes
    /// happened before this call.
    #[inline]
    pub(crate) unsafe fn finished(&self, start: usize, len: usize) -> &[i8] {
        assert!(start + len <= self.len, "entries out of range");
        // SAFETY: in bounds (checked above); AtomicI8 has the layout of i8; the caller
        // guarantees that nothing writes them meanwhile.
        unsafe { std::slice::from_raw_parts(self.ptr.add(start) as *const i8, len) }
    }
}

impl std::ops::Deref for Bytes {
    type Target = [AtomicI8];
    #[inline]
    fn deref(&self) -> &[AtomicI8] {
        // SAFETY: `ptr` points to `len` initialised bytes owned by `owner`.
        unsafe { std::slice::from_raw_parts(self.ptr, self.len) }
    }
}

/// Bytes of this process's mapping that starts at `addr` which the system maps with
/// 2 MiB pages: its `FilePmdMapped` line in `/proc/self/smaps` (`None` where there is no
/// such file or entry).
fn huge_mapped(addr: usize) -> Option<u64> {
    pmd_mapped_in(&std::fs::read_to_string("/proc/self/smaps").ok()?, addr)
}

/// [`huge_mapped`] from the text of an `smaps` file.
fn pmd_mapped_in(text: &str, addr: usize) -> Option<u64> {
    let start = format!("{addr:x}-");
    let lines = text.lines().skip_while(|l| !l.starts_with(&start)).skip(1);
    lines
        // The next mapping's header ends this one's fields (`Name:   value`).
        .take_while(|l| {
            l.split_whitespace()
                .next()
                .is_some_and(|w| w.ends_with(':'))
        })
        .find_map(|l| l.strip_prefix("FilePmdMapped:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        .map(|kb| kb * 1024)
}

#[cfg(test)]
mod tests {
    use super::pmd_mapped_in;

    #[test]
    fn smaps_entry_is_found_by_its_start() {
        let text = "\
55d0a0000000-55d0a0200000 r--p 00000000 fd:00 12 /bin/kalah
Size:               2048 kB
FilePmdMapped:         0 kB
VmFlags: rd mr mw me
7f1200000000-7f1400000000 r--p 00000000 fd:00 34 /data/k6-28.egdb
Size:            8388608 kB
Rss:             8388608 kB
FilePmdMapped:   8384512 kB
VmFlags: rd mr mw me hg
7f1400000000-7f1400001000 rw-p 00000000 00:00 0
Size:                  4 kB
";
        assert_eq!(
            pmd_mapped_in(text, 0x7f12_0000_0000),
            Some(8_384_512 * 1024)
        );
        assert_eq!(pmd_mapped_in(text, 0x55d0_a000_0000), Some(0));
        // The last mapping has no such line; an unknown address has no entry.
        assert_eq!(pmd_mapped_in(text, 0x7f14_0000_0000), None);
        assert_eq!(pmd_mapped_in(text, 0x1000), None);
    }
}
