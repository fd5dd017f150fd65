//! Least squares for the evaluation's coefficients: the normal equations, solved by
//! Gaussian elimination with partial pivoting (a dozen unknowns need nothing more), and
//! the fixed-point weights made from the solution. Used by the example `fit_eval` and the
//! tests; the search never calls it.

use super::weights::{Weights, SCALE};
use super::FEATURES;

/// The coefficients `w` that minimise `sum((x . w - y)^2) + ridge * |w|^2` over the rows
/// `xs` and targets `ys` (a small `ridge` keeps a feature that never varies, or two that
/// move together, from making the system singular). `None` when the rows are empty or
/// of unequal length, or the system is singular all the same.
pub fn least_squares(xs: &[Vec<f64>], ys: &[f64], ridge: f64) -> Option<Vec<f64>> {
    weighted_least_squares(xs, ys, &vec![1.0; ys.len()], ridge)
}

/// [`least_squares`] with a weight per row: minimises
/// `sum(weight * (x . w - y)^2) + ridge * |w|^2`.
pub fn weighted_least_squares(
    xs: &[Vec<f64>],
    ys: &[f64],
    weights: &[f64],
    ridge: f64,
) -> Option<Vec<f64>> {
    let k = xs.first()?.len();
    if xs.len() != ys.len() || ys.len() != weights.len() || xs.iter().any(|x| x.len() != k) {
        return None;
    }
    // The augmented normal equations [X'WX + ridge I | X'Wy].
    let mut a = vec![vec![0.0f64; k + 1]; k];
    for ((x, &y), &c) in xs.iter().zip(ys).zip(weights) {
        for (i, row) in a.iter_mut().enumerate() {
            for (j, cell) in row[..k].iter_mut().enumerate() {
                *cell += c * x[i] * x[j];
            }
            row[k] += c * x[i] * y;
        }
    }
    for (i, row) in a.iter_mut().enumerate() {
        row[i] += ridge;
    }
    solve_in_place(a)
}

/// The coefficients that minimise the sum of absolute errors (the mean absolute error
/// the evaluation is judged by), approximately: least squares reweighted `rounds` times,
/// each row by the inverse of its last absolute error (at least `floor`, a fraction of a
/// seed, so that a row fitted exactly does not take all the weight). Starts from
/// [`least_squares`]; `None` where that has no solution.
pub fn least_absolute(
    xs: &[Vec<f64>],
    ys: &[f64],
    ridge: f64,
    rounds: usize,
    floor: f64,
) -> Option<Vec<f64>> {
    let mut w = least_squares(xs, ys, ridge)?;
    for _ in 0..rounds {
        let weights: Vec<f64> = xs
            .iter()
            .zip(ys)
            .map(|(x, &y)| 1.0 / (dot(x, &w) - y).abs().max(floor))
            .collect();
        w = weighted_least_squares(xs, ys, &weights, ridge)?;
    }
    Some(w)
}

/// The dot product of two vectors of equal length.
fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// Solves the augmented `k x (k+1)` system `a` by Gaussian elimination with partial
/// pivoting; `None` when a pivot vanishes.
fn solve_in_place(mut a: Vec<Vec<f64>>) -> Option<Vec<f64>> {
    let k = a.len();
    for col in 0..k {
        let pivot = (col..k).max_by(|&r, &s| a[r][col].abs().total_cmp(&a[s][col].abs()))?;
        if a[pivot][col].abs() < 1e-12 {
            return None;
        }
        a.swap(col, pivot);
        let pivot_row = a[col].clone();
        for (r, row) in a.iter_mut().enumerate() {
            if r != col {
                let f = row[col] / pivot_row[col];
                for (cell, p) in row[col..].iter_mut().zip(&pivot_row[col..]) {
                    *cell -= f * p;
                }
            }
        }
    }
    Some((0..k).map(|i| a[i][k] / a[i][i]).collect())
}

/// The fixed-point weights of the coefficients `w` (one per feature), named `class`.
/// `None` unless there is exactly one coefficient per feature.
pub fn to_weights(class: &'static str, w: &[f64]) -> Option<Weights> {
    let fixed: [i32; FEATURES] = w
        .iter()
        .map(|&c| (c * SCALE as f64).round() as i32)
        .collect::<Vec<_>>()
        .try_into()
        .ok()?;
    Some(Weights { class, w: fixed })
}

/// The mean absolute difference of `guesses` from `exact` (0 for no values).
pub fn mean_absolute_error(guesses: &[i32], exact: &[i32]) -> f64 {
    if exact.is_empty() {
        return 0.0;
    }
    let sum: i64 = guesses
        .iter()
        .zip(exact)
        .map(|(&g, &e)| (g - e).abs() as i64)
        .sum();
    sum as f64 / exact.len() as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn least_squares_recovers_an_exact_linear_law() {
        // y = 2 a - 3 b + 0.5, sampled without noise.
        let xs: Vec<Vec<f64>> = (0..40)
            .map(|i| vec![(i % 7) as f64, (i % 5) as f64, 1.0])
            .collect();
        let ys: Vec<f64> = xs.iter().map(|x| 2.0 * x[0] - 3.0 * x[1] + 0.5).collect();
        let w = least_squares(&xs, &ys, 0.0).unwrap();
        for (got, want) in w.iter().zip([2.0, -3.0, 0.5]) {
            assert!((got - want).abs() < 1e-9, "{w:?}");
        }
    }

    #[test]
    fn least_absolute_follows_the_median_past_an_outlier() {
        // A constant fitted to 1, 1, 1, 1, 100: least squares gives the mean, 20.8; the
        // least absolute error, the median, 1.
        let xs = vec![vec![1.0]; 5];
        let ys = [1.0, 1.0, 1.0, 1.0, 100.0];
        let mean = least_squares(&xs, &ys, 0.0).unwrap()[0];
        let median = least_absolute(&xs, &ys, 0.0, 30, 1e-3).unwrap()[0];
        assert!((mean - 20.8).abs() < 1e-9, "{mean}");
        assert!((median - 1.0).abs() < 1e-2, "{median}");
    }

    #[test]
    fn least_squares_refuses_a_singular_system_without_ridge() {
        let xs = vec![vec![1.0, 2.0], vec![2.0, 4.0]];
        assert!(least_squares(&xs, &[1.0, 2.0], 0.0).is_none());
        assert!(least_squares(&xs, &[1.0, 2.0], 1e-6).is_some());
    }
}
