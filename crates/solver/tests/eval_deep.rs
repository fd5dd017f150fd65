//! The coefficients of `kalah-6`, fitted to the values of deeper searches of positions with
//! many seeds in the houses: against a simple reference (plain depth-limited negamax with
//! the store difference at its leaves, written here), they guess a deeper search's value
//! of positions of Kalah(6,6) games better than the store difference does.

use kalah_core::{Game, Position, Rules};
use kalah_solver::eval::fit::mean_absolute_error;
use kalah_solver::Evaluation;

/// A small deterministic generator (SplitMix64).
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        ((z ^ (z >> 31)) % n as u64) as usize
    }
}

/// The reference: plain negamax over `depth` sowings (an extra turn keeps the sign), the
/// store margin at the leaves; the value for the mover of `pos`.
fn reference(game: &Game, pos: &Position, depth: u32, mut alpha: i32, beta: i32) -> i32 {
    let moves: Vec<usize> = game.legal_moves(pos).collect();
    if pos.is_over() || depth == 0 || moves.is_empty() {
        return pos.store_margin();
    }
    let mut best = i32::MIN + 1;
    for m in moves {
        let child = game.play_unchecked(pos, m);
        let v = if child.side_to_move() == pos.side_to_move() {
            reference(game, &child, depth - 1, alpha, beta)
        } else {
            -reference(game, &child, depth - 1, -beta, -alpha)
        };
        best = best.max(v);
        alpha = alpha.max(v);
        if alpha >= beta {
            break;
        }
    }
    best
}

/// Positions along games of random players from the start of `game` with more than 30
/// seeds in the houses, every third one.
fn positions(game: &Game, games: usize, rng: &mut Rng) -> Vec<Position> {
    let mut out = Vec::new();
    for _ in 0..games {
        let mut pos = game.start();
        while !pos.is_over() && pos.seeds_in_houses() > 30 {
            if rng.below(3) == 0 {
                out.push(pos);
            }
            let moves: Vec<usize> = game.legal_moves(&pos).collect();
            pos = game.play_unchecked(&pos, moves[rng.below(moves.len())]);
        }
    }
    out
}

#[test]
fn the_kalah_6_coefficients_guess_a_deeper_search_better_than_the_store_difference() {
    let rules = Rules::kalah(6, 6);
    let game = Game::new(rules).expect("valid rules");
    let all = positions(&game, 40, &mut Rng(5));
    assert!(all.len() >= 100, "{} positions", all.len());
    let deep: Vec<i32> = all
        .iter()
        .map(|p| reference(&game, p, 6, -1000, 1000))
        .collect();
    let guess = |eval: Evaluation| -> Vec<i32> {
        all.iter()
            .map(|p| eval.score(p, p.store_margin()))
            .collect()
    };
    let fitted = mean_absolute_error(&guess(Evaluation::fitted(&rules)), &deep);
    let store = mean_absolute_error(&guess(Evaluation::StoreDifference), &deep);
    assert!(
        fitted < store,
        "fitted {fitted:.3} vs store difference {store:.3}"
    );
}
