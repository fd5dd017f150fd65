//! Many positions solved in parallel, answered in input order.
//!
//! Input is text, one position a line: the board form (`4,4,0,5,5,0,2,5,5,5,5,4,4,0:N`),
//! the move form (`3-6 9`: moves from the start position), or a work unit of a split
//! solve (a JSON object, [`Unit`]: a position with its id, rules and window, answered
//! exactly inside the window and with a bound outside it). `#` starts a comment to the
//! end of the line (outside a work unit); blank and comment-only lines are not positions.
//! A line that cannot be read (not UTF-8 text, not a position) gets an error answer and
//! never stops the batch.
//!
//! [`Lines`] reads the input as it comes (a pipe is answered while it is still being
//! written). [`solve_in_order`] and [`solve_stream_in_order`] hand every answer to a sink
//! in input order, as soon as it and everything before it are done, so a run that is
//! stopped has answered a prefix of its input: the caller can write that prefix and later
//! resume after it ([`resume`]); [`Sharded`] cuts the input into shards for several jobs.
//!
//! With limits ([`solve_stream_within`], `kalah batch --time`) each position is analysed
//! by [`Solver::analyse`] instead of solved: the answer is exact where the analysis proves
//! the value within the limits, else heuristic ([`Bound::Heuristic`]: the evaluation and
//! the proven interval).
//!
//! The command's run over either kind of game is [`BatchRun`] (the output checked,
//! resumed and written), the game chosen once from the options (a [`Board`](crate::game::Board):
//! [`BatchOptions::game`]) and
//! answered behind the trait [`Front`] ([`Sowing`], [`Bao`]); the answer line is
//! [`crate::wire::answer`]'s.

pub mod bao;
mod front;
pub mod kind;
pub mod resume;
mod run;
mod shard;
pub mod sowing;

use std::fmt;
use std::io::{self, BufRead};
use std::sync::atomic::AtomicBool;

use kalah_core::{notation, Game, Position, PositionError, Rules};
use kalah_io::LineReader;
use kalah_solver::line::replay;
use kalah_solver::{Analysis, Limits, SolveError, Solver};

use crate::game::AnalysisError;
use crate::run::pool;
pub use crate::wire::answer::{Answer, Bound};
use crate::wire::unit::Unit;
use crate::wire::FormatError;
pub use bao::{Bao, BaoHow};
pub use front::{answer_stream, Answered, Front};
use kalah_solver::line::ReplayError;
pub use kind::{solves_to_size, BatchGameError, BatchHow, BatchOptions, SOWING_READ_AHEAD};
pub use run::{BatchEnd, BatchError, BatchPaths, BatchRun, BatchTick};
pub use shard::parse_shard;
pub use sowing::Sowing;

/// One position of a batch: the line's text (comment and outer blanks removed) and its
/// 1-based line number.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Item {
    /// 1-based line number in the input.
    pub line: usize,
    /// The text of the position, without comment and outer blanks (for a line that is not
    /// UTF-8, its bytes decoded with U+FFFD for each bad sequence).
    pub input: String,
    /// Whether the line was UTF-8 text; a line that was not is answered with
    /// [`LineError::NotUtf8`].
    pub utf8: bool,
}

impl Item {
    /// The item of line `line` (1-based) with the bytes `bytes`, line break included or
    /// not; `None` for a blank or comment-only line.
    pub fn from_bytes(line: usize, bytes: &[u8]) -> Option<Item> {
        // A work unit is JSON, whose strings may hold a `#`.
        let unit = bytes.trim_ascii_start().starts_with(b"{");
        let text = match unit {
            true => bytes,
            false => bytes.split(|&b| b == b'#').next().unwrap_or(&[]),
        };
        let (input, utf8) = match std::str::from_utf8(text) {
            Ok(s) => (s.to_string(), true),
            Err(_) => (String::from_utf8_lossy(text).into_owned(), false),
        };
        let input = input.trim();
        (!input.is_empty()).then(|| Item {
            line,
            input: input.to_string(),
            utf8,
        })
    }
}

