//! The rules engine: validated rules plus the precomputed sowing tables, and the
//! sowing itself as a constant number of word operations.

use crate::position::{lane_sum, row_mask, Position, Side};
use crate::rules::{Capture, End, Leftovers, Rules, RulesError, MAX_HOUSES};

/// Marks a sowing whose last seed lands in the mover's store.
const LAST_IN_STORE: u8 = u8::MAX;

/// The part of a sowing that does not go all the way round: which lanes get one more
/// seed, whether the mover's store does, and where the last seed lands.
#[derive(Clone, Copy, Default)]
struct PartialLap {
    lanes: u128,
    store: u8,
    /// Lane of the last seed, or [`LAST_IN_STORE`].
    last: u8,
}

/// How a sowing ended, for the caller that needs more than the next position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sowing {
    /// The turn passed to the opponent.
    Passed,
    /// The last seed landed in the mover's store: the mover sows again.
    ExtraTurn,
    /// The game ended with this sowing.
    GameOver,
}

/// A validated set of rules with its precomputed tables. Build once, share by reference.
///
/// Sowing `n` seeds from house `i` on a cycle of `L = 2H+1` places (the opponent's store
/// is skipped) gives every place `n / L` seeds (one broadcast add over all lanes) and one
/// more seed to the `n % L` places after `i` (one add of a precomputed lane mask), so a
/// sowing of any size is a handful of word operations. The emptied starting house is part
/// of the cycle and receives seeds on every full lap, as RULES.md requires.
#[derive(Clone)]
pub struct Game {
    rules: Rules,
    h: usize,
    cycle: usize,
    /// `0x01` in each of the `2H` lanes.
    ones: u128,
    mover_row: u128,
    opponent_row: u128,
    laps: [[PartialLap; 2 * MAX_HOUSES + 1]; MAX_HOUSES],
    keys: crate::key::KeyCoder,
}

impl Game {
    /// Validates `rules` and precomputes the tables.
    pub fn new(rules: Rules) -> Result<Game, RulesError> {
        rules.validate()?;
        let h = rules.houses as usize;
        let cycle = 2 * h + 1;
        let mut laps = [[PartialLap::default(); 2 * MAX_HOUSES + 1]; MAX_HOUSES];
        for (i, row) in laps.iter_mut().enumerate().take(h) {
            for (r, lap) in row.iter_mut().enumerate().take(cycle) {
                // Cycle places: 0..H-1 are lanes 0..H-1, H is the store, H+1..2H are lanes H..2H-1.
                for k in 1..=r {
                    let c = (i + k) % cycle;
                    match c.cmp(&h) {
                        std::cmp::Ordering::Less => lap.lanes += 1u128 << (8 * c),
                        std::cmp::Ordering::Equal => lap.store += 1,
                        std::cmp::Ordering::Greater => lap.lanes += 1u128 << (8 * (c - 1)),
                    }
                }
                let c = (i + r) % cycle;
                lap.last = match c.cmp(&h) {
                    std::cmp::Ordering::Less => c as u8,
                    std::cmp::Ordering::Equal => LAST_IN_STORE,
                    std::cmp::Ordering::Greater => (c - 1) as u8,
                };
            }
        }
        let ones = (0..2 * h).map(|j| 1u128 << (8 * j)).sum();
        Ok(Game {
            rules,
            h,
            cycle,
            ones,
            mover_row: row_mask(h),
            opponent_row: row_mask(2 * h) & !row_mask(h),
            laps,
            keys: crate::key::KeyCoder::new(&rules),
        })
    }

    /// The rules this game follows.
    #[inline]
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// Houses per side.
    #[inline]
    pub fn houses(&self) -> usize {
        self.h
    }

    /// The most seeds a position of this game may hold (`2 * houses * seeds`).
    #[inline]
    pub fn capacity(&self) -> usize {
        self.rules.total_seeds()
    }

