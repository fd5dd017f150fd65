//! The shared, lock-free transposition table: a fixed array of packed atomic entries.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use crate::pages::Block;

/// Depth recorded for bounds proved by a search without a depth limit.
pub const EXACT_DEPTH: u8 = u8::MAX;

/// What the table remembers of one position.
///
/// Values are *relative*: the final margin for the mover minus the store margin of the
/// position (see [`kalah_core::Game::key`] for why the stores can be left out of the key).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Lower bound of the relative value.
    pub lower: i16,
    /// Upper bound of the relative value.
    pub upper: i16,
    /// Best (or refuting) sowing found, as a house of the mover, if any.
    pub best: Option<u8>,
    /// Remaining depth the bounds were proved with; [`EXACT_DEPTH`] for exact bounds.
    pub depth: u8,
    /// log2 of the nodes spent below this position: how costly it is to recompute.
    pub work: u8,
}

/// Bit layout of the data word (little end first):
///
/// ```text
///  0..16  lower bound  (i16)
/// 16..32  upper bound  (i16)
/// 32..36  best house + 1 (0 = none)
/// 36..44  depth
/// 44..50  work (log2 nodes, 0..63)
/// 50..58  generation (the solve that wrote it)
/// ```
fn pack(e: &Entry, generation: u8) -> u64 {
    (e.lower as u16 as u64)
        | (e.upper as u16 as u64) << 16
        | (e.best.map_or(0, |b| b as u64 + 1) & 0xf) << 32
        | (e.depth as u64) << 36
        | (e.work.min(63) as u64) << 44
        | (generation as u64) << 50
}

fn unpack(d: u64) -> Entry {
    let b = (d >> 32 & 0xf) as u8;
    Entry {
        lower: d as u16 as i16,
        upper: (d >> 16) as u16 as i16,
        best: b.checked_sub(1),
        depth: (d >> 36) as u8,
        work: (d >> 44 & 63) as u8,
    }
}

fn generation_of(d: u64) -> u8 {
    (d >> 50) as u8
}

const WAYS: usize = 4;

/// A fixed-size table shared by all search threads without locks.
///
/// Each slot is two `AtomicU64`: `key ^ data` and `data` (the scheme of Hyatt's lockless
/// hashing, as in Stockfish and carp). A reader accepts a slot only when the two words
/// XOR back to its key, so a slot torn by two writers racing is rejected, not misread
/// (a false accept needs a 64-bit coincidence between three unrelated words). Keys are
/// the full 64-bit keys of [`kalah_core::Game::key`] (exact ranks on the usual boards), so
/// there is no index aliasing either. Reads and writes are `Relaxed`: an entry is a hint
/// that is either valid for its key or ignored; nothing else is published through it.
///
/// Slots are grouped in buckets of four (one 64-byte cache line); a store replaces the
/// slot of the same key, else an empty or older-generation slot, else the slot with the
/// least depth and work.
pub struct Table {
    slots: Block<AtomicU64>,
    buckets: u64,
    generation: std::sync::atomic::AtomicU8,
}

impl Table {
    /// A table of about `megabytes` MiB (at least one bucket), zeroed.
    pub fn new(megabytes: usize) -> Table {
        Table::with_buckets(((megabytes << 20) / (WAYS * 16)).max(1))
    }

    fn with_buckets(buckets: usize) -> Table {
        let slots = Block::zeroed(buckets * WAYS * 2);
        Table {
            slots,
            buckets: buckets as u64,
            generation: Default::default(),
        }
    }

    /// Size in bytes.
    pub fn bytes(&self) -> usize {
        self.slots.len() * 8
    }

    /// Number of entries it can hold.
    pub fn capacity(&self) -> usize {
        self.slots.len() / 2
    }

    /// Starts a new generation: older entries become the first to be replaced.
    pub fn new_generation(&self) {
        self.generation.fetch_add(1, Relaxed);
    }

    #[inline]
    fn bucket(&self, key: u64) -> usize {
        let h = kalah_core::mix(key);
        (((h as u128) * (self.buckets as u128)) >> 64) as usize * WAYS * 2
    }

