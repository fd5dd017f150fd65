//! The [`Solver`]: one game's solver, owning a search (its transposition table and
//! endgame databases) or, for the families whose positions repeat, a retrograde analysis,
//! and the public solves.

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use kalah_core::{Game, Position};

use crate::anytime::{Analyser, Analysis, Limits, MoveTimer};
use crate::config::Config;
use crate::db::database::{CacheReport, Databases};
use crate::db::egdb::{Egdb, EgdbError};
use crate::db::stopdb::StopDb;
use crate::driver;
use crate::error::{SolveError, SolverError};
use crate::outcome::{Bound, Phase, Progress, Solution};
use crate::score::seed_bounds;
use crate::search::{Busy, INF};
use crate::smp::{self, Context};
use crate::tt::Table;
use crate::{os, retro};

/// An exact solver for one game (rules and board): a search owning its
/// transposition table and endgame databases, or, for the families whose positions repeat,
/// a retrograde analysis owning the game graph solved so far; chosen once, when it is made.
///
/// The table (or the graph) is kept between solves, so solving related positions one
/// after the other (the openings, a batch) reuses what earlier solves proved.
pub struct Solver {
    game: Game,
    config: Config,
    method: Method,
    /// For a family whose positions repeat: the database file named by the configuration
    /// (`Database::File`), whose positions are answered from it ([`crate::db::cyclic_db::answer`])
    /// instead of by a solve of their graph.
    cyclic_db: Option<Arc<Egdb>>,
}

/// How a [`Solver`] finds values. One per solver, made once: the size of its variants
/// does not matter.
#[allow(clippy::large_enum_variant)]
enum Method {
    /// Null-window search over a transposition table ([`crate::driver`], [`crate::smp`]).
    Search(Searcher),
    /// Retrograde analysis of the whole game graph ([`crate::retro`]), for the families
    /// whose positions repeat: no search, table or database.
    Retro(retro::Retro),
}

/// What the search owns: the table, the databases and the busy map of its threads.
struct Searcher {
    table: Table,
    databases: Databases,
    busy: Busy,
    /// The threads that search beside the caller's, started once ([`smp::helper_threads`]).
    helpers: Option<rayon::ThreadPool>,
}

