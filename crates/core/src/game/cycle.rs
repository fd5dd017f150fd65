//! The move generator of Ethiopian Kalah and Oware: the seeds go one by one round a cycle
//! of places, then the family's capture ([`Game::capture_ethiopian`] or
//! [`Game::capture_oware`]) and the end of game of the families whose positions repeat.

use super::end::row_sum;
use super::{Game, RowSowing, CLOCKWISE};
use crate::rules::{Capture, Family, GrandSlam, MAX_HOUSES};

/// A place of a sowing cycle: a lane of the mover's row (0..H), of the opponent's row
/// (`THEIRS + 0..H`), or the mover's store.
const THEIRS: u8 = 8;
const STORE: u8 = 255;

/// The sowing cycles of Ethiopian Kalah and Oware, from the mover's view: `ccw` the usual
/// counter-clockwise order from the mover's first house, `cw` the clockwise one (Ethiopian
/// only), as lists of places ([`THEIRS`], [`STORE`]); house `j` is place `j` of `ccw` and
/// place `H-1-j` of `cw`.
#[derive(Clone)]
pub(super) struct Cycles {
    ccw: Vec<u8>,
    cw: Vec<u8>,
}

/// The seeds of both rows as one array of places: lane `j` of the mover's row is place `j`,
/// lane `j` of the opponent's row place [`THEIRS`] `+ j`.
type Lanes = [u8; 2 * MAX_HOUSES];

/// The sowing cycles of a board of `h` houses (see [`Cycles`]); Oware's (`store` false)
/// leave out the store.
pub(super) fn cycles(h: usize, store: bool) -> Cycles {
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

impl Game {
    /// [`Game::sow_rows`] for Ethiopian Kalah and Oware (docs/rules.md §5.3, §5.5, §5.7): the
    /// seeds go round a cycle of places one by one (Ethiopian: both rows and the mover's
    /// store, in the direction the move names; Oware: both rows, skipping the emptied house
    /// on a sowing of a lap or more), then the family's capture and end of game. The move
    /// must be legal ([`Game::legal_moves`]).
    #[inline(never)]
    pub(super) fn sow_cycle(
        &self,
        cycles: &Cycles,
        mine: u64,
        theirs: u64,
        mv: usize,
    ) -> RowSowing {
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
        // Each of its `len` places gets `n / len` seeds, the first `n % len` one more: one
        // walk round the cycle (or up to the last seed, short of a lap), no division in it.
        let (whole, len) = (cycle.len(), cycle.len() - oware as usize);
        let (laps, rest) = ((n / len) as u8, n % len);
        let mut store = 0u8;
        let mut j = at;
        for k in 0..if laps == 0 { rest } else { len } {
            j = if j + 1 == whole { 0 } else { j + 1 };
            let seeds = laps + (k < rest) as u8;
            match cycle[j] {
                STORE => store += seeds,
                p => lanes[p as usize] += seeds,
            }
        }
        // The last seed's place: `(n - 1) % len` places after the one after the house.
        let past = at + 1 + if rest == 0 { len - 1 } else { rest - 1 };
        let last = cycle[if past >= whole { past - whole } else { past }];
        let mut banked = [store, 0];
        let mut extra = false;
        if oware {
            self.capture_oware(&mut lanes, &mut banked, last);
        } else {
            extra = self.capture_ethiopian(&mut lanes, &mut banked, last);
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

    /// Oware's capture (docs/rules.md §5.5), after a sowing whose last seed fell in the
    /// place `last`: where that is a house of the opponent now holding 2 or 3 seeds, the
    /// mover takes them, and those of the houses before it that hold 2 or 3, going back
    /// towards the opponent's first house without a gap; a capture that would take every
    /// seed of the opponent (a grand slam) takes nothing unless the rules say
    /// [`GrandSlam::CaptureAll`].
    #[inline(always)]
    fn capture_oware(&self, lanes: &mut Lanes, banked: &mut [u8; 2], last: u8) {
        if last < THEIRS || last == STORE {
            return;
        }
        let h = self.h;
        let mut k = last as usize;
        let mut taken = 0u8;
        let mut emptied = *lanes;
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
            *lanes = emptied;
        }
    }

    /// Ethiopian Kalah's end of a sowing (docs/rules.md §5.3), whose last seed fell in the
    /// place `last`: in the mover's store it gives an extra turn (the answer is true); in an
    /// empty house of the mover it captures that seed and the opposite house, as Kalah does
    /// (an empty opposite house only where the capture rule says `empty`).
    #[inline(always)]
    fn capture_ethiopian(&self, lanes: &mut Lanes, banked: &mut [u8; 2], last: u8) -> bool {
        if last == STORE {
            return true;
        }
        if last < THEIRS && lanes[last as usize] == 1 {
            let opposite = THEIRS as usize + self.h - 1 - last as usize;
            if lanes[opposite] != 0 || self.rules.capture == Capture::Empty {
                banked[0] += 1 + lanes[opposite];
                lanes[last as usize] = 0;
                lanes[opposite] = 0;
            }
        }
        false
    }

    /// The end of game of Ethiopian Kalah and Oware for the player about to move with the
    /// row `next` against `other`: `None` while the game goes on, else the seeds that go to
    /// the stores of the owners of the two rows. Ethiopian: the mover is stuck when no
    /// house holds two seeds, and the houses are not counted. Oware: a mover without seeds
    /// ends the game, the other keeping their row; so does a mover who cannot feed an
    /// opponent without seeds, keeping their own.
    #[inline]
    pub(super) fn cyclic_end(&self, next: u64, other: u64) -> Option<(u8, u8)> {
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
    pub(super) fn feeding(&self, row: u64) -> u16 {
        let mut m = 0u16;
        for j in 0..self.h {
            if (row >> (8 * j)) as u8 as usize >= self.h - j {
                m |= 1 << j;
            }
        }
        m
    }
}
