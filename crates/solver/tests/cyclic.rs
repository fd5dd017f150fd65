//! The retrograde solver of the families whose positions repeat (Ethiopian Kalah, Oware)
//! against two deliberately simple references, on every position reachable from the start
//! of small boards under every option of both families:
//!
//! - **level by level**: the whole game graph is built, then each level (positions with
//!   the same seeds in the houses) is solved once every move out of it has a value, by the
//!   definition of the value with thresholds: for each `t > 0`, the positions where the
//!   mover can force at least `t` (a move out worth `t`, or a move inside the level to a
//!   position where the opponent cannot avoid `-t` or worse), and those where the mover
//!   cannot avoid `-t` or worse, each grown from nothing until it stops growing; play that
//!   never leaves the level is worth 0 (the store margin stands);
//! - **paths**, on the tiniest boards: minimax over lines of play, where returning to a
//!   position of the line ends the game with the margin standing.
//!
//! The sowing is the deliberately simple one of `crates/core/tests/common/reference.rs`
//! (one seed per step, written from the rule texts), whose boards are compared with the
//! engine's at every position. Every principal variation is replayed.

use crate::reference;

use std::collections::{HashMap, HashSet};
use std::sync::atomic::AtomicBool;

use kalah_core::{Game, Position, Rules};
use kalah_solver::{Config, Solver};
use reference::RefBoard;

/// A position of the reference graph: the absolute counts and the mover.
type Node = RefBoard;

/// The moves of a reference board: each child with whether the same player moves again.
fn children(rules: &Rules, b: &Node) -> Vec<Node> {
    b.legal_moves(rules)
        .into_iter()
        .map(|m| b.sow(rules, m).0)
        .collect()
}

/// The store margin of a board for its player to move.
fn margin(b: &Node) -> i32 {
    b.store(b.to_move) as i32 - b.store(b.to_move.other()) as i32
}

/// Seeds in the houses of a board.
fn level(b: &Node) -> u32 {
    b.row_seeds(kalah_core::Side::South) + b.row_seeds(kalah_core::Side::North)
}

/// A board's identity for the graph: the counts and the mover (two boards reached by
/// different lines with the same counts are the same position).
fn id(b: &Node) -> (Vec<u8>, bool) {
    (b.counts().to_vec(), b.to_move == kalah_core::Side::South)
}

/// The exact value (final store margin for the player to move) of every position
/// reachable from `start`, level by level with thresholds.
fn by_levels(rules: &Rules, start: &Node) -> HashMap<(Vec<u8>, bool), i32> {
    // The whole graph.
    let mut nodes: HashMap<(Vec<u8>, bool), Node> = HashMap::new();
    let mut stack = vec![*start];
    while let Some(b) = stack.pop() {
        if nodes.insert(id(&b), b).is_some() {
            continue;
        }
        if !b.over {
            stack.extend(children(rules, &b));
        }
    }
    let mut value: HashMap<(Vec<u8>, bool), i32> = HashMap::new();
    let mut levels: Vec<u32> = nodes.values().map(level).collect();
    levels.sort();
    levels.dedup();
    for l in levels {
        let here: Vec<Node> = nodes.values().filter(|b| level(b) == l).copied().collect();
        // Finished games first.
        for b in here.iter().filter(|b| b.over) {
            value.insert(id(b), margin(b));
        }
        let open: Vec<Node> = here.iter().filter(|b| !b.over).copied().collect();
        // For each open position: the values of its moves out of the level (as final
        // margins for its mover), and its moves inside the level.
        let mut exits: Vec<Vec<i32>> = Vec::new();
        let mut inside: Vec<Vec<usize>> = Vec::new();
        let place: HashMap<(Vec<u8>, bool), usize> =
            open.iter().enumerate().map(|(i, b)| (id(b), i)).collect();
        for b in &open {
            let (mut e, mut ins) = (Vec::new(), Vec::new());
            for c in children(rules, b) {
                match place.get(&id(&c)) {
                    Some(&q) => {
                        // Inside the level: no store changes and the turn passes.
                        assert_ne!(c.to_move, b.to_move);
                        assert_eq!(c.store(b.to_move), b.store(b.to_move));
                        ins.push(q);
                    }
                    None => {
                        let v = value[&id(&c)];
                        e.push(if c.to_move == b.to_move { v } else { -v });
                    }
                }
            }
            exits.push(e);
            inside.push(ins);
        }
        // Thresholds, as margins relative to each position's own margin.
        let n = open.len();
        let rel: Vec<Vec<i32>> = (0..n)
            .map(|i| exits[i].iter().map(|v| v - margin(&open[i])).collect())
            .collect();
        let mut result = vec![0i32; n];
        let top = rel.iter().flatten().map(|v| v.abs()).max().unwrap_or(0);
        for t in 1..=top {
            let (mut win, mut lose) = (vec![false; n], vec![false; n]);
            loop {
                let mut grew = false;
                for i in 0..n {
                    if !win[i]
                        && (rel[i].iter().any(|&v| v >= t) || inside[i].iter().any(|&q| lose[q]))
                    {
                        win[i] = true;
                        grew = true;
                    }
                    if !lose[i]
                        && rel[i].iter().all(|&v| v <= -t)
                        && inside[i].iter().all(|&q| win[q])
                    {
                        lose[i] = true;
                        grew = true;
                    }
                }
                if !grew {
                    break;
                }
            }
            for i in 0..n {
                if win[i] {
                    result[i] = t;
                }
                if lose[i] {
                    result[i] = -t;
                }
            }
        }
        for (i, b) in open.iter().enumerate() {
            value.insert(id(b), margin(b) + result[i]);
        }
    }
    value
}

