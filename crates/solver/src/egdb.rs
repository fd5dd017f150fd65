//! Endgame database: the exact value of every position with few seeds left in the houses.
//!
//! The value stored is *relative*: the final margin for the mover minus the store margin,
//! which depends only on the houses (see [`kalah_core::Game::key`]). Entries are indexed by
//! the dense rank of the mover-first board ([`kalah_core::Ranker`]), one signed byte each
//! (no keys are stored), so the boards holding exactly `n` seeds form one contiguous
//! *level*. Values depend on the capture, end and leftovers rules and on the number of
//! houses, not on the seeds per house the game started with: one database serves
//! Kalah(6,4) and Kalah(6,5) alike (see [`Egdb::supports`]).
//!
//! **Order of computation.** A sowing never adds seeds to the houses, so every child holds
//! at most as many seeds as its parent: levels are computed in increasing order, and a
//! child on a lower level is always ready. A child on the *same* level comes from a sowing
//! that banked nothing: it stayed inside the mover's own row without reaching the store
//! and captured nothing, so its seeds only moved towards the mover's store. The *distance
//! sum* of a board (over all seeds, the distance of each from the start of its row: lane
//! `j` of a row counts `j` per seed) then strictly grows, and a flip of the board does not
//! change it. So a level is computed in decreasing distance sum, one sum at a time: every
//! child on the same level has a larger sum and is ready, and the boards of one sum are
//! independent of each other, so they are shared out between the threads freely.
//!
//! **Speed.** A board is one row for each player. The rows of a level are grouped by seeds
//! and distance sum; the boards of one distance sum are the pairs of a mover's group and an
//! opponent's group whose sums add up to it. One task takes one mover's row and walks the
//! opponent's rows of its group in rank order. Most sowings leave the opponent's row
//! unchanged, and then the mover's row after the sowing is the same for the whole task:
//! its part of the child's rank is computed once ([`Kin`]), the opponent's row's part is
//! known from the group, and the children of consecutive boards of a task lie close
//! together in memory. A board whose game is already over is valued by its row sums
//! without sowing. The children's ranks of a batch of `BATCH` boards are computed and
//! prefetched before any of their values is read, so the random reads into hundreds of
//! MiB overlap (7% faster than one board at a time; the prefetches themselves then wait
//! on address translation); the values live on transparent huge pages to spare the TLB.
//! The sowings work on the two rows as 64-bit words (no shifts of 128-bit words).
//!
//! Measured on 2 cores, the 16-seed build: walking each level in rank order and computing
//! a same-level child on demand when first needed (38% of the boards) took 1.72-1.74 s on
//! one thread and 0.93-0.99 s on two; the order by distance sum takes 1.47 s and
//! 0.73-0.74 s (the 20-seed build 8.4 s -> 6.8 s). Fixing the mover's row in a task
//! instead of the opponent's saved a further 3% there and 8% on the 20- and 24-seed
//! builds (6.92 -> 6.34 s; 42.5 -> 39.1 s). A sowing without branches on the seeds (masks
//! instead of ifs) was slower than this. With the mover's row fixed, a batch of 24 boards
//! (rather than 8) saves 5-9% on the 16-seed build and 10-12% on the 20- and 24-seed
//! builds (24 seeds: 35.7 -> 31.5 s); in the earlier rank-order build 16 had been slower.
//!
//! The file format, the resumable build to a file, and loading are in [`file`].

pub mod file;
pub(crate) mod store;

use std::sync::atomic::{AtomicI8, AtomicU64, Ordering::Relaxed};

use kalah_core::{Game, Position, Ranker, Rules, Side, MAX_HOUSES};
use rayon::prelude::*;

pub use file::{FileInfo, Requirements, Residence};
use store::Bytes;

/// The most seeds a database may hold: values must fit in a signed byte.
pub const MAX_SEEDS: usize = i8::MAX as usize;

