//! The win/loss/draw retrograde solver of Bao (kalah_solver::bao) against deliberately
//! simple references written from the definition of the values (BAO.md R9.1): repeating
//! the two rules until nothing changes, and a depth-limited game search for the distances.

use std::collections::HashMap;
use std::hash::Hash;
use std::sync::atomic::AtomicBool;

use kalah_solver::bao::{solve, Step, Value, WldGame};

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