/// The positions of a batch input: every line that is not blank or only a comment.
pub fn items(text: &str) -> Vec<Item> {
    text.lines()
        .enumerate()
        .filter_map(|(i, l)| Item::from_bytes(i + 1, l.as_bytes()))
        .collect()
}

/// The positions of a batch input read as they come, line by line, as bytes: an iterator
/// of [`Item`]s, or the read error that ended the input. A line longer than
/// [`kalah_io::MAX_LINE`] is such an error (naming the line and the limit): it ends the
/// input, so that an endless line (`/dev/zero`) is never read into memory.
pub struct Lines<R> {
    reader: LineReader<R>,
}

impl<R: BufRead> Lines<R> {
    /// Reads the positions of `reader`.
    pub fn new(reader: R) -> Lines<R> {
        Lines {
            reader: LineReader::new(reader),
        }
    }
}

impl<R: BufRead> Iterator for Lines<R> {
    type Item = io::Result<Item>;

    fn next(&mut self) -> Option<io::Result<Item>> {
        loop {
            match self.reader.next_line() {
                Ok(None) => return None,
                Ok(Some(line)) => {
                    if let Some(item) = Item::from_bytes(line.number, line.bytes) {
                        return Some(Ok(item));
                    }
                }
                Err(e) => return Some(Err(e)),
            }
        }
    }
}

/// The items of one shard of a batch: the I-th of the input, then every N-th after it
/// (`shard` is `(I, N)`, 1 <= I <= N; `None` keeps every item), so that N jobs share one
/// input between them. A read error is passed on and not counted.
pub struct Sharded<L> {
    inner: L,
    /// Items read so far.
    seen: usize,
    /// (I, N), or every item.
    shard: Option<(usize, usize)>,
}

impl<L> Sharded<L> {
    /// The shard `shard` of the items of `inner`.
    pub fn new(inner: L, shard: Option<(usize, usize)>) -> Sharded<L> {
        Sharded {
            inner,
            seen: 0,
            shard,
        }
    }
}

impl<L: Iterator<Item = io::Result<Item>>> Iterator for Sharded<L> {
    type Item = io::Result<Item>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            let item = self.inner.next()?;
            let Ok(_) = &item else { return Some(item) };
            let k = self.seen;
            self.seen += 1;
            match self.shard {
                Some((i, n)) if k % n != i - 1 => continue,
                _ => return Some(item),
            }
        }
    }
}

/// The most items read ahead to find the first work unit that can be read
/// ([`first_unit`]).
pub const UNIT_SEARCH: usize = 64;

/// The first work unit of `items` that can be read, whose rules a batch of units takes
/// when no rule options are given, and the items read to find it (to be answered in turn,
/// so each of them is answered: a damaged unit before it is an error for its own line
/// only). The search stops at a line that is not a unit (an input of positions), at a
/// read error, and after [`UNIT_SEARCH`] items.
pub fn first_unit(
    items: &mut dyn Iterator<Item = io::Result<Item>>,
) -> (Vec<io::Result<Item>>, Option<Unit>) {
    let mut read = Vec::new();
    for item in items.take(UNIT_SEARCH) {
        let unit = match &item {
            Ok(i) if i.utf8 && i.input.starts_with('{') => Unit::parse(&i.input).ok(),
            Ok(i) if !i.input.starts_with('{') => {
                read.push(item);
                break;
            }
            Ok(_) => None,
            Err(_) => {
                read.push(item);
                break;
            }
        };
        read.push(item);
        if unit.is_some() {
            return (read, unit);
        }
    }
    (read, None)
}

