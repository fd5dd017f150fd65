//! The Bao search's transposition table: a fixed-size array of entries keyed by
//! [`BaoPosition::key`], allocated once, always replaced (the newest result wins).

use kalah_core::bao::{BaoMove, BaoPosition};

use super::score::{from_table, to_table};

/// What a stored score says about the node's depth-limited value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// The value itself.
    Exact,
    /// At least the score (the search failed high).
    Lower,
    /// At most the score (the search failed low).
    Upper,
}

/// One slot: the full key (so a hit is a hit), the depth of the search behind the score,
/// the score relative to the node (see [`to_table`]), its kind and the best move found.
///
/// A depth-limited score stays depth-limited here: the table never marks an entry as
/// proven. Only a score in the decided range (a forced win or loss found inside a searched
/// tree, [`super::score`]) is a proof, and it is one wherever it came from.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Entry {
    key: u64,
    score: i32,
    depth: u8,
    kind: Kind,
    best: Option<BaoMove>,
}

/// A probe's answer: the entry's depth, score (relative to the root again), kind, move.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Hit {
    pub depth: u8,
    pub score: i32,
    pub kind: Kind,
    pub best: Option<BaoMove>,
}

/// The table: `2^bits` entries, one per slot, indexed by the key's low bits.
pub(crate) struct Table {
    slots: Vec<Option<Entry>>,
    mask: usize,
}

impl Table {
    /// A table of `2^bits` empty slots.
    pub fn new(bits: u32) -> Table {
        Table {
            slots: vec![None; 1 << bits],
            mask: (1 << bits) - 1,
        }
    }

    /// The entry of `pos`, if its slot holds it; `ply` turns decided scores back into
    /// distances from the root.
    pub fn probe(&self, pos: &BaoPosition, ply: u32) -> Option<Hit> {
        let key = pos.key();
        let e = self.slots[key as usize & self.mask]?;
        (e.key == key).then(|| Hit {
            depth: e.depth,
            score: from_table(e.score, ply),
            kind: e.kind,
            best: e.best,
        })
    }

    /// Stores the result of a search of `pos` to `depth` at `ply` from the root.
    pub fn store(&mut self, pos: &BaoPosition, ply: u32, hit: Hit) {
        let key = pos.key();
        self.slots[key as usize & self.mask] = Some(Entry {
            key,
            score: to_table(hit.score, ply),
            depth: hit.depth,
            kind: hit.kind,
            best: hit.best,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kalah_core::bao::{BaoRules, Dir, Row};
    use kalah_core::Side;

    fn some_move() -> BaoMove {
        BaoMove {
            side: Side::South,
            row: Row::Front,
            pit: 3,
            dir: Dir::Clockwise,
        }
    }

    #[test]
    fn stored_entry_comes_back_and_others_miss() {
        let mut t = Table::new(4);
        let start = BaoRules::standard().start();
        assert!(t.probe(&start, 0).is_none());
        let hit = Hit {
            depth: 3,
            score: 17,
            kind: Kind::Lower,
            best: Some(some_move()),
        };
        t.store(&start, 2, hit);
        let got = t.probe(&start, 5).expect("stored");
        assert_eq!((got.depth, got.score, got.kind), (3, 17, Kind::Lower));
        assert_eq!(got.best, Some(some_move()));
        assert!(t.probe(&start.with_side(Side::North), 0).is_none());
    }

    #[test]
    fn decided_scores_are_kept_relative_to_the_node() {
        let mut t = Table::new(4);
        let start = BaoRules::standard().start();
        // Won 3 moves after a node at ply 2: score WIN - 5 from the root.
        let score = super::super::score::WIN - 5;
        let hit = Hit {
            depth: 4,
            score,
            kind: Kind::Exact,
            best: None,
        };
        t.store(&start, 2, hit);
        // Met again at ply 6: still won 3 moves after it.
        assert_eq!(
            t.probe(&start, 6).unwrap().score,
            super::super::score::WIN - 9
        );
    }
}