impl Searcher {
    /// What the threads of a search of `pos` read, with the database that serves it
    /// (resolved here, before any thread starts).
    fn context<'a>(&'a self, game: &'a Game, config: &'a Config, pos: &Position) -> Context<'a> {
        Context {
            game,
            table: &self.table,
            db: self.databases.lookup(game, pos),
            config,
            busy: &self.busy,
            helpers: self.helpers.as_ref(),
        }
    }
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
        Solver::new_cancellable(game, config, &AtomicBool::new(false))
    }

    /// [`Solver::new`] whose database build (in memory, and its keeping in the cache)
    /// stops soon after `cancel` is raised, with
    /// `SolverError::Database(EgdbError::Cancelled)`: nothing half-built is kept in
    /// memory, no temporary file is left in the cache, and the memory is freed; a build for
    /// the cache ([`crate::Database::Cached`]) keeps the seed levels it finished in the
    /// cache's partial file, where the next build of that database goes on from them. The flag is only
    /// watched while the solver is made; a solve takes its own.
    pub fn new_cancellable(
        game: Game,
        config: Config,
        cancel: &AtomicBool,
    ) -> Result<Solver, SolverError> {
        let mut cyclic_db = None;
        let method = if game.rules().family.is_cyclic() {
            if let crate::db::database::Database::File(path) = &config.database {
                let db =
                    Egdb::load_as(path, &game, config.residence).map_err(SolverError::Database)?;
                cyclic_db = Some(Arc::new(db));
            }
            // The whole game graph is solved: at most what a share of the memory holds,
            // its positions that a database file holds read from it as exits.
            let memory = os::available_memory().unwrap_or(8 << 30);
            let retro = retro::Retro::new(&game, memory / 10 * 9);
            Method::Retro(match &cyclic_db {
                Some(db) => retro.with_exits(Arc::clone(db)),
                None => retro,
            })
        } else {
            Method::Search(Searcher {
                table: Solver::allocate_table(&game, config.hash_mb)?,
                databases: Databases::open(&game, &config.database, config.residence, cancel)?,
                busy: Busy::new(),
                helpers: smp::helper_threads(config.threads),
            })
        };
        Ok(Solver {
            game,
            config,
            method,
            cyclic_db,
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

    /// Uses `egdb` (built or loaded elsewhere for the same rules) for the positions it
    /// holds (a search only: the retrograde analysis needs no database).
    pub fn with_egdb(mut self, egdb: Arc<Egdb>) -> Solver {
        if let (Method::Search(search), true) =
            (&mut self.method, egdb.rules() == self.game.rules())
        {
            search.databases.egdb = Some(egdb);
        }
        self
    }

    /// The search's databases, if the solver searches.
    fn databases(&self) -> Option<&Databases> {
        match &self.method {
            Method::Search(search) => Some(&search.databases),
            Method::Retro(_) => None,
        }
    }

    /// What the solver did with the database cache, where its database came from it
    /// ([`crate::Database::Cached`]).
    pub fn cache_report(&self) -> Option<&CacheReport> {
        self.databases()?.cache.as_ref()
    }

    /// The files of a database directory passed over because they could not be loaded
    /// (damaged, say), and why: the solver loaded the next best.
    pub fn skipped_files(&self) -> &[(PathBuf, EgdbError)] {
        self.databases().map_or(&[], |d| &d.skipped)
    }

    /// The endgame database in use, if any (for a family whose positions repeat, the
    /// database file its positions are answered from).
    pub fn egdb(&self) -> Option<&Egdb> {
        match self.databases() {
            Some(d) => d.egdb.as_deref(),
            None => self.cyclic_db.as_deref(),
        }
    }

    /// The early-stop endgame database in use, if any.
    pub fn stopdb(&self) -> Option<&StopDb> {
        self.databases()?.stopdb.as_ref()
    }

    /// The most seeds in the houses of the positions an endgame database answers (the
    /// plain one, or the early stop's), if there is one.
    pub fn database_seeds(&self) -> Option<usize> {
        self.databases()?.seeds()
    }

    /// [`Solver::database_seeds`] for the game of `pos` (under the early stop, the
    /// database for its parity of the total of seeds, built on first use).
    pub fn database_seeds_for(&self, pos: &Position) -> Option<usize> {
        self.databases()?.seeds_for(&self.game, pos)
    }

    /// The retrograde solver, for the families whose positions repeat.
    pub fn retro(&self) -> Option<&retro::Retro> {
        match &self.method {
            Method::Retro(retro) => Some(retro),
            Method::Search(_) => None,
        }
    }

    /// The game solved.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The configuration.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// Forgets what earlier searches stored in the transposition table ([`Table::clear`]):
    /// with one thread, a search after it finds the same value, line, bounds and depth
    /// for a position and limits (of depth or nodes, not time) whatever was searched
    /// before, as a fresh solver would, which runs of many positions that promise the
    /// same results when resumed need (`kalah book build`, `kalah batch`). Nothing to do
    /// for the retrograde analysis, whose results never depend on what came before.
    pub fn clear_table(&self) {
        if let Some(table) = self.table() {
            table.clear();
        }
    }

    /// The transposition table, if the solver searches (the retrograde analysis has none).
    pub fn table(&self) -> Option<&Table> {
        match &self.method {
            Method::Search(search) => Some(&search.table),
            Method::Retro(_) => None,
        }
    }

    /// Sets up the memory of the search now rather than inside the first search's time:
    /// every page of the transposition table mapped ([`Table::prefault`]). For a solver
    /// kept for timed analyses (the engine, the board); entries the table holds may be
    /// lost, as any may be.
    pub fn warm_up(&self) {
        if let Some(table) = self.table() {
            table.prefault();
        }
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
        self.run(pos, cancel, progress, Ok, |ctx, progress| {
            let solved = driver::solve_window(ctx, pos, -INF, INF, cancel, progress)?;
            Ok(solved.expect("the full window holds every value"))
        })
    }

    /// The exact value of `pos` for the player to move, without a principal variation.
    pub fn value(&self, pos: &Position, cancel: &AtomicBool) -> Result<i32, SolveError> {
        self.run(
            pos,
            cancel,
            &mut |_| {},
            |s| Ok(s.value),
            |ctx, _| driver::value(ctx, pos, cancel),
        )
    }

    /// The value of `pos` for the player to move, proved only as far as the window
    /// `(alpha, beta)` needs: the exact value with a principal variation (as [`solve`]
    /// gives) when it lies strictly inside the window, else a [`Bound`] that says it is at
    /// most `alpha` or at least `beta`. A window of one value either side of a guess
    /// proves or refutes the guess; a null window (`beta = alpha + 1`) decides
    /// "at least `beta`" with a single proof search. An empty window (`alpha >= beta`)
    /// asks for the exact value.
    ///
    /// The families whose positions repeat are solved whole ([`crate::retro`]): the answer
    /// is then always exact, whatever the window.
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
        let (alpha, beta) = if alpha < beta {
            (alpha, beta)
        } else {
            (-INF, INF)
        };
        self.run(
            pos,
            cancel,
            progress,
            |s| Ok(Ok(s)),
            |ctx, progress| driver::solve_window(ctx, pos, alpha, beta, cancel, progress),
        )
    }

    /// What can be known of `pos` within `limits`: the depth reached, a heuristic
    /// evaluation, the proven interval that holds the exact value, the best turn and its
    /// line, and every root turn's evaluation and proven interval, best first (see
    /// [`Analysis`]).
    ///
    /// Iterative deepening over every root turn (heuristic leaf: [`Config::evaluation`]),
    /// each depth followed by null-window tests of the exact search with as many nodes as
    /// that depth took, which narrow each turn's proven interval. `on_progress` is called
    /// from the calling thread with the analysis as it stands: once before any search
    /// (the evaluation of each turn's end position, and what the seeds can reach), after
    /// every completed depth and after every change of the proven interval.
    ///
    /// It stops at the first limit reached or when `cancel` is raised, and gives back
    /// what it knows then: never an error for a search, whatever the limits (a
    /// depth stopped before its end is dropped; a legal best turn is always there, unless
    /// the game is over). Without limits it runs until the value is exact, as
    /// [`Solver::solve`] does. Whenever the value is proved, the evaluation is that value
    /// and the line replays to it to the end of the game ([`crate::line::replay`]), the
    /// value being `solve`'s.
    ///
    /// The families whose positions repeat are analysed by a depth-limited search of
    /// their own that applies the cycle rule ([`crate::cyclic_search`]), exact where the
    /// retrograde solver finishes the position's graph within the limits.
    pub fn analyse(
        &self,
        pos: &Position,
        limits: &Limits,
        cancel: &AtomicBool,
        on_progress: &mut dyn FnMut(&Analysis),
    ) -> Result<Analysis, SolveError> {
        self.analyse_lines(pos, limits, usize::MAX, cancel, on_progress)
    }

    /// [`Solver::analyse`] with the full evaluation of only the `lines` best root turns (at
    /// least one) at each depth: every other turn is only shown to be no better than
    /// those, by a null-window search that costs far less, so the deepening reaches
    /// further. Such a turn's [`crate::RootTurn::eval`] is an upper bound of its
    /// evaluation (heuristic, as every evaluation); its proven interval is what it is.
    /// One line is what a player needs; `usize::MAX` is [`Solver::analyse`].
    pub fn analyse_lines(
        &self,
        pos: &Position,
        limits: &Limits,
        lines: usize,
        cancel: &AtomicBool,
        on_progress: &mut dyn FnMut(&Analysis),
    ) -> Result<Analysis, SolveError> {
        self.analyse_timed(pos, limits, lines, None, cancel, on_progress)
    }

    /// [`Solver::analyse_lines`] for a move on a clock: once `timer` has started (at once,
    /// or at a ponder hit), the time manager ends the deepening by its plan's soft limit,
    /// stretched where the best turn is unstable or its value drops, shrunk where it is
    /// stable, at once where it is forced or proven best (docs/engine.md); the hard limit
    /// is `limits.time` (or the caller's `cancel`). The families whose positions repeat
    /// take no timer: their analysis runs to `limits`.
    pub fn analyse_timed(
        &self,
        pos: &Position,
        limits: &Limits,
        lines: usize,
        timer: Option<&MoveTimer>,
        cancel: &AtomicBool,
        on_progress: &mut dyn FnMut(&Analysis),
    ) -> Result<Analysis, SolveError> {
        match &self.method {
            Method::Search(searcher) => {
                let ctx = searcher.context(&self.game, &self.config, pos);
                let analyser = Analyser::new(&ctx, pos, limits, cancel)
                    .lines(lines)
                    .on_clock(timer);
                Ok(analyser.run(limits, on_progress))
            }
            Method::Retro(_) => {
                let settings = crate::cyclic_search::CyclicSettings {
                    evaluation: self.config.evaluation,
                    ..Default::default()
                };
                crate::cyclic_search::analyse_cyclic_db(
                    &self.game,
                    &settings,
                    self.cyclic_db.as_deref(),
                    pos,
                    limits,
                    cancel,
                    on_progress,
                )
            }
        }
    }

    /// The one place that dispatches on the method: `search` with the context of a search
    /// of `pos`, or a retrograde solve of `pos` whose solution `retro` turns into the
    /// answer.
    fn run<T, S>(
        &self,
        pos: &Position,
        cancel: &AtomicBool,
        progress: &mut dyn FnMut(&Progress),
        retro: impl FnOnce(Solution) -> Result<T, SolveError>,
        search: S,
    ) -> Result<T, SolveError>
    where
        S: FnOnce(&Context, &mut dyn FnMut(&Progress)) -> Result<T, SolveError>,
    {
        match &self.method {
            Method::Search(searcher) => {
                let config = self.config.for_proof();
                search(&searcher.context(&self.game, &config, pos), progress)
            }
            Method::Retro(graph) => retro(self.solve_retro(graph, pos, cancel, progress)?),
        }
    }

    /// A solve by retrograde analysis ([`crate::retro`]), as a [`Solution`].
    fn solve_retro(
        &self,
        retro: &retro::Retro,
        pos: &Position,
        cancel: &AtomicBool,
        progress: &mut dyn FnMut(&Progress),
    ) -> Result<Solution, SolveError> {
        let started = std::time::Instant::now();
        let from_db = self
            .cyclic_db
            .as_deref()
            .and_then(|db| crate::db::cyclic_db::answer(&self.game, |p| db.probe(p), pos));
        if let Some((value, pv)) = from_db {
            return Ok(Solution {
                side: pos.side_to_move(),
                value,
                pv,
                nodes: 0,
                elapsed: started.elapsed(),
                table_permille: 0,
                egdb_hits: 1,
            });
        }
        let (lower, upper) = seed_bounds(pos);
        let s = retro.solve(&self.game, pos, cancel, &mut |p| {
            progress(&Progress {
                phase: Phase::Retrograde(p.level),
                lower,
                upper,
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
}
