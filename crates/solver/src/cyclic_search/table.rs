//! The transposition table of the cyclic search: a fixed-size table, allocated once per
//! analysis, whose entries hold a heuristic bound and, apart, a proven interval.
//!
//! Each slot keeps the whole key (the mover-first houses and, under the early stop, the
//! stores), so two positions never share an entry and a proven interval is never read
//! for the wrong position. Values are stored relative to the position's store margin:
//! the houses decide the rest of the game (the stores too under the early stop, and then
//! they are in the key), so a value found below one position holds for every position
//! with the same key.
//!
//! The two halves obey different rules (see the module [`super`] on the graph-history
//! interaction): the proven interval is stored only from a search whose every repetition
//! returned to a position inside its own subtree, and is then a proof whatever the path;
//! the heuristic half likewise, so it is exact up to its depth; the best move is always
//! stored (a wrong move only costs time).

use kalah_core::{Game, Position};

/// What the heuristic half of an entry says of the value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    /// No heuristic value.
    None,
    /// The value is at least the stored one.
    Lower,
    /// The value is at most the stored one.
    Upper,
    /// The value is the stored one (at that depth).
    Exact,
}

/// The full key of a position: mover-first houses and (early stop only) the stores.
pub(super) type Key = (u128, [u8; 2]);

/// One slot. `lo..=hi` is the proven interval relative to the store margin (the seeds
/// in the houses bound it where nothing better is known).
#[derive(Clone, Copy, Debug)]
pub(super) struct Slot {
    pub(super) key: Key,
    pub(super) used: bool,
    pub(super) depth: i16,
    pub(super) kind: Kind,
    pub(super) value: i16,
    pub(super) lo: i16,
    pub(super) hi: i16,
    /// The best move found, `u8::MAX` where none.
    pub(super) mv: u8,
}

const EMPTY: Slot = Slot {
    key: (0, [0, 0]),
    used: false,
    depth: 0,
    kind: Kind::None,
    value: 0,
    lo: i16::MIN,
    hi: i16::MAX,
    mv: u8::MAX,
};

/// A fixed-size table of `2^bits` slots, replaced always except that the proven interval
/// of the same key is kept and narrowed.
///
/// A slot is four words, zero where unused (so the table is allocated zeroed, and its
/// pages are touched only as the search reaches them):
/// - words 0 and 1: the mover-first houses (low, high);
/// - word 2: the stores (bits 0-15), the depth (16-31), the kind (32-39), the move
///   (40-47), the heuristic value (48-63);
/// - word 3: the proven `lo` (bits 0-15), `hi` (16-31), and bit 32 set where used.
pub(super) struct Table {
    words: Vec<u64>,
    mask: usize,
    early_stop: bool,
}

impl Table {
    /// A table of `2^bits` slots for `game`.
    pub(super) fn new(game: &Game, bits: u32) -> Table {
        Table {
            words: vec![0; 4 << bits],
            mask: (1 << bits) - 1,
            early_stop: game.rules().early_stop,
        }
    }

    /// The key of `pos`.
    #[inline]
    pub(super) fn key(&self, pos: &Position) -> Key {
        let stores = match self.early_stop {
            true => pos.stores(),
            false => [0, 0],
        };
        (pos.packed_board(), stores)
    }

    #[inline]
    fn index(&self, key: &Key) -> usize {
        let (b, s) = key;
        let high = kalah_core::mix((*b >> 64) as u64 ^ (s[0] as u64) << 8 ^ s[1] as u64);
        4 * (kalah_core::mix(*b as u64 ^ high) as usize & self.mask)
    }

    /// The entry of `key`, if the table holds it.
    #[inline]
    pub(super) fn probe(&self, key: &Key) -> Option<Slot> {
        let i = self.index(key);
        let slot = decode(&self.words[i..i + 4]);
        (slot.used && slot.key == *key).then_some(slot)
    }

    /// Stores `entry` for its key. A proven interval already held for the same key is
    /// intersected with the new one (both are proofs); the heuristic half is replaced
    /// unless the new one has none.
    pub(super) fn store(&mut self, mut entry: Slot) {
        let i = self.index(&entry.key);
        let old = decode(&self.words[i..i + 4]);
        entry.used = true;
        if old.used && old.key == entry.key {
            entry.lo = entry.lo.max(old.lo);
            entry.hi = entry.hi.min(old.hi);
            if entry.kind == Kind::None {
                (entry.kind, entry.value, entry.depth) = (old.kind, old.value, old.depth);
            }
            if entry.mv == u8::MAX {
                entry.mv = old.mv;
            }
        }
        self.words[i..i + 4].copy_from_slice(&encode(&entry));
    }
}

/// The four words of a slot (see [`Table`]).
#[inline]
fn encode(s: &Slot) -> [u64; 4] {
    let kind = match s.kind {
        Kind::None => 0u64,
        Kind::Lower => 1,
        Kind::Upper => 2,
        Kind::Exact => 3,
    };
    let (b, st) = s.key;
    [
        b as u64,
        (b >> 64) as u64,
        st[0] as u64
            | (st[1] as u64) << 8
            | (s.depth as u16 as u64) << 16
            | kind << 32
            | (s.mv as u64) << 40
            | (s.value as u16 as u64) << 48,
        s.lo as u16 as u64 | (s.hi as u16 as u64) << 16 | (s.used as u64) << 32,
    ]
}

/// The slot of four words (see [`Table`]).
#[inline]
fn decode(w: &[u64]) -> Slot {
    let kind = match (w[2] >> 32) as u8 {
        1 => Kind::Lower,
        2 => Kind::Upper,
        3 => Kind::Exact,
        _ => Kind::None,
    };
    Slot {
        key: (
            w[0] as u128 | (w[1] as u128) << 64,
            [w[2] as u8, (w[2] >> 8) as u8],
        ),
        used: w[3] >> 32 & 1 == 1,
        depth: (w[2] >> 16) as u16 as i16,
        kind,
        value: (w[2] >> 48) as u16 as i16,
        lo: w[3] as u16 as i16,
        hi: (w[3] >> 16) as u16 as i16,
        mv: (w[2] >> 40) as u8,
    }
}

/// A slot for `key` with nothing in it yet (to be filled and stored).
pub(super) fn blank(key: Key) -> Slot {
    Slot { key, ..EMPTY }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kalah_core::Rules;

    #[test]
    fn proven_interval_of_a_key_only_narrows_and_slots_round_trip() {
        let game = Game::new(Rules::oware(3, 2)).unwrap();
        let mut t = Table::new(&game, 4);
        let key = t.key(&game.start());
        t.store(Slot {
            lo: -3,
            hi: 5,
            ..blank(key)
        });
        t.store(Slot {
            lo: -6,
            hi: 2,
            mv: 1,
            ..blank(key)
        });
        let s = t.probe(&key).unwrap();
        assert_eq!((s.lo, s.hi, s.mv), (-3, 2, 1));
        let e = Slot {
            depth: 7,
            kind: Kind::Upper,
            value: -12,
            lo: -20,
            hi: 9,
            mv: 13,
            used: true,
            ..blank(key)
        };
        let d = decode(&encode(&e));
        assert_eq!(
            (d.key, d.depth, d.kind, d.value, d.lo, d.hi, d.mv, d.used),
            (key, 7, Kind::Upper, -12, -20, 9, 13, true)
        );
        let other = t.key(&game.play_unchecked(&game.start(), 0));
        assert!(t.probe(&other).is_none() || t.probe(&other).unwrap().key == other);
    }
}
