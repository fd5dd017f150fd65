//! The win/loss/draw retrograde solver of Bao (kalah_solver::bao) against deliberately
//! simple references written from the definition of the values (BAO.md R9.1): repeating
//! the two rules until nothing changes, and a depth-limited game search for the distances.

use std::collections::HashMap;
use std::hash::Hash;
use std::sync::atomic::AtomicBool;

use kalah_core::bao::{BaoPosition, BaoRules};
use kalah_core::Side;
use kalah_solver::bao::{solve, solve_position, Step, Value, WldGame};

/// The values by the definition: the won and lost sets grown by the two rules until
/// nothing changes; every other position a draw. Distances are not computed (0).
fn fixpoint<G: WldGame>(game: &G, states: &[G::State]) -> HashMap<G::State, i32> {
    let mut sign: HashMap<G::State, i32> = states.iter().map(|&s| (s, 0)).collect();
    let mut steps = Vec::new();
    loop {
        let mut changed = false;
        for s in states {
            if sign[s] != 0 {
                continue;
            }
            steps.clear();
            game.moves(s, &mut steps);
            let child = |step: &Step<G::State>| match step {
                Step::Wins => -1,
                Step::To(c) => sign[c],
            };
            let won = steps.iter().any(|st| child(st) == -1);
            let lost = steps.iter().all(|st| child(st) == 1);
            if won || lost {
                sign.insert(*s, if won { 1 } else { -1 });
                changed = true;
            }
        }
        if !changed {
            return sign;
        }
    }
}

/// A plain depth-first game search: whether the player to move can force a win within
/// `k` plies (`want = 1`), or whether the opponent can force one within `k` plies
/// against any defence (`want = -1`). The depth bound is what ends the search where play
/// cycles; answers are memoised by (position, k, want) to keep the search small.
fn within<G: WldGame>(
    game: &G,
    s: &G::State,
    k: u32,
    want: i32,
    memo: &mut HashMap<(G::State, u32, i32), bool>,
) -> bool {
    if let Some(&b) = memo.get(&(*s, k, want)) {
        return b;
    }
    let mut steps = Vec::new();
    game.moves(s, &mut steps);
    let b = match want {
        1 => {
            k >= 1
                && steps.iter().any(|st| match st {
                    Step::Wins => true,
                    Step::To(c) => within(game, c, k - 1, -1, memo),
                })
        }
        _ => {
            steps.is_empty()
                || (k >= 1
                    && steps.iter().all(|st| match st {
                        Step::Wins => false,
                        Step::To(c) => within(game, c, k - 1, 1, memo),
                    }))
        }
    };
    memo.insert((*s, k, want), b);
    b
}

/// Every position reachable from `root` (a plain depth-first walk).
fn reachable<G: WldGame>(game: &G, root: G::State) -> Vec<G::State> {
    let mut seen = std::collections::HashSet::from([root]);
    let (mut stack, mut all, mut steps) = (vec![root], vec![root], Vec::new());
    while let Some(s) = stack.pop() {
        steps.clear();
        game.moves(&s, &mut steps);
        for st in &steps {
            if let Step::To(c) = st {
                if seen.insert(*c) {
                    stack.push(*c);
                    all.push(*c);
                }
            }
        }
    }
    all
}

/// Checks the solver's value of every position reachable from `root` against both
/// references; the search checks the distances exactly and, for a draw, that no win is
/// forced within `horizon` plies.
fn check<G: WldGame>(game: &G, root: G::State, horizon: u32) -> (u64, u64, u64)
where
    G::State: Hash + std::fmt::Debug,
{
    let solved = solve(game, &root, u64::MAX, &AtomicBool::new(false), &mut |_| {}).unwrap();
    let states = reachable(game, root);
    assert_eq!(solved.stats().positions, states.len() as u64);
    let signs = fixpoint(game, &states);
    let mut memo = HashMap::new();
    for s in &states {
        let value = solved.value(s).unwrap();
        assert_eq!(value.sign(), signs[s], "{s:?}");
        match value {
            Value::Win(d) => {
                assert!(within(game, s, d, 1, &mut memo), "{s:?}");
                assert!(!within(game, s, d - 1, 1, &mut memo), "{s:?}");
            }
            Value::Loss(d) => {
                assert!(within(game, s, d, -1, &mut memo), "{s:?}");
                assert!(d == 0 || !within(game, s, d - 1, -1, &mut memo), "{s:?}");
            }
            Value::Draw => {
                assert!(!within(game, s, horizon, 1, &mut memo), "{s:?}");
                assert!(!within(game, s, horizon, -1, &mut memo), "{s:?}");
            }
        }
        // The best move's value is the position's value, and the line replays to it.
        if let Some((_, v)) = solved.best_move(game, s) {
            assert_eq!(v, value);
        }
        let line = solved.line(game, s);
        assert_eq!(line.is_empty(), value == Value::Loss(0));
        if let Value::Win(d) | Value::Loss(d) = value {
            assert_eq!(line.len() as u32, d, "{s:?}");
        }
    }
    let stats = solved.stats();
    (stats.won, stats.lost, stats.drawn)
}

/// A random game graph: `n` positions, each with 0..=`degree` moves to random positions,
/// a few of them ending the game.
struct Random(Vec<Vec<Step<u32>>>);

impl Random {
    fn new(n: u32, degree: u64, seed: u64) -> Random {
        let mut x = seed | 1;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let graph = (0..n)
            .map(|_| {
                let moves = next() % (degree + 1);
                (0..moves)
                    .map(|_| match next() % 23 {
                        0 => Step::Wins,
                        _ => Step::To((next() % n as u64) as u32),
                    })
                    .collect()
            })
            .collect();
        Random(graph)
    }
}

