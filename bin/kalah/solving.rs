//! What every subcommand that runs the solver shares: the solver options, the progress
//! spinner, and the check that a principal variation replays to the value printed.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};
use kalah_core::{Game, Position};
use kalah_solver::egdb::{self, file, Egdb, EgdbError};
use kalah_solver::{Config, Phase, Progress, Solution, Solver};

use crate::error::CliError;

/// The environment variable naming a directory of endgame database files, searched when
/// neither `--egdb` nor `--egdb-seeds` is given.
pub const EGDB_PATH_VAR: &str = "KALAH_EGDB_PATH";

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
    /// same way, if set (nothing found there: the default in-memory database)
    #[arg(long, value_name = "FILE|DIR")]
    pub egdb: Option<PathBuf>,

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
    /// The solver configuration for solving positions of `game` with at most `seeds` seeds
    /// in the houses, `solves` of them sharing one solver (the default endgame database
    /// grows with the work it serves).
    pub fn config(&self, game: &Game, seeds: usize, solves: usize) -> Config {
        let default = Config::default();
        // A database file named or found (one that cannot be used is reported when it
        // is loaded) replaces the one built in memory.
        let file = self.egdb_file(game, seeds).ok().flatten();
        let egdb_seeds = match self.egdb_seeds {
            _ if self.egdb.is_some() || file.is_some() => None,
            Some(0) => None,
            Some(k) => Some(k),
            None => Config::default_egdb_seeds_for(game, seeds, solves),
        };
        // The database the solver will have: a file's header says it, else the one built
        // in memory.
        let egdb_held = match &file {
            Some(path) => kalah_solver::egdb::file::read_info(path)
                .ok()
                .map(|info| info.max_seeds),
            None => egdb_seeds,
        };
        Config {
            threads: self.threads.map_or(default.threads, |t| t as usize),
            hash_mb: self.hash_mb.map_or_else(
                || Config::default_hash_mb_with(game, seeds, egdb_held),
                |m| m as usize,
            ),
            egdb_seeds,
            table_min_seeds: Config::default_table_min_seeds(egdb_held),
            // The deepening is set by `deepen_for`, once the database is known.
            ..default
        }
    }

    /// A solver for positions of `game` with at most `seeds` seeds in the houses, with the
    /// endgame database file of `--egdb` (loaded, verified and checked against the game)
    /// or the in-memory one of `--egdb-seeds`.
    pub fn solver(&self, game: &Game, seeds: usize) -> Result<Solver, CliError> {
        let spinner = self.spinner();
        spinner.set_message("building the endgame database");
        let solver = Solver::new(game.clone(), self.config(game, seeds, 1));
        spinner.finish_and_clear();
        let solver = self.attach_egdb(solver, game, seeds)?;
        Ok(self.deepen_for(solver, game, seeds))
    }

    /// `solver` with the deepening of `--deepening`, or else the default for the database
    /// it ended up with (see [`Config::default_deepening_with`]).
    pub fn deepen_for(&self, solver: Solver, game: &Game, seeds: usize) -> Solver {
        let depth = self.deepening.unwrap_or_else(|| {
            Config::default_deepening_with(game, seeds, solver.database_seeds())
        });
        solver.with_deepening(depth)
    }

    /// `solver` with the endgame database file of `--egdb`, if given: loaded, verified and
    /// checked against the rules and board of `game` (it then replaces any in-memory one);
    /// mapped or copied into memory as suits positions with at most `seeds` seeds in the
    /// houses (see [`Config::default_residence`]).
    pub fn attach_egdb(
        &self,
        solver: Solver,
        game: &Game,
        seeds: usize,
    ) -> Result<Solver, CliError> {
        let Some(path) = self.egdb_file(game, seeds)? else {
            return Ok(solver);
        };
        let spinner = self.spinner();
        spinner.set_message(format!("loading the endgame database {}", path.display()));
        let db = Egdb::load_for(&path, game, seeds)?;
        spinner.finish_and_clear();
        Ok(solver.with_egdb(Arc::new(db)))
    }

    /// The database file to use for positions of `game` with at most `seeds` seeds in the
    /// houses: `--egdb` (a file, or the best file of a directory: refused when there is
    /// none), else, unless `--egdb-seeds` is given, the best file of the directory in
    /// `KALAH_EGDB_PATH` (none found, or a directory that cannot be read: no file).
    pub fn egdb_file(&self, game: &Game, seeds: usize) -> Result<Option<PathBuf>, CliError> {
        let best = |dir: &Path| file::find_in(dir, game, seeds);
        match &self.egdb {
            Some(dir) if dir.is_dir() => match best(dir)? {
                Some(path) => Ok(Some(path)),
                None => Err(EgdbError::NoneInDirectory {
                    dir: dir.display().to_string(),
                    wanted: egdb::describe(game.rules()),
                }
                .into()),
            },
            Some(path) => Ok(Some(path.clone())),
            None if self.egdb_seeds.is_some() => Ok(None),
            None => Ok(std::env::var_os(EGDB_PATH_VAR)
                .filter(|dir| !dir.is_empty())
                .and_then(|dir| best(Path::new(&dir)).ok().flatten())),
        }
    }

    /// A spinner on standard error, hidden when it is not a terminal or with `--quiet`.
    pub fn spinner(&self) -> ProgressBar {
        if self.quiet || !std::io::stderr().is_terminal() {
            return ProgressBar::hidden();
        }
        let bar = ProgressBar::new_spinner().with_style(
            ProgressStyle::with_template("{spinner} [{elapsed}] {msg}")
                .unwrap_or_else(|_| ProgressStyle::default_spinner()),
        );
        bar.enable_steady_tick(Duration::from_millis(120));
        bar
    }
}

/// A one-line description of a running solve, for the spinner.
pub fn progress_message(p: &Progress, side_sign: i32) -> String {
    let (lo, hi) = if side_sign > 0 {
        (p.lower, p.upper)
    } else {
        (-p.upper, -p.lower)
    };
    let phase = match p.phase {
        Phase::Deepening(d) => format!("deepening to {d} sowings"),
        Phase::Proving => "proving".to_string(),
        Phase::PrincipalVariation => "principal variation".to_string(),
    };
    format!(
        "{phase}: value for South in [{lo:+}, {hi:+}], {} nodes, {:.1} M nodes/s",
        p.nodes,
        p.nodes_per_second() / 1e6
    )
}

/// Replays the principal variation of `solution` from `pos` and checks that the game ends
/// with exactly the value claimed: every value printed is backed by a line of play.
pub fn verify(game: &Game, pos: &Position, solution: &Solution) -> Result<(), CliError> {
    let mut p = *pos;
    for turn in &solution.pv {
        for &j in &turn.sowings {
            if p.side_to_move() != turn.side {
                return Err(CliError::Internal(format!(
                    "principal variation does not replay: {} is not to move",
                    turn.side
                )));
            }
            p = game
                .try_play(&p, j)
                .map_err(|e| {
                    CliError::Internal(format!("principal variation does not replay: {e}"))
                })?
                .0;
        }
    }
    if !p.is_over() || p.score() != solution.value_from_south() {
        return Err(CliError::Internal(format!(
            "principal variation ends with score {} (game over: {}), not the value {}",
            p.score(),
            p.is_over(),
            solution.value_from_south()
        )));
    }
    Ok(())
}

/// The principal variation in the published notation.
pub fn pv_strings(game: &Game, solution: &Solution) -> Vec<String> {
    solution
        .pv
        .iter()
        .map(|t| t.notation(game.houses()))
        .collect()
}
