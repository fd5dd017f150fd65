//! The solver against published values and against a deliberately naive minimax.

use std::sync::atomic::AtomicBool;

use kalah_core::{Capture, Game, Position, Rules};
use kalah_solver::{Config, Database, Solver};

/// Plain exhaustive minimax: no table, no pruning, no ordering; positions already valued
/// are remembered (the game graph has no cycles, so that changes nothing but the time).
/// The value for the mover.
fn naive(game: &Game, pos: &Position) -> i32 {
    naive_in(game, pos, &mut std::collections::HashMap::new())
}

fn naive_in(
    game: &Game,
    pos: &Position,
    memo: &mut std::collections::HashMap<Position, i32>,
) -> i32 {
    if pos.is_over() {
        return pos.store_margin();
    }
    if let Some(&v) = memo.get(pos) {
        return v;
    }
    let best = pos
        .moves()
        .map(|j| {
            let child = game.play_unchecked(pos, j);
            let v = naive_in(game, &child, memo);
            if child.side_to_move() == pos.side_to_move() {
                v
            } else {
                -v
            }
        })
        .max()
        .expect("a position that is not over has a move");
    memo.insert(*pos, best);
    best
}

/// Small deterministic generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// Positions reached by random playouts from the start, with at most `max_seeds` seeds
/// left in the houses (so that the naive minimax stays quick).
fn positions(game: &Game, rng: &mut Rng, count: usize, max_seeds: u32) -> Vec<Position> {
    let mut out = Vec::new();
    while out.len() < count {
        let mut pos = game.start();
        let stop = rng.below(40);
        for _ in 0..stop {
            if pos.is_over() {
                break;
            }
            let moves: Vec<usize> = pos.moves().collect();
            pos = game.play_unchecked(&pos, moves[rng.below(moves.len() as u64) as usize]);
        }
        if pos.seeds_in_houses() <= max_seeds {
            out.push(pos);
        }
    }
    out
}

fn solver(
    game: &Game,
    threads: usize,
    egdb_seeds: Option<usize>,
    etc_min_seeds: usize,
    table_min_seeds: usize,
) -> Solver {
    Solver::new(
        game.clone(),
        Config {
            threads,
            hash_mb: 2,
            deepening: 4,
            database: egdb_seeds.map_or(Database::None, Database::Build),
            etc_min_seeds,
            table_min_seeds,
            // Share siblings everywhere, so that the two-thread runs exercise it.
            share_min_seeds: 0,
            ..Config::default()
        },
    )
    .unwrap()
}

/// Replays a principal variation and returns the final score from South.
fn replay(game: &Game, pos: &Position, pv: &[kalah_solver::Turn]) -> i32 {
    let mut p = *pos;
    for turn in pv {
        for &j in &turn.sowings {
            assert_eq!(p.side_to_move(), turn.side, "the turn's player is to move");
            p = game
                .try_play(&p, j)
                .expect("the principal variation is legal")
                .0;
        }
    }
    assert!(
        p.is_over(),
        "the principal variation reaches the end of the game"
    );
    p.score()
}

#[test]
fn values_match_naive_minimax_under_every_rule() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for (houses, seeds) in [(2, 2), (3, 2), (3, 3), (4, 2)] {
        for rules in Rules::every_variant(houses, seeds) {
            let game = Game::new(rules).unwrap();
            // Database sizes that cover part of the tree (under the early stop, the
            // database that reads the stores).
            let egdb = Some(4);
            let configs = [
                solver(&game, 1, None, 1000, 0),
                solver(&game, 1, egdb, 2, 0),
                solver(&game, 2, egdb, 4, 0),
                // No table below 7 seeds, as the defaults do just above the database.
                solver(&game, 2, egdb, Config::NO_ETC, 7),
            ];
            for pos in positions(&game, &mut rng, 30, 12) {
                let want = naive(&game, &pos);
                for s in &configs {
                    let sol = s.solve(&pos, &AtomicBool::new(false), &mut |_| {}).unwrap();
                    assert_eq!(sol.value, want, "{rules} {pos} config {:?}", s.config());
                    assert_eq!(
                        replay(&game, &pos, &sol.pv),
                        sol.value_from_south(),
                        "{rules} {pos}"
                    );
                }
            }
        }
    }
}

