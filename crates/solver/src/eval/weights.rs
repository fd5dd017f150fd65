//! The fitted coefficients of the evaluation, one set per family and board size class, as
//! the example `fit_eval` printed them (`docs/evaluation.md` has the command and the data).

use kalah_core::{Family, Position, Rules};

use super::{features, FEATURES};

/// Coefficients are fixed point: a weight `w` stands for `w / SCALE` seeds per unit of
/// its feature.
pub const SCALE: i32 = 1 << 10;

/// The coefficients of one family and board size class: the estimate of what the houses
/// are worth to the mover is `sum(w[i] * features[i]) / SCALE`, rounded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights {
    /// The class's name (`kalah-6`, `oware`, ...), as the fit names it.
    pub class: &'static str,
    /// One weight per feature of [`super::features`], in units of `1 / SCALE` seeds.
    pub w: [i32; FEATURES],
}

impl Weights {
    /// The estimate of the final margin less the store margin, for the mover of `pos`
    /// (not yet clamped to the seeds in the houses: [`super::Evaluation::score`] does).
    #[inline]
    pub fn estimate(&self, pos: &Position) -> i32 {
        let x = features(pos);
        let sum: i32 = self.w.iter().zip(x).map(|(w, f)| w * f).sum();
        // Rounded to the nearest seed, halves away from zero, the same for either sign
        // (so that a position and its mirror image get opposite estimates).
        let half = SCALE / 2;
        if sum >= 0 {
            (sum + half) / SCALE
        } else {
            -((-sum + half) / SCALE)
        }
    }

    /// The coefficients for a game of `rules`: its family's, and for Kalah its board size
    /// class's (six houses and more, or fewer). Kalah's rule options (empty capture, the
    /// end when the mover is stuck, leftovers discarded, the early stop) share the class of
    /// standard Kalah, which they were not fitted on (`docs/evaluation.md`).
    pub fn for_rules(rules: &Rules) -> &'static Weights {
        match rules.family {
            Family::Kalah if rules.houses >= 6 => &KALAH_6,
            Family::Kalah => &KALAH_SMALL,
            Family::General => &GENERAL,
            Family::Nigerian => &NIGERIAN,
            Family::Ethiopian => &ETHIOPIAN,
            Family::Oware => &OWARE,
        }
    }

    /// Every class, for reports and tests.
    pub fn all() -> [&'static Weights; 6] {
        [
            &KALAH_6,
            &KALAH_SMALL,
            &GENERAL,
            &NIGERIAN,
            &ETHIOPIAN,
            &OWARE,
        ]
    }
}

// BEGIN FITTED (printed by `fit_eval`)
/// Kalah, six houses and more: fitted to the values of 12-sowing searches of positions
/// with more than 30 seeds in the houses (`fit_eval --deep 12`), not to exact values:
/// these play better (`docs/evaluation.md`).
pub const KALAH_6: Weights = Weights {
    class: "kalah-6",
    w: [36, 12, 903, 3363, -696, 579, -279, 49, -734, 461, -491, 567],
};
/// Kalah, five houses and fewer.
pub const KALAH_SMALL: Weights = Weights {
    class: "kalah-small",
    w: [
        970, 87, -1180, 1057, 363, 1474, -442, -705, -594, 1316, -582, 491,
    ],
};
/// General Kalah.
pub const GENERAL: Weights = Weights {
    class: "general",
    w: [617, -8, 379, 114, -123, -15, -16, -785, -309, 206, 22, -69],
};
/// Nigerian Kalah.
pub const NIGERIAN: Weights = Weights {
    class: "nigerian",
    w: [501, 20, -47, 272, -120, 60, 37, 104, 999, -966, 164, -181],
};
/// Ethiopian Kalah.
pub const ETHIOPIAN: Weights = Weights {
    class: "ethiopian",
    w: [
        555, 67, -105, 808, -449, 697, -109, -323, -1015, 442, -48, 37,
    ],
};
/// Oware.
pub const OWARE: Weights = Weights {
    class: "oware",
    w: [141, -2, -110, -148, 112, 93, 69, -132, 207, -62, 942, 122],
};
// END FITTED
