//! The packed position: house counts in byte lanes of one `u128`, stores beside them.

use std::fmt;

/// One of the two players. South moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Side {
    /// The first player, owning the bottom row and the right-hand store.
    South,
    /// The second player, owning the top row.
    North,
}

impl Side {
    /// The other player.
    #[inline]
    pub fn other(self) -> Side {
        match self {
            Side::South => Side::North,
            Side::North => Side::South,
        }
    }

    /// `S` or `N`, as in the board notation.
    pub fn letter(self) -> char {
        match self {
            Side::South => 'S',
            Side::North => 'N',
        }
    }

    /// `+1` for South, `-1` for North: multiplies a mover-relative value into one from South.
    #[inline]
    pub fn sign(self) -> i32 {
        match self {
            Side::South => 1,
            Side::North => -1,
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Side::South => "South",
            Side::North => "North",
        })
    }
}

/// A Kalah position, from the point of view of the player to move (the *mover*).
///
/// The houses of both rows live in byte lanes of one `u128`, mover first:
///
/// ```text
///  lane:  0   1  ..  H-1 | H      H+1   ..  2H-1       | 2H .. 15
///        mover's houses  | opponent's houses           | always 0
///        (sowing order: lane 0 is farthest from the mover's store;
///         after lane H-1 comes the mover's store, then lane H)
/// ```
///
/// so house `j` of the mover is opposite lane `2H-1-j`. A byte holds any count,
/// since a game holds at most [`crate::MAX_TOTAL_SEEDS`] seeds. Storing the board
/// mover-first means the sowing tables and the search never look at whose turn it
/// is; when the turn passes, the two halves swap (one shift-or). `side` remembers
/// who the mover is, for the notation only.
///
/// A finished game has no seeds left in any house: the end of game sweeps them
/// into the stores (or discards them), so [`Position::is_over`] is a single compare.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    pub(crate) board: u128,
    /// `[mover's store, opponent's store]`.
    pub(crate) stores: [u8; 2],
    pub(crate) houses: u8,
    /// All seeds of the game (houses, stores and anything discarded), for the early stop.
    pub(crate) total: u8,
    pub(crate) side: Side,
}

impl Position {
    /// Builds a position from absolute counts: `south` houses from South's first house,
    /// North's houses from North's first house (North's left), the two stores, the mover.
    ///
    /// The caller guarantees `south.len() == north.len() <= 8` and a total of at most 255.
    pub(crate) fn from_rows(south: &[u8], north: &[u8], stores: [u8; 2], side: Side) -> Position {
        let h = south.len();
        let (mine, theirs, st) = match side {
            Side::South => (south, north, stores),
            Side::North => (north, south, [stores[1], stores[0]]),
        };
        let mut board = 0u128;
        for (j, &c) in mine.iter().chain(theirs.iter()).enumerate() {
            board |= (c as u128) << (8 * j);
        }
        let total =
            south.iter().chain(north).map(|&c| c as u32).sum::<u32>() + st[0] as u32 + st[1] as u32;
        Position {
            board,
            stores: st,
            houses: h as u8,
            total: total as u8,
            side,
        }
    }

    /// A position from a packed mover-first board (see the type's layout), the stores
    /// `[mover, opponent]` and the mover. For databases that enumerate boards: the caller
    /// guarantees `houses <= 8`, nothing above lane `2H`, and a total of at most 255.
    pub fn from_packed(houses: usize, board: u128, stores: [u8; 2], side: Side) -> Position {
        debug_assert!(houses <= crate::MAX_HOUSES && board & !row_mask(2 * houses) == 0);
        let total = lane_sum(board) + stores[0] as u32 + stores[1] as u32;
        debug_assert!(total <= 255);
        Position {
            board,
            stores,
            houses: houses as u8,
            total: total as u8,
            side,
        }
    }

    /// Houses per side.
    #[inline]
    pub fn houses_per_side(&self) -> usize {
        self.houses as usize
    }

