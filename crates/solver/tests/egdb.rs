//! Endgame databases: every entry of small databases against a plain minimax, for every
//! rule option the database supports; files that round-trip, resume, and are refused
//! for other rules, another board, or damage.

use std::collections::HashMap;
use std::path::PathBuf;

use kalah_core::{Capture, End, Game, Leftovers, Position, Ranker, Rules, Side};
use kalah_solver::egdb::{file::partial_path, Egdb, EgdbError, Residence};

/// Every combination of the options the database supports (the early stop excluded), in
/// every family.
fn all_rules(houses: u8) -> Vec<Rules> {
    // Enough seeds for any board of the test.
    Rules::every_variant(houses, 8)
        .into_iter()
        .filter(|r| !r.early_stop)
        .collect()
}

/// The value for the mover by plain negamax over every sowing, memoised on the board.
fn minimax(game: &Game, pos: &Position, memo: &mut HashMap<u128, i32>) -> i32 {
    if pos.is_over() {
        return pos.store_margin();
    }
    let relative = if let Some(&v) = memo.get(&pos.packed_board()) {
        v
    } else {
        let mut best = i32::MIN;
        let bare = Position::from_packed(
            pos.houses_per_side(),
            pos.packed_board(),
            [0, 0],
            Side::South,
        );
        for j in bare.moves() {
            let child = game.play_unchecked(&bare, j);
            let v = minimax(game, &child, memo);
            best = best.max(if child.side_to_move() == bare.side_to_move() {
                v
            } else {
                -v
            });
        }
        memo.insert(pos.packed_board(), best);
        best
    };
    pos.store_margin() + relative
}

/// Checks every entry of a database of `k` seeds on `houses` houses, for all options.
fn check_every_entry(houses: u8, k: usize) {
    for rules in all_rules(houses) {
        let game = Game::new(rules).unwrap();
        let db = Egdb::build(&game, k, &|_, _, _| {}).unwrap();
        assert_eq!(db.max_seeds(), k);
        let ranker = Ranker::new(2 * houses as usize, k);
        let mut memo = HashMap::new();
        for rank in 0..ranker.count() as u64 {
            let board = ranker.unrank(rank);
            let pos = Position::from_packed(houses as usize, board, [0, 0], Side::South);
            // A board whose game is over is valued by the end rule, as the rules say.
            let settled = game.settle(pos).unwrap();
            let want = minimax(&game, &settled, &mut memo);
            assert_eq!(
                db.probe(&pos),
                Some(want),
                "{rules} board {pos} (rank {rank})"
            );
            if !settled.is_over() {
                // With stores, the value moves by the store margin only.
                let banked = Position::from_packed(houses as usize, board, [3, 1], Side::North);
                assert_eq!(db.probe(&banked), Some(want + 2), "{rules} board {banked}");
            }
        }
    }
}

#[test]
fn every_entry_matches_minimax_on_one_house() {
    check_every_entry(1, 12);
}

#[test]
fn every_entry_matches_minimax_on_two_houses() {
    check_every_entry(2, 10);
}

#[test]
fn every_entry_matches_minimax_on_three_houses() {
    check_every_entry(3, 8);
}

#[test]
fn every_entry_matches_minimax_on_four_houses() {
    check_every_entry(4, 7);
}

#[test]
fn every_entry_matches_minimax_on_six_houses() {
    check_every_entry(6, 5);
}

#[test]
fn every_entry_matches_minimax_on_five_seven_and_eight_houses() {
    check_every_entry(5, 5);
    check_every_entry(7, 4);
    check_every_entry(8, 4);
}

#[test]
fn early_stop_is_refused() {
    for rules in all_rules(3) {
        let game = Game::new(Rules {
            early_stop: true,
            ..rules
        })
        .unwrap();
        assert_eq!(
            Egdb::build(&game, 4, &|_, _, _| {}).err(),
            Some(EgdbError::EarlyStop)
        );
    }
}

/// A fresh directory under the system's temporary directory.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("kalah-egdb-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn bytes_of(db: &Egdb) -> Vec<i8> {
    db.bytes()
        .iter()
        .map(|b| b.load(std::sync::atomic::Ordering::Relaxed))
        .collect()
}

