//! Exact Kalah solver: iterative-deepening negamax with null-window proofs, run by
//! several threads over one lock-free transposition table.
//!
//! The value of a position is the final store difference under perfect play. The
//! solver first deepens a depth-limited search (heuristic leaf: the store margin) to
//! fill the table with good moves and guess the value, then proves the exact value with
//! null-window searches to the end of the game (MTD(f)), and finally extracts a
//! principal variation that replays to that value.
//!
//! [`Config::for_work`] chooses the settings for the work at hand (table size, endgame
//! database, deepening), exactly as the `kalah` command line does; [`Solution::verify`]
//! replays the principal variation to the value. The endgame database comes from where
//! [`Database`] says: by default a file of `KALAH_EGDB_PATH`, else the user's database
//! cache ([`cache`]), else one built in memory and kept there. Files are read and written
//! by [`egdb`]; [`tt`] is the transposition table.
//!
//! ```
//! use std::sync::atomic::AtomicBool;
//! use kalah_core::{Game, Rules, Capture};
//! use kalah_solver::{Solver, Config};
//!
//! let game = Game::new(Rules { capture: Capture::Empty, ..Rules::kalah(4, 2) }).unwrap();
//! let pos = game.start();
//! let config = Config { threads: 1, ..Config::for_work(&game, &pos, 1) };
//! let solver = Solver::new(game.clone(), config).unwrap();
//! let solution = solver.solve(&pos, &AtomicBool::new(false), &mut |_| {}).unwrap();
//! solution.verify(&game, &pos).unwrap();
//! assert_eq!(solution.value_from_south(), 6); // Irving, Donkers and Uiterwijk (2000)
//! ```
#![deny(missing_docs)]

pub mod bench;
pub mod cache;
mod config;
mod database;
pub mod egdb;
mod levels;
pub mod line;
mod lookup;
mod os;
mod pages;
pub mod retro;
mod search;
mod smp;
pub mod stopdb;
pub mod tt;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::time::{Duration, Instant};

use kalah_core::{Game, Position, Side};

pub use config::Config;
pub use database::{CacheReport, Database, EGDB_PATH_VAR};
use egdb::{Egdb, EgdbError};
use lookup::Lookup;
use search::INF;
use stopdb::StopDb;
use tt::{Table, EXACT_DEPTH};

/// Flags and counters shared by the threads of one search.
pub(crate) struct Shared<'c> {
    cancel: &'c AtomicBool,
    /// Set when one thread has finished the current search: the others stop.
    done: AtomicBool,
    nodes: AtomicU64,
    /// Positions valued by the endgame database.
    egdb_hits: AtomicU64,
    /// The exact search follows the moves the deepening stored (see
    /// [`search::DEEPENING_HINT_REACH`]); set for each pass, read when its workers start.
    deepening_hints: AtomicBool,
}

impl<'c> Shared<'c> {
    fn new(cancel: &'c AtomicBool) -> Shared<'c> {
        Shared {
            cancel,
            done: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
            egdb_hits: AtomicU64::new(0),
            deepening_hints: AtomicBool::new(true),
        }
    }

    #[inline]
    pub(crate) fn should_stop(&self) -> bool {
        self.done.load(Relaxed) || self.cancel.load(Relaxed)
    }
}

/// The search was stopped through its cancel flag before it had a result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cancelled;

impl std::fmt::Display for Cancelled {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the search was cancelled")
    }
}

impl std::error::Error for Cancelled {}

/// Why a solver could not be made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SolverError {
    /// The endgame database cannot be built, loaded or used.
    Database(EgdbError),
    /// The transposition table does not fit in the memory available.
    TableTooLarge {
        /// The table asked for, in MiB.
        megabytes: usize,
        /// Bytes of memory available.
        available: u64,
        /// The largest table that fits, in MiB (a power of two).
        largest: usize,
    },
    /// The endgame database to build does not fit in the memory available.
    DatabaseTooLarge {
        /// Its seeds.
        seeds: usize,
        /// Bytes it needs.
        needed: u64,
        /// Bytes of memory available.
        available: u64,
        /// The most seeds of a database that fits.
        largest: usize,
    },
}

