//! Whether the exact solve of a game is quick enough to be what a command does when asked
//! for nothing else: the perfect engine of `kalah play` and the engine, and solving the
//! first turns rather than reading them from the opening book (`openings`, `pie`).

use kalah_core::{Game, Position};

/// The most seeds in the houses of a starting position that the perfect engine is the
/// default for: [`solves_quickly`].
pub const PERFECT_SEEDS: u32 = 48;

/// [`PERFECT_SEEDS`] for the families whose positions repeat, whose exact solve is a
/// retrograde analysis of the whole game graph (Oware(6,4) does not finish quickly).
pub const PERFECT_SEEDS_CYCLIC: u32 = 24;

/// Whether the exact solve of a game from `pos` is quick enough for the perfect engine
/// to be the default: at most [`PERFECT_SEEDS`] seeds in the houses (Kalah(6,4) from the
/// start), [`PERFECT_SEEDS_CYCLIC`] in a family whose positions repeat.
pub fn solves_quickly(game: &Game, pos: &Position) -> bool {
    let most = match game.rules().family.is_cyclic() {
        true => PERFECT_SEEDS_CYCLIC,
        false => PERFECT_SEEDS,
    };
    pos.seeds_in_houses() <= most
}

/// The most ways to lay a Bao board's seeds in its pits for which the perfect engine (the
/// whole game graph solved) is the default: every board of 4×3 with 2 seeds (C(35, 11),
/// 4.2 × 10^8) and fewer seeds fits; 4×4 with 2 seeds (C(47, 15), 1.5 × 10^12) does not,
/// nor does its graph in this machine's memory.
pub const BAO_PERFECT_LAYOUTS: u128 = 1_000_000_000;

/// Whether the game graph of the Bao position `pos` is small enough to solve by default
/// (minutes at most; see [`BAO_PERFECT_LAYOUTS`]): Bao's [`solves_quickly`].
pub fn bao_solves_quickly(pos: &kalah_core::bao::BaoPosition) -> bool {
    let cells = 4 * pos.pits() as u64;
    kalah_core::binomial(pos.seeds() as u64 + cells - 1, cells - 1) <= BAO_PERFECT_LAYOUTS
}
