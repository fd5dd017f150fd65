//! Oware and Ethiopian positions answered from a database file (`Database::File`) instead of a solve of
//! their game graph: every position reachable from the start of small boards under every
//! option gets the retrograde solver's value, with a principal variation that replays to
//! it, whether the database answered it or the graph was solved after all.

use std::collections::HashSet;
use std::sync::atomic::AtomicBool;

use kalah_core::{Game, Position, Rules};
use kalah_solver::egdb::Egdb;
use kalah_solver::retro::Retro;
use kalah_solver::{Config, Database, Limits, Solver};

/// Every position reachable from the start of `game`, the finished ones included.
fn reachable(game: &Game) -> Vec<Position> {
    let (mut seen, mut out) = (HashSet::new(), Vec::new());
    let mut stack = vec![game.start()];
    while let Some(p) = stack.pop() {
        if !seen.insert((p.packed_board(), p.stores(), p.side_to_move())) {
            continue;
        }
        out.push(p);
        if !p.is_over() {
            stack.extend(game.legal_moves(&p).map(|m| game.sow(&p, m).0));
        }
    }
    out
}

/// (positions, answered from the database) for `rules`, with a database of every board
/// of at most `k` seeds (`None`: every board of the game).
fn check(rules: Rules, k: Option<usize>) -> (usize, usize) {
    let game = Game::new(rules).unwrap();
    let dir = std::env::temp_dir().join(format!(
        "kalah-cyclic-answer-{}-{}",
        std::process::id(),
        rules.to_string().replace([' ', '(', ')', ',', '='], "_") + &format!("{k:?}")
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("oware.egdb");
    Egdb::build(&game, k.unwrap_or(game.capacity()), &|_, _, _| {})
        .unwrap()
        .save(&path)
        .unwrap();
    let config = Config {
        threads: 1,
        database: Database::File(path.clone()),
        ..Config::default()
    };
    let solver = Solver::new(game.clone(), config).unwrap();
    let retro = Retro::new(&game, 1 << 30);
    let never = AtomicBool::new(false);
    retro
        .solve(&game, &game.start(), &never, &mut |_| {})
        .unwrap();
    let positions = reachable(&game);
    let mut from_db = 0;
    for p in &positions {
        let want = retro.known_value(&game, p).expect("reachable, so solved");
        let got = solver.solve(p, &never, &mut |_| {}).unwrap();
        assert_eq!(
            got.value_from_south(),
            want * p.side_to_move().sign(),
            "{rules} at {p}"
        );
        got.verify(&game, p)
            .unwrap_or_else(|e| panic!("{rules} at {p}: {e}"));
        from_db += usize::from(got.egdb_hits > 0);
    }
    // The analysis within a small node limit: exact at once where the database holds the
    // position, and its proven interval holds the value everywhere.
    for p in positions.iter().step_by(97) {
        let want = retro.known_value(&game, p).unwrap() * p.side_to_move().sign();
        let a = solver
            .analyse(p, &Limits::nodes(100), &never, &mut |_| {})
            .unwrap();
        let (lo, hi) = a.bounds_from_south();
        assert!(lo <= want && want <= hi, "{rules} at {p}");
        if k.is_none_or(|k| p.seeds_in_houses() as usize <= k) {
            assert!(a.is_exact(), "{rules} at {p}");
            assert_eq!((lo, hi), (want, want), "{rules} at {p}");
        }
    }
    std::fs::remove_dir_all(&dir).ok();
    (positions.len(), from_db)
}

#[test]
fn database_answers_equal_the_retrograde_solver_and_their_lines_replay() {
    let (mut all, mut answered) = (0, 0);
    for (houses, seeds) in [(2, 2), (2, 3), (3, 1), (3, 2), (4, 1)] {
        for rules in Rules::every_cyclic_variant(houses, seeds) {
            if rules.early_stop {
                continue;
            }
            let (n, d) = check(rules, None);
            all += n;
            answered += d;
        }
    }
    eprintln!("{answered} of {all} positions answered from the database");
    assert!(all > 1000, "{all} positions");
    assert!(answered > 0, "the database answers");
}

/// A database of fewer seeds than the game holds: the positions above it are solved by
/// the retrograde solver with the database's positions as exits (not followed), and
/// every value and line is that of the solve of the whole graph.
#[test]
fn a_smaller_database_gives_the_retrograde_solver_its_exits() {
    let mut all = 0;
    for (houses, seeds, k) in [(2, 3, 6), (3, 2, 5), (3, 2, 9), (4, 1, 4)] {
        for rules in Rules::every_cyclic_variant(houses, seeds) {
            if !rules.early_stop {
                all += check(rules, Some(k)).0;
            }
        }
    }
    assert!(all > 1000, "{all} positions");
}
