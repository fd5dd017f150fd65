//! The evaluation table of either kind of game, for `kalah export`: the command sets up a
//! [`Board`], says what it asks ([`Export`]) and calls [`Board::export`]; the outputs
//! checked and locked, the table built (a sowing game's by its parallel solver over the
//! plan, `sowing`; Bao's rows exact from the solved game graph or analysed, `bao`), its
//! finished values kept in a partial file across interruptions, and the table written stay
//! behind it. The command shows the progress ([`ExportProgress`]) and prints the line
//! returned.

pub mod bao;
mod budget;
mod plan;
pub mod resume;
mod sowing;
pub mod table;

pub use budget::{max_positions, TooLarge, POSITION_BYTES};
pub use plan::{evaluate, plan, plan_bounded, plan_until, Plan, PlanError};
pub use table::Entry;

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

use kalah_io::OutputError;
use kalah_solver::bao::BaoSolveError;
use kalah_solver::Limits;

use crate::game::AnalysisError;
use crate::game::Board;
use crate::run::solving::{Solving, SolvingError};
use resume::ResumeError;
use table::TableFormat;
/// What an export asks, whatever the game.
#[derive(Clone, Debug)]
pub struct Export {
    /// Turns from the start to cover (Bao: moves).
    pub depth: u32,
    /// The table files to write (Bao's table: exactly one).
    pub outputs: Vec<PathBuf>,
    /// Replace a file that is not a table, a read-only one or a symbolic link.
    pub force: bool,
    /// The format of every file, else each file's from its name ([`TableFormat::of_path`]).
    pub format: Option<TableFormat>,
    /// The files a sowing game's solve reads (endgame databases), never replaced by an
    /// output; Bao reads none.
    pub inputs: Vec<PathBuf>,
    /// Bao: solve the start's whole game graph even where the board is large.
    pub exact: bool,
    /// Bao: the analysis' limits given, if any ([`crate::export::bao::solves_exactly`]).
    pub limits: Option<Limits>,
    /// Bao: the memory the game graph may take, in megabytes.
    pub memory_mb: u64,
}

/// How an export shows its progress (on standard error, as the command likes). `Sync`:
/// a sowing game's values are counted from its solver's threads.
pub trait ExportProgress: Sync {
    /// A warning, always shown.
    fn warn(&self, line: &str);
    /// A line of news, shown unless the command is quiet.
    fn say(&self, line: &str);
    /// Work of `len` `unit` begins (a bar counts it).
    fn bar(&self, len: usize, unit: &str);
    /// Work of unknown length begins (a spinner shows its messages).
    fn spinner(&self);
    /// A line shown above the bar, where the bar is shown.
    fn note(&self, line: &str);
    /// One more of the bar's units done.
    fn inc(&self);
    /// The spinner's message.
    fn message(&self, msg: String);
    /// The bar or spinner is done: cleared.
    fn clear(&self);
}

/// Why an export wrote no table.
#[derive(Debug)]
pub enum ExportError {
    /// The request does not fit the game; the message says what to change.
    Refused(String),
    /// The table would not fit in the memory available; the message names the deepest
    /// depth that does.
    TooLarge(String),
    /// An output could not be checked, locked or written.
    Output(OutputError),
    /// A sowing game's partial file could not be read, written or used.
    Partial(ResumeError),
    /// Bao's game graph could not be solved (larger than its memory).
    Graph {
        /// Why.
        error: BaoSolveError,
        /// The memory it was given, in megabytes.
        memory_mb: u64,
    },
    /// Interrupted: `kept` says what was kept for the next run.
    Cancelled {
        /// What was kept, in words.
        kept: String,
    },
    /// A sowing game's solve failed; `kept` says what was kept.
    Analysis {
        /// The failure.
        error: AnalysisError,
        /// What was kept, in words.
        kept: String,
    },
    /// The solver could not be made.
    Solver(SolvingError),
}

impl From<SolvingError> for ExportError {
    fn from(e: SolvingError) -> ExportError {
        ExportError::Solver(e)
    }
}

impl fmt::Display for ExportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExportError::Refused(msg) | ExportError::TooLarge(msg) => write!(f, "{msg}"),
            ExportError::Output(e) => write!(f, "{e}"),
            ExportError::Partial(e) => write!(f, "{e}"),
            ExportError::Graph { error, .. } => write!(f, "{error}"),
            ExportError::Cancelled { kept } => write!(f, "interrupted: {kept}"),
            ExportError::Analysis { error, kept } => write!(f, "{error}: {kept}"),
            ExportError::Solver(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for ExportError {}

impl From<OutputError> for ExportError {
    fn from(e: OutputError) -> ExportError {
        ExportError::Output(e)
    }
}

impl Export {
    /// The format of the table written to `path`: the one asked for, else from its name.
    pub fn format_of(&self, path: &Path) -> TableFormat {
        self.format.unwrap_or_else(|| TableFormat::of_path(path))
    }
}

impl Board {
    /// Exports the table `request` asks of this position and returns the line that says
    /// what was written. A sowing game's parallel solver is made by `solving` for the
    /// number of values to solve; Bao needs none. `cancel` stops the work, what was
    /// finished kept in the partial file beside the (first) output.
    pub fn export<E: From<ExportError> + From<SolvingError>>(
        &self,
        request: &Export,
        solving: &Solving,
        shown: &dyn ExportProgress,
        cancel: &AtomicBool,
    ) -> Result<String, E> {
        match self {
            Board::Sowing(game, start) => {
                sowing::export(game, start, request, solving, shown, cancel)
            }
            Board::Bao(rules, start) => Ok(bao::run::export(rules, start, request, shown, cancel)?),
        }
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use kalah_core::Game;
    use kalah_solver::Solver;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Mutex;

    /// The progress of a test: the units counted and the lines said.
    #[derive(Default)]
    pub(super) struct Counted {
        pub(super) done: AtomicUsize,
        pub(super) lines: Mutex<Vec<String>>,
    }

    impl ExportProgress for Counted {
        fn warn(&self, line: &str) {
            self.lines.lock().unwrap().push(line.to_string());
        }
        fn say(&self, line: &str) {
            self.lines.lock().unwrap().push(line.to_string());
        }
        fn bar(&self, _: usize, _: &str) {}
        fn spinner(&self) {}
        fn note(&self, line: &str) {
            self.lines.lock().unwrap().push(line.to_string());
        }
        fn inc(&self) {
            self.done.fetch_add(1, Ordering::Relaxed);
        }
        fn message(&self, _: String) {}
        fn clear(&self) {}
    }

    pub(super) fn request(depth: u32, outputs: Vec<PathBuf>) -> Export {
        Export {
            depth,
            outputs,
            force: false,
            format: None,
            inputs: Vec::new(),
            exact: false,
            limits: None,
            memory_mb: 64,
        }
    }

    pub(super) fn solver(game: &Game) -> Solver {
        let config = kalah_solver::Config {
            threads: 1,
            hash_mb: 1,
            ..kalah_solver::Config::default()
        };
        Solver::new(game.clone(), config).unwrap()
    }

    #[test]
    fn the_format_asked_for_wins_over_the_name() {
        let asked = Export {
            format: Some(TableFormat::Csv),
            ..request(1, Vec::new())
        };
        assert_eq!(asked.format_of(Path::new("t.json")), TableFormat::Csv);
        assert_eq!(
            request(1, Vec::new()).format_of(Path::new("t.csv")),
            TableFormat::Csv
        );
    }
}