impl std::fmt::Display for SolverError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mib = |b: u64| b >> 20;
        match self {
            SolverError::Database(e) => write!(f, "{e}"),
            SolverError::TableTooLarge {
                megabytes,
                available,
                largest,
            } => write!(
                f,
                "a transposition table of {megabytes} MiB does not fit in the {} MiB of memory \
                 available: {largest} MiB at most",
                mib(*available)
            ),
            SolverError::DatabaseTooLarge {
                seeds,
                needed,
                available,
                largest,
            } => write!(
                f,
                "an endgame database of {seeds} seeds needs {} MiB of memory but {} MiB is \
                 available: {largest} seeds at most",
                mib(*needed),
                mib(*available)
            ),
        }
    }
}

impl std::error::Error for SolverError {}

impl From<EgdbError> for SolverError {
    fn from(e: EgdbError) -> Self {
        SolverError::Database(e)
    }
}

/// Which stage a solve is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Depth-limited search to this many sowings, to guess the value and order moves.
    Deepening(u8),
    /// Null-window searches to the end of the game.
    Proving,
    /// Walking the principal variation.
    PrincipalVariation,
    /// Retrograde analysis of a game whose positions repeat ([`retro`]): finding the
    /// positions of the game graph (`None`), then solving the level of this many seeds in
    /// the houses.
    Retrograde(Option<u32>),
}

/// A report on a running solve, for progress displays.
#[derive(Clone, Copy, Debug)]
pub struct Progress {
    /// The stage.
    pub phase: Phase,
    /// Proved lower bound of the value, for the player to move at the root.
    pub lower: i32,
    /// Proved upper bound of the value, for the player to move at the root.
    pub upper: i32,
    /// Nodes searched so far by all threads.
    pub nodes: u64,
    /// Time since the solve started.
    pub elapsed: Duration,
}

impl Progress {
    /// Nodes per second so far.
    pub fn nodes_per_second(&self) -> f64 {
        self.nodes as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
}

/// One player's turn: the sowings they make in a row (all but the last gave an extra turn).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Turn {
    /// Who sows.
    pub side: Side,
    /// The houses sown, 0-based from that player's left.
    pub sowings: Vec<usize>,
}

impl Turn {
    /// The published notation: bins joined by `-`, e.g. `3-6`.
    pub fn notation(&self, houses: usize) -> String {
        kalah_core::notation::format_turn(houses, self.side, &self.sowings)
    }
}

/// Adds `side`'s sowing `m` to the line `pv`: to its last turn where the same player is
/// still to move (the last sowing gave an extra turn), else as a new turn.
pub(crate) fn push_sowing(pv: &mut Vec<Turn>, side: Side, m: usize) {
    match pv.last_mut() {
        Some(t) if t.side == side => t.sowings.push(m),
        _ => pv.push(Turn {
            side,
            sowings: vec![m],
        }),
    }
}

/// The exact result of a solve.
#[derive(Clone, Debug)]
pub struct Solution {
    /// The player to move in the solved position.
    pub side: Side,
    /// The value: final store margin under perfect play for the player to move.
    pub value: i32,
    /// A principal variation to the end of the game, as turns.
    pub pv: Vec<Turn>,
    /// Nodes searched by all threads.
    pub nodes: u64,
    /// Wall time.
    pub elapsed: Duration,
    /// Per mille of the transposition table in use at the end.
    pub table_permille: u32,
    /// Positions valued by the endgame database (by all threads).
    pub egdb_hits: u64,
}

impl Solution {
    /// The value from South: final South store minus North store.
    pub fn value_from_south(&self) -> i32 {
        self.side.sign() * self.value
    }

    /// The first turn of the principal variation (empty when the game is over).
    pub fn best_turn(&self) -> Option<&Turn> {
        self.pv.first()
    }

    /// Nodes per second.
    pub fn nodes_per_second(&self) -> f64 {
        self.nodes as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }

    /// Checks this solution of `pos`: its principal variation replays with the checked
    /// move generator, each turn ends exactly where its extra turns end, and the game ends
    /// with exactly the value claimed. Every value the engine reports passes this check.
    pub fn verify(&self, game: &Game, pos: &Position) -> Result<(), line::ReplayError> {
        line::replay(game, pos, &self.pv, self.value_from_south()).map(|_| ())
    }
}