    /// Asks the CPU to bring the bucket of `key` into cache.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let i = self.bucket(key);
            // SAFETY: the pointer is in bounds; prefetching has no other effect.
            unsafe {
                std::arch::x86_64::_mm_prefetch(
                    self.slots.as_ptr().add(i) as *const i8,
                    std::arch::x86_64::_MM_HINT_T0,
                )
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The entry stored for `key`, if any.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let b = self.bucket(key);
        for w in 0..WAYS {
            let x = self.slots[b + 2 * w].load(Relaxed);
            let d = self.slots[b + 2 * w + 1].load(Relaxed);
            if x ^ d == key && d != 0 {
                return Some(unpack(d));
            }
        }
        None
    }

    /// Stores `entry` for `key`.
    #[inline]
    pub fn store(&self, key: u64, entry: &Entry) {
        let generation = self.generation.load(Relaxed);
        let d = pack(entry, generation);
        let b = self.bucket(key);
        let mut victim = b;
        let mut victim_score = i32::MAX;
        for w in 0..WAYS {
            let i = b + 2 * w;
            let od = self.slots[i + 1].load(Relaxed);
            let ox = self.slots[i].load(Relaxed);
            if od == 0 || ox ^ od == key {
                victim = i;
                break;
            }
            let old = unpack(od);
            let age = generation.wrapping_sub(generation_of(od)) as i32;
            let score = old.depth as i32 * 64 + old.work as i32 - 1024 * age;
            if score < victim_score {
                victim_score = score;
                victim = i;
            }
        }
        self.slots[victim].store(key ^ d, Relaxed);
        self.slots[victim + 1].store(d, Relaxed);
    }

    /// Per mille of the slots in use, from a sample of the first buckets.
    pub fn usage_permille(&self) -> u32 {
        let n = (self.slots.len() / 2).min(4000);
        let used = (0..n)
            .filter(|&i| self.slots[2 * i + 1].load(Relaxed) != 0)
            .count();
        (used * 1000).checked_div(n).unwrap_or(0) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(lower: i16, upper: i16) -> Entry {
        Entry {
            lower,
            upper,
            best: Some(3),
            depth: EXACT_DEPTH,
            work: 7,
        }
    }

    #[test]
    fn packing_round_trips_every_field() {
        for e in [
            entry(-255, 255),
            Entry {
                lower: 0,
                upper: 0,
                best: None,
                depth: 0,
                work: 0,
            },
            Entry {
                lower: -1,
                upper: 3,
                best: Some(7),
                depth: 12,
                work: 63,
            },
        ] {
            assert_eq!(unpack(pack(&e, 200)), e);
            assert_eq!(generation_of(pack(&e, 200)), 200);
        }
    }

    #[test]
    fn stored_entry_is_found_and_others_are_not() {
        let t = Table::new(1);
        t.store(42, &entry(-3, 5));
        assert_eq!(t.probe(42), Some(entry(-3, 5)));
        assert_eq!(t.probe(43), None);
        t.store(42, &entry(1, 1));
        assert_eq!(t.probe(42), Some(entry(1, 1)));
    }

    #[test]
    fn a_full_bucket_keeps_the_most_valuable_entries() {
        let t = Table::with_buckets(1);
        for k in 1..=WAYS as u64 {
            t.store(
                k,
                &Entry {
                    work: 10 + k as u8,
                    ..entry(0, 0)
                },
            );
        }
        t.store(
            100,
            &Entry {
                work: 30,
                ..entry(0, 0)
            },
        );
        assert!(t.probe(1).is_none(), "the cheapest entry is replaced");
        assert!(t.probe(100).is_some());
        for k in 2..=WAYS as u64 {
            assert!(t.probe(k).is_some());
        }
    }

    #[test]
    fn torn_slot_is_rejected() {
        let t = Table::new(1);
        t.store(7, &entry(2, 2));
        let b = t.bucket(7);
        // Another writer's data word lands without its key word.
        t.slots[b + 1].store(pack(&entry(9, 9), 0), Relaxed);
        assert_eq!(t.probe(7), None);
    }
}
