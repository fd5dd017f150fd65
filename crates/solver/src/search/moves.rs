//! Move generation and ordering at a search node: the children in a fixed-capacity list,
//! with their keys, and the order they are searched in.

use std::mem::MaybeUninit;

use kalah_core::Position;

use super::Worker;
use crate::score::across;

/// Most sowings a mover can have: one per house ([`kalah_core::MAX_HOUSES`]).
const MAX_MOVES: usize = kalah_core::MAX_HOUSES;

/// Fastest-first move ordering: among sowings that pass the turn, each sowing the
/// opponent then has costs half a seed banked, and each of those that lands in the
/// opponent's store (an extra turn, a second decision in the same turn) a quarter more
/// (the order counts 8 per seed). In a null-window proof the opponent's replies are the
/// branches that must all be refuted wherever this position is a cut-node, so a
/// refutation that leaves fewer of them makes a smaller proof.
const MOBILITY_WEIGHT: i32 = 4;
/// See [`MOBILITY_WEIGHT`].
const LANDING_WEIGHT: i32 = 2;

/// Extra turns are ordered from this base (nearest the store first, plus
/// [`EXTRA_BANKED_WEIGHT`] per seed banked, minus [`EXTRA_MOBILITY_WEIGHT`] per sowing the
/// mover then has), on the scale of the other sowings' order (8 per seed banked): an
/// extra turn goes first unless another sowing banks about four seeds more (a capture),
/// and among extra turns the one that leaves the mover fewest sowings to choose from goes
/// first.
const EXTRA_TURN_ORDER: i32 = 32;
/// See [`EXTRA_TURN_ORDER`].
const EXTRA_BANKED_WEIGHT: i32 = 2;
/// See [`EXTRA_TURN_ORDER`].
const EXTRA_MOBILITY_WEIGHT: i32 = 2;

/// The order of the table's move: before every other.
const HINT_ORDER: i32 = 1024;

/// A child in the move list.
#[derive(Clone, Copy)]
pub(super) struct Kid {
    /// The house sown.
    pub(super) house: u8,
    /// The sowing ended in the mover's store: the child has the parent's mover.
    pub(super) same_mover: bool,
    /// The endgame database holds the child (the game over or not).
    pub(super) in_db: bool,
    /// The child uses the table: its key is computed.
    pub(super) tabled: bool,
    /// The child's table key where it uses the table, else 0.
    pub(super) key: u64,
    /// The index of the child's database entry ([`crate::db::lookup::Lookup::index`])
    /// where the database holds it and its game is not over, else 0.
    pub(super) db_index: u64,
    /// The child's score for the parent's mover, where it needs no search: exact (the game
    /// is over, the database or an exact table entry) or an upper bound at most alpha.
    pub(super) known: Option<i32>,
    pub(super) pos: Position,
}

/// The children of one node, in a fixed-capacity list, and their search order.
///
/// Only the slots of actual children are written: filling all of them at every node
/// costs measurable search time.
pub(super) struct MoveList {
    slots: [MaybeUninit<Kid>; MAX_MOVES],
    /// Each child's static order (larger first).
    orders: [i32; MAX_MOVES],
    /// The search order: `order << 4 | index in the list`, the best of the rest selected
    /// as the search goes (at a cut-node the first child is usually the only one).
    rank: [u32; MAX_MOVES],
    len: usize,
}

impl MoveList {
    #[inline(always)]
    pub(super) fn new() -> MoveList {
        MoveList {
            slots: [MaybeUninit::uninit(); MAX_MOVES],
            orders: [0; MAX_MOVES],
            rank: [0; MAX_MOVES],
            len: 0,
        }
    }

    /// The number of children.
    #[inline(always)]
    pub(super) fn len(&self) -> usize {
        self.len
    }

    #[inline(always)]
    pub(super) fn kids(&self) -> &[Kid] {
        // SAFETY: the first `len` slots were written by `generate`.
        unsafe { std::slice::from_raw_parts(self.slots.as_ptr() as *const Kid, self.len) }
    }

    #[inline(always)]
    pub(super) fn kids_mut(&mut self) -> &mut [Kid] {
        // SAFETY: the first `len` slots were written by `generate`.
        unsafe { std::slice::from_raw_parts_mut(self.slots.as_mut_ptr() as *mut Kid, self.len) }
    }

