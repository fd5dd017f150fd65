//! The anytime analysis of the families whose positions repeat
//! (`kalah_solver::cyclic_search`) against the retrograde solver's exact values, on small
//! boards of Oware and Ethiopian Kalah under their options: at many depth and node limits
//! the proven interval of the root and of every root turn holds the exact value; with the
//! bounded retrograde step the answer is exact and its line replays; on the full boards
//! the first answer comes at once.

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use kalah_core::{Game, Position, Rules};
use kalah_solver::cyclic_search::{analyse_cyclic, analyse_cyclic_with, CyclicSettings};
use kalah_solver::line::replay;
use kalah_solver::retro::Retro;
use kalah_solver::{Analysis, Evaluation, Limits};

/// Positions to analyse: the start, then the positions of a few pseudo-random games
/// (a fixed linear congruential generator), every few sowings.
fn positions(game: &Game, games: u64) -> Vec<Position> {
    let mut out = vec![game.start()];
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    for _ in 0..games {
        let mut pos = game.start();
        for ply in 0..40 {
            let moves: Vec<usize> = game.legal_moves(&pos).collect();
            if moves.is_empty() {
                break;
            }
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            pos = game.play_unchecked(&pos, moves[(seed >> 33) as usize % moves.len()]);
            if ply % 3 == 2 && !pos.is_over() {
                out.push(pos);
            }
        }
    }
    out
}

/// The exact value of `pos` for its mover, by the retrograde solver.
fn exact(retro: &Retro, game: &Game, pos: &Position) -> i32 {
    retro
        .solve(game, pos, &AtomicBool::new(false), &mut |_| {})
        .unwrap()
        .value
}

/// Checks an analysis of `pos` against the exact values: the root's interval and every
/// root turn's hold them, the evaluation lies in the interval, the turns are best first
/// and the line starts with the best turn and is legal.
fn check(game: &Game, retro: &Retro, pos: &Position, a: &Analysis, what: &str) {
    let v = exact(retro, game, pos);
    assert!(
        a.proven.lower <= v && v <= a.proven.upper,
        "{what}: {v} outside {}..={}",
        a.proven.lower,
        a.proven.upper
    );
    assert!(
        a.proven.lower <= a.eval && a.eval <= a.proven.upper,
        "{what}: eval outside the interval"
    );
    assert!(
        a.turns
            .windows(2)
            .all(|w| w[0].eval >= w[1].eval || a.is_exact()),
        "{what}: order"
    );
    for t in &a.turns {
        let mut child = *pos;
        for &m in &t.turn.sowings {
            child = game.try_play(&child, m).unwrap().0;
        }
        let c = exact(retro, game, &child);
        let c = if child.side_to_move() == pos.side_to_move() {
            c
        } else {
            -c
        };
        assert!(
            t.proven.lower <= c && c <= t.proven.upper,
            "{what}: turn {:?}: {c} outside {}..={}",
            t.turn.sowings,
            t.proven.lower,
            t.proven.upper
        );
    }
    if let Some(best) = a.best_turn() {
        assert_eq!(
            best, &a.turns[0].turn,
            "{what}: the line starts with the best turn"
        );
        let mut p = *pos;
        for m in a.pv.iter().flat_map(|t| t.sowings.iter()) {
            p = game.try_play(&p, *m).expect("the line is legal").0;
        }
    }
    if a.is_exact() {
        if let Err(e) = replay(game, pos, &a.pv, a.bounds_from_south().0) {
            panic!("{what}: the exact line does not replay: {e}");
        }
    }
}

/// The small boards: every option set on 2 houses, the default rules on 3 and 4.
fn small_games() -> Vec<Game> {
    let mut rules = Vec::new();
    for seeds in 1..=3 {
        rules.extend(Rules::every_cyclic_variant(2, seeds));
    }
    for (h, s) in [(3, 1), (3, 2), (3, 3), (4, 1), (4, 2)] {
        rules.push(Rules::oware(h, s));
        rules.push(Rules::ethiopian(h, s));
    }
    rules.into_iter().map(|r| Game::new(r).unwrap()).collect()
}

/// Without the retrograde step, the search's own intervals at many limits.
#[test]
fn proven_interval_of_the_search_holds_the_exact_value() {
    let settings = CyclicSettings {
        retro_memory: Some(0),
        table_bits: 10,
        ..CyclicSettings::default()
    };
    let mut closed = 0;
    let mut total = 0;
    for game in small_games() {
        let retro = Retro::new(&game, 1 << 30);
        for pos in positions(&game, 3) {
            let mut limits: Vec<Limits> = (1..=12)
                .map(|d| Limits {
                    depth: Some(d),
                    ..Limits::none()
                })
                .collect();
            limits.extend([30, 300, 3000].map(|n| Limits {
                nodes: Some(n),
                ..Limits::none()
            }));
            for l in limits {
                let what = format!("{:?} at {l:?}", game.rules());
                let mut reports = Vec::new();
                let a = analyse_cyclic_with(
                    &game,
                    &settings,
                    &pos,
                    &l,
                    &AtomicBool::new(false),
                    &mut |r| reports.push(r.clone()),
                )
                .unwrap();
                for r in &reports {
                    check(&game, &retro, &pos, r, &what);
                }
                check(&game, &retro, &pos, &a, &what);
                total += 1;
                closed += a.is_exact() as usize;
            }
        }
    }
    println!("{closed} of {total} analyses closed their interval by search alone");
}

