//! The rules engine: a [`Game`] is validated rules plus the precomputed sowing tables of
//! its family's move generator, and the sowing itself.
//!
//! One move generator per family, each in its own file: [`laps`] (Kalah and General
//! Kalah: a constant number of word operations), [`relay`] (Nigerian Kalah: a few per relay
//! step), [`cycle`] (Ethiopian Kalah and Oware: seed by seed on a cycle of places, then the
//! family's capture). What they share, the end of the game, is in [`end`]; the legal moves
//! in [`moves`] (their errors are `crate::error`'s).

use crate::position::{Position, Side};
use crate::rules::{Family, Rules, RulesError, MAX_HOUSES};

mod cycle;
mod end;
mod laps;
mod moves;
mod relay;

use cycle::Cycles;
use laps::Laps;
use relay::RelaySteps;

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
/// each, so the endgame database build and the search both sow on the rows. The emptied
/// starting house is part of the cycle and receives seeds on every full lap, as
/// docs/rules.md §2.1 requires. The other families sow with their own generators (see the
/// module doc), chosen by one test at the top of [`Game::sow_rows`].
#[derive(Clone)]
pub struct Game {
    rules: Rules,
    h: usize,
    cycle: usize,
    /// `0x01` in each of the `H` lanes of a row.
    ones: u64,
    /// `0xff` in each of the `H` lanes of a row.
    row: u64,
    laps: Laps,
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
        let laps = laps::table(&rules);
        let ones = (0..h).map(|j| 1u64 << (8 * j)).sum();
        Ok(Game {
            rules,
            h,
            cycle,
            ones,
            row: ones * 0xff,
            laps,
            special: match rules.family {
                Family::Nigerian => Some(Box::new(Special::Relay(relay::steps(h)))),
                Family::Ethiopian | Family::Oware => Some(Box::new(Special::Cycles(
                    cycle::cycles(h, rules.family == Family::Ethiopian),
                ))),
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
        self.sow_laps(mine, theirs, house)
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
