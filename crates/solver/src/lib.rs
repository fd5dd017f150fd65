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
//! database, deepening) by the policy the `kalah` command line uses ([`Config::for_seeds`]
//! with the database of its flags); [`Solution::verify`] replays the principal variation
//! to the value. The endgame database comes from where [`Database`] says; the library
//! never reads the environment on its own: the command line's choice,
//! [`Database::from_env`], is a file of `KALAH_EGDB_PATH`, else the user's database cache
//! ([`cache::Cache::from_env`]), else one built in memory and kept there. Files are read
//! and written by [`egdb`]; [`tt`] is the transposition table. The databases and their
//! files, the cache and the level-by-level build live in the `db` folder; [`egdb`],
//! [`stopdb`], [`cyclic_db`] and [`cache`] are re-exported here under their own names.
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

pub mod anytime;
pub mod bao;
pub mod bao_search;
pub mod bench;
mod config;
pub mod cyclic_search;
mod db;
mod driver;
mod env;
mod error;
pub mod eval;
pub mod line;
mod os;
mod outcome;
mod overrides;
mod pages;
pub mod retro;
mod score;
mod search;
mod smp;
mod solver;
pub mod tt;

pub use anytime::{
    Analysis, Interval, Limits, Move, MoveTimer, Outcome, Proven, ReportKind, RootTurn, ScoreBound,
    TimePlan,
};
pub use config::Config;
pub use db::database::{CacheReport, Database, EGDB_PATH_VAR};
pub use db::{cache, cyclic_db, egdb, stopdb};
pub use env::Environment;
pub use error::{SolveError, SolverError};
pub use eval::Evaluation;
pub use line::Turn;
pub use os::process_times;
pub use outcome::{Bound, Phase, Progress, Solution};
pub use overrides::{OverrideError, Overrides};
pub use score::seed_bounds;
pub use solver::Solver;
