//! Endgame databases of the families whose positions repeat (Oware, Ethiopian Kalah),
//! built level by level by the cycle rule: every position reachable from the start of
//! small boards under every option against the retrograde solver of the whole game graph,
//! every board of the tiniest boards against a deliberately simple path search, and the
//! files: verified, refused when damaged or for other rules, resumed after an
//! interruption.

use std::collections::HashSet;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};

use kalah_core::{Family, Game, GrandSlam, Position, Ranker, Rules, Side};
use kalah_solver::egdb::{file::partial_path, Egdb, EgdbError, FileBuild};
use kalah_solver::retro::Retro;

/// The option sets a database serves (the early stop reads the stores: refused).
fn variants(houses: u8, seeds: u8) -> Vec<Rules> {
    Rules::every_cyclic_variant(houses, seeds)
        .into_iter()
        .filter(|r| !r.early_stop)
        .collect()
}

/// Every position reachable from the start of `game` whose game is not over.
fn reachable(game: &Game) -> Vec<Position> {
    let (mut seen, mut out) = (HashSet::new(), Vec::new());
    let mut stack = vec![game.start()];
    while let Some(p) = stack.pop() {
        if p.is_over() || !seen.insert((p.packed_board(), p.stores(), p.side_to_move())) {
            continue;
        }
        out.push(p);
        stack.extend(game.legal_moves(&p).map(|m| game.sow(&p, m).0));
    }
    out
}

/// Builds the database of every board of `rules`' game and checks it against the
/// retrograde solver on every position reachable from the start; the positions compared.
fn check_against_retro(rules: Rules) -> usize {
    let game = Game::new(rules).unwrap();
    let db = Egdb::build(&game, game.capacity(), &|_, _, _| {}).unwrap();
    let retro = Retro::new(&game, 1 << 30);
    let never = AtomicBool::new(false);
    let start = game.start();
    let solved = retro.solve(&game, &start, &never, &mut |_| {}).unwrap();
    assert_eq!(db.probe(&start), Some(solved.value), "{rules} start");
    let positions = reachable(&game);
    for p in &positions {
        let want = retro.known_value(&game, p).expect("reachable, so solved");
        assert_eq!(db.probe(p), Some(want), "{rules} at {p}");
    }
    positions.len()
}

#[test]
fn every_reachable_position_of_small_boards_matches_the_retrograde_solver() {
    let mut compared = 0;
    for (houses, seeds) in [(2, 1), (2, 2), (2, 3), (3, 1), (3, 2), (4, 1)] {
        for rules in variants(houses, seeds) {
            compared += check_against_retro(rules);
        }
    }
    assert!(compared > 10_000, "{compared} positions");
}

/// Oware(4, 2), Oware(3, 3) and Ethiopian(4, 2) under every option (a few minutes).
#[test]
#[ignore]
fn larger_boards_match_the_retrograde_solver() {
    for (houses, seeds) in [(4, 2), (3, 3)] {
        for rules in variants(houses, seeds) {
            check_against_retro(rules);
        }
    }
}

/// Oware(5, 2) under both grand slam rules: a database of 20 seeds on 5 houses.
#[test]
#[ignore]
fn oware_5_2_matches_the_retrograde_solver() {
    for grand_slam in [GrandSlam::NoCapture, GrandSlam::CaptureAll] {
        check_against_retro(Rules {
            grand_slam,
            ..Rules::oware(5, 2)
        });
    }
}

/// Minimax over lines of play from `pos` (stores included): a move back to a position
/// of the line ends the game with the store margin standing. The final margin for the
/// player to move.
fn by_paths(game: &Game, pos: &Position, path: &mut Vec<(u128, [u8; 2])>) -> i32 {
    if pos.is_over() {
        return pos.store_margin();
    }
    path.push((pos.packed_board(), pos.stores()));
    let mut best = i32::MIN;
    for m in game.legal_moves(pos) {
        let (c, _) = game.sow(pos, m);
        let v = match path.contains(&(c.packed_board(), c.stores())) && !c.is_over() {
            true => c.store_margin(),
            false => by_paths(game, &c, path),
        };
        best = best.max(match c.side_to_move() == pos.side_to_move() {
            true => v,
            false => -v,
        });
    }
    path.pop();
    best
}

#[test]
fn every_small_board_of_the_tiniest_boards_matches_the_path_search() {
    for rules in variants(2, 1).into_iter().chain(variants(2, 2)) {
        let game = Game::new(rules).unwrap();
        let k = game.capacity();
        let db = Egdb::build(&game, k, &|_, _, _| {}).unwrap();
        let ranker = Ranker::new(2 * game.houses(), k);
        // The path search grows fast with the seeds: boards of at most 5 seeds.
        for rank in 0..ranker.level_start(6) {
            let board = ranker.unrank(rank);
            let pos = Position::from_packed(game.houses(), board, [0, 0], Side::South);
            let pos = game.settle(pos).unwrap();
            let want = by_paths(&game, &pos, &mut Vec::new());
            assert_eq!(db.probe(&pos), Some(want), "{rules} board {board:x}");
        }
    }
}

