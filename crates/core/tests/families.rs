//! The rules of the General, Egyptian and Nigerian families of *Este tablero* (docs/rules.md
//! §5), one named test per rule, each board worked out by hand from the rule text, and
//! the relay's end: no Nigerian sowing goes on forever.

use crate::common;

use common::reference::RefBoard;
use common::{notation, Rng};
use kalah_core::notation::play_moves;
use kalah_core::{Capture, End, Family, Game, Leftovers, Position, Preset, Rules, Sowing};

fn game(rules: Rules) -> Game {
    Game::new(rules).unwrap()
}

/// Sows house `house` (0-based) of the mover in `text` and returns the result.
fn sow(rules: Rules, text: &str, house: usize) -> (Position, Sowing) {
    let game = game(rules);
    let pos = game.settle(text.parse().unwrap()).unwrap();
    assert!(!pos.is_over(), "{text} should still be running");
    game.try_play(&pos, house).unwrap()
}

#[test]
fn presets_of_seed_001() {
    let general = Preset::General.rules(6, 4);
    assert_eq!(general, Rules::general(6, 4));
    assert_eq!(general.family, Family::General);
    assert_eq!(
        (general.end, general.leftovers),
        (End::RowEmpty, Leftovers::Discard)
    );
    // Egyptian is Kalah, its capture read as empty capture.
    let egyptian = Preset::Egyptian.rules(6, 4);
    assert_eq!(
        egyptian,
        Rules {
            capture: Capture::Empty,
            ..Rules::kalah(6, 4)
        }
    );
    let nigerian = Preset::Nigerian.rules(6, 4);
    assert_eq!(nigerian.family, Family::Nigerian);
    assert_eq!(
        (nigerian.end, nigerian.leftovers),
        (End::MoverStuck, Leftovers::Discard)
    );
    assert_eq!(
        nigerian.to_string(),
        "Nigerian(6,4) capture=fours end=mover-stuck leftovers=discard"
    );
    assert_eq!(
        general.to_string(),
        "General(6,4) capture=none end=row-empty leftovers=discard"
    );
}

#[test]
fn families_without_the_capture_option_refuse_it() {
    for rules in [Rules::general(6, 4), Rules::nigerian(6, 4)] {
        let empty = Rules {
            capture: Capture::Empty,
            ..rules
        };
        let err = Game::new(empty).err().expect("refused").to_string();
        assert!(err.contains("no capture option"), "{err}");
    }
}

#[test]
fn general_last_seed_in_store_gives_no_extra_turn() {
    // Bin 3 holds 4: the last seed lands in South's store, and North moves next.
    let (next, how) = sow(Rules::general(6, 4), "4,4,4,4,4,4,0,4,4,4,4,4,4,0:S", 2);
    assert_eq!(how, Sowing::Passed);
    assert_eq!(next.to_string(), "4,4,0,5,5,5,1,4,4,4,4,4,4,0:N");
}

#[test]
fn general_last_seed_in_empty_own_house_captures_nothing() {
    // Bin 1's seed lands in the empty bin 2, opposite bin 6 holding 1: Kalah captures
    // both, General leaves them.
    let text = "1,0,1,3,1,1,1,3:S";
    let (kalah, _) = sow(Rules::kalah(3, 2), text, 0);
    assert_eq!(kalah.to_string(), "0,0,1,5,1,0,1,3:N");
    let (general, how) = sow(Rules::general(3, 2), text, 0);
    assert_eq!(how, Sowing::Passed);
    assert_eq!(general.to_string(), "0,1,1,3,1,1,1,3:N");
}

