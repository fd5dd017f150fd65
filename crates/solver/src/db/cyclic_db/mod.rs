//! Endgame databases of the families whose positions repeat (Oware, Ethiopian Kalah): one
//! level of an [`Egdb`](crate::db::egdb::Egdb) solved by the cycle rule of `docs/cyclic.md`.
//!
//! **Levels.** The boards with `n` seeds in the houses are one range of ranks
//! ([`Ranker::level_start`]). A sowing never adds seeds to the houses, and a sowing that
//! keeps them all passes the turn and changes no store, so a level exits only to lower
//! levels (already in the database) or moves inside itself. The value of a board does not
//! depend on the stores (no early stop), so one database serves every position.
//!
//! **One level** is a game with fixed exits in which infinite play is worth 0. Its two
//! fixed points of the negamax operator `T(v)(p) = max(exit(p), max over moves inside of
//! −v(q))` are iterated from the extremes, `lo` from −∞ up and `hi` from +∞ down, and the
//! value is `max(min(hi, 0), lo)` (see `docs/cyclic.md`). While a level is built it takes
//! three bytes a board beside the database's own byte: `lo` and `hi` in one 16-bit word
//! (a move's two reads are one cache miss, and a board's two bounds change in one store)
//! and the best exit; the file keeps one signed byte, the value relative to the store
//! margin.
//!
//! **Sweeps.** Each sweep updates every board of the level whose bounds have not met, in
//! place, over rank ranges shared by the threads. Reads of another thread's bounds may
//! see the bounds of the previous sweep or of this one: `lo` only rises and never passes the
//! least fixed point (each update applies the monotone operator to values below it), `hi`
//! symmetrically, and the iteration stops after a sweep that changed nothing, whose every
//! read saw the final bounds: they are then the two fixed points. The first pass packs
//! the moves inside the level of the boards it leaves open (their places in the level,
//! four bytes a move and one for their count, up to a budget of three quarters of the
//! memory available), so that a sweep reads arrays only (the bounds of the moves of a
//! board some boards ahead are prefetched: the reads are random over the level), and a
//! task drops its final boards as they accumulate; past the budget a task sows its boards
//! again at each sweep, and the level costs three bytes a board more than its file.

mod answer;

pub use answer::answer;

use std::sync::atomic::{AtomicBool, AtomicI8, AtomicU16, AtomicU64, Ordering::Relaxed};

use kalah_core::{Game, Position, Ranker, Side, MAX_HOUSES};
use rayon::prelude::*;

use crate::db::levels::Cancelled;
use crate::pages::Block;

/// The bound standing for +∞ (−∞ is its negation): beyond every value of a board of at
/// most [`MAX_SEEDS`] seeds, and closed under negation in a signed byte.
const INF: i8 = i8::MAX;

/// The most seeds in the houses of a database of a cyclic family: values stay strictly
/// inside the bounds `±INF`.
pub const MAX_SEEDS: usize = INF as usize - 1;

/// Boards of a level handled by one task of a pass.
const TASK: usize = 1 << 15;

/// How many open boards ahead a packed sweep prefetches the bounds of the moves.
const AHEAD: usize = 8;

/// A board's bounds `lo`, `hi` as one word.
#[inline]
fn pack(lo: i8, hi: i8) -> u16 {
    lo as u8 as u16 | (hi as u8 as u16) << 8
}

/// The bounds `lo`, `hi` of a word of [`pack`].
#[inline]
fn unpack(w: u16) -> (i8, i8) {
    (w as u8 as i8, (w >> 8) as u8 as i8)
}

/// The bounds of board `i` of the level.
#[inline]
fn get(bounds: &[AtomicU16], i: usize) -> (i8, i8) {
    unpack(bounds[i].load(Relaxed))
}

/// Bytes the packed moves inside a level may take ([`Packed`]) where the memory available
/// is not known; the tasks past the budget sow their boards again at each sweep.
const PACKED_BYTES: u64 = 3 << 30;

/// The least budget for the packed moves, whatever the memory says.
const MIN_PACKED_BYTES: u64 = 256 << 20;

/// The budget of the packed moves of a level of `boards` boards: three quarters of the
/// memory available now, less the three bytes a board of the level's bounds and exits not
/// yet written (a level of 24 seeds on 6 houses packs about 9.6 GB: all of it on a
/// machine with 16 GB free, a third of it within [`PACKED_BYTES`]).
fn packed_budget(boards: usize) -> u64 {
    match crate::os::available_memory() {
        Some(free) => (free / 4 * 3)
            .saturating_sub(3 * boards as u64)
            .max(MIN_PACKED_BYTES),
        None => PACKED_BYTES,
    }
}

/// The open boards of one task and their moves inside the level, packed: board
/// `idx[e]` (a place in the level) has `counts[e]` moves, which follow those of the boards
/// before it in `kids`. A sweep walks them in order, so a count (one byte: at most
/// `2 * MAX_HOUSES` moves) replaces an offset (four).
#[derive(Default)]
struct Packed {
    idx: Vec<u32>,
    counts: Vec<u8>,
    kids: Vec<u32>,
}

