//! Endgame database for the early stop: the exact value of every position with few seeds
//! left in the houses, where the game also ends as soon as one store holds more than half
//! of all seeds.
//!
//! **Why the plain database does not serve.** Under the early stop the value depends on
//! the stores: how far each store is from the majority decides when the game stops (and
//! that the seeds still in the houses are then not counted). With `T` seeds in all, a
//! majority is `θ = ⌊T/2⌋ + 1` seeds; a store holding `s` seeds is `θ - s` seeds from it.
//! While the game goes on, both distances are at least 1, and with `L` seeds in the houses
//! they add up to `L + c`, where `c = 2θ - T` is 2 for an even total and 1 for an odd one.
//! So a position is its board and the mover's distance `d`, `1 <= d <= L + c - 1`: `L + c - 1`
//! entries per board, one signed byte each, the value relative to the store margin as in
//! the plain database. The total matters only through `c`, so one database serves every
//! game with a total of the same parity (every start position of Kalah has an even total).
//!
//! **Order of computation.** By the build shared with the plain database (the crate's
//! `levels` module): levels in increasing seeds; within a level, boards in decreasing
//! distance sum, since a child on the same level banked nothing and only moved the mover's
//! seeds towards its store. A board's children are the same for every `d` (a sowing does
//! not read the stores): each is sown and ranked once, and the values of all its distances
//! lie side by side, so one board reads one or two cache lines per child for all its
//! entries.
//!
//! **A child for distance `d`.** A sowing that banks `b` seeds for the mover (store and
//! captures) and gives `o` to the opponent's store (Nigerian Kalah sows into both stores
//! and captures fours for either side; Kalah's `o` is 0), the game going on: where
//! `d <= b` the mover reaches the majority, and where the opponent's distance `L + c - d`
//! is at most `o` the opponent does (never both: `b + o <= L`); the game stops, worth
//! `b - o` over the store margin. Else the child is the mover's again at distance `d - b`
//! after an extra turn, or the opponent's at its own distance `L + c - d - o`.

use std::sync::atomic::{AtomicBool, Ordering::Relaxed};

use kalah_core::{Game, Position, Ranker, RowSowing, Rules, MAX_HOUSES};

use crate::db::egdb::store::Bytes;
use crate::db::levels;

/// The most seeds the database may hold: values (at most the seeds in the houses) fit a
/// signed byte, and a board's entries (up to `MAX_SEEDS + 1`) a 64-entry array.
pub const MAX_SEEDS: usize = 62;

/// Boards computed together in a build: their children's entries are prefetched before
/// any is read.
const BATCH: usize = 16;

/// A child of a board in a build: where its game ended, its value (`live` false); else
/// the offset of its entries, the seeds the sowing banked for the mover and gave the
/// opponent, and whether the turn stayed.
#[derive(Clone, Copy, Default)]
pub(crate) struct Kid {
    base: usize,
    banked: u8,
    given: u8,
    live: bool,
    extra: bool,
    value: i8,
}

/// Exact relative values of every position with at most `max_seeds` seeds in the houses,
/// for games with the early stop and a total of seeds of one parity.
pub struct StopDb {
    rules: Rules,
    /// `2θ - T`: 2 for an even total of seeds, 1 for an odd one.
    c: usize,
    ranker: Ranker,
    /// The byte offset of each level's entries (`max_seeds + 2` offsets).
    level_base: Vec<u64>,
    /// The rank of each level's first board ([`Ranker::level_start`], kept: it is a
    /// binomial coefficient).
    level_first: Vec<u64>,
    values: Bytes,
}

impl StopDb {
    /// Builds the database of `game` (whose rules must have the early stop) for positions
    /// with at most `max_seeds` seeds in the houses and a total of seeds of the parity of
    /// `total`, on the rayon threads. `None` where the rules have no early stop, the board
    /// ranks do not fit, or the values would take more than seven tenths of the memory
    /// available.
    pub fn build(game: &Game, max_seeds: usize, total: u32) -> Option<StopDb> {
        StopDb::build_cancellable(game, max_seeds, total, &AtomicBool::new(false))
    }