/// What a solve in a window ([`Solver::solve_window`]) proved when the value lies outside
/// the window: bounds of the value for the player to move, at least one of them beyond
/// the window (`upper <= alpha` or `lower >= beta`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bound {
    /// The player to move in the position solved.
    pub side: Side,
    /// The value is at least this, for the player to move.
    pub lower: i32,
    /// The value is at most this, for the player to move.
    pub upper: i32,
    /// Nodes searched by all threads.
    pub nodes: u64,
    /// Wall time.
    pub elapsed: Duration,
}

impl Bound {
    /// The bounds from South, lower first.
    pub fn from_south(&self) -> (i32, i32) {
        match self.side {
            Side::South => (self.lower, self.upper),
            Side::North => (-self.upper, -self.lower),
        }
    }
}

/// An exact solver for one game (rules and board), owning its transposition table.
///
/// The table is kept between solves, so solving related positions one after the other
/// (the openings, a batch) reuses what earlier solves proved.
pub struct Solver {
    game: Game,
    table: Table,
    config: Config,
    egdb: Option<std::sync::Arc<Egdb>>,
    /// Under the early stop, the database that reads the stores (built in memory) for
    /// the start position's parity of the total of seeds.
    stopdb: Option<StopDb>,
    /// The same for the other parity, built when a position of that parity is first
    /// solved (only positions entered by hand have it).
    stopdb_odd: std::sync::OnceLock<Option<StopDb>>,
    busy: smp::Busy,
    /// What was done with the database cache, if the database came from it.
    cache: Option<CacheReport>,
    /// Files of a database directory passed over because they could not be loaded.
    skipped: Vec<(std::path::PathBuf, EgdbError)>,
    /// The retrograde solver, for the families whose positions repeat (no search, table
    /// or database then).
    retro: Option<retro::Retro>,
}

impl Solver {
    /// A solver for `game`, allocating the table once and building or loading the
    /// endgame database of [`Config::database`] (built in memory in parallel; a file is
    /// verified and checked against the game's rules and board).
    ///
    /// An error where a database file or directory cannot be used, or where the table or
    /// a database to build does not fit in the memory available (never an abort). Under
    /// the early stop, a database too large for the memory is left out.
    pub fn new(game: Game, config: Config) -> Result<Solver, SolverError> {
        if game.rules().family.is_cyclic() {
            // The whole game graph is solved: at most what a share of the memory holds.
            let memory = os::available_memory().unwrap_or(8 << 30);
            let retro = retro::Retro::new(&game, memory / 10 * 9);
            return Ok(Solver {
                table: Solver::allocate_table(&game, 1)?,
                game,
                config,
                egdb: None,
                stopdb: None,
                stopdb_odd: std::sync::OnceLock::new(),
                busy: smp::Busy::new(),
                cache: None,
                skipped: Vec::new(),
                retro: Some(retro),
            });
        }
        let table = Solver::allocate_table(&game, config.hash_mb)?;
        let opened = config.database.open(&game, config.residence).map_err(|e| {
            match (e, &config.database.for_solver(&game)) {
                (EgdbError::NotEnoughMemory { needed, available }, Ok(Database::Build(k))) => {
                    SolverError::DatabaseTooLarge {
                        seeds: *k,
                        needed,
                        available,
                        largest: (0..*k)
                            .rev()
                            .find(|&j| {
                                let entries = match game.rules().early_stop {
                                    true => StopDb::entries(game.houses(), j),
                                    false => Egdb::entries(game.houses(), j),
                                };
                                entries <= available as u128
                            })
                            .unwrap_or(0),
                    }
                }
                (e, _) => SolverError::Database(e),
            }
        })?;
        Ok(Solver {
            game,
            table,
            config,
            egdb: opened.egdb.map(std::sync::Arc::new),
            stopdb: opened.stopdb,
            stopdb_odd: std::sync::OnceLock::new(),
            busy: smp::Busy::new(),
            cache: opened.cache,
            skipped: opened.skipped,
            retro: None,
        })
    }

