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

/// Bit layout of the data word of a wide slot (little end first):
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

/// Bit layout of a compact slot, one word (little end first):
///
/// ```text
///  0..8   lower bound  (i8)
///  8..16  upper bound  (i8)
/// 16..20  best house + 1 (0 = none)
/// 20..26  depth, at most 62 (63 = exact)
/// 26..31  work (log2 nodes, at most 31)
/// 31..34  generation, modulo 8
/// 34..64  check: the key's bits above the bucket index, plus one (0 = empty slot)
/// ```
///
/// A depth above 62 is stored as 62: bounds proved with more sowings to go hold with
/// fewer. Work above 31 (two billion nodes) is stored as 31: it only steers replacement.
const COMPACT_CHECK_SHIFT: u32 = 34;
/// The largest check a compact slot holds.
const COMPACT_CHECK_MAX: u64 = (1 << (64 - COMPACT_CHECK_SHIFT)) - 1;
/// The depth field of an exact entry.
const COMPACT_EXACT: u64 = 63;

/// The compact data bits of `e` (the check is added by the caller), or `None` where a
/// bound does not fit in a signed byte (then nothing is stored).
fn pack_compact(e: &Entry, generation: u8) -> Option<u64> {
    let lower = i8::try_from(e.lower).ok()?;
    let upper = i8::try_from(e.upper).ok()?;
    let depth = if e.depth == EXACT_DEPTH {
        COMPACT_EXACT
    } else {
        e.depth.min(COMPACT_EXACT as u8 - 1) as u64
    };
    Some(
        (lower as u8 as u64)
            | (upper as u8 as u64) << 8
            | (e.best.map_or(0, |b| b as u64 + 1) & 0xf) << 16
            | depth << 20
            | (e.work.min(31) as u64) << 26
            | (generation as u64 & 7) << 31,
    )
}

fn unpack_compact(d: u64) -> Entry {
    let b = (d >> 16 & 0xf) as u8;
    let depth = d >> 20 & 63;
    Entry {
        lower: d as u8 as i8 as i16,
        upper: (d >> 8) as u8 as i8 as i16,
        best: b.checked_sub(1),
        depth: if depth == COMPACT_EXACT {
            EXACT_DEPTH
        } else {
            depth as u8
        },
        work: (d >> 26 & 31) as u8,
    }
}

fn compact_generation_of(d: u64) -> u8 {
    (d >> 31 & 7) as u8
}

/// How much keeping `old`, written `age` generations ago, is worth: entries of earlier
/// solves go first, then the shallowest and cheapest.
fn worth(old: &Entry, age: u8) -> i32 {
    old.depth as i32 * 64 + old.work as i32 - 1024 * age as i32
}

/// Words in a bucket: one 64-byte cache line.
const BUCKET_WORDS: usize = 8;

/// A fixed-size table shared by all search threads without locks.
///
/// The table is a power of two of buckets, each one 64-byte cache line. A store replaces
/// the slot of the same key, else an empty or older-generation slot, else the slot with
/// the least depth and work. Reads and writes are `Relaxed`: an entry is a hint that is
/// either valid for its key or ignored; nothing else is published through it.
///
/// **Compact slots** (eight a bucket, one word each) serve games whose keys are exact
/// ranks ([`kalah_core::Game::key_count`]) few enough for the table's size (at most 30
/// bits above the bucket index) and whose values fit in a signed byte. The
/// bucket is the key's low bits plus a hash of its high bits (modulo the bucket count),
/// and the slot keeps those high bits: bucket and check give back the whole key, so a
/// slot is never taken for another position's. A slot is one word, written and read at
/// once, so it is never seen torn. Half the memory of wide slots for as many entries:
/// fewer pages to zero on first touch, fewer cache and TLB misses.
///
/// **Wide slots** (four a bucket) serve every other game. Each is two words, `key ^ data`
/// and `data` (the scheme of Hyatt's lockless hashing, as in Stockfish and carp). A reader
/// accepts a slot only when the two words XOR back to its key, so a slot torn by two
/// writers racing is rejected, not misread (a false accept needs a 64-bit coincidence
/// between three unrelated words). The keys are the full 64-bit keys of
/// [`kalah_core::Game::key`].
pub struct Table {
    slots: Block<AtomicU64>,
    /// log2 of the number of buckets.
    bits: u32,
    compact: bool,
    generation: std::sync::atomic::AtomicU8,
}

