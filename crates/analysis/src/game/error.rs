//! Why an analysis gave no result ([`AnalysisError`]): the error every task of either kind
//! of game shares, so it lives on the game floor with the board.

use std::fmt;

use kalah_solver::line::ReplayError;

/// Why an analysis gave no result.
#[derive(Debug)]
pub enum AnalysisError {
    /// The cancel flag was raised before the work was finished.
    Cancelled,
    /// The position is already over: it has no turn to analyse.
    GameOver,
    /// A principal variation from the solver did not replay to its value: a bug.
    Replay(ReplayError),
    /// The worker threads could not be started.
    Threads(String),
    /// A solve's game graph holds more positions than the memory available
    /// ([`kalah_solver::SolveError::GraphTooLarge`]).
    GraphTooLarge {
        /// The most positions the graph may hold.
        limit: u64,
    },
}

impl fmt::Display for AnalysisError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AnalysisError::Cancelled => f.write_str("the analysis was cancelled"),
            AnalysisError::GameOver => {
                f.write_str("the game is over in this position: there is no turn to analyse")
            }
            AnalysisError::Replay(e) => write!(f, "a principal variation failed its check: {e}"),
            AnalysisError::Threads(e) => write!(f, "could not start the worker threads: {e}"),
            AnalysisError::GraphTooLarge { limit } => {
                kalah_solver::SolveError::GraphTooLarge { limit: *limit }.fmt(f)
            }
        }
    }
}

impl std::error::Error for AnalysisError {}

impl From<kalah_solver::SolveError> for AnalysisError {
    fn from(e: kalah_solver::SolveError) -> Self {
        match e {
            kalah_solver::SolveError::Cancelled => AnalysisError::Cancelled,
            kalah_solver::SolveError::GraphTooLarge { limit } => {
                AnalysisError::GraphTooLarge { limit }
            }
        }
    }
}

impl From<ReplayError> for AnalysisError {
    fn from(e: ReplayError) -> Self {
        AnalysisError::Replay(e)
    }
}
