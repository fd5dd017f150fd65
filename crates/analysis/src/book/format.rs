//! The opening book's text format, written and read in one place (docs/book.md): a
//! header of `# key value` lines naming the rules and how the book was made, then one
//! line per position.
//!
//! ```text
//! # kalah opening book v1
//! # rules Kalah(6,6) capture=standard end=row-empty leftovers=owner
//! # turns 2
//! # columns position best_turn eval lower upper exact|heuristic depth (values from South)
//! 6,6,6,6,6,6,0,6,6,6,6,6,6,0:S 1-2 +4 -70 +72 heuristic 14
//! ```
//!
//! Values are final store margins **from South** (South's store minus North's under
//! perfect play): `eval` the evaluation (heuristic unless exact), `lower..=upper` the
//! interval proved to hold the exact value; `exact` exactly when they meet, and then
//! `eval` is the value. `depth` is the deepest completed search behind the line, in
//! sowings. Every line is checked as it is read: the turn must be legal in its position,
//! the interval must hold the evaluation, and the word must say whether it is closed.

use std::collections::HashSet;
use std::fmt;

use kalah_core::{notation, Game, Position, Rules};
use kalah_solver::line::Turn;

use super::{Book, Entry};
use crate::game::bounds::signed;

/// The first line of every book file (the format's name and version).
pub const MAGIC: &str = "# kalah opening book v1";

/// The header line that names the columns.
pub const COLUMNS: &str =
    "position best_turn eval lower upper exact|heuristic depth (values from South)";

/// Why a book file could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BookError {
    /// The first line is not [`MAGIC`]: not a book, or a format this version does not read.
    NotABook,
    /// The header names no rules, or rules that cannot be read.
    Rules(String),
    /// The book was made for other rules than the ones asked for.
    OtherRules {
        /// The rules asked for.
        wanted: String,
        /// The rules the book names.
        found: String,
    },
    /// A line that is not a valid entry, with its 1-based number and why.
    Line {
        /// The line's number in the file.
        line: usize,
        /// What is wrong with it.
        why: String,
    },
}

impl fmt::Display for BookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BookError::NotABook => write!(
                f,
                "not an opening book: the first line is not `{MAGIC}` (a book is made by \
                 `kalah book build`)"
            ),
            BookError::Rules(why) => write!(f, "the book's header: {why}"),
            BookError::OtherRules { wanted, found } => write!(
                f,
                "the book was made for {found}, not for the rules asked for, {wanted}"
            ),
            BookError::Line { line, why } => write!(f, "line {line}: {why}"),
        }
    }
}

impl std::error::Error for BookError {}

/// One entry as a line of the book, without its line break.
pub fn entry_line(houses: usize, e: &Entry) -> String {
    let (lower, upper) = e.book_bounds();
    format!(
        "{} {} {} {} {} {} {}",
        e.position,
        e.best_turn.notation(houses),
        signed(e.eval),
        signed(lower),
        signed(upper),
        if e.book_exact() { "exact" } else { "heuristic" },
        e.depth
    )
}

/// Reads one entry line of a book of `game`; the reason as a phrase where it is not one.
pub fn parse_entry(game: &Game, line: &str) -> Result<Entry, String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let [pos, turn, eval, lower, upper, kind, depth] = words[..] else {
        return Err(format!(
            "expected 7 fields ({COLUMNS}), found {}",
            words.len()
        ));
    };
    let position: Position = pos.parse().map_err(|e| format!("position `{pos}`: {e}"))?;
    if position.houses_per_side() != game.houses()
        || position.total_seeds() as usize > game.capacity()
    {
        return Err(format!("position `{pos}` does not fit the book's rules"));
    }
    // Over under the book's rules too: an empty row under `end=row-empty`, a mover with
    // no legal turn, a majority with an early stop.
    if position.is_over() || game.settle(position).is_ok_and(|p| p.is_over()) {
        return Err(format!(
            "position `{pos}` is over under the book's rules: it has no turn to play"
        ));
    }
    let (after, sowings) = notation::play_moves(game, position, turn)
        .map_err(|e| format!("best turn `{turn}` in {pos}: {e}"))?;
    if after.side_to_move() == position.side_to_move() && !after.is_over() {
        return Err(format!(
            "best turn `{turn}` in {pos} is not a whole turn (its last sowing earns another)"
        ));
    }
    // One sign at most (`+4`, `-4`, `4`, `0`), as the writer puts it: `++4` is refused.
    let number = |name: &str, w: &str| -> Result<i32, String> {
        w.parse::<i32>()
            .map_err(|_| format!("{name} `{w}` is not a whole number"))
    };
    let (eval, lower, upper) = (
        number("eval", eval)?,
        number("lower", lower)?,
        number("upper", upper)?,
    );
    if !(lower <= eval && eval <= upper) {
        return Err(format!(
            "the evaluation {eval} lies outside the proven interval {lower}..{upper}"
        ));
    }
    let (least, most) = crate::game::bounds::reach(&position);
    if lower < least || upper > most {
        return Err(format!(
            "the interval {}..{} goes beyond what the seeds of {pos} allow, {}..{} (its \
             score give or take every seed in its houses)",
            signed(lower),
            signed(upper),
            signed(least),
            signed(most)
        ));
    }
    let exact = match kind {
        "exact" => true,
        "heuristic" => false,
        w => return Err(format!("expected `exact` or `heuristic`, not `{w}`")),
    };
    if exact != (lower == upper) {
        return Err(format!(
            "`{kind}` does not fit the interval {lower}..{upper} (exact exactly when they meet)"
        ));
    }
    let depth = depth
        .parse::<u8>()
        .map_err(|_| format!("depth `{depth}` is not a number of sowings"))?;
    Ok(Entry {
        position,
        best_turn: Turn {
            side: position.side_to_move(),
            sowings,
        },
        eval,
        lower,
        upper,
        depth,
        claim: None,
    })
}