impl Table {
    /// A zeroed table of the largest power of two of 64-byte buckets that fits in
    /// `megabytes` MiB (at least one bucket), for keys below `keys` where that is
    /// `Some`: compact slots where the keys allow (see the type's notes), else wide ones.
    /// With compact slots, an entry whose bounds do not fit in a signed byte is not kept.
    ///
    /// Ends the process, as a failed allocation of the standard library does, where the
    /// system has not that much memory to give; [`Table::try_for_game`] returns `None`.
    pub fn new(megabytes: usize, keys: Option<u64>) -> Table {
        Table::try_new(megabytes, keys).unwrap_or_else(|| {
            let bytes = Table::bytes_for(megabytes);
            std::alloc::handle_alloc_error(
                std::alloc::Layout::from_size_align(bytes, 8)
                    .unwrap_or(std::alloc::Layout::new::<u64>()),
            )
        })
    }

    /// [`Table::new`], or `None` where the system has not that much memory to give.
    pub fn try_new(megabytes: usize, keys: Option<u64>) -> Option<Table> {
        Table::try_with_bits(Table::bits_for(megabytes), keys)
    }

    /// A table of `1 << bits` buckets, for the tests.
    #[cfg(test)]
    fn with_bits(bits: u32, keys: Option<u64>) -> Table {
        Table::try_with_bits(bits, keys).expect("a small table")
    }

    fn try_with_bits(bits: u32, keys: Option<u64>) -> Option<Table> {
        let compact = keys.is_some_and(|n| n.saturating_sub(1) >> bits < COMPACT_CHECK_MAX);
        Some(Table {
            slots: Block::try_zeroed(BUCKET_WORDS << bits)?,
            bits,
            compact,
            generation: Default::default(),
        })
    }

    /// The table for `game`: compact where its keys are exact and its values fit a byte.
    pub fn for_game(megabytes: usize, game: &kalah_core::Game) -> Table {
        Table::new(megabytes, Table::keys_of(game))
    }

    /// [`Table::for_game`], or `None` where the system has not that much memory to give.
    pub fn try_for_game(megabytes: usize, game: &kalah_core::Game) -> Option<Table> {
        Table::try_new(megabytes, Table::keys_of(game))
    }

    /// The bytes a table of `megabytes` MiB takes: the largest power of two of buckets
    /// that fits (at least one bucket).
    pub fn bytes_for(megabytes: usize) -> usize {
        (BUCKET_WORDS << Table::bits_for(megabytes)) * 8
    }

    /// log2 of the buckets of a table of `megabytes` MiB.
    fn bits_for(megabytes: usize) -> u32 {
        (megabytes.saturating_mul(1 << 20) / (BUCKET_WORDS * 8))
            .max(1)
            .ilog2()
    }

    /// The keys of `game` where a compact table can hold them.
    fn keys_of(game: &kalah_core::Game) -> Option<u64> {
        game.key_count()
            .filter(|_| game.capacity() <= i8::MAX as usize)
    }

    /// Size in bytes.
    pub fn bytes(&self) -> usize {
        self.slots.len() * 8
    }

    /// Number of entries it can hold.
    pub fn capacity(&self) -> usize {
        if self.compact {
            self.slots.len()
        } else {
            self.slots.len() / 2
        }
    }

    /// True when the slots are one word each.
    pub fn is_compact(&self) -> bool {
        self.compact
    }

    /// Maps every page of the table now (see `pages::Block::prefault`), so that the
    /// first search does not pay the page faults inside its time budget; the entries
    /// touched are lost, as any entry may be.
    pub fn prefault(&self) {
        self.slots.prefault();
    }

    /// Empties the table and restarts its generations: it is then as it was made, so
    /// that what a search finds next depends on its position and limits alone, not on
    /// what earlier searches left (see [`crate::Solver::clear_table`]). Costs a pass over
    /// the whole table, in parallel.
    pub fn clear(&self) {
        self.slots.clear_all();
        self.generation.store(0, Relaxed);
    }

    /// Starts a new generation: older entries become the first to be replaced.
    pub fn new_generation(&self) {
        self.generation.fetch_add(1, Relaxed);
    }

