//! A split solve merged back equals the direct solve: on every small board under every
//! rule combination, for both kinds of step and several depths, with answers in any
//! order and duplicated; missing answers are named precisely; a hypothesis is confirmed
//! at the true value and refuted elsewhere; and the windowed solve behind the units
//! answers exactly inside its window and with a true bound outside it.

use std::sync::atomic::AtomicBool;

use kalah_analysis::distributed::{
    split, Claim, Merge, MergeError, Report, Step, Tree, Verdict, Window,
};
use kalah_analysis::{openings, replay, Offer};
use kalah_core::{Game, Position, Rules};
use kalah_solver::{Config, Solver, Turn};

fn solver(game: &Game) -> Solver {
    let config = Config {
        threads: 1,
        hash_mb: 4,
        ..Config::default()
    };
    Solver::new(game.clone(), config).unwrap()
}

/// The answer `kalah batch` gives for a unit at `pos` in `window`.
fn answer(solver: &Solver, pos: &Position, window: Window) -> Claim {
    let (alpha, beta) = window.for_mover(pos.side_to_move());
    let never = AtomicBool::new(false);
    match solver
        .solve_window(pos, alpha, beta, &never, &mut |_| {})
        .unwrap()
    {
        Ok(s) => Claim::Exact {
            value: s.value_from_south(),
            pv: s.pv,
        },
        Err(b) => {
            let (lo, hi) = b.from_south();
            if hi <= window.alpha {
                Claim::AtMost(hi)
            } else {
                assert!(lo >= window.beta, "a bound inside the window");
                Claim::AtLeast(lo)
            }
        }
    }
}

/// Every unit answered exactly, in a scrambled order, every third one twice, and what the
/// values rest on proved again.
fn merge_all<'t>(solver: &Solver, tree: &'t Tree) -> Merge<'t> {
    let mut merge = Merge::new(tree);
    let n = tree.units.len();
    let full = Window::full(&tree.rules);
    let claims: Vec<Claim> = (0..n)
        .map(|u| answer(solver, tree.unit_position(u), full))
        .collect();
    for k in 0..n {
        let u = (k * 7 + 3) % n;
        let u = if n % 7 == 0 { k } else { u };
        let times = if u % 3 == 0 { 2 } else { 1 };
        for _ in 0..times {
            merge
                .add(u as u64, tree.unit_position(u), claims[u].clone())
                .unwrap();
        }
    }
    let never = AtomicBool::new(false);
    merge.verify(solver, 2, &never, &|_, _| {}).unwrap();
    assert!(merge.unverified().is_empty());
    merge
}

fn direct(solver: &Solver, pos: &Position) -> i32 {
    let never = AtomicBool::new(false);
    solver
        .solve(pos, &never, &mut |_| {})
        .unwrap()
        .value_from_south()
}

#[test]
fn merged_values_equal_the_direct_solve_on_small_boards_under_every_rule() {
    let never = AtomicBool::new(false);
    let mut splits = 0;
    for (h, s) in [(2, 2), (3, 2), (3, 3), (4, 2)] {
        for rules in Rules::every_variant(h, s) {
            let game = Game::new(rules).unwrap();
            let solver = solver(&game);
            let root = game.start();
            let value = direct(&solver, &root);
            for step in [Step::Turn, Step::Sowing] {
                let offer = match step {
                    Step::Turn => Offer::AfterTurn,
                    Step::Sowing => Offer::AfterFirstSowing,
                };
                let expected: Vec<(String, i32)> =
                    openings(&solver, &root, offer, 1, &never, &|_| {})
                        .unwrap()
                        .into_iter()
                        .map(|o| (o.step.turn.notation(h as usize), o.value))
                        .collect();
                for depth in 0..=3 {
                    let tree = split(&game, &root, step, depth).unwrap();
                    let merge = merge_all(&solver, &tree);
                    let bounds = merge.bounds();
                    assert_eq!(bounds[0], (value, value), "{rules} {step:?} depth {depth}");
                    assert!(merge.needed(&bounds).is_empty());
                    let pv = merge.principal_variation(&bounds).expect("a line");
                    replay(&game, &root, &pv, value).unwrap();
                    if depth == 0 {
                        continue;
                    }
                    let mut got: Vec<(String, i32)> = merge
                        .first_moves(&bounds)
                        .into_iter()
                        .map(|m| {
                            assert_eq!(m.bounds.0, m.bounds.1);
                            let line = m.pv.expect("a line for an exact move");
                            replay(&game, &root, &line, m.bounds.0).unwrap();
                            (m.turn.notation(h as usize), m.bounds.0)
                        })
                        .collect();
                    let mut want = expected.clone();
                    got.sort();
                    want.sort();
                    assert_eq!(got, want, "{rules} {step:?} depth {depth}");
                    // The manifest reads back as the same tree.
                    let back = Tree::from_json(&tree.to_json()).unwrap();
                    assert_eq!(back.to_json(), tree.to_json());
                    splits += 1;
                }
            }
        }
    }
    assert_eq!(splits, 4 * 32 * 2 * 3);
}

