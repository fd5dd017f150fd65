//! The score of a match for one player and its error bar: a 95% interval of the mean
//! points per game from the variance of the pairs' points (each opening played with
//! both colours), so that the openings' own bias cancels out of the error.

/// The normal quantile of a two-sided 95% interval.
const Z95: f64 = 1.959_964;

/// One player's results: wins, draws, losses, and the points of every finished pair of
/// games (the same opening with both colours, 0 to 2).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Score {
    /// Games won.
    pub wins: usize,
    /// Games drawn.
    pub draws: usize,
    /// Games lost.
    pub losses: usize,
    /// Points of every game, in order (1, 0.5 or 0).
    pub games: Vec<f64>,
    /// Points of every finished pair, in order.
    pub pairs: Vec<f64>,
}

impl Score {
    /// Counts one game of `points` (1 a win, 0.5 a draw, 0 a loss).
    pub fn add_game(&mut self, points: f64) {
        match points {
            p if p > 0.75 => self.wins += 1,
            p if p > 0.25 => self.draws += 1,
            _ => self.losses += 1,
        }
        self.games.push(points);
    }

    /// Counts one finished pair of `points` (its two games counted by [`Score::add_game`]).
    pub fn add_pair(&mut self, points: f64) {
        self.pairs.push(points);
    }

    /// Games played.
    pub fn played(&self) -> usize {
        self.games.len()
    }

    /// Points: a win 1, a draw a half.
    pub fn points(&self) -> f64 {
        self.wins as f64 + 0.5 * self.draws as f64
    }

    /// Mean points per game (0.5 when no game was played).
    pub fn mean(&self) -> f64 {
        if self.games.is_empty() {
            0.5
        } else {
            self.points() / self.played() as f64
        }
    }

    /// The half-width of the 95% interval of [`Score::mean`]: from the variance of the
    /// pairs' points when at least two pairs finished (pair mean / 2 per game), else
    /// from the games' own variance; `None` with fewer than two samples.
    pub fn half_width95(&self) -> Option<f64> {
        if self.pairs.len() >= 2 {
            standard_error(&self.pairs).map(|se| Z95 * se / 2.0)
        } else {
            standard_error(&self.games).map(|se| Z95 * se)
        }
    }

    /// The Elo difference the mean points per game imply (`None` at 0 or 1: unbounded).
    pub fn elo(&self) -> Option<f64> {
        elo(self.mean())
    }
}

/// The standard error of the mean of `xs` (sample variance; `None` below two samples).
fn standard_error(xs: &[f64]) -> Option<f64> {
    let n = xs.len();
    if n < 2 {
        return None;
    }
    let mean = xs.iter().sum::<f64>() / n as f64;
    let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
    Some((var / n as f64).sqrt())
}

/// The Elo difference of a mean score `s` per game, strictly between 0 and 1.
pub fn elo(s: f64) -> Option<f64> {
    (s > 0.0 && s < 1.0).then(|| 400.0 * (s / (1.0 - s)).log10())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn score(pairs: &[[f64; 2]]) -> Score {
        let mut s = Score::default();
        for p in pairs {
            s.add_game(p[0]);
            s.add_game(p[1]);
            s.add_pair(p[0] + p[1]);
        }
        s
    }

    #[test]
    fn wins_draws_and_losses_make_the_points() {
        let s = score(&[[1.0, 0.5], [0.0, 1.0]]);
        assert_eq!((s.wins, s.draws, s.losses), (2, 1, 1));
        assert_eq!(s.points(), 2.5);
        assert_eq!(s.mean(), 0.625);
        assert_eq!(Score::default().mean(), 0.5);
    }

    #[test]
    fn the_interval_comes_from_the_pairs_variance() {
        // Pairs 1.5, 1, 0.5: mean 1, sample variance 0.25, standard error sqrt(0.25/3).
        let s = score(&[[1.0, 0.5], [1.0, 0.0], [0.5, 0.0]]);
        let expected = Z95 * (0.25f64 / 3.0).sqrt() / 2.0;
        assert!((s.half_width95().unwrap() - expected).abs() < 1e-12);
        // Every pair split one to one: no variance at all, whatever the games.
        let even = score(&[[1.0, 0.0], [0.0, 1.0], [0.5, 0.5]]);
        assert_eq!(even.half_width95(), Some(0.0));
    }

    #[test]
    fn without_two_pairs_the_games_variance_is_used() {
        let s = score(&[[1.0, 0.0]]);
        // Games 1 and 0: variance 0.5, standard error 0.5.
        assert!((s.half_width95().unwrap() - Z95 * 0.5).abs() < 1e-12);
        let mut one = Score::default();
        one.add_game(1.0);
        assert_eq!(one.half_width95(), None);
    }

    #[test]
    fn elo_is_zero_at_half_and_unbounded_at_the_ends() {
        assert_eq!(elo(0.5), Some(0.0));
        assert!((elo(0.75).unwrap() - 190.848).abs() < 1e-3);
        assert_eq!(elo(1.0), None);
        assert_eq!(elo(0.0), None);
    }
}