/// Minimax over lines of play from `b`: a move back to a position of `path` ends the game
/// with the margin standing. The final margin for the player to move.
fn by_paths(rules: &Rules, b: &Node, path: &mut HashSet<(Vec<u8>, bool)>) -> i32 {
    if b.over {
        return margin(b);
    }
    path.insert(id(b));
    let mut best = i32::MIN;
    for c in children(rules, b) {
        let v = if path.contains(&id(&c)) {
            margin(&c)
        } else {
            by_paths(rules, &c, path)
        };
        best = best.max(if c.to_move == b.to_move { v } else { -v });
    }
    path.remove(&id(b));
    best
}

/// The engine position of a reference board.
fn engine(game: &Game, b: &Node) -> Position {
    let text = format!(
        "{}:{}",
        b.counts()
            .iter()
            .map(|c| c.to_string())
            .collect::<Vec<_>>()
            .join(","),
        b.to_move.letter()
    );
    let pos: Position = text.parse().expect("a board the engine reads");
    game.settle(pos).expect("a position of the game")
}

/// A solver of `game` on `threads` threads.
fn solver(game: &Game, threads: usize) -> Solver {
    let config = Config {
        threads,
        ..Config::for_work(game, &game.start(), 1)
    };
    Solver::new(game.clone(), config).expect("a solver")
}

/// Solves every position reachable from the start of `rules` and compares with the
/// level-by-level reference; returns the number of positions compared.
fn check_board(rules: Rules, threads: usize) -> usize {
    let game = Game::new(rules).unwrap();
    let start = RefBoard::start(rules.houses as usize, rules.seeds);
    let expected = by_levels(&rules, &start);
    let solver = solver(&game, threads);
    let cancel = AtomicBool::new(false);
    let root = solver.solve(&game.start(), &cancel, &mut |_| {}).unwrap();
    root.verify(&game, &game.start())
        .unwrap_or_else(|e| panic!("{rules}: the start's line does not replay: {e}"));
    let mut compared = 0;
    for (key, &value) in &expected {
        let b = RefBoard::from_counts(
            &key.0,
            if key.1 {
                kalah_core::Side::South
            } else {
                kalah_core::Side::North
            },
        );
        let pos = engine(&game, &b);
        let s = solver.solve(&pos, &cancel, &mut |_| {}).unwrap();
        assert_eq!(s.value, value, "{rules}: position {pos}");
        s.verify(&game, &pos)
            .unwrap_or_else(|e| panic!("{rules}: {pos}: line does not replay: {e}"));
        compared += 1;
    }
    compared
}

#[test]
fn every_reachable_position_of_small_boards_matches_the_level_reference() {
    let mut total = 0;
    for (h, s) in [(2, 1), (2, 2), (2, 3), (3, 1), (3, 2), (4, 1)] {
        for rules in Rules::every_cyclic_variant(h, s) {
            total += check_board(rules, 1 + (h as usize % 2));
        }
    }
    assert!(total > 10_000, "only {total} positions compared");
}

#[test]
#[ignore = "larger boards: run with --release"]
fn larger_boards_match_the_level_reference() {
    for (h, s) in [(3, 3), (4, 2), (5, 1)] {
        for rules in Rules::every_cyclic_variant(h, s) {
            check_board(rules, 2);
        }
    }
}

#[test]
fn the_tiniest_boards_match_the_path_search() {
    let mut compared = 0;
    for (h, s) in [(1, 1), (1, 2), (1, 3), (1, 4), (1, 5), (2, 1)] {
        for rules in Rules::every_cyclic_variant(h, s) {
            let start = RefBoard::start(h as usize, s);
            let levels = by_levels(&rules, &start);
            let game = Game::new(rules).unwrap();
            // Each position of the graph by the path search, against the levels.
            for (key, &value) in &levels {
                let side = if key.1 {
                    kalah_core::Side::South
                } else {
                    kalah_core::Side::North
                };
                let b = engine_board(&game, &RefBoard::from_counts(&key.0, side), &rules);
                let v = by_paths(&rules, &b, &mut HashSet::new());
                assert_eq!(v, value, "{rules}: {:?}", key);
                compared += 1;
            }
        }
    }
    eprintln!("{compared} positions compared");
    assert!(compared > 100, "only {compared} positions compared");
}

/// A reference board as the reference settles it (a hand-entered board whose game is over).
fn engine_board(_game: &Game, b: &Node, rules: &Rules) -> Node {
    b.settled(rules)
}

#[test]
fn a_graph_larger_than_the_memory_stops_with_a_reason() {
    let cancel = AtomicBool::new(false);
    for rules in [
        Rules::oware(4, 2),
        Rules {
            early_stop: true,
            ..Rules::ethiopian(4, 2)
        },
    ] {
        let game = Game::new(rules).unwrap();
        let retro = kalah_solver::retro::Retro::new(&game, 4096);
        let stop = retro
            .solve(&game, &game.start(), &cancel, &mut |_| {})
            .unwrap_err();
        assert!(
            matches!(stop, kalah_solver::retro::RetroStop::TooLarge { limit } if limit < 1000),
            "{rules}: {stop:?}"
        );
        // Nothing is kept of a solve that stopped.
        assert_eq!(retro.known_value(&game, &game.start()), None);
        // A solver's solve says so in its error, with the limit and the message.
        assert_eq!(
            kalah_solver::SolveError::from(stop),
            kalah_solver::SolveError::GraphTooLarge {
                limit: retro.limit()
            }
        );
        assert!(kalah_solver::SolveError::from(stop)
            .to_string()
            .contains("more than the memory available holds"));
    }
}
