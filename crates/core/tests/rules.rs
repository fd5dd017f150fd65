//! The rules of Kalah and each of its options, one named test per rule, each with its
//! expected board worked out by hand, and the worked examples of *Kalah is played on a
//! board* (docs/rules.md §6: 6 houses, 0-based places).

use kalah_core::notation::play_moves;
use kalah_core::{Capture, End, Game, Leftovers, Position, Rules, Side, Sowing};

fn game(rules: Rules) -> Game {
    Game::new(rules).unwrap()
}

fn position(game: &Game, text: &str) -> Position {
    game.settle(text.parse().unwrap()).unwrap()
}

/// Sows house `house` (0-based) of the mover in `text` and returns the result.
fn sow(rules: Rules, text: &str, house: usize) -> (Position, Sowing) {
    let game = game(rules);
    let pos = position(&game, text);
    assert!(!pos.is_over(), "{text} should still be running");
    game.try_play(&pos, house).unwrap()
}

/// The absolute counts as a vector, for comparing finished games.
fn counts(text: &str) -> Vec<u8> {
    text.split(',').map(|c| c.parse().unwrap()).collect()
}

const SIX_SIX: &str = "6,6,6,6,6,6,0,6,6,6,6,6,6,0:S";

#[test]
fn start_position_of_seed_003() {
    let game = game(Rules::kalah(6, 6));
    assert_eq!(game.start().to_string(), SIX_SIX);
}

#[test]
fn sowing_house_4_of_six_seeds_passes_the_store() {
    // Houses 0..3 stay 6, house 4 = 0, house 5 = 7, store 6 = 1, houses 7..10 = 7,
    // houses 11, 12 = 6; North to move.
    let (next, how) = sow(Rules::kalah(6, 6), SIX_SIX, 4);
    assert_eq!(how, Sowing::Passed);
    assert_eq!(next.to_string(), "6,6,6,6,0,7,1,7,7,7,7,6,6,0:N");
    assert_eq!(next.side_to_move(), Side::North);
}

#[test]
fn extra_turn_when_last_seed_in_store() {
    // House 0 = 0, houses 1..5 = 7, store = 1; South moves again.
    let (next, how) = sow(Rules::kalah(6, 6), SIX_SIX, 0);
    assert_eq!(how, Sowing::ExtraTurn);
    assert_eq!(next.to_string(), "0,7,7,7,7,7,1,6,6,6,6,6,6,0:S");
}

#[test]
fn turn_1_2_is_two_sowings_by_south() {
    // The published notation: bin 1 (house 0) gives an extra turn, then bin 2 (house 1,
    // now 7 seeds): houses 2..5 = 8, store = 2, houses 7, 8 = 7.
    let game = game(Rules::kalah(6, 6));
    let (pos, sowings) = play_moves(&game, game.start(), "1-2").unwrap();
    assert_eq!(sowings, vec![0, 1]);
    assert_eq!(pos.to_string(), "0,0,8,8,8,8,2,7,7,6,6,6,6,0:N");
}

#[test]
fn empty_row_gives_north_its_seeds() {
    // South's last seed (house 5) goes to the store: South's row is empty, the game is
    // over, and North's 30 remaining seeds go to North's store.
    let before = "0,0,0,0,0,1,30,5,5,5,5,5,5,5:S";
    for end in [End::RowEmpty, End::MoverStuck] {
        let rules = Rules {
            end,
            ..Rules::kalah(6, 6)
        };
        let (next, how) = sow(rules, before, 5);
        assert_eq!(how, Sowing::GameOver, "{end}");
        assert!(next.is_over());
        assert_eq!(
            next.absolute_counts(),
            counts("0,0,0,0,0,0,31,0,0,0,0,0,0,35")
        );
        assert_eq!(next.score(), 31 - 35);
    }
}

#[test]
fn hand_entered_empty_row_is_settled_as_over() {
    let game = game(Rules::kalah(6, 6));
    let pos = position(&game, "0,0,0,0,0,0,31,5,5,5,5,5,5,5:N");
    assert!(pos.is_over());
    assert_eq!(
        pos.absolute_counts(),
        counts("0,0,0,0,0,0,31,0,0,0,0,0,0,35")
    );
}

