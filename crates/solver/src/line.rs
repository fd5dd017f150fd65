//! Lines of play: a [`Turn`] (the sowings one player makes in a row), joining a sowing or
//! a turn onto a line ([`push_sowing`], [`push_turn`]), and the one check behind every
//! value the engine reports: replay its principal variation sowing by sowing with the
//! checked move generator and compare the final score with the value ([`replay`], see
//! [`crate::Solution::verify`]).

use std::fmt;

use kalah_core::{Game, Position, Side, Sowing};

/// One player's turn: the sowings they make in a row (all but the last gave an extra turn).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Turn {
    /// Who sows.
    pub side: Side,
    /// The houses sown, 0-based from that player's left.
    pub sowings: Vec<usize>,
}

impl Turn {
    /// The published notation: bins joined by `-`, e.g. `3-6`.
    pub fn notation(&self, houses: usize) -> String {
        kalah_core::notation::format_turn(houses, self.side, &self.sowings)
    }
}

/// The notation of each turn of `line` on a board of `houses` houses per side.
pub fn notations(houses: usize, line: &[Turn]) -> Vec<String> {
    line.iter().map(|t| t.notation(houses)).collect()
}

/// Adds `side`'s sowing `m` to the line `line`: to its last turn where the same player is
/// still to move (the last sowing gave an extra turn), else as a new turn.
pub fn push_sowing(line: &mut Vec<Turn>, side: Side, m: usize) {
    match line.last_mut() {
        Some(t) if t.side == side => t.sowings.push(m),
        _ => line.push(Turn {
            side,
            sowings: vec![m],
        }),
    }
}

/// Adds `turn` to the line `line`: its sowings join the last turn where the same player is
/// still to move (the last sowing gave an extra turn), else it is a new turn.
pub fn push_turn(line: &mut Vec<Turn>, turn: Turn) {
    match line.last_mut() {
        Some(t) if t.side == turn.side => t.sowings.extend(turn.sowings),
        _ => line.push(turn),
    }
}

/// A line of play that does not replay, or does not end with the value claimed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReplayError {
    /// A turn names a player who is not to move.
    WrongSide {
        /// 0-based index of the turn in the line.
        turn: usize,
    },
    /// A sowing is illegal.
    Illegal {
        /// 0-based index of the turn in the line.
        turn: usize,
        /// What the rules engine said.
        why: kalah_core::MoveError,
    },
    /// A turn stops after a sowing that gave an extra turn, or goes on after one that did not.
    TurnBoundary {
        /// 0-based index of the turn in the line.
        turn: usize,
    },
    /// The line ends before the game is over (and not by returning to a position of the
    /// line, in a family whose positions repeat).
    NotOver,
    /// A turn after the line returned to a position it had already reached.
    AfterRepetition {
        /// 0-based index of the turn in the line.
        turn: usize,
    },
    /// The game ends with another score than the value claimed.
    WrongScore {
        /// The final score from South.
        score: i32,
        /// The value claimed, from South.
        value: i32,
    },
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReplayError::WrongSide { turn } => {
                write!(
                    f,
                    "turn {} is played by the player who is not to move",
                    turn + 1
                )
            }
            ReplayError::Illegal { turn, why } => write!(f, "turn {}: {why}", turn + 1),
            ReplayError::TurnBoundary { turn } => write!(
                f,
                "turn {} does not end where the extra turns end",
                turn + 1
            ),
            ReplayError::NotOver => f.write_str("the line ends before the game is over"),
            ReplayError::AfterRepetition { turn } => write!(
                f,
                "turn {} follows a return to a position already reached",
                turn + 1
            ),
            ReplayError::WrongScore { score, value } => write!(
                f,
                "the line ends with score {score:+}, not the value {value:+}"
            ),
        }
    }
}

impl std::error::Error for ReplayError {}

/// Plays `line` from `pos` and checks that it is a complete game ending with the score
/// `value` (from South). Every sowing must be legal, each turn must end exactly where the
/// extra turns end (or where the game ends), and the last turn must end the game, or, in
/// the families whose positions repeat, return to a position of the line: play would then
/// go on for ever, and the cycle rule (docs/rules.md §5.7) ends it with the store margin
/// standing. Returns the final position.
pub fn replay(
    game: &Game,
    pos: &Position,
    line: &[Turn],
    value: i32,
) -> Result<Position, ReplayError> {
    let mut p = *pos;
    let mut seen = std::collections::HashSet::from([p]);
    let mut repeated = false;
    for (t, turn) in line.iter().enumerate() {
        if repeated {
            return Err(ReplayError::AfterRepetition { turn: t });
        }
        if p.side_to_move() != turn.side || turn.sowings.is_empty() {
            return Err(ReplayError::WrongSide { turn: t });
        }
        for (k, &j) in turn.sowings.iter().enumerate() {
            let (next, how) = game
                .try_play(&p, j)
                .map_err(|why| ReplayError::Illegal { turn: t, why })?;
            let last = k + 1 == turn.sowings.len();
            let boundary_ok = match how {
                Sowing::ExtraTurn => !last,
                Sowing::Passed | Sowing::GameOver => last,
            };
            if !boundary_ok {
                return Err(ReplayError::TurnBoundary { turn: t });
            }
            if repeated {
                return Err(ReplayError::AfterRepetition { turn: t });
            }
            p = next;
            // Every position reached counts, also one in the middle of a turn.
            repeated = !seen.insert(p);
        }
    }
    let cycle = repeated && game.rules().family.is_cyclic();
    if !p.is_over() && !cycle {
        return Err(ReplayError::NotOver);
    }
    if p.score() != value {
        return Err(ReplayError::WrongScore {
            score: p.score(),
            value,
        });
    }
    Ok(p)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sowings_after_an_extra_turn_join_the_same_turn() {
        let mut line = Vec::new();
        push_sowing(&mut line, Side::South, 2);
        push_sowing(&mut line, Side::South, 5);
        push_sowing(&mut line, Side::North, 0);
        let turn = |side, sowings: &[usize]| Turn {
            side,
            sowings: sowings.to_vec(),
        };
        assert_eq!(line, [turn(Side::South, &[2, 5]), turn(Side::North, &[0])]);
        push_turn(&mut line, turn(Side::North, &[3, 1]));
        push_turn(&mut line, turn(Side::South, &[4]));
        assert_eq!(
            line,
            [
                turn(Side::South, &[2, 5]),
                turn(Side::North, &[0, 3, 1]),
                turn(Side::South, &[4])
            ]
        );
    }
}
