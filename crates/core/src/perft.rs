//! Perft: counting the sequences of sowings, the standard check of a move generator.

use crate::game::Game;
use crate::position::Position;

/// The number of distinct sequences of exactly `depth` sowings playable from `pos`.
///
/// An extra turn is a further sowing by the same player; a sequence that ends the game
/// before `depth` sowings is not counted. `perft(0) = 1`.
pub fn perft(game: &Game, pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if pos.is_over() {
        return 0;
    }
    let mut n = 0;
    for j in game.legal_moves(pos) {
        let child = game.play_unchecked(pos, j);
        n += if depth == 1 {
            1
        } else {
            perft(game, &child, depth - 1)
        };
    }
    n
}

/// Perft split by first sowing: `(house, count)` for each legal sowing of the mover.
pub fn divide(game: &Game, pos: &Position, depth: u32) -> Vec<(usize, u64)> {
    if depth == 0 || pos.is_over() {
        return Vec::new();
    }
    game.legal_moves(pos)
        .map(|j| (j, perft(game, &game.play_unchecked(pos, j), depth - 1)))
        .collect()
}

/// Perft at every depth up to a limit, counted in one traversal: see [`perft_depths`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PerftDepths {
    /// perft(1) to perft(limit): `counts[d - 1]` = [`perft`]`(d)`.
    pub counts: Vec<u64>,
    /// Each legal first sowing (a move: the house, [`crate::CLOCKWISE`] added for a
    /// clockwise one) with its count at the limit, as [`divide`] at the limit gives them.
    pub divide: Vec<(usize, u64)>,
}

impl PerftDepths {
    /// The sowings counted at every depth together (each sequence of `d` sowings is a node
    /// at depth `d`).
    pub fn nodes(&self) -> u64 {
        self.counts.iter().sum()
    }
}

/// Perft(1) to perft(`depth`) from `pos` in one traversal, split by first sowing at
/// `depth`; `done` is called once after each first sowing is counted, with its move (for a
/// progress display). A walk to depth `d` counts every shallower depth on the way, so this
/// costs about as much as [`perft`] at `depth` alone.
pub fn perft_depths(
    game: &Game,
    pos: &Position,
    depth: usize,
    mut done: impl FnMut(usize),
) -> PerftDepths {
    let mut counts = vec![0u64; depth];
    let mut divide = Vec::new();
    if depth == 0 || pos.is_over() {
        return PerftDepths { counts, divide };
    }
    for j in game.legal_moves(pos) {
        let mut below = vec![0u64; depth];
        below[0] = 1;
        count(game, &game.play_unchecked(pos, j), 1, &mut below);
        for (total, n) in counts.iter_mut().zip(&below) {
            *total += n;
        }
        divide.push((j, below[depth - 1]));
        done(j);
    }
    PerftDepths { counts, divide }
}

/// Adds to `counts[d]` the sowings at depth `d + 1` reachable below `pos`, which sits at
/// depth `level` (one traversal counts every depth at once).
fn count(game: &Game, pos: &Position, level: usize, counts: &mut [u64]) {
    if level >= counts.len() || pos.is_over() {
        return;
    }
    let moves = game.legal_moves(pos);
    counts[level] += moves.len() as u64;
    if level + 1 < counts.len() {
        for j in moves {
            count(game, &game.play_unchecked(pos, j), level + 1, counts);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Preset, Rules};

    /// Rule sets of every move generator (laps, relay, cycle), on small boards.
    fn games() -> Vec<Game> {
        [
            Rules::kalah(6, 4),
            Preset::Online.rules(4, 3),
            Rules::general(4, 3),
            Rules::nigerian(4, 3),
            Rules::ethiopian(4, 3),
            Rules::oware(4, 3),
        ]
        .into_iter()
        .map(|rules| Game::new(rules).unwrap())
        .collect()
    }

    #[test]
    fn every_depth_at_once_matches_perft_at_each_depth() {
        for game in games() {
            let start = game.start();
            let depths = perft_depths(&game, &start, 7, |_| {});
            let one_by_one: Vec<u64> = (1..=7).map(|d| perft(&game, &start, d)).collect();
            assert_eq!(depths.counts, one_by_one, "{}", game.rules());
            assert_eq!(depths.divide, divide(&game, &start, 7), "{}", game.rules());
            assert_eq!(depths.nodes(), one_by_one.iter().sum::<u64>());
        }
    }

    #[test]
    fn every_depth_reports_each_first_sowing_once() {
        let game = Game::new(Rules::ethiopian(4, 3)).unwrap();
        let start = game.start();
        let mut seen = Vec::new();
        let depths = perft_depths(&game, &start, 3, |j| seen.push(j));
        let moves: Vec<usize> = game.legal_moves(&start).collect();
        assert_eq!(seen, moves);
        assert_eq!(
            depths.divide.iter().map(|&(j, _)| j).collect::<Vec<_>>(),
            moves
        );
    }

    #[test]
    fn every_depth_of_a_finished_game_is_zero() {
        let game = Game::new(Rules::kalah(6, 4)).unwrap();
        let over: Position = "0,0,0,0,0,0,30,0,0,0,0,0,0,18:S".parse().unwrap();
        let depths = perft_depths(&game, &over, 3, |_| unreachable!());
        assert_eq!(depths.counts, vec![0, 0, 0]);
        assert!(depths.divide.is_empty());
        assert_eq!(
            perft_depths(&game, &game.start(), 0, |_| {}),
            PerftDepths::default()
        );
    }
}
