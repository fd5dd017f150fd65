//! A board set up with the line that reached it: the start position and every move played
//! from it with the position after it, of either kind ([`Line`]). [`Board::set_up`] is
//! its position reached; a front end that shows the moves played (the analysis board's
//! `/api/position`, its undo and redo) takes the whole line.

use std::sync::Arc;

use kalah_core::{notation, Game, Position, Side, Sowing};

use super::setup::bao::{self as bao_setup, BaoOptions, BaoSetup};
use super::setup::{self as sowing_setup, RuleOptions, SetupError};
use super::{Board, BoardError, RulesName};

/// One sowing of a line played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sown {
    /// The side that made it.
    pub side: Side,
    /// The move (a house from the mover's left, `CLOCKWISE` added for a clockwise one).
    pub mv: usize,
    /// What the sowing did (an extra turn, the end of the game, ...).
    pub how: Sowing,
    /// The position after it.
    pub after: Position,
}

/// A sowing game, the position it starts from and the sowings played to the position
/// reached.
#[derive(Clone)]
pub struct SowingLine {
    /// The game, shared with the boards made of it.
    pub game: Arc<Game>,
    /// The start position (the position asked for, settled; else the game's start).
    pub start: Position,
    /// The sowings played, in order (a turn of several sowings is several).
    pub history: Vec<Sown>,
    /// The position reached.
    pub pos: Position,
}

impl SowingLine {
    /// True at the start of the game with no move played.
    pub fn at_start(&self) -> bool {
        self.history.is_empty() && self.start == self.game.start()
    }

    /// True when the moves are exactly South's complete first turn from the start of the
    /// game: where the pie rule lets North take over South's side.
    pub fn after_first_turn(&self) -> bool {
        self.start == self.game.start()
            && self.start.side_to_move() == Side::South
            && !self.history.is_empty()
            && self.history.iter().all(|p| p.side == Side::South)
            && self.pos.side_to_move() == Side::North
            && !self.pos.is_over()
    }
}

/// A board set up with its line: a sowing game's or Bao's.
#[derive(Clone)]
pub enum Line {
    /// A sowing game's start, sowings and position reached.
    Sowing(SowingLine),
    /// Bao's board, start, moves and position reached.
    Bao(BaoSetup),
}

impl Line {
    /// The board of the kind the rules name with the position to start from and the
    /// moves played, each move kept: as [`Board::set_up`] reads them (Bao's board from
    /// `options`' houses and seeds, [`BaoOptions::of`]).
    pub fn set_up(
        rules: RulesName,
        options: &RuleOptions,
        position: Option<&str>,
        moves: Option<&str>,
    ) -> Result<Line, BoardError> {
        let preset = match rules {
            RulesName::Bao => {
                let setup = bao_setup::setup(&BaoOptions::of(options, position, moves))
                    .map_err(BoardError::Bao)?;
                return Ok(Line::Bao(setup));
            }
            RulesName::Sowing(preset) => preset,
        };
        let options = RuleOptions { preset, ..*options };
        sowing_line(&options, position, moves)
            .map(Line::Sowing)
            .map_err(BoardError::Sowing)
    }

    /// The board at the position reached.
    pub fn into_board(self) -> Board {
        match self {
            Line::Sowing(line) => Board::Sowing(line.game, line.pos),
            Line::Bao(setup) => Board::Bao(setup.rules, setup.pos),
        }
    }
}

impl Board {
    /// The board of the kind the rules name, with the position to start from: Bao's
    /// under [`RulesName::Bao`] (its board from `options`' houses and seeds,
    /// [`BaoOptions::of`]), else the sowing game of `options` under the preset named
    /// ([`sowing_setup::setup`]); `position` and `moves` in the notation of that kind. The
    /// position reached of a [`Line`], which keeps the moves played too.
    pub fn set_up(
        rules: RulesName,
        options: &RuleOptions,
        position: Option<&str>,
        moves: Option<&str>,
    ) -> Result<Board, BoardError> {
        Line::set_up(rules, options, position, moves).map(Line::into_board)
    }
}

/// The sowing game of `options` from `position` (else its start) with `moves` played as
/// the command line reads them (checked, turns split into sowings), each sowing kept for
/// its side, its kind and the position after it.
fn sowing_line(
    options: &RuleOptions,
    position: Option<&str>,
    moves: Option<&str>,
) -> Result<SowingLine, SetupError> {
    let (game, start) = sowing_setup::setup(options, position, None)?;
    let played = match moves {
        None => Vec::new(),
        Some(list) => {
            notation::play_moves(&game, start, list)
                .map_err(SetupError::Moves)?
                .1
        }
    };
    let mut history: Vec<Sown> = Vec::with_capacity(played.len());
    for mv in played {
        let at = history.last().map_or(start, |p| p.after);
        let (after, how) = game.sow(&at, mv);
        history.push(Sown {
            side: at.side_to_move(),
            mv,
            how,
            after,
        });
    }
    let pos = history.last().map_or(start, |p| p.after);
    Ok(SowingLine {
        game: Arc::new(game),
        start,
        history,
        pos,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use kalah_core::Preset;

    #[test]
    fn the_line_keeps_the_start_and_every_move_of_either_kind() {
        let options = RuleOptions {
            houses: Some(4),
            seeds: Some(2),
            ..RuleOptions::default()
        };
        let kalah = RulesName::Sowing(Preset::Kalah);
        let Ok(Line::Sowing(line)) = Line::set_up(kalah, &options, None, Some("3-1")) else {
            panic!("no sowing line");
        };
        assert_eq!(line.start, line.game.start());
        assert_eq!(line.history.len(), 2);
        assert_eq!(line.history[0].how, Sowing::ExtraTurn);
        assert_eq!(line.pos, line.history[1].after);
        assert!(line.after_first_turn() && !line.at_start());
        let board = Board::set_up(kalah, &options, None, Some("3-1")).unwrap();
        assert!(Line::Sowing(line).into_board() == board);
        let Ok(Line::Bao(bao)) = Line::set_up(RulesName::Bao, &options, None, Some("A1+")) else {
            panic!("no Bao line");
        };
        assert_eq!((bao.start, bao.history.len()), (bao.rules.start(), 1));
        let board = Board::set_up(RulesName::Bao, &options, None, Some("A1+")).unwrap();
        assert!(Line::Bao(bao).into_board() == board);
    }
}
