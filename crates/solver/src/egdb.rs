//! Endgame database: the exact value of every position with few seeds left in the houses.
//!
//! The value stored is *relative*: the final margin for the mover minus the store margin,
//! which depends only on the houses (see [`kalah_core::Game::key`]). Entries are indexed by
//! the dense rank of the mover-first board ([`kalah_core::Ranker`]), one signed byte each,
//! so the boards holding exactly `n` seeds form one contiguous *level*.
//!
//! **Order of computation.** A sowing never adds seeds to the houses, so every child holds
//! at most as many seeds as its parent: levels are computed in increasing order, and a
//! child on a lower level is always ready. A child on the *same* level comes from a sowing
//! that banked nothing: it stayed inside the mover's own row without reaching the store
//! and captured nothing, so its seeds only moved towards the mover's store. The sum over
//! all seeds of their distance from the start of their row then strictly grows (and a
//! flip of the board does not change it), so chains of same-level children are finite and
//! acyclic. Such a child is computed on demand, recursively, when first needed; two
//! threads that meet the same entry compute the same value, so the race is harmless.

use std::sync::atomic::{AtomicI8, AtomicU64, Ordering::Relaxed};

use kalah_core::{Game, Position, Ranker, Rules, Side};
use rayon::prelude::*;

/// Marks an entry not yet computed.
const UNKNOWN: i8 = i8::MIN;

/// Why a database cannot be built or used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EgdbError {
    /// The early stop reads the stores, which the database leaves out.
    EarlyStop,
    /// More seeds than a signed byte can value, or than the game holds.
    TooManySeeds {
        /// Requested.
        seeds: usize,
        /// The most allowed here.
        limit: usize,
    },
}

impl std::fmt::Display for EgdbError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EgdbError::EarlyStop => write!(
                f,
                "an endgame database cannot be used with the early stop: values would depend on the stores"
            ),
            EgdbError::TooManySeeds { seeds, limit } => {
                write!(f, "an endgame database of {seeds} seeds is not possible here: at most {limit}")
            }
        }
    }
}

impl std::error::Error for EgdbError {}

/// Exact relative values of every board with at most `max_seeds` seeds in the houses.
pub struct Egdb {
    rules: Rules,
    ranker: Ranker,
    values: Box<[AtomicI8]>,
    /// Levels `0..complete` are fully computed.
    complete: usize,
}

impl Egdb {
    /// An empty database for `game`, to be filled level by level with [`Egdb::build_level`].
    pub fn empty(game: &Game, max_seeds: usize) -> Result<Egdb, EgdbError> {
        let rules = *game.rules();
        if rules.early_stop {
            return Err(EgdbError::EarlyStop);
        }
        let limit = game.capacity().min(i8::MAX as usize);
        if max_seeds > limit {
            return Err(EgdbError::TooManySeeds {
                seeds: max_seeds,
                limit,
            });
        }
        let ranker = Ranker::new(2 * game.houses(), max_seeds);
        let size = ranker.count() as usize;
        let values = (0..size).map(|_| AtomicI8::new(UNKNOWN)).collect();
        Ok(Egdb {
            rules,
            ranker,
            values,
            complete: 0,
        })
    }

    /// Number of entries a database of `max_seeds` seeds has on `houses` houses per side.
    pub fn entries(houses: usize, max_seeds: usize) -> u128 {
        Ranker::new(2 * houses, max_seeds.min(255)).count()
    }

    /// Builds every level up to `max_seeds` in parallel; `progress(level, done, total)`
    /// is called from the worker threads as entries complete.
    pub fn build(
        game: &Game,
        max_seeds: usize,
        progress: &(dyn Fn(usize, u64, u64) + Sync),
    ) -> Result<Egdb, EgdbError> {
        let mut db = Egdb::empty(game, max_seeds)?;
        for level in 0..=max_seeds {
            db.build_level(game, level, progress);
        }
        Ok(db)
    }

    /// Computes level `level` (all lower levels must be complete).
    pub fn build_level(
        &mut self,
        game: &Game,
        level: usize,
        progress: &(dyn Fn(usize, u64, u64) + Sync),
    ) {
        assert_eq!(level, self.complete, "levels are built in increasing order");
        assert!(game.rules() == &self.rules);
        let start = self.ranker.level_start(level);
        let end = self.ranker.level_start(level + 1);
        let total = end - start;
        let done = AtomicU64::new(0);
        const CHUNK: u64 = 1 << 14;
        let chunks = total.div_ceil(CHUNK);
        let this = &*self;
        (0..chunks).into_par_iter().for_each(|c| {
            let lo = start + c * CHUNK;
            let hi = (lo + CHUNK).min(end);
            for rank in lo..hi {
                if this.values[rank as usize].load(Relaxed) == UNKNOWN {
                    let v = this.solve(game, this.ranker.unrank(rank), level);
                    this.values[rank as usize].store(v, Relaxed);
                }
            }
            let d = done.fetch_add(hi - lo, Relaxed) + (hi - lo);
            progress(level, d, total);
        });
        self.complete = level + 1;
    }

    /// The relative value of the board `board` holding `level` seeds, from its children.
    fn solve(&self, game: &Game, board: u128, level: usize) -> i8 {
        let h = game.houses();
        let pos = Position::from_packed(h, board, [0, 0], Side::South);
        // A board whose game is already over (an empty row, a stuck mover) is valued by
        // the end-of-game rule, exactly as a hand-entered position would be.
        let settled = game.settle(pos).unwrap_or(pos);
        if settled.is_over() {
            return settled.store_margin() as i8;
        }
        let mut best = i32::MIN;
        for j in pos.moves() {
            let child = game.play_unchecked(&pos, j);
            let mut v = child.store_margin();
            if !child.is_over() {
                let seeds = child.seeds_in_houses() as usize;
                let rank = self.ranker.rank(child.packed_board()) as usize;
                let mut cv = self.values[rank].load(Relaxed);
                if cv == UNKNOWN {
                    debug_assert_eq!(seeds, level, "lower levels are complete");
                    cv = self.solve(game, child.packed_board(), seeds);
                    self.values[rank].store(cv, Relaxed);
                }
                v += cv as i32;
            }
            best = best.max(if child.side_to_move() == pos.side_to_move() {
                v
            } else {
                -v
            });
        }
        best as i8
    }

    /// The most seeds in the houses of a position in the database (for the levels built).
    #[inline]
    pub fn max_seeds(&self) -> usize {
        self.complete.saturating_sub(1)
    }

    /// The rules the database was built for.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The relative value (final margin minus store margin, for the mover) of a position
    /// whose houses hold at most [`Egdb::max_seeds`] seeds.
    #[inline]
    pub fn relative_value(&self, pos: &Position) -> i32 {
        self.values[self.ranker.rank(pos.packed_board()) as usize].load(Relaxed) as i32
    }

    /// The exact value for the mover of `pos` if the database holds it.
    pub fn probe(&self, pos: &Position) -> Option<i32> {
        (pos.houses_per_side() == self.rules.houses as usize
            && (pos.seeds_in_houses() as usize) < self.complete)
            .then(|| {
                pos.store_margin()
                    + if pos.is_over() {
                        0
                    } else {
                        self.relative_value(pos)
                    }
            })
    }

    /// The raw values, one signed byte per board in rank order.
    pub fn bytes(&self) -> &[AtomicI8] {
        &self.values
    }
}