#[test]
fn transpositions_are_one_node_and_a_deeper_split_has_more_units() {
    let game = Game::new(Rules::kalah(4, 3)).unwrap();
    let root = game.start();
    let mut last = 0;
    for depth in 1..=4 {
        let tree = split(&game, &root, Step::Turn, depth).unwrap();
        let mut seen = std::collections::HashSet::new();
        assert!(tree.nodes.iter().all(|n| seen.insert(n.position)));
        assert!(tree.units.len() > last);
        last = tree.units.len();
    }
}

#[test]
fn missing_answers_are_named_and_bad_answers_refused() {
    let game = Game::new(Rules::kalah(4, 3)).unwrap();
    let solver = solver(&game);
    let root = game.start();
    let value = direct(&solver, &root);
    let tree = split(&game, &root, Step::Turn, 2).unwrap();
    let full = Window::full(&tree.rules);
    let claims: Vec<Claim> = (0..tree.units.len())
        .map(|u| answer(&solver, tree.unit_position(u), full))
        .collect();
    // Nothing answered: every unit can still matter.
    let merge = Merge::new(&tree);
    let bounds = merge.bounds();
    assert!(bounds[0].0 < bounds[0].1);
    assert_eq!(merge.needed(&bounds).len(), tree.units.len());
    // One unit left out: either the root does not need it, or it is the one named.
    for missing in 0..tree.units.len() {
        let mut merge = Merge::new(&tree);
        for (u, c) in claims.iter().enumerate() {
            if u != missing {
                merge
                    .add(u as u64, tree.unit_position(u), c.clone())
                    .unwrap();
            }
        }
        let never = AtomicBool::new(false);
        merge.verify(&solver, 2, &never, &|_, _| {}).unwrap();
        let bounds = merge.bounds();
        let needed = merge.needed(&bounds);
        if bounds[0].0 == bounds[0].1 {
            assert_eq!(bounds[0].0, value);
            assert!(needed.is_empty());
        } else {
            assert_eq!(needed, vec![missing]);
            assert!(bounds[0].0 <= value && value <= bounds[0].1);
        }
    }
    let mut merge = Merge::new(&tree);
    let p0 = *tree.unit_position(0);
    let p1 = *tree.unit_position(1);
    assert_eq!(
        merge.add(tree.units.len() as u64, &p0, claims[0].clone()),
        Err(MergeError::UnknownUnit(tree.units.len() as u64))
    );
    assert!(matches!(
        merge.add(0, &p1, claims[1].clone()),
        Err(MergeError::WrongPosition { .. })
    ));
    let Claim::Exact { value: v0, pv } = claims[0].clone() else {
        panic!("a full window gives exact values")
    };
    assert!(matches!(
        merge.add(
            0,
            &p0,
            Claim::Exact {
                value: v0 + 1,
                pv: pv.clone()
            }
        ),
        Err(MergeError::Replay { .. })
    ));
    let short: Vec<Turn> = pv[..pv.len() - 1].to_vec();
    assert!(matches!(
        merge.add(
            0,
            &p0,
            Claim::Exact {
                value: v0,
                pv: short
            }
        ),
        Err(MergeError::Replay { .. })
    ));
    merge.add(0, &p0, Claim::AtLeast(v0)).unwrap();
    assert!(matches!(
        merge.add(0, &p0, Claim::AtMost(v0 - 1)),
        Err(MergeError::Conflict { .. })
    ));
    merge.add(0, &p0, claims[0].clone()).unwrap();
}

