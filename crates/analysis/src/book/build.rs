//! Making a book: every position where one of the first `turns` turns is to be chosen,
//! each analysed within the same limits ([`Solver::analyse_lines`], one line: the best
//! turn and its value, exact where the proof closes in time), with the entries kept in a
//! partial file as they come so that an interrupted build goes on where it stopped.

use std::collections::{HashMap, HashSet};
use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};

use kalah_core::{Game, Position, Rules};
use kalah_io::{read_regular, replace, seal, unseal, Header};
use kalah_solver::{line, Limits, Solver};

use super::format::{entry_line, parse_entry};
use super::Entry;
use crate::game::turns::{first_steps, Offer};
use crate::game::AnalysisError;

/// The most turns a book covers (`kalah book build --turns`): Kalah(6,6)'s positions
/// grow about sixfold a turn, so 8 turns are already millions of analyses.
pub const MAX_TURNS: u32 = 8;

/// Every position where one of the first `turns` whole turns from `start` is to be
/// chosen (after 0, 1, ..., `turns - 1` turns; a turn with extra sowings counts once),
/// each once however many lines reach it, by turns and then in bin order; positions
/// where the game is over are left out.
pub fn positions(game: &Game, start: &Position, turns: u32) -> Vec<Position> {
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    let mut level = Vec::new();
    if !start.is_over() && turns > 0 {
        seen.insert(*start);
        level.push(*start);
    }
    for t in 0..turns {
        out.extend_from_slice(&level);
        if t + 1 == turns {
            break;
        }
        let mut next = Vec::new();
        for p in &level {
            for step in first_steps(game, p, Offer::AfterTurn) {
                if !step.after.is_over() && seen.insert(step.after) {
                    next.push(step.after);
                }
            }
        }
        level = next;
    }
    out
}

/// The book's entry for `pos`: the best turn of an analysis within `limits` (one line
/// evaluated in full, as the engine plays) and what it proved. `None` where `cancel` was
/// raised: an analysis cut short is not one to the book's limits, and is not kept. An
/// exact answer is kept only with a line that replays to its value.
pub fn analyse_position(
    solver: &Solver,
    pos: &Position,
    limits: &Limits,
    cancel: &AtomicBool,
) -> Result<Option<Entry>, AnalysisError> {
    let a = solver.analyse_lines(pos, limits, 1, cancel, &mut |_| {})?;
    if cancel.load(Relaxed) {
        return Ok(None);
    }
    let (lower, upper) = a.bounds_from_south();
    if a.is_exact() {
        line::replay(solver.game(), pos, &a.pv, lower)?;
    }
    let Some(best_turn) = a.best_turn().cloned() else {
        return Ok(None);
    };
    Ok(Some(Entry {
        position: *pos,
        best_turn,
        eval: a.eval_from_south(),
        lower,
        upper,
        depth: a.depth,
        claim: None,
    }))
}

/// The header of the partial file of a book of `rules` from `start` to `turns` turns
/// within `limits` (its words, `time 2 s` ...): a file of another build is refused.
pub fn partial_header(rules: &Rules, start: &Position, turns: u32, limits: &str) -> Header {
    Header::new(
        "book-partial",
        &[
            ("rules", rules.to_string()),
            ("start", start.to_string()),
            ("turns", turns.to_string()),
            ("limits", limits.to_string()),
        ],
    )
}

/// The line `kalah book build` ends with: the `positions` within `turns` turns written
/// to `file`, how many of them are `exact`, the build's limits in words
/// ([`limits_text`]), and how many `seconds` it took.
pub fn written_line(
    positions: usize,
    turns: u32,
    file: &Path,
    exact: usize,
    limits: &str,
    seconds: f64,
) -> String {
    format!(
        "{positions} positions within {turns} turns written to {} ({exact} exact, {limits}, \
         {seconds:.1} s)",
        file.display()
    )
}

