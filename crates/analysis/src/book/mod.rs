//! The opening book (docs/book.md): for every position of the first few turns of a
//! game, the best turn and its value found by an analysis far deeper than a move's
//! budget, with the interval proved to hold the exact value. [`build`] makes one
//! (resumable; [`about`] says how in its header), [`mod@format`] writes and reads its text, and [`Book`] answers lookups:
//! the engine, `kalah play`, `analyse`, `openings` and `pie` consult it and say so.
//!
//! A book value is a heuristic evaluation unless its interval has closed
//! ([`Entry::is_exact`]): only then is it the exact value. Values are **from South**.
//!
//! A book file the user names is a set of claims: [`Book::read_file`] proves each entry
//! of a small position again ([`REPROVE_SEEDS`]), refusing the book where a claim is
//! wrong, and keeps every other entry as the book's claim ([`Entry::claim`]): its proven
//! interval is then only what the position's seeds allow, so nothing it says is called
//! exact. The compiled-in books ([`Book::shipped`]) are checked by the project and keep
//! their labels.
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

use std::collections::{HashMap, HashSet};
use std::fmt;
use std::path::Path;

use kalah_core::{Game, Position, Rules, Side};
use kalah_solver::line::Turn;

use crate::game::bounds::{reach, signed, Bounds};
use crate::game::turns::{first_steps, Offer, Step};
pub use format::BookError;

/// Whether the first turns of `pos` are read from an opening book rather than solved
/// (`kalah openings`, `kalah pie`): always from a book the user named (`named`); from the
/// compiled-in book only where the exact solve is not quick
/// ([`crate::game::quick::solves_quickly`]) and no time limit asks for an analysis instead
/// (`timed`).
pub fn answers_first_turns(named: bool, timed: bool, game: &Game, pos: &Position) -> bool {
    named || !(timed || crate::game::quick::solves_quickly(game, pos))
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
    /// The book's own interval (from South), where it is not proven here: the entry of a
    /// book file the user named whose position is too large to prove again when the book
    /// is read ([`REPROVE_SEEDS`]). [`Entry::lower`] and [`Entry::upper`] are then what
    /// the position's seeds allow ([`crate::game::bounds::reach`]), and `eval` is the book's
    /// evaluation, never an exact value. `None` where the interval is proven: the books
    /// compiled in, the entries of a build, and those proved again.
    pub claim: Option<Bounds>,
}

impl Entry {
    /// True when the proven interval has closed: [`Entry::eval`] is the exact value.
    pub fn is_exact(&self) -> bool {
        self.lower == self.upper
    }

    /// The book's interval as the book states it: [`Entry::claim`] where it is not proven
    /// here, else the proven one.
    pub fn book_bounds(&self) -> Bounds {
        self.claim.unwrap_or((self.lower, self.upper))
    }

    /// True when the book says the value is exact (its own interval closed), proven here
    /// or not: [`Entry::is_exact`] says whether it is proven.
    pub fn book_exact(&self) -> bool {
        let (lo, hi) = self.book_bounds();
        lo == hi
    }

