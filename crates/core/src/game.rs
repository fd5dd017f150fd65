//! The rules engine: validated rules plus the precomputed sowing tables, and the
//! sowing itself: a constant number of word operations for Kalah and General Kalah, a
//! few per relay step for Nigerian Kalah.

use crate::position::{Position, Side};
use crate::rules::{Capture, End, Family, Leftovers, Rules, RulesError, MAX_HOUSES};

/// The part of a sowing that does not go all the way round, on the two rows as words:
/// which lanes of each row get one more seed, whether the mover's store does, and where
/// the last seed lands.
#[derive(Clone, Copy, Default)]
struct PartialLap {
    /// Lanes of the mover's row that get a seed.
    mine: u64,
    /// Lanes of the opponent's row that get a seed.
    theirs: u64,
    store: u8,
    /// The last seed lands in the mover's store.
    extra: bool,
    /// The last seed lands in the mover's row.
    own: bool,
    /// Where it does: the bit shift of its lane, and of the opposite lane in the
    /// opponent's row (0 otherwise).
    last_shift: u8,
    opposite_shift: u8,
}

/// Places of the relay cycle of Nigerian Kalah: both rows and both stores.
const RELAY_PLACES: usize = 2 * MAX_HOUSES + 2;

/// One step of a relay sowing (Nigerian Kalah): the seeds that the places after a place
/// get, `r` of them in sowing order, one each, on the cycle of `2H+2` places (the mover's
/// houses, the mover's store, the opponent's houses, the opponent's store).
#[derive(Clone, Copy, Default)]
struct RelayStep {
    /// Lanes of the mover's row that get a seed (`0x01` each).
    mine: u64,
    /// Lanes of the opponent's row that get a seed.
    theirs: u64,
    /// Seeds for `[the mover's store, the opponent's store]`.
    stores: [u8; 2],
}

/// The steps of a relay sowing, by starting place and seeds short of a full lap.
#[derive(Clone)]
struct RelaySteps([[RelayStep; RELAY_PLACES]; RELAY_PLACES]);

