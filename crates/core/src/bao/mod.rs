//! Bao la Kujifunza, the four-row game of `BAO.md`: rules on 4 rows of N pits (N = 3..8)
//! with S seeds a pit, the move generator, notation and perft.
//!
//! A [`BaoPosition`] is a small `Copy` value (the 4N pit counts and the side to move).
//! [`BaoPosition::legal`] plays every candidate out (relays, captures, chains, the
//! never-ending test) and returns the legal moves with the positions they lead to;
//! [`BaoPosition::try_play`] checks and plays one move.
//!
//! ```
//! use kalah_core::bao::{BaoPosition, BaoRules};
//!
//! let start = BaoRules::standard().start();
//! assert_eq!(
//!     start.to_string(),
//!     "2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2:S"
//! );
//! assert_eq!(start.legal().len(), 16);
//! let mv = start.parse_move("A3+").unwrap();
//! let (next, _) = start.try_play(mv).unwrap();
//! assert_eq!(kalah_core::bao::perft(&start, 2), 108);
//! let back: BaoPosition = next.to_string().parse().unwrap();
//! assert_eq!(back, next);
//! ```

mod error;
mod notation;
mod perft;
mod position;
mod sow;

pub use error::BaoError;
pub use perft::{divide, perft};
pub use position::BaoPosition;
pub use sow::{BaoChild, BaoLegal, MAX_CANDIDATES};

use crate::Side;

/// The most pits a row (N).
pub const MAX_PITS: usize = 8;
/// The most seeds a position may hold (a pit count is a byte).
pub const MAX_SEEDS: usize = 255;

/// The sowing direction of R1.4: clockwise (`+`) runs along the owner's front row from pit
/// 1 to pit N and back along the back row; anticlockwise (`-`) is the reverse.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Dir {
    /// `+`: one step adds 1 to the loop index.
    Clockwise,
    /// `-`: one step subtracts 1 from the loop index.
    Anticlockwise,
}

impl Dir {
    /// The other direction.
    pub fn reversed(self) -> Dir {
        match self {
            Dir::Clockwise => Dir::Anticlockwise,
            Dir::Anticlockwise => Dir::Clockwise,
        }
    }

    /// `+` or `-`, as in the move notation.
    pub fn sign(self) -> char {
        match self {
            Dir::Clockwise => '+',
            Dir::Anticlockwise => '-',
        }
    }
}

/// A player's two rows: the front row (next to the centre line, the only one that captures
/// and is captured) and the back row.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Row {
    /// South's `A`, North's `a`.
    Front,
    /// South's `B`, North's `b`.
    Back,
}

/// A move (one whole turn): the mover, a pit of the mover (row and number 1..N from the
/// owner's left, R1.2) and a direction. Written `A3+`, `b8-` (R8.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BaoMove {
    /// Who plays it (decides the case of the row letter).
    pub side: Side,
    /// The row of the lifted pit.
    pub row: Row,
    /// The pit's number, 1..N from its owner's left.
    pub pit: u8,
    /// The direction of the first sowing.
    pub dir: Dir,
}

impl BaoMove {
    /// The pit's index in its owner's sowing loop (R1.4): front pit k is k-1, back pit k is
    /// 2N-k.
    pub fn loop_index(self, n: usize) -> usize {
        match self.row {
            Row::Front => self.pit as usize - 1,
            Row::Back => 2 * n - self.pit as usize,
        }
    }

    /// The move with loop index `index` (0..2N) in direction `dir` of `side`.
    pub fn from_loop_index(side: Side, n: usize, index: usize, dir: Dir) -> BaoMove {
        debug_assert!(index < 2 * n);
        let (row, pit) = if index < n {
            (Row::Front, index + 1)
        } else {
            (Row::Back, 2 * n - index)
        };
        BaoMove {
            side,
            row,
            pit: pit as u8,
            dir,
        }
    }

    /// The move's image under the left-right mirror (R9.2): pit k becomes pit N+1-k and the
    /// direction reverses.
    pub fn mirrored(self, n: usize) -> BaoMove {
        BaoMove {
            pit: (n + 1) as u8 - self.pit,
            dir: self.dir.reversed(),
            ..self
        }
    }

    /// The move's image under the half turn (R9.2): the same pit and direction of the
    /// other player.
    pub fn turned(self) -> BaoMove {
        BaoMove {
            side: self.side.other(),
            ..self
        }
    }
}

/// The rules of one board: N pits a row (3..=8) and S seeds a pit at the start.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BaoRules {
    pits: u8,
    seeds: u8,
}

impl BaoRules {
    /// The rules of 4 rows of `pits` pits with `seeds` seeds in each pit at the start.
    /// Refused: `pits` outside 3..=8, no seeds, or more than [`MAX_SEEDS`] seeds in all.
    pub fn new(pits: usize, seeds: usize) -> Result<BaoRules, BaoError> {
        if !(3..=MAX_PITS).contains(&pits) {
            return Err(BaoError::Pits(pits));
        }
        // pits is at most 8 here; `seeds` may be anything a caller parsed.
        if seeds == 0 || seeds > MAX_SEEDS / (4 * pits) {
            return Err(BaoError::Seeds { pits, seeds });
        }
        Ok(BaoRules {
            pits: pits as u8,
            seeds: seeds as u8,
        })
    }

    /// The standard board: 4 rows of 8 pits, 2 seeds a pit (64 seeds).
    pub fn standard() -> BaoRules {
        BaoRules { pits: 8, seeds: 2 }
    }

    /// N, the pits of one row.
    pub fn pits(&self) -> usize {
        self.pits as usize
    }

    /// S, the seeds of each pit at the start.
    pub fn seeds(&self) -> usize {
        self.seeds as usize
    }

    /// The start (R2): S seeds in every pit, South to move.
    pub fn start(&self) -> BaoPosition {
        BaoPosition::filled(self.pits(), self.seeds, Side::South)
    }

    /// Whether `pos` is a position of this board (its N; any seed count up to 4NS).
    pub fn fits(&self, pos: &BaoPosition) -> bool {
        pos.pits() == self.pits() && pos.seeds() <= 4 * self.pits() * self.seeds()
    }
}
