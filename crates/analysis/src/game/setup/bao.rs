//! Bao la Kujifunza set up from what a front end asks for, as [`super::setup`] sets up the
//! sowing games: the board (pits a row, seeds a pit), the position to start from and the
//! moves played from it. The command line, its batch, the engine protocol and the
//! analysis board all call [`setup`] (or [`position`] under rules already fixed), so they
//! accept the same input, test the end of the game the same way ([`is_over`]) and check a
//! board against the rules once ([`check_board`]). A game played on (`kalah play`, a
//! match) is one [`BaoGame`], which knows when it has ended: a win, or a draw when a
//! position comes back a third time.

use std::collections::HashMap;
use std::fmt;

use kalah_core::bao::{BaoError, BaoMove, BaoPosition, BaoRules};
use kalah_core::Side;

/// Pits a row when neither the options nor the position say otherwise (the standard
/// board).
pub const DEFAULT_PITS: usize = 8;
/// Seeds a pit at the start when the options do not say.
pub const DEFAULT_SEEDS: usize = 2;

/// The board and position asked for: every field optional, as a front end reads it.
#[derive(Clone, Copy, Debug, Default)]
pub struct BaoOptions<'a> {
    /// Pits a row [default: the position's, else [`DEFAULT_PITS`]].
    pub pits: Option<usize>,
    /// Seeds a pit at the start [default: [`DEFAULT_SEEDS`]].
    pub seeds: Option<usize>,
    /// The position to start from (four rows and the side), else the board's start.
    pub position: Option<&'a str>,
    /// Moves to play first, separated by spaces, commas or semicolons.
    pub moves: Option<&'a str>,
}

impl<'a> BaoOptions<'a> {
    /// The Bao board and position the options of the sowing games name under `--rules
    /// bao`: their houses a side are the pits a row, their seeds a house the seeds a pit.
    pub fn of(
        options: &super::RuleOptions,
        position: Option<&'a str>,
        moves: Option<&'a str>,
    ) -> BaoOptions<'a> {
        BaoOptions {
            pits: options.houses.map(usize::from),
            seeds: options.seeds.map(usize::from),
            position,
            moves,
        }
    }
}

/// One move of the line played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Played {
    /// The move (its side is the mover's).
    pub mv: BaoMove,
    /// It emptied the opponent's front row: the game ended with it.
    pub wins: bool,
    /// The position after it.
    pub after: BaoPosition,
}

/// A board, the position it starts from and the line played to the position reached.
#[derive(Clone, Debug)]
pub struct BaoSetup {
    /// The board: pits a row, seeds a pit at the start.
    pub rules: BaoRules,
    /// The start position (the position asked for, else the board's start).
    pub start: BaoPosition,
    /// The moves played, in order.
    pub history: Vec<Played>,
    /// The position reached.
    pub pos: BaoPosition,
}

/// Why a Bao board, position or line could not be set up. The messages name what was
/// wrong as every front end calls it (`position`, `moves`, `houses`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BaoSetupError {
    /// The board asked for does not exist (pits or seeds out of range).
    Rules(BaoError),
    /// The position's text cannot be read.
    Position(BaoError),
    /// The position is for a board of another size.
    WrongBoard {
        /// Pits a row of the position.
        found: usize,
        /// Pits a row of the board.
        expected: usize,
    },
    /// The position holds more seeds than the board (of rules already fixed) has.
    Overfull {
        /// Seeds in the position.
        seeds: usize,
        /// The board.
        rules: BaoRules,
    },
    /// A move after the end of the game.
    Over {
        /// The move as written.
        mv: String,
        /// How the game ended, in words.
        end: String,
    },
    /// A move that cannot be read or played here.
    Move {
        /// The move as written.
        mv: String,
        /// Why.
        error: BaoError,
        /// The legal moves of the position, for a move that is not among them.
        legal: Vec<String>,
    },
}