/// The limits of a build in words, as its header and the book's say them.
pub fn limits_text(limits: &Limits) -> String {
    let mut parts = Vec::new();
    if let Some(t) = limits.time {
        parts.push(format!("time {} s", t.as_secs_f64()));
    }
    if let Some(n) = limits.nodes {
        parts.push(format!("nodes {n}"));
    }
    if let Some(d) = limits.depth {
        parts.push(format!("depth {d}"));
    }
    if parts.is_empty() {
        "none (every position solved exactly)".to_string()
    } else {
        parts.join(", ") + " a position"
    }
}

/// Why a partial file could not be read or written.
#[derive(Debug)]
pub enum PartialError {
    /// Reading or writing the file failed.
    Io {
        /// The partial file.
        path: PathBuf,
        /// What went wrong.
        error: io::Error,
    },
    /// The file holds no work this build may go on from.
    Refused {
        /// The partial file.
        path: PathBuf,
        /// Why, as a phrase after the file's name.
        why: String,
    },
}

impl std::fmt::Display for PartialError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PartialError::Io { path, error } => write!(f, "{}: {error}", path.display()),
            PartialError::Refused { path, why } => write!(
                f,
                "{} {why}: remove it to start afresh, or run the build that wrote it",
                path.display()
            ),
        }
    }
}

impl std::error::Error for PartialError {}

/// The entries an interrupted build kept.
#[derive(Clone, Debug, Default)]
pub struct Kept {
    /// The entries, by position.
    pub entries: HashMap<Position, Entry>,
    /// Records that failed their check or did not read as entries (analysed again).
    pub damaged: usize,
}

impl Kept {
    /// The kept entries of the positions of `todo`, in its order.
    pub fn of<'a>(&'a self, todo: &[Position]) -> Vec<&'a Entry> {
        todo.iter().filter_map(|p| self.entries.get(p)).collect()
    }

    /// The warning for the records of the partial file that failed their check, if any.
    pub fn damaged_warning(&self) -> Option<String> {
        (self.damaged > 0).then(|| {
            format!(
                "warning: {} entries of the partial file failed their check and are analysed \
                 again",
                self.damaged
            )
        })
    }
}

/// The line a build that goes on from `kept` entries of the partial file at `partial`
/// starts with (none when it keeps none).
pub fn resuming_line(kept: usize, partial: Option<&Path>) -> Option<String> {
    (kept > 0).then(|| {
        format!(
            "resuming: {kept} entries kept in {}",
            partial.map_or("".into(), |p| p.display().to_string())
        )
    })
}

/// What an interrupted build keeps, in words: the entries made so far, in the partial
/// file at `partial` (none where the output has no partial file beside it).
pub fn kept_words(partial: Option<&Path>) -> String {
    format!(
        "the entries made so far are kept in {}; run the same command again to go on",
        partial.map_or("(nowhere)".into(), |p| p.display().to_string())
    )
}

/// The entries kept at `path` by an interrupted build of `header` for `game`: none when
/// there is no file or it is empty; a file of another build (or with a damaged header)
/// is refused, saying what differs.
pub fn load_partial(game: &Game, path: &Path, header: &Header) -> Result<Kept, PartialError> {
    let io_error = |error| PartialError::Io {
        path: path.to_path_buf(),
        error,
    };
    let refuse = |why: String| PartialError::Refused {
        path: path.to_path_buf(),
        why,
    };
    let bytes = match read_regular(path).map_err(io_error)? {
        Some(b) if !b.is_empty() => b,
        _ => return Ok(Kept::default()),
    };
    let text = String::from_utf8_lossy(&bytes);
    let mut lines = text.split('\n');
    header
        .resumes(lines.next().unwrap_or(""), "kalah book build", "build")
        .map_err(refuse)?;
    let records: Vec<&str> = lines.collect();
    // The last piece is empty after a final line break, or a line a kill cut short.
    let whole = records.split_last().map_or(&[][..], |(_, whole)| whole);
    let mut kept = Kept::default();
    for line in whole {
        match unseal(line).and_then(|r| parse_entry(game, r).ok()) {
            Some(e) => {
                kept.entries.insert(e.position, e);
            }
            None => kept.damaged += 1,
        }
    }
    Ok(kept)
}

/// The partial file of a running build, taking each entry as it is made.
#[derive(Debug)]
pub struct Partial {
    path: PathBuf,
    file: File,
    houses: usize,
}

