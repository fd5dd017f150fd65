//! Why a solver could not be made ([`SolverError`]) and every way a solve can end without
//! a result ([`SolveError`]).

use crate::db::database::OpenError;
use crate::db::egdb::EgdbError;
use crate::retro::{self, RetroStop};

/// Why a solve gave no result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SolveError {
    /// The solve was stopped through its cancel flag before it had a result.
    Cancelled,
    /// The game graph of the position (a family whose positions repeat, solved whole by
    /// retrograde analysis, [`retro`]) has more positions than the memory available holds.
    GraphTooLarge {
        /// The most positions the graph may hold.
        limit: u64,
    },
}

impl std::fmt::Display for SolveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SolveError::Cancelled => f.write_str("the search was cancelled"),
            SolveError::GraphTooLarge { limit } => f.write_str(&retro::too_large_message(*limit)),
        }
    }
}

impl std::error::Error for SolveError {}

impl From<RetroStop> for SolveError {
    fn from(stop: RetroStop) -> SolveError {
        match stop {
            RetroStop::Cancelled => SolveError::Cancelled,
            RetroStop::TooLarge { limit } => SolveError::GraphTooLarge { limit },
        }
    }
}

/// Why a solver could not be made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SolverError {
    /// The endgame database cannot be built, loaded or used.
    Database(EgdbError),
    /// The transposition table does not fit in the memory available.
    TableTooLarge {
        /// The table asked for, in MiB.
        megabytes: usize,
        /// Bytes of memory available.
        available: u64,
        /// The largest table that fits, in MiB (a power of two).
        largest: usize,
    },
    /// The endgame database to build does not fit in the memory available.
    DatabaseTooLarge {
        /// Its seeds.
        seeds: usize,
        /// Bytes it needs.
        needed: u64,
        /// Bytes of memory available.
        available: u64,
        /// The most seeds of a database that fits.
        largest: usize,
    },
}

impl std::fmt::Display for SolverError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mib = |b: u64| b >> 20;
        match self {
            SolverError::Database(e) => write!(f, "{e}"),
            SolverError::TableTooLarge {
                megabytes,
                available,
                largest,
            } => write!(
                f,
                "a transposition table of {megabytes} MiB does not fit in the {} MiB of memory \
                 available: {largest} MiB at most",
                mib(*available)
            ),
            SolverError::DatabaseTooLarge {
                seeds,
                needed,
                available,
                largest,
            } => write!(
                f,
                "an endgame database of {seeds} seeds needs {} MiB of memory but {} MiB is \
                 available: {largest} seeds at most",
                mib(*needed),
                mib(*available)
            ),
        }
    }
}

impl std::error::Error for SolverError {}

impl From<EgdbError> for SolverError {
    fn from(e: EgdbError) -> Self {
        SolverError::Database(e)
    }
}

impl From<OpenError> for SolverError {
    fn from(e: OpenError) -> Self {
        match e {
            OpenError::TooLarge {
                seeds,
                needed,
                available,
                largest,
            } => SolverError::DatabaseTooLarge {
                seeds,
                needed,
                available,
                largest,
            },
            OpenError::Database(e) => SolverError::Database(e),
        }
    }
}
