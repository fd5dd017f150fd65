//! Differential tests: the fast engine (`Game::legal_moves`, `Game::try_play`,
//! `Game::sow`, `kalah_core::perft`) against the simple reference implementation in
//! `common/reference.rs`, for every rule option of every family and board sizes from 1 to
//! 8 houses.

use crate::common;

use common::reference::{self, Outcome, RefBoard};
use common::{all_boards, all_rules, random_position, settled_start, Rng, PLAYOUT_SOWINGS};
use kalah_core::{Family, Game, MoveError, Position, Sowing, CLOCKWISE};

/// Checks that `pos` and `reference` are the same board, side to move and game state.
fn assert_same(pos: &Position, reference: &RefBoard, context: &dyn Fn() -> String) {
    assert_eq!(
        pos.absolute_counts(),
        reference.counts(),
        "board differs: {}",
        context()
    );
    assert_eq!(
        pos.side_to_move(),
        reference.to_move,
        "side to move differs: {}",
        context()
    );
    assert_eq!(
        pos.is_over(),
        reference.over,
        "game-over differs: {}",
        context()
    );
    assert_eq!(
        pos.total_seeds(),
        reference.total,
        "total differs: {}",
        context()
    );
}

fn same_outcome(how: Sowing, outcome: Outcome) -> bool {
    matches!(
        (how, outcome),
        (Sowing::Passed, Outcome::Passed)
            | (Sowing::ExtraTurn, Outcome::ExtraTurn)
            | (Sowing::GameOver, Outcome::GameOver)
    )
}

/// Compares every legal sowing of `pos`, and checks that `Game::try_play` refuses every
/// other move with the family's reason; returns how many sowings were compared.
fn compare_all_moves(game: &Game, pos: &Position, reference: &RefBoard) -> usize {
    let rules = game.rules();
    let fast_moves: Vec<usize> = game.legal_moves(pos).collect();
    assert_eq!(
        fast_moves,
        reference.legal_moves(rules),
        "legal moves differ in {} under {rules}",
        reference.notation(),
    );
    let h = game.houses();
    for mv in (0..h).chain(CLOCKWISE..CLOCKWISE + h) {
        if fast_moves.contains(&mv) {
            continue;
        }
        let j = mv % CLOCKWISE;
        let want = if mv >= CLOCKWISE && rules.family != Family::Ethiopian {
            MoveError::NoDirection(rules.family)
        } else if pos.mover_house(j) == 0 {
            MoveError::EmptyHouse { house: j }
        } else if rules.family == Family::Ethiopian {
            MoveError::SingleSeed { house: j }
        } else {
            MoveError::MustFeed { house: j }
        };
        assert_eq!(
            game.try_play(pos, mv).err(),
            Some(want),
            "move {mv} of {} under {rules}",
            reference.notation()
        );
    }
    for &j in &fast_moves {
        let (next, how) = game.sow(pos, j);
        let (want, outcome) = reference.sow(game.rules(), j);
        let context = || {
            format!(
                "sowing house {j} of {} under {}: fast {next}, reference {}",
                reference.notation(),
                game.rules(),
                want.notation()
            )
        };
        assert_same(&next, &want, &context);
        assert!(
            same_outcome(how, outcome),
            "{how:?} vs {outcome:?}: {}",
            context()
        );
    }
    fast_moves.len()
}

/// Plays a random game from the start (at most [`PLAYOUT_SOWINGS`] sowings), comparing
/// every legal move of every position.
fn random_playout(game: &Game, rng: &mut Rng) -> usize {
    let rules = game.rules();
    let (mut pos, mut reference) = settled_start(game);
    assert_same(&pos, &reference, &|| "start".to_string());
    let mut compared = 0;
    for _ in 0..PLAYOUT_SOWINGS {
        if pos.is_over() {
            break;
        }
        compared += compare_all_moves(game, &pos, &reference);
        let moves: Vec<usize> = game.legal_moves(&pos).collect();
        let mv = rng.pick(&moves);
        pos = game.play_unchecked(&pos, mv);
        reference = reference.sow(rules, mv).0;
    }
    assert_eq!(reference.over, pos.is_over());
    compared
}