    /// The entry kept as the book's claim, not proven here ([`Entry::claim`]): its proven
    /// interval becomes what the position's seeds allow.
    fn into_claim(mut self) -> Entry {
        if self.claim.is_none() {
            self.claim = Some((self.lower, self.upper));
            (self.lower, self.upper) = reach(&self.position);
        }
        self
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
    /// proven -70..+72`, or `book depth 0: exact +2 from South`; an entry not proven here
    /// ([`Entry::claim`]) says `exact per the book` (or `heuristic`) with the book's
    /// interval, then the interval proven here.
    pub fn describe(&self) -> String {
        let value = match (self.claim, self.is_exact()) {
            (Some((lo, hi)), _) => format!(
                "{} {} from South per the book, not proven here ({}; proven {}..{})",
                if lo == hi { "exact" } else { "heuristic" },
                signed(self.eval),
                match lo == hi {
                    true => "the book's claim".to_string(),
                    false => format!("the book's interval {}..{}", signed(lo), signed(hi)),
                },
                signed(self.lower),
                signed(self.upper)
            ),
            (None, true) => format!("exact {} from South", signed(self.eval)),
            (None, false) => format!(
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

/// The most seeds in the houses of a position whose entry in a book file the user names
/// is proved again when the book is read ([`Book::read_file`]); a larger one is kept as
/// the book's claim ([`Entry::claim`]). 32 is Kalah(4,4)'s start: measured on the 2-core
/// development machine (one thread, a 16 MB table), its exact solve takes 0.05 s of a
/// core and every smaller position less (Kalah(4,3)'s start 0.02 s), while 40 seeds
/// (Kalah(5,4)) take 0.5 s, too much for each of a book's hundreds of entries. Families
/// whose positions repeat are solved whole ([`crate::game::quick::PERFECT_SEEDS_CYCLIC`]): their
/// entries are never proved again.
pub const REPROVE_SEEDS: u32 = 32;

/// The largest book file read (64 MiB): about a million entries of a six-house board at
/// some 60 bytes each, far more than a build of 8 turns makes in any reasonable time,
/// while `/dev/zero` or a stray huge file is refused before it fills the memory.
pub const MAX_BOOK_BYTES: u64 = 64 << 20;

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
    /// message names the file. Only a regular file of at most [`MAX_BOOK_BYTES`] is read,
    /// and its open never blocks ([`kalah_io::read_regular_bounded`]: a FIFO or a device is
    /// refused at once). Its values are claims: each entry of a small position is proved
    /// again ([`REPROVE_SEEDS`]) and the book refused, naming the line, where the claim
    /// is wrong; every other entry is kept as the book's claim ([`Entry::claim`]).
    pub fn read_file(path: &Path, rules: Option<&Rules>) -> Result<Book, String> {
        let at = |e: &dyn fmt::Display| format!("cannot read the book {}: {e}", path.display());
        let bytes = kalah_io::read_regular_bounded(path, MAX_BOOK_BYTES).map_err(|e| at(&e))?;
        let text = String::from_utf8(bytes).map_err(|_| at(&"it is not UTF-8 text"))?;
        let inside = |e: BookError| format!("{}: {e}", path.display());
        let (mut book, lines) = format::read_numbered(&text, rules).map_err(inside)?;
        book.prove_claims(&lines).map_err(inside)?;
        book.origin = path.display().to_string();
        Ok(book)
    }

    /// Proves again the entry of every position of at most [`REPROVE_SEEDS`] seeds in its
    /// houses (the exact value must lie in the book's interval; `lines`: each entry's
    /// line in the file, for the message), and keeps every other entry as the book's
    /// claim.
    fn prove_claims(&mut self, lines: &[usize]) -> Result<(), BookError> {
        let game = Game::new(self.rules).map_err(|e| BookError::Rules(e.to_string()))?;
        let cyclic = self.rules.family.is_cyclic();
        let mut solver = None;
        let cancel = std::sync::atomic::AtomicBool::new(false);
        for (k, entry) in std::mem::take(&mut self.entries).into_iter().enumerate() {
            let pos = entry.position;
            if cyclic || pos.seeds_in_houses() > REPROVE_SEEDS {
                self.entries.push(entry.into_claim());
                continue;
            }
            if solver.is_none() {
                let config = kalah_solver::Config {
                    threads: 1,
                    hash_mb: 16,
                    ..kalah_solver::Config::default()
                };
                let made = kalah_solver::Solver::new(game.clone(), config)
                    .map_err(|e| BookError::Rules(format!("no solver to check it: {e}")))?;
                solver = Some(made);
            }
            let solver = solver.as_ref().expect("made above");
            let value = solver
                .value(&pos, &cancel)
                .map_err(|e| BookError::Rules(format!("no solver to check it: {e}")))?;
            let value = pos.side_to_move().sign() * value;
            if !(entry.lower <= value && value <= entry.upper) {
                let claim = match entry.is_exact() {
                    true => format!("the exact value {}", signed(entry.eval)),
                    false => format!(
                        "a value in {}..{}",
                        signed(entry.lower),
                        signed(entry.upper)
                    ),
                };
                return Err(BookError::Line {
                    line: lines.get(k).copied().unwrap_or(0),
                    why: format!(
                        "the book claims {claim} from South for {pos}, but its value is {} \
                         (proved on reading: a position of at most {REPROVE_SEEDS} seeds in \
                         its houses is solved again)",
                        signed(value)
                    ),
                });
            }
            self.entries.push(entry);
        }
        Ok(())
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
                let (eval, lower, upper, depth, claim) = match step.after.is_over() {
                    true => {
                        let v = step.after.score();
                        (v, v, v, 0, None)
                    }
                    false => {
                        let e = self.lookup(&step.after)?;
                        (e.eval, e.lower, e.upper, e.depth, e.claim)
                    }
                };
                Some(BookTurn {
                    step,
                    eval,
                    lower,
                    upper,
                    depth,
                    claim,
                })
            })
            .collect::<Option<Vec<_>>>()?;
        let sign = pos.side_to_move().sign();
        // A claim never ranks above a turn whose value is proven.
        let proven = turns.iter().any(BookTurn::is_exact);
        turns.sort_by_key(|t| {
            (
                proven && t.claim.is_some(),
                -sign * t.eval,
                -t.lower_for(sign),
            )
        });
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
    /// The book's own interval after the turn where it is not proven here
    /// ([`Entry::claim`]): `lower` and `upper` are then what the seeds allow.
    pub claim: Option<Bounds>,
}

impl BookTurn {
    /// True when the value after the turn is proved.
    pub fn is_exact(&self) -> bool {
        self.lower == self.upper
    }

    /// The book's interval after the turn as the book states it ([`Entry::book_bounds`]).
    pub fn book_bounds(&self) -> Bounds {
        self.claim.unwrap_or((self.lower, self.upper))
    }

    /// True when the book says the value after the turn is exact, proven here or not.
    pub fn book_exact(&self) -> bool {
        let (lo, hi) = self.book_bounds();
        lo == hi
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
    pub fn pie(&self) -> (crate::game::pie::PieDecision, bool) {
        let sign = self.step.turn.side.sign();
        let (lo, hi) = match sign {
            1 => (self.lower, self.upper),
            _ => (-self.upper, -self.lower),
        };
        let decision = crate::game::pie::decide(sign * self.eval);
        let proven = lo > 0 || hi <= 0;
        (decision, proven)
    }
}

/// The header's value of `key`, if the book has the field.
fn field<'a>(about: &'a [(String, String)], key: &str) -> Option<&'a str> {
    about
        .iter()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v.as_str())
}

/// Checks the header fields that describe the entries ([`about`]), each where the
/// book has it: `positions N (M exact)` counts the entries and those marked exact;
/// `start` is a position of the book's rules, in the book unless the book is empty;
/// `turns T` (1 to 8) bounds the entries: each is reached from `start` in fewer than `T`
/// whole turns (with `start`, every position so reached is enumerated, as the build
/// does). Not checked: that the book holds every position so reached (a hand-made book
/// may hold fewer), and the fields that only say how the book was made.
pub(crate) fn check_header(
    game: &Game,
    about: &[(String, String)],
    entries: &[Entry],
    numbers: &[usize],
) -> Result<(), BookError> {
    let header = |why: String| BookError::Rules(why);
    if let Some(v) = field(about, "positions") {
        let (count, rest) = v.split_once(' ').unwrap_or((v, ""));
        let count: usize = count
            .parse()
            .map_err(|_| header(format!("`positions {v}` does not start with a number")))?;
        if count != entries.len() {
            return Err(header(format!(
                "`positions {v}` but the book holds {} entries",
                entries.len()
            )));
        }
        let exact = entries.iter().filter(|e| e.book_exact()).count();
        if let Some(n) = rest
            .strip_prefix('(')
            .and_then(|r| r.strip_suffix(" exact)"))
        {
            if n.parse::<usize>() != Ok(exact) {
                return Err(header(format!(
                    "`positions {v}` but {exact} of its entries are exact"
                )));
            }
        }
    }
    let turns = match field(about, "turns") {
        Some(v) => match v.parse::<u32>() {
            Ok(t) if (1..=build::MAX_TURNS).contains(&t) => Some(t),
            _ => {
                return Err(header(format!(
                    "`turns {v}` is not a number of turns from 1 to {}",
                    build::MAX_TURNS
                )))
            }
        },
        None => None,
    };
    let Some(v) = field(about, "start") else {
        return Ok(());
    };
    let start: Position = v.parse().map_err(|e| header(format!("`start {v}`: {e}")))?;
    let start = match game.settle(start) {
        Ok(p) if p == start && !p.is_over() => start,
        Ok(_) => {
            return Err(header(format!(
                "`start {v}` is over under the book's rules"
            )))
        }
        Err(e) => return Err(header(format!("`start {v}` does not fit the rules: {e}"))),
    };
    if !entries.is_empty() && !entries.iter().any(|e| e.position == start) {
        return Err(header(format!(
            "`start {v}` is not one of the book's positions"
        )));
    }
    let Some(turns) = turns else {
        return Ok(());
    };
    // Every position where one of the first `turns` turns is chosen, as the build makes.
    let reached: HashSet<Position> = build::positions(game, &start, turns).into_iter().collect();
    for (e, line) in entries.iter().zip(numbers) {
        if !reached.contains(&e.position) {
            return Err(BookError::Line {
                line: *line,
                why: format!(
                    "position {} is not reached from the book's start {start} within its \
                     {turns} turns",
                    e.position
                ),
            });
        }
    }
    Ok(())
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
