//! Many positions solved in parallel, answered in input order.
//!
//! Input is text, one position a line: the board form (`4,4,0,5,5,0,2,5,5,5,5,4,4,0:N`)
//! or the move form (`3-6 9`: moves from the start position). `#` starts a comment to the
//! end of the line; blank and comment-only lines are not positions. A line that cannot be
//! read gets an error answer and never stops the batch.
//!
//! [`solve_in_order`] hands every answer to a sink in input order, as soon as it and
//! everything before it are done, so a run that is stopped has answered a prefix of its
//! input: the caller can write that prefix and later resume after it.

use std::fmt;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use kalah_core::{notation, Game, Position, PositionError};
use kalah_solver::{Solver, Turn};

use crate::{pool, AnalysisError, ReplayError};
use kalah_solver::line::replay;

/// One position of a batch: the line's text (comment and outer blanks removed) and its
/// 1-based line number.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Item {
    /// 1-based line number in the input.
    pub line: usize,
    /// The text of the position, without comment and outer blanks.
    pub input: String,
}

/// The positions of a batch input: every line that is not blank or only a comment.
pub fn items(text: &str) -> Vec<Item> {
    text.lines()
        .enumerate()
        .filter_map(|(i, l)| {
            let input = l.split('#').next().unwrap_or("").trim();
            (!input.is_empty()).then(|| Item {
                line: i + 1,
                input: input.to_string(),
            })
        })
        .collect()
}

/// Why a line of a batch has no value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LineError {
    /// The board form could not be read, or does not fit the rules of the batch.
    Board(PositionError),
    /// The move form could not be read or played from the start.
    Moves(PositionError),
    /// A principal variation failed its check: a bug.
    Replay(ReplayError),
}

impl fmt::Display for LineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LineError::Board(e) => write!(f, "bad board: {e}"),
            LineError::Moves(e) => write!(f, "bad moves: {e}"),
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

/// The exact answer for one position.
#[derive(Clone, Debug)]
pub struct Answer {
    /// The position solved.
    pub position: Position,
    /// Its value from South.
    pub value: i32,
    /// A principal variation (empty when the game is over), replayed and checked.
    pub pv: Vec<Turn>,
    /// Nodes searched.
    pub nodes: u64,
    /// Wall time of the solve.
    pub elapsed: Duration,
}

impl Answer {
    /// The best turn of the player to move (none when the game is over).
    pub fn best_turn(&self) -> Option<&Turn> {
        self.pv.first()
    }
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
    let game = solver.game();
    pool::run_in_order(
        workers,
        items.len(),
        cancel,
        |i| {
            let pos = match parse(game, &items[i].input) {
                Ok(p) => p,
                Err(e) => return Some(Err(e)),
            };
            let solution = solver.solve(&pos, cancel, &mut |_| {}).ok()?;
            let value = solution.value_from_south();
            Some(match replay(game, &pos, &solution.pv, value) {
                Ok(_) => Ok(Answer {
                    position: pos,
                    value,
                    pv: solution.pv,
                    nodes: solution.nodes,
                    elapsed: solution.elapsed,
                }),
                Err(e) => Err(LineError::Replay(e)),
            })
        },
        sink,
    )
}
