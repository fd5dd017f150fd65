//! `kalah.Position`: a position of a game, read from and written as the board notation,
//! with its legal sowings and turns, and the sowing of one house.

use kalah_analysis::openings::{first_steps, Offer};
use kalah_analysis::setup::{self, RuleOptions};
use kalah_core::{notation, Position, Side, Sowing, CLOCKWISE};
use pyo3::prelude::*;

use crate::errors::{error, position_error, setup_error, Kind};
use crate::rules::{PyRules, PySide};

/// A position of a game: the counts of every house and store, and the player to move,
/// with the rules it is played by.
#[pyclass(name = "Position", module = "kalah", frozen, from_py_object)]
#[derive(Clone)]
pub struct PyPosition {
    /// The rules the position is played by.
    pub rules: PyRules,
    /// The position itself.
    pub pos: Position,
}

/// A sowing given as a number (the core's move: the mover's house from their left,
/// `CLOCKWISE` added for a clockwise sowing) or in the notation (`"3"`, `"3<"`).
#[derive(FromPyObject)]
pub enum MoveArg {
    /// The core's move number.
    Number(i64),
    /// A bin in the notation.
    Text(String),
}

impl PyPosition {
    /// The position `pos` of the game of `rules`.
    pub fn new_in(rules: PyRules, pos: Position) -> PyPosition {
        PyPosition { rules, pos }
    }

    /// The board `board` read as a position of the game of `rules`, refused as the
    /// command line refuses `--position` with `--houses` and `--seeds` given.
    pub fn parse_in(rules: &PyRules, board: &str) -> PyResult<PyPosition> {
        let (_, pos) =
            setup::setup(&rules.options(), Some(board), None).map_err(|e| setup_error(&e))?;
        Ok(PyPosition::new_in(rules.clone(), pos))
    }

    /// Sows `sowing` (the core's move) after checking it.
    fn sow_number(&self, sowing: i64) -> PyResult<(Position, Sowing)> {
        let game = self.rules.game();
        let too_large = || {
            error(
                Kind::IllegalMove,
                format!(
                    "sowing {sowing} does not exist: each side has {} houses",
                    game.houses()
                ),
            )
        };
        let house = usize::try_from(sowing).map_err(|_| too_large())?;
        if house >= 2 * CLOCKWISE {
            return Err(too_large());
        }
        game.try_play(&self.pos, house)
            .map_err(|e| error(Kind::IllegalMove, e.to_string()))
    }

    /// The core's move of a sowing in the notation.
    fn parse_sowing(&self, text: &str) -> PyResult<usize> {
        let (next, played) = notation::play_moves(self.rules.game(), self.pos, text)
            .map_err(|e| position_error(&e))?;
        let _ = next;
        match played.as_slice() {
            [one] => Ok(*one),
            _ => Err(error(
                Kind::Notation,
                format!("'{text}' is not one sowing: give one bin, such as 3 (or 3< clockwise)"),
            )),
        }
    }
}

#[pymethods]
impl PyPosition {
    /// A position from the board notation (`4,4,4,4,4,4,0,4,4,4,4,4,4,0:S`). With `rules`
    /// it must fit them; without, the rules are the `kalah` preset on the board's number
    /// of houses, with as many seeds per house as it needs (at least 4).
    #[new]
    #[pyo3(signature = (board, rules = None))]
    fn new(board: &str, rules: Option<PyRules>) -> PyResult<PyPosition> {
        match rules {
            Some(rules) => PyPosition::parse_in(&rules, board),
            None => {
                let options = RuleOptions::default();
                let (game, pos) =
                    setup::setup(&options, Some(board), None).map_err(|e| setup_error(&e))?;
                let options = RuleOptions {
                    houses: Some(game.rules().houses),
                    seeds: Some(game.rules().seeds),
                    ..options
                };
                Ok(PyPosition::new_in(PyRules::from_parts(options, game), pos))
            }
        }
    }

    /// The rules the position is played by.
    #[getter]
    fn rules(&self) -> PyRules {
        self.rules.clone()
    }

    /// The player to move.
    #[getter]
    fn side_to_move(&self) -> PySide {
        self.pos.side_to_move().into()
    }

    /// Houses per side.
    #[getter]
    fn houses_per_side(&self) -> usize {
        self.pos.houses_per_side()
    }

    /// The counts of all 2H+2 bins in bin order: South's houses from South's left,
    /// South's store, North's houses from North's left, North's store.
    #[getter]
    fn counts(&self) -> Vec<u32> {
        // Wider than a byte: a list of ints in Python, not `bytes`.
        self.pos
            .absolute_counts()
            .into_iter()
            .map(u32::from)
            .collect()
    }

    /// The houses of `side`, from that player's left (South: bins 1..H; North: bins
    /// H+2..2H+1), or of the player to move when `side` is None.
    #[pyo3(signature = (side = None))]
    fn houses(&self, side: Option<PySide>) -> Vec<u32> {
        let side = side.map_or(self.pos.side_to_move(), Side::from);
        (0..self.pos.houses_per_side())
            .map(|j| u32::from(self.pos.house(side, j)))
            .collect()
    }

