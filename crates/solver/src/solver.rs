//! The [`Solver`]: one game's solver, owning its transposition table and endgame
//! databases (or, for the families whose positions repeat, its retrograde solver), and the
//! public solves.

use std::sync::atomic::AtomicBool;

use kalah_core::{Game, Position};

use crate::config::Config;
use crate::database::{CacheReport, Database};
use crate::driver;
use crate::egdb::{Egdb, EgdbError};
use crate::error::{SolveError, SolverError};
use crate::lookup::Lookup;
use crate::outcome::{Bound, Phase, Progress, Solution};
use crate::search::{Busy, INF};
use crate::smp;
use crate::stopdb::StopDb;
use crate::tt::Table;
use crate::{os, retro};

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
    busy: Busy,
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
                busy: Busy::new(),
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
            busy: Busy::new(),
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

    /// A solve by retrograde analysis ([`crate::retro`]), as a [`Solution`].
    fn solve_retro(
        &self,
        retro: &retro::Retro,
        pos: &Position,
        cancel: &AtomicBool,
        progress: &mut dyn FnMut(&Progress),
    ) -> Result<Solution, SolveError> {
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
    ) -> Result<Solution, SolveError> {
        if let Some(retro) = &self.retro {
            return self.solve_retro(retro, pos, cancel, progress);
        }
        let solved = driver::solve_window(&self.context(pos), pos, -INF, INF, cancel, progress)?;
        Ok(solved.expect("the full window holds every value"))
    }

    /// The exact value of `pos` for the player to move, without a principal variation.
    pub fn value(&self, pos: &Position, cancel: &AtomicBool) -> Result<i32, SolveError> {
        if let Some(retro) = &self.retro {
            return Ok(self.solve_retro(retro, pos, cancel, &mut |_| {})?.value);
        }
        driver::value(&self.context(pos), pos, cancel)
    }

    /// The value of `pos` for the player to move, proved only as far as the window
    /// `(alpha, beta)` needs: the exact value with a principal variation (as [`solve`]
    /// gives) when it lies strictly inside the window, else a [`Bound`] that says it is at
    /// most `alpha` or at least `beta`. A window of one value either side of a guess
    /// proves or refutes the guess; a null window (`beta = alpha + 1`) decides
    /// "at least `beta`" with a single proof search.
    ///
    /// The families whose positions repeat are solved whole ([`crate::retro`]): the answer is
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
    ) -> Result<Result<Solution, Bound>, SolveError> {
        if self.retro.is_some() || alpha >= beta {
            return self.solve(pos, cancel, progress).map(Ok);
        }
        driver::solve_window(&self.context(pos), pos, alpha, beta, cancel, progress)
    }
}
