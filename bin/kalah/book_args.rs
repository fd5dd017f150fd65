//! The `--book FILE` / `--no-book` options of the commands that consult an opening book
//! (`engine`, `play`, `analyse`, `openings`, `pie`, `book show`): which book, loaded for
//! the rules (docs/book.md).

use std::path::PathBuf;

use kalah_analysis::book::choice::{Choice, LoadError};
use kalah_analysis::book::Book;
use kalah_core::Rules;

use crate::error::CliError;

/// Which opening book a command consults: the one compiled in for the rules (Kalah(6,6)
/// and Kalah(6,5), standard and empty capture), another file, or none.
#[derive(clap::Args, Debug, Clone, Default)]
#[command(next_help_heading = "Opening book")]
pub struct BookArgs {
    /// Consult this opening book (made by `kalah book build` for the same rules) instead
    /// of the one compiled in for the rules
    #[arg(long, value_name = "FILE", conflicts_with = "no_book")]
    pub book: Option<PathBuf>,

    /// Consult no opening book
    #[arg(long)]
    pub no_book: bool,
}

impl BookArgs {
    /// The book for `rules`: `--book FILE` (an error where it is not a book of these
    /// rules), else the one compiled in, if any; none with `--no-book`.
    pub fn load(&self, rules: &Rules) -> Result<Option<Book>, CliError> {
        self.choice().load(rules).map_err(load_error)
    }

    /// The book these options ask for, as the library takes it.
    pub fn choice(&self) -> Choice {
        Choice {
            file: self.book.clone(),
            off: self.no_book,
        }
    }

    /// The engine's book finder: `--book FILE` (read now, whatever its rules) for the
    /// rules it was made for, the compiled-in book for the others; nothing with
    /// `--no-book`. Also how `hello` names it.
    pub fn engine_books(
        &self,
    ) -> Result<
        (
            Option<kalah_analysis::protocol::session::BookFactory>,
            String,
        ),
        CliError,
    > {
        self.choice().finder().map_err(load_error)
    }
}

/// A book named that does not read is the user's to fix; a compiled-in one, a bug.
fn load_error(e: LoadError) -> CliError {
    e.into()
}

impl From<LoadError> for CliError {
    fn from(e: LoadError) -> CliError {
        match e {
            LoadError::File(_) => CliError::Input(e.to_string()),
            LoadError::Shipped(_) => CliError::Internal(e.to_string()),
        }
    }
}
