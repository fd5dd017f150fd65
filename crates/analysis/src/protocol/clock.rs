//! A game clock as `go` gives it (`stime`, `ntime`, `sinc`, `ninc`, `movestogo`,
//! docs/engine.md) and the time plan of one move from it ([`GameClock::plan`]): a soft
//! limit from the mover's remaining time over the moves expected to be left plus most of
//! the increment, and a hard limit, a fraction of the remaining time less a safety margin
//! for the process and the pipes, that the search never passes. The moves left are
//! guessed from the position ([`moves_left`]); all of it is heuristic allocation.

use std::time::Duration;

use kalah_core::{Position, Side};
use kalah_solver::TimePlan;

use crate::game::Board;

/// Each side's remaining time and increment, and the moves to the next time control
/// where the tournament fixes them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GameClock {
    /// South's remaining time (none: not given).
    pub south: Option<Duration>,
    /// North's remaining time.
    pub north: Option<Duration>,
    /// South's increment a move.
    pub south_inc: Duration,
    /// North's increment a move.
    pub north_inc: Duration,
    /// Moves of the mover to the next time control (none: the whole game).
    pub moves_to_go: Option<u32>,
}

/// The least safety margin kept off the remaining time: process and pipe latency, and a
/// scheduler that lets the engine wait.
pub const MIN_MARGIN: Duration = Duration::from_millis(10);
/// The most safety margin.
pub const MAX_MARGIN: Duration = Duration::from_millis(50);

impl GameClock {
    /// The remaining time and increment of `side`.
    pub fn of(&self, side: Side) -> (Option<Duration>, Duration) {
        match side {
            Side::South => (self.south, self.south_inc),
            Side::North => (self.north, self.north_inc),
        }
    }

    /// The plan of a move of `side` with about `expected` moves of its own left in the
    /// game; `None` where the clock does not give the mover's time.
    ///
    /// The margin is a twentieth of the remaining time, between [`MIN_MARGIN`] and
    /// [`MAX_MARGIN`] (at most a quarter of it). Of what is left, a move's share is an
    /// equal part for each move to go (`movestogo`, else `expected`); the soft limit is
    /// twice the share (the time manager starts no depth after half of it, so a move takes
    /// about its share on average) plus three quarters of the increment; the hard limit is
    /// three times the soft limit, at most half of what is left (nine tenths on the last
    /// move before a time control), and the soft limit at most the hard one.
    pub fn plan(&self, side: Side, expected: u32) -> Option<TimePlan> {
        let (remaining, inc) = self.of(side);
        let remaining = remaining?;
        let margin = (remaining / 20)
            .clamp(MIN_MARGIN, MAX_MARGIN)
            .min(remaining / 4);
        let usable = remaining.saturating_sub(margin);
        let to_go = self.moves_to_go.unwrap_or(expected).clamp(1, 60);
        let soft = usable * 2 / to_go + inc.mul_f64(0.75);
        let share = if to_go == 1 { 0.9 } else { 0.5 };
        let hard = (soft * 3).min(usable.mul_f64(share));
        Some(TimePlan {
            soft: soft.min(hard),
            hard,
        })
    }

    /// The clock words of a `go` line (`stime MS ...`), empty where none is set.
    pub fn words(&self) -> String {
        let ms = |d: Duration| d.as_millis();
        let mut w = Vec::new();
        if let Some(t) = self.south {
            w.push(format!("stime {}", ms(t)));
        }
        if let Some(t) = self.north {
            w.push(format!("ntime {}", ms(t)));
        }
        if !self.south_inc.is_zero() {
            w.push(format!("sinc {}", ms(self.south_inc)));
        }
        if !self.north_inc.is_zero() {
            w.push(format!("ninc {}", ms(self.north_inc)));
        }
        if let Some(n) = self.moves_to_go {
            w.push(format!("movestogo {n}"));
        }
        w.join(" ")
    }
}

/// The moves of its own the mover of a sowing game's `pos` is guessed to have left: 6
/// with no seed in the houses to 16 with every seed there (the games of Kalah(6,6) from
/// the balanced openings last about 13 turns a side, the last of them proved quickly).
pub fn moves_left(pos: &Position) -> u32 {
    let total = pos.total_seeds().max(1);
    6 + 10 * pos.seeds_in_houses().min(total) / total
}

/// [`moves_left`] of the mover of `board`; Bao's games are short (about 8 moves a side
/// from two random moves, docs/matches.md): 10.
pub fn board_moves_left(board: &Board) -> u32 {
    match board {
        Board::Sowing(_, pos) => moves_left(pos),
        Board::Bao(..) => 10,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clock(ms: u64, inc: u64) -> GameClock {
        GameClock {
            south: Some(Duration::from_millis(ms)),
            south_inc: Duration::from_millis(inc),
            ..GameClock::default()
        }
    }

    #[test]
    fn the_plan_shares_the_time_and_keeps_a_margin() {
        let p = clock(120_000, 1000).plan(Side::South, 20).unwrap();
        // 2 (120 s - 50 ms) / 20 + 0.75 s
        assert_eq!(p.soft, Duration::from_millis(12_745));
        assert_eq!(p.hard, p.soft * 3);
        // Little time left: the hard limit is a share of it, less the margin.
        let p = clock(100, 50).plan(Side::South, 20).unwrap();
        assert!(p.hard <= Duration::from_millis(45), "{p:?}");
        assert!(p.soft <= p.hard);
        // The last move before a control may take most of what is left.
        let last = GameClock {
            moves_to_go: Some(1),
            ..clock(1000, 0)
        };
        assert_eq!(
            last.plan(Side::South, 20).unwrap().hard,
            Duration::from_millis(900 - 45)
        );
        // No time for the mover: no plan.
        assert_eq!(clock(1000, 0).plan(Side::North, 20), None);
    }

    #[test]
    fn moves_left_falls_as_the_seeds_leave_the_houses() {
        let start: Position = "6,6,6,6,6,6,0,6,6,6,6,6,6,0:S".parse().unwrap();
        assert_eq!(moves_left(&start), 16);
        let late: Position = "1,0,0,0,0,1,40,0,0,0,0,0,1,29:S".parse().unwrap();
        assert_eq!(moves_left(&late), 6);
    }
}
