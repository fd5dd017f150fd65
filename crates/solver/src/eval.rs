//! The heuristic evaluation at the leaves of a depth-limited search: a guess of the final
//! margin for the mover of a position the search does not follow to the end.
//!
//! An evaluation is never a proof: the exact search ([`crate::tt::EXACT_DEPTH`]) never
//! reaches a heuristic leaf, and every value built on one is reported as heuristic.
//!
//! Three evaluations: the store margin alone; a linear function of a few features of
//! the houses ([`features`]) whose coefficients were fitted by least squares to exact
//! values of positions sampled from played games, or for Kalah on six houses and more to
//! the values of deeper searches of such positions ([`weights`]; the fit is the example
//! `fit_eval`, the procedure `docs/evaluation.md`); and for Kalah on six houses (either
//! capture rule) a learned pattern evaluation, table lookups indexed by small groups of
//! houses ([`ntuple`]; trained by the example `train_ntuple`).

pub mod fit;
pub mod ntuple;
pub mod weights;

use kalah_core::{Position, Rules};

pub use ntuple::NTuple;
pub use weights::Weights;

/// The classes of learned tables an analysis uses by default ([`Evaluation::for_analysis`]):
/// those that scored at least 60% against the store difference at 0.1 s a move over 200
/// games and no worse than level at 1 s (docs/evaluation.md).
pub const DEFAULT_LEARNED: &[&str] = &["kalah-6"];

