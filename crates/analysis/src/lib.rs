//! Analysis on top of the exact solver, standing on one game floor ([`game`]: the board
//! of either kind of game, a sowing game or Bao, set up from the options every front end
//! reads, the options each command takes, perft, the first moves of a position, the pie
//! rule's decision and the bounds the seeds allow; it imports none of the tasks above it).
//! Above it, one folder per task, each with its logic, its command-level run and its own
//! output: every first turn of a position ([`openings()`], [`mod@openings`]; and the atlas
//! of boards, [`openings::atlas`]), the pie rule
//! ([`pie()`], [`mod@pie`]), one position solved, analysed or shown ([`mod@analyse`]), many
//! positions solved in input order ([`batch`]), the evaluation table near the start
//! ([`export`], resumable after an interruption), the opening book ([`book`]), split
//! solves ([`distributed`]), `kalah bench` ([`mod@bench`]), a game against the engine
//! ([`play`], with the greedy player), matches between players ([`mod@matches`]) and the
//! engine protocol with the session `kalah engine` runs ([`protocol`]); and what the tasks
//! share ([`run`]): the worker pool, progress in words, the kinds of output file, the
//! solvers built from one options value that a front end fills from its flags
//! ([`run::solving`], so that no front end makes a solver itself), a database file's
//! build and the partial file of a long run; and the formats shared between tasks and runs ([`wire`]).
//!
//! The solves run many exact solves at once on one shared [`Solver`](kalah_solver::Solver): a small
//! pool of workers (rayon) takes the positions in order and the solves share the
//! solver's transposition table, so what one proves helps the others. Give the solver
//! one search thread (`Config { threads: 1, .. }`) and the parallelism to these
//! functions (`workers`). Progress goes out through callbacks, which are called from the
//! worker threads. Nothing here prints to the terminal, but some tasks do their own I/O:
//! a command's run writes its report to the writer it is given, a batch reads its input
//! and writes its output ([`batch::BatchRun`]), an export writes its table, the atlas its
//! files, a protocol
//! session reads and writes the lines it is given, and a match starts the programs it
//! plays against ([`matches::protocol`]).
//!
//! Values are always **from South**: the final South store minus North store under
//! perfect play. Every principal variation returned has been replayed from its position
//! and checked to end with exactly the value returned.
//!
//! ```
//! use std::sync::atomic::AtomicBool;
//! use kalah_core::{Capture, Game, Rules};
//! use kalah_solver::{Config, Solver};
//! use kalah_analysis::{openings, pie, Offer};
//!
//! let game = Game::new(Rules { capture: Capture::Empty, ..Rules::kalah(4, 2) }).unwrap();
//! let solver = Solver::new(game.clone(), Config { threads: 1, hash_mb: 4, ..Config::default() }).unwrap();
//! let cancel = AtomicBool::new(false);
//!
//! // Every first turn of South, best first; the best one keeps the game's value.
//! let turns = openings(&solver, &game.start(), Offer::AfterTurn, 2, &cancel, &|_| {}).unwrap();
//! assert_eq!(turns[0].value, 6); // Kalah(4,2) with empty capture: South wins by 6
//!
//! // With the pie rule South picks the most balanced turn; North swaps when it favours South.
//! let with_pie = pie(&solver, &game.start(), Offer::AfterTurn, 2, &cancel, &|_| {}).unwrap();
//! assert!(with_pie.value <= 0);
//! ```
#![deny(missing_docs)]

pub mod analyse;
pub mod batch;
pub mod bench;
pub mod book;
pub mod distributed;
pub mod export;
pub mod game;
pub mod matches;
pub mod openings;
pub mod pie;
pub mod play;
pub mod protocol;
pub mod run;
pub mod wire;

pub use game::AnalysisError;
pub use kalah_solver::line::{replay, ReplayError};
pub use openings::{
    analyse, first_steps, openings, solve_step, Analysis, Offer, Opening, Step, Watch,
};
pub use pie::{decide, pie, PieAnalysis, PieChoice, PieDecision};

/// The README's library example, compiled and run as a doctest.
#[doc = include_str!("../../../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