impl fmt::Display for BaoSetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BaoSetupError::Rules(e) => write!(f, "{e}"),
            BaoSetupError::Position(e) => write!(f, "position: {e}"),
            BaoSetupError::WrongBoard { found, expected } => write!(
                f,
                "position: the position has {found} pits a row, but houses is {expected}: \
                 give houses {found} for this position"
            ),
            BaoSetupError::Overfull { seeds, rules } => write!(
                f,
                "position: the position holds {seeds} seeds, more than the {} of {rules}: \
                 raise seeds",
                4 * rules.pits() * rules.seeds()
            ),
            BaoSetupError::Over { mv, end } => {
                write!(f, "moves: {mv}: the game is over ({end})")
            }
            BaoSetupError::Move { mv, error, legal } => {
                write!(f, "moves: {mv}: {error}")?;
                if !legal.is_empty() {
                    write!(f, " (the legal moves are {})", legal.join(" "))?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for BaoSetupError {}

/// Whether the game is over at `pos`: the mover's front row is empty or it has no legal
/// move (BAO.md R7.1, R7.4); the other player has won.
pub fn is_over(pos: &BaoPosition) -> bool {
    pos.terminal_value().is_some()
}

/// How the game ended at `pos`, in words (only meaningful where [`is_over`]).
pub fn end_words(pos: &BaoPosition) -> String {
    let (mover, other) = (pos.side(), pos.side().other());
    match pos.is_over() {
        true => format!("{other} emptied {mover}'s front row and won"),
        false => format!("{mover} has no legal move and lost"),
    }
}

/// The four rows of `pos` drawn as in BAO.md, North's back row on top, each named, with a
/// rule between the two sides (the drawing of `kalah show --rules bao` and `kalah play`).
pub fn drawing(pos: &BaoPosition) -> String {
    let rows = pos.text_rows();
    let names = ["North b", "North a", "South A", "South B"];
    let mut text = String::new();
    for (i, (name, row)) in names.iter().zip(&rows).enumerate() {
        if i == 2 {
            text += &format!("          {}\n", "-".repeat(3 * row.len()));
        }
        let counts: String = row.iter().map(|c| format!("{c:>3}")).collect();
        text += &format!(" {name}{counts}\n");
    }
    text
}

/// `pos` under `rules` described as `kalah show --rules bao` prints it: the board, the
/// drawing, who moves or how the game ended, the legal moves and the position's text.
pub fn describe(rules: &BaoRules, pos: &BaoPosition) -> String {
    let mut text = format!(
        "Bao la Kujifunza, 4 rows of {} pits, {} seeds a pit at the start\n",
        rules.pits(),
        rules.seeds()
    );
    text += &drawing(pos);
    text += &match is_over(pos) {
        true => format!("game over: {}\n", end_words(pos)),
        false => format!("{} to move\n", pos.side()),
    };
    let moves: Vec<String> = pos.legal().moves().map(|m| m.to_string()).collect();
    if !moves.is_empty() {
        text += &format!("moves: {}\n", moves.join(" "));
    }
    text += &format!("position: {pos}\n");
    text
}

/// The one check of a position against a board: the same number of pits a row.
pub fn check_board(rules: &BaoRules, pos: &BaoPosition) -> Result<(), BaoSetupError> {
    match pos.pits() == rules.pits() {
        true => Ok(()),
        false => Err(BaoSetupError::WrongBoard {
            found: pos.pits(),
            expected: rules.pits(),
        }),
    }
}

/// The moves of a list as written: separated by spaces, commas or semicolons.
pub fn split_moves(list: &str) -> impl Iterator<Item = &str> {
    list.split([' ', ',', ';']).filter(|t| !t.is_empty())
}

/// Plays the moves of `list` from `start`, each checked: the line played.
pub fn play_line<'m>(
    start: BaoPosition,
    list: impl IntoIterator<Item = &'m str>,
) -> Result<Vec<Played>, BaoSetupError> {
    let mut history: Vec<Played> = Vec::new();
    for text in list {
        let at = history.last().map_or(start, |p| p.after);
        if is_over(&at) {
            return Err(BaoSetupError::Over {
                mv: text.to_string(),
                end: end_words(&at),
            });
        }
        let refused = |error: BaoError| BaoSetupError::Move {
            mv: text.to_string(),
            legal: match error {
                BaoError::Illegal(_) => at.legal().moves().map(|m| m.to_string()).collect(),
                _ => Vec::new(),
            },
            error,
        };
        let mv = at.parse_move(text).map_err(refused)?;
        let (after, wins) = at.try_play(mv).map_err(refused)?;
        history.push(Played { mv, wins, after });
    }
    Ok(history)
}

/// Bao's rules of `pits` a row and `seeds` a pit, each [`DEFAULT_PITS`] and
/// [`DEFAULT_SEEDS`] where not given.
pub fn rules(pits: Option<usize>, seeds: Option<usize>) -> Result<BaoRules, BaoError> {
    BaoRules::new(pits.unwrap_or(DEFAULT_PITS), seeds.unwrap_or(DEFAULT_SEEDS))
}

/// The board, position and line asked for by `options`.
pub fn setup(options: &BaoOptions) -> Result<BaoSetup, BaoSetupError> {
    let given = options
        .position
        .map(str::parse::<BaoPosition>)
        .transpose()
        .map_err(BaoSetupError::Position)?;
    let pits = options.pits.or(given.map(|p| p.pits()));
    let rules = rules(pits, options.seeds).map_err(BaoSetupError::Rules)?;
    let start = match given {
        Some(p) => {
            check_board(&rules, &p)?;
            p
        }
        None => rules.start(),
    };
    let history = play_line(start, split_moves(options.moves.unwrap_or("")))?;
    let pos = history.last().map_or(start, |p| p.after);
    Ok(BaoSetup {
        rules,
        start,
        history,
        pos,
    })
}

/// The position of `board` (else the start of `rules`) with `moves` played, under rules
/// already fixed (the engine's `position`, a batch's line).
pub fn position<'m>(
    rules: &BaoRules,
    board: Option<&str>,
    moves: impl IntoIterator<Item = &'m str>,
) -> Result<BaoPosition, BaoSetupError> {
    let start = match board {
        None => rules.start(),
        Some(text) => {
            let pos: BaoPosition = text.parse().map_err(BaoSetupError::Position)?;
            check_board(rules, &pos)?;
            pos
        }
    };
    let history = play_line(start, moves)?;
    Ok(history.last().map_or(start, |p| p.after))
}

