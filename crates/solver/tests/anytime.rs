//! The anytime analysis ([`Solver::analyse`]) against a naive minimax over the
//! deliberately simple reference implementation of the rules
//! (`crates/core/tests/common/reference.rs`): on small boards of every family the search
//! engine serves, every rule option, at many depth and node limits, the proven interval of
//! the root and of every root turn holds the exact value; without limits the answer is
//! exact, `solve`'s, with a line that replays; a table left by stopped or depth-limited
//! analyses still gives exact solves.

use crate::naive;

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use kalah_core::{Game, Position, Preset, Rules};
use kalah_solver::line::replay;
use kalah_solver::{Analysis, Config, Database, Limits, Solver, Turn};
use naive::{naive, reference_of, Memo};

/// The exact value of `pos` for its mover, by the naive minimax.
fn exact(rules: &Rules, pos: &Position, memo: &mut Memo) -> i32 {
    naive(rules, &reference_of(rules, pos), memo)
}

/// The exact value of playing `turn` from `pos`, for the mover of `pos`, by the naive
/// minimax (the turn is checked: legal, ending where its extra turns end).
fn turn_value(game: &Game, pos: &Position, turn: &Turn, memo: &mut Memo) -> i32 {
    assert_eq!(turn.side, pos.side_to_move());
    let mut p = *pos;
    for (k, &j) in turn.sowings.iter().enumerate() {
        let (next, _) = game.try_play(&p, j).expect("a legal sowing");
        p = next;
        let last = k + 1 == turn.sowings.len();
        assert_eq!(
            last,
            p.is_over() || p.side_to_move() != pos.side_to_move(),
            "turn {turn:?} ends where its extra turns end"
        );
    }
    let v = exact(game.rules(), &p, memo);
    if p.side_to_move() == pos.side_to_move() {
        v
    } else {
        -v
    }
}

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

/// The start and positions of random playouts from it, games not over.
fn positions(game: &Game, rng: &mut Rng, count: usize) -> Vec<Position> {
    let mut out = vec![game.start()];
    let mut tries = 0;
    while out.len() < count && tries < 100 * count {
        tries += 1;
        let mut pos = game.start();
        for _ in 0..rng.below(12) {
            if pos.is_over() {
                break;
            }
            let moves: Vec<usize> = pos.moves().collect();
            pos = game.play_unchecked(&pos, moves[rng.below(moves.len() as u64) as usize]);
        }
        if !pos.is_over() {
            out.push(pos);
        }
    }
    out
}

fn solver(game: &Game, threads: usize, database: Database) -> Solver {
    Solver::new(
        game.clone(),
        Config {
            threads,
            hash_mb: 2,
            deepening: 4,
            database,
            share_min_seeds: 0,
            ..Config::default()
        },
    )
    .unwrap()
}

/// Every rule set the search engine serves (the families whose positions cannot repeat),
/// every option of each, and the Egyptian preset.
fn acyclic_rules(houses: u8, seeds: u8) -> Vec<Rules> {
    let mut v: Vec<Rules> = Rules::every_variant(houses, seeds)
        .into_iter()
        .filter(|r| !r.family.is_cyclic())
        .collect();
    v.push(Preset::Egyptian.rules(houses, seeds));
    v
}

/// The limits each position is analysed with: depths, node counts, both.
fn limit_set() -> Vec<Limits> {
    let mut v: Vec<Limits> = (1..=6).map(Limits::depth).collect();
    v.extend([1, 30, 200, 1000, 5000].map(Limits::nodes));
    v.push(Limits {
        depth: Some(3),
        nodes: Some(500),
        ..Limits::none()
    });
    v
}

