//! The bytes of a database: one owned block of `AtomicI8` (see [`crate::pages`]).

use std::sync::atomic::AtomicI8;

use crate::pages::Block;

/// An owned, fixed-size block of atomic bytes (a [`Block`] with byte-level access).
pub(crate) struct Bytes(Block<AtomicI8>);

impl Bytes {
    /// `len` bytes, each set to `value`.
    pub(crate) fn filled(len: usize, value: i8) -> Bytes {
        let mut bytes = Bytes(Block::zeroed(len));
        if value != 0 {
            bytes.as_mut_bytes().fill(value as u8);
        }
        bytes
    }

    /// The bytes as plain memory, for filling and reading a file into them.
    pub(crate) fn as_mut_bytes(&mut self) -> &mut [u8] {
        // SAFETY: `&mut self` excludes every other access; AtomicI8 has the layout of u8.
        unsafe { std::slice::from_raw_parts_mut(self.0.as_ptr() as *mut u8, self.0.len()) }
    }

    /// The bytes as plain memory, for writing and hashing once no thread writes them.
    pub(crate) fn as_bytes(&self) -> &[u8] {
        // SAFETY: callers hold the database without any build running (a build needs
        // `&mut Egdb`), so no atomic store races with these plain reads.
        unsafe { std::slice::from_raw_parts(self.0.as_ptr() as *const u8, self.0.len()) }
    }

    /// Asks the CPU to bring byte `i` into cache.
    #[inline]
    pub(crate) fn prefetch(&self, i: usize) {
        debug_assert!(i < self.0.len());
        #[cfg(target_arch = "x86_64")]
        // SAFETY: the pointer is in bounds; prefetching has no other effect.
        unsafe {
            std::arch::x86_64::_mm_prefetch(
                self.0.as_ptr().add(i) as *const i8,
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
        &self.0
    }
}
