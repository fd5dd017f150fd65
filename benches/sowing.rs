//! Sowing speed: the fast engine (`Game::sow`) against a simple array implementation of
//! the same rules on the same random positions, and perft throughput of Kalah(6,4) from
//! the start. The perft count must equal the one in `data/perft/h6.txt`, so a wrong
//! answer cannot pass as fast. Run with `cargo bench --bench sowing`.

use std::hint::black_box;
use std::time::Instant;

use kalah_core::{Capture, End, Game, Leftovers, Position, Rules, Side};

/// The perft depth timed (Kalah(6,4), standard rules, from the start).
const PERFT_DEPTH: u32 = 11;
/// Random (position, house) pairs sown by both implementations.
const SAMPLES: usize = 200_000;
/// Passes over the samples per timing.
const ROUNDS: usize = 20;

/// The simple array board of the reference tests (crates/core/tests/common/reference.rs),
/// copied: absolute places `0..H` South's houses, `H` South's store, `H+1..=2H` North's
/// houses, `2H+1` North's store; one loop step per seed.
#[derive(Clone, Copy)]
struct Simple {
    h: usize,
    places: [u8; 18],
    to_move: Side,
    over: bool,
    total: u32,
}

impl Simple {
    fn from_position(pos: &Position) -> Simple {
        let counts = pos.absolute_counts();
        let mut places = [0u8; 18];
        places[..counts.len()].copy_from_slice(&counts);
        Simple {
            h: pos.houses_per_side(),
            places,
            to_move: pos.side_to_move(),
            over: pos.is_over(),
            total: pos.total_seeds(),
        }
    }

    fn store_index(&self, side: Side) -> usize {
        match side {
            Side::South => self.h,
            Side::North => 2 * self.h + 1,
        }
    }

    fn house_index(&self, side: Side, j: usize) -> usize {
        match side {
            Side::South => j,
            Side::North => self.h + 1 + j,
        }
    }

    fn row_seeds(&self, side: Side) -> u32 {
        (0..self.h)
            .map(|j| self.places[self.house_index(side, j)] as u32)
            .sum()
    }

    fn clear_houses(&mut self, leftovers: Leftovers) {
        for side in [Side::South, Side::North] {
            let left = self.row_seeds(side);
            for j in 0..self.h {
                let i = self.house_index(side, j);
                self.places[i] = 0;
            }
            if leftovers == Leftovers::Owner {
                let s = self.store_index(side);
                self.places[s] += left as u8;
            }
        }
        self.over = true;
    }

    fn sow(&self, rules: &Rules, j: usize) -> Simple {
        let mover = self.to_move;
        let mut b = *self;
        let n = 2 * b.h + 2;
        let mut at = b.house_index(mover, j);
        let mut hand = b.places[at];
        b.places[at] = 0;
        let their_store = b.store_index(mover.other());
        let mut empty_before_last = false;
        while hand > 0 {
            at = (at + 1) % n;
            if at == their_store {
                continue;
            }
            empty_before_last = b.places[at] == 0;
            b.places[at] += 1;
            hand -= 1;
        }
        let my_store = b.store_index(mover);
        let extra = at == my_store;
        let own_house = match mover {
            Side::South => at < b.h,
            Side::North => at > b.h && at < 2 * b.h + 1,
        };
        if !extra && own_house && empty_before_last {
            let opposite = 2 * b.h - at;
            if b.places[opposite] > 0 || rules.capture == Capture::Empty {
                b.places[my_store] += b.places[at] + b.places[opposite];
                b.places[at] = 0;
                b.places[opposite] = 0;
            }
        }
        b.to_move = if extra { mover } else { mover.other() };
        let ended = match rules.end {
            End::RowEmpty => b.row_seeds(Side::South) == 0 || b.row_seeds(Side::North) == 0,
            End::MoverStuck => b.row_seeds(b.to_move) == 0,
        };
        if ended {
            b.clear_houses(rules.leftovers);
        } else if rules.early_stop
            && 2 * (b.places[b.h].max(b.places[2 * b.h + 1]) as u32) > b.total
        {
            b.clear_houses(Leftovers::Discard);
        }
        b
    }
}

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
    let simple_inputs: Vec<(Simple, usize)> = fast_inputs
        .iter()
        .map(|(p, j)| (Simple::from_position(p), *j))
        .collect();

    // Both must agree before either is timed.
    for ((pos, j), (simple, _)) in fast_inputs.iter().zip(&simple_inputs) {
        let next = game.play_unchecked(pos, *j);
        let want = simple.sow(&rules, *j);
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
            let next = simple.sow(&rules, *j);
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
