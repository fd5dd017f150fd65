//! The end of the game, shared by every move generator: the end-of-game rule and the
//! leftovers after a sowing, the early stop, and the settling of a hand-entered position.

use super::{Game, RowSowing};
use crate::error::PositionError;
use crate::position::Position;
use crate::rules::{End, Leftovers};

impl Game {
    /// The [`RowSowing`] of a sowing that left the rows `mine` and `theirs` and banked
    /// `banked` seeds (`[mover, opponent]`), once the end-of-game rule is applied to it:
    /// the player to move next is the mover again after an `extra` turn, the opponent
    /// otherwise. `theirs_kept`: the sowing left the opponent's row as it was.
    #[inline(always)]
    pub(super) fn finish(
        &self,
        mine: u64,
        theirs: u64,
        banked: [u8; 2],
        extra: bool,
        theirs_kept: bool,
    ) -> RowSowing {
        let ended = if extra {
            self.ends(mine, theirs)
        } else {
            self.ends(theirs, mine)
        };
        let (mut a, mut b) = (mine, theirs);
        let [mut to_mover, mut to_opponent] = banked;
        if ended {
            let (left_mine, left_theirs) = self.leftovers(a, b);
            to_mover += left_mine;
            to_opponent += left_theirs;
            a = 0;
            b = 0;
        }
        RowSowing {
            mine: a,
            theirs: b,
            to_mover,
            to_opponent,
            extra,
            ended,
            theirs_kept: theirs_kept && !ended,
        }
    }

    /// Checks that `pos` belongs to this game (board size, seed count) and applies the
    /// end-of-game rule to it, so that a hand-entered position whose game is already over
    /// (an empty row under `end=row-empty`, a stuck mover, a majority with early stop)
    /// becomes the finished position.
    pub fn settle(&self, pos: Position) -> Result<Position, PositionError> {
        if pos.houses as usize != self.h {
            return Err(PositionError::WrongBoard {
                houses: pos.houses as usize,
                expected: self.h,
            });
        }
        if pos.total as usize > self.capacity() {
            return Err(PositionError::TooManySeeds {
                seeds: pos.total as usize,
                capacity: self.capacity(),
            });
        }
        if pos.is_over() {
            return Ok(pos);
        }
        // The mover is about to move, as after a sowing that passed the turn to them.
        let mut p = pos;
        let (mine, theirs) = (
            pos.board as u64 & self.row,
            (pos.board >> (8 * self.h)) as u64,
        );
        if self.rules.family.is_cyclic() {
            if let Some((a, b)) = self.cyclic_end(mine, theirs) {
                p.stores[0] += a;
                p.stores[1] += b;
                p.board = 0;
                return Ok(p);
            }
        }
        if let Some((mine, theirs)) = self.settle_rows(
            pos.board as u64 & self.row,
            (pos.board >> (8 * self.h)) as u64,
        ) {
            p.stores[0] += mine;
            p.stores[1] += theirs;
            p.board = 0;
        } else if self.majority(p.stores, p.total) {
            p.board = 0;
        }
        Ok(p)
    }

    /// Where the end-of-game rule ends the game of the player to move with the row `mine`
    /// against `theirs` before they sow (the early stop aside): the leftovers it then puts
    /// in the mover's and the opponent's stores.
    #[inline]
    pub fn settle_rows(&self, mine: u64, theirs: u64) -> Option<(u8, u8)> {
        self.ends(mine, theirs)
            .then(|| self.leftovers(mine, theirs))
    }

    /// True when the end-of-game rule ends the game with `next` the row of the player to
    /// move next and `other` the other row.
    #[inline(always)]
    fn ends(&self, next: u64, other: u64) -> bool {
        match self.rules.end {
            End::RowEmpty => next == 0 || other == 0,
            // The player to move next is stuck.
            End::MoverStuck => next == 0,
        }
    }

    /// The seeds that the leftovers rule puts in the stores of the owners of `mine` and
    /// `theirs` when the game ends.
    #[inline(always)]
    fn leftovers(&self, mine: u64, theirs: u64) -> (u8, u8) {
        match self.rules.leftovers {
            Leftovers::Owner => (row_sum(mine), row_sum(theirs)),
            Leftovers::Discard => (0, 0),
        }
    }

    /// True when, under the early stop, one of `stores` holds more than half of the
    /// `total` seeds: the game stops and the houses are not counted.
    #[inline(always)]
    pub(super) fn majority(&self, stores: [u8; 2], total: u8) -> bool {
        self.rules.early_stop && 2 * stores[0].max(stores[1]) as u32 > total as u32
    }
}

/// Sum of the byte lanes of a row (at most 255 seeds in all).
#[inline(always)]
pub(super) fn row_sum(row: u64) -> u8 {
    (row.wrapping_mul(0x0101_0101_0101_0101) >> 56) as u8
}
