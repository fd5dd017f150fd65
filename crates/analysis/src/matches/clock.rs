//! The clocks of a match played on time (`kalah match --clock MINUTES+INCREMENT`): each
//! player's time for the game ([`ClockSpec`]), kept by the match move by move
//! ([`Clocks`]): the time a player's `choose` took is taken off its clock, its increment
//! added after; a player whose time runs out loses the game on time. What the clocks saw
//! over the match (losses on time, time used, the largest overrun of the hard limit the
//! engine's time manager sets) is [`ClockStats`].

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use kalah_core::Side;

use crate::protocol::GameClock;

/// A player's clock: its time for the whole game and its increment a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClockSpec {
    /// The time for the game.
    pub base: Duration,
    /// Added after each move.
    pub increment: Duration,
}

impl FromStr for ClockSpec {
    type Err = String;

    /// `MINUTES+INCREMENT` (the increment in seconds, decimals allowed: `2+1`, `0.1+0.05`)
    /// or `MINUTES` alone.
    fn from_str(s: &str) -> Result<ClockSpec, String> {
        let bad = || {
            format!(
                "a clock is MINUTES+INCREMENT (the increment in seconds, e.g. 2+1 or \
                 0.1+0.05), not `{s}`"
            )
        };
        let (minutes, inc) = s.trim().split_once('+').unwrap_or((s.trim(), "0"));
        let number = |t: &str, most: f64| -> Result<f64, String> {
            match t.trim().parse::<f64>() {
                Ok(x) if x.is_finite() && (0.0..=most).contains(&x) => Ok(x),
                _ => Err(bad()),
            }
        };
        let base = number(minutes, 10_000.0)?;
        let inc = number(inc, 3600.0)?;
        if base <= 0.0 {
            return Err(bad());
        }
        Ok(ClockSpec {
            base: Duration::from_secs_f64(base * 60.0),
            increment: Duration::from_secs_f64(inc),
        })
    }
}

impl fmt::Display for ClockSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let minutes = self.base.as_secs_f64() / 60.0;
        write!(f, "{minutes}+{}", self.increment.as_secs_f64())
    }
}

/// What the clocks of a match saw, for player 1 and player 2.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ClockStats {
    /// Games lost on time.
    pub losses_on_time: [usize; 2],
    /// Moves made on a clock.
    pub moves: [usize; 2],
    /// Time those moves took in all.
    pub used: [Duration; 2],
    /// The longest of them.
    pub longest: [Duration; 2],
    /// The largest excess of a move's time over the hard limit that this engine's time
    /// manager sets for that clock (negative: it never reached it), in milliseconds.
    pub overrun_ms: [Option<f64>; 2],
}

impl ClockStats {
    /// What these clocks and `other`'s saw together (two tables of one match).
    pub fn merged(&self, other: &ClockStats) -> ClockStats {
        ClockStats {
            losses_on_time: [0, 1].map(|p| self.losses_on_time[p] + other.losses_on_time[p]),
            moves: [0, 1].map(|p| self.moves[p] + other.moves[p]),
            used: [0, 1].map(|p| self.used[p] + other.used[p]),
            longest: [0, 1].map(|p| self.longest[p].max(other.longest[p])),
            overrun_ms: [0, 1].map(|p| match (self.overrun_ms[p], other.overrun_ms[p]) {
                (Some(a), Some(b)) => Some(a.max(b)),
                (a, b) => a.or(b),
            }),
        }
    }
}

/// The clocks of the players of a match (either may have none), and what they saw.
#[derive(Clone, Debug, Default)]
pub struct Clocks {
    specs: [Option<ClockSpec>; 2],
    left: [Duration; 2],
    /// What the clocks saw over the games so far.
    pub stats: ClockStats,
}

impl Clocks {
    /// The clocks of players 0 and 1 (`None`: that player moves within its limits).
    pub fn new(specs: [Option<ClockSpec>; 2]) -> Clocks {
        Clocks {
            specs,
            ..Clocks::default()
        }
    }

    /// True where some player plays on a clock.
    pub fn any(&self) -> bool {
        self.specs.iter().any(Option::is_some)
    }