#[test]
fn a_forged_answer_is_never_merged_into_an_exact_value() {
    let never = AtomicBool::new(false);
    let game = Game::new(Rules::kalah(4, 3)).unwrap();
    let solver = solver(&game);
    let root = game.start();
    let value = direct(&solver, &root);
    let tree = split(&game, &root, Step::Turn, 2).unwrap();
    let full = Window::full(&tree.rules);
    let truth: Vec<i32> = (0..tree.units.len())
        .map(|u| direct(&solver, tree.unit_position(u)))
        .collect();
    let mut refused = 0;
    for (forged, &v) in truth.iter().enumerate() {
        let at = tree.unit_position(forged);
        let window = Window {
            alpha: v - 1,
            beta: v + 1,
        };
        let forgeries = [
            // Lower, upper: a bound past the value, as if outside the full window.
            Claim::AtLeast(v + 2),
            Claim::AtMost(v - 2),
            // A narrow window's answer lying about the side the value is on.
            Claim::AtLeast(window.beta),
            Claim::AtMost(window.alpha),
        ];
        // Exact: a value its line does not reach is refused at once.
        let Claim::Exact { pv, .. } = answer(&solver, at, full) else {
            panic!("a full window gives exact values")
        };
        let lie = Claim::Exact { value: v + 1, pv };
        assert!(matches!(
            Merge::new(&tree).add(forged as u64, at, lie),
            Err(MergeError::Replay { .. })
        ));
        for forgery in forgeries {
            let mut merge = Merge::new(&tree);
            for u in (0..tree.units.len()).filter(|&u| u != forged) {
                let claim = answer(&solver, tree.unit_position(u), full);
                merge.add(u as u64, tree.unit_position(u), claim).unwrap();
            }
            // Past what the seeds allow, a forged bound is refused at once.
            if let Err(e) = merge.add(forged as u64, at, forgery.clone()) {
                assert!(matches!(e, MergeError::Conflict { .. }), "{e}");
                refused += 1;
                continue;
            }
            // Unproved, the forged bound does not count: whatever is exact is true.
            let bounds = merge.bounds();
            assert!(bounds[0].0 <= value && value <= bounds[0].1, "{forgery:?}");
            for m in merge.first_moves(&bounds) {
                let (lo, hi) = m.bounds;
                assert!(lo < hi || m.pv.is_some(), "an exact move has its line");
            }
            // Proved again, it is refuted.
            assert!(matches!(
                merge.verify(&solver, 2, &never, &|_, _| {}),
                Err(MergeError::Unproved { id, .. }) if id == forged as u64
            ));
            refused += 1;
        }
        // A true bound, proved again, counts.
        let mut merge = Merge::new(&tree);
        merge.add(forged as u64, at, Claim::AtLeast(v)).unwrap();
        merge.add(forged as u64, at, Claim::AtMost(v)).unwrap();
        merge.verify(&solver, 2, &never, &|_, _| {}).unwrap();
        assert!(merge.unverified().is_empty());
        assert_eq!(merge.exact_units(), 1);
    }
    assert_eq!(refused, 4 * tree.units.len());
}

/// The first legal turn, again and again, from `pos` to the end of the game: a legal line
/// and the margin it ends with, from South.
fn playout(game: &Game, pos: &Position) -> (Vec<Turn>, i32) {
    let mut line = Vec::new();
    let mut at = *pos;
    while !at.is_over() {
        let step = kalah_analysis::first_steps(game, &at, Offer::AfterTurn).remove(0);
        at = step.after;
        line.push(step.turn);
    }
    (line, at.score())
}

#[test]
fn a_forged_exact_value_with_a_legal_line_is_proved_again_and_refused() {
    let never = AtomicBool::new(false);
    let game = Game::new(Rules::kalah(3, 3)).unwrap();
    let solver = solver(&game);
    let root = game.start();
    let value = direct(&solver, &root);
    let tree = split(&game, &root, Step::Turn, 1).unwrap();
    let full = Window::full(&tree.rules);
    let (mut forgeries, mut changed) = (0, 0);
    for forged in 0..tree.units.len() {
        let at = *tree.unit_position(forged);
        let (line, margin) = playout(&game, &at);
        if margin == direct(&solver, &at) {
            continue;
        }
        forgeries += 1;
        // Every unit answered truly but `forged`, whose line replays to its margin:
        // legal, but not best play.
        let claims: Vec<Claim> = (0..tree.units.len())
            .map(|u| match u == forged {
                true => Claim::Exact {
                    value: margin,
                    pv: line.clone(),
                },
                false => answer(&solver, tree.unit_position(u), full),
            })
            .collect();
        let (mut merge, mut trusting) = (Merge::new(&tree), Merge::new(&tree));
        for (u, claim) in claims.into_iter().enumerate() {
            merge
                .add(u as u64, tree.unit_position(u), claim.clone())
                .unwrap();
            trusting
                .add(u as u64, tree.unit_position(u), claim)
                .unwrap();
        }
        // Taken on trust, the forgery changes a first move's value: the reason to prove.
        assert!(trusting.trust() > 0);
        assert!(trusting.unverified().is_empty());
        // Before any proof nothing claimed counts, so nothing forged is exact.
        let bounds = merge.bounds();
        assert!(bounds[0].0 <= value && value <= bounds[0].1);
        assert!(!merge.unverified().is_empty());
        assert!(matches!(
            merge.verify(&solver, 2, &never, &|_, _| {}),
            Err(MergeError::Unproved { id, .. }) if id == forged as u64
        ));
        // Taken on trust, it makes a value the answers' and not the game's.
        let bounds = trusting.bounds();
        if bounds[0] != (value, value) {
            changed += 1;
        }
    }
    assert!(forgeries > 0, "some unit's playout misses its value");
    assert!(changed > 0, "some forgery, trusted, changes the value");
}