/// The whole book as text: [`MAGIC`], `rules`, the other header fields in order, the
/// columns, then the entries in the book's order.
pub fn write(book: &Book) -> String {
    let mut text = format!("{MAGIC}\n# rules {}\n", book.rules);
    for (k, v) in &book.about {
        text.push_str(&format!("# {k} {}\n", v.replace('\n', " ")));
    }
    text.push_str(&format!("# columns {COLUMNS}\n"));
    let houses = book.rules.houses as usize;
    for e in &book.entries {
        text.push_str(&entry_line(houses, e));
        text.push('\n');
    }
    text
}

/// Reads a book written by [`write()`]; `wanted`, if given, must be the rules it names.
/// The header's `start`, `turns` and `positions` must fit the entries.
pub fn read(text: &str, wanted: Option<&Rules>) -> Result<Book, BookError> {
    read_numbered(text, wanted).map(|(book, _)| book)
}

/// [`read()`], with the line (1-based) of each entry.
pub(crate) fn read_numbered(
    text: &str,
    wanted: Option<&Rules>,
) -> Result<(Book, Vec<usize>), BookError> {
    let mut numbers = Vec::new();
    let mut lines = text.lines().enumerate();
    match lines.next() {
        Some((_, first)) if first.trim_end() == MAGIC => {}
        _ => return Err(BookError::NotABook),
    }
    let mut rules: Option<Rules> = None;
    let mut about = Vec::new();
    let mut entries = Vec::new();
    let mut game = None;
    let mut seen = HashSet::new();
    for (k, line) in lines {
        let line = line.trim_end();
        if let Some(field) = line.strip_prefix('#') {
            if !entries.is_empty() {
                return Err(BookError::Line {
                    line: k + 1,
                    why: "a header line after the entries".into(),
                });
            }
            let (key, value) = field.trim().split_once(' ').unwrap_or((field.trim(), ""));
            match key {
                "rules" => {
                    let r: Rules = value
                        .parse()
                        .map_err(|e| BookError::Rules(format!("rules `{value}`: {e}")))?;
                    if let Some(w) = wanted.filter(|w| **w != r) {
                        return Err(BookError::OtherRules {
                            wanted: w.to_string(),
                            found: r.to_string(),
                        });
                    }
                    let g = Game::new(r)
                        .map_err(|e| BookError::Rules(format!("rules `{value}`: {e}")))?;
                    rules = Some(r);
                    game = Some(g);
                }
                "columns" => {}
                _ => about.push((key.to_string(), value.to_string())),
            }
            continue;
        }
        if line.is_empty() {
            continue;
        }
        let Some(game) = &game else {
            return Err(BookError::Rules(
                "no `# rules` line before the first entry".into(),
            ));
        };
        let entry = parse_entry(game, line).map_err(|why| BookError::Line { line: k + 1, why })?;
        if !seen.insert(entry.position.to_string()) {
            return Err(BookError::Line {
                line: k + 1,
                why: format!("position {} is in the book twice", entry.position),
            });
        }
        entries.push(entry);
        numbers.push(k + 1);
    }
    let rules = rules.ok_or_else(|| BookError::Rules("no `# rules` line".into()))?;
    let game = game.expect("made with the rules");
    super::check_header(&game, &about, &entries, &numbers)?;
    Ok((Book::new(rules, about, entries), numbers))
}