    /// [`StopDb::build`] that gives up (`None`, the memory freed) soon after `cancel` is
    /// raised; the caller tells a cancelled build by its flag.
    pub(crate) fn build_cancellable(
        game: &Game,
        max_seeds: usize,
        total: u32,
        cancel: &AtomicBool,
    ) -> Option<StopDb> {
        if !game.rules().early_stop || max_seeds > MAX_SEEDS {
            return None;
        }
        let h = game.houses();
        let ranker = Ranker::new(2 * h, max_seeds);
        if !ranker.fits() {
            return None;
        }
        let c = if total % 2 == 0 { 2 } else { 1 };
        let level_first: Vec<u64> = (0..=max_seeds + 1).map(|l| ranker.level_start(l)).collect();
        let mut level_base = vec![0u64];
        for (level, first) in level_first.windows(2).enumerate() {
            let base = *level_base.last().unwrap_or(&0);
            level_base.push(base + (first[1] - first[0]) * (level + c - 1) as u64);
        }
        let len = *level_base.last().unwrap_or(&0) as usize;
        // Leave room for the rest (the table, the boards of a level being built).
        if crate::os::available_memory().is_some_and(|bytes| len as u64 > bytes / 10 * 7) {
            return None;
        }
        let db = StopDb {
            rules: *game.rules(),
            c,
            ranker,
            level_base,
            level_first,
            values: Bytes::filled(len, 0)?,
        };
        for level in 1..=max_seeds {
            levels::build_level::<StopDb, BATCH>(&db, game, level, cancel, &|_, _, _| {}).ok()?;
        }
        Some(db)
    }

    /// Entries of the database of `max_seeds` seeds on `houses` houses, for an even total
    /// (an odd one has one board's worth fewer per level).
    pub fn entries(houses: usize, max_seeds: usize) -> u128 {
        (0..=max_seeds)
            .map(|l| {
                kalah_core::binomial((l + 2 * houses - 1) as u64, (2 * houses - 1) as u64)
                    * (l as u128 + 1)
            })
            .sum()
    }

    /// The offset of the first entry (distance 1) of the board of `rank` on `level`.
    #[inline]
    fn entry_base(&self, level: usize, rank: u64) -> u64 {
        self.level_base[level] + (rank - self.level_first[level]) * (level + self.c - 1) as u64
    }

    /// The most seeds in the houses of a position in the database.
    pub fn max_seeds(&self) -> usize {
        self.ranker.max_seeds()
    }

    /// True where the database holds the positions of games with `total` seeds in all.
    pub fn serves_total(&self, total: u32) -> bool {
        (total % 2 == 0) == (self.c == 2)
    }

    /// The rules it was built for.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// Bytes of values.
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// True for a database of no entries.
    pub fn is_empty(&self) -> bool {
        self.values.len() == 0
    }

    /// The relative value (final margin minus store margin, for the mover) of a position
    /// whose game is not over, with at most [`StopDb::max_seeds`] seeds in the houses and
    /// a total the database serves ([`StopDb::serves_total`]).
    #[inline]
    pub fn relative_value(&self, pos: &Position) -> i32 {
        self.value_at(self.index(pos))
    }

    /// The index of the entry of `pos` (as for [`StopDb::relative_value`]).
    #[inline]
    pub fn index(&self, pos: &Position) -> u64 {
        let level = pos.seeds_in_houses() as usize;
        let theta = pos.total_seeds() / 2 + 1;
        let d = (theta - pos.stores()[0] as u32) as u64;
        self.entry_base(level, self.ranker.rank(pos.packed_board())) + d - 1
    }

