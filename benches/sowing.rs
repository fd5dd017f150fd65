//! Sowing speed: the fast engine (`Game::sow`) against a simple array implementation of
//! the same rules on the same random positions, and perft throughput of Kalah(6,4) from
//! the start. The perft count must equal the one in `data/perft/h6.txt`, so a wrong
//! answer cannot pass as fast. Run with `cargo bench --bench sowing`.

use std::hint::black_box;
use std::time::Instant;

use kalah_core::{Game, Position, Rules};

/// The perft depth timed (Kalah(6,4), standard rules, from the start).
const PERFT_DEPTH: u32 = 11;
/// Random (position, house) pairs sown by both implementations.
const SAMPLES: usize = 200_000;
/// Passes over the samples per timing.
const ROUNDS: usize = 20;

/// The simple array reference of the core's tests (absolute places, one loop step per
/// seed), the same file, so the bench times exactly what the tests trust.
#[path = "../crates/core/tests/common/reference.rs"]
#[allow(dead_code)]
mod reference;

use reference::RefBoard;

/// SplitMix64, to pick the random positions.
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

/// `SAMPLES` (position, legal house) pairs from random games.
fn samples(game: &Game) -> Vec<(Position, usize)> {
    let mut rng = Rng(7);
    let mut v = Vec::with_capacity(SAMPLES);
    while v.len() < SAMPLES {
        let mut pos = game.start();
        while !pos.is_over() && v.len() < SAMPLES {
            let moves: Vec<usize> = pos.moves().collect();
            let j = moves[rng.below(moves.len())];
            v.push((pos, j));
            pos = game.play_unchecked(&pos, j);
        }
    }
    v
}

/// The perft count recorded in data/perft for standard Kalah(6,4) from the start.
fn recorded_perft(depth: u32) -> u64 {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/data/perft/h6.txt");
    let text = std::fs::read_to_string(path).expect("data/perft/h6.txt is readable");
    let prefix = format!("6 4 standard row-empty owner off 4,4,4,4,4,4,0,4,4,4,4,4,4,0:S {depth} ");
    text.lines()
        .find_map(|l| l.strip_prefix(prefix.as_str()))
        .and_then(|count| count.trim().parse().ok())
        .unwrap_or_else(|| panic!("no perft({depth}) of Kalah(6,4) in {path}"))
}

fn main() {
    let rules = Rules::kalah(6, 4);
    let game = Game::new(rules).expect("Kalah(6,4) is valid");
    let fast_inputs = samples(&game);
    let simple_inputs: Vec<(RefBoard, usize)> = fast_inputs
        .iter()
        .map(|(p, j)| {
            (
                RefBoard::from_counts(&p.absolute_counts(), p.side_to_move()),
                *j,
            )
        })
        .collect();

    // Both must agree before either is timed.
    for ((pos, j), (simple, _)) in fast_inputs.iter().zip(&simple_inputs) {
        let next = game.play_unchecked(pos, *j);
        let (want, _) = simple.sow(&rules, *j);
        assert_eq!(
            next.absolute_counts(),
            &want.places[..14],
            "{pos} house {j}"
        );
        assert_eq!(next.side_to_move(), want.to_move, "{pos} house {j}");
        assert_eq!(next.is_over(), want.over, "{pos} house {j}");
    }

    let sowings = (SAMPLES * ROUNDS) as f64;
    let t = Instant::now();
    let mut check = 0u64;
    for _ in 0..ROUNDS {
        for (pos, j) in black_box(&fast_inputs) {
            let next = game.play_unchecked(pos, *j);
            check = check.wrapping_add(next.stores()[0] as u64 + next.packed_board() as u64);
        }
    }
    let fast_s = t.elapsed().as_secs_f64();
    black_box(check);

    let t = Instant::now();
    let mut check = 0u64;
    for _ in 0..ROUNDS {
        for (simple, j) in black_box(&simple_inputs) {
            let (next, _) = simple.sow(&rules, *j);
            check = check.wrapping_add(next.places[6] as u64 + next.places[0] as u64);
        }
    }
    let simple_s = t.elapsed().as_secs_f64();
    black_box(check);

    let fast_rate = sowings / fast_s;
    let simple_rate = sowings / simple_s;
    println!("sowing, Kalah(6,4), {SAMPLES} random positions x {ROUNDS} rounds:");
    println!(
        "  fast engine (Game::play_unchecked): {:8.1} M sowings/s",
        fast_rate / 1e6
    );
    println!(
        "  simple array reference:             {:8.1} M sowings/s",
        simple_rate / 1e6
    );
    println!(
        "  ratio fast / simple:                {:8.2}x",
        fast_rate / simple_rate
    );

    let start = game.start();
    let t = Instant::now();
    let count = kalah_core::perft(&game, black_box(&start), PERFT_DEPTH);
    let perft_s = t.elapsed().as_secs_f64();
    let want = recorded_perft(PERFT_DEPTH);
    assert_eq!(
        count, want,
        "perft({PERFT_DEPTH}) differs from data/perft/h6.txt"
    );
    println!(
        "perft({PERFT_DEPTH}) of Kalah(6,4) = {count} (matches data/perft) in {perft_s:.3} s: {:.1} M leaves/s",
        count as f64 / perft_s / 1e6
    );
}