/// Why a database cannot be built, saved, loaded or used.
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
    /// The database would need more memory than the machine has available.
    NotEnoughMemory {
        /// Bytes needed.
        needed: u64,
        /// Bytes available now.
        available: u64,
    },
    /// The file would need more disk space than its file system has free.
    NotEnoughDisk {
        /// The file to write.
        path: String,
        /// Bytes still to write.
        needed: u64,
        /// Bytes free.
        available: u64,
    },
    /// Reading or writing a file failed.
    Io {
        /// The file.
        path: String,
        /// What the system said.
        message: String,
    },
    /// The file is not an endgame database of this program (wrong magic bytes or too short).
    NotADatabase {
        /// The file.
        path: String,
    },
    /// The file was written by another version of the format.
    Version {
        /// The file.
        path: String,
        /// Its version.
        found: u32,
    },
    /// The file is damaged: wrong size, wrong checksum, or an entry that disagrees with
    /// its children.
    Corrupt {
        /// The file.
        path: String,
        /// What is wrong.
        why: String,
    },
    /// The file holds only part of its levels (an interrupted build).
    Incomplete {
        /// The file.
        path: String,
        /// Levels finished.
        levels: usize,
        /// Levels of a complete file.
        expected: usize,
    },
    /// A directory given for the database holds none that serves the game.
    NoneInDirectory {
        /// The directory.
        dir: String,
        /// The rules and board of the game.
        wanted: String,
    },
    /// A build cannot start from this smaller database.
    FromRefused {
        /// The smaller database file.
        path: String,
        /// Why.
        why: String,
    },
    /// The database was built for other rules or another board than the game.
    WrongGame {
        /// The file (empty for an in-memory database).
        path: String,
        /// The rules and board the database was built for.
        built: String,
        /// The rules and board of the game.
        wanted: String,
    },
}

impl std::fmt::Display for EgdbError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mib = |b: u64| b as f64 / (1u64 << 20) as f64;
        match self {
            EgdbError::EarlyStop => write!(
                f,
                "an endgame database file cannot serve the early stop, whose values depend on the stores: \
                 the solver builds that database in memory instead (--egdb-seeds)"
            ),
            EgdbError::TooManySeeds { seeds, limit } => {
                write!(f, "an endgame database of {seeds} seeds is not possible here: at most {limit}")
            }
            EgdbError::NotEnoughMemory { needed, available } => write!(
                f,
                "the endgame database needs {:.0} MiB of memory but only {:.0} MiB is available: \
                 lower --max-seeds",
                mib(*needed),
                mib(*available)
            ),
            EgdbError::NotEnoughDisk { path, needed, available } => write!(
                f,
                "{path} needs {:.0} MiB of disk space but only {:.0} MiB is free there: \
                 lower --max-seeds or write elsewhere",
                mib(*needed),
                mib(*available)
            ),
            EgdbError::Io { path, message } => write!(f, "{path}: {message}"),
            EgdbError::NotADatabase { path } => {
                write!(f, "{path} is not a kalah endgame database file")
            }
            EgdbError::Version { path, found } => write!(
                f,
                "{path} has format version {found}, this program reads version {}: rebuild it",
                file::VERSION
            ),
            EgdbError::Corrupt { path, why } => {
                write!(f, "{path} is damaged ({why}): rebuild it")
            }
            EgdbError::Incomplete { path, levels, expected } => write!(
                f,
                "{path} holds only {levels} of its {expected} seed levels (an interrupted build): \
                 run the build again to finish it"
            ),
            EgdbError::NoneInDirectory { dir, wanted } => write!(
                f,
                "{dir} holds no finished endgame database file (*.egdb) for {wanted}: build one \
                 there with `kalah egdb build` and the same rule options, or name a file"
            ),
            EgdbError::FromRefused { path, why } => {
                write!(f, "cannot start the build from {path}: {why}")
            }
            EgdbError::WrongGame { path, built, wanted } => {
                let what = if path.is_empty() { "the endgame database" } else { path };
                write!(
                    f,
                    "{what} was built for {built}, but the game is {wanted}: \
                     build a database with the same rule options and number of houses"
                )
            }
        }
    }
}