/// Which evaluation the leaves of a depth-limited search get.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Evaluation {
    /// The store margin alone: the mover's store minus the opponent's.
    #[default]
    StoreDifference,
    /// The store margin plus a fitted estimate of what the houses are worth to the mover
    /// ([`Weights::estimate`]), clamped to what the seeds in the houses allow. The
    /// coefficients are those of one family and board size class ([`Evaluation::fitted`]).
    Fitted(&'static Weights),
    /// The store margin plus the learned pattern evaluation's estimate of what the houses
    /// are worth to the mover ([`NTuple::estimate`]: table lookups), clamped to what the
    /// seeds in the houses allow. For Kalah on six houses ([`Evaluation::learned`]).
    Learned(&'static NTuple),
}

impl Evaluation {
    /// The fitted evaluation for a game of `rules`: the coefficients of its family and
    /// board size class ([`Weights::for_rules`]).
    pub fn fitted(rules: &Rules) -> Evaluation {
        Evaluation::Fitted(Weights::for_rules(rules))
    }

    /// The learned evaluation for a game of `rules` where there are tables for it (Kalah
    /// on six houses, either capture rule: [`NTuple::for_rules`]), else the fitted
    /// evaluation of its class.
    pub fn learned(rules: &Rules) -> Evaluation {
        match NTuple::for_rules(rules) {
            Some(tables) => Evaluation::Learned(tables),
            None => Evaluation::fitted(rules),
        }
    }

    /// The evaluation an analysis of a game of `rules` uses unless told otherwise: the
    /// learned one where its tables won their matches against the store difference
    /// ([`DEFAULT_LEARNED`]: standard Kalah on six houses, docs/matches.md), the store
    /// difference elsewhere (the fitted evaluation did not win its matches).
    pub fn for_analysis(rules: &Rules) -> Evaluation {
        match NTuple::for_rules(rules) {
            Some(tables) if DEFAULT_LEARNED.contains(&tables.class.as_str()) => {
                Evaluation::Learned(tables)
            }
            _ => Evaluation::StoreDifference,
        }
    }

    /// The guess of the final margin for the mover of `pos`, whose store margin is
    /// `margin` (passed in: the search has it at hand). Always within what the seeds in
    /// the houses allow: `margin - left ..= margin + left`.
    #[inline]
    pub fn score(self, pos: &Position, margin: i32) -> i32 {
        match self {
            Evaluation::StoreDifference => margin,
            Evaluation::Fitted(w) => {
                let left = pos.seeds_in_houses() as i32;
                margin + w.estimate(pos).clamp(-left, left)
            }
            Evaluation::Learned(t) => {
                let left = pos.seeds_in_houses() as i32;
                margin + t.estimate(pos).clamp(-left, left)
            }
        }
    }

    /// The evaluation a setting names, for a game of `rules`: `store-difference` (or
    /// `store`), `fitted` (that of [`Evaluation::fitted`]) and `learned` (that of
    /// [`Evaluation::learned`]); `None` for any other name.
    pub fn from_name(name: &str, rules: &Rules) -> Option<Evaluation> {
        match name.trim().to_ascii_lowercase().as_str() {
            "store-difference" | "store" => Some(Evaluation::StoreDifference),
            "fitted" => Some(Evaluation::fitted(rules)),
            "learned" => Some(Evaluation::learned(rules)),
            _ => None,
        }
    }

    /// A short name for reports: `store-difference`, `fitted:<class>` or
    /// `learned:<class>`.
    pub fn name(self) -> String {
        match self {
            Evaluation::StoreDifference => "store-difference".to_string(),
            Evaluation::Fitted(w) => format!("fitted:{}", w.class),
            Evaluation::Learned(t) => format!("learned:{}", t.class),
        }
    }
}

/// Number of features of [`features`].
pub const FEATURES: usize = 12;

/// The names of the features, in the order of [`features`].
pub const FEATURE_NAMES: [&str; FEATURES] = [
    "rows",
    "seeds",
    "tempo",
    "landings",
    "opp_landings",
    "capture",
    "opp_capture",
    "overflow",
    "mobility",
    "small_houses",
    "sown_capture",
    "opp_sown_capture",
];

/// What one row offers its owner, read off the two rows (each a row of byte lanes from
/// its owner's left, as [`Position`] packs them) without sowing anything.
#[derive(Clone, Copy, Default)]
struct RowCounts {
    /// Houses whose seeds end exactly in the owner's store (an extra turn in Kalah).
    landings: i32,
    /// The most seeds of the other row one sowing captures Kalah's way: the last seed
    /// lands, within the owner's row, in an empty house opposite seeds.
    capture: i32,
    /// Seeds that pass the owner's store: they leave the row for the other side.
    overflow: i32,
    /// Houses that hold seeds.
    nonempty: i32,
    /// Houses of one or two seeds (what Oware's captures take once sown into).
    small: i32,
    /// The most seeds one sowing captures Oware's way, read as a sowing without a store
    /// on its path: the last seed makes two or three in a house of the other row.
    sown_capture: i32,
}

/// Seeds in lane `j` of a row.
#[inline(always)]
fn lane(row: u64, j: usize) -> i32 {
    (row >> (8 * j)) as u8 as i32
}

/// The counts of the row `mine` against the row `theirs`, of `h` houses each.
#[inline(always)]
fn row_counts(mine: u64, theirs: u64, h: usize) -> RowCounts {
    let mut c = RowCounts::default();
    for j in 0..h {
        let seeds = lane(mine, j);
        let to_store = (h - j) as i32;
        c.nonempty += (seeds > 0) as i32;
        c.small += (seeds == 1 || seeds == 2) as i32;
        c.landings += (seeds == to_store) as i32;
        c.overflow += (seeds - to_store).max(0);
        let t = j + seeds as usize;
        if seeds == 0 {
            continue;
        }
        if t < h {
            if lane(mine, t) == 0 {
                c.capture = c.capture.max(lane(theirs, h - 1 - t));
            }
        } else if t < 2 * h {
            let there = lane(theirs, t - h);
            if there == 1 || there == 2 {
                c.sown_capture = c.sown_capture.max(there + 1);
            }
        }
    }
    c
}

/// The features of `pos` for the mover, in the order of [`FEATURE_NAMES`]: the row
/// difference (mover's seeds in the houses minus the opponent's), the seeds in the houses,
/// a constant (the tempo of being to move), the mover's and the opponent's sowings that
/// end in their store, the mover's and the opponent's best Kalah capture, the difference
/// of the seeds that pass each player's store, of the houses holding seeds and of the
/// houses of one or two seeds, and the mover's and the opponent's best Oware capture. All read off the houses alone (no sowing), in a few dozen
/// operations per row.
#[inline]
pub fn features(pos: &Position) -> [i32; FEATURES] {
    let h = pos.houses_per_side();
    let mask = if h >= 8 {
        u64::MAX
    } else {
        (1u64 << (8 * h)) - 1
    };
    let board = pos.packed_board();
    let mine = board as u64 & mask;
    let theirs = (board >> (8 * h)) as u64 & mask;
    let m = pos.seeds_in_mover_row() as i32;
    let o = pos.seeds_in_houses() as i32 - m;
    let me = row_counts(mine, theirs, h);
    let op = row_counts(theirs, mine, h);
    [
        m - o,
        m + o,
        1,
        me.landings,
        op.landings,
        me.capture,
        op.capture,
        me.overflow - op.overflow,
        me.nonempty - op.nonempty,
        me.small - op.small,
        me.sown_capture,
        op.sown_capture,
    ]
}