    /// The table of `megabytes` MiB for `game`, sized against the memory available first.
    fn allocate_table(game: &Game, megabytes: usize) -> Result<Table, SolverError> {
        let available = os::available_memory();
        let too_large = |available: u64| SolverError::TableTooLarge {
            megabytes,
            available,
            largest: ((available >> 20) as usize)
                .checked_next_power_of_two()
                .map_or(1, |p| (p / 2).max(1)),
        };
        match available {
            Some(bytes) if Table::bytes_for(megabytes) as u64 > bytes => Err(too_large(bytes)),
            _ => Table::try_for_game(megabytes, game)
                .ok_or_else(|| too_large(available.unwrap_or(0))),
        }
    }

    /// Searches `depth` sowings of iterative deepening before each proof (see
    /// [`Config::deepening`]).
    pub fn with_deepening(mut self, depth: u8) -> Solver {
        self.config.deepening = depth;
        self
    }

    /// Uses `egdb` (built or loaded elsewhere for the same rules) for the positions it holds.
    pub fn with_egdb(mut self, egdb: std::sync::Arc<Egdb>) -> Solver {
        if egdb.rules() == self.game.rules() {
            self.egdb = Some(egdb);
        }
        self
    }

    /// What the solver did with the database cache, where its database came from it
    /// ([`Database::Cached`]).
    pub fn cache_report(&self) -> Option<&CacheReport> {
        self.cache.as_ref()
    }

    /// The files of a database directory passed over because they could not be loaded
    /// (damaged, say), and why: the solver loaded the next best.
    pub fn skipped_files(&self) -> &[(std::path::PathBuf, EgdbError)] {
        &self.skipped
    }

    /// The endgame database in use, if any.
    pub fn egdb(&self) -> Option<&Egdb> {
        self.egdb.as_deref()
    }

    /// The early-stop endgame database in use, if any.
    pub fn stopdb(&self) -> Option<&StopDb> {
        self.stopdb.as_ref()
    }

    /// The most seeds in the houses of the positions an endgame database answers (the
    /// plain one, or the early stop's), if there is one.
    pub fn database_seeds(&self) -> Option<usize> {
        self.egdb
            .as_deref()
            .map(|d| d.max_seeds())
            .or(self.stopdb.as_ref().map(|d| d.max_seeds()))
    }

    /// [`Solver::database_seeds`] for the game of `pos` (under the early stop, the
    /// database for its parity of the total of seeds, built on first use).
    pub fn database_seeds_for(&self, pos: &Position) -> Option<usize> {
        self.egdb
            .as_deref()
            .map(|d| d.max_seeds())
            .or(self.stopdb_for(pos).map(|d| d.max_seeds()))
    }

    /// The early-stop database that serves the game of `pos`: the one built with the
    /// solver where `pos` has the start position's parity of the total of seeds, else one
    /// of the same size for the other parity, built on first use.
    pub(crate) fn stopdb_for(&self, pos: &Position) -> Option<&StopDb> {
        let db = self.stopdb.as_ref()?;
        if db.serves_total(pos.total_seeds()) {
            return Some(db);
        }
        self.stopdb_odd
            .get_or_init(|| StopDb::build(&self.game, db.max_seeds(), pos.total_seeds()))
            .as_ref()
    }