impl std::error::Error for EgdbError {}

/// True where a database built for `built` serves games of `rules`: the same rule family,
/// houses, capture, end and leftovers (the seeds per house do not matter), and no early
/// stop.
pub(crate) fn serves(built: &Rules, rules: &Rules) -> bool {
    !rules.early_stop
        && rules.family == built.family
        && rules.houses == built.houses
        && rules.capture == built.capture
        && rules.end == built.end
        && rules.leftovers == built.leftovers
}

/// Exact relative values of every board with at most `max_seeds` seeds in the houses.
pub struct Egdb {
    rules: Rules,
    ranker: Ranker,
    values: Bytes,
    /// Levels `0..complete` are fully computed.
    complete: usize,
    /// The file it was loaded from (`None` when built in memory).
    path: Option<std::path::PathBuf>,
}

/// What a build task keeps of its children's ranks while the mover's row stays the same
/// and the opponent's row runs through a group (see [`Egdb::expand_rows`]): for each
/// house, the mover's row after its sowing and that row's part of the child's rank, where
/// the opponent's row came through unchanged.
#[derive(Clone, Copy)]
struct Kin {
    /// The opponent's seeds (the same for the whole group).
    theirs_seeds: u64,
    /// After a passed turn: the mover's row, now the child's second row, and
    /// [`Ranker::rank_high`] of it below the opponent's seeds.
    passed: [(u64, u64); MAX_HOUSES],
    /// After an extra turn: the mover's row, still the child's first row, and
    /// [`Ranker::rank_low`] of it.
    extra: [(u64, u64); MAX_HOUSES],
}

impl Kin {
    fn new(theirs_seeds: u64) -> Kin {
        Kin {
            theirs_seeds,
            passed: [(u64::MAX, 0); MAX_HOUSES],
            extra: [(u64::MAX, 0); MAX_HOUSES],
        }
    }
}

/// The rows of one player (`H` byte lanes) with at most a level's seeds, grouped by seeds
/// and distance sum (see the module's notes), each with its parts of the ranks a build
/// needs ([`Row`]), in increasing order of [`Row::low`].
struct RowGroups {
    /// `groups[seeds * (max_sum + 1) + sum]`.
    groups: Vec<Vec<Row>>,
    /// The largest distance sum of a row: every seed in the last lane.
    max_sum: usize,
}

/// A row of a [`RowGroups`] and its parts of the ranks of the level's boards.
#[derive(Clone, Copy)]
struct Row {
    row: u64,
    /// [`Ranker::rank_low`]: its part as the mover's row.
    low: u64,
    /// [`Ranker::rank_high`] below the rest of the level's seeds: its part as the
    /// opponent's row.
    high: u64,
    /// The same below one seed fewer: its part of the child after an extra turn that left
    /// it unchanged.
    extra_high: u64,
}

impl RowGroups {
    fn new<const H: usize>(ranker: &Ranker, level: usize) -> RowGroups {
        let max_sum = (H - 1) * level;
        let mut groups = vec![Vec::new(); (level + 1) * (max_sum + 1)];
        // Every row, lane by lane: the seeds given to the lanes so far, and their sum.
        let mut stack = vec![(0u64, 0usize, 0usize)];
        while let Some((row, lane, seeds)) = stack.pop() {
            if lane == H {
                let sum = (0..H)
                    .map(|j| (row >> (8 * j) & 0xff) as usize * j)
                    .sum::<usize>();
                // As the opponent's row, the mover's row holds the rest of the level.
                let below = (level - seeds) as u64;
                groups[seeds * (max_sum + 1) + sum].push(Row {
                    row,
                    low: ranker.rank_low::<H>(row),
                    high: ranker.rank_high::<H>(row, below),
                    extra_high: ranker.rank_high::<H>(row, below.saturating_sub(1)),
                });
                continue;
            }
            for s in 0..=level - seeds {
                stack.push((row | (s as u64) << (8 * lane), lane + 1, seeds + s));
            }
        }
        for g in &mut groups {
            g.sort_unstable_by_key(|r| r.low);
        }
        RowGroups { groups, max_sum }
    }