    /// The player to move.
    #[inline]
    pub fn side_to_move(&self) -> Side {
        self.side
    }

    /// The raw packed board (mover-first lanes), for keys and databases.
    #[inline]
    pub fn packed_board(&self) -> u128 {
        self.board
    }

    /// Seeds in house `j` (0-based, from the mover's left) of the mover's row.
    #[inline]
    pub fn mover_house(&self, j: usize) -> u8 {
        (self.board >> (8 * j)) as u8
    }

    /// Seeds in house `j` (0-based, from the opponent's left) of the opponent's row.
    #[inline]
    pub fn opponent_house(&self, j: usize) -> u8 {
        (self.board >> (8 * (self.houses as usize + j))) as u8
    }

    /// Seeds in house `j` (0-based, from that player's left) of `side`'s row.
    pub fn house(&self, side: Side, j: usize) -> u8 {
        if side == self.side {
            self.mover_house(j)
        } else {
            self.opponent_house(j)
        }
    }

    /// Seeds in `side`'s store.
    pub fn store(&self, side: Side) -> u8 {
        if side == self.side {
            self.stores[0]
        } else {
            self.stores[1]
        }
    }

    /// `[mover's store, opponent's store]`.
    #[inline]
    pub fn stores(&self) -> [u8; 2] {
        self.stores
    }

    /// All seeds of the game this position belongs to.
    #[inline]
    pub fn total_seeds(&self) -> u32 {
        self.total as u32
    }

    /// Seeds still in the houses of both rows.
    #[inline]
    pub fn seeds_in_houses(&self) -> u32 {
        lane_sum(self.board)
    }

    /// Seeds in the mover's row.
    #[inline]
    pub fn seeds_in_mover_row(&self) -> u32 {
        lane_sum(self.board & row_mask(self.houses as usize))
    }

    /// Mover's store minus opponent's store, as it stands.
    #[inline]
    pub fn store_margin(&self) -> i32 {
        self.stores[0] as i32 - self.stores[1] as i32
    }

    /// South's store minus North's store, as it stands (the final score once the game is over).
    pub fn score(&self) -> i32 {
        self.side.sign() * self.store_margin()
    }

    /// True when the game is over (no seeds are left in any house).
    #[inline]
    pub fn is_over(&self) -> bool {
        self.board == 0
    }

    /// The mover's legal sowings: a set of houses (0-based from the mover's left).
    #[inline]
    pub fn moves(&self) -> Moves {
        // The mover's row is the low H bytes of the low word (H <= 8).
        let lo = self.board as u64 & (row_mask(self.houses as usize) as u64);
        Moves(nonzero_bytes(lo))
    }

    /// The mover's houses whose seeds end their sowing exactly in the mover's store
    /// within one lap (house `j` holding `H - j` seeds): the sowings that give an extra
    /// turn unless they end the game. Sowings of a lap or more are left out, so this is a
    /// cheap count for move ordering, not a rule.
    #[inline]
    pub fn store_landings(&self) -> Moves {
        // Byte `j` holds `H - j`.
        const TO_STORE: [u64; crate::MAX_HOUSES + 1] = {
            let mut t = [0u64; crate::MAX_HOUSES + 1];
            let mut h = 1;
            while h <= crate::MAX_HOUSES {
                let mut j = 0;
                while j < h {
                    t[h] |= ((h - j) as u64) << (8 * j);
                    j += 1;
                }
                h += 1;
            }
            t
        };
        let h = self.houses as usize;
        let row = self.board as u64 & (row_mask(h) as u64);
        let missed = nonzero_bytes(row ^ TO_STORE[h]);
        Moves(!missed & ((1u16 << h) - 1))
    }

    /// The same position with the other player to move and the rows swapped: the mover's
    /// view of what the opponent sees. Used when a turn passes.
    #[inline]
    pub fn flipped(&self) -> Position {
        let s = 8 * self.houses as u32;
        let all = row_mask(2 * self.houses as usize);
        Position {
            board: ((self.board >> s) | (self.board << s)) & all,
            stores: [self.stores[1], self.stores[0]],
            side: self.side.other(),
            ..*self
        }
    }