/// The position `text` of the board of `rules`: refused where it has another number of
/// pits a row or more seeds than the board holds ([`BaoRules::fits`]).
pub fn position_in(rules: &BaoRules, text: &str) -> Result<BaoPosition, BaoSetupError> {
    let pos: BaoPosition = text.parse().map_err(BaoSetupError::Position)?;
    check_board(rules, &pos)?;
    match rules.fits(&pos) {
        true => Ok(pos),
        false => Err(BaoSetupError::Overfull {
            seeds: pos.seeds(),
            rules: *rules,
        }),
    }
}

/// How a game of Bao ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BaoEnd {
    /// `winner` won: the loser's front row is empty or it has no legal move.
    Won {
        /// The side that won.
        winner: Side,
    },
    /// A position came back a third time: a draw (BAO.md R9.1, play that only cycles).
    Repetition,
}

/// A game in progress: the position and how often each position has been reached, so
/// that the third repetition ends it as a draw.
#[derive(Clone, Debug)]
pub struct BaoGame {
    pos: BaoPosition,
    seen: HashMap<BaoPosition, u32>,
}

impl BaoGame {
    /// A game from `pos`, reached once.
    pub fn new(pos: BaoPosition) -> BaoGame {
        BaoGame {
            pos,
            seen: HashMap::from([(pos, 1)]),
        }
    }

    /// The position to move from.
    pub fn pos(&self) -> &BaoPosition {
        &self.pos
    }

    /// How the game has ended at its position, if it has.
    pub fn end(&self) -> Option<BaoEnd> {
        if is_over(&self.pos) {
            return Some(BaoEnd::Won {
                winner: self.pos.side().other(),
            });
        }
        (self.seen[&self.pos] >= 3).then_some(BaoEnd::Repetition)
    }

    /// Plays `mv`, checked; the position it reaches counts once more.
    pub fn play(&mut self, mv: BaoMove) -> Result<(), BaoError> {
        self.pos = self.pos.try_play(mv)?.0;
        *self.seen.entry(self.pos).or_insert(0) += 1;
        Ok(())
    }

