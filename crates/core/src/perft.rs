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
