//! What every subcommand that runs the solver shares: the solver's flags, filled into the
//! one options value the library builds its solvers from
//! ([`kalah_analysis::run::solving::SolverOptions`]), and the spinner that shows their set-up.

use std::cell::RefCell;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

use indicatif::ProgressBar;
use kalah_analysis::game::bao_solve::{bao_graph_words, BAO_SOLVE_INTERRUPTED};
use kalah_analysis::run::solving::{SetupShown, SolverOptions, Solving, SolvingError};
use kalah_solver::bao::{BaoSolveError, GraphStop};
use kalah_solver::{OverrideError, Overrides};

use crate::analysis_io::{installed_interrupt_flag, interrupted, on_terminal};
use crate::error::CliError;

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
}

impl SolverArgs {
    /// The options value the library builds every solver of the command from.
    pub fn options(&self) -> SolverOptions {
        SolverOptions {
            overrides: Overrides {
                threads: self.threads.map(|t| t as usize),
                hash_mb: self.hash_mb,
                deepening: self.deepening,
                egdb: self.egdb.clone(),
                egdb_seeds: self.egdb_seeds,
                no_cache: self.no_cache,
                existing_only: None,
            },
            quiet: self.quiet,
        }
    }

    /// What makes the command's solvers: these options, their set-up shown on `shown`, a
    /// database build stopped by Ctrl-C where the command watches it.
    pub fn solving<'a>(&self, shown: &'a SetupSpinner) -> Solving<'a> {
        Solving {
            options: self.options(),
            shown,
            cancel: installed_interrupt_flag().map(|f| f as &AtomicBool),
        }
    }

    /// The database files these options read (`--egdb FILE`, else `KALAH_EGDB_PATH`): an
    /// output of the same command may never replace one.
    pub fn inputs(&self) -> Vec<PathBuf> {
        self.options().overrides.inputs()
    }

    /// A spinner on standard error, hidden when it is not a terminal or with `--quiet`.
    pub fn spinner(&self) -> ProgressBar {
        spinner(self.quiet)
    }
}

/// The set-up of a solver on standard error: a spinner while its database is loaded or
/// built (hidden with `--quiet` or off a terminal), then its notes.
#[derive(Default)]
pub struct SetupSpinner {
    quiet: bool,
    bar: RefCell<Option<ProgressBar>>,
}

impl SetupSpinner {
    /// The set-up shown for the command of `args`.
    pub fn of(args: &SolverArgs) -> SetupSpinner {
        SetupSpinner {
            quiet: args.quiet,
            bar: RefCell::new(None),
        }
    }
}

impl SetupShown for SetupSpinner {
    fn start(&self) {
        *self.bar.borrow_mut() = Some(spinner(self.quiet));
    }

    fn message(&self, message: String) {
        if let Some(bar) = &*self.bar.borrow() {
            bar.set_message(message);
        }
    }

    fn clear(&self) {
        if let Some(bar) = self.bar.borrow_mut().take() {
            bar.finish_and_clear();
        }
    }

    fn say(&self, line: &str) {
        eprintln!("{line}");
    }
}

/// A spinner on standard error, hidden when it is not a terminal or `quiet`.
pub(crate) fn spinner(quiet: bool) -> ProgressBar {
    on_terminal(
        quiet,
        ProgressBar::new_spinner,
        "{spinner} [{elapsed}] {msg}",
        120,
    )
}

/// Why no solver was made, for the user: a build stopped by Ctrl-C says what it kept.
impl From<SolvingError> for CliError {
    fn from(e: SolvingError) -> CliError {
        match e {
            SolvingError::Options(e) => override_error(e),
            SolvingError::Solver(e) => e.into(),
            SolvingError::Stopped { kept } => interrupted(&kept),
        }
    }
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

/// The command-line error of a Bao game graph not solved within `memory_mb`: interrupted
/// (nothing of it is kept), or larger than its memory.
pub(crate) fn graph_error(e: BaoSolveError, memory_mb: u64) -> CliError {
    match e {
        BaoSolveError::Stopped(GraphStop::Cancelled) => interrupted(BAO_SOLVE_INTERRUPTED),
        e => CliError::Input(bao_graph_words(&e, memory_mb)),
    }
}