    /// The rows of `seeds` seeds and distance sum `sum`.
    fn group(&self, seeds: usize, sum: usize) -> &[Row] {
        &self.groups[seeds * (self.max_sum + 1) + sum]
    }
}

/// Boards expanded together in a build before their children are read.
const BATCH: usize = 24;

/// A board of a build batch, expanded: its children (rank, board, what the sowing banked
/// for the board's mover, and whether the turn passed: bit `i` of `passed`; a child
/// whose game ended is the empty board), or in `best` the board's value where its own
/// game is already over.
#[derive(Clone, Copy)]
struct Expanded {
    n: u8,
    passed: u8,
    best: i32,
    ranks: [usize; MAX_HOUSES],
    margins: [i16; MAX_HOUSES],
}

impl Expanded {
    const EMPTY: Expanded = Expanded {
        n: 0,
        passed: 0,
        best: i32::MIN,
        ranks: [0; MAX_HOUSES],
        margins: [0; MAX_HOUSES],
    };
}

impl Egdb {
    /// An empty database for `game` (every entry 0), to be filled level by level with
    /// [`Egdb::build_level`].
    pub fn empty(game: &Game, max_seeds: usize) -> Result<Egdb, EgdbError> {
        Egdb::filled(game, max_seeds, 0)
    }

    /// A database for `game` whose entries all hold `fill` (zero for one about to be read
    /// from a file: fresh memory is zero already, so nothing is written twice).
    pub(crate) fn filled(game: &Game, max_seeds: usize, fill: i8) -> Result<Egdb, EgdbError> {
        Egdb::with_values(game, max_seeds, |entries| {
            Ok(Bytes::filled(entries as usize, fill))
        })
    }

