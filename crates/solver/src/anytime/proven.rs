//! What an analysis has proved of a value, in the two forms the families give it, and the
//! one place where the mover's view of a value turns into South's.
//!
//! The sowing games (Kalah, Oware, Ethiopian, ...) prove an interval of final store
//! margins that holds the exact value; Bao proves a forced win or loss found inside the
//! searched tree, or nothing. Both are cases of [`Proven`]; an analysis of either
//! ([`super::Analysis`], whose proven part is its [`super::Move::Proof`]) gives its own
//! as `proof()`.

use kalah_core::Side;

/// A result proven inside the searched tree (Bao), for the side to move. `moves` counts
/// moves of both players from the position to the end of the game, the last one included.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The mover can force a win within `moves` moves, whatever the opponent plays.
    Won {
        /// At most this many moves to the win.
        moves: u32,
    },
    /// The opponent can force a win within `moves` moves, whatever the mover plays.
    Lost {
        /// At most this many moves to the loss.
        moves: u32,
    },
}

impl Outcome {
    /// +1 for the mover's win, −1 for its loss.
    pub fn sign(self) -> i32 {
        match self {
            Outcome::Won { .. } => 1,
            Outcome::Lost { .. } => -1,
        }
    }

    /// The same result for the other player: a win is their loss.
    pub fn flipped(self) -> Outcome {
        match self {
            Outcome::Won { moves } => Outcome::Lost { moves },
            Outcome::Lost { moves } => Outcome::Won { moves },
        }
    }
}

/// What is proven of a value, for one player: a proof, never a heuristic guess.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Proven {
    /// The sowing games: the exact value (a final store margin) lies in
    /// `lower..=upper`; it is that value once they meet.
    Interval {
        /// Proven lower bound.
        lower: i32,
        /// Proven upper bound.
        upper: i32,
    },
    /// Bao: a forced win or loss, or `None` where the search proved neither (a draw,
    /// play that only cycles, is never proved by a depth-limited search).
    Outcome(Option<Outcome>),
}

impl Proven {
    /// True when the proof settles the value: a closed interval, or a win or loss.
    pub fn is_exact(&self) -> bool {
        match self {
            Proven::Interval { lower, upper } => lower == upper,
            Proven::Outcome(o) => o.is_some(),
        }
    }

    /// The same proof seen from South, where `side` is the player it is for.
    pub fn from_south(self, side: Side) -> Proven {
        match self {
            Proven::Interval { lower, upper } => {
                let (lower, upper) = interval_from_south(side, lower, upper);
                Proven::Interval { lower, upper }
            }
            Proven::Outcome(o) => Proven::Outcome(match side {
                Side::South => o,
                Side::North => o.map(Outcome::flipped),
            }),
        }
    }
}

/// A value for `side` seen from South: the same for South, negated for North.
pub fn value_from_south(side: Side, value: i32) -> i32 {
    side.sign() * value
}

/// An interval `lower..=upper` of values for `side` seen from South, lower first.
pub fn interval_from_south(side: Side, lower: i32, upper: i32) -> (i32, i32) {
    match side {
        Side::South => (lower, upper),
        Side::North => (-upper, -lower),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn from_south_turns_north_proofs_and_keeps_south_ones() {
        let i = Proven::Interval {
            lower: -3,
            upper: 5,
        };
        assert_eq!(i.from_south(Side::South), i);
        let north = Proven::Interval {
            lower: -5,
            upper: 3,
        };
        assert_eq!(i.from_south(Side::North), north);
        let won = Proven::Outcome(Some(Outcome::Won { moves: 3 }));
        let lost = Proven::Outcome(Some(Outcome::Lost { moves: 3 }));
        assert_eq!(won.from_south(Side::North), lost);
        assert_eq!(won.from_south(Side::South), won);
        assert_eq!(
            Proven::Outcome(None).from_south(Side::North),
            Proven::Outcome(None)
        );
        assert_eq!(value_from_south(Side::North, 4), -4);
    }
}
