//! Large zeroed blocks of atomics for the transposition table and the endgame database:
//! on Linux an anonymous mapping advised to use transparent huge pages (a probe is a
//! random access into hundreds of MiB, and with 4 KiB pages nearly every probe would also
//! miss the TLB), elsewhere the global allocator.

use std::alloc::Layout;
use std::sync::atomic::{AtomicI8, AtomicU16, AtomicU64, Ordering::Relaxed};

use rayon::prelude::*;

/// Atomic integer types, for which an all-zero block is a valid array of values.
///
/// # Safety
/// Implementors must be valid when all their bytes are zero and safe to share.
pub(crate) unsafe trait Zeroable: Sync {
    /// Stores zero (relaxed).
    fn clear(&self);
}
// SAFETY: atomics of integers: zero is a valid value, and they are Sync.
unsafe impl Zeroable for AtomicU64 {
    fn clear(&self) {
        self.store(0, Relaxed);
    }
}
// SAFETY: as above.
unsafe impl Zeroable for AtomicI8 {
    fn clear(&self) {
        self.store(0, Relaxed);
    }
}
// SAFETY: as above.
unsafe impl Zeroable for AtomicU16 {
    fn clear(&self) {
        self.store(0, Relaxed);
    }
}

/// The smallest page a system maps: what [`Block::prefault`] touches one element of.
const SMALL_PAGE: usize = 4096;

/// The most bytes [`Block::clear_all`] clears on the calling thread alone.
const SEQUENTIAL_CLEAR: usize = 32 << 20;

/// An owned, fixed-size, zero-initialised block of `T`.
pub(crate) struct Block<T: Zeroable> {
    ptr: *mut T,
    len: usize,
    /// Bytes mapped with `mmap` (0: from the global allocator, or empty).
    mapped: usize,
}

// SAFETY: the elements are atomics; the pointer is owned and freed once, in Drop.
unsafe impl<T: Zeroable> Send for Block<T> {}
// SAFETY: as above; shared access goes through the atomics only.
unsafe impl<T: Zeroable> Sync for Block<T> {}

#[cfg(target_os = "linux")]
const HUGE_PAGE: usize = 2 << 20;

impl<T: Zeroable> Block<T> {
    /// No elements.
    pub(crate) fn zeroed_empty() -> Block<T> {
        Block {
            ptr: std::ptr::NonNull::dangling().as_ptr(),
            len: 0,
            mapped: 0,
        }
    }

    /// `len` zeroed elements; `None` where the system has not that much memory to give.
    pub(crate) fn try_zeroed(len: usize) -> Option<Block<T>> {
        let layout = Layout::array::<T>(len).ok()?;
        if layout.size() == 0 {
            return Some(Block {
                ptr: std::ptr::NonNull::dangling().as_ptr(),
                len,
                mapped: 0,
            });
        }
        #[cfg(target_os = "linux")]
        {
            let bytes = layout.size().div_ceil(HUGE_PAGE) * HUGE_PAGE;
            // SAFETY: a fresh private anonymous mapping (page aligned, zero filled);
            // checked for failure below.
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
                return Some(Block {
                    ptr: p as *mut T,
                    len,
                    mapped: bytes,
                });
            }
        }
        // SAFETY: the layout has a non-zero size.
        let p = unsafe { std::alloc::alloc_zeroed(layout) } as *mut T;
        (!p.is_null()).then_some(Block {
            ptr: p,
            len,
            mapped: 0,
        })
    }

    /// `len` zeroed elements; aborts as a `Vec` does where the system has not that much
    /// memory to give.
    pub(crate) fn zeroed(len: usize) -> Block<T> {
        Block::try_zeroed(len).unwrap_or_else(|| {
            std::alloc::handle_alloc_error(Layout::array::<T>(len).unwrap_or(Layout::new::<T>()))
        })
    }

    /// Maps every page of the block now, on every core, by storing zero into one element
    /// of each: the page faults (on Linux the allocation, zeroing and, for a block advised
    /// huge pages, compaction behind them) are paid here instead of by the first search
    /// that touches each page, inside its time budget. A write, not a read: a read first
    /// maps the shared zero page, and the first write then faults a second time. The
    /// elements touched become zero: for a table (racy by design, an entry zeroed is an
    /// entry lost) or a block not yet written.
    pub(crate) fn prefault(&self) {
        let step = (SMALL_PAGE / std::mem::size_of::<T>().max(1)).max(1);
        (0..self.len)
            .into_par_iter()
            .step_by(step)
            .for_each(|i| self[i].clear());
    }

    /// Stores zero in every element: the block as it was made, its pages kept. A block of
    /// up to [`SEQUENTIAL_CLEAR`] bytes is cleared on the calling thread, a larger one in
    /// parallel: waking the thread pool costs the kernel about a tenth of a millisecond
    /// (futex and yield calls), more than clearing a few MiB, and a run of short solves
    /// each on an empty table (`kalah batch`, `kalah book build`) pays it every solve.
    pub(crate) fn clear_all(&self) {
        if std::mem::size_of_val::<[T]>(self) <= SEQUENTIAL_CLEAR {
            self.iter().for_each(|x| x.clear());
        } else {
            self.par_iter().for_each(|x| x.clear());
        }
    }

    /// The raw pointer to the first element.
    #[inline]
    pub(crate) fn as_ptr(&self) -> *mut T {
        self.ptr
    }
}

impl<T: Zeroable> std::ops::Deref for Block<T> {
    type Target = [T];
    #[inline]
    fn deref(&self) -> &[T] {
        // SAFETY: ptr points to len zero-initialised (hence valid) elements owned by self.
        unsafe { std::slice::from_raw_parts(self.ptr, self.len) }
    }
}

impl<T: Zeroable> Drop for Block<T> {
    fn drop(&mut self) {
        if self.mapped != 0 {
            #[cfg(target_os = "linux")]
            // SAFETY: unmapping exactly the mapping made in `zeroed`.
            unsafe {
                libc::munmap(self.ptr as *mut libc::c_void, self.mapped);
            }
        } else if self.len > 0 && std::mem::size_of::<T>() > 0 {
            let layout = Layout::array::<T>(self.len).expect("as allocated");
            // SAFETY: freeing the allocation made in `zeroed` with its layout.
            unsafe { std::alloc::dealloc(self.ptr as *mut u8, layout) };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A block cleared on the calling thread (small) and one cleared in parallel (above
    /// `SEQUENTIAL_CLEAR`) both end all zero, their pages kept.
    #[test]
    fn clear_all_zeroes_blocks_on_either_side_of_the_sequential_limit() {
        for len in [1000, SEQUENTIAL_CLEAR / 8 + 1] {
            let block: Block<AtomicU64> = Block::zeroed(len);
            for i in (0..len).step_by(7) {
                block[i].store(i as u64 + 1, Relaxed);
            }
            block.clear_all();
            assert!(block.iter().all(|x| x.load(Relaxed) == 0), "{len} elements");
        }
    }
}
