//! The opening book (docs/book.md): for every position of the first few turns of a
//! game, the best turn and its value found by an analysis far deeper than a move's
//! budget, with the interval proved to hold the exact value. [`build`] makes one
//! (resumable; [`about`] says how in its header), [`mod@format`] writes and reads its text, and [`Book`] answers lookups:
//! the engine, `kalah play`, `analyse`, `openings` and `pie` consult it and say so.
//!
//! A book value is a heuristic evaluation unless its interval has closed
//! ([`Entry::is_exact`]): only then is it the exact value. Values are **from South**.
//!
//! ```
//! use kalah_analysis::book::Book;
//! use kalah_core::{Game, Rules};
//!
//! let rules = Rules::kalah(6, 6);
//! let book = Book::shipped(&rules).unwrap().expect("Kalah(6,6) has a book");
//! let start = Game::new(rules).unwrap().start();
//! let entry = book.lookup(&start).expect("the start is in the book");
//! assert!(entry.lower <= entry.eval && entry.eval <= entry.upper);
//! ```

pub mod about;
pub mod build;
pub mod choice;
pub mod format;
pub mod job;
pub mod report;

use std::collections::HashMap;
use std::path::Path;

use kalah_core::{Game, Position, Rules, Side};
use kalah_solver::line::Turn;

use crate::bounds::signed;
use crate::openings::{first_steps, Offer, Step};
pub use format::BookError;

/// Whether the first turns of `pos` are read from an opening book rather than solved
/// (`kalah openings`, `kalah pie`): always from a book the user named (`named`); from the
/// compiled-in book only where the exact solve is not quick
/// ([`crate::quick::solves_quickly`]) and no time limit asks for an analysis instead
/// (`timed`).
pub fn answers_first_turns(named: bool, timed: bool, game: &Game, pos: &Position) -> bool {
    named || !(timed || crate::quick::solves_quickly(game, pos))
}

/// A book written by `kalah book build`, told by its first line ([`format::MAGIC`]), so
/// that a build replaces only a book ([`kalah_io::Checks`]).
pub const KIND: kalah_io::Kind = kalah_io::Kind {
    name: "an opening book written by kalah book build",
    test: is_book,
};

/// Whether `head` starts a book.
fn is_book(head: &[u8]) -> bool {
    kalah_io::first_line(head).is_some_and(|l| l.trim_ascii_end() == format::MAGIC.as_bytes())
}

/// One position of the book: its best turn and what is known of its value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The position (its side to move chooses the turn).
    pub position: Position,
    /// The best turn found, every sowing of it.
    pub best_turn: Turn,
    /// The evaluation from South: the exact value when [`Entry::is_exact`], else
    /// heuristic (the deepest completed search's).
    pub eval: i32,
    /// Proven lower bound of the value, from South.
    pub lower: i32,
    /// Proven upper bound of the value, from South.
    pub upper: i32,
    /// The deepest completed search behind the entry, in sowings.
    pub depth: u8,
}

impl Entry {
    /// True when the proven interval has closed: [`Entry::eval`] is the exact value.
    pub fn is_exact(&self) -> bool {
        self.lower == self.upper
    }

    /// The evaluation for the player to move.
    pub fn eval_for_mover(&self) -> i32 {
        self.position.side_to_move().sign() * self.eval
    }

    /// The proven interval for the player to move, lower first.
    pub fn bounds_for_mover(&self) -> (i32, i32) {
        match self.position.side_to_move() {
            Side::South => (self.lower, self.upper),
            Side::North => (-self.upper, -self.lower),
        }
    }

    /// The engine protocol's `info book` line of the entry (docs/engine.md): the depth it
    /// was made at, values for the side to move as in every `info` line, no search.
    pub fn info_line(&self, houses: usize) -> String {
        let (lower, upper) = self.bounds_for_mover();
        format!(
            "info book depth {} eval {} lower {lower} upper {upper} exact {} nodes 0 nps 0 time 0 pv {}",
            self.depth,
            self.eval_for_mover(),
            if self.is_exact() { "yes" } else { "no" },
            self.best_turn.notation(houses)
        )
    }

    /// How the entry is described to a user: `book depth 14: heuristic +4 from South,
    /// proven -70..+72`, or `book depth 0: exact +2 from South`.
    pub fn describe(&self) -> String {
        let value = match self.is_exact() {
            true => format!("exact {} from South", signed(self.eval)),
            false => format!(
                "heuristic {} from South, proven {}..{}",
                signed(self.eval),
                signed(self.lower),
                signed(self.upper)
            ),
        };
        format!("book depth {}: {value}", self.depth)
    }
}

/// An opening book for one set of rules: its entries, each position once, and the
/// header's account of how it was made.
#[derive(Clone, Debug)]
pub struct Book {
    rules: Rules,
    about: Vec<(String, String)>,
    entries: Vec<Entry>,
    index: HashMap<String, usize>,
    origin: String,
}

/// The books kept in `data/book/` and compiled into the library: (file, text).
const SHIPPED: &[(&str, &str)] = &[
    (
        "data/book/kalah-6x6-standard.txt",
        include_str!("../../../../data/book/kalah-6x6-standard.txt"),
    ),
    (
        "data/book/kalah-6x6-empty.txt",
        include_str!("../../../../data/book/kalah-6x6-empty.txt"),
    ),
    (
        "data/book/kalah-6x5-standard.txt",
        include_str!("../../../../data/book/kalah-6x5-standard.txt"),
    ),
    (
        "data/book/kalah-6x5-empty.txt",
        include_str!("../../../../data/book/kalah-6x5-empty.txt"),
    ),
];

