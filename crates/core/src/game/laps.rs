//! The move generator of Kalah and General Kalah: a sowing of any size as a handful of
//! word operations on the two rows, from a table of the partial laps.

use super::{Game, RowSowing};
use crate::rules::{Capture, Family, Rules, MAX_HOUSES};

/// The part of a sowing that does not go all the way round, on the two rows as words:
/// which lanes of each row get one more seed, whether the mover's store does, and where
/// the last seed lands.
#[derive(Clone, Copy, Default)]
pub(super) struct PartialLap {
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

/// The partial laps of a board, by starting house and seeds short of a full lap.
pub(super) type Laps = [[PartialLap; 2 * MAX_HOUSES + 1]; MAX_HOUSES];

/// The partial laps of `rules`' board: for each starting house `i` and each `r` below the
/// cycle of `L = 2H+1` places (the opponent's store is skipped), the places that the `r`
/// seeds after `i` fall in, and where the last one lands.
pub(super) fn table(rules: &Rules) -> Laps {
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
    laps
}

impl Game {
    /// [`Game::sow_rows`] for Kalah and General Kalah (docs/rules.md §2, §5.1): every place
    /// gets `n / L` seeds (one broadcast add per row), the `n % L` places after the house
    /// one more (the lane masks of [`table`]), then Kalah's capture.
    #[inline(always)]
    pub(super) fn sow_laps(&self, mine: u64, theirs: u64, house: usize) -> RowSowing {
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
}
