//! Why Bao rules, a Bao position or a Bao move were refused.

use std::fmt;

use super::{BaoMove, MAX_PITS, MAX_SEEDS};

/// Why Bao rules, a position or a move could not be read or played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BaoError {
    /// A number of pits a row outside 3..=8.
    Pits(usize),
    /// A number of seeds a pit that is 0 or makes more than [`MAX_SEEDS`] in all.
    Seeds {
        /// Pits a row.
        pits: usize,
        /// Seeds a pit.
        seeds: usize,
    },
    /// A position without `:S` or `:N` at its end.
    MissingSide,
    /// A side letter other than `S` or `N`.
    BadSide(String),
    /// A position whose text does not have four rows separated by `/`.
    Rows(usize),
    /// A row whose length differs from the first row's, or is outside 3..=8.
    RowLength {
        /// 1-based row of the text (1 = North's back row).
        row: usize,
        /// Counts found in it.
        found: usize,
    },
    /// A count that is not a number from 0 to 255.
    BadCount {
        /// 1-based row of the text.
        row: usize,
        /// 1-based column of the text.
        column: usize,
        /// What was written there.
        text: String,
    },
    /// A position holding more seeds than the encoding allows.
    TooManySeeds(usize),
    /// A move that is not a row letter, a pit number and `+` or `-`.
    MoveSyntax(String),
    /// A move written for the player who is not to move (`a3+` when South moves).
    WrongSide {
        /// The move as written.
        text: String,
        /// The letters the mover's rows take.
        expected: &'static str,
    },
    /// A pit number outside 1..=N.
    PitRange {
        /// The move as written.
        text: String,
        /// N.
        pits: usize,
    },
    /// A move that is not among the legal moves of the position.
    Illegal(BaoMove),
    /// Rules not written as `Bao(N,S)`.
    RulesSyntax(String),
    /// A position for another board than the one asked for.
    WrongBoard {
        /// Pits a row of the position.
        found: usize,
        /// Pits a row expected.
        expected: usize,
    },
}

impl fmt::Display for BaoError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BaoError::Pits(n) => write!(f, "Bao has 3 to {MAX_PITS} pits a row, not {n}"),
            BaoError::Seeds { pits, seeds } => write!(
                f,
                "{seeds} seeds a pit on 4 rows of {pits} pits: need 1 to {} seeds a pit \
                 (at most {MAX_SEEDS} seeds in all)",
                MAX_SEEDS / (4 * pits)
            ),
            BaoError::MissingSide => f.write_str("a Bao position ends with :S or :N"),
            BaoError::BadSide(s) => write!(f, "side to move must be S or N, not '{s}'"),
            BaoError::Rows(k) => write!(
                f,
                "a Bao position has 4 rows separated by '/' (b, a, A, B), found {k}"
            ),
            BaoError::RowLength { row, found } => write!(
                f,
                "row {row} of the position has {found} counts; every row needs the same \
                 number, 3 to {MAX_PITS}"
            ),
            BaoError::BadCount { row, column, text } => write!(
                f,
                "row {row}, column {column}: '{text}' is not a seed count (0 to 255)"
            ),
            BaoError::TooManySeeds(s) => {
                write!(f, "the position holds {s} seeds, more than {MAX_SEEDS}")
            }
            BaoError::MoveSyntax(t) => write!(
                f,
                "'{t}' is not a Bao move: a row letter (A B for South, a b for North), \
                 a pit number and + or -, e.g. A3+"
            ),
            BaoError::WrongSide { text, expected } => write!(
                f,
                "'{text}' is a move of the player not to move: the mover's rows are {expected}"
            ),
            BaoError::PitRange { text, pits } => {
                write!(f, "'{text}': pits are numbered 1 to {pits}")
            }
            BaoError::Illegal(mv) => write!(f, "{mv} is not a legal move here"),
            BaoError::RulesSyntax(t) => write!(
                f,
                "'{t}' is not Bao's rules: write Bao(N,S), N pits a row (3 to {MAX_PITS}) and \
                 S seeds a pit, e.g. Bao(8,2)"
            ),
            BaoError::WrongBoard { found, expected } => write!(
                f,
                "the position has {found} pits a row, the board {expected}"
            ),
        }
    }
}

impl std::error::Error for BaoError {}