    /// Sets both clocks for a new game.
    pub fn new_game(&mut self) {
        for (left, spec) in self.left.iter_mut().zip(&self.specs) {
            *left = spec.map_or(Duration::ZERO, |s| s.base);
        }
    }

    /// The clock as a `go` to player `mover` gives it, with player `south` as South; none
    /// where `mover` plays on none: a player on its own limits is asked with them alone
    /// (a program that knows no clock would refuse a `go` that carries one).
    pub fn game_clock(&self, mover: usize, south: usize) -> Option<GameClock> {
        self.specs[mover]?;
        let of = |p: usize| (self.specs[p].map(|_| self.left[p]), self.specs[p]);
        let (s, n) = (of(south), of(1 - south));
        Some(GameClock {
            south: s.0,
            north: n.0,
            south_inc: s.1.map_or(Duration::ZERO, |c| c.increment),
            north_inc: n.1.map_or(Duration::ZERO, |c| c.increment),
            moves_to_go: None,
        })
    }

    /// Takes `used` off player `p`'s clock (it moved as `side`, with `clock` as it stood
    /// and `moves_left` guessed for it): true where its time ran out (a loss on time);
    /// else its increment is added.
    pub fn charge(
        &mut self,
        p: usize,
        side: Side,
        clock: Option<GameClock>,
        moves_left: u32,
        used: Duration,
    ) -> bool {
        let Some(spec) = self.specs[p] else {
            return false;
        };
        let s = &mut self.stats;
        s.moves[p] += 1;
        s.used[p] += used;
        s.longest[p] = s.longest[p].max(used);
        if let Some(plan) = clock.and_then(|c| c.plan(side, moves_left)) {
            let over = used.as_secs_f64() * 1e3 - plan.hard.as_secs_f64() * 1e3;
            s.overrun_ms[p] = Some(s.overrun_ms[p].map_or(over, |o: f64| o.max(over)));
        }
        if used > self.left[p] {
            self.left[p] = Duration::ZERO;
            s.losses_on_time[p] += 1;
            return true;
        }
        self.left[p] = self.left[p] - used + spec.increment;
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clocks_read_minutes_and_seconds() {
        let c: ClockSpec = "2+1".parse().unwrap();
        assert_eq!(
            (c.base, c.increment),
            (Duration::from_secs(120), Duration::from_secs(1))
        );
        assert_eq!(c.to_string(), "2+1");
        let c: ClockSpec = "0.1+0.05".parse().unwrap();
        assert_eq!(c.base, Duration::from_secs(6));
        assert_eq!("3".parse::<ClockSpec>().unwrap().increment, Duration::ZERO);
        for bad in ["", "x+1", "0+1", "-1+0", "1+-2", "1+nan", "1+2+3"] {
            assert!(bad.parse::<ClockSpec>().is_err(), "{bad}");
        }
    }

    #[test]
    fn a_clock_loses_time_gains_its_increment_and_runs_out() {
        let spec = "0.01+0.1".parse::<ClockSpec>().ok();
        let mut clocks = Clocks::new([spec, None]);
        clocks.new_game();
        let c = clocks.game_clock(0, 1).unwrap();
        // Player 1 has no clock: it is asked without one.
        assert!(clocks.game_clock(1, 1).is_none());
        assert_eq!((c.south, c.north), (None, Some(Duration::from_millis(600))));
        let ms = Duration::from_millis;
        assert!(!clocks.charge(0, Side::North, Some(c), 10, ms(500)));
        assert_eq!(clocks.game_clock(0, 0).unwrap().south, Some(ms(200)));
        // The player without a clock is never charged.
        assert!(!clocks.charge(1, Side::South, None, 10, ms(5000)));
        assert!(clocks.charge(0, Side::North, None, 10, ms(201)));
        let s = &clocks.stats;
        assert_eq!((s.losses_on_time, s.moves), ([1, 0], [2, 0]));
        assert_eq!(s.longest[0], ms(500));
        assert!(s.overrun_ms[0].unwrap() > 0.0, "{s:?}");
        assert!(Clocks::new([None, None]).game_clock(0, 0).is_none());
    }
}