    /// Plays the move written `text`, checked.
    pub fn play_text(&mut self, text: &str) -> Result<(), BaoError> {
        let mv = self.pos.parse_move(text)?;
        self.play(mv)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_description_draws_the_rows_and_says_who_moves_or_how_it_ended() {
        let rules = BaoRules::new(4, 2).unwrap();
        let e6: BaoPosition = "0,3,0,0/0,2,0,0/0,1,0,2/0,0,0,0:S".parse().unwrap();
        let text = describe(&rules, &e6);
        assert!(text.starts_with("Bao la Kujifunza, 4 rows of 4 pits, 2 seeds a pit"));
        assert!(text.contains(&drawing(&e6)));
        assert!(
            text.contains("S to move") || text.contains("South to move"),
            "{text}"
        );
        assert!(text.contains("\nmoves: "));
        assert!(text.ends_with(&format!("position: {e6}\n")));
    }

    #[test]
    fn no_options_give_the_standard_board_from_its_start() {
        let s = setup(&BaoOptions::default()).unwrap();
        assert_eq!(s.rules, BaoRules::new(8, 2).unwrap());
        assert_eq!((s.pos, s.start), (s.rules.start(), s.rules.start()));
        assert!(s.history.is_empty());
    }

    #[test]
    fn the_board_is_taken_from_the_position_and_checked_against_the_pits() {
        let e6 = "0,3,0,0/0,2,0,0/0,1,0,2/0,0,0,0:S";
        let s = setup(&BaoOptions {
            position: Some(e6),
            ..BaoOptions::default()
        })
        .unwrap();
        assert_eq!(s.rules.pits(), 4);
        assert_eq!(s.pos.to_string(), e6);
        let wrong = setup(&BaoOptions {
            pits: Some(3),
            position: Some(e6),
            ..BaoOptions::default()
        });
        assert_eq!(
            wrong.unwrap_err(),
            BaoSetupError::WrongBoard {
                found: 4,
                expected: 3
            }
        );
        let rules = BaoRules::new(3, 2).unwrap();
        assert!(position(&rules, Some(e6), []).is_err());
        assert!(position(&rules, Some("1,2,3"), []).is_err());
    }

    #[test]
    fn moves_are_played_in_order_and_none_after_the_end() {
        let rules = BaoRules::new(4, 2).unwrap();
        let start = rules.start();
        let mv = start.legal().moves().next().unwrap();
        let after = position(&rules, None, [mv.to_string().as_str()]).unwrap();
        assert_eq!(after, start.try_play(mv).unwrap().0);
        // E6: South wins with A4-; nothing is played after it.
        let e6 = "0,3,0,0/0,2,0,0/0,1,0,2/0,0,0,0:S";
        let s = setup(&BaoOptions {
            position: Some(e6),
            moves: Some("A4-"),
            ..BaoOptions::default()
        })
        .unwrap();
        assert!(s.history[0].wins && is_over(&s.pos));
        let over = setup(&BaoOptions {
            position: Some(e6),
            moves: Some("A4-, a1+"),
            ..BaoOptions::default()
        });
        assert!(matches!(over, Err(BaoSetupError::Over { .. })), "{over:?}");
        // A move of the other player, an illegal one (the legal ones named), nonsense.
        assert!(position(&rules, None, ["a1+"]).is_err());
        let e6 = e6.parse::<BaoPosition>().unwrap();
        match play_line(e6, ["A1+"]) {
            Err(BaoSetupError::Move { legal, .. }) => assert!(legal.contains(&"A4-".into())),
            other => panic!("A1+ (an empty pit) is refused: {other:?}"),
        }
        assert!(position(&rules, None, ["Z9"]).is_err());
    }

    #[test]
    fn a_game_ends_with_a_win_or_the_third_repetition() {
        // E16: after B1- b4-, the draw's line cycles through eight moves back to where it
        // was; the second time round that position is reached a third time.
        let e16: BaoPosition = "2,1,0,1/1,0,0,0/0,0,0,1/2,1,1,0:S".parse().unwrap();
        let cycle = ["B2-", "a4-", "A2-", "a3-", "A1-", "a2-", "B1-", "a1-"];
        let mut game = BaoGame::new(e16);
        game.play_text("B1-").unwrap();
        game.play_text("b4-").unwrap();
        let mut played = 0;
        for text in cycle.iter().cycle() {
            if game.end().is_some() {
                break;
            }
            game.play_text(text).unwrap();
            played += 1;
        }
        assert_eq!(game.end(), Some(BaoEnd::Repetition));
        assert_eq!(played, 2 * cycle.len());
        let e6: BaoPosition = "0,3,0,0/0,2,0,0/0,1,0,2/0,0,0,0:S".parse().unwrap();
        let mut won = BaoGame::new(e6);
        assert_eq!(won.end(), None);
        won.play_text("A4-").unwrap();
        assert_eq!(
            won.end(),
            Some(BaoEnd::Won {
                winner: Side::South
            })
        );
    }
}