    /// Counts of all `2H+2` places counter-clockwise from South's first house:
    /// South's houses, South's store, North's houses, North's store.
    pub fn absolute_counts(&self) -> Vec<u8> {
        let h = self.houses as usize;
        let mut v = Vec::with_capacity(2 * h + 2);
        v.extend((0..h).map(|j| self.house(Side::South, j)));
        v.push(self.store(Side::South));
        v.extend((0..h).map(|j| self.house(Side::North, j)));
        v.push(self.store(Side::North));
        v
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({self})")
    }
}

/// A set of houses of the mover's row, as a bit set (bit `j` = house `j`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Moves(pub u16);

impl Moves {
    /// Number of moves in the set.
    #[inline]
    pub fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// True when there is no move.
    #[inline]
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// True when house `j` is in the set.
    #[inline]
    pub fn contains(self, j: usize) -> bool {
        j < 16 && self.0 >> j & 1 == 1
    }
}

impl Iterator for Moves {
    type Item = usize;
    #[inline]
    fn next(&mut self) -> Option<usize> {
        if self.0 == 0 {
            return None;
        }
        let j = self.0.trailing_zeros() as usize;
        self.0 &= self.0 - 1;
        Some(j)
    }
}

/// A mask of the low `lanes` byte lanes.
#[inline]
pub(crate) fn row_mask(lanes: usize) -> u128 {
    if lanes >= 16 {
        u128::MAX
    } else {
        (1u128 << (8 * lanes)) - 1
    }
}

/// Sum of all byte lanes (the total never exceeds 255, so no lane sum overflows).
#[inline]
pub(crate) fn lane_sum(x: u128) -> u32 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    let lo = (x as u64).wrapping_mul(ONES) >> 56;
    let hi = ((x >> 64) as u64).wrapping_mul(ONES) >> 56;
    (lo + hi) as u32
}

/// Bit `j` set for each non-zero byte `j` of `x`.
#[inline]
fn nonzero_bytes(x: u64) -> u16 {
    const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    let t = (((x & LOW7) + LOW7) | x) & !LOW7; // high bit of each non-zero byte
                                               // Gather the eight high bits into one byte.
    ((t >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u16
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nonzero_bytes_finds_every_non_empty_house() {
        for x in [
            0u64,
            1,
            0x80,
            0xff00,
            0x0100_0000_0000_0001,
            u64::MAX,
            0x0001_0000_0200_0300,
        ] {
            let want: u16 = (0..8)
                .filter(|j| (x >> (8 * j)) & 0xff != 0)
                .map(|j| 1 << j)
                .sum();
            assert_eq!(nonzero_bytes(x), want, "{x:#x}");
        }
    }

    #[test]
    fn store_landings_are_the_houses_one_sowing_from_the_store() {
        let game = crate::Game::new(crate::Rules::kalah(6, 4)).unwrap();
        let mut pos = game.start();
        // Walk a few plies and compare with a sowing of each house.
        for j in [2, 5, 0, 3, 1, 4, 2, 5] {
            let want: u16 = pos
                .moves()
                .filter(|&i| pos.mover_house(i) as usize == 6 - i)
                .map(|i| 1 << i)
                .sum();
            assert_eq!(pos.store_landings().0, want, "{pos}");
            for i in pos.moves() {
                let same = game.play_unchecked(&pos, i).side_to_move() == pos.side_to_move();
                assert_eq!(same, pos.store_landings().contains(i), "{pos} house {i}");
            }
            if pos.moves().contains(j) {
                pos = game.play_unchecked(&pos, j);
            }
        }
    }

    #[test]
    fn lane_sum_adds_every_lane() {
        let x: u128 = (1..=16u128).map(|j| j << (8 * (j - 1))).sum();
        assert_eq!(lane_sum(x), 136);
    }
}
