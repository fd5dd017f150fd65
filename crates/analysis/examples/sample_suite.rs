//! Samples positions for the analysis suite (`data/suite.txt`) from games played by a
//! simple program: each turn is the one whose worst reply leaves the mover's store margin
//! largest (two turns of lookahead), or, one time in eight, a random turn (ties broken at
//! random). From each game it keeps the first position, at the start of a turn, with at
//! most each of the given numbers of seeds in the houses.
//!
//! `cargo run --release -p kalah-analysis --features examples --example sample_suite -- PRESET HOUSES SEEDS
//! GAMES SEED MAX_SEEDS...` prints one bench line a position: `PRESET HOUSES SEEDS BOARD`
//! (the values are added by solving them: `kalah bench --suite` checks them).

use kalah_analysis::{first_steps, Offer};
use kalah_core::{mix, Game, Preset};

fn main() {
    let a: Vec<String> = std::env::args().skip(1).collect();
    if a.len() < 6 {
        eprintln!("usage: sample_suite PRESET HOUSES SEEDS GAMES SEED MAX_SEEDS...");
        std::process::exit(2);
    }
    let preset: Preset = a[0].parse().expect("a preset");
    let houses: u8 = a[1].parse().expect("houses");
    let seeds: u8 = a[2].parse().expect("seeds");
    let games: u64 = a[3].parse().expect("games");
    let mut rng: u64 = a[4].parse().expect("a seed");
    let stops: Vec<u32> = a[5..].iter().map(|s| s.parse().expect("seeds")).collect();
    let game = Game::new(preset.rules(houses, seeds)).expect("valid rules");
    let mut next = move || {
        rng = mix(rng.wrapping_add(0x9e37_79b9_7f4a_7c15));
        rng
    };
    for _ in 0..games {
        let mut pos = game.start();
        let mut kept = vec![false; stops.len()];
        while !pos.is_over() {
            for (k, &stop) in stops.iter().enumerate() {
                if !kept[k] && pos.seeds_in_houses() <= stop {
                    kept[k] = true;
                    println!("{} {houses} {seeds} {pos}", a[0]);
                }
            }
            let steps = first_steps(&game, &pos, Offer::AfterTurn);
            let me = pos.side_to_move().sign();
            let pick = if next() % 8 == 0 {
                (next() % steps.len() as u64) as usize
            } else {
                // The margin for the mover after the opponent's best reply.
                let worth: Vec<i32> = steps
                    .iter()
                    .map(|s| {
                        first_steps(&game, &s.after, Offer::AfterTurn)
                            .iter()
                            .map(|r| me * r.after.score())
                            .min()
                            .unwrap_or(me * s.after.score())
                    })
                    .collect();
                let best = *worth.iter().max().unwrap();
                let ties: Vec<usize> = (0..steps.len()).filter(|&i| worth[i] == best).collect();
                ties[(next() % ties.len() as u64) as usize]
            };
            pos = steps[pick].after;
        }
    }
}