#[test]
fn general_game_ends_with_the_seeds_left_lost() {
    // Kalah(2,1) under General rules: 2 (store), 5 (store), 1 (no capture), 4, 2 (store).
    // South's row is then empty: the game is over and North's last seed is not counted.
    let game = game(Rules::general(2, 1));
    let (pos, _) = play_moves(&game, game.start(), "2,5,1,4,2").unwrap();
    assert!(pos.is_over());
    assert_eq!(pos.absolute_counts(), vec![0, 0, 2, 0, 0, 1]);
    assert_eq!(pos.score(), 1);
    let kept: u32 = pos.absolute_counts().iter().map(|&c| c as u32).sum();
    assert_eq!(kept, 3, "one seed of four lost");
}

#[test]
fn nigerian_sowing_drops_a_seed_in_both_stores() {
    // Bin 6 holds 3 on an empty board but for bin 13: South's store, then bins 8 and 9;
    // bin 9 was empty: the turn ends.
    let (next, how) = sow(Rules::nigerian(6, 1), "0,0,0,0,0,3,0,0,0,0,0,0,1,0:S", 5);
    assert_eq!(how, Sowing::Passed);
    assert_eq!(next.to_string(), "0,0,0,0,0,0,1,1,1,0,0,0,1,0:N");
    let (next, _) = sow(Rules::nigerian(6, 1), "0,0,0,0,0,0,0,0,0,0,0,0,3,0:N", 5);
    // North's bin 13: North's store, bin 1, bin 2.
    assert_eq!(next.to_string(), "1,1,0,0,0,0,0,0,0,0,0,0,0,1:S");
}

#[test]
fn nigerian_relay_crosses_both_stores_and_captures_a_four_on_each_side() {
    // South sows bin 6 (3 seeds): South's store +1; bin 8 reaches 4 and North takes it;
    // the last seed makes bin 9 hold 3: relay with those 3 to bins 10, 11, 12; bin 12
    // now holds 5: relay with 5 to bin 13, North's store, bin 1 (reaches 4: South takes
    // it), bin 2, and bin 3, which was empty: the turn ends.
    let (next, how) = sow(Rules::nigerian(6, 4), "3,0,0,0,0,3,0,3,2,0,0,4,1,0:S", 5);
    assert_eq!(how, Sowing::Passed);
    assert_eq!(next.to_string(), "0,1,1,0,0,0,5,0,0,1,1,0,2,5:N");
}

#[test]
fn nigerian_turn_ends_when_the_last_seed_makes_a_four() {
    // Bin 1's 2 seeds: bin 2 and bin 3; bin 3 reaches 4 and South takes it.
    let (next, how) = sow(Rules::nigerian(3, 2), "2,0,3,0,1,1,1,0:S", 0);
    assert_eq!(how, Sowing::Passed);
    assert_eq!(next.to_string(), "0,1,0,4,1,1,1,0:N");
    // The four is the opponent's house: North takes it.
    let (next, _) = sow(Rules::nigerian(3, 2), "0,0,2,0,3,1,1,0:S", 2);
    assert_eq!(next.to_string(), "0,0,0,1,0,1,1,4:N");
}

#[test]
fn nigerian_houses_holding_four_before_the_move_are_not_captured() {
    // Every house starts with 4, and a house that gets a seed then holds 5: none is
    // captured by holding 4 untouched.
    let game = game(Rules::nigerian(6, 4));
    let start = game.start();
    assert_eq!(start.seeds_in_houses(), 48);
    let (next, _) = game.try_play(&start, 5).unwrap();
    // Bin 6: South's store, bins 8, 9, 10 (each 5); bin 10 relays 5: bins 11, 12, 13
    // (each 5), North's store, bin 1 (5), and bin 1 relays 5: bins 2..5 (5, 5, 5, 5)
    // and bin 6, which was empty: the turn ends.
    assert_eq!(next.to_string(), "0,5,5,5,5,1,1,5,5,0,5,5,5,1:N");
}