impl Packed {
    /// Bytes it holds.
    fn bytes(&self) -> u64 {
        (4 * (self.idx.capacity() + self.kids.capacity()) + self.counts.capacity()) as u64
    }

    /// Only the boards whose bounds have not met.
    fn retain_open(&mut self, bounds: &[AtomicU16]) {
        let mut out = Packed::default();
        let mut at = 0;
        for e in 0..self.idx.len() {
            let (i, c) = (self.idx[e] as usize, self.counts[e] as usize);
            if is_open(bounds, i) {
                out.idx.push(i as u32);
                out.counts.push(c as u8);
                out.kids.extend_from_slice(&self.kids[at..at + c]);
            }
            at += c;
        }
        *self = out;
    }
}

/// A task of a level: a range of its boards, and their moves inside the level packed
/// where the memory allowed.
struct Task {
    range: std::ops::Range<usize>,
    packed: Option<Packed>,
}

/// Solves level `level` of the database `values` (indexed by `ranker`; every lower level
/// finished) for `game` of a cyclic family. `progress(level, final, boards)` is called
/// as boards become final. Returns the sweeps made.
pub(crate) fn build_level(
    game: &Game,
    ranker: &Ranker,
    values: &[AtomicI8],
    level: usize,
    cancel: &AtomicBool,
    progress: &(dyn Fn(usize, u64, u64) + Sync),
) -> Result<u32, Cancelled> {
    let start = ranker.level_start(level) as usize;
    let end = ranker.level_start(level + 1) as usize;
    let n = end - start;
    let bounds = Block::<AtomicU16>::zeroed(n);
    let mut exit = vec![0i8; n];
    let here = Level {
        game,
        ranker,
        values,
        level,
        start,
    };
    let budget = AtomicU64::new(packed_budget(n));
    let mut tasks = exit
        .par_chunks_mut(TASK)
        .enumerate()
        .map(|(c, exits)| {
            if cancel.load(Relaxed) {
                return Err(Cancelled);
            }
            Ok(here.first_pass(c * TASK, exits, &bounds, &budget))
        })
        .collect::<Result<Vec<Task>, Cancelled>>()?;
    let open = |tasks: &[Task]| -> u64 {
        let counted = |t: &Task| t.range.clone().filter(|&i| is_open(&bounds, i)).count();
        tasks.par_iter().map(|t| counted(t) as u64).sum()
    };
    let mut left = open(&tasks);
    progress(level, n as u64 - left, n as u64);
    if cancel.load(Relaxed) {
        return Err(Cancelled);
    }
    let mut sweeps = 0;
    while left > 0 {
        sweeps += 1;
        let changed = tasks
            .par_iter_mut()
            .map(|t| match cancel.load(Relaxed) {
                true => Err(Cancelled),
                false => Ok(here.sweep(t, &bounds, &exit)),
            })
            .try_reduce(|| false, |a, b| Ok(a || b))?;
        left = open(&tasks);
        progress(level, n as u64 - left, n as u64);
        if !changed {
            break;
        }
    }
    values[start..end]
        .par_iter()
        .zip(bounds.par_iter())
        .for_each(|(v, b)| {
            let (l, h) = unpack(b.load(Relaxed));
            v.store(l.max(h.min(0)), Relaxed);
        });
    Ok(sweeps)
}

/// True where board `i` of the level has bounds that have not met.
#[inline]
fn is_open(bounds: &[AtomicU16], i: usize) -> bool {
    let (l, h) = get(bounds, i);
    l != h
}

/// The level being solved: its game, index, first rank and the database's values.
struct Level<'a> {
    game: &'a Game,
    ranker: &'a Ranker,
    values: &'a [AtomicI8],
    level: usize,
    start: usize,
}