    /// The relative value at `index` ([`StopDb::index`]).
    #[inline]
    pub fn value_at(&self, index: u64) -> i32 {
        self.values[index as usize].load(Relaxed) as i32
    }

    /// Asks the CPU to bring the entry at `index` into cache.
    #[inline]
    pub fn prefetch(&self, index: u64) {
        self.values.prefetch(index as usize)
    }
}

/// A board of a build batch: its children (`n` of them), or where its own game is over
/// its value, as one child whose game ended.
#[derive(Clone, Copy)]
pub(crate) struct Kids {
    n: usize,
    kids: [Kid; MAX_HOUSES],
}

impl levels::Entries for StopDb {
    #[inline(always)]
    fn ranker(&self) -> &Ranker {
        &self.ranker
    }

    type Board = Kids;

    const EMPTY: Kids = Kids {
        n: 0,
        kids: [Kid {
            base: 0,
            banked: 0,
            given: 0,
            live: false,
            extra: false,
            value: 0,
        }; MAX_HOUSES],
    };

    #[inline(always)]
    fn start(b: &mut Kids) {
        b.n = 0;
    }

    /// Never reached in play (the game would be over): valued like a finished game, as
    /// one child whose game ended.
    #[inline(always)]
    fn over(b: &mut Kids, value: i8) {
        b.kids[0] = Kid {
            value,
            ..Kid::default()
        };
        b.n = 1;
    }

    #[inline(always)]
    fn child(&self, b: &mut Kids, level: usize, rank: u64, s: &RowSowing) {
        b.kids[b.n] = if s.ended {
            Kid {
                value: s.to_mover as i8 - s.to_opponent as i8,
                ..Kid::default()
            }
        } else {
            let (banked, given) = (s.to_mover, s.to_opponent);
            let base = self.entry_base(level - banked as usize - given as usize, rank) as usize;
            self.values.prefetch(base);
            Kid {
                base,
                banked,
                given,
                live: true,
                extra: s.extra,
                value: 0,
            }
        };
        b.n += 1;
    }

    /// The entries of a board for every distance `d` (see the module's notes).
    fn store(&self, level: usize, rank: u64, b: &Kids) {
        let k = level + self.c - 1;
        // Values for distances 1..=k (k <= MAX_SEEDS + 1 < 64); at most 2 * MAX_SEEDS.
        let mut best = [i16::MIN; 64];
        for kid in &b.kids[..b.n] {
            if !kid.live {
                for v in &mut best[1..=k] {
                    *v = (*v).max(kid.value as i16);
                }
                continue;
            }
            let (banked, given) = (kid.banked as usize, kid.given as usize);
            let bv = banked as i16 - given as i16;
            // Up to `banked` the mover reaches the majority, and above `top` the
            // opponent does: the game stops.
            let top = k.saturating_sub(given);
            for v in &mut best[1..=banked.min(k)] {
                *v = (*v).max(bv);
            }
            for v in &mut best[(top + 1).max(1)..=k] {
                *v = (*v).max(bv);
            }
            if banked >= top {
                continue;
            }
            // SAFETY: the child's entries are finished: it is on a lower level, or on
            // this one with a larger distance sum (an earlier pass of this level), and
            // nothing writes them again.
            let run = unsafe { self.values.finished(kid.base, top - banked) };
            let rest = &mut best[banked + 1..=top];
            if kid.extra {
                // Distance `d - banked`, the mover's again.
                for (v, &c) in rest.iter_mut().zip(run) {
                    *v = (*v).max(bv + c as i16);
                }
            } else {
                // The opponent's distance `L + c - d - o`: the run backwards.
                for (v, &c) in rest.iter_mut().zip(run.iter().rev()) {
                    *v = (*v).max(bv - c as i16);
                }
            }
        }
        let out = self.entry_base(level, rank) as usize;
        for (slot, &v) in self.values[out..out + k].iter().zip(&best[1..=k]) {
            slot.store(v as i8, Relaxed);
        }
    }
}