    /// A database for `game` of `max_seeds` seeds whose values are `values(entries)`.
    pub(crate) fn with_values(
        game: &Game,
        max_seeds: usize,
        values: impl FnOnce(u64) -> Result<Bytes, EgdbError>,
    ) -> Result<Egdb, EgdbError> {
        let rules = *game.rules();
        if rules.early_stop {
            return Err(EgdbError::EarlyStop);
        }
        let limit = game.capacity().min(MAX_SEEDS);
        if max_seeds > limit {
            return Err(EgdbError::TooManySeeds {
                seeds: max_seeds,
                limit,
            });
        }
        let need = Requirements::of(game.houses(), max_seeds)?;
        let ranker = Ranker::new(2 * game.houses(), max_seeds);
        Ok(Egdb {
            rules,
            ranker,
            values: values(need.entries)?,
            complete: 0,
            path: None,
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

    /// Computes level `level` (all lower levels must be complete), in decreasing distance
    /// sum (see the module's notes on the order).
    pub fn build_level(
        &mut self,
        game: &Game,
        level: usize,
        progress: &(dyn Fn(usize, u64, u64) + Sync),
    ) {
        assert_eq!(level, self.complete, "levels are built in increasing order");
        assert!(
            !self.values.is_mapped(),
            "a database mapped from a file is read-only"
        );
        assert!(self.supports(game.rules()), "the game's rules");
        match game.houses() {
            6 => self.build_level_rows::<6>(game, level, progress),
            1 => self.build_level_rows::<1>(game, level, progress),
            2 => self.build_level_rows::<2>(game, level, progress),
            3 => self.build_level_rows::<3>(game, level, progress),
            4 => self.build_level_rows::<4>(game, level, progress),
            5 => self.build_level_rows::<5>(game, level, progress),
            7 => self.build_level_rows::<7>(game, level, progress),
            _ => self.build_level_rows::<8>(game, level, progress),
        }
        self.complete = level + 1;
    }

    /// [`Egdb::build_level`] on a board of `H` houses a side.
    fn build_level_rows<const H: usize>(
        &self,
        game: &Game,
        level: usize,
        progress: &(dyn Fn(usize, u64, u64) + Sync),
    ) {
        let groups = RowGroups::new::<H>(&self.ranker, level);
        let total = self.ranker.level_start(level + 1) - self.ranker.level_start(level);
        let done = AtomicU64::new(0);
        for sum in (0..=2 * groups.max_sum).rev() {
            // The pairs of a mover's group and an opponent's group of this distance sum,
            // with the mover's seeds.
            let mut pairs = Vec::new();
            for mine_seeds in 0..=level {
                let theirs_seeds = level - mine_seeds;
                for mine_sum in 0..=sum.min((H - 1) * mine_seeds) {
                    let theirs_sum = sum - mine_sum;
                    if theirs_sum > (H - 1) * theirs_seeds {
                        continue;
                    }
                    let mine = groups.group(mine_seeds, mine_sum);
                    let theirs = groups.group(theirs_seeds, theirs_sum);
                    if !mine.is_empty() && !theirs.is_empty() {
                        pairs.push((mine, theirs, mine_seeds as u64));
                    }
                }
            }
            pairs.par_iter().for_each(|&(mine, theirs, mine_seeds)| {
                let theirs_seeds = level as u64 - mine_seeds;
                mine.par_iter().with_min_len(4).for_each_init(
                    || [Expanded::EMPTY; BATCH],
                    |batch, mine| {
                        let mut kin = Kin::new(theirs_seeds);
                        for rows in theirs.chunks(BATCH) {
                            for (e, theirs) in batch.iter_mut().zip(rows) {
                                self.expand_rows::<H>(game, mine.row, theirs, e, &mut kin);
                            }
                            for (e, theirs) in batch.iter().zip(rows) {
                                let rank = mine.low.wrapping_add(theirs.high) as usize;
                                self.values[rank].store(self.finish(e), Relaxed);
                            }
                        }
                        let n = theirs.len() as u64;
                        let d = done.fetch_add(n, Relaxed) + n;
                        // About a hundred reports a level.
                        if (d - n) * 128 / total.max(1) != d * 128 / total.max(1) {
                            progress(level, d, total);
                        }
                    },
                );
            });
        }
        progress(level, total, total);
    }

    /// Expands the board of rows `mine` (the mover's) and `theirs`, `H` houses each, into
    /// `e` (written in place: only its counts are reset): the children's ranks and
    /// margins, their entries prefetched (a sowing that ends the game leaves the empty
    /// board, whose value is 0); a board whose game is already over (an empty row, a stuck
    /// mover) is valued at once by the end-of-game rule
    /// ([`kalah_core::Game::settle_rows`], as `Game::settle` values it). `theirs` comes
    /// with its parts of the ranks ([`Row`]); `kin` is kept by the caller while `mine`
    /// stays the same.
    #[inline(always)]
    fn expand_rows<const H: usize>(
        &self,
        game: &Game,
        mine: u64,
        their: &Row,
        e: &mut Expanded,
        kin: &mut Kin,
    ) {
        let theirs = their.row;
        e.n = 0;
        e.passed = 0;
        e.best = i32::MIN;
        if let Some((left_mine, left_theirs)) = game.settle_rows(mine, theirs) {
            e.best = left_mine as i32 - left_theirs as i32;
            return;
        }
        for j in 0..H {
            if (mine >> (8 * j)) as u8 == 0 {
                continue;
            }
            let sown = game.sow_rows(mine, theirs, j);
            let extra = sown.extra;
            let banked = sown.to_mover as i32 - sown.to_opponent as i32;
            // Where the opponent's row came through unchanged, its part of the child's
            // rank is known (its first row after a passed turn, its second after an extra
            // turn), and the mover's row's part is usually the same as for the last board.
            let rank = if !sown.theirs_kept {
                // The child seen from its mover (a sowing that ended the game leaves the
                // empty board).
                if extra {
                    self.ranker.rank_rows::<H>(sown.mine, sown.theirs)
                } else {
                    self.ranker.rank_rows::<H>(sown.theirs, sown.mine)
                }
            } else if extra {
                let (row, low) = &mut kin.extra[j];
                if *row != sown.mine {
                    *row = sown.mine;
                    *low = self.ranker.rank_low::<H>(sown.mine);
                }
                low.wrapping_add(their.extra_high)
            } else {
                let (row, high) = &mut kin.passed[j];
                if *row != sown.mine {
                    *row = sown.mine;
                    *high = self.ranker.rank_high::<H>(sown.mine, kin.theirs_seeds);
                }
                their.low.wrapping_add(*high)
            } as usize;
            debug_assert_eq!(rank as u64, {
                let (a, b) = if extra {
                    (sown.mine, sown.theirs)
                } else {
                    (sown.theirs, sown.mine)
                };
                self.ranker.rank_rows::<H>(a, b)
            });
            self.values.prefetch(rank);
            let n = e.n as usize;
            e.ranks[n] = rank;
            e.margins[n] = banked as i16;
            e.passed |= u8::from(!extra) << n;
            e.n += 1;
        }
    }

    /// The value of an expanded board from its children's entries (all computed: see the
    /// module's notes on the order).
    #[inline]
    fn finish(&self, e: &Expanded) -> i8 {
        let mut best = e.best;
        for i in 0..e.n as usize {
            let cv = self.values[e.ranks[i]].load(Relaxed);
            // The child's value for its own mover is its relative value plus its store
            // margin, which is `-banked` where the turn passed.
            let v = if e.passed >> i & 1 == 1 {
                e.margins[i] as i32 - cv as i32
            } else {
                e.margins[i] as i32 + cv as i32
            };
            best = best.max(v);
        }
        best as i8
    }

    /// The most seeds in the houses of a position in the database (for the levels built).
    #[inline]
    pub fn max_seeds(&self) -> usize {
        self.complete.saturating_sub(1)
    }

    /// The rules the database was built for (or adopted when loaded for a game, see
    /// [`Egdb::load`]).
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The file the database was loaded from (`None` for one built in memory).
    pub fn path(&self) -> Option<&std::path::Path> {
        self.path.as_deref()
    }

    /// True when the database's values hold for a game under `rules`: the same number of
    /// houses and the same capture, end and leftovers rules (the seeds per house at the
    /// start do not matter), and no early stop.
    pub fn supports(&self, rules: &Rules) -> bool {
        serves(&self.rules, rules)
    }

    /// Checks that the database serves `game` and adopts the game's rules (so that
    /// [`Egdb::rules`] equals them). `path` names the database in the error.
    pub fn for_game(mut self, game: &Game, path: &str) -> Result<Egdb, EgdbError> {
        if game.rules().early_stop {
            return Err(EgdbError::EarlyStop);
        }
        if !self.supports(game.rules()) {
            return Err(EgdbError::WrongGame {
                path: path.to_string(),
                built: describe(&self.rules),
                wanted: describe(game.rules()),
            });
        }
        self.rules = *game.rules();
        Ok(self)
    }

    /// The relative value (final margin minus store margin, for the mover) of a position
    /// whose houses hold at most [`Egdb::max_seeds`] seeds.
    #[inline]
    pub fn relative_value(&self, pos: &Position) -> i32 {
        self.value_at(self.ranker.rank(pos.packed_board()))
    }

    /// The relative value of the board of rank `index` ([`kalah_core::Ranker::rank`];
    /// [`kalah_core::Game::key`] where [`kalah_core::Game::key_is_rank`]).
    #[inline]
    pub fn value_at(&self, index: u64) -> i32 {
        self.values[index as usize].load(Relaxed) as i32
    }

    /// Asks the CPU to bring the entry of rank `index` into cache.
    #[inline]
    pub fn prefetch(&self, index: u64) {
        self.values.prefetch(index as usize)
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

    /// The rank of the first board holding `seeds` seeds (the byte offset of that level).
    pub fn level_start(&self, seeds: usize) -> u64 {
        self.ranker.level_start(seeds)
    }

    /// Checks `samples` entries spread over the database against their children (one
    /// sowing deep): each must be the best over its children of what they store. Returns
    /// the rank of the first entry that disagrees.
    pub fn spot_check(&self, samples: u64) -> Result<(), u64> {
        let rules = Rules {
            seeds: (kalah_core::MAX_TOTAL_SEEDS / (2 * self.rules.houses as usize)) as u8,
            ..self.rules
        };
        let Ok(game) = Game::new(rules) else {
            return Err(0);
        };
        let count = self.ranker.level_start(self.complete);
        if count == 0 {
            return Ok(());
        }
        let step = (count / samples.max(1)).max(1);
        let mut rank = 0;
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        while rank < count {
            let board = self.ranker.unrank(rank);
            let stored = self.values[rank as usize].load(Relaxed);
            let pos = Position::from_packed(game.houses(), board, [0, 0], Side::South);
            let settled = game.settle(pos).unwrap_or(pos);
            let want = if settled.is_over() {
                settled.store_margin()
            } else {
                pos.moves()
                    .map(|j| {
                        let child = game.play_unchecked(&pos, j);
                        let v = child.store_margin()
                            + if child.is_over() {
                                0
                            } else {
                                self.relative_value(&child)
                            };
                        if child.side_to_move() == Side::South {
                            v
                        } else {
                            -v
                        }
                    })
                    .max()
                    .unwrap_or(0)
            };
            if stored as i32 != want {
                return Err(rank);
            }
            x = kalah_core::mix(x);
            rank += 1 + x % step;
        }
        Ok(())
    }
}

/// The board and rules a database's values depend on, for messages.
pub fn describe(rules: &Rules) -> String {
    format!(
        "{} houses capture={} end={} leftovers={}{}",
        rules.houses,
        rules.capture,
        rules.end,
        rules.leftovers,
        if rules.early_stop { " early-stop" } else { "" }
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The pairs of row groups of a level hold every board of it once, at its rank.
    fn groups_cover_the_level<const H: usize>(max_seeds: usize) {
        let r = Ranker::new(2 * H, max_seeds);
        for level in 0..=max_seeds {
            let g = RowGroups::new::<H>(&r, level);
            let mut ranks = Vec::new();
            for mine_seeds in 0..=level {
                for mine_sum in 0..=g.max_sum {
                    for theirs_sum in 0..=g.max_sum {
                        for m in g.group(mine_seeds, mine_sum) {
                            for t in g.group(level - mine_seeds, theirs_sum) {
                                let rank = m.low + t.high;
                                assert_eq!(t.high, r.rank_high::<H>(t.row, mine_seeds as u64));
                                assert_eq!(
                                    t.extra_high,
                                    r.rank_high::<H>(t.row, (mine_seeds as u64).saturating_sub(1))
                                );
                                let board = m.row as u128 | (t.row as u128) << (8 * H);
                                assert_eq!(r.rank(board), rank, "H {H} level {level}");
                                ranks.push(rank);
                            }
                        }
                    }
                }
            }
            ranks.sort_unstable();
            let all: Vec<u64> = (r.level_start(level)..r.level_start(level + 1)).collect();
            assert_eq!(ranks, all, "H {H} level {level}");
        }
    }

    #[test]
    fn row_groups_cover_every_level_once() {
        groups_cover_the_level::<1>(6);
        groups_cover_the_level::<2>(6);
        groups_cover_the_level::<3>(6);
        groups_cover_the_level::<6>(5);
    }
}
