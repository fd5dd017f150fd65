//! The solver under the General and Nigerian families (and the Egyptian preset) against a
//! naive minimax over the deliberately simple reference implementation of the rules
//! (`crates/core/tests/common/reference.rs`, written from the rule texts, not from the
//! engine): start positions of small boards and random middle games, every rule option
//! of each family, with and without the endgame databases.

use crate::naive;

use std::collections::HashMap;
use std::sync::atomic::AtomicBool;

use kalah_core::{Family, Game, Position, Preset, Rules};
use kalah_solver::{Config, Database, Solver};
use naive::{naive, reference_of};

/// Small deterministic generator (SplitMix64).
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        (z ^ (z >> 31)) % n
    }
}

/// The start and positions of random playouts from it, with at most `max_seeds` seeds
/// left in the houses, games not over.
fn positions(game: &Game, rng: &mut Rng, count: usize, max_seeds: u32) -> Vec<Position> {
    let mut out = vec![game.start()];
    let mut tries = 0;
    while out.len() < count && tries < 100 * count {
        tries += 1;
        let mut pos = game.start();
        for _ in 0..rng.below(30) {
            if pos.is_over() {
                break;
            }
            let moves: Vec<usize> = pos.moves().collect();
            pos = game.play_unchecked(&pos, moves[rng.below(moves.len() as u64) as usize]);
        }
        if !pos.is_over() && pos.seeds_in_houses() <= max_seeds {
            out.push(pos);
        }
    }
    out
}

fn solver(game: &Game, threads: usize, database: Database, table_min_seeds: usize) -> Solver {
    Solver::new(
        game.clone(),
        Config {
            threads,
            hash_mb: 2,
            deepening: 4,
            database,
            table_min_seeds,
            share_min_seeds: 0,
            ..Config::default()
        },
    )
    .unwrap()
}

/// The rule sets of the families other than Kalah, every option of each, and the
/// Egyptian preset.
fn family_rules(houses: u8, seeds: u8) -> Vec<Rules> {
    let mut v: Vec<Rules> = Rules::every_variant(houses, seeds)
        .into_iter()
        .filter(|r| r.family != Family::Kalah)
        .collect();
    v.push(Preset::Egyptian.rules(houses, seeds));
    v
}

#[test]
fn families_match_naive_minimax_over_the_reference() {
    let mut rng = Rng(0x5eed_0022);
    let mut checked = 0;
    let boards = [
        (2, 1),
        (2, 2),
        (2, 3),
        (2, 4),
        (3, 1),
        (3, 2),
        (3, 3),
        (4, 1),
        (4, 2),
    ];
    for (houses, seeds) in boards {
        for rules in family_rules(houses, seeds) {
            let game = Game::new(rules).unwrap();
            let configs = [
                solver(&game, 1, Database::None, 0),
                solver(&game, 1, Database::Build(5), 0),
                solver(&game, 2, Database::Build(4), 7),
            ];
            let mut memo = HashMap::new();
            for pos in positions(&game, &mut rng, 12, 14) {
                let want = naive(&rules, &reference_of(&rules, &pos), &mut memo);
                for s in &configs {
                    let sol = s.solve(&pos, &AtomicBool::new(false), &mut |_| {}).unwrap();
                    assert_eq!(sol.value, want, "{rules} {pos} config {:?}", s.config());
                    sol.verify(&game, &pos)
                        .unwrap_or_else(|e| panic!("{rules} {pos}: {e}"));
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 2000, "only {checked} solves");
}

/// Boards a little larger than the naive minimax of the test above likes, from the start,
/// standard options of each family only. General games run long (nothing is captured),
/// so its naive minimax visits millions of boards from 4 houses with 3 seeds up: it gets
/// the smallest of these boards.
#[test]
fn family_start_positions_match_naive_minimax() {
    let general = [(3, 4)].map(|(h, s)| Rules::general(h, s));
    let nigerian = [(3, 4), (4, 3), (4, 4), (5, 2), (5, 3)].map(|(h, s)| Rules::nigerian(h, s));
    for rules in general.into_iter().chain(nigerian) {
        let game = Game::new(rules).unwrap();
        let s = solver(&game, 2, Database::Build(8), 0);
        let sol = s
            .solve(&game.start(), &AtomicBool::new(false), &mut |_| {})
            .unwrap();
        let mut memo = HashMap::new();
        let want = naive(&rules, &reference_of(&rules, &game.start()), &mut memo);
        assert_eq!(sol.value, want, "{rules}");
        sol.verify(&game, &game.start()).unwrap();
    }
}