#[test]
fn capture_needs_seeds_opposite() {
    // House 0's single seed lands in the empty house 1, opposite house 11 (12 - 1).
    let (next, how) = sow(Rules::kalah(6, 4), "1,0,0,0,0,2,0,4,4,4,4,5,4,0:S", 0);
    assert_eq!(how, Sowing::Passed);
    assert_eq!(next.to_string(), "0,0,0,0,0,2,6,4,4,4,4,0,4,0:N");
    // With house 11 empty nothing is captured and the seed stays.
    let (next, how) = sow(Rules::kalah(6, 4), "1,0,0,0,0,2,0,4,4,4,4,0,4,0:S", 0);
    assert_eq!(how, Sowing::Passed);
    assert_eq!(next.to_string(), "0,1,0,0,0,2,0,4,4,4,4,0,4,0:N");
}

#[test]
fn capture_by_north_takes_souths_house() {
    // North's house 8 (North's second) faces South's house 4 (12 - 8).
    let (next, _) = sow(Rules::kalah(6, 4), "1,1,1,1,3,1,0,1,0,2,2,2,2,0:N", 0);
    assert_eq!(next.to_string(), "1,1,1,1,0,1,0,0,0,2,2,2,2,4:S");
}

#[test]
fn no_capture_in_a_house_that_was_not_empty() {
    let (next, _) = sow(Rules::kalah(6, 4), "1,1,0,0,0,2,0,4,4,4,4,5,4,0:S", 0);
    assert_eq!(next.to_string(), "0,2,0,0,0,2,0,4,4,4,4,5,4,0:N");
}

#[test]
fn no_capture_in_the_opponents_row() {
    // The last seed falls in North's empty house 7: nothing happens.
    let (next, how) = sow(Rules::kalah(6, 4), "1,0,0,0,0,2,0,0,4,4,4,4,4,0:S", 5);
    assert_eq!(how, Sowing::Passed);
    assert_eq!(next.to_string(), "1,0,0,0,0,0,1,1,4,4,4,4,4,0:N");
}

#[test]
fn empty_capture_takes_the_single_seed() {
    let rules = Rules {
        capture: Capture::Empty,
        ..Rules::kalah(6, 4)
    };
    let (next, how) = sow(rules, "1,0,0,0,0,2,0,4,4,4,4,0,4,0:S", 0);
    assert_eq!(how, Sowing::Passed);
    assert_eq!(next.to_string(), "0,0,0,0,0,2,1,4,4,4,4,0,4,0:N");
    // With seeds opposite it captures them too, as the standard rule does.
    let (next, _) = sow(rules, "1,0,0,0,0,2,0,4,4,4,4,5,4,0:S", 0);
    assert_eq!(next.to_string(), "0,0,0,0,0,2,6,4,4,4,4,0,4,0:N");
}

#[test]
fn lap_of_13_refills_the_starting_house() {
    // 14 seeds from house 0: houses 1..5, the store, houses 7..12 (12 seeds), North's
    // store skipped, then house 0 again (the 13th) and house 1 (the 14th).
    let (next, how) = sow(Rules::kalah(6, 4), "14,0,0,0,0,0,0,1,1,1,1,1,1,0:S", 0);
    assert_eq!(how, Sowing::Passed);
    assert_eq!(next.to_string(), "1,2,1,1,1,1,1,2,2,2,2,2,2,0:N");
}

#[test]
fn lap_ending_in_the_emptied_starting_house_captures() {
    // 13 seeds from house 0: the last one lands in house 0, emptied by this sowing, so it
    // holds exactly one seed and captures house 12 (which got a seed on the way: 2).
    let (next, how) = sow(Rules::kalah(6, 4), "13,0,0,0,0,0,0,1,1,1,1,1,1,0:S", 0);
    assert_eq!(how, Sowing::Passed);
    assert_eq!(next.to_string(), "0,1,1,1,1,1,4,2,2,2,2,2,0,0:N");
}

#[test]
fn two_laps_give_every_place_but_the_opponents_store_two_seeds() {
    // 26 = 2 * 13 seeds from house 2: every one of the 13 places gets two, the last lands
    // in house 2 itself, which then holds 2 (no capture).
    let (next, how) = sow(Rules::kalah(6, 4), "0,0,26,0,0,0,0,0,0,0,0,0,1,3:S", 2);
    assert_eq!(how, Sowing::Passed);
    assert_eq!(next.to_string(), "2,2,2,2,2,2,2,2,2,2,2,2,3,3:N");
}