    /// What the threads of a search of `pos` read, with the database that serves it
    /// (resolved here, before any thread starts).
    fn context(&self, pos: &Position) -> smp::Context<'_> {
        smp::Context {
            game: &self.game,
            table: &self.table,
            db: Lookup::choose(&self.game, self.egdb.as_deref(), self.stopdb_for(pos)),
            config: &self.config,
            busy: &self.busy,
        }
    }

    /// The retrograde solver, for the families whose positions repeat.
    pub fn retro(&self) -> Option<&retro::Retro> {
        self.retro.as_ref()
    }

    /// A solve by retrograde analysis ([`retro`]), as a [`Solution`].
    fn solve_retro(
        &self,
        retro: &retro::Retro,
        pos: &Position,
        cancel: &AtomicBool,
        progress: &mut dyn FnMut(&Progress),
    ) -> Result<Solution, Cancelled> {
        let (margin, left) = (pos.store_margin(), pos.seeds_in_houses() as i32);
        let s = retro.solve(&self.game, pos, cancel, &mut |p| {
            progress(&Progress {
                phase: Phase::Retrograde(p.level),
                lower: margin - left,
                upper: margin + left,
                nodes: p.positions,
                elapsed: p.elapsed,
            })
        })?;
        Ok(Solution {
            side: pos.side_to_move(),
            value: s.value,
            pv: s.pv,
            nodes: s.positions,
            elapsed: s.elapsed,
            table_permille: 0,
            egdb_hits: 0,
        })
    }

    /// The game solved.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The configuration.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// The transposition table.
    pub fn table(&self) -> &Table {
        &self.table
    }

    /// The exact value of `pos` for the player to move, with a principal variation.
    ///
    /// `cancel` stops the search from another thread (the result is then `Err`);
    /// `progress` is called from the calling thread several times a second.
    pub fn solve(
        &self,
        pos: &Position,
        cancel: &AtomicBool,
        progress: &mut dyn FnMut(&Progress),
    ) -> Result<Solution, Cancelled> {
        if let Some(retro) = &self.retro {
            return self.solve_retro(retro, pos, cancel, progress);
        }
        let solved = self.search_window(pos, -INF, INF, cancel, progress)?;
        Ok(solved.expect("the full window holds every value"))
    }

    /// The exact value of `pos` for the player to move, without a principal variation.
    pub fn value(&self, pos: &Position, cancel: &AtomicBool) -> Result<i32, Cancelled> {
        if let Some(retro) = &self.retro {
            return Ok(self.solve_retro(retro, pos, cancel, &mut |_| {})?.value);
        }
        let shared = Shared::new(cancel);
        let ctx = self.context(pos);
        self.prove(&ctx, pos, &shared, Instant::now(), &mut |_| {})
    }

    /// The value of `pos` for the player to move, proved only as far as the window
    /// `(alpha, beta)` needs: the exact value with a principal variation (as [`solve`]
    /// gives) when it lies strictly inside the window, else a [`Bound`] that says it is at
    /// most `alpha` or at least `beta`. A window of one value either side of a guess
    /// proves or refutes the guess; a null window (`beta = alpha + 1`) decides
    /// "at least `beta`" with a single proof search.
    ///
    /// The families whose positions repeat are solved whole ([`retro`]): the answer is
    /// then always exact, whatever the window.
    ///
    /// [`solve`]: Solver::solve
    pub fn solve_window(
        &self,
        pos: &Position,
        alpha: i32,
        beta: i32,
        cancel: &AtomicBool,
        progress: &mut dyn FnMut(&Progress),
    ) -> Result<Result<Solution, Bound>, Cancelled> {
        if self.retro.is_some() || alpha >= beta {
            return self.solve(pos, cancel, progress).map(Ok);
        }
        self.search_window(pos, alpha, beta, cancel, progress)
    }

    /// The search behind [`Solver::solve`] and [`Solver::solve_window`]: the proof in the
    /// window, then a principal variation where the value came out exact.
    fn search_window(
        &self,
        pos: &Position,
        alpha: i32,
        beta: i32,
        cancel: &AtomicBool,
        progress: &mut dyn FnMut(&Progress),
    ) -> Result<Result<Solution, Bound>, Cancelled> {
        let start = Instant::now();
        let shared = Shared::new(cancel);
        let ctx = self.context(pos);
        let (lower, upper) = self.prove_window(&ctx, pos, &shared, start, progress, alpha, beta)?;
        if lower < upper {
            return Ok(Err(Bound {
                side: pos.side_to_move(),
                lower,
                upper,
                nodes: shared.nodes.load(Relaxed),
                elapsed: start.elapsed(),
            }));
        }
        progress(&Progress {
            phase: Phase::PrincipalVariation,
            lower,
            upper,
            nodes: shared.nodes.load(Relaxed),
            elapsed: start.elapsed(),
        });
        shared.done.store(false, Relaxed);
        let pv = self.principal_variation(&ctx, pos, lower, &shared)?;
        Ok(Ok(Solution {
            side: pos.side_to_move(),
            value: lower,
            pv,
            nodes: shared.nodes.load(Relaxed),
            elapsed: start.elapsed(),
            table_permille: self.table.usage_permille(),
            egdb_hits: shared.egdb_hits.load(Relaxed),
        }))
    }

    /// Iterative deepening, then MTD(f) to the exact value.
    fn prove(
        &self,
        ctx: &smp::Context,
        pos: &Position,
        shared: &Shared,
        start: Instant,
        progress: &mut dyn FnMut(&Progress),
    ) -> Result<i32, Cancelled> {
        self.prove_window(ctx, pos, shared, start, progress, -INF, INF)
            .map(|(lower, _)| lower)
    }

    /// Iterative deepening, then MTD(f) until the bounds meet or lie outside the window
    /// `(alpha, beta)`: the bounds `(lower, upper)` of the value for the mover, equal when
    /// the value is inside the window (always, for the full window).
    #[allow(clippy::too_many_arguments)]
    fn prove_window(
        &self,
        ctx: &smp::Context,
        pos: &Position,
        shared: &Shared,
        start: Instant,
        progress: &mut dyn FnMut(&Progress),
        alpha: i32,
        beta: i32,
    ) -> Result<(i32, i32), Cancelled> {
        self.table.new_generation();
        let margin = pos.store_margin();
        let left = pos.seeds_in_houses() as i32;
        let (mut lower, mut upper) = (margin - left, margin + left);
        if pos.is_over() {
            return Ok((margin, margin));
        }
        let report = |phase, lower, upper| Progress {
            phase,
            lower,
            upper,
            nodes: shared.nodes.load(Relaxed),
            elapsed: start.elapsed(),
        };

        // Deepening: a guess for the value and good moves in the table.
        let mut guess = margin;
        let max_depth = self.config.deepening.min(left as u8);
        for depth in 1..=max_depth {
            let p = report(Phase::Deepening(depth), lower, upper);
            guess = smp::search(ctx, pos, -INF, INF, depth, shared, &mut |nodes| {
                progress(&Progress {
                    nodes,
                    elapsed: start.elapsed(),
                    ..p
                })
            })
            .ok_or(Cancelled)?;
        }

        // MTD(f): null-window searches around the guess until the bounds meet.
        let mut g = guess.clamp(lower, upper);
        while lower < upper && upper > alpha && lower < beta {
            // Only a test inside the window tells something the caller needs.
            let test = if g == lower { g + 1 } else { g };
            let beta = test.clamp(alpha.max(lower) + 1, beta.min(upper));
            let p = report(Phase::Proving, lower, upper);
            let near = (beta - guess).abs() <= search::DEEPENING_HINT_REACH;
            shared.deepening_hints.store(near, Relaxed);
            g = smp::search(
                ctx,
                pos,
                beta - 1,
                beta,
                EXACT_DEPTH,
                shared,
                &mut |nodes| {
                    progress(&Progress {
                        nodes,
                        elapsed: start.elapsed(),
                        ..p
                    })
                },
            )
            .ok_or(Cancelled)?;
            if g < beta {
                upper = g;
            } else {
                lower = g;
            }
        }
        progress(&report(Phase::Proving, lower, upper));
        Ok((lower, upper))
    }

    /// Follows moves that keep the proved value to the end of the game.
    fn principal_variation(
        &self,
        ctx: &smp::Context,
        pos: &Position,
        value: i32,
        shared: &Shared,
    ) -> Result<Vec<Turn>, Cancelled> {
        let mut worker = ctx.worker(shared);
        let mut pv: Vec<Turn> = Vec::new();
        let (mut pos, mut value) = (*pos, value);
        while !pos.is_over() {
            let hint = self.table.probe(self.game.key(&pos)).and_then(|e| e.best);
            let mut moves: Vec<usize> = pos.moves().collect();
            if let Some(h) = hint {
                moves.sort_by_key(|&j| j != h as usize);
            }
            let mut next = None;
            for j in moves {
                let child = self.game.play_unchecked(&pos, j);
                let same_mover = child.side_to_move() == pos.side_to_move();
                let target = search::across(same_mover, value);
                let v = worker.search(
                    &child,
                    self.game.key(&child),
                    target - 1,
                    target + 1,
                    EXACT_DEPTH,
                    1,
                );
                if worker.aborted {
                    worker.flush();
                    return Err(Cancelled);
                }
                if v == target {
                    next = Some((j, child, target));
                    break;
                }
            }
            // The value is exact, so some move keeps it; anything else is a solver bug.
            let (j, child, target) = next.expect("no move keeps the proved value");
            push_sowing(&mut pv, pos.side_to_move(), j);
            pos = child;
            value = target;
        }
        worker.flush();
        Ok(pv)
    }
}
