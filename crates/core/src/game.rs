//! The rules engine: validated rules plus the precomputed sowing tables, and the
//! sowing itself: a constant number of word operations for Kalah and General Kalah, a
//! few per relay step for Nigerian Kalah.

use crate::position::Moves;
use crate::position::{Position, Side};
use crate::rules::{Capture, End, Family, GrandSlam, Leftovers, Rules, RulesError, MAX_HOUSES};

/// Added to a house to name its clockwise sowing, in the families where the mover chooses
/// the direction (Ethiopian): move `j` sows house `j` counter-clockwise (the usual way),
/// move `CLOCKWISE + j` sows it clockwise. Written `3<` in the notation.
pub const CLOCKWISE: usize = MAX_HOUSES;

/// The sowings of the families that [`Game::sow_rows`] does not do with its lap tables.
// The enum lives behind one `Box` in `Game::special`: boxing the relay's tables again would
// add a second indirection to Nigerian Kalah's sowing.
#[allow(clippy::large_enum_variant)]
#[derive(Clone)]
enum Special {
    /// Nigerian Kalah's relay.
    Relay(RelaySteps),
    /// Ethiopian Kalah and Oware: the places of the sowing cycle in order.
    Cycles(Cycles),
}

/// A place of a sowing cycle: a lane of the mover's row (0..H), of the opponent's row
/// (`THEIRS + 0..H`), or the mover's store.
const THEIRS: u8 = 8;
const STORE: u8 = 255;

