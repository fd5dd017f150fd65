//! The depth the Bao anytime search reaches in a given time (1 s unless an argument gives
//! the seconds) from the standard start and from a few positions of random games, then a
//! short match of the search ([`MATCH_DEPTH`] moves deep) against seed-count play (the move that leaves
//! the mover the most seeds, a winning move at once).
//!
//! `cargo run --release -p kalah-solver --features examples --example bao_depth [seconds]`

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use kalah_core::bao::{BaoMove, BaoPosition, BaoRules};
use kalah_core::Side;
use kalah_solver::bao_search::analyse;
use kalah_solver::Limits;

/// A position after `moves` random moves from the start (xorshift from `seed`), or the
/// last one before the game ended.
fn random_game(moves: usize, mut seed: u64) -> BaoPosition {
    let mut pos = BaoRules::standard().start();
    for _ in 0..moves {
        let legal = pos.legal();
        if legal.is_empty() {
            break;
        }
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let child = legal
            .iter()
            .nth((seed % legal.len() as u64) as usize)
            .unwrap();
        if child.wins {
            break;
        }
        pos = child.next;
    }
    pos
}

/// The search's depth in the match, in moves.
const MATCH_DEPTH: u8 = 6;

/// Seed-count play: a move that wins at once, else the one after which the mover holds the
/// most seeds (the first such in canonical order).
fn seed_count_move(pos: &BaoPosition) -> BaoMove {
    let me = pos.side();
    let legal = pos.legal();
    let score = |c: &kalah_core::bao::BaoChild| {
        let mine: i32 = c.next.loop_counts(me).iter().map(|&x| x as i32).sum();
        if c.wins {
            i32::MAX
        } else {
            mine
        }
    };
    let best = legal.iter().map(score).max().expect("a legal move");
    let mv = legal.iter().find(|c| score(c) == best).unwrap().mv;
    mv
}

/// One game, the search playing `search_side`: 1 if it won, -1 if it lost, 0 if
/// `max_moves` passed first.
fn match_game(search_side: Side, opening: u64, max_moves: usize) -> i32 {
    let mut pos = random_game(2, opening);
    for _ in 0..max_moves {
        if pos.is_over() || pos.legal().is_empty() {
            return if pos.side() == search_side { -1 } else { 1 };
        }
        let mv = if pos.side() == search_side {
            let a = analyse(
                &pos,
                &Limits::depth(MATCH_DEPTH),
                &AtomicBool::new(false),
                &mut |_| {},
            );
            *a.best_turn().expect("a move")
        } else {
            seed_count_move(&pos)
        };
        pos = pos.try_play(mv).expect("legal").0;
    }
    0
}

fn main() {
    let seconds: f64 = std::env::args()
        .nth(1)
        .map_or(1.0, |s| s.parse().expect("seconds"));
    let limits = Limits::time(Duration::from_secs_f64(seconds));
    let mut cases = vec![("start".to_string(), BaoRules::standard().start())];
    for (moves, seed) in [(10, 1), (20, 2), (30, 3), (40, 4)] {
        cases.push((format!("random {moves} moves"), random_game(moves, seed)));
    }
    println!("position | depth | nodes | nodes/s | eval | best | proven");
    for (name, pos) in cases {
        let a = analyse(&pos, &limits, &AtomicBool::new(false), &mut |_| {});
        let best = a.best_turn().map_or("-".to_string(), |m| m.to_string());
        println!(
            "{name} ({pos}) | {} | {} | {:.0} | {} | {best} | {:?}",
            a.depth,
            a.nodes,
            a.nodes_per_second(),
            a.eval,
            a.proven
        );
    }
    let mut tally = [0; 3];
    for game in 0..10u64 {
        let side = [Side::South, Side::North][game as usize % 2];
        tally[(match_game(side, 100 + game / 2, 500) + 1) as usize] += 1;
    }
    println!(
        "search (depth {MATCH_DEPTH}) against seed-count play, 10 games: {} won, {} unfinished after 500 moves, {} lost",
        tally[2], tally[1], tally[0]
    );
}
