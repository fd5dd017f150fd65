//! The analyses against a deliberately naive exhaustive minimax kept in this file (plain
//! recursion over the rules engine, no table, no pruning), on small boards under all 16
//! combinations of the rule options.

use std::collections::{HashMap, HashSet};
use std::sync::atomic::AtomicBool;

use kalah_analysis::batch::{self, LineError};
use kalah_analysis::export;
use kalah_analysis::{decide, first_steps, openings, pie, Offer};
use kalah_core::{Game, Position, Rules, Sowing};
use kalah_solver::{Config, Solver};

/// The value of `pos` from South by plain minimax over every sowing.
fn naive(game: &Game, pos: &Position) -> i32 {
    if pos.is_over() {
        return pos.score();
    }
    let values = pos
        .moves()
        .map(|j| naive(game, &game.try_play(pos, j).unwrap().0));
    match pos.side_to_move() {
        kalah_core::Side::South => values.max().unwrap(),
        kalah_core::Side::North => values.min().unwrap(),
    }
}

/// Every first turn as (bins written out, position after), by plain recursion.
fn naive_turns(game: &Game, pos: &Position, whole_turn: bool) -> Vec<(Vec<usize>, Position)> {
    let mut out = Vec::new();
    for j in 0..game.houses() {
        let Ok((next, how)) = game.try_play(pos, j) else {
            continue;
        };
        if whole_turn && how == Sowing::ExtraTurn {
            for (mut rest, end) in naive_turns(game, &next, true) {
                rest.insert(0, j);
                out.push((rest, end));
            }
        } else {
            out.push((vec![j], next));
        }
    }
    out
}

/// Small boards whose whole game tree the naive minimax walks in a blink.
const BOARDS: [(u8, u8); 6] = [(1, 3), (2, 2), (2, 3), (3, 1), (3, 2), (4, 1)];

fn solver(game: &Game) -> Solver {
    Solver::new(
        game.clone(),
        Config {
            threads: 1,
            hash_mb: 1,
            ..Config::default()
        },
    )
    .unwrap()
}

#[test]
fn every_opening_value_matches_naive_minimax_under_every_rule() {
    let cancel = AtomicBool::new(false);
    for (h, s) in BOARDS {
        for rules in Rules::every_option(h, s) {
            let game = Game::new(rules).unwrap();
            let solver = solver(&game);
            let start = game.start();
            for (offer, whole) in [(Offer::AfterTurn, true), (Offer::AfterFirstSowing, false)] {
                let got = openings(&solver, &start, offer, 2, &cancel, &|_| {}).unwrap();
                let want: HashMap<Vec<usize>, i32> = naive_turns(&game, &start, whole)
                    .into_iter()
                    .map(|(t, p)| (t, naive(&game, &p)))
                    .collect();
                assert_eq!(got.len(), want.len(), "{rules} {offer:?}: number of turns");
                for o in &got {
                    assert_eq!(
                        Some(&o.value),
                        want.get(&o.step.turn.sowings),
                        "{rules} {offer:?}: turn {}",
                        o.step.turn.notation(game.houses())
                    );
                    assert_eq!(
                        o.pv[0].sowings[..o.step.turn.sowings.len()],
                        o.step.turn.sowings
                    );
                }
                assert!(
                    got.windows(2).all(|w| w[0].value >= w[1].value),
                    "best first"
                );
                if offer == Offer::AfterTurn {
                    assert_eq!(got[0].value, naive(&game, &start), "{rules}: best turn");
                }
            }
        }
    }
}

#[test]
fn every_pie_decision_matches_naive_minimax_under_every_rule() {
    let cancel = AtomicBool::new(false);
    for (h, s) in BOARDS {
        for rules in Rules::every_option(h, s) {
            let game = Game::new(rules).unwrap();
            let solver = solver(&game);
            let start = game.start();
            for (offer, whole) in [(Offer::AfterTurn, true), (Offer::AfterFirstSowing, false)] {
                let got = pie(&solver, &start, offer, 2, &cancel, &|_| {}).unwrap();
                let naive_values: HashMap<Vec<usize>, i32> = naive_turns(&game, &start, whole)
                    .into_iter()
                    .map(|(t, p)| (t, naive(&game, &p)))
                    .collect();
                for c in &got.choices {
                    let v = naive_values[&c.opening.step.turn.sowings];
                    // South made the move: North swaps exactly when it favours South.
                    assert_eq!(c.decision.swap, v > 0, "{rules} {offer:?}");
                    let outcome = if v > 0 { -v } else { v };
                    assert_eq!(c.decision.first_player, outcome, "{rules} {offer:?}");
                }
                let best = naive_values.values().map(|v| -v.abs()).max().unwrap();
                assert_eq!(
                    got.value, best,
                    "{rules} {offer:?}: value with the pie rule"
                );
                assert_eq!(got.best().decision.first_player, best);
            }
        }
    }
}