#[test]
fn nigerian_relay_from_a_lap_of_the_board() {
    // Bin 1 holds 15 on 3 houses (8 places): one lap gives every place a seed (bin 2 and
    // bin 3 reach 4 on it: South takes them; bins 5 and 6 reach 2 and 1), then 7 more:
    // bins 2, 3 (1 each), South's store, bins 5, 6, 7 (3, 2, 2), North's store; the
    // last seed is in North's store: the turn ends.
    let (next, how) = sow(Rules::nigerian(3, 5), "15,3,3,0,1,0,0,0:S", 0);
    assert_eq!(how, Sowing::Passed);
    assert_eq!(next.to_string(), "1,1,1,10,3,2,2,2:N");
}

#[test]
fn nigerian_game_ends_when_the_mover_has_no_seeds_and_the_rest_is_lost() {
    // South's last seed goes to South's store; North has none: the game is over and
    // South's seeds in bin 1 are not counted.
    let (next, how) = sow(Rules::nigerian(3, 2), "3,0,1,5,0,0,0,3:S", 2);
    assert_eq!(how, Sowing::GameOver);
    assert!(next.is_over());
    assert_eq!(next.score(), 3);
}

#[test]
fn nigerian_a_turn_is_one_sowing_in_the_notation() {
    let game = game(Rules::nigerian(6, 4));
    let (pos, _) = play_moves(&game, game.start(), "1,8").unwrap();
    assert_eq!(pos.side_to_move(), kalah_core::Side::South);
    // There is never an extra turn to continue a turn with.
    assert!(play_moves(&game, game.start(), "1-2").is_err());
}

/// Every sowing of every board of 2 houses with up to 24 seeds, of 3 houses with up to 14
/// and of 4 with up to 10, and of random boards of every size with up to 255 seeds, ends
/// (the reference stops a relay after 100 000 steps), and the fast engine agrees with the
/// reference on each. docs/rules.md §5.4 says why: a relay step either passes a store or
/// captures (seeds leave the houses) or moves its seeds forward within one row.
#[test]
fn nigerian_relay_always_ends() {
    let mut checked = 0;
    for (h, max) in [(2usize, 24u8), (3, 14), (4, 10)] {
        let rules = Rules::nigerian(h as u8, 8);
        let game = game(rules);
        let mut houses = vec![0u8; 2 * h];
        checked += every_board(&game, &rules, &mut houses, 0, max);
    }
    let mut rng = Rng::new(7);
    for _ in 0..4000 {
        let h = 1 + rng.below(8);
        let rules = Rules::nigerian(h as u8, (255 / (2 * h)) as u8);
        let game = game(rules);
        let (counts, _) = common::random_counts(&mut rng, h, game.capacity());
        checked += compare_every_sowing(&game, &rules, &counts);
    }
    assert!(checked > 100_000, "only {checked} sowings");
}

/// Fills `houses[i..]` in every way with at most `left` seeds in all, and compares every
/// sowing of South on each board (stores empty).
fn every_board(game: &Game, rules: &Rules, houses: &mut [u8], i: usize, left: u8) -> usize {
    if i == houses.len() {
        let h = houses.len() / 2;
        let mut counts = houses[..h].to_vec();
        counts.push(0);
        counts.extend_from_slice(&houses[h..]);
        counts.push(0);
        return compare_every_sowing(game, rules, &counts);
    }
    let mut n = 0;
    for c in 0..=left {
        houses[i] = c;
        n += every_board(game, rules, houses, i + 1, left - c);
    }
    houses[i] = 0;
    n
}

/// Sows every house of South on `counts` with both implementations and compares.
fn compare_every_sowing(game: &Game, rules: &Rules, counts: &[u8]) -> usize {
    let text = notation(counts, kalah_core::Side::South);
    let pos: Position = text.parse().unwrap();
    let reference = RefBoard::from_counts(counts, kalah_core::Side::South);
    let mut n = 0;
    for j in pos.moves() {
        let (next, _) = game.sow(&pos, j);
        let (want, _) = reference.sow(rules, j);
        assert_eq!(next.absolute_counts(), want.counts(), "{text} house {j}");
        n += 1;
    }
    n
}