#[test]
fn saved_file_loads_with_the_same_values() {
    let dir = scratch("roundtrip");
    let game = Game::new(Rules::kalah(4, 3)).unwrap();
    let db = Egdb::build(&game, 8, &|_, _, _| {}).unwrap();
    let path = dir.join("k8.egdb");
    db.save(&path).unwrap();
    let loaded = Egdb::load(&path, &game).unwrap();
    assert_eq!(loaded.max_seeds(), 8);
    assert_eq!(bytes_of(&loaded), bytes_of(&db));
    let copied = Egdb::load_as(&path, &game, Residence::Copied).unwrap();
    assert_eq!(bytes_of(&copied), bytes_of(&db));
    // Mapped if the system maps it with huge pages, else copied: the same values either way.
    let huge = Egdb::load_as(&path, &game, Residence::Huge).unwrap();
    assert_eq!(bytes_of(&huge), bytes_of(&db));
    // The seeds per house at the start do not matter: Kalah(4,5) uses it too.
    let five = Game::new(Rules::kalah(4, 5)).unwrap();
    let for_five = Egdb::load(&path, &five).unwrap();
    assert_eq!(for_five.rules(), five.rules());
    // A loaded (mapped) database keeps its values when a new file replaces its own.
    let empty = Game::new(Rules {
        capture: Capture::Empty,
        ..Rules::kalah(4, 3)
    })
    .unwrap();
    let other = Egdb::build(&empty, 8, &|_, _, _| {}).unwrap();
    assert_ne!(bytes_of(&other), bytes_of(&db));
    other.save(&path).unwrap();
    assert_eq!(bytes_of(&loaded), bytes_of(&db));
    assert_eq!(
        bytes_of(&Egdb::load(&path, &empty).unwrap()),
        bytes_of(&other)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn file_for_other_rules_or_board_is_refused() {
    let dir = scratch("refuse");
    let game = Game::new(Rules::kalah(4, 3)).unwrap();
    let path = dir.join("k6.egdb");
    Egdb::build(&game, 6, &|_, _, _| {})
        .unwrap()
        .save(&path)
        .unwrap();
    let others = [
        Rules {
            capture: Capture::Empty,
            ..Rules::kalah(4, 3)
        },
        Rules {
            end: End::MoverStuck,
            ..Rules::kalah(4, 3)
        },
        Rules {
            leftovers: Leftovers::Discard,
            ..Rules::kalah(4, 3)
        },
        Rules::kalah(5, 3),
    ];
    for rules in others {
        let other = Game::new(rules).unwrap();
        match Egdb::load(&path, &other) {
            Err(e @ EgdbError::WrongGame { .. }) => {
                let msg = e.to_string();
                assert!(
                    msg.contains("was built for 4 houses capture=standard"),
                    "{msg}"
                );
            }
            other => panic!("{rules}: expected WrongGame, got {:?}", other.err()),
        }
    }
    let early = Game::new(Rules {
        early_stop: true,
        ..Rules::kalah(4, 3)
    })
    .unwrap();
    assert_eq!(Egdb::load(&path, &early).err(), Some(EgdbError::EarlyStop));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn damaged_files_are_refused() {
    let dir = scratch("damage");
    let game = Game::new(Rules::kalah(3, 3)).unwrap();
    let path = dir.join("k8.egdb");
    Egdb::build(&game, 8, &|_, _, _| {})
        .unwrap()
        .save(&path)
        .unwrap();
    let good = std::fs::read(&path).unwrap();

    let mut flipped = good.clone();
    let last = flipped.len() - 1;
    flipped[last] ^= 1;
    std::fs::write(&path, &flipped).unwrap();
    assert!(matches!(
        Egdb::load(&path, &game),
        Err(EgdbError::Corrupt { .. })
    ));
    assert!(matches!(
        Egdb::load_as(&path, &game, Residence::Copied),
        Err(EgdbError::Corrupt { .. })
    ));

    std::fs::write(&path, &good[..good.len() - 5]).unwrap();
    assert!(matches!(
        Egdb::load(&path, &game),
        Err(EgdbError::Corrupt { .. })
    ));

    std::fs::write(&path, b"not a database").unwrap();
    assert!(matches!(
        Egdb::load(&path, &game),
        Err(EgdbError::NotADatabase { .. })
    ));

    let mut later = good.clone();
    later[8] = 99;
    std::fs::write(&path, &later).unwrap();
    assert!(matches!(
        Egdb::load(&path, &game),
        Err(EgdbError::Version { found: 99, .. })
    ));

    assert!(matches!(
        Egdb::load(&dir.join("missing.egdb"), &game),
        Err(EgdbError::Io { .. })
    ));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn interrupted_build_resumes_from_finished_levels() {
    let dir = scratch("resume");
    let game = Game::new(Rules {
        capture: Capture::Empty,
        ..Rules::kalah(4, 3)
    })
    .unwrap();
    let path = dir.join("k9.egdb");
    // A build that stopped after level 6: its partial file holds levels 0..=6, plus
    // some bytes of level 7 that never made it into the header.
    let early = dir.join("k6.egdb");
    Egdb::build_file(&game, 6, &early, &|_, _, _| {}).unwrap();
    let mut partial = std::fs::read(&early).unwrap();
    partial.extend_from_slice(&[7; 100]);
    std::fs::write(partial_path(&path), &partial).unwrap();

    let (db, resumed) = Egdb::build_file(&game, 9, &path, &|_, _, _| {}).unwrap();
    assert_eq!(resumed, 7);
    assert!(!partial_path(&path).exists());
    let fresh = Egdb::build(&game, 9, &|_, _, _| {}).unwrap();
    assert_eq!(bytes_of(&db), bytes_of(&fresh));
    assert_eq!(
        bytes_of(&Egdb::load(&path, &game).unwrap()),
        bytes_of(&fresh)
    );

    // A build can start from a smaller finished file: the same database, its levels
    // resumed; not from one as large as asked for, nor over an interrupted build.
    let grown = dir.join("k9-from-k6.egdb");
    assert_eq!(Egdb::start_from(&game, 9, &early, &grown), Ok(7));
    assert!(matches!(
        Egdb::start_from(&game, 9, &early, &grown),
        Err(EgdbError::FromRefused { .. })
    ));
    let (db, resumed) = Egdb::build_file(&game, 9, &grown, &|_, _, _| {}).unwrap();
    assert_eq!(resumed, 7);
    assert_eq!(bytes_of(&db), bytes_of(&fresh));
    assert_eq!(
        bytes_of(&Egdb::load(&grown, &game).unwrap()),
        bytes_of(&fresh)
    );
    assert!(matches!(
        Egdb::start_from(&game, 6, &early, &dir.join("k6-again.egdb")),
        Err(EgdbError::FromRefused { .. })
    ));
    let standard_rules = Game::new(Rules::kalah(4, 3)).unwrap();
    assert!(matches!(
        Egdb::start_from(&standard_rules, 9, &early, &dir.join("other.egdb")),
        Err(EgdbError::WrongGame { .. })
    ));

    // A partial file of other rules is not silently overwritten.
    std::fs::write(partial_path(&path), &partial).unwrap();
    let standard = Game::new(Rules::kalah(4, 3)).unwrap();
    assert!(matches!(
        Egdb::build_file(&standard, 9, &path, &|_, _, _| {}),
        Err(EgdbError::WrongGame { .. })
    ));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_analysis_reads_the_best_file_already_there_within_its_byte_cap() {
    use kalah_solver::{Database, Overrides};
    let dir = scratch("existing");
    let game = Game::new(Rules::kalah(4, 3)).unwrap();
    let (small, large) = (dir.join("k6.egdb"), dir.join("k8.egdb"));
    Egdb::build(&game, 6, &|_, _, _| {})
        .unwrap()
        .save(&small)
        .unwrap();
    Egdb::build(&game, 8, &|_, _, _| {})
        .unwrap()
        .save(&large)
        .unwrap();
    let size = |p: &PathBuf| std::fs::metadata(p).unwrap().len();
    let auto = Database::Auto {
        path: Some(dir.clone()),
        cache: None,
    };
    // Neither holds the 24 seeds of the start: the largest that fits the cap.
    assert_eq!(auto.existing_file(&game, 24, u64::MAX), Some(large.clone()));
    assert_eq!(
        auto.existing_file(&game, 24, size(&small)),
        Some(small.clone())
    );
    assert_eq!(auto.existing_file(&game, 24, size(&small) - 1), None);
    // A file for other rules or another board is never taken; nor is anything for a choice
    // other than the automatic one.
    let other = Game::new(Rules::kalah(5, 3)).unwrap();
    assert_eq!(auto.existing_file(&other, 30, u64::MAX), None);
    assert_eq!(Database::Build(6).existing_file(&game, 24, u64::MAX), None);
    // The overrides of an analysis: the file, mapped; none within a cap below it.
    let analysis = |cap: u64| Overrides {
        threads: Some(1),
        existing_only: Some(cap),
        ..Overrides::default()
    };
    std::env::set_var("KALAH_EGDB_PATH", &dir);
    std::env::set_var("KALAH_CACHE", "off");
    let config = analysis(u64::MAX).config(&game, 24, 1).unwrap();
    assert_eq!(config.database, Database::File(large.clone()));
    assert_eq!(config.residence, Residence::Mapped);
    let none = analysis(size(&small) - 1).config(&game, 24, 1).unwrap();
    assert_eq!(none.database, Database::None);
    // Asked for by name, a database is the one named, whatever the cap.
    let named = Overrides {
        egdb_seeds: Some(5),
        ..analysis(0)
    };
    assert_eq!(
        named.config(&game, 24, 1).unwrap().database,
        Database::Build(5)
    );
}
