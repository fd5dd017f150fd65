//! Bao perft (R8.3): the number of sequences of exactly `depth` legal moves.

use super::{BaoMove, BaoPosition};

/// perft(`depth`) of `pos` (R8.3): sequences of exactly `depth` legal moves. perft(0) = 1; a
/// move that ends the game counts, and nothing continues past it.
pub fn perft(pos: &BaoPosition, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.legal_count() as u64,
        _ => {
            let mut n = 0;
            pos.for_each_child(|_, next, _| n += perft(next, depth - 1));
            n
        }
    }
}

/// perft split by first move: each legal move of `pos` with perft(`depth` - 1) after it.
pub fn divide(pos: &BaoPosition, depth: u32) -> Vec<(BaoMove, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    pos.legal()
        .iter()
        .map(|c| (c.mv, perft(&c.next, depth - 1)))
        .collect()
}