    /// The start position: every house holds `seeds`, the stores are empty, South to move.
    pub fn start(&self) -> Position {
        let row = vec![self.rules.seeds; self.h];
        Position::from_rows(&row, &row, [0, 0], Side::South)
    }

    /// Sows house `house` (0-based from the mover's left) of the mover's row.
    ///
    /// The caller guarantees that the game is not over and that the house holds seeds
    /// (debug builds check). Callers outside the hot path use [`Game::try_play`].
    #[inline]
    pub fn play_unchecked(&self, pos: &Position, house: usize) -> Position {
        self.sow(pos, house).0
    }

    /// Like [`Game::play_unchecked`], also saying how the sowing ended.
    #[inline(always)]
    pub fn sow(&self, pos: &Position, house: usize) -> (Position, Sowing) {
        debug_assert!(house < self.h && pos.houses as usize == self.h);
        let shift = 8 * house;
        let n = (pos.board >> shift) as u8 as usize;
        debug_assert!(n > 0, "sowing an empty house");
        let mut board = pos.board & !(0xffu128 << shift);
        let [mut mine, theirs] = pos.stores;
        let r = if n < self.cycle {
            n
        } else {
            let laps = n / self.cycle;
            board += self.ones * laps as u128;
            mine += laps as u8;
            n % self.cycle
        };
        let lap = &self.laps[house][r];
        board += lap.lanes;
        mine += lap.store;

        let extra = lap.last == LAST_IN_STORE;
        if !extra && (lap.last as usize) < self.h {
            let ls = 8 * lap.last as u32;
            if (board >> ls) as u8 == 1 {
                let os = 8 * (2 * self.h as u32 - 1 - lap.last as u32);
                let opposite = (board >> os) as u8;
                if opposite != 0 || self.rules.capture == Capture::Empty {
                    mine += 1 + opposite;
                    board &= !((0xffu128 << ls) | (0xffu128 << os));
                }
            }
        }
        let next = Position {
            board,
            stores: [mine, theirs],
            ..*pos
        };
        self.end_turn(next, extra)
    }

    /// The part of a sowing of `r` seeds (`r < 2H+1`, less than one lap) from house `house`
    /// of the mover's row: the lanes of the mover-first board that get one more seed, the
    /// seeds for the mover's store, and the lane of the last seed (`None`: the store).
    /// A sowing of `n` seeds is `n / (2H+1)` seeds to every place and this for the rest.
    pub fn partial_lap(&self, house: usize, r: usize) -> (u128, u8, Option<usize>) {
        let lap = &self.laps[house][r];
        let last = (lap.last != LAST_IN_STORE).then_some(lap.last as usize);
        (lap.lanes, lap.store, last)
    }

    /// Applies the end-of-game rules after a sowing, then passes the turn unless `extra`.
    #[inline(always)]
    fn end_turn(&self, mut pos: Position, extra: bool) -> (Position, Sowing) {
        let mover_empty = pos.board & self.mover_row == 0;
        let opponent_empty = pos.board & self.opponent_row == 0;
        let row_end = match self.rules.end {
            End::RowEmpty => mover_empty || opponent_empty,
            // The player to move next is stuck.
            End::MoverStuck => {
                if extra {
                    mover_empty
                } else {
                    opponent_empty
                }
            }
        };
        if row_end {
            if self.rules.leftovers == Leftovers::Owner {
                pos.stores[0] += lane_sum(pos.board & self.mover_row) as u8;
                pos.stores[1] += lane_sum(pos.board & self.opponent_row) as u8;
            }
            pos.board = 0;
        } else if self.rules.early_stop
            && 2 * pos.stores[0].max(pos.stores[1]) as u32 > pos.total as u32
        {
            // A store holds a majority: the game stops, the houses are not counted.
            pos.board = 0;
        }
        let over = pos.board == 0;
        if !extra {
            pos = pos.flipped();
        }
        let how = if over {
            Sowing::GameOver
        } else if extra {
            Sowing::ExtraTurn
        } else {
            Sowing::Passed
        };
        (pos, how)
    }