/// Checks everything an analysis of `pos` claims against the exact values: the root's
/// interval, every turn's, the evaluation and line once exact, and that every turn of the
/// position is there, each once.
fn check(game: &Game, pos: &Position, a: &Analysis, want: i32, memo: &mut Memo) {
    let what = format!("{} {pos} depth {} nodes {}", game.rules(), a.depth, a.nodes);
    assert_eq!(a.side, pos.side_to_move(), "{what}");
    assert!(
        a.proven.lower <= want && want <= a.proven.upper,
        "{what}: {want} outside [{}, {}]",
        a.proven.lower,
        a.proven.upper
    );
    assert!(
        a.proven.lower <= a.eval && a.eval <= a.proven.upper,
        "{what}: evaluation outside the interval"
    );
    let best = a.best_turn().expect("a best turn");
    assert_eq!(
        Some(best),
        a.turns.first().map(|t| &t.turn),
        "{what}: the best turn leads"
    );
    let mut seen = std::collections::HashSet::new();
    for t in &a.turns {
        let v = turn_value(game, pos, &t.turn, memo);
        assert!(
            t.proven.lower <= v && v <= t.proven.upper,
            "{what}: turn {:?} {v} outside [{}, {}]",
            t.turn,
            t.proven.lower,
            t.proven.upper
        );
        assert!(
            t.proven.lower <= t.eval && t.eval <= t.proven.upper,
            "{what}: turn evaluation outside"
        );
        assert!(
            t.proven.upper <= a.proven.upper && t.proven.lower <= a.proven.lower,
            "{what}: a turn beyond the root"
        );
        assert!(seen.insert(t.turn.sowings.clone()), "{what}: turn twice");
    }
    for pair in a.turns.windows(2) {
        assert!(pair[0].eval >= pair[1].eval, "{what}: turns best first");
    }
    if a.is_exact() {
        assert_eq!(a.eval, want, "{what}");
        replay(game, pos, &a.pv, a.side.sign() * want)
            .unwrap_or_else(|e| panic!("{what}: the line does not replay: {e}"));
    }
}

#[test]
fn proven_intervals_hold_the_exact_value_at_every_limit() {
    let mut rng = Rng(0x5eed_0032);
    let mut checked = 0;
    for (houses, seeds) in [(2, 2), (3, 1), (3, 2), (3, 3), (4, 1), (4, 2)] {
        for rules in acyclic_rules(houses, seeds) {
            let game = Game::new(rules).unwrap();
            let solvers = [
                solver(&game, 1, Database::None),
                solver(&game, 2, Database::Build(3)),
            ];
            let mut memo = Memo::new();
            for pos in positions(&game, &mut rng, 3) {
                let want = exact(&rules, &pos, &mut memo);
                // Every turn evaluated in full, and the best one or two only.
                for (s, lines) in solvers
                    .iter()
                    .zip([usize::MAX, 1])
                    .chain([(&solvers[0], 2)])
                {
                    for limits in limit_set() {
                        let mut reports = Vec::new();
                        let a = s
                            .analyse_lines(
                                &pos,
                                &limits,
                                lines,
                                &AtomicBool::new(false),
                                &mut |r| reports.push((r.proven.lower, r.proven.upper)),
                            )
                            .unwrap();
                        check(&game, &pos, &a, want, &mut memo);
                        assert!(!reports.is_empty(), "a report before any search");
                        for w in reports.windows(2) {
                            assert!(
                                w[0].0 <= w[1].0 && w[1].1 <= w[0].1,
                                "intervals only narrow"
                            );
                        }
                        for (lo, hi) in reports {
                            assert!(lo <= want && want <= hi, "{rules} {pos}: a report");
                        }
                        if let Some(d) = limits.depth {
                            assert!(a.depth <= d, "the depth limit holds");
                        }
                        checked += 1;
                    }
                }
            }
        }
    }
    assert!(checked > 2000, "only {checked} analyses");
}

#[test]
fn without_limits_the_analysis_is_exact_and_equals_solve() {
    let mut rng = Rng(0x5eed_0033);
    for (houses, seeds) in [(3, 2), (3, 3), (4, 2)] {
        for rules in acyclic_rules(houses, seeds) {
            let game = Game::new(rules).unwrap();
            let mut memo = Memo::new();
            for pos in positions(&game, &mut rng, 3) {
                let want = exact(&rules, &pos, &mut memo);
                for s in [
                    solver(&game, 1, Database::None),
                    solver(&game, 2, Database::Build(4)),
                ] {
                    let a = s
                        .analyse(&pos, &Limits::none(), &AtomicBool::new(false), &mut |_| {})
                        .unwrap();
                    assert!(a.is_exact(), "{rules} {pos}");
                    check(&game, &pos, &a, want, &mut memo);
                    let sol = s.solve(&pos, &AtomicBool::new(false), &mut |_| {}).unwrap();
                    assert_eq!(sol.value, a.eval, "{rules} {pos}");
                }
            }
        }
    }
}