    /// The first word of the bucket of `key`.
    #[inline]
    fn bucket(&self, key: u64) -> usize {
        let mask = (1u64 << self.bits) - 1;
        let b = if self.compact {
            // The low bits moved by a hash of the high bits: invertible given the high bits.
            key.wrapping_add(kalah_core::mix(key >> self.bits)) & mask
        } else {
            (((kalah_core::mix(key) as u128) << self.bits) >> 64) as u64
        };
        b as usize * BUCKET_WORDS
    }

    /// What a compact slot of `key` holds in its check bits.
    #[inline]
    fn check(&self, key: u64) -> u64 {
        (key >> self.bits) + 1
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
        let slots = &self.slots[b..b + BUCKET_WORDS];
        if self.compact {
            let check = self.check(key);
            slots
                .iter()
                .map(|s| s.load(Relaxed))
                .find(|d| d >> COMPACT_CHECK_SHIFT == check)
                .map(unpack_compact)
        } else {
            slots.chunks_exact(2).find_map(|s| {
                let x = s[0].load(Relaxed);
                let d = s[1].load(Relaxed);
                (x ^ d == key && d != 0).then(|| unpack(d))
            })
        }
    }

    /// Stores `entry` for `key`.
    #[inline]
    pub fn store(&self, key: u64, entry: &Entry) {
        let generation = self.generation.load(Relaxed);
        let b = self.bucket(key);
        // The slot to overwrite: the key's own or an empty one, else the least worth.
        let mut victim = b;
        let mut victim_worth = i32::MAX;
        if self.compact {
            let Some(d) = pack_compact(entry, generation) else {
                return;
            };
            let check = self.check(key);
            for i in b..b + BUCKET_WORDS {
                let od = self.slots[i].load(Relaxed);
                if od == 0 || od >> COMPACT_CHECK_SHIFT == check {
                    victim = i;
                    break;
                }
                let age = generation.wrapping_sub(compact_generation_of(od)) & 7;
                let w = worth(&unpack_compact(od), age);
                if w < victim_worth {
                    (victim, victim_worth) = (i, w);
                }
            }
            self.slots[victim].store(check << COMPACT_CHECK_SHIFT | d, Relaxed);
        } else {
            let d = pack(entry, generation);
            for i in (b..b + BUCKET_WORDS).step_by(2) {
                let od = self.slots[i + 1].load(Relaxed);
                let ox = self.slots[i].load(Relaxed);
                if od == 0 || ox ^ od == key {
                    victim = i;
                    break;
                }
                let w = worth(&unpack(od), generation.wrapping_sub(generation_of(od)));
                if w < victim_worth {
                    (victim, victim_worth) = (i, w);
                }
            }
            self.slots[victim].store(key ^ d, Relaxed);
            self.slots[victim + 1].store(d, Relaxed);
        }
    }

    /// Per mille of the slots in use, from a sample of the first buckets.
    pub fn usage_permille(&self) -> u32 {
        let n = self.capacity().min(4000);
        let used = (0..n)
            .filter(|&i| {
                let word = if self.compact { i } else { 2 * i + 1 };
                self.slots[word].load(Relaxed) != 0
            })
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

    /// Entries that set every field to an extreme: bounds `lowest..=highest`, and the
    /// largest depth and work the layout keeps.
    fn extremes(lowest: i16, highest: i16, depth: u8, work: u8) -> [Entry; 3] {
        [
            entry(lowest, highest),
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
                depth,
                work,
            },
        ]
    }

    #[test]
    fn packing_round_trips_every_field() {
        for e in extremes(-255, 255, 12, 63) {
            assert_eq!(unpack(pack(&e, 200)), e);
            assert_eq!(generation_of(pack(&e, 200)), 200);
        }
    }

    #[test]
    fn compact_packing_round_trips_and_clamps_depth_and_work() {
        for e in extremes(-128, 127, 62, 31) {
            let d = pack_compact(&e, 13).unwrap();
            assert_eq!(d >> COMPACT_CHECK_SHIFT, 0, "the check bits are left free");
            assert_eq!(unpack_compact(d), e);
            assert_eq!(compact_generation_of(d), 13 & 7);
        }
        // Deeper bounds are kept as bounds of depth 62; work saturates.
        let deep = Entry {
            depth: 100,
            work: 40,
            ..entry(-2, 2)
        };
        let back = unpack_compact(pack_compact(&deep, 0).unwrap());
        assert_eq!((back.depth, back.work), (62, 31));
        // A bound outside a byte is not stored at all.
        assert_eq!(pack_compact(&entry(-129, 0), 0), None);
        assert_eq!(pack_compact(&entry(0, 200), 0), None);
    }

