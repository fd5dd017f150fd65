//! `kalah.Position`: a position of a game, read from and written as the board notation,
//! with its legal sowings and turns, and the sowing of one house; or a position of Bao,
//! in Bao's notation (four rows), with its legal moves.

use kalah_analysis::openings::{first_steps, Offer};
use kalah_analysis::game::setup::{self, RuleOptions};
use kalah_core::bao::{BaoPosition, BaoRules, MAX_SEEDS};
use kalah_core::{notation, Game, Position, Side, Sowing, CLOCKWISE};
use pyo3::prelude::*;

use crate::errors::{bao_error, error, position_error, setup_error, Kind};
use crate::rules::{not_for_bao, PyRules, PySide};

/// The board of a position: a sowing game's (two rows and two stores) or Bao's (four rows).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub enum Board {
    /// A position of a sowing game.
    Sowing(Position),
    /// A position of Bao.
    Bao(BaoPosition),
}

/// A position of a game: the counts of every house and store (Bao: of every pit), and
/// the player to move, with the rules it is played by.
#[pyclass(name = "Position", module = "kalah", frozen, from_py_object)]
#[derive(Clone)]
pub struct PyPosition {
    /// The rules the position is played by: a sowing game's for `Board::Sowing`, Bao's for
    /// `Board::Bao` ([`PyPosition::new_in`] and [`PyPosition::new_bao`] keep them together).
    pub rules: PyRules,
    /// The position itself.
    pub board: Board,
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

/// The seeds a pit of Bao's rules for a position given without rules: 2, or as many as
/// its seeds need.
fn bao_seeds_for(pos: &BaoPosition) -> usize {
    let pits = 4 * pos.pits();
    pos.seeds().div_ceil(pits).clamp(2, MAX_SEEDS / pits)
}

/// The Bao position `pos` of the board of `rules` (`bao`), refused where it does not fit
/// them: another number of pits, or more seeds than they hold.
fn fitted(rules: &PyRules, bao: BaoRules, pos: BaoPosition) -> PyResult<PyPosition> {
    if pos.pits() != bao.pits() {
        return Err(bao_error(&kalah_core::bao::BaoError::WrongBoard {
            found: pos.pits(),
            expected: bao.pits(),
        }));
    }
    if !bao.fits(&pos) {
        return Err(error(
            Kind::Mismatch,
            format!(
                "the position holds {} seeds, more than the {} of {bao} (raise seeds)",
                pos.seeds(),
                4 * bao.pits() * bao.seeds()
            ),
        ));
    }
    Ok(PyPosition::new_bao(rules.clone(), pos))
}

/// The legal moves of a Bao position in Bao's notation, in canonical order (R8.1); none
/// once the game is over.
fn bao_moves(pos: &BaoPosition) -> Vec<String> {
    if pos.is_over() {
        return Vec::new();
    }
    pos.legal().moves().map(|m| m.to_string()).collect()
}

/// The four rows of a Bao position drawn as `kalah show --rules bao` draws them, North's
/// back row on top.
fn bao_drawing(pos: &BaoPosition) -> String {
    let mut text = setup::bao::drawing(pos);
    let side = match pos.side() {
        Side::South => "South",
        Side::North => "North",
    };
    if pos.is_over() {
        text += &format!("{side} to move has lost: the front row is empty\n");
    } else {
        let moves = bao_moves(pos);
        match moves.is_empty() {
            true => text += &format!("{side} to move has no legal move: lost\n"),
            false => text += &format!("{side} to move: {}\n", moves.join(" ")),
        }
    }
    text
}

impl PyPosition {
    /// The position `pos` of the sowing game of `rules`.
    pub fn new_in(rules: PyRules, pos: Position) -> PyPosition {
        PyPosition {
            rules,
            board: Board::Sowing(pos),
        }
    }

    /// The position `pos` of the Bao board of `rules`.
    pub fn new_bao(rules: PyRules, pos: BaoPosition) -> PyPosition {
        PyPosition {
            rules,
            board: Board::Bao(pos),
        }
    }