/// Why a line of a batch has no value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LineError {
    /// The board form could not be read, or does not fit the rules of the batch.
    Board(PositionError),
    /// The move form could not be read or played from the start.
    Moves(PositionError),
    /// The line is not UTF-8 text.
    NotUtf8,
    /// The line is not a work unit that can be read.
    Unit(FormatError),
    /// The work unit is for other rules than the batch's.
    UnitRules {
        /// The unit's rules.
        unit: Rules,
        /// The batch's rules.
        batch: Rules,
    },
    /// A principal variation failed its check: a bug.
    Replay(ReplayError),
}

impl fmt::Display for LineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LineError::Board(e) => write!(f, "bad board: {e}"),
            LineError::Moves(e) => write!(f, "bad moves: {e}"),
            LineError::NotUtf8 => f.write_str("not UTF-8 text: write positions in ASCII"),
            LineError::Unit(e) => write!(f, "bad work unit: {e}"),
            LineError::UnitRules { unit, batch } => write!(
                f,
                "the work unit is for the rules {unit}, the batch solves {batch}: give the \
                 batch the unit's rules"
            ),
            LineError::Replay(e) => write!(f, "internal error, please report it: {e}"),
        }
    }
}

impl std::error::Error for LineError {}

/// Reads one position: the board form if it has a `:` (checked against `game` and settled,
/// so a finished game is scored), otherwise the move form played from the start.
pub fn parse(game: &Game, input: &str) -> Result<Position, LineError> {
    if input.contains(':') {
        let pos: Position = input.parse().map_err(LineError::Board)?;
        game.settle(pos).map_err(LineError::Board)
    } else {
        notation::play_moves(game, game.start(), input)
            .map(|(p, _)| p)
            .map_err(LineError::Moves)
    }
}

/// The positions of `reader` in the shard `shard` (all of them where `None`), counted in
/// a first pass over a file for a progress bar and the size of a solver; lines that
/// cannot be read are not counted.
pub fn count_positions<R: BufRead>(reader: R, shard: Option<(usize, usize)>) -> usize {
    Sharded::new(Lines::new(reader), shard)
        .filter(Result::is_ok)
        .count()
}

/// Up to `n` items read ahead from `lines` (to size the solver's database, or to see that
/// there is nothing to do), and the read error that stopped them (a line too long), kept
/// for its turn: the items before it are answered first.
pub fn read_ahead(
    lines: &mut dyn Iterator<Item = io::Result<Item>>,
    n: usize,
) -> (Vec<Item>, Option<io::Error>) {
    let mut ahead = Vec::new();
    for item in lines.take(n) {
        match item {
            Ok(item) => ahead.push(item),
            Err(e) => return (ahead, Some(e)),
        }
    }
    (ahead, None)
}

/// Solves `items` on `workers` threads sharing `solver`, and calls `sink(index, answer)`
/// on the calling thread for each item in input order. Stops when `cancel` is raised or
/// `sink` returns `false`: the items handed to the sink are then a prefix of `items`, and
/// their count is returned.
pub fn solve_in_order(
    solver: &Solver,
    items: &[Item],
    workers: usize,
    cancel: &AtomicBool,
    sink: &mut dyn FnMut(usize, Result<Answer, LineError>) -> bool,
) -> Result<usize, AnalysisError> {
    let mut next = items.iter().cloned();
    let workers = workers.clamp(1, items.len().max(1));
    solve_stream_in_order(
        solver,
        &mut || next.next(),
        workers,
        cancel,
        &mut |i, _, r| sink(i, r),
    )
    .map(|s| s.answered)
}

/// [`solve_in_order`] for items that come one by one from `next` (called under a lock,
/// from the worker threads, until it returns `None`): `sink(index, item, answer)` gets
/// each in input order. Items are taken only as workers are free, so a pipe is answered
/// while it is still being written.
pub fn solve_stream_in_order(
    solver: &Solver,
    next: &mut (dyn FnMut() -> Option<Item> + Send),
    workers: usize,
    cancel: &AtomicBool,
    sink: &mut dyn FnMut(usize, Item, Result<Answer, LineError>) -> bool,
) -> Result<Streamed, AnalysisError> {
    solve_stream_within(solver, None, next, workers, cancel, sink)
}

