//! `kalah.Position`: a position of a game, read from and written as the board notation,
//! with its legal sowings and turns, and the sowing of one house; or a position of Bao,
//! in Bao's notation (four rows), with its legal moves.

use kalah_analysis::game::setup::{self, RuleOptions};
use kalah_analysis::game::Board;
use kalah_analysis::openings::{first_steps, Offer};
use kalah_core::bao::{BaoPosition, BaoRules, MAX_SEEDS};
use kalah_core::{notation, Game, Position, Side, Sowing, CLOCKWISE};
use pyo3::prelude::*;

use crate::errors::{bao_error, board_error, error, position_error, setup_error, Kind};
use crate::rules::{not_for_bao, PyRules, PySide};

/// A position of a game: the counts of every house and store (Bao: of every pit), and
/// the player to move, with the rules it is played by.
#[pyclass(name = "Position", module = "kalah", frozen, from_py_object)]
#[derive(Clone)]
pub struct PyPosition {
    /// The rules the position is played by; `board` plays the same game, sharing it
    /// (every position is made from the rules' board: [`PyRules::start`],
    /// [`PyPosition::parse_in`], [`PyPosition::with`]).
    pub rules: PyRules,
    /// The game and the position, of either kind (the library's board).
    pub board: Board,
}

/// The positions of a game, made where positions are made (`Rules.start()`,
/// `Rules.position()`): the rest of `Rules` is in `rules.rs`, which needs no position.
#[pymethods]
impl PyRules {
    /// The start position: every house holds `seeds`, the stores are empty, South to move
    /// (Bao: every pit holds `seeds`, South to move).
    fn start(&self) -> PyPosition {
        PyPosition::with(self, self.board().clone())
    }

    /// A position of this game from the board notation (`4,4,4,4,4,4,0,4,4,4,4,4,4,0:S`;
    /// Bao: four rows, `2,2,2/2,2,2/2,2,2/2,2,2:S`); a finished sowing game is settled
    /// (the seeds left go where the rules say).
    fn position(&self, board: &str) -> PyResult<PyPosition> {
        PyPosition::parse_in(self, board)
    }
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

/// The four rows of a Bao position drawn as `kalah show --rules bao` draws them, North's
/// back row on top, with who moves and the moves (`moves`).
fn bao_drawing(pos: &BaoPosition, moves: &[String]) -> String {
    let mut text = setup::bao::drawing(pos);
    let side = match pos.side() {
        Side::South => "South",
        Side::North => "North",
    };
    if pos.is_over() {
        text += &format!("{side} to move has lost: the front row is empty\n");
    } else {
        match moves.is_empty() {
            true => text += &format!("{side} to move has no legal move: lost\n"),
            false => text += &format!("{side} to move: {}\n", moves.join(" ")),
        }
    }
    text
}

impl PyPosition {
    /// The position `board` of the game of `rules` (a board of that game).
    pub fn with(rules: &PyRules, board: Board) -> PyPosition {
        PyPosition {
            rules: rules.clone(),
            board,
        }
    }

    /// The sowing game and position, or the error that `what` does not apply to Bao.
    pub fn sowing(&self, what: &str) -> PyResult<(&Game, Position)> {
        match self.board.sowing() {
            Some((game, pos)) => Ok((game, pos)),
            None => Err(not_for_bao(what)),
        }
    }

    /// The position `pos` of the same sowing game.
    pub fn sown(&self, pos: Position) -> PyPosition {
        let (game, _) = self.board.sowing().expect("a position of a sowing game");
        PyPosition::with(&self.rules, Board::Sowing(game.clone(), pos))
    }

    /// The position `pos` of the same Bao board.
    pub fn bao_at(&self, pos: BaoPosition) -> PyPosition {
        let board = self.board.bao_at(pos).expect("a position of Bao");
        PyPosition::with(&self.rules, board)
    }

    /// The board `board` read as a position of the game of `rules`, refused as the
    /// command line refuses `--position` with `--houses` and `--seeds` given.
    pub fn parse_in(rules: &PyRules, board: &str) -> PyResult<PyPosition> {
        let at = rules.board().at(board).map_err(|e| board_error(&e))?;
        Ok(PyPosition::with(rules, at))
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
                PyPosition::parse_in(&PyRules::from_bao(rules), board)
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
                let rules = PyRules::from_parts(options, game);
                let (game, _) = rules.board().sowing().expect("a sowing game");
                let board = Board::Sowing(game.clone(), pos);
                Ok(PyPosition::with(&rules, board))
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
        self.board.side_to_move().into()
    }

    /// Houses per side (Bao: pits a row).
    #[getter]
    pub fn houses_per_side(&self) -> usize {
        self.board.size().0
    }

    /// The counts of all 2H+2 bins in bin order: South's houses from South's left,
    /// South's store, North's houses from North's left, North's store. Bao: the 4N pits
    /// in the notation's order (`rows` joined).
    #[getter]
    fn counts(&self) -> Vec<u32> {
        // Wider than a byte: a list of ints in Python, not `bytes`.
        self.board.counts()
    }

    /// Bao's four rows as its notation writes them, top to bottom as South sees the board,
    /// each from the board's left: North's back row b_N..b_1, North's front row a_N..a_1,
    /// South's front row A_1..A_N, South's back row B_1..B_N. Not for a sowing game.
    #[getter]
    fn rows(&self) -> PyResult<Vec<Vec<u32>>> {
        match self.board.bao_position() {
            None => Err(error(
                Kind::Rules,
                "Position.rows is Bao's four rows: a sowing game has counts, houses and stores",
            )),
            Some(pos) => Ok(pos
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
        self.board.seeds_in_play()
    }

    /// True when the game is over (no seeds left in any house; Bao: the mover's front row
    /// is empty or the mover has no legal move, and the mover has lost).
    #[getter]
    fn is_over(&self) -> bool {
        self.board.is_over()
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
        self.board.moves()
    }

    /// Every legal whole turn of the mover in the notation (`3-6`: bin 3 ends in the
    /// store, then bin 6), in bin order; a turn ends when a sowing passes the turn or
    /// ends the game. Bao: the legal moves (each is a whole turn).
    fn turns(&self) -> Vec<String> {
        match self.board.sowing() {
            Some((game, pos)) => {
                let h = pos.houses_per_side();
                first_steps(game, &pos, Offer::AfterTurn)
                    .iter()
                    .map(|s| s.turn.notation(h))
                    .collect()
            }
            None => self.board.moves(),
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
        Ok((self.sown(next), how == Sowing::ExtraTurn))
    }

    /// Plays a list of moves in the notation (`"3-6 9"`, `"3-6,9"`: bins, turns joined by
    /// dashes; Bao: `"A3+ b8-"`), every one checked, and returns the position reached.
    fn play(&self, moves: &str) -> PyResult<PyPosition> {
        let next = self.board.play(moves).map_err(|e| board_error(&e))?;
        Ok(PyPosition::with(&self.rules, next))
    }

    /// The board drawn as text, as `kalah show` draws it, with the side to move, the moves
    /// and the score (Bao: the four rows, North's back row on top, and the moves).
    fn diagram(&self) -> String {
        match self.board.bao_position() {
            Some(pos) => bao_drawing(&pos, &self.board.moves()),
            None => self.board.describe(),
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
            o.board == self.board
        })
    }

    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.board.hash(&mut h);
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
        self.board.to_string()
    }
}
