//! The bytes of a database: one owned block of `AtomicI8`, on transparent huge pages
//! where the system has them (every probe is a random access into up to a few GiB, and
//! with 4 KiB pages nearly every one would also miss the TLB), else a boxed slice.

use std::sync::atomic::AtomicI8;

/// An owned, fixed-size block of atomic bytes.
pub(crate) struct Bytes {
    ptr: *mut AtomicI8,
    len: usize,
    /// Bytes mapped with `mmap` (0: allocated as a boxed slice).
    mapped: usize,
}

// SAFETY: the bytes are atomics; the pointer is owned and freed once, in Drop.
unsafe impl Send for Bytes {}
// SAFETY: as above; shared access goes through atomic operations only.
unsafe impl Sync for Bytes {}

#[cfg(target_os = "linux")]
const HUGE_PAGE: usize = 2 << 20;

impl Bytes {
    /// `len` bytes, each set to `value`.
    pub(crate) fn filled(len: usize, value: i8) -> Bytes {
        let mut bytes = Bytes::zeroed(len);
        if value != 0 {
            bytes.as_mut_bytes().fill(value as u8);
        }
        bytes
    }

    /// `len` zero bytes.
    pub(crate) fn zeroed(len: usize) -> Bytes {
        #[cfg(target_os = "linux")]
        if len > 0 {
            let bytes = len.div_ceil(HUGE_PAGE) * HUGE_PAGE;
            // SAFETY: a fresh private anonymous mapping; checked for failure below.
            let p = unsafe {
                libc::mmap(
                    std::ptr::null_mut(),
                    bytes,
                    libc::PROT_READ | libc::PROT_WRITE,
                    libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                    -1,
                    0,
                )
            };
            if p != libc::MAP_FAILED {
                // SAFETY: advising our own mapping; failure only means small pages.
                unsafe { libc::madvise(p, bytes, libc::MADV_HUGEPAGE) };
                return Bytes {
                    ptr: p as *mut AtomicI8,
                    len,
                    mapped: bytes,
                };
            }
        }
        let raw: Box<[u8]> = vec![0u8; len].into_boxed_slice();
        Bytes {
            ptr: Box::into_raw(raw) as *mut AtomicI8,
            len,
            mapped: 0,
        }
    }

    /// The bytes as plain memory, for filling and reading a file into them.
    pub(crate) fn as_mut_bytes(&mut self) -> &mut [u8] {
        // SAFETY: `&mut self` excludes every other access; AtomicI8 has the layout of u8.
        unsafe { std::slice::from_raw_parts_mut(self.ptr as *mut u8, self.len) }
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

impl std::ops::Deref for Bytes {
    type Target = [AtomicI8];
    #[inline]
    fn deref(&self) -> &[AtomicI8] {
        // SAFETY: ptr points to len initialised bytes owned by self; AtomicI8 has the
        // layout of i8 and every bit pattern is valid.
        unsafe { std::slice::from_raw_parts(self.ptr, self.len) }
    }
}

impl Drop for Bytes {
    fn drop(&mut self) {
        if self.mapped != 0 {
            #[cfg(target_os = "linux")]
            // SAFETY: unmapping exactly the mapping made in `zeroed`.
            unsafe {
                libc::munmap(self.ptr as *mut libc::c_void, self.mapped);
            }
        } else {
            // SAFETY: rebuilding the box leaked in `zeroed`.
            drop(unsafe {
                Box::from_raw(std::ptr::slice_from_raw_parts_mut(
                    self.ptr as *mut u8,
                    self.len,
                ))
            });
        }
    }
}