impl Level<'_> {
    /// The board of rank `rank`, South to move, stores empty.
    fn position(&self, rank: usize) -> Position {
        let board = self.ranker.unrank(rank as u64);
        Position::from_packed(self.game.houses(), board, [0, 0], Side::South)
    }

    /// The first pass over the boards `first..first + exits.len()` of the level: their
    /// exits and first bounds, and their moves inside the level packed where `budget`
    /// (bytes left) allows.
    fn first_pass(
        &self,
        first: usize,
        exits: &mut [i8],
        bounds: &[AtomicU16],
        budget: &AtomicU64,
    ) -> Task {
        let mut packed = Packed::default();
        for (k, e) in exits.iter_mut().enumerate() {
            let i = first + k;
            let before = packed.kids.len();
            let (x, l, h) = self.first(self.start + i, &mut packed.kids);
            *e = x;
            bounds[i].store(pack(l, h), Relaxed);
            match l != h {
                true => {
                    packed.idx.push(i as u32);
                    packed.counts.push((packed.kids.len() - before) as u8);
                }
                false => packed.kids.truncate(before),
            }
        }
        packed.idx.shrink_to_fit();
        packed.counts.shrink_to_fit();
        packed.kids.shrink_to_fit();
        let bytes = packed.bytes();
        let fits = budget
            .fetch_update(Relaxed, Relaxed, |b| b.checked_sub(bytes))
            .is_ok();
        Task {
            range: first..first + exits.len(),
            packed: fits.then_some(packed),
        }
    }

    /// The board of rank `rank` valued from what leaves the level: its best exit (−∞ if
    /// none) and its first bounds `lo`, `hi` (equal, the value, where the game is over or
    /// no move stays in the level); its moves inside the level pushed on `kids`.
    fn first(&self, rank: usize, kids: &mut Vec<u32>) -> (i8, i8, i8) {
        let pos = self.position(rank);
        let settled = self.game.settle(pos).unwrap_or(pos);
        if settled.is_over() {
            let v = settled.store_margin() as i8;
            return (v, v, v);
        }
        let (mut best, mut inside) = (-(INF as i32), false);
        // The moves into lower levels, read once all are sown and their entries
        // prefetched: (the store margin gained, the mover kept, the child's rank).
        let mut lower = [(0i32, false, 0usize); 2 * MAX_HOUSES];
        let mut n = 0;
        for m in self.game.legal_moves(&pos) {
            let (c, _) = self.game.sow(&pos, m);
            let same_mover = c.side_to_move() == Side::South;
            let gain = match same_mover {
                true => c.store_margin(),
                false => -c.store_margin(),
            };
            let cr = self.ranker.rank(c.packed_board()) as usize;
            if !c.is_over() && c.seeds_in_houses() as usize == self.level {
                debug_assert!(!same_mover && gain == 0, "a move inside a level");
                inside = true;
                kids.push((cr - self.start) as u32);
                continue;
            }
            match c.is_over() {
                true => best = best.max(gain),
                false => {
                    prefetch(&self.values[cr]);
                    lower[n] = (gain, same_mover, cr);
                    n += 1;
                }
            }
        }
        for &(gain, same_mover, cr) in &lower[..n] {
            let cv = self.values[cr].load(Relaxed) as i32;
            best = best.max(gain + if same_mover { cv } else { -cv });
        }
        let best = best as i8;
        match inside {
            true => (best, -INF, INF),
            false => (best, best, best),
        }
    }

    /// One sweep over the open boards of `task`: whether any bound changed. A packed
    /// task reads its moves and drops its final boards once they are half of it.
    fn sweep(&self, task: &mut Task, bounds: &[AtomicU16], exit: &[i8]) -> bool {
        let mut changed = false;
        let mut set = |i: usize, w: u16| {
            if w != bounds[i].load(Relaxed) {
                bounds[i].store(w, Relaxed);
                changed = true;
            }
        };
        match &mut task.packed {
            Some(p) => {
                let mut closed = 0;
                let n = p.idx.len();
                // The first move of board `e`, and of board `e + AHEAD`.
                let mut at = 0;
                let mut ahead: usize = p.counts.iter().take(AHEAD).map(|&c| c as usize).sum();
                for e in 0..n {
                    let c = p.counts[e] as usize;
                    if e + AHEAD < n {
                        let ca = p.counts[e + AHEAD] as usize;
                        if is_open(bounds, p.idx[e + AHEAD] as usize) {
                            p.kids[ahead..ahead + ca]
                                .iter()
                                .for_each(|&q| prefetch(&bounds[q as usize]));
                        }
                        ahead += ca;
                    }
                    let i = p.idx[e] as usize;
                    let kids = &p.kids[at..at + c];
                    at += c;
                    if !is_open(bounds, i) {
                        closed += 1;
                        continue;
                    }
                    set(
                        i,
                        operator(bounds, exit[i], kids.iter().map(|&q| q as usize)),
                    );
                }
                if 2 * closed > n {
                    p.retain_open(bounds);
                }
            }
            None => {
                for i in task.range.clone().filter(|&i| is_open(bounds, i)) {
                    set(i, self.update(bounds, exit[i], i));
                }
            }
        }
        changed
    }

    /// The operator at board `i` of the level, its moves inside the level sown again.
    fn update(&self, bounds: &[AtomicU16], exit: i8, i: usize) -> u16 {
        let pos = self.position(self.start + i);
        let kids = self.game.legal_moves(&pos).filter_map(|m| {
            let (c, _) = self.game.sow(&pos, m);
            (!c.is_over() && c.seeds_in_houses() as usize == self.level)
                .then(|| self.ranker.rank(c.packed_board()) as usize - self.start)
        });
        operator(bounds, exit, kids)
    }
}

/// The operator at a board whose best exit is `exit` and whose moves inside the level
/// lead to the boards `kids`: the best for `lo` and for `hi`, packed.
#[inline]
fn operator(bounds: &[AtomicU16], exit: i8, kids: impl Iterator<Item = usize>) -> u16 {
    let (mut l, mut h) = (exit, exit);
    for q in kids {
        let (ql, qh) = get(bounds, q);
        l = l.max(-qh);
        h = h.max(-ql);
    }
    pack(l, h)
}

/// Asks the CPU to bring `x` into cache.
#[inline]
fn prefetch<T>(x: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: prefetching a valid reference has no effect but on the cache.
    unsafe {
        std::arch::x86_64::_mm_prefetch(x as *const T as *const i8, std::arch::x86_64::_MM_HINT_T0)
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = x;
}