/// [`solve_stream_in_order`], each item analysed within `limits` where they are given
/// (exact where the analysis proves the value in time, else a heuristic answer), solved
/// exactly where they are `None`. A position stopped by `cancel` is not answered (as
/// without limits), so that a resumed run analyses it again.
pub fn solve_stream_within(
    solver: &Solver,
    limits: Option<&Limits>,
    next: &mut (dyn FnMut() -> Option<Item> + Send),
    workers: usize,
    cancel: &AtomicBool,
    sink: &mut dyn FnMut(usize, Item, Result<Answer, LineError>) -> bool,
) -> Result<Streamed, AnalysisError> {
    let too_large = std::sync::Mutex::new(None);
    // One worker on one thread, no time limit: the answers are promised the same run after
    // run, resumed or not, so each solve starts on an empty table (a solve's line and best
    // turn would otherwise depend on the positions solved before it in this process).
    let fresh_table =
        workers <= 1 && solver.config().threads == 1 && limits.is_none_or(|l| l.time.is_none());
    let answered = pool::run_stream_in_order(
        workers,
        next,
        cancel,
        |item: &Item| {
            if fresh_table {
                solver.clear_table();
            }
            solve_one(solver, item, limits, cancel)
                .map_err(|e| {
                    if let (SolveError::GraphTooLarge { limit }, Ok(mut t)) = (e, too_large.lock())
                    {
                        t.get_or_insert(limit);
                    }
                })
                .ok()
        },
        sink,
    )?;
    let too_large = too_large.into_inner().ok().flatten();
    Ok(Streamed {
        answered,
        too_large,
    })
}

/// How a stream of items went: the answers handed to the sink, and the graph limit that
/// a solve met (which stops the stream as a cancel does: nothing after it is answered).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Streamed {
    /// The items answered, a prefix of the stream.
    pub answered: usize,
    /// The most positions a solve's game graph could hold, where one held more.
    pub too_large: Option<u64>,
}

impl Streamed {
    /// Why a stream that stopped short (cancelled) stopped: the graph limit where a solve
    /// met it, else the cancel.
    pub fn stop_reason(&self) -> AnalysisError {
        match self.too_large {
            Some(limit) => AnalysisError::GraphTooLarge { limit },
            None => AnalysisError::Cancelled,
        }
    }
}

/// The answer for one item (analysed within `limits` where given); the solve's error
/// when it stopped (cancelled, or a graph too large).
pub(crate) fn solve_one(
    solver: &Solver,
    item: &Item,
    limits: Option<&Limits>,
    cancel: &AtomicBool,
) -> Result<Result<Answer, LineError>, SolveError> {
    let game = solver.game();
    if !item.utf8 {
        return Ok(Err(LineError::NotUtf8));
    }
    let (pos, unit) = match read_item(game, &item.input) {
        Ok(p) => p,
        Err(e) => return Ok(Err(e)),
    };
    if let Some(limits) = limits {
        return analyse_one(solver, pos, unit, limits, cancel);
    }
    let solution = match &unit {
        None => solver.solve(&pos, cancel, &mut |_| {})?,
        Some(u) => {
            let (alpha, beta) = u.window.for_mover(pos.side_to_move());
            match solver.solve_window(&pos, alpha, beta, cancel, &mut |_| {})? {
                Ok(solution) => solution,
                Err(b) => {
                    let (lower, upper) = b.from_south();
                    let (value, bound) = match upper <= u.window.alpha {
                        true => (upper, Bound::AtMost),
                        false => (lower, Bound::AtLeast),
                    };
                    return Ok(Ok(Answer {
                        position: pos,
                        value,
                        bound,
                        pv: Vec::new(),
                        unit,
                        nodes: b.nodes,
                        elapsed: b.elapsed,
                    }));
                }
            }
        }
    };
    let value = solution.value_from_south();
    Ok(match replay(game, &pos, &solution.pv, value) {
        Ok(_) => Ok(Answer {
            position: pos,
            value,
            bound: Bound::Exact,
            pv: solution.pv,
            unit,
            nodes: solution.nodes,
            elapsed: solution.elapsed,
        }),
        Err(e) => Err(LineError::Replay(e)),
    })
}