impl WldGame for Random {
    type State = u32;
    fn moves(&self, state: &u32, out: &mut Vec<Step<u32>>) {
        out.extend_from_slice(&self.0[*state as usize]);
    }
}

#[test]
fn random_game_graphs_agree_with_the_definition_and_the_search() {
    let mut totals = (0, 0, 0);
    for seed in 1..=300u64 {
        let n = 5 + (seed % 40) as u32;
        let game = Random::new(n, 1 + seed % 4, seed.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let (w, l, d) = check(&game, 0, 2 * n + 2);
        totals = (totals.0 + w, totals.1 + l, totals.2 + d);
    }
    // The graphs exercise all three values.
    assert!(totals.0 > 0 && totals.1 > 0 && totals.2 > 0, "{totals:?}");
}

/// Bao positions as they are, without the solver's keys or symmetries: the reference
/// graph of the rules of kalah-core.
struct RawBao;

impl WldGame for RawBao {
    type State = BaoPosition;
    fn moves(&self, state: &BaoPosition, out: &mut Vec<Step<BaoPosition>>) {
        out.extend(state.legal().iter().map(|c| match c.wins {
            true => Step::Wins,
            false => Step::To(c.next),
        }));
    }
}

/// Checks the Bao solver on every position reachable from `root` against the references
/// (the fixpoint exactly; the search for every distance, and for draws to `horizon`
/// plies); returns the reference's count of positions (both sides to move, no symmetry).
fn check_bao(root: &BaoPosition, horizon: u32) -> usize {
    let solved = solve_position(root, u64::MAX, &AtomicBool::new(false), &mut |_| {}).unwrap();
    let states = reachable(&RawBao, *root);
    let signs = fixpoint(&RawBao, &states);
    let mut memo = HashMap::new();
    for s in &states {
        let value = solved.value(s).unwrap();
        assert_eq!(value.sign(), signs[s], "{s}");
        let (d, want) = match value {
            Value::Win(d) => (d, 1),
            Value::Loss(d) => (d, -1),
            Value::Draw => {
                assert!(!within(&RawBao, s, horizon, 1, &mut memo), "{s}");
                assert!(!within(&RawBao, s, horizon, -1, &mut memo), "{s}");
                continue;
            }
        };
        assert!(within(&RawBao, s, d, want, &mut memo), "{s}");
        assert!(d == 0 || !within(&RawBao, s, d - 1, want, &mut memo), "{s}");
        // The line replays to the value: d moves, the last one ending the game.
        let line = solved.line(s);
        assert_eq!(line.len() as u32, d, "{s}");
        let mut p = *s;
        for (i, mv) in line.iter().enumerate() {
            let (next, wins) = p.try_play(*mv).unwrap();
            assert!(!wins || i + 1 == line.len(), "{s}");
            p = next;
        }
        assert_eq!(p.terminal_value(), Some(-1), "{s}");
    }
    states.len()
}

#[test]
fn small_bao_boards_agree_with_the_references() {
    // With one seed a pit no pit can be played (R3.1): South loses at once.
    for pits in 3..=8 {
        let root = BaoRules::new(pits, 1).unwrap().start();
        assert_eq!(check_bao(&root, 4), 1);
    }
    // Positions of a few seeds on boards of 3 and 4 pits a row, drawn at random: each
    // root's whole reachable graph is checked.
    let mut x = 0x2545_F491_4F6C_DD1Du64;
    let (mut positions, mut values) = (0, std::collections::HashSet::new());
    for round in 0..40 {
        let pits = 3 + round % 2;
        let mut rows = [[0u8; 4]; 4];
        for _ in 0..3 + round % 3 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            rows[(x % 4) as usize][((x >> 8) % pits as u64) as usize] += 2;
        }
        rows[0][0] += 1; // South's front row is not empty: the game is on
        rows[2][0] += 1;
        let r: Vec<&[u8]> = rows.iter().map(|r| &r[..pits]).collect();
        let root = BaoPosition::from_rows([r[0], r[1], r[2], r[3]], Side::South).unwrap();
        // Roots of larger graphs are left out: the references are slow on purpose.
        let Ok(solved) = solve_position(&root, 2000, &AtomicBool::new(false), &mut |_| {}) else {
            continue;
        };
        values.insert(solved.value(&root).unwrap().sign());
        positions += check_bao(&root, 16);
    }
    assert!(positions > 1000, "{positions}");
    // Won and lost roots (draws are checked from E16's graph).
    assert!(values.contains(&1) && values.contains(&-1), "{values:?}");
}

#[test]
fn worked_examples_of_values() {
    // E10: no legal move, North loses.
    let e10: BaoPosition = "0,1,0/1,0,1/1,0,1/0,1,0:N".parse().unwrap();
    let solved = solve_position(&e10, 10, &AtomicBool::new(false), &mut |_| {}).unwrap();
    assert_eq!(solved.value(&e10), Some(Value::Loss(0)));
    // E16: a draw by repetition across turns; its line repeats after ten moves.
    let e16: BaoPosition = "2,1,0,1/1,0,0,0/0,0,0,1/2,1,1,0:S".parse().unwrap();
    let solved = solve_position(&e16, 1 << 20, &AtomicBool::new(false), &mut |_| {}).unwrap();
    assert_eq!(solved.value(&e16), Some(Value::Draw));
    let text: Vec<String> = solved.line(&e16).iter().map(|m| m.to_string()).collect();
    assert_eq!(text.join(" "), "B1- b4- B2- a4- A2- a3- A1- a2- B1- a1-");
    check_bao(&e16, 60);
}