#[test]
fn sowing_matches_reference_in_random_playouts() {
    let mut rng = Rng::new(1);
    let mut compared = 0;
    for (h, s) in all_boards() {
        for rules in all_rules(h, s) {
            let game = Game::new(rules).unwrap();
            for _ in 0..6 {
                compared += random_playout(&game, &mut rng);
            }
        }
    }
    assert!(compared > 100_000, "only {compared} sowings compared");
}

#[test]
fn sowing_matches_reference_on_arbitrary_boards() {
    let mut rng = Rng::new(2);
    let mut compared = 0;
    let mut running = 0;
    for (h, s) in all_boards() {
        for rules in all_rules(h, s) {
            let game = Game::new(rules).unwrap();
            for _ in 0..40 {
                let (pos, reference) = random_position(&mut rng, &game);
                // `Game::settle` must end a game that is already over, as the reference does.
                assert_same(&pos, &reference, &|| {
                    format!("settling {} under {rules}", reference.notation())
                });
                if !pos.is_over() {
                    running += 1;
                    compared += compare_all_moves(&game, &pos, &reference);
                }
            }
        }
    }
    assert!(running > 5_000, "only {running} running boards");
    assert!(compared > 10_000, "only {compared} sowings compared");
}

#[test]
fn perft_matches_reference_for_every_rule_option() {
    // (houses, seeds, depth): small enough for a debug build.
    for (h, s, depth) in [
        (1, 3, 12),
        (2, 2, 9),
        (3, 3, 6),
        (4, 2, 5),
        (6, 4, 4),
        (8, 1, 4),
    ] {
        for rules in all_rules(h, s) {
            let game = Game::new(rules).unwrap();
            let start = RefBoard::start(h as usize, s);
            for d in 0..=depth {
                assert_eq!(
                    kalah_core::perft(&game, &game.start(), d),
                    reference::perft(&rules, &start, d),
                    "perft({d}) under {rules}"
                );
            }
        }
    }
}

#[test]
fn perft_matches_reference_from_random_boards() {
    let mut rng = Rng::new(3);
    for (h, s) in [(2, 5), (3, 4), (4, 6), (5, 3), (6, 6)] {
        for rules in all_rules(h, s) {
            let game = Game::new(rules).unwrap();
            for _ in 0..3 {
                let (pos, reference) = random_position(&mut rng, &game);
                assert_eq!(
                    kalah_core::perft(&game, &pos, 3),
                    reference::perft(&rules, &reference, 3),
                    "perft(3) of {pos} under {rules}"
                );
            }
        }
    }
}

#[test]
fn divide_adds_up_to_perft() {
    // Kalah and Oware sow the 6 houses; Ethiopian each house both ways (`CLOCKWISE + j`).
    for (rules, moves) in [
        (kalah_core::Rules::kalah(6, 4), (0..6).collect::<Vec<_>>()),
        (kalah_core::Rules::oware(6, 4), (0..6).collect()),
        (
            kalah_core::Rules::ethiopian(6, 4),
            (0..6).chain(CLOCKWISE..CLOCKWISE + 6).collect(),
        ),
    ] {
        let game = Game::new(rules).unwrap();
        let start = game.start();
        let reference = RefBoard::start(6, 4);
        let parts = kalah_core::divide(&game, &start, 4);
        let firsts: Vec<usize> = parts.iter().map(|&(mv, _)| mv).collect();
        assert_eq!(firsts, moves, "{rules}");
        for (mv, n) in &parts {
            let child = reference.sow(&rules, *mv).0;
            assert_eq!(
                *n,
                reference::perft(&rules, &child, 3),
                "move {mv} under {rules}"
            );
        }
        let sum: u64 = parts.iter().map(|(_, n)| n).sum();
        assert_eq!(sum, reference::perft(&rules, &reference, 4), "{rules}");
    }
}