    #[test]
    fn compact_slots_only_where_the_keys_fit() {
        assert!(Table::new(1, Some(1 << 40)).is_compact());
        assert!(!Table::new(1, Some(u64::MAX)).is_compact());
        assert!(!Table::new(1, None).is_compact());
        // 1 MiB: 2^14 buckets; the 30 check bits hold 1 + (key >> 14).
        let limit = COMPACT_CHECK_MAX << 14;
        assert!(Table::new(1, Some(limit)).is_compact());
        assert!(!Table::new(1, Some(limit + 1)).is_compact());
        assert_eq!(Table::new(1, Some(1 << 40)).capacity(), 1 << 17);
        assert_eq!(Table::new(1, None).capacity(), 1 << 16);
        // Sizes round down to a power of two of buckets.
        assert_eq!(Table::new(3, None).bytes(), 2 << 20);
        // Kalah(6,4) and (6,6) have exact keys and values that fit: compact from 64 MiB
        // (2^20 buckets; Kalah(6,6) has about 2^46.5 keys).
        for seeds in [4, 6] {
            let game = kalah_core::Game::new(kalah_core::Rules::kalah(6, seeds)).unwrap();
            assert!(Table::for_game(64, &game).is_compact());
        }
    }

    #[test]
    fn bucket_and_check_give_back_the_key() {
        // Four buckets: every key below 4096 has its own (bucket, check) pair.
        let t = Table::with_bits(2, Some(4096));
        let mut seen = std::collections::HashSet::new();
        for key in 0..4096u64 {
            assert!(seen.insert((t.bucket(key), t.check(key))), "key {key}");
        }
    }

    #[test]
    fn stored_entry_is_found_and_others_are_not() {
        for keys in [Some(1 << 20), None] {
            let t = Table::new(1, keys);
            t.store(42, &entry(-3, 5));
            assert_eq!(t.probe(42), Some(entry(-3, 5)));
            assert_eq!(t.probe(43), None);
            t.store(42, &entry(1, 1));
            assert_eq!(t.probe(42), Some(entry(1, 1)));
        }
    }

    #[test]
    fn a_probe_never_returns_another_keys_entry() {
        for keys in [Some(4096), None] {
            // Two buckets, so that many keys compete for each slot.
            let t = Table::with_bits(1, keys);
            let mark = |key: u64| Entry {
                lower: (key % 100) as i16,
                upper: (key % 100) as i16,
                ..entry(0, 0)
            };
            for key in 0..4096u64 {
                t.store(key, &mark(key));
                assert_eq!(t.probe(key), Some(mark(key)), "just stored");
            }
            for key in 0..4096u64 {
                if let Some(e) = t.probe(key) {
                    assert_eq!(e, mark(key), "key {key}");
                }
            }
        }
    }

    #[test]
    fn a_full_bucket_keeps_the_most_valuable_entries() {
        for compact in [true, false] {
            let t = Table::with_bits(0, compact.then_some(1000));
            assert_eq!(t.is_compact(), compact);
            let ways = if compact { 8 } else { 4 };
            for k in 1..=ways {
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
            for k in 2..=ways {
                assert!(t.probe(k).is_some());
            }
            // An entry of an earlier generation goes first, whatever its worth.
            t.new_generation();
            t.store(200, &entry(0, 0));
            assert_eq!(t.probe(200), Some(entry(0, 0)));
            assert!(t.probe(100).is_some(), "the costliest survives");
            let left = (2..=ways).filter(|&k| t.probe(k).is_some()).count() as u64;
            assert_eq!(left, ways - 2);
        }
    }

    #[test]
    fn torn_slot_is_rejected() {
        let t = Table::new(1, None);
        t.store(7, &entry(2, 2));
        let b = t.bucket(7);
        // Another writer's data word lands without its key word.
        t.slots[b + 1].store(pack(&entry(9, 9), 0), Relaxed);
        assert_eq!(t.probe(7), None);
    }
}