    /// The store of `side`, or of the player to move when `side` is None.
    #[pyo3(signature = (side = None))]
    fn store(&self, side: Option<PySide>) -> u8 {
        self.pos
            .store(side.map_or(self.pos.side_to_move(), Side::from))
    }

    /// The stores `(south, north)`.
    #[getter]
    fn stores(&self) -> (u8, u8) {
        (self.pos.store(Side::South), self.pos.store(Side::North))
    }

    /// Seeds still in the houses.
    #[getter]
    fn seeds_in_houses(&self) -> u32 {
        self.pos.seeds_in_houses()
    }

    /// True when the game is over (no seeds left in any house).
    #[getter]
    fn is_over(&self) -> bool {
        self.pos.is_over()
    }

    /// South's store minus North's, as it stands: the final score once the game is over.
    #[getter]
    fn score(&self) -> i32 {
        self.pos.score()
    }

    /// The mover's store minus the opponent's, as it stands.
    #[getter]
    fn store_margin(&self) -> i32 {
        self.pos.store_margin()
    }

    /// The legal sowings as numbers: the mover's house from the mover's left (0 to H-1),
    /// with `CLOCKWISE` (8) added for a clockwise sowing (Ethiopian Kalah). Empty once
    /// the game is over.
    fn sowings(&self) -> Vec<usize> {
        self.rules.game().legal_moves(&self.pos).collect()
    }

    /// The legal sowings in the notation: bins (`3`; `3<` clockwise), in the order of
    /// `sowings()`.
    fn moves(&self) -> Vec<String> {
        notation::move_names(self.rules.game(), &self.pos)
    }

    /// Every legal whole turn of the mover in the notation (`3-6`: bin 3 ends in the
    /// store, then bin 6), in bin order; a turn ends when a sowing passes the turn or
    /// ends the game.
    fn turns(&self) -> Vec<String> {
        let h = self.pos.houses_per_side();
        first_steps(self.rules.game(), &self.pos, Offer::AfterTurn)
            .iter()
            .map(|s| s.turn.notation(h))
            .collect()
    }

    /// The notation of the sowing `sowing` (a number of `sowings()`), such as `3` or `3<`.
    fn move_name(&self, sowing: usize) -> String {
        notation::format_move(self.pos.houses_per_side(), self.pos.side_to_move(), sowing)
    }

    /// The number (as in `sowings()`) of a sowing in the notation, checked to be legal.
    fn parse_move(&self, sowing: &str) -> PyResult<usize> {
        self.parse_sowing(sowing)
    }

    /// Sows one house: a number of `sowings()` or a bin in the notation. Returns the next
    /// position and whether the mover sows again (an extra turn; False when the game
    /// ended).
    fn sow(&self, sowing: MoveArg) -> PyResult<(PyPosition, bool)> {
        let (next, how) = match sowing {
            MoveArg::Number(n) => self.sow_number(n)?,
            MoveArg::Text(text) => {
                let m = self.parse_sowing(&text)?;
                self.rules.game().sow(&self.pos, m)
            }
        };
        let next = PyPosition::new_in(self.rules.clone(), next);
        Ok((next, how == Sowing::ExtraTurn))
    }

    /// Plays a list of moves in the notation (`"3-6 9"`, `"3-6,9"`: bins, turns joined by
    /// dashes), every one checked, and returns the position reached.
    fn play(&self, moves: &str) -> PyResult<PyPosition> {
        let (next, _) = notation::play_moves(self.rules.game(), self.pos, moves)
            .map_err(|e| moves_error(&e))?;
        Ok(PyPosition::new_in(self.rules.clone(), next))
    }

    /// The board drawn as text, as `kalah show` draws it, with the side to move, the moves
    /// and the score.
    fn diagram(&self) -> String {
        notation::describe(self.rules.game(), &self.pos)
    }

    fn __str__(&self) -> String {
        self.pos.to_string()
    }

    fn __repr__(&self) -> String {
        format!(
            "Position({:?}, {})",
            self.pos.to_string(),
            rules_repr(&self.rules)
        )
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<PyPosition>().is_ok_and(|o| {
            let o = o.get();
            o.pos == self.pos && o.rules.rules() == self.rules.rules()
        })
    }

    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.pos.hash(&mut h);
        self.rules.rules().hash(&mut h);
        h.finish()
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, (String, String))> {
        // Unpickled through the module-level helper of kalah/__init__.py.
        let helper = py.import("kalah")?.getattr("_position_from_description")?;
        Ok((
            helper,
            (self.pos.to_string(), self.rules.rules().to_string()),
        ))
    }
}

/// The exception for a list of moves refused, with the message of the command line's
/// `--moves` (which names the bin as written).
fn moves_error(e: &kalah_core::PositionError) -> PyErr {
    match position_error(e) {
        err if matches!(e, kalah_core::PositionError::BadMove(_)) => err,
        _ => error(Kind::IllegalMove, setup::move_message(e)),
    }
}

/// `rules=Rules.parse('...')` for a repr.
fn rules_repr(rules: &PyRules) -> String {
    format!("rules=Rules.parse({:?})", rules.rules().to_string())
}