    /// Sets the search order: the table's move `hint` first, then by static order; the
    /// first child is selected.
    #[inline(always)]
    pub(super) fn rank(&mut self, hint: Option<u8>) {
        let n = self.len;
        // SAFETY: the first `len` slots were written by `generate`.
        let kids = unsafe { std::slice::from_raw_parts(self.slots.as_ptr() as *const Kid, n) };
        let ranked = self.rank[..n].iter_mut().zip(&self.orders[..n]).zip(kids);
        for (i, ((rank, &order), kid)) in ranked.enumerate() {
            let order = if hint == Some(kid.house) {
                HINT_ORDER
            } else {
                order
            };
            *rank = ((order + 4096) as u32) << 4 | i as u32;
        }
        select_best(&mut self.rank[..self.len], 0);
    }

    /// The list index of the `n`th child in search order; `select` picks it from the
    /// rest first (every `n > 0` on the first walk through the list, in turn).
    #[inline(always)]
    pub(super) fn nth(&mut self, n: usize, select: bool) -> usize {
        if select {
            select_best(&mut self.rank[..self.len], n);
        }
        (self.rank[n] & 15) as usize
    }
}

/// The static order of a sowing of house `house` giving `child`, which banks `banked`
/// seeds for the mover: extra turns (unless a capture banks much more; those leaving the
/// mover fewest sowings first, see [`EXTRA_TURN_ORDER`]), then by what the sowing banks
/// at once (captures, store seeds) less what it leaves the opponent to answer
/// ([`MOBILITY_WEIGHT`]); among sowings that bank the same, the house nearest the store
/// first: it disturbs the fewest of the mover's other houses.
#[inline(always)]
fn order(house: usize, same_mover: bool, banked: i32, child: &Position) -> i32 {
    if same_mover {
        EXTRA_TURN_ORDER + house as i32 + EXTRA_BANKED_WEIGHT * banked
            - EXTRA_MOBILITY_WEIGHT * child.moves().len() as i32
    } else {
        8 * banked + house as i32
            - MOBILITY_WEIGHT * child.moves().len() as i32
            - LANDING_WEIGHT * child.store_landings().len() as i32
    }
}

impl Worker<'_> {
    /// Generates the children of `pos` into `list` with their static order and keys, and
    /// asks for their database entries and table buckets. The table key is computed only
    /// for a child that uses the table (`use_table` here, and enough seeds there); a child
    /// the database holds is answered from it, not the table.
    #[inline(always)]
    pub(super) fn generate(&self, pos: &Position, use_table: bool, list: &mut MoveList) {
        let margin = pos.store_margin();
        // The count stays in a register: only the slots of actual children are written.
        let mut n = 0;
        for j in pos.moves() {
            let child = self.game.play_unchecked(pos, j);
            let same_mover = child.side_to_move() == pos.side_to_move();
            let banked = across(same_mover, child.store_margin()) - margin;
            let child_seeds = child.seeds_in_houses() as i32;
            let in_db = child_seeds <= self.db_seeds;
            let tabled = !in_db && use_table && child_seeds > self.small;
            let (mut key, mut db_index) = (0, 0);
            if tabled {
                key = self.game.key(&child);
            } else if let (Some(db), true, false) = (self.db, in_db, child.is_over()) {
                db_index = db.index(&child, || self.game.key(&child));
                db.prefetch(db_index);
            }
            let kid = Kid {
                house: j as u8,
                same_mover,
                in_db,
                tabled,
                key,
                db_index,
                known: None,
                pos: child,
            };
            list.slots[n] = MaybeUninit::new(kid);
            list.orders[n] = order(j, same_mover, banked, &child);
            n += 1;
        }
        list.len = n;
        // Their table buckets are fetched now, after all the sowings.
        for kid in list.kids() {
            if kid.tabled {
                self.tt.prefetch(kid.key);
            }
        }
    }
}

/// Moves the largest of `rank[i..]` to `rank[i]`.
#[inline(always)]
fn select_best(rank: &mut [u32], i: usize) {
    let mut m = i;
    for k in i + 1..rank.len() {
        m = if rank[k] > rank[m] { k } else { m };
    }
    rank.swap(i, m);
}