/// The answer for `pos` (of the work unit `unit`, if any) analysed within `limits`:
/// exact (its line replayed) where the analysis proves the value, a bound where it proves
/// a unit's value outside the unit's window, else heuristic. Stopped by `cancel`, it is
/// no answer ([`SolveError::Cancelled`]).
fn analyse_one(
    solver: &Solver,
    pos: Position,
    unit: Option<Unit>,
    limits: &Limits,
    cancel: &AtomicBool,
) -> Result<Result<Answer, LineError>, SolveError> {
    let a = solver.analyse(&pos, limits, cancel, &mut |_| {})?;
    if cancel.load(std::sync::atomic::Ordering::Relaxed) {
        return Err(SolveError::Cancelled);
    }
    let lower = a.bounds_from_south().0;
    let (value, bound, pv) = match (&unit, a.is_exact()) {
        (Some(u), true) if lower <= u.window.alpha => (lower, Bound::AtMost, Vec::new()),
        (Some(u), true) if lower >= u.window.beta => (lower, Bound::AtLeast, Vec::new()),
        (_, true) => {
            if let Err(e) = replay(solver.game(), &pos, &a.pv, lower) {
                return Ok(Err(LineError::Replay(e)));
            }
            (lower, Bound::Exact, a.pv.clone())
        }
        (_, false) => (a.eval_from_south(), heuristic(&a), a.pv.clone()),
    };
    Ok(Ok(Answer {
        position: pos,
        value,
        bound,
        pv,
        unit,
        nodes: a.nodes,
        elapsed: a.elapsed,
    }))
}

/// The bound of an analysis that is not exact: its proven interval and depth.
fn heuristic(a: &Analysis) -> Bound {
    let (lower, upper) = a.bounds_from_south();
    Bound::Heuristic {
        lower,
        upper,
        depth: a.depth,
    }
}

/// Reads one line: a work unit (checked against the batch's rules) or a position.
fn read_item(game: &Game, input: &str) -> Result<(Position, Option<Unit>), LineError> {
    if !input.starts_with('{') {
        return parse(game, input).map(|p| (p, None));
    }
    let unit = Unit::parse(input).map_err(LineError::Unit)?;
    if unit.rules != *game.rules() {
        return Err(LineError::UnitRules {
            unit: unit.rules,
            batch: *game.rules(),
        });
    }
    Ok((unit.position, Some(unit)))
}

/// Rule options that disagree with the rules of the work units they were given with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RulesDisagree {
    /// The rules the units carry.
    pub units: Rules,
    /// The rules of the options.
    pub options: Rules,
}

impl fmt::Display for RulesDisagree {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "holds work units for the rules {}, but the options give {}: leave the rule \
             options out (the units carry their rules) or correct them",
            self.units, self.options
        )
    }
}

/// Checks that the rules of the options agree with those of a batch's first work unit
/// (the units carry their rules; options given anyway must name the same ones).
pub fn rules_agree(options: &Rules, unit: &Unit) -> Result<(), RulesDisagree> {
    if *options == unit.rules {
        Ok(())
    } else {
        Err(RulesDisagree {
            units: unit.rules,
            options: *options,
        })
    }
}

