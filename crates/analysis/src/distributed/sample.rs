//! Units drawn at random from a split too large to enumerate, with the weights that
//! estimate the cost of the whole split (Knuth's estimator).

use kalah_core::{Game, Position, Rules, Side};
use serde_json::json;

use super::tree::{SplitError, Step};
use crate::game::turns::first_steps;
use crate::wire::unit::{Unit, Window};

/// What a sampled unit is asked, and so how its walk went (see [`sample`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Proof {
    /// The exact value: every move of the tree is followed.
    Exact,
    /// Only "at least `v`": South's nodes follow one move, North's every move.
    AtLeast(i32),
    /// Only "at most `v`": North's nodes follow one move, South's every move.
    AtMost(i32),
}

impl Proof {
    /// The name written in a sample's lines: `exact`, `at-least` or `at-most`.
    pub fn name(self) -> &'static str {
        match self {
            Proof::Exact => "exact",
            Proof::AtLeast(_) => "at-least",
            Proof::AtMost(_) => "at-most",
        }
    }
}

/// One unit drawn at random from the split of a position (see [`sample`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Sampled {
    /// The unit's position (possibly a finished game, which costs nothing).
    pub position: Position,
    /// How many units of the split this one stands for: the product of the numbers of
    /// moves followed on the way down.
    pub weight: f64,
    /// What it is asked, and its window.
    pub proof: Proof,
}

impl Sampled {
    /// The unit's window, from South.
    pub fn window(&self, rules: &Rules) -> Window {
        match self.proof {
            Proof::Exact => Window::full(rules),
            Proof::AtLeast(v) => Window {
                alpha: v - 1,
                beta: v,
            },
            Proof::AtMost(v) => Window {
                alpha: v,
                beta: v + 1,
            },
        }
    }
}

/// A sample as a file of units (`sample.jsonl`): unit `k` of the sample is the `k`-th,
/// one line each, with its `weight` and its `proof` besides the unit's fields (a batch
/// reads it as units).
pub fn sample_lines(drawn: &[Sampled], rules: &Rules) -> String {
    let mut text = String::new();
    for (id, d) in drawn.iter().enumerate() {
        let unit = Unit {
            id: id as u64,
            position: d.position,
            window: d.window(rules),
            rules: *rules,
        };
        let mut line = unit.to_json();
        line["weight"] = json!(d.weight);
        line["proof"] = json!(d.proof.name());
        text.push_str(&line.to_string());
        text.push('\n');
    }
    text
}

/// The number of units of the whole split that a sample estimates: the mean weight of
/// its units asked for the exact value (none: no estimate).
pub fn estimated_units(drawn: &[Sampled]) -> Option<f64> {
    let exact: Vec<f64> = drawn
        .iter()
        .filter(|d| d.proof == Proof::Exact)
        .map(|d| d.weight)
        .collect();
    (!exact.is_empty()).then(|| exact.iter().sum::<f64>() / exact.len() as f64)
}

/// Bytes of memory a unit of a sample takes at its peak: the unit drawn and its line of
/// `sample.jsonl`, held whole while it is written, rounded up.
const SAMPLE_BYTES: u64 = 1 << 10;

/// The most units a sample may draw where `available` bytes of memory are free (seven
/// tenths of them; 8 GiB's worth where unknown).
fn max_samples(available: Option<u64>) -> usize {
    (available.map_or(8 << 30, |b| b / 10 * 7) / SAMPLE_BYTES).max(1) as usize
}

/// `count` units of the split of `root` to `depth` steps, each drawn by a random walk
/// down the tree (Knuth's estimator, 1975): at a node every move is taken with the same
/// chance, and the unit's weight is the product of the numbers of moves on the way, so
/// that the mean of `weight` estimates the number of units, and the mean of `weight`
/// times a unit's cost the cost of solving them all. Transpositions are not merged (the
/// estimate counts a position once per line that reaches it).
///
/// With a hypothesis `v` the walks follow the proof of "the value is `v`" instead: half of
/// them the proof of "at least `v`" (one move of South's nodes, the one leading to the best
/// score for South as it stands, and every move of North's), half the proof of "at most
/// `v`"; the sum of the two halves' estimates is the cost of the hypothesis mode when the
/// moves chosen are right. `seed` fixes the walks. Refused
/// ([`SplitError::SampleTooLarge`]) where the units would not fit in the memory available.
pub fn sample(
    game: &Game,
    root: &Position,
    step: Step,
    depth: usize,
    count: usize,
    hypothesis: Option<i32>,
    seed: u64,
) -> Result<Vec<Sampled>, SplitError> {
    let rules = *game.rules();
    if rules.family.is_cyclic() {
        return Err(SplitError::Cyclic(rules.family));
    }
    let max = max_samples(kalah_solver::egdb::file::available_memory());
    if count > max {
        return Err(SplitError::SampleTooLarge { count, max });
    }
    let mut rng = seed ^ 0x9e37_79b9_7f4a_7c15;
    let mut next = move || {
        // splitmix64
        rng = rng.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = rng;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    };
    let mut out = Vec::with_capacity(count);
    for k in 0..count {
        let proof = match hypothesis {
            None => Proof::Exact,
            Some(v) if k % 2 == 0 => Proof::AtLeast(v),
            Some(v) => Proof::AtMost(v),
        };
        let mut pos = *root;
        let mut weight = 1.0;
        for _ in 0..depth {
            if pos.is_over() {
                break;
            }
            let moves = first_steps(game, &pos, step.offer());
            let south = pos.side_to_move() == Side::South;
            let one = match proof {
                Proof::Exact => false,
                Proof::AtLeast(_) => south,
                Proof::AtMost(_) => !south,
            };
            pos = if one {
                // The move to the best score as it stands for the mover, first of equals.
                let sign = if south { 1 } else { -1 };
                let best = moves
                    .iter()
                    .map(|m| sign * m.after.score())
                    .max()
                    .expect("a position in play has moves");
                moves
                    .into_iter()
                    .find(|m| sign * m.after.score() == best)
                    .expect("the best move")
                    .after
            } else {
                weight *= moves.len() as f64;
                moves[(next() % moves.len() as u64) as usize].after
            };
        }
        out.push(Sampled {
            position: pos,
            weight,
            proof,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::distributed::Step;

    #[test]
    fn a_sample_round_trips_through_its_units_file() {
        let rules = Rules::kalah(4, 3);
        let game = Game::new(rules).unwrap();
        let drawn = sample(&game, &game.start(), Step::Turn, 2, 6, Some(1), 3).unwrap();
        let text = sample_lines(&drawn, &rules);
        for (k, (line, d)) in text.lines().zip(&drawn).enumerate() {
            let unit = Unit::parse(line).unwrap();
            assert_eq!(unit.id, k as u64);
            assert_eq!(unit.position, d.position);
            assert_eq!(unit.window, d.window(&rules));
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            assert_eq!(v["weight"], json!(d.weight));
            assert_eq!(v["proof"], json!(d.proof.name()));
        }
        assert_eq!(estimated_units(&drawn), None);
    }

    #[test]
    fn a_sample_larger_than_the_memory_is_refused_before_any_walk() {
        assert_eq!(max_samples(Some(10 << 20)), 7 << 10);
        let game = Game::new(Rules::kalah(4, 3)).unwrap();
        let refused = sample(&game, &game.start(), Step::Turn, 2, usize::MAX, None, 1);
        let Err(e @ SplitError::SampleTooLarge { .. }) = refused else {
            panic!("not refused")
        };
        assert!(e.to_string().contains("--sample"), "{e}");
    }
}