    /// The sowing game and position, or the error that `what` does not apply to Bao.
    pub fn sowing(&self, what: &str) -> PyResult<(&Game, Position)> {
        match self.board {
            Board::Sowing(pos) => Ok((self.rules.game(), pos)),
            Board::Bao(_) => Err(not_for_bao(what)),
        }
    }

    /// The board `board` read as a position of the game of `rules`, refused as the
    /// command line refuses `--position` with `--houses` and `--seeds` given.
    pub fn parse_in(rules: &PyRules, board: &str) -> PyResult<PyPosition> {
        if let Some(bao) = rules.bao() {
            let pos: BaoPosition = board.parse().map_err(|e| bao_error(&e))?;
            return fitted(rules, bao, pos);
        }
        let (_, pos) =
            setup::setup(&rules.options(), Some(board), None).map_err(|e| setup_error(&e))?;
        Ok(PyPosition::new_in(rules.clone(), pos))
    }

    /// Sows `sowing` (the core's move) after checking it.
    fn sow_number(game: &Game, pos: &Position, sowing: i64) -> PyResult<(Position, Sowing)> {
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
        game.try_play(pos, house)
            .map_err(|e| error(Kind::IllegalMove, e.to_string()))
    }

    /// The core's move of a sowing in the notation.
    fn parse_sowing(game: &Game, pos: Position, text: &str) -> PyResult<usize> {
        let (_, played) = notation::play_moves(game, pos, text).map_err(|e| position_error(&e))?;
        match played.as_slice() {
            [one] => Ok(*one),
            _ => Err(error(
                Kind::Notation,
                format!("'{text}' is not one sowing: give one bin, such as 3 (or 3< clockwise)"),
            )),
        }
    }