#[test]
fn opponent_store_is_skipped() {
    // South: house 5's 9 seeds go to the store, houses 7..12, then houses 0 and 1.
    let (next, _) = sow(Rules::kalah(6, 4), "0,1,0,0,0,9,0,1,1,1,1,1,1,5:S", 5);
    assert_eq!(next.to_string(), "1,2,0,0,0,0,1,2,2,2,2,2,2,5:N");
    // North: house 12's 9 seeds go to North's store, houses 0..5, then houses 7 and 8.
    let (next, _) = sow(Rules::kalah(6, 4), "1,1,1,1,1,1,5,0,1,0,0,0,9,0:N", 5);
    assert_eq!(next.to_string(), "2,2,2,2,2,2,5,1,2,0,0,0,0,1:S");
}

#[test]
fn mover_stuck_lets_opponent_continue() {
    // South's last two seeds: one to the store, one to North's house 7. South's row is empty.
    let before = "0,0,0,0,0,2,10,4,4,4,4,4,4,10:S";
    // Standard end: the game is over and North adds its 25 seeds.
    let (next, how) = sow(Rules::kalah(6, 4), before, 5);
    assert_eq!(how, Sowing::GameOver);
    assert_eq!(
        next.absolute_counts(),
        counts("0,0,0,0,0,0,11,0,0,0,0,0,0,35")
    );
    // Mover-stuck: North is not stuck, so North moves on.
    let rules = Rules {
        end: End::MoverStuck,
        ..Rules::kalah(6, 4)
    };
    let (next, how) = sow(rules, before, 5);
    assert_eq!(how, Sowing::Passed);
    assert_eq!(next.to_string(), "0,0,0,0,0,0,11,5,4,4,4,4,4,10:N");
    let game = game(rules);
    // North's house 12 (4 seeds) feeds South's row: South may move again.
    let (after, how) = game.try_play(&next, 5).unwrap();
    assert_eq!(how, Sowing::Passed);
    assert_eq!(after.to_string(), "1,1,1,0,0,0,11,5,4,4,4,4,0,11:S");
    // North's house 7 (5 seeds) stays in North's row: South is stuck, the game is over and
    // North adds its own 25 seeds.
    let (after, how) = game.try_play(&next, 0).unwrap();
    assert_eq!(how, Sowing::GameOver);
    assert_eq!(
        after.absolute_counts(),
        counts("0,0,0,0,0,0,11,0,0,0,0,0,0,35")
    );
}

#[test]
fn early_stop_at_majority() {
    // South's house 4 seed lands in the empty house 5 and captures house 7's 4 seeds:
    // South's store reaches 27 of 48, a majority.
    let before = "1,0,0,0,1,0,22,4,4,4,4,4,4,0:S";
    let rules = Rules {
        early_stop: true,
        ..Rules::kalah(6, 4)
    };
    let (next, how) = sow(rules, before, 4);
    assert_eq!(how, Sowing::GameOver);
    // The seeds left in the houses are not counted.
    assert_eq!(
        next.absolute_counts(),
        counts("0,0,0,0,0,0,27,0,0,0,0,0,0,0")
    );
    assert_eq!(next.total_seeds(), 48);
    // Without the option the game goes on.
    let (next, how) = sow(Rules::kalah(6, 4), before, 4);
    assert_eq!(how, Sowing::Passed);
    assert_eq!(next.to_string(), "1,0,0,0,0,0,27,0,4,4,4,4,4,0:N");
}

#[test]
fn early_stop_needs_more_than_half() {
    // 24 of 48 is not a majority.
    let rules = Rules {
        early_stop: true,
        ..Rules::kalah(6, 4)
    };
    let (next, how) = sow(rules, "1,0,0,0,1,0,19,4,4,4,4,4,4,3:S", 4);
    assert_eq!(how, Sowing::Passed);
    assert_eq!(next.to_string(), "1,0,0,0,0,0,24,0,4,4,4,4,4,3:N");
}

#[test]
fn discard_leftovers() {
    // The game of `mover_stuck_lets_opponent_continue` under the standard end, but the
    // 25 seeds left in North's row are discarded instead of going to North's store.
    let rules = Rules {
        leftovers: Leftovers::Discard,
        ..Rules::kalah(6, 4)
    };
    let (next, how) = sow(rules, "0,0,0,0,0,2,10,4,4,4,4,4,4,10:S", 5);
    assert_eq!(how, Sowing::GameOver);
    assert_eq!(
        next.absolute_counts(),
        counts("0,0,0,0,0,0,11,0,0,0,0,0,0,10")
    );
    assert_eq!(next.score(), 1);
}
