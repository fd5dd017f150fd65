//! The one error type of the command line: every way a run can fail, each with a message
//! a user can act on. Any `CliError` ends the program with exit status 2 (`Incomplete`: 3).

use std::fmt;
use std::io;

use kalah_core::{PositionError, RulesError};
use kalah_solver::cache::CacheMaxError;
use kalah_solver::egdb::EgdbError;
use kalah_solver::SolverError;

use kalah_analysis::game::setup::{words, SetupError};

/// Why a command failed.
#[derive(Debug)]
pub enum CliError {
    /// The rule options do not make a playable game.
    Rules(RulesError),
    /// `--position` could not be read or does not fit the rules.
    Position(PositionError),
    /// The rule options, `--position` or `--moves` give no game to play.
    Setup(SetupError),
    /// An endgame database could not be built, read or used.
    Egdb(EgdbError),
    /// The solver's table or database does not fit in the memory available.
    Solver(SolverError),
    /// `kalah egdb build` could not build the database: the message adds the options to
    /// change where the library's reason names a value one of them sets.
    EgdbBuild(EgdbError),
    /// Writing the output or reading the input failed.
    Io(io::Error),
    /// A check of the engine's own result failed: a bug to report.
    Internal(String),
    /// An input file that cannot be read or understood; the message names the place.
    Input(String),
    /// An environment variable set to a value that means nothing (`KALAH_CACHE_MAX_MB`).
    Environment(CacheMaxError),
    /// An output file that cannot be used or written (see `kalah_io`).
    Output(kalah_io::OutputError),
    /// Not an error but an unfinished result (`kalah merge` before every answer it needs
    /// is in): the message says what is missing; the exit status is 3.
    Incomplete(String),
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CliError::Rules(e) => SetupError::Rules(e.clone()).fmt(f),
            CliError::Position(e) => SetupError::Position(e.clone()).fmt(f),
            CliError::Setup(e) => write!(f, "{e}"),
            CliError::Egdb(e) => f.write_str(&words::egdb_words(e)),
            CliError::Solver(e) => f.write_str(&words::solver_words(e)),
            CliError::EgdbBuild(e) => f.write_str(&words::egdb_build_words(e)),
            CliError::Io(e) => write!(f, "{e}"),
            CliError::Internal(msg) => write!(f, "internal error, please report it: {msg}"),
            CliError::Input(msg) => write!(f, "{msg}"),
            CliError::Incomplete(msg) => write!(f, "{msg}"),
            CliError::Output(e) => write!(f, "{e}"),
            CliError::Environment(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for CliError {}

/// `From` for each library error that is one variant of [`CliError`] as it is.
macro_rules! from_errors {
    ($($error:ty => $variant:ident),* $(,)?) => {
        $(impl From<$error> for CliError {
            fn from(e: $error) -> Self {
                CliError::$variant(e)
            }
        })*
    };
}

from_errors! {
    RulesError => Rules,
    EgdbError => Egdb,
    SolverError => Solver,
    kalah_io::OutputError => Output,
    CacheMaxError => Environment,
    SetupError => Setup,
    io::Error => Io,
}