#[test]
fn trusted_answers_are_reported_as_trusted_and_never_as_exact() {
    let game = Game::new(Rules::kalah(3, 3)).unwrap();
    let solver = solver(&game);
    let root = game.start();
    let value = direct(&solver, &root);
    let tree = split(&game, &root, Step::Turn, 1).unwrap();
    let full = Window::full(&tree.rules);
    let mut trusting = Merge::new(&tree);
    for u in 0..tree.units.len() {
        let claim = answer(&solver, tree.unit_position(u), full);
        trusting
            .add(u as u64, tree.unit_position(u), claim)
            .unwrap();
    }
    assert!(trusting.trust() > 0);
    let bounds = trusting.bounds();
    assert_eq!(
        bounds[0],
        (value, value),
        "true answers, trusted, give the value"
    );
    let report = Report::new(&trusting, &bounds, None);
    let json = report.to_json(None);
    assert_eq!(json["status"], "trusted", "{json}");
    assert_eq!(json["exact"], false, "{json}");
    assert_eq!(json["verified"], false, "{json}");
    let mut text = Vec::new();
    report.write_text(None, &mut text).unwrap();
    let text = String::from_utf8(text).unwrap();
    assert!(
        text.contains("(trusted: exact if the answers are, from South)"),
        "{text}"
    );
    assert!(!text.contains("(exact,"), "{text}");
    // The same answers proved again are exact.
    let proved = merge_all(&solver, &tree);
    let bounds = proved.bounds();
    let json = Report::new(&proved, &bounds, None).to_json(None);
    assert_eq!(json["status"], "exact", "{json}");
    assert_eq!(json["exact"], true, "{json}");
    assert_eq!(json["verified"], true, "{json}");
}

/// Runs hypothesis rounds for `v` until they decide; returns the verdict, the rounds and
/// the windows solved.
fn prove(solver: &Solver, tree: &Tree, v: i32) -> (Verdict, usize, usize, Option<Vec<Turn>>) {
    let never = AtomicBool::new(false);
    let mut merge = Merge::new(tree);
    let mut solved = 0;
    for round in 0..200 {
        let bounds = merge.bounds();
        match merge.hypothesis(&bounds, v) {
            Verdict::Pending(units) => {
                assert!(!units.is_empty(), "a pending hypothesis asks for something");
                for u in units {
                    assert_eq!(u.position, *tree.unit_position(u.id as usize));
                    let claim = answer(solver, &u.position, u.window);
                    merge.add(u.id, &u.position, claim).unwrap();
                    solved += 1;
                }
                // Claims count once proved again.
                merge.verify(solver, 2, &never, &|_, _| {}).unwrap();
                assert!(merge.unverified().is_empty());
            }
            verdict => {
                let pv = merge.principal_variation(&bounds);
                return (verdict, round, solved, pv);
            }
        }
    }
    panic!("the hypothesis {v} was not decided in 200 rounds");
}

#[test]
fn a_hypothesis_is_confirmed_at_the_value_and_refuted_elsewhere() {
    for (h, s) in [(3, 3), (4, 2), (4, 3)] {
        for rules in Rules::every_option(h, s) {
            let game = Game::new(rules).unwrap();
            let solver = solver(&game);
            let root = game.start();
            let value = direct(&solver, &root);
            for step in [Step::Turn, Step::Sowing] {
                let tree = split(&game, &root, step, 2).unwrap();
                let (verdict, _, solved, pv) = prove(&solver, &tree, value);
                assert_eq!(verdict, Verdict::Confirmed, "{rules} {step:?}");
                assert!(solved <= 3 * tree.units.len());
                let pv = pv.expect("a confirmed hypothesis has its line");
                replay(&game, &root, &pv, value).unwrap();
                for wrong in [value - 2, value - 1, value + 1, value + 3] {
                    let (verdict, _, _, _) = prove(&solver, &tree, wrong);
                    match verdict {
                        Verdict::Refuted((lo, hi)) => {
                            assert!(
                                lo <= value && value <= hi,
                                "{rules}: bounds exclude the value"
                            );
                            assert!(hi < wrong || lo > wrong);
                        }
                        other => panic!("{rules}: hypothesis {wrong} (value {value}): {other:?}"),
                    }
                }
            }
        }
    }
}

