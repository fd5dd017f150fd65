//! Endgame databases of the families whose positions repeat (Oware, Ethiopian Kalah): one
//! level of an [`Egdb`](crate::egdb::Egdb) solved by the cycle rule of `docs/cyclic.md`.
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
//! three bytes a board: `lo` in the database's own bytes, `hi` and the best exit beside it;
//! the file keeps one signed byte, the value relative to the store margin.
//!
//! **Sweeps.** Each sweep updates every board of the level whose bounds have not met, in
//! place, over rank ranges shared by the threads. Reads of another thread's bounds may
//! see a value of the previous sweep or of this one: `lo` only rises and never passes the
//! least fixed point (each update applies the monotone operator to values below it), `hi`
//! symmetrically, and the iteration stops after a sweep that changed nothing, whose every
//! read saw the final bounds: they are then the two fixed points. The first pass packs
//! the moves inside the level of the boards it leaves open (their places in the level,
//! four bytes a move, up to a budget of three quarters of the memory available), so that a
//! sweep reads arrays only, and a task drops its final boards as they accumulate; past the
//! budget a task sows its boards again at each sweep, and the level costs three bytes a
//! board.

use std::sync::atomic::{AtomicBool, AtomicI8, AtomicU64, Ordering::Relaxed};

use kalah_core::{Game, Position, Ranker, Side};
use rayon::prelude::*;

use crate::levels::Cancelled;

/// The bound standing for +∞ (−∞ is its negation): beyond every value of a board of at
/// most [`MAX_SEEDS`] seeds, and closed under negation in a signed byte.
const INF: i8 = i8::MAX;

/// The most seeds in the houses of a database of a cyclic family: values stay strictly
/// inside the bounds `±INF`.
pub const MAX_SEEDS: usize = INF as usize - 1;

/// Boards of a level handled by one task of a pass.
const TASK: usize = 1 << 15;

/// Bytes the packed moves inside a level may take ([`Packed`]) where the memory available
/// is not known; the tasks past the budget sow their boards again at each sweep.
const PACKED_BYTES: u64 = 3 << 30;

/// The least budget for the packed moves, whatever the memory says.
const MIN_PACKED_BYTES: u64 = 256 << 20;

/// The budget of the packed moves of a level of `boards` boards: three quarters of the
/// memory available now, less the two bytes a board of the level's bounds and exits not
/// yet written (a level of 24 seeds on 6 houses packs about 9.6 GB: all of it on a
/// machine with 16 GB free, a third of it within [`PACKED_BYTES`]).
fn packed_budget(boards: usize) -> u64 {
    match crate::os::available_memory() {
        Some(free) => (free / 4 * 3)
            .saturating_sub(2 * boards as u64)
            .max(MIN_PACKED_BYTES),
        None => PACKED_BYTES,
    }
}

/// The open boards of one task and their moves inside the level, packed: board
/// `idx[e]` (a place in the level) moves to `kids[offsets[e]..offsets[e + 1]]`.
#[derive(Default)]
struct Packed {
    idx: Vec<u32>,
    offsets: Vec<u32>,
    kids: Vec<u32>,
}

impl Packed {
    /// Bytes it holds.
    fn bytes(&self) -> u64 {
        4 * (self.idx.capacity() + self.offsets.capacity() + self.kids.capacity()) as u64
    }

    /// Only the boards whose bounds have not met.
    fn retain_open(&mut self, lo: &[AtomicI8], hi: &[AtomicI8]) {
        let mut out = Packed::default();
        out.offsets.push(0);
        for e in 0..self.idx.len() {
            let i = self.idx[e] as usize;
            if lo[i].load(Relaxed) != hi[i].load(Relaxed) {
                out.idx.push(i as u32);
                let kids = &self.kids[self.offsets[e] as usize..self.offsets[e + 1] as usize];
                out.kids.extend_from_slice(kids);
                out.offsets.push(out.kids.len() as u32);
            }
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
    let lo = &values[start..end];
    let hi: Vec<AtomicI8> = std::iter::repeat_with(|| AtomicI8::new(0))
        .take(n)
        .collect();
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
            Ok(here.first_pass(c * TASK, exits, lo, &hi, &budget))
        })
        .collect::<Result<Vec<Task>, Cancelled>>()?;
    let open = |tasks: &[Task]| -> u64 {
        let counted = |t: &Task| t.range.clone().filter(|&i| is_open(lo, &hi, i)).count();
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
                false => Ok(here.sweep(t, lo, &hi, &exit)),
            })
            .try_reduce(|| false, |a, b| Ok(a || b))?;
        left = open(&tasks);
        progress(level, n as u64 - left, n as u64);
        if !changed {
            break;
        }
    }
    lo.par_iter().zip(hi.par_iter()).for_each(|(l, h)| {
        let (l8, h8) = (l.load(Relaxed), h.load(Relaxed));
        l.store(l8.max(h8.min(0)), Relaxed);
    });
    Ok(sweeps)
}