impl Partial {
    /// Rewrites `path` with `header` and the `kept` entries, and opens it to add the
    /// entries made from now on.
    pub fn start(
        path: &Path,
        header: &Header,
        houses: usize,
        kept: &[&Entry],
    ) -> Result<Partial, PartialError> {
        let io_error = |error| PartialError::Io {
            path: path.to_path_buf(),
            error,
        };
        let mut text = header.line() + "\n";
        for e in kept {
            text.push_str(&seal(&entry_line(houses, e)));
            text.push('\n');
        }
        replace(path, text.as_bytes()).map_err(io_error)?;
        let file = OpenOptions::new()
            .append(true)
            .open(path)
            .map_err(io_error)?;
        Ok(Partial {
            path: path.to_path_buf(),
            file,
            houses,
        })
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Adds `e`, in one write, so that a kill leaves whole records and at most one cut
    /// short.
    pub fn add(&mut self, e: &Entry) -> Result<(), PartialError> {
        let record = seal(&entry_line(self.houses, e)) + "\n";
        self.file
            .write_all(record.as_bytes())
            .map_err(|error| PartialError::Io {
                path: self.path.clone(),
                error,
            })
    }
}

/// Analyses every position of `todo` not in `kept` within `limits`, in order, calling
/// `on_entry` with each new entry (`false`) or kept one (`true`) as it comes; returns the
/// entries in the order of `todo`. Stops with [`AnalysisError::Cancelled`] when `cancel`
/// is raised (the entries made so far have been given to `on_entry`), or with the first
/// error `on_entry` returns.
pub fn build<E: From<AnalysisError>>(
    solver: &Solver,
    todo: &[Position],
    limits: &Limits,
    kept: &HashMap<Position, Entry>,
    cancel: &AtomicBool,
    on_entry: &mut dyn FnMut(&Entry, bool) -> Result<(), E>,
) -> Result<Vec<Entry>, E> {
    let mut entries = Vec::with_capacity(todo.len());
    let fresh_table = deterministic(solver, limits);
    for pos in todo {
        if let Some(e) = kept.get(pos) {
            on_entry(e, true)?;
            entries.push(e.clone());
            continue;
        }
        if fresh_table {
            solver.clear_table();
        }
        match analyse_position(solver, pos, limits, cancel)? {
            Some(e) => {
                on_entry(&e, false)?;
                entries.push(e);
            }
            None if cancel.load(Relaxed) => return Err(AnalysisError::Cancelled.into()),
            None => {}
        }
    }
    Ok(entries)
}

/// Whether the analyses of `solver` within `limits` are promised the same run after run
/// (one thread, no time limit), each then started on an empty table
/// ([`Solver::clear_table`]): what one position's analysis finds would otherwise depend on
/// the positions analysed before it in the same process, so a resumed run, which starts
/// from a fresh table, would differ in lines, best turns and intervals.
pub fn deterministic(solver: &Solver, limits: &Limits) -> bool {
    solver.config().threads == 1 && limits.time.is_none()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_resumed_build_says_what_it_kept_and_where() {
        let path = Path::new("b.book.partial");
        assert_eq!(resuming_line(0, Some(path)), None);
        assert_eq!(
            resuming_line(3, Some(path)).as_deref(),
            Some("resuming: 3 entries kept in b.book.partial")
        );
        assert_eq!(
            kept_words(None),
            "the entries made so far are kept in (nowhere); run the same command again to go on"
        );
        let kept = Kept::default();
        assert_eq!(kept.damaged_warning(), None);
        let kept = Kept {
            damaged: 2,
            ..Kept::default()
        };
        assert_eq!(
            kept.damaged_warning().as_deref(),
            Some(
                "warning: 2 entries of the partial file failed their check and are analysed again"
            )
        );
    }

    #[test]
    fn the_closing_line_says_what_was_written_and_how() {
        let limits = limits_text(&Limits::none());
        assert_eq!(
            written_line(9, 2, Path::new("b.book"), 9, &limits, 1.04),
            "9 positions within 2 turns written to b.book (9 exact, none (every position \
             solved exactly), 1.0 s)"
        );
    }
}
