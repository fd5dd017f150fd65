//! The Python exceptions of the package: each error of the libraries becomes the
//! exception of `kalah.errors` that names its kind, with the command line's message.

use kalah_analysis::game::setup::bao::BaoSetupError;
use kalah_analysis::game::setup::{move_message, SetupError};
use kalah_analysis::game::BoardError;
use kalah_analysis::AnalysisError;
use kalah_core::bao::BaoError;
use kalah_core::{PositionError, RulesError};
use kalah_solver::{OverrideError, SolveError, SolverError};
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;

/// The kinds of error, each an exception class of `kalah/errors.py`.
#[derive(Clone, Copy, Debug)]
pub enum Kind {
    /// The rules asked for make no game.
    Rules,
    /// A position does not fit the rules it is used with.
    Mismatch,
    /// A board or a move list that cannot be read.
    Notation,
    /// A move that cannot be played in the position.
    IllegalMove,
    /// A table, a database or a game graph larger than the memory available.
    TooLarge,
    /// An endgame database file that cannot be used.
    Database,
    /// A bug: a principal variation that does not replay, a worker that panicked.
    Internal,
}

impl Kind {
    fn class(self) -> &'static str {
        match self {
            Kind::Rules => "RulesError",
            Kind::Mismatch => "RulesMismatchError",
            Kind::Notation => "NotationError",
            Kind::IllegalMove => "IllegalMoveError",
            Kind::TooLarge => "TooLargeError",
            Kind::Database => "DatabaseError",
            Kind::Internal => "InternalError",
        }
    }
}

/// The exception of `kind` with `message` (a RuntimeError if `kalah.errors` cannot be
/// imported, which only a broken installation does).
pub fn error(kind: Kind, message: impl Into<String>) -> PyErr {
    let message = message.into();
    Python::attach(|py| {
        match py
            .import("kalah.errors")
            .and_then(|m| m.getattr(kind.class()))
        {
            Ok(class) => PyErr::from_type(class.cast_into().expect("an exception class"), message),
            Err(_) => PyRuntimeError::new_err(message),
        }
    })
}

/// The exception for a refused position: a board that cannot be read, or one the game
/// cannot hold.
pub fn position_error(e: &PositionError) -> PyErr {
    let kind = match e {
        PositionError::Illegal { .. }
        | PositionError::NotMoversHouse { .. }
        | PositionError::NoExtraTurn { .. } => Kind::IllegalMove,
        _ => Kind::Notation,
    };
    error(kind, e.to_string())
}

/// The exception for rules that make no game.
pub fn rules_error(e: &RulesError) -> PyErr {
    error(Kind::Rules, e.to_string())
}

/// The exception for a setup refused, with the command line's message.
pub fn setup_error(e: &SetupError) -> PyErr {
    let kind = match e {
        SetupError::Rules(_) => Kind::Rules,
        SetupError::Position(_) => Kind::Notation,
        SetupError::Moves(PositionError::BadMove(_)) => Kind::Notation,
        SetupError::Moves(_) => Kind::IllegalMove,
        SetupError::HousesMismatch { .. }
        | SetupError::SeedsTooFew { .. }
        | SetupError::PositionTooLarge { .. } => Kind::Mismatch,
    };
    error(kind, e.to_string())
}

/// The exception for a solver that could not be made.
pub fn solver_error(e: &SolverError) -> PyErr {
    let kind = match e {
        SolverError::TableTooLarge { .. } | SolverError::DatabaseTooLarge { .. } => Kind::TooLarge,
        _ => Kind::Database,
    };
    error(kind, e.to_string())
}

/// The exception for settings that give no configuration.
pub fn override_error(e: &OverrideError) -> PyErr {
    match e {
        OverrideError::Retrograde { family, option } => error(
            Kind::Rules,
            format!(
                "{} has no endgame database, transposition table or deepening: its positions \
                 repeat, and the whole game graph of the position is solved by retrograde \
                 analysis, in memory: leave out {}",
                family.long_title(),
                option.trim_start_matches("--").replace('-', "_")
            ),
        ),
        OverrideError::Environment(e) => error(Kind::Database, e.to_string()),
        OverrideError::Egdb(e) => error(Kind::Database, e.to_string()),
    }
}

/// The exception for a solve that gave no value (a cancelled one is turned into the
/// KeyboardInterrupt by the caller, which knows it was interrupted).
pub fn solve_error(e: &SolveError) -> PyErr {
    match e {
        SolveError::GraphTooLarge { .. } => error(Kind::TooLarge, e.to_string()),
        SolveError::Cancelled => error(Kind::Internal, e.to_string()),
    }
}

/// The exception for an analysis (openings, pie) that gave no result.
pub fn analysis_error(e: &AnalysisError) -> PyErr {
    match e {
        AnalysisError::GraphTooLarge { .. } => error(Kind::TooLarge, e.to_string()),
        AnalysisError::GameOver => error(Kind::IllegalMove, e.to_string()),
        _ => error(Kind::Internal, e.to_string()),
    }
}

/// The exception for Bao rules, a Bao position or a Bao move refused.
pub fn bao_error(e: &BaoError) -> PyErr {
    let kind = match e {
        BaoError::Pits(_) | BaoError::Seeds { .. } | BaoError::RulesSyntax(_) => Kind::Rules,
        BaoError::WrongBoard { .. } => Kind::Mismatch,
        BaoError::WrongSide { .. } | BaoError::Illegal(_) => Kind::IllegalMove,
        BaoError::MissingSide
        | BaoError::BadSide(_)
        | BaoError::Rows(_)
        | BaoError::RowLength { .. }
        | BaoError::BadCount { .. }
        | BaoError::TooManySeeds(_)
        | BaoError::MoveSyntax(_)
        | BaoError::PitRange { .. } => Kind::Notation,
    };
    error(kind, e.to_string())
}

/// The exception for a position or moves refused on a board of either kind: a sowing
/// game's with the command line's messages (a list of moves as `--moves` names its bins),
/// Bao's with the core's.
pub fn board_error(e: &BoardError) -> PyErr {
    match e {
        BoardError::Sowing(SetupError::Moves(e @ PositionError::BadMove(_))) => position_error(e),
        BoardError::Sowing(SetupError::Moves(e)) => error(Kind::IllegalMove, move_message(e)),
        BoardError::Sowing(e) => setup_error(e),
        BoardError::Bao(e) => bao_setup_error(e),
    }
}

/// The exception for a Bao position or line refused, of the kind and with the message of
/// the core's error where there is one.
fn bao_setup_error(e: &BaoSetupError) -> PyErr {
    match e {
        BaoSetupError::Rules(e)
        | BaoSetupError::Position(e)
        | BaoSetupError::Move { error: e, .. } => bao_error(e),
        &BaoSetupError::WrongBoard { found, expected } => {
            bao_error(&BaoError::WrongBoard { found, expected })
        }
        BaoSetupError::Overfull { seeds, rules } => error(
            Kind::Mismatch,
            format!(
                "the position holds {seeds} seeds, more than the {} of {rules} (raise seeds)",
                4 * rules.pits() * rules.seeds()
            ),
        ),
        BaoSetupError::Over { mv, end } => {
            error(Kind::IllegalMove, format!("{mv}: the game is over ({end})"))
        }
    }
}
