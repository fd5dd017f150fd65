//! The openings of a match chosen rather than random (`kalah match --openings`): the
//! positions of the compiled-in opening book whose values lie within a seed of 0
//! ([`balanced_in_book`]), or a file of positions, one a line ([`read_openings`]); the
//! balanced sets shipped in `data/openings/` are such files (their README says how each
//! was made). A book's values are heuristic unless exact: "balanced" means an analysis far
//! deeper than a move's found the position level, not that it is proved level.

use std::path::{Path, PathBuf};

use kalah_core::Rules;

use crate::book::Book;

/// How far from 0 (in seeds, from South) a book value may lie for its position to count
/// as balanced.
pub const BALANCED_WITHIN: i32 = 1;

/// Where a match's openings come from (`--openings`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OpeningsChoice {
    /// The compiled-in opening book's positions valued within [`BALANCED_WITHIN`] of 0.
    Book,
    /// A file of positions.
    File(PathBuf),
}

impl OpeningsChoice {
    /// `book`, else a file's path.
    pub fn parse(text: &str) -> OpeningsChoice {
        match text {
            "book" => OpeningsChoice::Book,
            path => OpeningsChoice::File(PathBuf::from(path)),
        }
    }

    /// The boards to play from for a match of `rules` (none: Bao's, which has no book),
    /// and where they came from in words; why not, in words.
    pub fn boards(&self, rules: Option<&Rules>) -> Result<(Vec<String>, String), String> {
        let boards = match self {
            OpeningsChoice::Book => {
                let book = rules
                    .and_then(|r| Book::shipped(r).ok().flatten())
                    .ok_or_else(|| {
                        "--openings book: no opening book is compiled in for these rules (only \
                         Kalah(6,6) and Kalah(6,5)); give --openings FILE (data/openings/ \
                         holds balanced sets for Kalah(6,6), Kalah(6,5), Oware(6,4) and \
                         Bao(8,2))"
                            .to_string()
                    })?;
                let boards = balanced_in_book(&book);
                let words = format!(
                    "the opening book (its {} positions valued within a seed of 0)",
                    boards.len()
                );
                (boards, words)
            }
            OpeningsChoice::File(path) => {
                let text = std::fs::read_to_string(path)
                    .map_err(|e| format!("--openings {}: {e}", path.display()))?;
                (read_openings(&text), shown(path))
            }
        };
        match boards.0.is_empty() {
            true => Err(format!("--openings: {} holds no position", boards.1)),
            false => Ok(boards),
        }
    }
}

/// A file's name in the report.
fn shown(path: &Path) -> String {
    path.display().to_string()
}

/// The positions of `book` whose value (from South) lies within [`BALANCED_WITHIN`] of 0
/// and whose game is not over, in the book's order, as board text.
pub fn balanced_in_book(book: &Book) -> Vec<String> {
    book.entries()
        .iter()
        .filter(|e| e.eval.abs() <= BALANCED_WITHIN && !e.position.is_over())
        .map(|e| e.position.to_string())
        .collect()
}

/// The positions of a file: one a line, the board as `--position` reads it; a `#` starts
/// a comment to the end of the line, and blank lines are skipped.
pub fn read_openings(text: &str) -> Vec<String> {
    text.lines()
        .map(|l| l.split('#').next().unwrap_or("").trim())
        .filter(|l| !l.is_empty())
        .map(str::to_string)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_holds_one_board_a_line_with_comments() {
        let text = "# a set\n\n4,4,0,5:S  # eval 0\n  2,2/2,2:N\n";
        assert_eq!(read_openings(text), ["4,4,0,5:S", "2,2/2,2:N"]);
        assert_eq!(OpeningsChoice::parse("book"), OpeningsChoice::Book);
        assert!(matches!(
            OpeningsChoice::parse("x.txt"),
            OpeningsChoice::File(_)
        ));
    }

    #[test]
    fn the_book_gives_its_level_positions_and_only_where_there_is_one() {
        let rules = Rules::kalah(6, 6);
        let (boards, words) = OpeningsChoice::Book.boards(Some(&rules)).unwrap();
        assert!(!boards.is_empty(), "{words}");
        let book = Book::shipped(&rules).unwrap().unwrap();
        for b in &boards {
            let pos = b.parse().unwrap();
            assert!(book.lookup(&pos).unwrap().eval.abs() <= 1);
        }
        assert!(OpeningsChoice::Book
            .boards(Some(&Rules::kalah(4, 3)))
            .is_err());
        assert!(OpeningsChoice::Book.boards(None).is_err());
    }
}
