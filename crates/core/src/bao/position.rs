//! The Bao position: 4N pit counts in byte lanes (two sowing loops) and the side to move.

use crate::key::mix;
use crate::Side;

use super::{Dir, Row, MAX_PITS, MAX_SEEDS};

/// Lanes of one player's loop.
pub(crate) const LOOP: usize = 2 * MAX_PITS;

/// A Bao position: the counts of the 4N pits and the player to move.
///
/// The counts live in 32 byte lanes, one sowing loop (R1.4) of 16 lanes per player, in the
/// absolute frame (South first):
///
/// ```text
///  lane:  0 .. N-1     N .. 2N-1       2N..15 | 16 .. 16+N-1   16+N .. 16+2N-1   ..31
///         A1 .. AN     BN .. B1        0      | a1 .. aN       bN .. b1          0
///         South's loop, clockwise order       | North's loop, clockwise order
/// ```
///
/// so front pit k has loop index k-1 and back pit k has loop index 2N-k; one clockwise
/// step adds 1 modulo 2N. Unused lanes are 0, so equal positions are equal values and
/// `Hash`/`Eq` compare boards. A position whose mover has an empty front row is over: the
/// opponent emptied it with a capture (R7.1; the mover can never empty their own, R7.2).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct BaoPosition {
    pub(crate) lanes: [u8; 2 * LOOP],
    pub(crate) n: u8,
    pub(crate) side: Side,
}

impl BaoPosition {
    /// `seeds` in every pit of a board of `n` pits a row, `side` to move.
    pub(crate) fn filled(n: usize, seeds: u8, side: Side) -> BaoPosition {
        let mut lanes = [0u8; 2 * LOOP];
        for base in [0, LOOP] {
            lanes[base..base + 2 * n].fill(seeds);
        }
        BaoPosition {
            lanes,
            n: n as u8,
            side,
        }
    }

    /// A position from its four rows, each listed from its owner's pit 1 to pit N:
    /// `[A, B, a, b]` (South's front, South's back, North's front, North's back).
    /// Refused: rows of different lengths or outside 3..=8 pits, more than 255 seeds.
    pub fn from_rows(rows: [&[u8]; 4], side: Side) -> Result<BaoPosition, super::BaoError> {
        let n = rows[0].len();
        for (i, r) in rows.iter().enumerate() {
            if r.len() != n || !(3..=MAX_PITS).contains(&n) {
                return Err(super::BaoError::RowLength {
                    row: i + 1,
                    found: r.len(),
                });
            }
        }
        let seeds: usize = rows
            .iter()
            .flat_map(|r| r.iter())
            .map(|&c| c as usize)
            .sum();
        if seeds > MAX_SEEDS {
            return Err(super::BaoError::TooManySeeds(seeds));
        }
        let mut pos = BaoPosition {
            lanes: [0; 2 * LOOP],
            n: n as u8,
            side,
        };
        let sides = [Side::South, Side::North];
        for (k, row) in rows.iter().enumerate() {
            let (owner, kind) = (sides[k / 2], [Row::Front, Row::Back][k % 2]);
            for (p, &c) in row.iter().enumerate() {
                pos.lanes[pos.lane(owner, kind, p + 1)] = c;
            }
        }
        Ok(pos)
    }

    /// N, the pits of one row.
    #[inline]
    pub fn pits(&self) -> usize {
        self.n as usize
    }

    /// The player to move.
    #[inline]
    pub fn side(&self) -> Side {
        self.side
    }

    /// The same board with `side` to move.
    pub fn with_side(mut self, side: Side) -> BaoPosition {
        self.side = side;
        self
    }

    /// The lane of `owner`'s pit `pit` (1..=N) of row `row`.
    #[inline]
    pub(crate) fn lane(&self, owner: Side, row: Row, pit: usize) -> usize {
        let n = self.pits();
        debug_assert!((1..=n).contains(&pit));
        let base = if owner == Side::South { 0 } else { LOOP };
        base + match row {
            Row::Front => pit - 1,
            Row::Back => 2 * n - pit,
        }
    }

    /// The seeds in `owner`'s pit `pit` (1..=N) of row `row`.
    pub fn count(&self, owner: Side, row: Row, pit: usize) -> u8 {
        self.lanes[self.lane(owner, row, pit)]
    }

    /// The seeds of `owner`'s loop in loop order (R1.4: front pit 1..N, then back pit N..1).
    pub fn loop_counts(&self, owner: Side) -> &[u8] {
        let base = if owner == Side::South { 0 } else { LOOP };
        &self.lanes[base..base + 2 * self.pits()]
    }

    /// All the seeds on the board.
    pub fn seeds(&self) -> usize {
        self.lanes.iter().map(|&c| c as usize).sum()
    }

    /// Whether `owner`'s front row holds no seed.
    pub fn front_empty(&self, owner: Side) -> bool {
        self.loop_counts(owner)[..self.pits()]
            .iter()
            .all(|&c| c == 0)
    }

    /// Whether the game ended by a capture that emptied the mover's front row (R7.1): the
    /// mover has lost. A position with no legal move is lost as well (R7.4), which
    /// [`BaoPosition::terminal_value`] also tells.
    pub fn is_over(&self) -> bool {
        self.front_empty(self.side)
    }

    /// The value for the mover when the game is decided without a move: `Some(-1)` if the
    /// front row is empty or no move is legal (R7.1, R7.4), `None` while the game goes on.
    pub fn terminal_value(&self) -> Option<i32> {
        (self.is_over() || self.legal().is_empty()).then_some(-1)
    }

    /// A 64-bit hash key of the board and the side to move, for transposition tables.
    pub fn key(&self) -> u64 {
        let mut h = (self.n as u64) << 1 | (self.side == Side::North) as u64;
        for chunk in self.lanes.chunks_exact(8) {
            let word = u64::from_le_bytes(chunk.try_into().expect("8 lanes"));
            h = mix(h ^ word);
        }
        h
    }

    /// The left-right mirror (R9.2): pit k becomes pit N+1-k in all four rows.
    pub fn mirrored(&self) -> BaoPosition {
        let n = self.pits();
        let mut out = BaoPosition {
            lanes: [0; 2 * LOOP],
            ..*self
        };
        for owner in [Side::South, Side::North] {
            for row in [Row::Front, Row::Back] {
                for p in 1..=n {
                    out.lanes[out.lane(owner, row, n + 1 - p)] = self.count(owner, row, p);
                }
            }
        }
        out
    }

    /// The half turn (R9.2): South's pits become North's and the other player moves.
    pub fn turned(&self) -> BaoPosition {
        let mut lanes = [0u8; 2 * LOOP];
        lanes[..LOOP].copy_from_slice(&self.lanes[LOOP..]);
        lanes[LOOP..].copy_from_slice(&self.lanes[..LOOP]);
        BaoPosition {
            lanes,
            n: self.n,
            side: self.side.other(),
        }
    }
}

/// Loop step in a direction: +1 or -1 modulo `len`.
#[inline]
pub(crate) fn step(i: usize, dir: Dir, len: usize) -> usize {
    match dir {
        Dir::Clockwise => {
            if i + 1 == len {
                0
            } else {
                i + 1
            }
        }
        Dir::Anticlockwise => {
            if i == 0 {
                len - 1
            } else {
                i - 1
            }
        }
    }
}