/// With the bounded retrograde step the answer is exact, its line replays to the value,
/// and every root turn has its exact value.
#[test]
fn retrograde_step_makes_small_boards_exact() {
    for game in small_games() {
        let retro = Retro::new(&game, 1 << 30);
        for pos in positions(&game, 2) {
            let limits = Limits {
                depth: Some(2),
                ..Limits::none()
            };
            let a = analyse_cyclic(
                &game,
                Evaluation::default(),
                &pos,
                &limits,
                &AtomicBool::new(false),
                &mut |_| {},
            )
            .unwrap();
            let what = format!("{:?}", game.rules());
            assert!(a.is_exact(), "{what}: not exact");
            assert_eq!(a.eval, exact(&retro, &game, &pos), "{what}");
            replay(&game, &pos, &a.pv, a.eval_from_south()).unwrap();
            assert!(
                a.turns.iter().all(|t| t.proven.lower == t.proven.upper),
                "{what}: a turn not exact"
            );
            check(&game, &retro, &pos, &a, &what);
        }
    }
}

/// Oware(6,4) and Ethiopian(6,4) from the start: the first answer (depth 1, a best turn)
/// comes back at once; the time is printed, not asserted.
#[test]
fn first_answer_on_the_full_boards() {
    for rules in [Rules::oware(6, 4), Rules::ethiopian(6, 4)] {
        let game = Game::new(rules).unwrap();
        let start = Instant::now();
        let mut first = None;
        let limits = Limits {
            time: Some(Duration::from_millis(300)),
            ..Limits::none()
        };
        let a = analyse_cyclic(
            &game,
            Evaluation::default(),
            &game.start(),
            &limits,
            &AtomicBool::new(false),
            &mut |r| {
                first.get_or_insert((start.elapsed(), r.depth, r.best_turn().cloned()));
            },
        )
        .unwrap();
        let (at, depth, best) = first.expect("a first answer");
        assert_eq!(depth, 1);
        assert!(best.is_some());
        let (lo, hi) = (a.proven.lower, a.proven.upper);
        assert!(lo <= a.eval && a.eval <= hi && lo >= -48 && hi <= 48);
        println!(
            "{:?}: first answer after {at:?}; depth {} after {:?}, {} nodes",
            rules.family, a.depth, a.elapsed, a.nodes
        );
    }
}

/// The depth reached in one second on the full boards (run with `--ignored`, release).
#[test]
#[ignore]
fn depth_in_one_second_on_the_full_boards() {
    for rules in [Rules::oware(6, 4), Rules::ethiopian(6, 4)] {
        let game = Game::new(rules).unwrap();
        let limits = Limits {
            time: Some(Duration::from_secs(1)),
            ..Limits::none()
        };
        let a = analyse_cyclic(
            &game,
            Evaluation::default(),
            &game.start(),
            &limits,
            &AtomicBool::new(false),
            &mut |r| {
                println!(
                    "  depth {} eval {} [{}, {}] {} nodes {:?}",
                    r.depth, r.eval, r.proven.lower, r.proven.upper, r.nodes, r.elapsed
                );
            },
        )
        .unwrap();
        assert!(a.depth >= 1 && a.proven.lower <= a.eval && a.eval <= a.proven.upper);
        println!(
            "{:?}(6,4): depth {} in {:?}, {} nodes, {:.0} nodes/s",
            rules.family,
            a.depth,
            a.elapsed,
            a.nodes,
            a.nodes_per_second()
        );
    }
}

/// A cancelled analysis stops after the first depth, with a best turn and its interval.
#[test]
fn cancelled_analysis_answers_the_first_depth() {
    let game = Game::new(Rules::oware(6, 4)).unwrap();
    let a = analyse_cyclic(
        &game,
        Evaluation::default(),
        &game.start(),
        &Limits::none(),
        &AtomicBool::new(true),
        &mut |_| {},
    )
    .unwrap();
    assert_eq!(a.depth, 1);
    assert!(a.best_turn().is_some() && a.proven.lower <= a.eval && a.eval <= a.proven.upper);
    assert_eq!(a.turns.len(), 6);
}

/// Where the search closes the proven interval by itself without the retrograde step
/// (left out here; in a match, too small for the graph), the exact answer still comes with
/// a line that replays to the end, at every report (an Oware endgame a match reached, with
/// the settings under which the search closed it at 50000 nodes).
#[test]
fn an_interval_the_search_closes_comes_with_a_line_that_replays() {
    let game = Game::new(Rules::oware(6, 4)).unwrap();
    let board: Position = "1,0,0,1,1,1,12,0,0,0,0,2,2,28:S".parse().unwrap();
    let pos = game.settle(board).unwrap();
    let settings = CyclicSettings {
        retro_memory: Some(0),
        quiescence: false,
        ..CyclicSettings::default()
    };
    let mut reports = Vec::new();
    let a = analyse_cyclic_with(
        &game,
        &settings,
        &pos,
        &Limits::nodes(50_000),
        &AtomicBool::new(false),
        &mut |r| reports.push(r.clone()),
    )
    .unwrap();
    assert!(a.is_exact(), "{}..={}", a.proven.lower, a.proven.upper);
    for r in reports.iter().filter(|r| r.is_exact()) {
        replay(&game, &pos, &r.pv, r.bounds_from_south().0).expect("every exact report replays");
    }
    let retro = Retro::new(&game, 64 << 20);
    assert_eq!(a.proven.lower, exact(&retro, &game, &pos));
    replay(&game, &pos, &a.pv, a.bounds_from_south().0).expect("the exact line replays");
}
