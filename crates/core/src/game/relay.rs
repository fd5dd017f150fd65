//! The move generator of Nigerian Kalah: the relay sowing, lap by lap on the cycle of both
//! rows and both stores, capturing the houses that reach 4 on the way.

use super::{Game, RowSowing};
use crate::rules::MAX_HOUSES;

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
pub(super) struct RelaySteps([[RelayStep; RELAY_PLACES]; RELAY_PLACES]);

/// The relay steps of a board of `h` houses (see [`RelayStep`]).
pub(super) fn steps(h: usize) -> RelaySteps {
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

impl Game {
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
    pub(super) fn sow_relay(
        &self,
        steps: &RelaySteps,
        mine: u64,
        theirs: u64,
        house: usize,
    ) -> RowSowing {
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