#[test]
fn a_windowed_solve_is_exact_inside_and_a_true_bound_outside() {
    let never = AtomicBool::new(false);
    for rules in Rules::every_variant(4, 3) {
        let game = Game::new(rules).unwrap();
        let solver = solver(&game);
        let tree = split(&game, &game.start(), Step::Sowing, 2).unwrap();
        for u in (0..tree.units.len()).step_by(3) {
            let pos = tree.unit_position(u);
            let v = direct(&solver, pos);
            for (a, b) in [
                (v - 1, v + 1),
                (v, v + 1),
                (v - 1, v),
                (v - 5, v - 2),
                (v + 2, v + 9),
            ] {
                let (alpha, beta) = Window { alpha: a, beta: b }.for_mover(pos.side_to_move());
                let r = solver
                    .solve_window(pos, alpha, beta, &never, &mut |_| {})
                    .unwrap();
                match r {
                    // Exact inside the window; outside only where the bounds happened to
                    // meet.
                    Ok(s) => {
                        assert_eq!(s.value_from_south(), v, "{rules} {pos}");
                        s.verify(&game, pos).unwrap();
                    }
                    Err(_) if a < v && v < b => {
                        panic!("{rules} {pos}: a bound for {v} in ({a}, {b})")
                    }
                    Err(bound) => {
                        let (lo, hi) = bound.from_south();
                        assert!(lo <= v && v <= hi, "{rules} {pos}: {v} not in [{lo}, {hi}]");
                        assert!(hi <= a || lo >= b, "{rules} {pos}: bound inside ({a}, {b})");
                    }
                }
            }
        }
    }
}

#[test]
fn families_whose_positions_repeat_are_not_split() {
    for rules in Rules::every_cyclic_variant(3, 2) {
        let game = Game::new(rules).unwrap();
        let e = split(&game, &game.start(), Step::Turn, 1).unwrap_err();
        assert!(e.to_string().contains("repeat"));
    }
}

/// Leaves of the tree of `pos` to `depth` steps, every line counted (the walks' target).
fn lines(game: &Game, pos: &Position, step: Step, depth: usize) -> u64 {
    if depth == 0 || pos.is_over() {
        return 1;
    }
    let offer = match step {
        Step::Turn => Offer::AfterTurn,
        Step::Sowing => Offer::AfterFirstSowing,
    };
    kalah_analysis::first_steps(game, pos, offer)
        .iter()
        .map(|s| lines(game, &s.after, step, depth - 1))
        .sum()
}

#[test]
fn sampled_weights_estimate_the_number_of_lines() {
    for rules in [
        Rules::kalah(4, 3),
        Rules::nigerian(3, 3),
        Rules::general(4, 2),
    ] {
        let game = Game::new(rules).unwrap();
        let root = game.start();
        for (step, depth) in [(Step::Turn, 3), (Step::Sowing, 5)] {
            let want = lines(&game, &root, step, depth) as f64;
            let drawn =
                kalah_analysis::distributed::sample(&game, &root, step, depth, 4000, None, 7)
                    .unwrap();
            let w: Vec<f64> = drawn.iter().map(|d| d.weight).collect();
            let mean = w.iter().sum::<f64>() / w.len() as f64;
            let var = w.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (w.len() - 1) as f64;
            let se = (var / w.len() as f64).sqrt();
            assert!(
                (mean - want).abs() <= 5.0 * se + 1e-9,
                "{rules} {step:?}: estimate {mean} ± {se}, lines {want}"
            );
        }
        // The proof walks of a hypothesis follow one move where one suffices.
        let drawn =
            kalah_analysis::distributed::sample(&game, &root, Step::Turn, 3, 100, Some(0), 7)
                .unwrap();
        let full = lines(&game, &root, Step::Turn, 3) as f64;
        assert!(drawn.iter().all(|d| d.weight < full));
        assert!(drawn
            .iter()
            .any(|d| d.window(&rules).beta - d.window(&rules).alpha == 1));
    }
}