    /// Sows `house` after checking that it is a legal move.
    pub fn try_play(&self, pos: &Position, house: usize) -> Result<(Position, Sowing), MoveError> {
        if pos.is_over() {
            return Err(MoveError::GameOver);
        }
        if house >= self.h {
            return Err(MoveError::NoSuchHouse {
                house,
                houses: self.h,
            });
        }
        if pos.mover_house(house) == 0 {
            return Err(MoveError::EmptyHouse { house });
        }
        Ok(self.sow(pos, house))
    }

    /// Checks that `pos` belongs to this game (board size, seed count) and applies the
    /// end-of-game rule to it, so that a hand-entered position whose game is already over
    /// (an empty row under `end=row-empty`, a stuck mover, a majority with early stop)
    /// becomes the finished position.
    pub fn settle(&self, pos: Position) -> Result<Position, crate::PositionError> {
        if pos.houses as usize != self.h {
            return Err(crate::PositionError::WrongBoard {
                houses: pos.houses as usize,
                expected: self.h,
            });
        }
        if pos.total as usize > self.capacity() {
            return Err(crate::PositionError::TooManySeeds {
                seeds: pos.total as usize,
                capacity: self.capacity(),
            });
        }
        if pos.is_over() {
            return Ok(pos);
        }
        // The mover is about to move: treat it as if the previous sowing passed the turn to them.
        let before = pos.flipped();
        let (p, _) = self.end_turn(before, false);
        Ok(p)
    }

    /// A 64-bit key of the position for transposition tables.
    ///
    /// It describes the houses only, seen from the mover (and, under the early stop, the
    /// stores too). That is sound because the rest of the game — the moves, captures and
    /// the seeds that will still reach each store — depends only on the houses: the stores
    /// already banked add the same constant to every line, so a table that stores values
    /// *relative to the current store margin* can share them between positions that differ
    /// only in their stores. The early stop reads the stores, so then both stores join the key.
    ///
    /// The key is exact (two positions with different houses never share a key) whenever
    /// [`Game::exact_keys`] is true, which holds for every board up to 6 houses with 8 seeds
    /// and 8 houses with 6 seeds: it is the combinatorial rank of the house counts. Larger
    /// boards (and the early stop on boards above 6 houses with 5 seeds) fall back to a
    /// 64-bit hash. The position must belong to this game (see [`Game::settle`]).
    #[inline]
    pub fn key(&self, pos: &Position) -> u64 {
        self.keys.key(pos)
    }

    /// True when [`Game::key`] is injective for this game.
    pub fn exact_keys(&self) -> bool {
        self.keys.exact()
    }

    /// Where [`Game::key`] is exact, the number of keys: every key of a position of this
    /// game is below it (a table can then store part of the key in the slot's place).
    pub fn key_count(&self) -> Option<u64> {
        self.keys.count()
    }

    /// True when [`Game::key`] is the bare combinatorial rank of the houses
    /// ([`crate::Ranker::rank`] over `2 * houses` lanes): exact keys and no stores in them (not
    /// the early stop). The rank does not depend on the ranker's seed limit, so such a key
    /// is also the position's index in an endgame database of the same board.
    pub fn key_is_rank(&self) -> bool {
        self.keys.is_rank()
    }
}

/// Why a move was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// The game is already over.
    GameOver,
    /// There is no such house.
    NoSuchHouse {
        /// 0-based house of the mover.
        house: usize,
        /// Houses per side.
        houses: usize,
    },
    /// The house holds no seeds.
    EmptyHouse {
        /// 0-based house of the mover.
        house: usize,
    },
}

impl std::fmt::Display for MoveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MoveError::GameOver => write!(f, "the game is over: no move can be played"),
            MoveError::NoSuchHouse { house, houses } => {
                write!(
                    f,
                    "house {} does not exist: each side has {houses} houses",
                    house + 1
                )
            }
            MoveError::EmptyHouse { house } => {
                write!(f, "house {} of the mover is empty", house + 1)
            }
        }
    }
}

impl std::error::Error for MoveError {}