/// The early-stop database against the naive minimax, on boards with even and odd totals
/// of seeds and stores anywhere short of a majority.
#[test]
fn early_stop_database_matches_naive_minimax() {
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    for houses in [2u8, 3, 4] {
        for rules in Rules::every_variant(houses, 3) {
            if !rules.early_stop {
                continue;
            }
            let game = Game::new(rules).unwrap();
            let max = if houses == 4 { 7 } else { 9 };
            for parity in [0u32, 1] {
                let db = kalah_solver::stopdb::StopDb::build(&game, max, 20 + parity).unwrap();
                assert!(db.serves_total(30 + parity) && !db.serves_total(31 - parity));
                if parity == 0 {
                    let entries = kalah_solver::stopdb::StopDb::entries(houses as usize, max);
                    assert_eq!(db.len() as u128, entries);
                }
                let mut checked = 0;
                while checked < 300 {
                    // A random board of at most `max` seeds, then stores short of a majority.
                    let lanes = 2 * houses as usize;
                    let seeds = 1 + rng.below(max as u64) as usize;
                    let mut board = 0u128;
                    for _ in 0..seeds {
                        board += 1 << (8 * rng.below(lanes as u64));
                    }
                    let total = seeds as u32 + rng.below(24) as u32;
                    if total % 2 != parity {
                        continue;
                    }
                    let stores = (total - seeds as u32) as u64;
                    let mine = rng.below(stores + 1) as u8;
                    let theirs = stores as u8 - mine;
                    if 2 * mine.max(theirs) as u32 > total {
                        continue;
                    }
                    let side = if rng.below(2) == 0 {
                        kalah_core::Side::South
                    } else {
                        kalah_core::Side::North
                    };
                    let pos = Position::from_packed(houses as usize, board, [mine, theirs], side);
                    // Only live positions: the end-of-game rule may already apply.
                    let Ok(pos) = game.settle(pos) else { continue };
                    if pos.is_over() {
                        continue;
                    }
                    assert_eq!(
                        pos.store_margin() + db.relative_value(&pos),
                        naive(&game, &pos),
                        "{rules} {pos} total {total}"
                    );
                    checked += 1;
                }
            }
        }
    }
}

/// Under the early stop, a position with the other parity of the total of seeds than the
/// start position (entered by hand) is solved with a database built for its parity.
#[test]
fn early_stop_solver_serves_both_parities() {
    let rules = Rules {
        early_stop: true,
        ..Rules::kalah(3, 3)
    };
    let game = Game::new(rules).unwrap();
    let s = solver(&game, 2, Some(5), Config::NO_ETC, 0);
    let mut rng = Rng(0x1234_5678_9abc_def1);
    let mut checked = [0, 0];
    while checked.iter().any(|&c| c < 40) {
        let seeds = 1 + rng.below(10) as usize;
        let mut board = 0u128;
        for _ in 0..seeds {
            board += 1 << (8 * rng.below(6));
        }
        let total = seeds as u32 + rng.below(9) as u32;
        let stores = total - seeds as u32;
        let mine = rng.below(stores as u64 + 1) as u8;
        let theirs = stores as u8 - mine;
        let pos = Position::from_packed(3, board, [mine, theirs], kalah_core::Side::South);
        let Ok(pos) = game.settle(pos) else { continue };
        if pos.is_over() {
            continue;
        }
        let sol = s.solve(&pos, &AtomicBool::new(false), &mut |_| {}).unwrap();
        assert_eq!(sol.value, naive(&game, &pos), "{pos}");
        assert_eq!(
            replay(&game, &pos, &sol.pv),
            sol.value_from_south(),
            "{pos}"
        );
        if seeds <= 5 {
            assert!(sol.egdb_hits > 0, "{pos}: the database answers it");
        }
        assert_eq!(s.database_seeds_for(&pos), Some(5));
        checked[(total % 2) as usize] += 1;
    }
}

fn start_value(houses: u8, seeds: u8, capture: Capture) -> (i32, Vec<kalah_solver::Turn>, Game) {
    let game = Game::new(Rules {
        capture,
        ..Rules::kalah(houses, seeds)
    })
    .unwrap();
    let s = Solver::new(
        game.clone(),
        Config {
            hash_mb: 64,
            ..Config::default()
        },
    )
    .unwrap();
    let sol = s
        .solve(&game.start(), &AtomicBool::new(false), &mut |_| {})
        .unwrap();
    assert_eq!(
        replay(&game, &game.start(), &sol.pv),
        sol.value_from_south()
    );
    (sol.value_from_south(), sol.pv, game)
}

/// Irving, Donkers and Uiterwijk, "Solving Kalah" (2000), empty-capture rule.
#[test]
fn published_values_empty_capture() {
    let table: [(u8, &[i32]); 3] = [
        (4, &[2, 6, 8, 2, 2, 0]),
        (5, &[0, 0, 8, 12]),
        (6, &[2, 10, 2]),
    ];
    for (houses, values) in table {
        for (i, &want) in values.iter().enumerate() {
            let seeds = i as u8 + 1;
            let (got, _, _) = start_value(houses, seeds, Capture::Empty);
            assert_eq!(got, want, "Kalah({houses},{seeds}) empty capture");
        }
    }
}

/// The standard rule on the boards fast enough for a test, against the naive minimax.
#[test]
fn standard_capture_small_boards_match_naive() {
    for (houses, seeds) in [(3, 2), (2, 3), (4, 1), (2, 2)] {
        let (got, _, game) = start_value(houses, seeds, Capture::Standard);
        assert_eq!(got, naive(&game, &game.start()), "Kalah({houses},{seeds})");
    }
}
