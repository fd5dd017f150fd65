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
//! **Build.** Levels are computed in increasing seeds, and the boards of a level in
//! decreasing distance sum, by the build shared with the early stop's database (the
//! crate's `levels` module explains the order); a board's value is the best over its
//! children of the margin the sowing banked plus (after an extra turn) or minus (after a
//! passed turn) the child's entry. In the families whose positions repeat (Oware, and
//! Ethiopian Kalah in memory) a level also moves inside itself, and is solved by the cycle
//! rule ([`crate::db::cyclic_db`]); their values depend on the grand slam rule too.
//!
//! The file format, the resumable build to a file, and loading are in [`file`](mod@file).

pub mod file;
mod inspect;
mod plan;
pub(crate) mod store;

use std::sync::atomic::{AtomicBool, AtomicI8, Ordering::Relaxed};

use kalah_core::{Game, Position, Ranker, RowSowing, Rules, Side, MAX_HOUSES};

use crate::db::levels;

pub use file::{FileInfo, Requirements, Residence};
pub use inspect::{inspect, probe_file, Inspection, ProbeError, Probed, Sowing};
pub use plan::{Built, FileBuild, PlanError};
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
    /// The path names a FIFO, a socket, a device or a directory: only a regular file is
    /// a database, and anything else is refused without being opened for reading (a FIFO
    /// would block the open until something writes to it).
    NotAFile {
        /// The path.
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
    /// Keeping a database in the cache would take the cache past its cap.
    CacheFull {
        /// The cache directory.
        dir: String,
        /// Bytes of the file to keep.
        needed: u64,
        /// The cap, in bytes.
        max: u64,
    },
    /// A build cannot start from this smaller database.
    FromRefused {
        /// The smaller database file.
        path: String,
        /// Why.
        why: String,
    },
    /// The build was stopped through its cancel flag (Ctrl-C, a client gone) before it
    /// was finished: nothing half-built is kept, except the finished levels of a build to a
    /// file, in its partial file, from which the next build resumes.
    Cancelled,
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
                 the solver builds that database in memory instead"
            ),
            EgdbError::TooManySeeds { seeds, limit } => {
                write!(f, "an endgame database of {seeds} seeds is not possible here: at most {limit}")
            }
            EgdbError::NotEnoughMemory { needed, available } => write!(
                f,
                "the endgame database needs {:.0} MiB of memory but only {:.0} MiB is available: \
                 one of fewer seeds needs less",
                mib(*needed),
                mib(*available)
            ),
            EgdbError::NotEnoughDisk { path, needed, available } => write!(
                f,
                "{path} needs {:.0} MiB of disk space but only {:.0} MiB is free there: \
                 build fewer seeds, or write to another file system",
                mib(*needed),
                mib(*available)
            ),
            EgdbError::Io { path, message } => write!(f, "{path}: {message}"),
            EgdbError::NotADatabase { path } => {
                write!(f, "{path} is not a kalah endgame database file")
            }
            EgdbError::NotAFile { path } => write!(
                f,
                "{path} is not a regular file (a FIFO, socket or device): an endgame \
                 database is a regular *.egdb file; name one"
            ),
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
            EgdbError::CacheFull { dir, needed, max } => write!(
                f,
                "a {:.1} MiB database would take the cache {dir} past its cap of {:.1} MiB",
                mib(*needed),
                mib(*max)
            ),
            EgdbError::FromRefused { path, why } => {
                write!(f, "cannot start the build from {path}: {why}")
            }
            EgdbError::Cancelled => f.write_str("the endgame database build was cancelled"),
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
        && rules.grand_slam == built.grand_slam
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
    /// Sweeps made by the last level built by the cycle rule ([`crate::db::cyclic_db`]).
    sweeps: u32,
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
            // Sized against the memory available first; an allocation the system refuses
            // all the same is the same error, never an abort.
            let memory = || crate::os::available_memory().unwrap_or(0);
            if crate::os::available_memory().is_some_and(|bytes| entries > bytes) {
                return Err(EgdbError::NotEnoughMemory {
                    needed: entries,
                    available: memory(),
                });
            }
            Bytes::filled(entries as usize, fill).ok_or_else(|| EgdbError::NotEnoughMemory {
                needed: entries,
                available: memory(),
            })
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
        let limit = match rules.family.is_cyclic() {
            true => game.capacity().min(crate::db::cyclic_db::MAX_SEEDS),
            false => game.capacity().min(MAX_SEEDS),
        };
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
            sweeps: 0,
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
        Egdb::build_cancellable(game, max_seeds, &AtomicBool::new(false), progress)
    }

    /// [`Egdb::build`] that stops with [`EgdbError::Cancelled`] soon after `cancel` is
    /// raised (polled between the build's tasks, as the search polls its flag); the
    /// memory of the unfinished database is freed.
    pub fn build_cancellable(
        game: &Game,
        max_seeds: usize,
        cancel: &AtomicBool,
        progress: &(dyn Fn(usize, u64, u64) + Sync),
    ) -> Result<Egdb, EgdbError> {
        let mut db = Egdb::empty(game, max_seeds)?;
        for level in 0..=max_seeds {
            db.build_level_cancellable(game, level, cancel, progress)?;
        }
        Ok(db)
    }

    /// Computes level `level` (all lower levels must be complete), in decreasing distance
    /// sum (see the module's notes).
    pub fn build_level(
        &mut self,
        game: &Game,
        level: usize,
        progress: &(dyn Fn(usize, u64, u64) + Sync),
    ) {
        let never = AtomicBool::new(false);
        let built = self.build_level_cancellable(game, level, &never, progress);
        debug_assert!(built.is_ok(), "never cancelled");
    }

    /// [`Egdb::build_level`] that stops with [`EgdbError::Cancelled`] soon after `cancel`
    /// is raised; the level is then not finished ([`Egdb::max_seeds`] stays below it) and
    /// the next call computes it again.
    pub fn build_level_cancellable(
        &mut self,
        game: &Game,
        level: usize,
        cancel: &AtomicBool,
        progress: &(dyn Fn(usize, u64, u64) + Sync),
    ) -> Result<(), EgdbError> {
        assert_eq!(level, self.complete, "levels are built in increasing order");
        assert!(
            !self.values.is_mapped(),
            "a database mapped from a file is read-only"
        );
        assert!(self.supports(game.rules()), "the game's rules");
        match game.rules().family.is_cyclic() {
            true => {
                let (ranker, values) = (&self.ranker, &self.values);
                self.sweeps = crate::db::cyclic_db::build_level(
                    game, ranker, values, level, cancel, progress,
                )
                .map_err(|levels::Cancelled| EgdbError::Cancelled)?;
            }
            false => levels::build_level::<Egdb, BATCH>(self, game, level, cancel, progress)
                .map_err(|levels::Cancelled| EgdbError::Cancelled)?,
        }
        self.complete = level + 1;
        Ok(())
    }

    /// The sweeps the last level built by the cycle rule took (families whose positions
    /// repeat; 0 otherwise).
    pub fn last_level_sweeps(&self) -> u32 {
        self.sweeps
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
        let Ok(game) = widest_game(&self.rules) else {
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
                game.legal_moves(&pos)
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

/// Boards expanded together in a build before their children are read.
const BATCH: usize = 24;

/// A board of a build batch (see [`crate::db::levels`]): its children (rank, what the sowing
/// banked for the board's mover, and whether the turn passed: bit `i` of `passed`; a
/// child whose game ended is the empty board, whose entry is 0), or in `best` the board's
/// value where its own game is already over.
#[derive(Clone, Copy)]
pub(crate) struct Expanded {
    n: u8,
    passed: u8,
    best: i32,
    ranks: [usize; MAX_HOUSES],
    margins: [i16; MAX_HOUSES],
}

impl levels::Entries for Egdb {
    #[inline(always)]
    fn ranker(&self) -> &Ranker {
        &self.ranker
    }

    type Board = Expanded;

    const EMPTY: Expanded = Expanded {
        n: 0,
        passed: 0,
        best: i32::MIN,
        ranks: [0; MAX_HOUSES],
        margins: [0; MAX_HOUSES],
    };

    #[inline(always)]
    fn start(e: &mut Expanded) {
        e.n = 0;
        e.passed = 0;
        e.best = i32::MIN;
    }

    #[inline(always)]
    fn over(e: &mut Expanded, value: i8) {
        e.n = 0;
        e.passed = 0;
        e.best = value as i32;
    }

    #[inline(always)]
    fn child(&self, e: &mut Expanded, _level: usize, rank: u64, sown: &RowSowing) {
        let rank = rank as usize;
        self.values.prefetch(rank);
        let n = e.n as usize;
        e.ranks[n] = rank;
        e.margins[n] = sown.to_mover as i16 - sown.to_opponent as i16;
        e.passed |= u8::from(!sown.extra) << n;
        e.n += 1;
    }

    /// The value of a board is the best over its children of what they bring the mover.
    #[inline(always)]
    fn store(&self, _level: usize, rank: u64, e: &Expanded) {
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
        self.values[rank as usize].store(best as i8, Relaxed);
    }
}

/// The game in which a database for `rules` is computed, checked and probed: the same
/// rules without the early stop, with as many seeds per house as the packed board holds,
/// so that every board of the database is a position of it (the seeds per house do not
/// change a database's values, see [`Egdb::supports`]).
pub fn widest_game(rules: &Rules) -> Result<Game, kalah_core::RulesError> {
    Game::new(Rules {
        seeds: (kalah_core::MAX_TOTAL_SEEDS / (2 * rules.houses.max(1) as usize)) as u8,
        early_stop: false,
        ..*rules
    })
}

/// The board and rules a database's values depend on, for messages.
pub fn describe(rules: &Rules) -> String {
    // Kalah's descriptions (and so its cache's file names) came before the families.
    let family = match rules.family {
        kalah_core::Family::Kalah => String::new(),
        other => format!("{other} "),
    };
    let grand_slam = match rules.family {
        kalah_core::Family::Oware => format!(" grand-slam={}", rules.grand_slam),
        _ => String::new(),
    };
    format!(
        "{family}{} houses capture={} end={} leftovers={}{grand_slam}{}",
        rules.houses,
        rules.family.capture_name(rules.capture),
        rules.end,
        rules.leftovers,
        if rules.early_stop { " early-stop" } else { "" }
    )
}