/// The depth-limited and stopped searches of analyses leave the table as a later exact
/// solve can trust it: no depth-limited entry passes as an exact bound, and a search
/// stopped in the middle stores nothing wrong.
#[test]
fn stopped_and_depth_limited_analyses_leave_the_table_exact() {
    let mut rng = Rng(0x5eed_0034);
    for rules in [
        Rules::kalah(4, 2),
        Rules::kalah(3, 3),
        Rules::nigerian(4, 2),
    ] {
        let game = Game::new(rules).unwrap();
        let mut memo = Memo::new();
        for pos in positions(&game, &mut rng, 6) {
            let want = exact(&rules, &pos, &mut memo);
            for threads in [1, 2] {
                let s = solver(&game, threads, Database::None);
                for limits in [Limits::depth(10), Limits::nodes(300), Limits::nodes(3000)] {
                    let a = s
                        .analyse_lines(&pos, &limits, 1, &AtomicBool::new(false), &mut |_| {})
                        .unwrap();
                    check(&game, &pos, &a, want, &mut memo);
                }
                let sol = s.solve(&pos, &AtomicBool::new(false), &mut |_| {}).unwrap();
                assert_eq!(
                    sol.value, want,
                    "{rules} {pos}: a solve over the analyses' table"
                );
                sol.verify(&game, &pos).unwrap();
                let again = s
                    .analyse(
                        &pos,
                        &Limits::nodes(50),
                        &AtomicBool::new(false),
                        &mut |_| {},
                    )
                    .unwrap();
                check(&game, &pos, &again, want, &mut memo);
            }
        }
    }
}

#[test]
fn a_cancelled_analysis_still_gives_a_legal_turn_and_the_reach() {
    let game = Game::new(Rules::kalah(6, 6)).unwrap();
    let pos = game.start();
    let s = solver(&game, 1, Database::None);
    let a = s
        .analyse(&pos, &Limits::none(), &AtomicBool::new(true), &mut |_| {})
        .unwrap();
    assert_eq!((a.depth, a.proven.upper), (0, 72));
    assert!(
        a.proven.lower >= -72 && a.proven.lower <= a.eval && a.eval <= a.proven.upper,
        "{a:?}"
    );
    assert_eq!(
        a.turns.len(),
        10,
        "every turn of the (6,6) start, 3-6 and the like"
    );
    let best = a.best_turn().expect("a turn");
    assert!(game.try_play(&pos, best.sowings[0]).is_ok());
}

#[test]
fn a_time_limit_stops_a_large_analysis_soon_with_an_answer() {
    let game = Game::new(Rules::kalah(6, 6)).unwrap();
    let pos = game.start();
    let s = solver(&game, 2, Database::None);
    // Beside the time, a node cap that 200 ms of two threads cannot reach (seconds of
    // search on any machine): an analysis that ignored its time would stop there, or not
    // at all, instead of soon.
    const NODE_CAP: u64 = 200_000_000;
    let limits = Limits {
        nodes: Some(NODE_CAP),
        ..Limits::time(Duration::from_millis(200))
    };
    let a = s
        .analyse(&pos, &limits, &AtomicBool::new(false), &mut |_| {})
        .unwrap();
    assert!(a.depth >= 4, "depth {}", a.depth);
    assert!(!a.is_exact());
    assert!(
        a.nodes < NODE_CAP,
        "stopped by its nodes, not its time: {a:?}"
    );
    assert!(a.best_turn().is_some());
}

#[test]
fn families_whose_positions_repeat_are_analysed_within_their_exact_values() {
    // The solver dispatches Oware and Ethiopian to their own depth-limited search
    // (crates/solver/tests/cyclic_anytime.rs tests it at length); here: through
    // `Solver::analyse`, each interval holds the retrograde solver's value, and without
    // limits the answer is that value.
    for rules in [Rules::oware(3, 2), Rules::ethiopian(3, 2)] {
        let game = Game::new(rules).unwrap();
        let s = Solver::new(game.clone(), Config::default()).unwrap();
        let pos = game.start();
        let cancel = AtomicBool::new(false);
        let exact = s.solve(&pos, &cancel, &mut |_| {}).unwrap().value;
        for limits in [Limits::depth(1), Limits::depth(3), Limits::nodes(200)] {
            let a = s.analyse(&pos, &limits, &cancel, &mut |_| {}).unwrap();
            assert!(
                a.proven.lower <= exact && exact <= a.proven.upper,
                "{a:?} {exact}"
            );
            assert!(a.best_turn().is_some());
        }
        let a = s
            .analyse(&pos, &Limits::none(), &cancel, &mut |_| {})
            .unwrap();
        assert_eq!((a.proven.lower, a.proven.upper), (exact, exact));
    }
}

#[test]
fn a_game_over_is_exact_at_once() {
    let game = Game::new(Rules::kalah(3, 1)).unwrap();
    let mut pos = game.start();
    while !pos.is_over() {
        pos = game.play_unchecked(&pos, pos.moves().next().unwrap());
    }
    let s = solver(&game, 1, Database::None);
    let a = s
        .analyse(
            &pos,
            &Limits::depth(3),
            &AtomicBool::new(false),
            &mut |_| {},
        )
        .unwrap();
    assert!(a.is_exact() && a.turns.is_empty() && a.pv.is_empty());
    assert_eq!(a.eval, pos.store_margin());
}