impl Book {
    /// A book of `rules` holding `entries` (the first of a position counts), with the
    /// header fields `about` (`turns`, `limits`, `command`, ...).
    pub fn new(rules: Rules, about: Vec<(String, String)>, entries: Vec<Entry>) -> Book {
        let mut index = HashMap::with_capacity(entries.len());
        for (k, e) in entries.iter().enumerate() {
            index.entry(e.position.to_string()).or_insert(k);
        }
        Book {
            rules,
            about,
            entries,
            index,
            origin: String::new(),
        }
    }

    /// The book compiled in for `rules` (the files of `data/book/`: Kalah(6,6) and
    /// Kalah(6,5), standard and empty capture), if there is one.
    pub fn shipped(rules: &Rules) -> Result<Option<Book>, BookError> {
        let wanted = format!("# rules {rules}");
        for (file, text) in SHIPPED {
            if text.lines().nth(1).map(str::trim_end) == Some(wanted.as_str()) {
                let mut book = format::read(text, Some(rules))?;
                book.origin = format!("{file} (compiled in)");
                return Ok(Some(book));
            }
        }
        Ok(None)
    }

    /// The book in the file `path`, which must be made for `rules` where given; the
    /// message names the file.
    pub fn read_file(path: &Path, rules: Option<&Rules>) -> Result<Book, String> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read the book {}: {e}", path.display()))?;
        let mut book =
            format::read(&text, rules).map_err(|e| format!("{}: {e}", path.display()))?;
        book.origin = path.display().to_string();
        Ok(book)
    }

    /// The rules the book was made for.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// Where the book came from, for messages (a file, or a file compiled in).
    pub fn origin(&self) -> &str {
        &self.origin
    }

    /// The header field `key` (`turns`, `limits`, `command`, `commit`, `built`), if any.
    pub fn about(&self, key: &str) -> Option<&str> {
        self.about
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// Every header field after the rules, in order.
    pub fn fields(&self) -> &[(String, String)] {
        &self.about
    }

    /// Every entry, in the book's order.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// The number of positions in the book.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True when the book holds no position.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The entry of `pos`, if the book holds it.
    pub fn lookup(&self, pos: &Position) -> Option<&Entry> {
        self.index.get(&pos.to_string()).map(|&k| &self.entries[k])
    }

    /// Every whole first turn of the mover in `pos` with what the book knows of the
    /// position after it, best first for the mover (by evaluation, then lower bound, then
    /// bin order); `None` unless the book holds every one of them (a turn that ends the
    /// game needs no entry: its value is its score, exact).
    pub fn first_turns(&self, game: &Game, pos: &Position) -> Option<Vec<BookTurn>> {
        let steps = first_steps(game, pos, Offer::AfterTurn);
        if steps.is_empty() {
            return None;
        }
        let mut turns = steps
            .into_iter()
            .map(|step| {
                let (eval, lower, upper, depth) = match step.after.is_over() {
                    true => {
                        let v = step.after.score();
                        (v, v, v, 0)
                    }
                    false => {
                        let e = self.lookup(&step.after)?;
                        (e.eval, e.lower, e.upper, e.depth)
                    }
                };
                Some(BookTurn {
                    step,
                    eval,
                    lower,
                    upper,
                    depth,
                })
            })
            .collect::<Option<Vec<_>>>()?;
        let sign = pos.side_to_move().sign();
        turns.sort_by_key(|t| (-sign * t.eval, -t.lower_for(sign)));
        Some(turns)
    }
}

/// A first turn with what the book knows of the position after it (values from South).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookTurn {
    /// The turn and the position it leads to.
    pub step: Step,
    /// The evaluation after the turn, from South (exact when the interval has closed).
    pub eval: i32,
    /// Proven lower bound of the value after the turn, from South.
    pub lower: i32,
    /// Proven upper bound of the value after the turn, from South.
    pub upper: i32,
    /// The depth of the book's search behind it, in sowings (0: the turn ends the game).
    pub depth: u8,
}

impl BookTurn {
    /// True when the value after the turn is proved.
    pub fn is_exact(&self) -> bool {
        self.lower == self.upper
    }

    /// The proven lower bound for the player of sign `sign` (1 South, -1 North).
    fn lower_for(&self, sign: i32) -> i32 {
        match sign {
            1 => self.lower,
            _ => -self.upper,
        }
    }

    /// The pie rule's decision after this turn (docs/rules.md §3.6: North swaps exactly
    /// when the value is positive for the player who made it), from the book's
    /// evaluation, and whether the book proves it: the whole interval on one side of 0.
    pub fn pie(&self) -> (crate::PieDecision, bool) {
        let sign = self.step.turn.side.sign();
        let (lo, hi) = match sign {
            1 => (self.lower, self.upper),
            _ => (-self.upper, -self.lower),
        };
        let decision = crate::decide(sign * self.eval);
        let proven = lo > 0 || hi <= 0;
        (decision, proven)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_turns_come_from_a_book_named_or_where_solving_is_slow() {
        let small = Game::new(Rules::kalah(6, 4)).unwrap();
        let large = Game::new(Rules::kalah(6, 6)).unwrap();
        assert!(!answers_first_turns(false, false, &small, &small.start()));
        assert!(answers_first_turns(true, false, &small, &small.start()));
        assert!(answers_first_turns(false, false, &large, &large.start()));
        assert!(!answers_first_turns(false, true, &large, &large.start()));
        assert!(answers_first_turns(true, true, &large, &large.start()));
    }
}
