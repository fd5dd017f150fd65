//! What every subcommand that runs the solver shares: the solver options, the progress
//! spinner, and the check that a principal variation replays to the value printed.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use indicatif::ProgressBar;
use kalah_core::Game;
use kalah_solver::{Config, Limits, OverrideError, Overrides, Solver};

use crate::analysis_io::{installed_interrupt_flag, interrupted, on_terminal};
use crate::error::CliError;

use kalah_analysis::run::progress;

/// Options of the exact solver.
#[derive(clap::Args, Debug, Clone)]
#[command(next_help_heading = "Solver")]
pub struct SolverArgs {
    /// Search threads [default: all cores]
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub threads: Option<u32>,

    /// Transposition table size in MiB, rounded down to a power of two (allocated once;
    /// larger helps long solves) [default: 512 from 60 seeds up, else 128; a quarter of that
    /// where the endgame database holds at least half the seeds in the houses]
    #[arg(long, value_name = "MB", value_parser = clap::value_parser!(u64).range(1..=1_048_576))]
    pub hash_mb: Option<u64>,

    /// Build an in-memory endgame database of every position with at most K seeds in the
    /// houses before searching [default: chosen from the seeds in the houses, the number of
    /// solves and the capture rule (on 6 houses: 16 seeds for one solve of Kalah(6,4) with
    /// empty capture, 17 with standard; 25 from 60 seeds up); 0 = none]
    #[arg(long, value_name = "K")]
    pub egdb_seeds: Option<usize>,

    /// Consult this endgame database file (see `kalah egdb build`) for every position
    /// whose seeds in the houses fit; it must match the rules and board. A directory: the
    /// best of its files for the rules and board (the smallest that holds every seed of
    /// the position, else the largest). Takes precedence over --egdb-seeds. Without
    /// either, the directory in the environment variable KALAH_EGDB_PATH is searched the
    /// same way, if set; nothing found there: the database cache (see --no-cache), else the
    /// default in-memory database (Oware and Ethiopian: a file the cache holds, never one
    /// built: see `kalah egdb cache grow`)
    #[arg(long, value_name = "FILE|DIR")]
    pub egdb: Option<PathBuf>,

    /// Neither read nor grow the endgame database cache (by default the database the work
    /// needs is loaded from the cache directory, $KALAH_CACHE or ~/.cache/kalah, or built
    /// and kept there for later runs; KALAH_CACHE=off turns it off for good)
    #[arg(long)]
    pub no_cache: bool,

    /// Sowings searched by the iterative deepening (heuristic leaf: the store margin)
    /// before the exact proof, to guess the value and fill the table with good moves
    /// [default: none where the endgame database holds at least half the seeds in the
    /// houses, else 16 from 48 seeds up and 12 below]
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u8).range(0..=64))]
    pub deepening: Option<u8>,

    /// No progress display on standard error
    #[arg(long, short)]
    pub quiet: bool,

    /// Set by [`SolverArgs::for_analysis`]: read only a database file already there, of
    /// at most this many bytes, and build none.
    #[arg(skip)]
    pub existing_only: Option<u64>,
}

impl SolverArgs {
    /// The settings the flags give over the library's choice.
    pub fn overrides(&self) -> Overrides {
        Overrides {
            threads: self.threads.map(|t| t as usize),
            hash_mb: self.hash_mb,
            deepening: self.deepening,
            egdb: self.egdb.clone(),
            egdb_seeds: self.egdb_seeds,
            no_cache: self.no_cache,
            existing_only: self.existing_only,
        }
    }

    /// The solver configuration for solving positions of `game` with at most `seeds` seeds
    /// in the houses, `solves` of them sharing one solver: the library's choice for that
    /// work with the values the flags set ([`Overrides::config`]).
    pub fn config(&self, game: &Game, seeds: usize, solves: usize) -> Result<Config, CliError> {
        self.overrides()
            .config(game, seeds, solves)
            .map_err(override_error)
    }

    /// A solver for positions of `game` with at most `seeds` seeds in the houses (one
    /// solve, every thread on it).
    pub fn solver(&self, game: &Game, seeds: usize) -> Result<Solver, CliError> {
        self.make_solver(self.config(game, seeds, 1)?, game)
    }

    /// The database files these options read (`--egdb FILE`, else `KALAH_EGDB_PATH`): an
    /// output of the same command may never replace one.
    pub fn inputs(&self) -> Vec<PathBuf> {
        self.overrides().inputs()
    }

    /// These options for an analysis within limits (`analyse`, `--time`, the engine, the
    /// time a move or answer may take, if any): no endgame database is built unless one is
    /// asked for (`--egdb`, `--egdb-seeds`), since a build can take longer than the
    /// analysis; a file already there (in `KALAH_EGDB_PATH`, else the cache) is read,
    /// mapped, where one serves the rules and board and is small enough to load in a
    /// fraction of the time ([`kalah_solver::Limits::file_bytes_cap`]).
    pub fn for_analysis(&self, time: Option<Duration>) -> SolverArgs {
        let mut args = self.clone();
        args.existing_only = self.overrides().for_analysis(time).existing_only;
        args
    }

    /// A solver with `config`, with a spinner while its database is built or loaded, and a
    /// word on standard error (unless `--quiet`) when the database cache is filled.
    pub fn make_solver(&self, config: Config, game: &Game) -> Result<Solver, CliError> {
        self.try_make_solver(config, game)?
            .map_err(|stopped| interrupted(&stopped.kept))
    }

