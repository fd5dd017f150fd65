//! Which opening book a front end consults: none, the file its user named, or the
//! compiled-in book of the rules ([`Book::shipped`]); loaded for one game's rules, or
//! found anew for every game an engine session plays.

use std::fmt;
use std::path::PathBuf;
use std::sync::Arc;

use kalah_core::{Position, Rules};

use super::{Book, Entry};

/// The book asked for: `off` consults none; else the file named, else the compiled-in
/// book of the rules, where there is one.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Choice {
    /// The book file named (`--book FILE`).
    pub file: Option<PathBuf>,
    /// No book at all (`--no-book`).
    pub off: bool,
}

/// Why the book asked for could not be loaded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LoadError {
    /// The file named could not be read, or is no book of the rules: the message names it.
    File(String),
    /// A compiled-in book does not read: a bug.
    Shipped(String),
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadError::File(e) => f.write_str(e),
            LoadError::Shipped(e) => write!(f, "the compiled-in book: {e}"),
        }
    }
}

impl std::error::Error for LoadError {}

/// Finds the book of a game's rules for an engine session (the engine's `BookFactory`).
pub type Finder = Box<dyn FnMut(&Rules) -> Option<Arc<Book>> + Send>;

impl Choice {
    /// The book for `rules`: none where `off`, the file named (which must be a book of
    /// `rules`), else the compiled-in book of the rules, if any.
    pub fn load(&self, rules: &Rules) -> Result<Option<Book>, LoadError> {
        if self.off {
            return Ok(None);
        }
        match &self.file {
            Some(path) => Book::read_file(path, Some(rules))
                .map(Some)
                .map_err(LoadError::File),
            None => Book::shipped(rules).map_err(|e| LoadError::Shipped(e.to_string())),
        }
    }

    /// The entry for `pos` of the book for `rules` ([`Choice::load`]), with the book's
    /// origin, where the book holds the position.
    pub fn entry(
        &self,
        rules: &Rules,
        pos: &Position,
    ) -> Result<Option<(Entry, String)>, LoadError> {
        Ok(self
            .load(rules)?
            .and_then(|b| Some((b.lookup(pos)?.clone(), b.origin().to_string()))))
    }

    /// What finds the book of every game an engine session plays, with its name for the
    /// session to show: none where `off` (`off`); the file named, read once, for the games
    /// of its rules, and the compiled-in book of the rules for the others (the file's
    /// name); else the compiled-in books (`compiled-in`).
    pub fn finder(&self) -> Result<(Option<Finder>, String), LoadError> {
        if self.off {
            return Ok((None, "off".to_string()));
        }
        let file = match &self.file {
            Some(path) => Some(Arc::new(
                Book::read_file(path, None).map_err(LoadError::File)?,
            )),
            None => None,
        };
        let name = self
            .file
            .as_ref()
            .map_or("compiled-in".to_string(), |p| p.display().to_string());
        let finder: Finder = Box::new(move |rules: &Rules| match &file {
            Some(b) if b.rules() == rules => Some(b.clone()),
            _ => Book::shipped(rules).ok().flatten().map(Arc::new),
        });
        Ok((Some(finder), name))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_book_when_off_else_the_compiled_in_one() {
        let rules = Rules::kalah(6, 6);
        let off = Choice {
            off: true,
            ..Choice::default()
        };
        assert!(matches!(off.load(&rules), Ok(None)));
        let (finder, name) = off.finder().unwrap();
        assert!(finder.is_none());
        assert_eq!(name, "off");
        let shipped = Choice::default().load(&rules).unwrap().expect("a book");
        assert_eq!(shipped.rules(), &rules);
        let start = kalah_core::Game::new(rules).unwrap().start();
        let (entry, origin) = Choice::default().entry(&rules, &start).unwrap().unwrap();
        assert_eq!(Some(&entry), shipped.lookup(&start));
        assert_eq!(origin, shipped.origin());
        assert!(off.entry(&rules, &start).unwrap().is_none());
        let (finder, name) = Choice::default().finder().unwrap();
        assert_eq!(name, "compiled-in");
        let found = finder.expect("a finder")(&rules).expect("a book");
        assert_eq!(found.rules(), &rules);
    }

    #[test]
    fn a_file_that_does_not_read_is_named() {
        let missing = Choice {
            file: Some(PathBuf::from("/no/such/book.txt")),
            off: false,
        };
        let Err(LoadError::File(e)) = missing.load(&Rules::kalah(6, 6)) else {
            panic!("a missing file loaded");
        };
        assert!(
            e.starts_with("cannot read the book /no/such/book.txt: "),
            "{e}"
        );
        assert!(matches!(missing.finder(), Err(LoadError::File(_))));
    }
}
