//! The bound of an export's enumeration: how many positions the memory holds, and the
//! refusal of a table too large for it, in its first turns, with the deepest `--depth`
//! that fits, before the memory runs out.

use std::fmt;

use crate::run::levels as budget;

/// Bytes of memory a position of an export takes at the peak of `kalah export`: its
/// entry in the enumeration's index and order, its value, its moves and their values, and
/// its part of the table's text (JSON or CSV), held whole while it is written. Counted for
/// the positions of the table and those just past it: a Kalah(4,3) export of depth 6
/// (22,503 positions and 38,516 past them, a table of 3.4 MB) peaked at 40 MB with a
/// 1 MiB transposition table and no database, about 460 bytes a position; doubled.
pub const POSITION_BYTES: u64 = 1 << 10;

/// The positions an export may hold where `available` bytes of memory are free (seven
/// tenths of them, as the solver's table and database need the rest); `None` (unknown
/// memory) allows what 8 GiB would hold.
pub fn max_positions(available: Option<u64>) -> usize {
    let bytes = available.map_or(8 << 30, |b| b / 10 * 7);
    (bytes / POSITION_BYTES).max(1) as usize
}

/// An export the memory does not hold ([`super::PlanError::TooLarge`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TooLarge {
    /// The `--depth` asked for.
    pub depth: u32,
    /// The turns enumerated when it was refused.
    pub turns: usize,
    /// Positions enumerated then (the table's and those just past it).
    pub positions: usize,
    /// The estimate of the positions of the whole export (the positions enumerated where
    /// the hard bound refused it).
    pub estimate: f64,
    /// The most positions allowed.
    pub max_positions: usize,
    /// The deepest `--depth` that the estimate says fits (`None` where none does).
    pub fits: Option<u32>,
}

impl fmt::Display for TooLarge {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let gib = |positions: f64| match positions * POSITION_BYTES as f64 / (1u64 << 30) as f64 {
            g if g < 1e6 => format!("{g:.1}"),
            g => format!("{g:.1e}"),
        };
        let fits = match self.fits {
            None => "no depth fits: export from a position further on".to_string(),
            Some(d) => format!("choose --depth {d} or less"),
        };
        write!(
            f,
            "an export of depth {} does not fit in memory: its table and the positions just \
             past it would hold about {:.3e} positions (estimated from its first {} turns, {} \
             positions), about {} GiB, where the memory available holds {} positions \
             ({} GiB): {fits}",
            self.depth,
            self.estimate,
            self.turns,
            self.positions,
            gib(self.estimate),
            self.max_positions,
            gib(self.max_positions as f64),
        )
    }
}

/// An early refusal needs the estimate to pass the bound by this factor. The estimate
/// grows each turn still to come by the factor of the last turn enumerated, while a game's
/// positions thin out with depth (transpositions, games that end): on Kalah(4,3) it
/// says 1.3e8 positions for depth 10 from the first four turns, where there are 2.5e6.
/// An export is not to be refused on such a guess; the count of positions enumerated is
/// the hard bound, reached long before the memory runs out.
const ESTIMATE_MARGIN: f64 = 64.0;

/// Turns enumerated (past the start) before the estimate may refuse an export: the
/// growth of the first few says little, and they cost nothing.
const ESTIMATE_TURNS: usize = 4;

/// Checks an export of `depth` turns whose first turns hold `levels` positions
/// (`levels[t]` those first reached after `t` turns; the positions just past the table
/// count as the level after `depth`) against `max_positions`: refused where they hold
/// more already, or where, [`ESTIMATE_TURNS`] turns enumerated, the estimate of the whole
/// passes the bound by [`ESTIMATE_MARGIN`]. The deepest depth that fits is the one whose
/// positions, counted or estimated, are within the bound.
pub(crate) fn check(levels: &[usize], depth: u32, max_positions: usize) -> Result<(), TooLarge> {
    // The table's levels and the one just past it.
    let total = |d: u32| match d as usize + 2 <= levels.len() {
        true => levels[..d as usize + 2].iter().map(|&n| n as f64).sum(),
        false => budget::estimate(levels, d as usize + 1),
    };
    let positions: usize = levels.iter().sum();
    let whole = total(depth);
    let hard = positions > max_positions;
    let early = levels.len() > ESTIMATE_TURNS && whole > ESTIMATE_MARGIN * max_positions as f64;
    if !hard && !early {
        return Ok(());
    }
    Err(TooLarge {
        depth,
        turns: levels.len().saturating_sub(1).min(depth as usize),
        positions,
        estimate: if hard { positions as f64 } else { whole },
        max_positions,
        fits: (0..depth).rev().find(|&d| total(d) <= max_positions as f64),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_deepest_depth_that_fits_leaves_room_for_the_level_past_it() {
        // 1 + 2 + 4 + 8 + 16 = 31 enumerated, growing by 2: past 64 * 100 at depth 12.
        let e = check(&[1, 2, 4, 8, 16], 12, 100).unwrap_err();
        // Depth 4 holds 31 + 32 = 63 with the level past it; depth 5 would hold 127.
        assert_eq!((e.turns, e.positions, e.fits), (4, 31, Some(4)));
        assert!(e.to_string().contains("choose --depth 4 or less"), "{e}");
        // Only 8 times the bound at depth 9: no refusal on a guess.
        assert!(check(&[1, 2, 4, 8, 16], 9, 100).is_ok());
        // Past the hard bound whatever the estimate says.
        let e = check(&[1, 200], 3, 100).unwrap_err();
        assert_eq!(e.fits, None);
        assert!(e.to_string().contains("no depth fits"), "{e}");
    }
}