/// The sowing cycles of Ethiopian Kalah and Oware, from the mover's view: `ccw` the usual
/// counter-clockwise order from the mover's first house, `cw` the clockwise one (Ethiopian
/// only), as lists of places ([`THEIRS`], [`STORE`]); house `j` is place `j` of `ccw` and
/// place `H-1-j` of `cw`.
#[derive(Clone)]
struct Cycles {
    ccw: Vec<u8>,
    cw: Vec<u8>,
}

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
    /// The sowing of a family that does not sow with `laps` (Nigerian, Ethiopian, Oware):
    /// `None` for Kalah and General, one test at the top of the hot path.
    special: Option<Box<Special>>,
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
            special: match rules.family {
                Family::Nigerian => Some(Box::new(Special::Relay(relay_steps(h)))),
                Family::Ethiopian | Family::Oware => Some(Box::new(Special::Cycles(cycles(
                    h,
                    rules.family == Family::Ethiopian,
                )))),
                Family::Kalah | Family::General => None,
            },
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

    /// The start position: every house holds `seeds`, the stores are empty, South to move
    /// (settled: under Ethiopian Kalah with one seed a house, South is stuck at once and
    /// the game is over).
    pub fn start(&self) -> Position {
        let row = vec![self.rules.seeds; self.h];
        let pos = Position::from_rows(&row, &row, [0, 0], Side::South);
        self.settle(pos).unwrap_or(pos)
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
        debug_assert!(house % CLOCKWISE < self.h && pos.houses as usize == self.h);
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
        if let Some(special) = &self.special {
            return match &**special {
                Special::Relay(steps) => self.sow_relay(steps, mine, theirs, house),
                Special::Cycles(cycles) => self.sow_cycle(cycles, mine, theirs, house),
            };
        }
        debug_assert!(house < self.h);
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

    /// [`Game::sow_rows`] for Ethiopian Kalah and Oware (docs/rules.md §5.3, §5.5, §5.7): the seeds go
    /// round a cycle of places one by one (Ethiopian: both rows and the mover's store, in
    /// the direction the move names; Oware: both rows, skipping the emptied house on a
    /// sowing of a lap or more), then the family's capture and end of game. The move must
    /// be legal ([`Game::legal_moves`]).
    #[inline(never)]
    fn sow_cycle(&self, cycles: &Cycles, mine: u64, theirs: u64, mv: usize) -> RowSowing {
        let h = self.h;
        let (house, clockwise) = (mv % CLOCKWISE, mv >= CLOCKWISE);
        debug_assert!(house < h);
        let mut lanes = [0u8; 2 * MAX_HOUSES];
        for j in 0..h {
            lanes[j] = (mine >> (8 * j)) as u8;
            lanes[THEIRS as usize + j] = (theirs >> (8 * j)) as u8;
        }
        let n = lanes[house] as usize;
        debug_assert!(n > 0, "sowing an empty house");
        lanes[house] = 0;
        let oware = self.rules.family == Family::Oware;
        let (cycle, at) = match clockwise {
            false => (&cycles.ccw, house),
            true => (&cycles.cw, h - 1 - house),
        };
        // Oware skips the emptied house: the cycle is the others, from the one after it.
        let len = cycle.len() - oware as usize;
        let place = |k: usize| cycle[(at + 1 + k % len) % cycle.len()];
        let mut store = 0u8;
        let mut drop = |p: u8, seeds: u8, lanes: &mut [u8; 2 * MAX_HOUSES]| match p {
            STORE => store += seeds,
            p => lanes[p as usize] += seeds,
        };
        for k in 0..len {
            drop(place(k), (n / len) as u8, &mut lanes);
        }
        for k in 0..n % len {
            drop(place(k), 1, &mut lanes);
        }
        let last = place(n - 1);
        let mut banked = [store, 0];
        let mut extra = false;
        if oware {
            if last >= THEIRS && last != STORE {
                let mut k = last as usize;
                let mut taken = 0u8;
                let mut emptied = lanes;
                while k >= THEIRS as usize && matches!(emptied[k], 2 | 3) {
                    taken += emptied[k];
                    emptied[k] = 0;
                    k -= 1;
                }
                let slam = emptied[THEIRS as usize..THEIRS as usize + h]
                    .iter()
                    .all(|&c| c == 0);
                if taken > 0 && (!slam || self.rules.grand_slam == GrandSlam::CaptureAll) {
                    banked[0] += taken;
                    lanes = emptied;
                }
            }
        } else if last == STORE {
            extra = true;
        } else if last < THEIRS && lanes[last as usize] == 1 {
            let opposite = THEIRS as usize + h - 1 - last as usize;
            if lanes[opposite] != 0 || self.rules.capture == Capture::Empty {
                banked[0] += 1 + lanes[opposite];
                lanes[last as usize] = 0;
                lanes[opposite] = 0;
            }
        }
        let (mut a, mut b) = (0u64, 0u64);
        for j in 0..h {
            a |= (lanes[j] as u64) << (8 * j);
            b |= (lanes[THEIRS as usize + j] as u64) << (8 * j);
        }
        // The end of game, for the player to move next.
        let (next, other) = if extra { (a, b) } else { (b, a) };
        let ended = match self.cyclic_end(next, other) {
            Some(kept) => {
                // `kept`: [next mover's row, the other row] go to their owners' stores.
                let (to_next, to_other) = (kept.0, kept.1);
                if extra {
                    banked[0] += to_next;
                    banked[1] += to_other;
                } else {
                    banked[0] += to_other;
                    banked[1] += to_next;
                }
                a = 0;
                b = 0;
                true
            }
            None => false,
        };
        RowSowing {
            mine: a,
            theirs: b,
            to_mover: banked[0],
            to_opponent: banked[1],
            extra,
            ended,
            theirs_kept: !ended && b == theirs,
        }
    }

    /// The end of game of Ethiopian Kalah and Oware for the player about to move with the
    /// row `next` against `other`: `None` while the game goes on, else the seeds that go to
    /// the stores of the owners of the two rows. Ethiopian: the mover is stuck when no
    /// house holds two seeds, and the houses are not counted. Oware: a mover without seeds
    /// ends the game, the other keeping their row; so does a mover who cannot feed an
    /// opponent without seeds, keeping their own.
    #[inline]
    fn cyclic_end(&self, next: u64, other: u64) -> Option<(u8, u8)> {
        const HIGH7: u64 = 0xfefe_fefe_fefe_fefe;
        match self.rules.family {
            Family::Ethiopian => (next & HIGH7 == 0).then_some((0, 0)),
            _ if next == 0 => Some((0, row_sum(other))),
            _ if other == 0 && self.feeding(next) == 0 => Some((row_sum(next), 0)),
            _ => None,
        }
    }

    /// The houses of an Oware row `row` whose sowing reaches the opponent's row (house `j`
    /// holding at least `H - j` seeds), as a move set.
    #[inline]
    fn feeding(&self, row: u64) -> u16 {
        let mut m = 0u16;
        for j in 0..self.h {
            if (row >> (8 * j)) as u8 as usize >= self.h - j {
                m |= 1 << j;
            }
        }
        m
    }

    /// The legal moves of the player to move in `pos` (none once the game is over): the
    /// houses holding seeds, except that Ethiopian Kalah sows only houses of two seeds or
    /// more, in either direction ([`CLOCKWISE`]), and Oware, when the opponent has no
    /// seeds, only the sowings that reach them.
    pub fn legal_moves(&self, pos: &Position) -> Moves {
        let all = pos.moves();
        if pos.is_over() {
            return Moves(0);
        }
        match self.rules.family {
            Family::Ethiopian => {
                let row = pos.board as u64 & self.row;
                let two = (0..self.h)
                    .filter(|&j| (row >> (8 * j)) as u8 >= 2)
                    .fold(0u16, |m, j| m | 1 << j);
                Moves(two | two << CLOCKWISE)
            }
            Family::Oware if (pos.board >> (8 * self.h)) as u64 & self.row == 0 => {
                Moves(self.feeding(pos.board as u64 & self.row))
            }
            _ => all,
        }
    }

    /// Sows `house` after checking that it is a legal move ([`CLOCKWISE`] added for a
    /// clockwise sowing where the family has them).
    pub fn try_play(&self, pos: &Position, house: usize) -> Result<(Position, Sowing), MoveError> {
        if pos.is_over() {
            return Err(MoveError::GameOver);
        }
        let j = house % CLOCKWISE;
        if j >= self.h || house >= 2 * CLOCKWISE {
            return Err(MoveError::NoSuchHouse {
                house: j,
                houses: self.h,
            });
        }
        if house >= CLOCKWISE && !self.rules.family.has_direction() {
            return Err(MoveError::NoDirection(self.rules.family));
        }
        if pos.mover_house(j) == 0 {
            return Err(MoveError::EmptyHouse { house: j });
        }
        if !self.legal_moves(pos).contains(house) {
            return Err(match self.rules.family {
                Family::Ethiopian => MoveError::SingleSeed { house: j },
                _ => MoveError::MustFeed { house: j },
            });
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

/// The sowing cycles of a board of `h` houses (see [`Cycles`]); Oware's (`store` false)
/// leave out the store.
fn cycles(h: usize, store: bool) -> Cycles {
    let (mine, theirs) = (0..h as u8, (0..h as u8).map(|j| THEIRS + j));
    let mut ccw: Vec<u8> = mine.clone().collect();
    if store {
        ccw.push(STORE);
    }
    ccw.extend(theirs.clone());
    let mut cw: Vec<u8> = mine.rev().collect();
    cw.extend(theirs.rev());
    cw.push(STORE);
    Cycles { ccw, cw }
}

/// The relay steps of a board of `h` houses (see [`RelayStep`]).
fn relay_steps(h: usize) -> RelaySteps {
    let places = 2 * h + 2;
    let mut steps = RelaySteps([[RelayStep::default(); RELAY_PLACES]; RELAY_PLACES]);
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
    /// A clockwise sowing in a family that sows one way only.
    NoDirection(Family),
    /// Ethiopian Kalah: the house holds a single seed.
    SingleSeed {
        /// 0-based house of the mover.
        house: usize,
    },
    /// Oware: the opponent has no seeds and this sowing gives them none.
    MustFeed {
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
            MoveError::NoDirection(family) => write!(
                f,
                "{} sows counter-clockwise only: leave out the '<'",
                family.long_title()
            ),
            MoveError::SingleSeed { house } => write!(
                f,
                "house {} of the mover holds a single seed, which Ethiopian Kalah does not sow",
                house + 1
            ),
            MoveError::MustFeed { house } => write!(
                f,
                "the opponent has no seeds and sowing house {} gives them none: the mover must feed them",
                house + 1
            ),
        }
    }
}

impl std::error::Error for MoveError {}