/// A sowing on the two rows as words, before the turn passes: see [`Game::sow_rows`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RowSowing {
    /// The mover's row after the sowing (empty where the game ended).
    pub mine: u64,
    /// The opponent's row after the sowing (empty where the game ended).
    pub theirs: u64,
    /// Seeds the sowing put in the mover's store, captures and leftovers included.
    pub to_mover: u8,
    /// Leftovers put in the opponent's store where the game ended.
    pub to_opponent: u8,
    /// The last seed landed in the mover's store.
    pub extra: bool,
    /// The game ended by the end-of-game rule (the early stop is the caller's).
    pub ended: bool,
    /// The opponent's row came through unchanged: no seed sown into it, none captured
    /// from it, and the game did not end.
    pub theirs_kept: bool,
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
/// is skipped) gives every place `n / L` seeds (one broadcast add per row) and one more
/// seed to the `n % L` places after `i` (one add of a precomputed lane mask per row), so
/// a sowing of any size is a handful of word operations. Each row is a 64-bit word
/// ([`Game::sow_rows`]): shifts of the 128-bit packed board cost several instructions
/// each, and the endgame database build and the search both sow on the rows (the
/// 16-seed build 1.3x faster, the search a few per cent). The emptied starting house is
/// part of the cycle and receives seeds on every full lap, as docs/rules.md §2.1 requires.
#[derive(Clone)]
pub struct Game {
    rules: Rules,
    h: usize,
    cycle: usize,
    /// `0x01` in each of the `H` lanes of a row.
    ones: u64,
    /// `0xff` in each of the `H` lanes of a row.
    row: u64,
    laps: [[PartialLap; 2 * MAX_HOUSES + 1]; MAX_HOUSES],
    /// The relay sowing's steps where the family sows through both stores (Nigerian);
    /// `None` for the families that sow with `laps`.
    relay: Option<Box<RelaySteps>>,
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
                // Cycle places: 0..H-1 are the mover's houses, H is the store, H+1..2H
                // the opponent's houses.
                for k in 1..=r {
                    let c = (i + k) % cycle;
                    match c.cmp(&h) {
                        std::cmp::Ordering::Less => lap.mine += 1u64 << (8 * c),
                        std::cmp::Ordering::Equal => lap.store += 1,
                        std::cmp::Ordering::Greater => lap.theirs += 1u64 << (8 * (c - h - 1)),
                    }
                }
                let c = (i + r) % cycle;
                // General Kalah has neither extra turns nor captures: the same sowing
                // with those two flags off everywhere.
                let kalah = rules.family == Family::Kalah;
                lap.extra = c == h && kalah;
                if c < h && kalah {
                    lap.own = true;
                    lap.last_shift = 8 * c as u8;
                    lap.opposite_shift = 8 * (h - 1 - c) as u8;
                }
            }
        }
        let ones = (0..h).map(|j| 1u64 << (8 * j)).sum();
        Ok(Game {
            rules,
            h,
            cycle,
            ones,
            row: ones * 0xff,
            laps,
            relay: (rules.family == Family::Nigerian).then(|| relay_steps(h)),
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
        let s = 8 * self.h as u32;
        let sown = self.sow_rows(pos.board as u64 & self.row, (pos.board >> s) as u64, house);
        let [mut mine, mut theirs] = pos.stores;
        mine += sown.to_mover;
        theirs += sown.to_opponent;
        let (mut a, mut b) = (sown.mine, sown.theirs);
        if !sown.ended && self.majority([mine, theirs], pos.total) {
            a = 0;
            b = 0;
        }
        let over = a | b == 0;
        let extra = sown.extra && !over;
        let next = if sown.extra {
            Position {
                board: a as u128 | (b as u128) << s,
                stores: [mine, theirs],
                ..*pos
            }
        } else {
            Position {
                board: b as u128 | (a as u128) << s,
                stores: [theirs, mine],
                side: pos.side.other(),
                ..*pos
            }
        };
        let how = if over {
            Sowing::GameOver
        } else if extra {
            Sowing::ExtraTurn
        } else {
            Sowing::Passed
        };
        (next, how)
    }

    /// Sows house `house` of the mover's row `mine` (byte lane `j` = house `j`, as in
    /// [`Position::packed_board`]), the opponent's row being `theirs`, and applies the
    /// end-of-game rule (not the early stop, which reads the stores). The turn is not
    /// passed: the rows stay as the mover sees them. The house must hold seeds (debug
    /// builds check).
    #[inline(always)]
    pub fn sow_rows(&self, mine: u64, theirs: u64, house: usize) -> RowSowing {
        debug_assert!(house < self.h);
        if let Some(steps) = &self.relay {
            return self.sow_relay(steps, mine, theirs, house);
        }
        let n = (mine >> (8 * house)) as u8 as usize;
        debug_assert!(n > 0, "sowing an empty house");
        let (mut a, mut b) = (mine & !(0xff << (8 * house)), theirs);
        let mut to_mover = 0u8;
        let r = if n < self.cycle {
            n
        } else {
            let laps = n / self.cycle;
            a += self.ones * laps as u64;
            b += self.ones * laps as u64;
            to_mover += laps as u8;
            n % self.cycle
        };
        let lap = &self.laps[house][r];
        a += lap.mine;
        b += lap.theirs;
        to_mover += lap.store;
        let mut theirs_kept = n < self.cycle && lap.theirs == 0;
        if lap.own && (a >> lap.last_shift) as u8 == 1 {
            let opposite = (b >> lap.opposite_shift) as u8;
            if opposite != 0 || self.rules.capture == Capture::Empty {
                to_mover += 1 + opposite;
                a &= !(0xff << lap.last_shift);
                b &= !(0xff << lap.opposite_shift);
                theirs_kept = false;
            }
        }
        self.finish(a, b, [to_mover, 0], lap.extra, theirs_kept)
    }

    /// The [`RowSowing`] of a sowing that left the rows `mine` and `theirs` and banked
    /// `banked` seeds (`[mover, opponent]`), once the end-of-game rule is applied to it:
    /// the player to move next is the mover again after an `extra` turn, the opponent
    /// otherwise. `theirs_kept`: the sowing left the opponent's row as it was.
    #[inline(always)]
    fn finish(
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

    /// [`Game::sow_rows`] for Nigerian Kalah (docs/rules.md §5.4): the seeds go round the
    /// cycle of both rows and both stores; a house that reaches 4 seeds on the way is
    /// captured by its owner at once; where the last seed lands in a house that was not
    /// empty and now holds other than 4, its seeds are lifted and sown on from there
    /// (relay), and otherwise the turn passes. A turn is one sowing: it never gives an
    /// extra turn.
    ///
    /// Each house gets one seed per lap, so a lap (or the part of one that is left) is an
    /// add of lane masks, then the capture of the lanes it touched that now hold 4; the
    /// order within a lap does not matter. The relay ends (docs/rules.md §5.4): a step that
    /// passes no store moves the seeds it lifts forward within one row, one that passes a
    /// store takes seeds out of the houses, and so does a capture.
    #[inline(never)]
    fn sow_relay(&self, steps: &RelaySteps, mine: u64, theirs: u64, house: usize) -> RowSowing {
        let (h, places) = (self.h, 2 * self.h + 2);
        // The lane of a house's place on the cycle: (row, bit shift); `None` for a store.
        let lane = |place: usize| match place {
            p if p < h => Some((0, 8 * p)),
            p if p > h && p <= 2 * h => Some((1, 8 * (p - h - 1))),
            _ => None,
        };
        let mut rows = [mine, theirs];
        let mut banked = [0u8; 2];
        let mut from = house;
        while let Some((row, shift)) = lane(from) {
            let n = (rows[row] >> shift) as u8 as usize;
            debug_assert!(n > 0, "sowing an empty house");
            rows[row] &= !(0xff << shift);
            let to = (from + n) % places;
            let (laps, r) = (n / places, n % places);
            // The count of the house the last seed falls in, just after it falls.
            let mut last = 0u8;
            for lap in 1..=laps {
                rows[0] += self.ones;
                rows[1] += self.ones;
                banked[0] += 1;
                banked[1] += 1;
                if r == 0 && lap == laps {
                    last = lane(to).map_or(0, |(i, s)| (rows[i] >> s) as u8);
                }
                capture_fours(&mut rows, &mut banked, [self.ones, self.ones]);
            }
            if r > 0 {
                let step = &steps.0[from][r];
                rows[0] += step.mine;
                rows[1] += step.theirs;
                banked[0] += step.stores[0];
                banked[1] += step.stores[1];
                last = lane(to).map_or(0, |(i, s)| (rows[i] >> s) as u8);
                capture_fours(&mut rows, &mut banked, [step.mine, step.theirs]);
            }
            // In an empty house, or a four just captured: the turn ends. In a store
            // (`last` 0) it ends too, as the loop finds no house to lift at `to`.
            if last == 1 || last == 4 {
                break;
            }
            from = to;
        }
        let [a, b] = rows;
        self.finish(a, b, banked, false, b == theirs)
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
        // The mover is about to move, as after a sowing that passed the turn to them.
        let mut p = pos;
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
    fn majority(&self, stores: [u8; 2], total: u8) -> bool {
        self.rules.early_stop && 2 * stores[0].max(stores[1]) as u32 > total as u32
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

/// The relay steps of a board of `h` houses (see [`RelayStep`]).
fn relay_steps(h: usize) -> Box<RelaySteps> {
    let places = 2 * h + 2;
    let mut steps = Box::new(RelaySteps(
        [[RelayStep::default(); RELAY_PLACES]; RELAY_PLACES],
    ));
    for (from, row) in steps.0.iter_mut().enumerate().take(places) {
        for (r, step) in row.iter_mut().enumerate().take(places) {
            for k in 1..=r {
                match (from + k) % places {
                    p if p < h => step.mine += 1 << (8 * p),
                    p if p == h => step.stores[0] += 1,
                    p if p <= 2 * h => step.theirs += 1 << (8 * (p - h - 1)),
                    _ => step.stores[1] += 1,
                }
            }
        }
    }
    steps
}

/// Captures, for their owners, the lanes of `rows` that a relay step just gave a seed
/// (`touched`: `0x01` in each such lane) and that now hold 4 (Nigerian Kalah).
#[inline(always)]
fn capture_fours(rows: &mut [u64; 2], banked: &mut [u8; 2], touched: [u64; 2]) {
    const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    const FOURS: u64 = 0x0404_0404_0404_0404;
    for ((row, store), touched) in rows.iter_mut().zip(banked.iter_mut()).zip(touched) {
        let y = *row ^ FOURS;
        // The high bit of each byte of `y` that is zero (exact: no carries between bytes).
        let zero = !(((y & LOW7) + LOW7) | y | LOW7);
        let hit = zero & (touched << 7);
        *store += 4 * hit.count_ones() as u8;
        *row &= !((hit >> 7) * 0xff);
    }
}

/// Sum of the byte lanes of a row (at most 255 seeds in all).
#[inline(always)]
fn row_sum(row: u64) -> u8 {
    (row.wrapping_mul(0x0101_0101_0101_0101) >> 56) as u8
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