    /// The Bao position after `moves` (separated by spaces or commas), each checked.
    fn bao_play(&self, pos: BaoPosition, moves: &str) -> PyResult<PyPosition> {
        let mut pos = pos;
        for text in moves.split([' ', ',']).filter(|t| !t.is_empty()) {
            if pos.is_over() {
                return Err(error(
                    Kind::IllegalMove,
                    format!("{text}: the game is over (the mover's front row is empty)"),
                ));
            }
            let mv = pos.parse_move(text).map_err(|e| bao_error(&e))?;
            pos = pos.try_play(mv).map_err(|e| bao_error(&e))?.0;
        }
        Ok(PyPosition::new_bao(self.rules.clone(), pos))
    }
}

#[pymethods]
impl PyPosition {
    /// A position from the board notation (`4,4,4,4,4,4,0,4,4,4,4,4,4,0:S`; Bao's four rows
    /// `2,2,2/2,2,2/2,2,2/2,2,2:S`). With `rules` it must fit them; without, the rules are
    /// the `kalah` preset on the board's number of houses, with as many seeds per house as
    /// it needs (at least 4), or for four rows Bao on the board's pits with as many seeds
    /// a pit as it needs (at least 2).
    #[new]
    #[pyo3(signature = (board, rules = None))]
    fn new(board: &str, rules: Option<PyRules>) -> PyResult<PyPosition> {
        match rules {
            Some(rules) => PyPosition::parse_in(&rules, board),
            None if board.contains('/') => {
                let pos: BaoPosition = board.parse().map_err(|e| bao_error(&e))?;
                let rules =
                    BaoRules::new(pos.pits(), bao_seeds_for(&pos)).map_err(|e| bao_error(&e))?;
                fitted(&PyRules::from_bao(rules), rules, pos)
            }
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
        match self.board {
            Board::Sowing(pos) => pos.side_to_move().into(),
            Board::Bao(pos) => pos.side().into(),
        }
    }

    /// Houses per side (Bao: pits a row).
    #[getter]
    pub fn houses_per_side(&self) -> usize {
        match self.board {
            Board::Sowing(pos) => pos.houses_per_side(),
            Board::Bao(pos) => pos.pits(),
        }
    }

    /// The counts of all 2H+2 bins in bin order: South's houses from South's left,
    /// South's store, North's houses from North's left, North's store. Bao: the 4N pits
    /// in the notation's order (`rows` joined).
    #[getter]
    fn counts(&self) -> Vec<u32> {
        // Wider than a byte: a list of ints in Python, not `bytes`.
        match self.board {
            Board::Sowing(pos) => pos.absolute_counts().into_iter().map(u32::from).collect(),
            Board::Bao(pos) => pos
                .text_rows()
                .iter()
                .flatten()
                .map(|&c| c.into())
                .collect(),
        }
    }

    /// Bao's four rows as its notation writes them, top to bottom as South sees the board,
    /// each from the board's left: North's back row b_N..b_1, North's front row a_N..a_1,
    /// South's front row A_1..A_N, South's back row B_1..B_N. Not for a sowing game.
    #[getter]
    fn rows(&self) -> PyResult<Vec<Vec<u32>>> {
        match self.board {
            Board::Sowing(_) => Err(error(
                Kind::Rules,
                "Position.rows is Bao's four rows: a sowing game has counts, houses and stores",
            )),
            Board::Bao(pos) => Ok(pos
                .text_rows()
                .iter()
                .map(|r| r.iter().map(|&c| c.into()).collect())
                .collect()),
        }
    }

    /// The houses of `side`, from that player's left (South: bins 1..H; North: bins
    /// H+2..2H+1), or of the player to move when `side` is None.
    #[pyo3(signature = (side = None))]
    fn houses(&self, side: Option<PySide>) -> PyResult<Vec<u32>> {
        let (_, pos) = self.sowing("Position.houses() (Bao's pits: Position.rows)")?;
        let side = side.map_or(pos.side_to_move(), Side::from);
        Ok((0..pos.houses_per_side())
            .map(|j| u32::from(pos.house(side, j)))
            .collect())
    }

    /// The store of `side`, or of the player to move when `side` is None.
    #[pyo3(signature = (side = None))]
    fn store(&self, side: Option<PySide>) -> PyResult<u8> {
        let (_, pos) = self.sowing("Position.store()")?;
        Ok(pos.store(side.map_or(pos.side_to_move(), Side::from)))
    }

    /// The stores `(south, north)`.
    #[getter]
    fn stores(&self) -> PyResult<(u8, u8)> {
        let (_, pos) = self.sowing("Position.stores")?;
        Ok((pos.store(Side::South), pos.store(Side::North)))
    }

    /// Seeds still in the houses (Bao: on the board, where every seed stays).
    #[getter]
    fn seeds_in_houses(&self) -> u32 {
        match self.board {
            Board::Sowing(pos) => pos.seeds_in_houses(),
            Board::Bao(pos) => pos.seeds() as u32,
        }
    }

    /// True when the game is over (no seeds left in any house; Bao: the mover's front row
    /// is empty or the mover has no legal move, and the mover has lost).
    #[getter]
    fn is_over(&self) -> bool {
        match self.board {
            Board::Sowing(pos) => pos.is_over(),
            Board::Bao(pos) => pos.terminal_value().is_some(),
        }
    }

    /// South's store minus North's, as it stands: the final score once the game is over.
    #[getter]
    fn score(&self) -> PyResult<i32> {
        Ok(self
            .sowing("Position.score (Bao is won or lost: Position.is_over)")?
            .1
            .score())
    }

    /// The mover's store minus the opponent's, as it stands.
    #[getter]
    fn store_margin(&self) -> PyResult<i32> {
        Ok(self.sowing("Position.store_margin")?.1.store_margin())
    }

    /// The legal sowings as numbers: the mover's house from the mover's left (0 to H-1),
    /// with `CLOCKWISE` (8) added for a clockwise sowing (Ethiopian Kalah). Empty once
    /// the game is over.
    fn sowings(&self) -> PyResult<Vec<usize>> {
        let (game, pos) = self.sowing("Position.sowings() (Bao's moves: Position.moves())")?;
        Ok(game.legal_moves(&pos).collect())
    }

    /// The legal sowings in the notation: bins (`3`; `3<` clockwise), in the order of
    /// `sowings()`. Bao: the legal moves (`A3+`, `b8-`) in canonical order.
    fn moves(&self) -> Vec<String> {
        match self.board {
            Board::Sowing(pos) => notation::move_names(self.rules.game(), &pos),
            Board::Bao(pos) => bao_moves(&pos),
        }
    }

    /// Every legal whole turn of the mover in the notation (`3-6`: bin 3 ends in the
    /// store, then bin 6), in bin order; a turn ends when a sowing passes the turn or
    /// ends the game. Bao: the legal moves (each is a whole turn).
    fn turns(&self) -> Vec<String> {
        match self.board {
            Board::Sowing(pos) => {
                let h = pos.houses_per_side();
                first_steps(self.rules.game(), &pos, Offer::AfterTurn)
                    .iter()
                    .map(|s| s.turn.notation(h))
                    .collect()
            }
            Board::Bao(pos) => bao_moves(&pos),
        }
    }

    /// The notation of the sowing `sowing` (a number of `sowings()`), such as `3` or `3<`.
    fn move_name(&self, sowing: usize) -> PyResult<String> {
        let (_, pos) = self.sowing("Position.move_name()")?;
        Ok(notation::format_move(
            pos.houses_per_side(),
            pos.side_to_move(),
            sowing,
        ))
    }

    /// The number (as in `sowings()`) of a sowing in the notation, checked to be legal.
    fn parse_move(&self, sowing: &str) -> PyResult<usize> {
        let (game, pos) = self.sowing("Position.parse_move()")?;
        PyPosition::parse_sowing(game, pos, sowing)
    }

    /// Sows one house: a number of `sowings()` or a bin in the notation. Returns the next
    /// position and whether the mover sows again (an extra turn; False when the game
    /// ended).
    fn sow(&self, sowing: MoveArg) -> PyResult<(PyPosition, bool)> {
        let (game, pos) = self.sowing("Position.sow() (Bao: Position.play())")?;
        let (next, how) = match sowing {
            MoveArg::Number(n) => PyPosition::sow_number(game, &pos, n)?,
            MoveArg::Text(text) => {
                let m = PyPosition::parse_sowing(game, pos, &text)?;
                game.sow(&pos, m)
            }
        };
        let next = PyPosition::new_in(self.rules.clone(), next);
        Ok((next, how == Sowing::ExtraTurn))
    }

    /// Plays a list of moves in the notation (`"3-6 9"`, `"3-6,9"`: bins, turns joined by
    /// dashes; Bao: `"A3+ b8-"`), every one checked, and returns the position reached.
    fn play(&self, moves: &str) -> PyResult<PyPosition> {
        match self.board {
            Board::Sowing(pos) => {
                let (next, _) = notation::play_moves(self.rules.game(), pos, moves)
                    .map_err(|e| moves_error(&e))?;
                Ok(PyPosition::new_in(self.rules.clone(), next))
            }
            Board::Bao(pos) => self.bao_play(pos, moves),
        }
    }

    /// The board drawn as text, as `kalah show` draws it, with the side to move, the moves
    /// and the score (Bao: the four rows, North's back row on top, and the moves).
    fn diagram(&self) -> String {
        match self.board {
            Board::Sowing(pos) => notation::describe(self.rules.game(), &pos),
            Board::Bao(pos) => bao_drawing(&pos),
        }
    }

    fn __str__(&self) -> String {
        self.notation()
    }

    fn __repr__(&self) -> String {
        format!(
            "Position({:?}, rules=Rules.parse({:?}))",
            self.notation(),
            self.rules.description()
        )
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<PyPosition>().is_ok_and(|o| {
            let o = o.get();
            o.board == self.board && o.rules.same(&self.rules)
        })
    }

    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.board.hash(&mut h);
        self.rules.description().hash(&mut h);
        h.finish()
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, (String, String))> {
        // Unpickled through the module-level helper of kalah/__init__.py.
        let helper = py.import("kalah")?.getattr("_position_from_description")?;
        Ok((helper, (self.notation(), self.rules.description())))
    }
}

impl PyPosition {
    /// The board notation of the position.
    pub fn notation(&self) -> String {
        match self.board {
            Board::Sowing(pos) => pos.to_string(),
            Board::Bao(pos) => pos.to_string(),
        }
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