/// True where board `i` of the level has bounds that have not met.
fn is_open(lo: &[AtomicI8], hi: &[AtomicI8], i: usize) -> bool {
    lo[i].load(Relaxed) != hi[i].load(Relaxed)
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
        lo: &[AtomicI8],
        hi: &[AtomicI8],
        budget: &AtomicU64,
    ) -> Task {
        let mut packed = Packed::default();
        packed.offsets.push(0);
        for (k, e) in exits.iter_mut().enumerate() {
            let i = first + k;
            let before = packed.kids.len();
            let (x, l, h) = self.first(self.start + i, &mut packed.kids);
            *e = x;
            lo[i].store(l, Relaxed);
            hi[i].store(h, Relaxed);
            match l != h {
                true => {
                    packed.idx.push(i as u32);
                    packed.offsets.push(packed.kids.len() as u32);
                }
                false => packed.kids.truncate(before),
            }
        }
        packed.idx.shrink_to_fit();
        packed.offsets.shrink_to_fit();
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
            let worth = match c.is_over() {
                true => gain,
                false => {
                    let cv = self.values[cr].load(Relaxed) as i32;
                    gain + if same_mover { cv } else { -cv }
                }
            };
            best = best.max(worth);
        }
        let best = best as i8;
        match inside {
            true => (best, -INF, INF),
            false => (best, best, best),
        }
    }

    /// One sweep over the open boards of `task`: whether any bound changed. A packed
    /// task reads its moves and drops its final boards once they are half of it.
    fn sweep(&self, task: &mut Task, lo: &[AtomicI8], hi: &[AtomicI8], exit: &[i8]) -> bool {
        let mut changed = false;
        let mut set = |i: usize, (l, h): (i8, i8)| {
            if (l, h) != (lo[i].load(Relaxed), hi[i].load(Relaxed)) {
                lo[i].store(l, Relaxed);
                hi[i].store(h, Relaxed);
                changed = true;
            }
        };
        match &mut task.packed {
            Some(p) => {
                let mut closed = 0;
                for e in 0..p.idx.len() {
                    let i = p.idx[e] as usize;
                    if !is_open(lo, hi, i) {
                        closed += 1;
                        continue;
                    }
                    let kids = &p.kids[p.offsets[e] as usize..p.offsets[e + 1] as usize];
                    set(i, bounds(lo, hi, exit[i], kids.iter().map(|&q| q as usize)));
                }
                if 2 * closed > p.idx.len() {
                    p.retain_open(lo, hi);
                }
            }
            None => {
                for i in task.range.clone().filter(|&i| is_open(lo, hi, i)) {
                    set(i, self.update(lo, hi, exit[i], i));
                }
            }
        }
        changed
    }

    /// The operator at board `i` of the level, its moves inside the level sown again.
    fn update(&self, lo: &[AtomicI8], hi: &[AtomicI8], exit: i8, i: usize) -> (i8, i8) {
        let pos = self.position(self.start + i);
        let kids = self.game.legal_moves(&pos).filter_map(|m| {
            let (c, _) = self.game.sow(&pos, m);
            (!c.is_over() && c.seeds_in_houses() as usize == self.level)
                .then(|| self.ranker.rank(c.packed_board()) as usize - self.start)
        });
        bounds(lo, hi, exit, kids)
    }
}

/// The operator at a board whose best exit is `exit` and whose moves inside the level
/// lead to the boards `kids`: the best for `lo` and for `hi`.
fn bounds(
    lo: &[AtomicI8],
    hi: &[AtomicI8],
    exit: i8,
    kids: impl Iterator<Item = usize>,
) -> (i8, i8) {
    let (mut l, mut h) = (exit, exit);
    for q in kids {
        l = l.max(-hi[q].load(Relaxed));
        h = h.max(-lo[q].load(Relaxed));
    }
    (l, h)
}