#[test]
fn the_early_stop_is_refused() {
    let rules = Rules {
        early_stop: true,
        ..Rules::oware(3, 2)
    };
    let game = Game::new(rules).unwrap();
    assert_eq!(
        Egdb::build(&game, 6, &|_, _, _| {}).err(),
        Some(EgdbError::EarlyStop)
    );
}

/// A fresh directory for the files of a test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("kalah-cyclic-db-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn a_file_round_trips_and_serves_only_its_rules() {
    let dir = scratch("file");
    let path = dir.join("o3-9.egdb");
    let plan = FileBuild::plan(Rules::oware(3, 2), 9).unwrap();
    let built = plan
        .run(&path, &AtomicBool::new(false), &|_, _, _| {})
        .unwrap();
    let game = plan.game.clone();
    let loaded = Egdb::load(&path, &game).unwrap();
    assert_eq!(loaded.max_seeds(), 9);
    assert_eq!(loaded.bytes().len(), built.db.bytes().len());
    for (a, b) in loaded.bytes().iter().zip(built.db.bytes()) {
        assert_eq!(a.load(Relaxed), b.load(Relaxed));
    }
    // The other grand slam rule, and Kalah on the same board, are other databases.
    let slam = Game::new(Rules {
        grand_slam: GrandSlam::CaptureAll,
        ..*game.rules()
    })
    .unwrap();
    assert!(matches!(
        Egdb::load(&path, &slam),
        Err(EgdbError::WrongGame { .. })
    ));
    let kalah = Game::new(Rules::kalah(3, 3)).unwrap();
    assert!(matches!(
        Egdb::load(&path, &kalah),
        Err(EgdbError::WrongGame { .. })
    ));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_damaged_file_is_refused() {
    let dir = scratch("damage");
    let path = dir.join("o3-8.egdb");
    let plan = FileBuild::plan(Rules::oware(3, 2), 8).unwrap();
    plan.run(&path, &AtomicBool::new(false), &|_, _, _| {})
        .unwrap();
    let good = std::fs::read(&path).unwrap();
    // A value, the grand slam byte of the header, the family byte, a truncated file.
    let mut cases = Vec::new();
    let mut value = good.clone();
    let last = value.len() - 1;
    value[last] ^= 1;
    cases.push(value);
    for at in [20, 19] {
        let mut header = good.clone();
        header[at] ^= 1;
        cases.push(header);
    }
    cases.push(good[..good.len() - 1].to_vec());
    for bad in cases {
        std::fs::write(&path, &bad).unwrap();
        let err = Egdb::load(&path, &plan.game).err();
        assert!(
            matches!(
                err,
                Some(EgdbError::Corrupt { .. }) | Some(EgdbError::WrongGame { .. })
            ),
            "{err:?}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_interrupted_build_resumes_from_its_finished_levels() {
    let dir = scratch("resume");
    let path = dir.join("o3-10.egdb");
    let plan = FileBuild::plan(Rules::oware(3, 2), 10).unwrap();
    let cancel = AtomicBool::new(false);
    let stop_at_six = |level: usize, _: u64, _: u64| {
        if level == 6 {
            cancel.store(true, Relaxed);
        }
    };
    assert!(matches!(
        plan.run(&path, &cancel, &stop_at_six),
        Err(EgdbError::Cancelled)
    ));
    assert!(!path.exists() && partial_path(&path).exists());
    assert_eq!(plan.resumes(&path), Some(partial_path(&path)));
    let resumed = plan
        .run(&path, &AtomicBool::new(false), &|_, _, _| {})
        .unwrap();
    assert_eq!(resumed.resumed, 6);
    assert!(path.exists() && !partial_path(&path).exists());
    let whole = Egdb::build(&plan.game, 10, &|_, _, _| {}).unwrap();
    for (a, b) in resumed.db.bytes().iter().zip(whole.bytes()) {
        assert_eq!(a.load(Relaxed), b.load(Relaxed));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn ethiopian_files_build_and_hold_the_values_built_in_memory() {
    let plan = FileBuild::plan(Rules::ethiopian(3, 2), 12).unwrap();
    let dir = scratch("ethiopian");
    let path = dir.join("e3-12.egdb");
    let built = plan
        .run(&path, &AtomicBool::new(false), &|_, _, _| {})
        .unwrap();
    assert_eq!(built.db.rules().family, Family::Ethiopian);
    let game = Game::new(Rules::ethiopian(3, 2)).unwrap();
    let whole = Egdb::build(&game, 12, &|_, _, _| {}).unwrap();
    let loaded = Egdb::load(&path, &game).unwrap();
    for (a, b) in loaded.bytes().iter().zip(whole.bytes()) {
        assert_eq!(a.load(Relaxed), b.load(Relaxed));
    }
    let _ = std::fs::remove_dir_all(&dir);
}