/// The rules a batch answers: the rule options' (`options`), or, for an input of work
/// units whose first is `first`, the units' where no rule option is given
/// (`options_given` false); options given anyway must name the units' rules.
pub fn batch_rules(
    options: &Rules,
    options_given: bool,
    first: Option<&Unit>,
) -> Result<Rules, RulesDisagree> {
    match first {
        Some(unit) if !options_given => Ok(unit.rules),
        Some(unit) => rules_agree(options, unit).map(|()| *options),
        None => Ok(*options),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Random bytes (a fixed xorshift sequence) biased towards the characters of the
    /// notation, so that some lines parse and most do not.
    fn noise(seed: u64, len: usize) -> Vec<u8> {
        const ALPHABET: &[u8] = b"0123456789,:-# NSns\n\r\t\xff\xfe\xc3";
        let mut x = seed.max(1);
        (0..len)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                match x % 4 {
                    0 => (x >> 8) as u8,
                    _ => ALPHABET[(x >> 8) as usize % ALPHABET.len()],
                }
            })
            .collect()
    }

    #[test]
    fn arbitrary_bytes_give_numbered_lines_each_a_position_or_an_error() {
        let game = Game::new(kalah_core::Rules::kalah(4, 3)).unwrap();
        for seed in 1..300 {
            let bytes = noise(seed, 400);
            let lines = bytes.iter().filter(|&&b| b == b'\n').count() + 1;
            let mut last = 0;
            for item in Lines::new(&bytes[..]) {
                let item = item.unwrap();
                assert!(item.line > last && item.line <= lines);
                last = item.line;
                assert!(!item.input.is_empty());
                // A comment is cut off, except inside a work unit (JSON).
                assert!(item.input.starts_with('{') || !item.input.contains('#'));
                if item.utf8 {
                    // Never a panic: a position, a work unit or an error.
                    let _ = read_item(&game, &item.input);
                }
            }
        }
    }

    #[test]
    fn reading_ahead_stops_at_a_read_error_and_keeps_it() {
        let item = |line| Item {
            line,
            input: "1".to_string(),
            utf8: true,
        };
        let mut lines =
            vec![Ok(item(1)), Err(io::Error::other("too long")), Ok(item(3))].into_iter();
        let (ahead, failed) = read_ahead(&mut lines, 4);
        assert_eq!(ahead.len(), 1);
        assert_eq!(failed.unwrap().to_string(), "too long");
        assert_eq!(lines.next().unwrap().unwrap().line, 3);
        let mut lines = (1..=9).map(|k| Ok(item(k)));
        let (ahead, failed) = read_ahead(&mut lines, 4);
        assert_eq!((ahead.len(), failed.is_none()), (4, true));
        assert_eq!(lines.next().unwrap().unwrap().line, 5);
    }

    #[test]
    fn damaged_work_units_give_an_error_never_a_panic() {
        let game = Game::new(kalah_core::Rules::kalah(4, 3)).unwrap();
        let good = r#"{"id":7,"position":"0,4,4,4,0,0,4,4,4,0:S","rules":"Kalah(4,3) capture=standard end=row-empty leftovers=owner","window":[-25,25]}"#;
        let (pos, unit) = read_item(&game, good).unwrap();
        assert_eq!(unit.unwrap().id, 7);
        assert_eq!(pos.to_string(), "0,4,4,4,0,0,4,4,4,0:S");
        let other = Game::new(kalah_core::Rules::kalah(4, 4)).unwrap();
        assert!(matches!(
            read_item(&other, good),
            Err(LineError::UnitRules { .. })
        ));
        for seed in 1..2000u64 {
            let mut bytes = good.as_bytes().to_vec();
            for (k, b) in noise(seed, 3).into_iter().enumerate() {
                let at = (seed as usize * 31 + k * 17) % bytes.len();
                bytes[at] = b;
            }
            if let Ok(text) = std::str::from_utf8(&bytes) {
                if let Ok((_, Some(u))) = read_item(&game, text) {
                    assert!(u.window.alpha < u.window.beta);
                }
            }
        }
    }

    #[test]
    fn the_first_readable_unit_gives_the_rules_past_a_damaged_one() {
        let good = r#"{"id":7,"position":"0,4,4,4,0,0,4,4,4,0:S","rules":"Kalah(4,3) capture=standard end=row-empty leftovers=owner","window":[-25,25]}"#;
        let text = format!("{{\"id\":0,\"posit\n{good}\n{good}\n");
        let mut lines = Lines::new(text.as_bytes());
        let (read, unit) = first_unit(&mut lines);
        assert_eq!(read.len(), 2);
        assert_eq!(unit.unwrap().rules, Rules::kalah(4, 3));
        assert_eq!(lines.count(), 1);
        let (read, unit) = first_unit(&mut Lines::new("3 4\n{}\n".as_bytes()));
        assert_eq!((read.len(), unit), (1, None));
    }

    #[test]
    fn shards_share_the_input_between_them() {
        let text = "a\nb\n# c\nd\ne\nf\n";
        let shard = |i| -> Vec<String> {
            Sharded::new(Lines::new(text.as_bytes()), Some((i, 2)))
                .map(|r| r.unwrap().input)
                .collect()
        };
        assert_eq!(shard(1), ["a", "d", "f"]);
        assert_eq!(shard(2), ["b", "e"]);
        assert_eq!(Sharded::new(Lines::new(text.as_bytes()), None).count(), 5);
        assert_eq!(count_positions(text.as_bytes(), None), 5);
        assert_eq!(count_positions(text.as_bytes(), Some((1, 2))), 3);
        assert_eq!(count_positions("# only\n\n".as_bytes(), None), 0);
    }

    #[test]
    fn a_line_that_is_not_utf8_is_kept_with_its_number() {
        let items: Vec<Item> = Lines::new(&b"1\n\xff 2 # \xfe\n\n3\r\n"[..])
            .map(Result::unwrap)
            .collect();
        let lines: Vec<(usize, &str, bool)> = items
            .iter()
            .map(|i| (i.line, i.input.as_str(), i.utf8))
            .collect();
        assert_eq!(
            lines,
            [(1, "1", true), (2, "\u{fffd} 2", false), (4, "3", true)]
        );
    }

    #[test]
    fn rule_options_must_name_the_rules_of_the_units() {
        let line = r#"{"id":7,"position":"0,4,4,4,0,0,4,4,4,0:S","rules":"Kalah(4,3) capture=standard end=row-empty leftovers=owner","window":[-25,25]}"#;
        let unit = Unit::parse(line).unwrap();
        assert_eq!(rules_agree(&Rules::kalah(4, 3), &unit), Ok(()));
        let e = rules_agree(&Rules::kalah(4, 4), &unit).unwrap_err();
        assert_eq!(
            (e.units, e.options),
            (Rules::kalah(4, 3), Rules::kalah(4, 4))
        );
        assert!(e.to_string().starts_with(&format!(
            "holds work units for the rules {}, but the options give {}: ",
            Rules::kalah(4, 3),
            Rules::kalah(4, 4)
        )));
    }

    #[test]
    fn a_batch_takes_the_rules_of_its_units_unless_options_name_them() {
        let line = r#"{"id":7,"position":"0,4,4,4,0,0,4,4,4,0:S","rules":"Kalah(4,3) capture=standard end=row-empty leftovers=owner","window":[-25,25]}"#;
        let unit = Unit::parse(line).unwrap();
        let (k43, k64) = (Rules::kalah(4, 3), Rules::kalah(6, 4));
        assert_eq!(batch_rules(&k64, false, None), Ok(k64));
        assert_eq!(batch_rules(&k64, false, Some(&unit)), Ok(k43));
        assert_eq!(batch_rules(&k43, true, Some(&unit)), Ok(k43));
        assert!(batch_rules(&k64, true, Some(&unit)).is_err());
    }
}
