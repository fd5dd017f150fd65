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
//! read saw the final bounds: they are then the two fixed points. The moves inside the
//! level are sown again at each sweep instead of being stored, so memory stays at three
//! bytes a board.

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
    let level_game = Level {
        game,
        ranker,
        values,
        level,
        start,
    };
    let open = AtomicU64::new(0);
    exit.par_chunks_mut(TASK)
        .enumerate()
        .try_for_each(|(c, exits)| {
            if cancel.load(Relaxed) {
                return Err(Cancelled);
            }
            for (k, e) in exits.iter_mut().enumerate() {
                let i = c * TASK + k;
                let (x, l, h) = level_game.first(start + i);
                *e = x;
                lo[i].store(l, Relaxed);
                hi[i].store(h, Relaxed);
                open.fetch_add(u64::from(l != h), Relaxed);
            }
            Ok(())
        })?;
    progress(level, n as u64 - open.load(Relaxed), n as u64);
    if cancel.load(Relaxed) {
        return Err(Cancelled);
    }
    let mut sweeps = 0;
    while open.load(Relaxed) > 0 {
        sweeps += 1;
        let (changed, left) = level_game.sweep(lo, &hi, &exit, cancel)?;
        open.store(left, Relaxed);
        progress(level, (n as u64).saturating_sub(left), n as u64);
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

    /// The board of rank `rank` valued from what leaves the level: its best exit (−∞ if
    /// none) and its first bounds `lo`, `hi` (equal, the value, where the game is over or
    /// no move stays in the level).
    fn first(&self, rank: usize) -> (i8, i8, i8) {
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
            if !c.is_over() && c.seeds_in_houses() as usize == self.level {
                debug_assert!(!same_mover && gain == 0, "a move inside a level");
                inside = true;
                continue;
            }
            let worth = match c.is_over() {
                true => gain,
                false => {
                    let cv = self.values[self.ranker.rank(c.packed_board()) as usize].load(Relaxed)
                        as i32;
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

    /// One sweep over the level's boards whose bounds have not met: whether any bound
    /// changed, and how many boards are still open after it.
    fn sweep(
        &self,
        lo: &[AtomicI8],
        hi: &[AtomicI8],
        exit: &[i8],
        cancel: &AtomicBool,
    ) -> Result<(bool, u64), Cancelled> {
        let tasks = lo.len().div_ceil(TASK);
        (0..tasks)
            .into_par_iter()
            .map(|c| {
                if cancel.load(Relaxed) {
                    return Err(Cancelled);
                }
                let (mut changed, mut open) = (false, 0u64);
                for i in c * TASK..((c + 1) * TASK).min(lo.len()) {
                    let (l0, h0) = (lo[i].load(Relaxed), hi[i].load(Relaxed));
                    if l0 == h0 {
                        continue;
                    }
                    let (l, h) = self.update(lo, hi, exit[i], i);
                    if (l, h) != (l0, h0) {
                        lo[i].store(l, Relaxed);
                        hi[i].store(h, Relaxed);
                        changed = true;
                    }
                    open += u64::from(l != h);
                }
                Ok((changed, open))
            })
            .try_reduce(|| (false, 0), |a, b| Ok((a.0 || b.0, a.1 + b.1)))
    }

    /// The operator at board `i` of the level: the best of its exit and of its moves
    /// inside the level, for `lo` and for `hi`.
    fn update(&self, lo: &[AtomicI8], hi: &[AtomicI8], exit: i8, i: usize) -> (i8, i8) {
        let pos = self.position(self.start + i);
        let (mut l, mut h) = (exit, exit);
        for m in self.game.legal_moves(&pos) {
            let (c, _) = self.game.sow(&pos, m);
            if c.is_over() || c.seeds_in_houses() as usize != self.level {
                continue;
            }
            let q = self.ranker.rank(c.packed_board()) as usize - self.start;
            l = l.max(-hi[q].load(Relaxed));
            h = h.max(-lo[q].load(Relaxed));
        }
        (l, h)
    }
}