    /// [`SolverArgs::make_solver`] that returns the stop of its database build by Ctrl-C
    /// (or a signal) apart, saying what of the build was kept, so that a command can still
    /// say what it knows without the database (`kalah solve`).
    pub fn try_make_solver(
        &self,
        config: Config,
        game: &Game,
    ) -> Result<Result<Solver, BuildStopped>, CliError> {
        let spinner = self.spinner();
        // A command that watches Ctrl-C stops its database build on it too.
        let made = progress::make_solver(
            game,
            config,
            installed_interrupt_flag(),
            self.existing_only.is_some(),
            &mut |message| spinner.set_message(message),
            &mut |notice| self.say(&notice),
        )?;
        spinner.finish_and_clear();
        Ok(match made {
            Ok((solver, notes)) => {
                for note in notes {
                    self.say(&note);
                }
                Ok(solver)
            }
            Err(kept) => Err(BuildStopped { kept }),
        })
    }

    /// A line on standard error, unless `--quiet`.
    fn say(&self, line: &str) {
        if !self.quiet {
            eprintln!("{line}");
        }
    }

    /// A spinner on standard error, hidden when it is not a terminal or with `--quiet`.
    pub fn spinner(&self) -> ProgressBar {
        spinner(self.quiet)
    }
}

/// A solver with one search thread per solve, and the number of solves to run at once
/// (`--threads`, default all cores): many independent solves keep every core busy with
/// less overhead than Lazy SMP inside each, and they all share the one table (and the
/// endgame database, sized for `solves` solves of positions with at most `seeds` seeds in
/// the houses).
pub fn parallel_solver(
    args: &SolverArgs,
    game: &Game,
    seeds: usize,
    solves: usize,
) -> Result<(Solver, usize), CliError> {
    let (config, workers) = args.config(game, seeds, solves)?.one_thread_a_solve();
    Ok((args.make_solver(config, game)?, workers))
}

/// A spinner on standard error, hidden when it is not a terminal or `quiet`.
fn spinner(quiet: bool) -> ProgressBar {
    on_terminal(
        quiet,
        ProgressBar::new_spinner,
        "{spinner} [{elapsed}] {msg}",
        120,
    )
}

/// A database build stopped by Ctrl-C or a signal ([`SolverArgs::try_make_solver`]).
#[derive(Debug)]
pub struct BuildStopped {
    /// What of the build was kept, in words: a build for the database cache keeps its
    /// finished seed levels in the cache, where the next run goes on from them.
    pub kept: String,
}

/// A solver for an analysis to `limits`: the solve's, but with no endgame database built
/// unless one is asked for, since building one can take longer than the analysis (a file
/// already there is read: [`SolverArgs::for_analysis`]), and, under a time limit and
/// without `--hash-mb`, a table of at most [`Limits::table_mb_cap`]
/// ([`Overrides::analysis_config`]).
pub fn analysis_solver(
    args: &SolverArgs,
    game: &Game,
    seeds: usize,
    limits: &Limits,
) -> Result<Solver, CliError> {
    let config = args
        .overrides()
        .analysis_config(game, seeds, limits)
        .map_err(override_error)?;
    args.for_analysis(limits.time).make_solver(config, game)
}

/// Why the flags give no solver configuration, for the user.
pub fn override_error(e: OverrideError) -> CliError {
    match e {
        e @ OverrideError::Retrograde { .. } => CliError::Input(e.to_string()),
        OverrideError::Environment(e) => e.into(),
        OverrideError::Egdb(e) => e.into(),
    }
}

/// The memory a Bao game graph may take (`--memory-mb`), for the commands that solve one.
#[derive(clap::Args, Debug, Clone)]
pub struct GraphArgs {
    /// The most memory Bao's game graph may take, in MiB
    #[arg(long, value_name = "MIB", default_value_t = 4096, help_heading = crate::args::BAO_HEADING,
          value_parser = clap::value_parser!(u64).range(1..=1 << 20))]
    pub memory_mb: u64,
}

/// Solves the game graph of the Bao position `pos` within the memory of `graph`
/// ([`kalah_analysis::front::bao_solve_within`]), showing progress unless `quiet`.
pub(crate) fn solved_within(
    graph: &GraphArgs,
    quiet: bool,
    pos: &kalah_core::bao::BaoPosition,
) -> Result<(kalah_solver::bao::BaoSolved, Duration), CliError> {
    use kalah_solver::bao::{BaoSolveError, GraphStop};
    let memory_mb = graph.memory_mb;
    let spinner = spinner(quiet);
    let timer = Instant::now();
    let result = kalah_analysis::front::bao_solve_within(
        pos,
        memory_mb,
        crate::analysis_io::interrupt_flag(),
        &mut |p| spinner.set_message(progress::bao_graph_message(p)),
    );
    spinner.finish_and_clear();
    match result {
        Ok(s) => Ok((s, timer.elapsed())),
        Err(BaoSolveError::Stopped(GraphStop::Cancelled)) => {
            Err(interrupted(kalah_analysis::front::BAO_SOLVE_INTERRUPTED))
        }
        Err(e) => Err(graph_error(e, memory_mb)),
    }
}

/// The command-line error of a Bao game graph not solved within `memory_mb` (or for
/// another reason than an interrupt).
pub(crate) fn graph_error(e: kalah_solver::bao::BaoSolveError, memory_mb: u64) -> CliError {
    CliError::Input(kalah_analysis::front::bao_graph_words(&e, memory_mb))
}