#[test]
fn pie_tie_keeps_the_sides() {
    let d = decide(0);
    assert!(!d.swap);
    assert_eq!((d.first_player, d.advantage), (0, 0));
    let d = decide(3);
    assert!(d.swap);
    assert_eq!((d.first_player, d.advantage), (-3, 6));
    let d = decide(-2);
    assert!(!d.swap);
    assert_eq!((d.first_player, d.advantage), (-2, 4));
}

/// Every position reached within `depth` turns, by plain recursion: after at most `depth`
/// complete turns, or in the middle of one of the first `depth` turns.
fn naive_book(game: &Game, pos: &Position, done: u32, depth: u32, out: &mut HashSet<Position>) {
    out.insert(*pos);
    if done >= depth {
        return;
    }
    for j in pos.moves() {
        let (c, how) = game.try_play(pos, j).unwrap();
        let t = if how == Sowing::ExtraTurn {
            done
        } else {
            done + 1
        };
        naive_book(game, &c, t, depth, out);
    }
}

#[test]
fn every_exported_value_matches_naive_minimax_under_every_rule() {
    let cancel = AtomicBool::new(false);
    for (h, s, depth) in [(2, 2, 3), (3, 2, 2), (4, 1, 2), (2, 3, 1)] {
        for rules in Rules::every_option(h, s) {
            let game = Game::new(rules).unwrap();
            let solver = solver(&game);
            let start = game.start();
            let plan = export::plan(&game, &start, depth);
            let table =
                export::evaluate(&solver, &plan, &HashMap::new(), 2, &cancel, &|_, _| {}).unwrap();
            let mut want = HashSet::new();
            naive_book(&game, &start, 0, depth, &mut want);
            let got: HashSet<Position> = table.iter().map(|e| e.position).collect();
            assert_eq!(got, want, "{rules}: the table's positions");
            assert_eq!(got.len(), table.len(), "{rules}: each position once");
            for e in &table {
                assert_eq!(e.value, naive(&game, &e.position), "{rules} {}", e.position);
                let legal: Vec<usize> = e.position.moves().collect();
                assert_eq!(e.moves.iter().map(|m| m.0).collect::<Vec<_>>(), legal);
                for &(j, v) in &e.moves {
                    let c = game.play_unchecked(&e.position, j);
                    assert_eq!(v, naive(&game, &c), "{rules} {} move {j}", e.position);
                }
                let best = e.best.map(|j| e.moves.iter().find(|m| m.0 == j).unwrap().1);
                assert_eq!(best.unwrap_or(e.value), e.value);
            }
            assert!(table.windows(2).all(|w| w[0].turns <= w[1].turns));
        }
    }
}

#[test]
fn export_resumes_from_known_values_without_solving_them_again() {
    let game = Game::new(Rules::kalah(3, 2)).unwrap();
    let solver = solver(&game);
    let plan = export::plan(&game, &game.start(), 2);
    let all = plan.to_solve(&HashMap::new());
    assert!(all.len() > 4);
    let known: HashMap<Position, i32> = all[..4].iter().map(|p| (*p, naive(&game, p))).collect();
    assert_eq!(plan.to_solve(&known).len(), all.len() - 4);
    let solved = std::sync::Mutex::new(Vec::new());
    let cancel = AtomicBool::new(false);
    let table = export::evaluate(&solver, &plan, &known, 1, &cancel, &|p, _| {
        solved.lock().unwrap().push(*p)
    })
    .unwrap();
    let solved = solved.into_inner().unwrap();
    assert_eq!(solved.len(), all.len() - 4);
    assert!(solved.iter().all(|p| !known.contains_key(p)));
    assert_eq!(table[0].value, naive(&game, &game.start()));
}

#[test]
fn batch_answers_in_input_order_and_reports_bad_lines() {
    let game = Game::new(Rules::kalah(3, 2)).unwrap();
    let solver = solver(&game);
    let text = "# a comment\n\n1\n2, 5   # moves from the start\n2,2,2,0,2,2,2,0:N\n9\n1,1:S\n\
                0,0,0,6,0,0,0,6:S\n3\n";
    let items = batch::items(text);
    assert_eq!(
        items.iter().map(|i| i.line).collect::<Vec<_>>(),
        [3, 4, 5, 6, 7, 8, 9]
    );
    assert_eq!(items[1].input, "2, 5");
    let mut got = Vec::new();
    let cancel = AtomicBool::new(false);
    let n = batch::solve_in_order(&solver, &items, 2, &cancel, &mut |i, r| {
        got.push((i, r));
        true
    })
    .unwrap();
    assert_eq!(n, items.len());
    assert_eq!(
        got.iter().map(|(i, _)| *i).collect::<Vec<_>>(),
        (0..items.len()).collect::<Vec<_>>()
    );
    for (i, r) in &got {
        match batch::parse(&game, &items[*i].input) {
            Ok(pos) => {
                let a = r.as_ref().unwrap();
                assert_eq!(a.value, naive(&game, &pos), "{}", items[*i].input);
                kalah_analysis::replay(&game, &pos, &a.pv, a.value).unwrap();
            }
            Err(_) => assert!(r.is_err(), "{}", items[*i].input),
        }
    }
    assert!(
        matches!(got[3].1, Err(LineError::Moves(_))),
        "bin 9 is not South's"
    );
    assert!(
        matches!(got[4].1, Err(LineError::Board(_))),
        "a 1-house board"
    );
    // A finished game is scored, not refused.
    assert_eq!(got[5].1.as_ref().unwrap().value, 0);
}

#[test]
fn batch_stops_on_the_sink_and_keeps_a_prefix() {
    let game = Game::new(Rules::kalah(3, 2)).unwrap();
    let solver = solver(&game);
    let items = batch::items("1\n2\n3\n1 5\n2 6\n3 7\n");
    let cancel = AtomicBool::new(false);
    let mut seen = Vec::new();
    let n = batch::solve_in_order(&solver, &items, 2, &cancel, &mut |i, _| {
        seen.push(i);
        i < 2
    })
    .unwrap();
    assert_eq!(n, 2);
    assert_eq!(seen, [0, 1, 2]);
    let cancel = AtomicBool::new(true);
    let n = batch::solve_in_order(&solver, &items, 2, &cancel, &mut |_, _| true).unwrap();
    assert_eq!(n, 0, "a raised cancel flag starts nothing");
}

#[test]
fn first_turns_of_kalah_6_6_are_the_published_ten() {
    let game = Game::new(Rules::kalah(6, 6)).unwrap();
    let mut names: Vec<String> = first_steps(&game, &game.start(), Offer::AfterTurn)
        .iter()
        .map(|s| s.turn.notation(6))
        .collect();
    names.sort();
    assert_eq!(
        names,
        ["1-2", "1-3", "1-4", "1-5", "1-6", "2", "3", "4", "5", "6"]
    );
    let sowings = first_steps(&game, &game.start(), Offer::AfterFirstSowing);
    assert_eq!(sowings.len(), 6);
    assert_eq!(
        sowings[0].after.side_to_move(),
        kalah_core::Side::South,
        "bin 1 ends in the store"
    );
}

#[test]
fn first_turns_of_kalah_6_4_follow_every_extra_sowing() {
    let game = Game::new(Rules::kalah(6, 4)).unwrap();
    let steps = first_steps(&game, &game.start(), Offer::AfterTurn);
    let names: Vec<String> = steps.iter().map(|s| s.turn.notation(6)).collect();
    assert_eq!(
        names,
        ["1", "2", "3-1", "3-2", "3-4", "3-5", "3-6", "4", "5", "6"]
    );
    let unique: HashSet<&String> = names.iter().collect();
    assert_eq!(unique.len(), names.len());
    assert!(steps
        .iter()
        .all(|s| s.after.side_to_move() == kalah_core::Side::North || s.after.is_over()));
}

#[test]
fn openings_of_a_finished_game_is_an_error() {
    let game = Game::new(Rules::kalah(2, 2)).unwrap();
    let solver = solver(&game);
    let over = game.settle("0,0,4,0,0,4:S".parse().unwrap()).unwrap();
    let r = openings(
        &solver,
        &over,
        Offer::AfterTurn,
        1,
        &AtomicBool::new(false),
        &|_| {},
    );
    assert!(matches!(r, Err(kalah_analysis::AnalysisError::GameOver)));
}
