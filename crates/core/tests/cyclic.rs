//! The rules of Ethiopian Kalah (*Este tablero*) and Oware (abapa, *Быстрый старт*), the
//! families whose positions can repeat (docs/rules.md §5.3, §5.5; the texts in §7): one
//! named test per rule, each board worked out by hand from the rule text, forced and
//! unforced cycles, and every sowing of every small board against the reference
//! implementation.
//!
//! Boards are in the absolute notation (docs/rules.md §1.2): on 6 houses, places 0..5 are
//! South's houses (bins 1..6), 6 South's store, 7..12 North's houses (bins 8..13, North's
//! first house is 7), 13 North's store. Moves are the engine's: house `j` of the mover
//! (0-based from their left) counter-clockwise, `CLOCKWISE + j` clockwise.

use crate::common;

use common::notation;
use common::reference::RefBoard;
use kalah_core::notation::{format_move, format_turn, play_moves};
use kalah_core::{
    Capture, End, Family, Game, GrandSlam, Leftovers, MoveError, Position, PositionError, Preset,
    Rules, RulesError, Side, Sowing, CLOCKWISE,
};

fn game(rules: Rules) -> Game {
    Game::new(rules).unwrap()
}

fn position(game: &Game, text: &str) -> Position {
    game.settle(text.parse().unwrap()).unwrap()
}

/// Plays move `mv` of the mover in `text` (checked by `Game::try_play`).
fn sow(rules: Rules, text: &str, mv: usize) -> (Position, Sowing) {
    let game = game(rules);
    let pos = position(&game, text);
    assert!(!pos.is_over(), "{text} should still be running");
    game.try_play(&pos, mv).unwrap()
}

/// The absolute counts as a vector, for comparing finished games.
fn counts(text: &str) -> Vec<u8> {
    text.split(',').map(|c| c.parse().unwrap()).collect()
}

fn with_grand_slam(grand_slam: GrandSlam) -> Rules {
    Rules {
        grand_slam,
        ..Rules::oware(6, 4)
    }
}

fn with_capture(capture: Capture) -> Rules {
    Rules {
        capture,
        ..Rules::ethiopian(6, 4)
    }
}

#[test]
fn presets_and_options_of_the_cyclic_families() {
    let ethiopian = Preset::Ethiopian.rules(6, 4);
    assert_eq!(ethiopian, Rules::ethiopian(6, 4));
    assert_eq!(
        (
            ethiopian.family,
            ethiopian.capture,
            ethiopian.end,
            ethiopian.leftovers
        ),
        (
            Family::Ethiopian,
            Capture::Empty,
            End::MoverStuck,
            Leftovers::Discard
        )
    );
    let oware = Preset::Oware.rules(6, 4);
    assert_eq!(oware, Rules::oware(6, 4));
    assert_eq!(
        (oware.family, oware.grand_slam, oware.end, oware.leftovers),
        (
            Family::Oware,
            GrandSlam::NoCapture,
            End::MoverStuck,
            Leftovers::Owner
        )
    );
    assert_eq!(
        ethiopian.to_string(),
        "Ethiopian(6,4) capture=empty end=mover-stuck leftovers=discard"
    );
    assert_eq!(
        oware.to_string(),
        "Oware(6,4) capture=twos-threes grand-slam=no-capture end=mover-stuck leftovers=owner"
    );
    for family in [Family::Ethiopian, Family::Oware] {
        assert!(family.is_cyclic());
        assert_eq!(family.has_direction(), family == Family::Ethiopian);
    }
    assert!(!Family::Kalah.is_cyclic() && !Family::Nigerian.has_direction());
    // Every option once: Ethiopian's capture x early stop, Oware's grand slam x early stop.
    let variants = Rules::every_cyclic_variant(6, 4);
    assert_eq!(variants.len(), 8);
    for (i, a) in variants.iter().enumerate() {
        assert!(Game::new(*a).is_ok(), "{a}");
        assert!(variants[i + 1..].iter().all(|b| b != a), "{a} twice");
    }
    // The options a family does not have are refused.
    let refused = [
        (
            Rules {
                end: End::RowEmpty,
                ..Rules::ethiopian(6, 4)
            },
            RulesError::FixedEnd(Family::Ethiopian),
        ),
        (
            Rules {
                leftovers: Leftovers::Discard,
                ..Rules::oware(6, 4)
            },
            RulesError::FixedEnd(Family::Oware),
        ),
        (
            Rules {
                capture: Capture::Empty,
                ..Rules::oware(6, 4)
            },
            RulesError::NoCaptureOption(Family::Oware),
        ),
        (
            Rules {
                grand_slam: GrandSlam::CaptureAll,
                ..Rules::ethiopian(6, 4)
            },
            RulesError::NoGrandSlam(Family::Ethiopian),
        ),
    ];
    for (rules, err) in refused {
        assert_eq!(Game::new(rules).err(), Some(err), "{rules}");
    }
}

// ---------------------------------------------------------------------------------------
// Oware

#[test]
fn oware_grand_slam_captures_nothing_or_everything() {
    // South sows bin 6 (place 5, 2 seeds): places 7 and 8, North's first two houses, now
    // hold 2 and 3. The last seed is in place 8 (3): take it, then place 7 (2). That is
    // every seed of North's row (5): a grand slam.
    let before = "3,0,0,0,0,2,20,1,2,0,0,0,0,20:S";
    // No capture: the sowing stands, nothing is taken, North moves.
    let (next, how) = sow(with_grand_slam(GrandSlam::NoCapture), before, 5);
    assert_eq!(how, Sowing::Passed);
    assert_eq!(next.to_string(), "3,0,0,0,0,0,20,2,3,0,0,0,0,20:N");
    // Capture all: South takes the 5; North, to move, has no seeds: the game ends and
    // South keeps the 3 seeds of its own row: 20 + 5 + 3 = 28 against 20.
    let (next, how) = sow(with_grand_slam(GrandSlam::CaptureAll), before, 5);
    assert_eq!(how, Sowing::GameOver);
    assert_eq!(
        next.absolute_counts(),
        counts("0,0,0,0,0,0,28,0,0,0,0,0,0,20")
    );
    assert_eq!(next.score(), 8);
}

#[test]
fn oware_capture_that_leaves_the_opponent_a_seed_is_no_grand_slam() {
    // As above, but North keeps a seed in place 12, which the chain does not reach: both
    // options take the 5.
    let before = "3,0,0,0,0,2,20,1,2,0,0,0,1,19:S";
    for grand_slam in [GrandSlam::NoCapture, GrandSlam::CaptureAll] {
        let (next, how) = sow(with_grand_slam(grand_slam), before, 5);
        assert_eq!(how, Sowing::Passed);
        assert_eq!(next.to_string(), "3,0,0,0,0,0,25,0,0,0,0,0,1,19:N");
    }
}

#[test]
fn oware_capture_chain_stops_at_a_gap() {
    // South sows bin 6 (place 5, 5 seeds) into places 7..11 (the store is not on the
    // path): North's row 1,3,1,2,1,4 becomes 2,4,2,3,2,4. The last seed is in place 11
    // (2): take it, then place 10 (3), place 9 (2); place 8 holds 4, so the chain stops
    // there and place 7's 2 seeds stay. South takes 2 + 3 + 2 = 7.
    let before = "0,0,0,0,0,5,10,1,3,1,2,1,4,20:S";
    let (next, how) = sow(Rules::oware(6, 4), before, 5);
    assert_eq!(how, Sowing::Passed);
    assert_eq!(next.to_string(), "0,0,0,0,0,0,17,2,4,0,0,0,4,20:N");
    // A last seed that makes 4 takes nothing, whatever precedes it: bin 6 with 2 seeds
    // ends in place 8 (3 + 1 = 4) and place 7's new 2 stay.
    let (next, _) = sow(Rules::oware(6, 4), "0,0,0,0,0,2,10,1,3,1,2,1,4,20:S", 5);
    assert_eq!(next.to_string(), "0,0,0,0,0,0,10,2,4,1,2,1,4,20:N");
    // North captures in South's row the same way, and the chain ends at South's first
    // house: North's bin 13 (place 12, 2 seeds) sows places 0 and 1 (North's store is not
    // on the path), which now hold 2 and 2: North takes place 1, then place 0. South keeps
    // place 3's 5 seeds.
    let (next, how) = sow(Rules::oware(6, 4), "1,1,0,5,0,0,10,1,3,1,2,1,2,20:N", 5);
    assert_eq!(how, Sowing::Passed);
    assert_eq!(next.to_string(), "0,0,0,5,0,0,10,1,3,1,2,1,0,24:S");
}

#[test]
fn oware_capture_in_the_movers_own_row_never_happens() {
    // South's bin 5 (place 4, 2 seeds) sows places 5 and 7: the last seed makes North's
    // place 7 hold 1: nothing. Bin 4 (place 3, 2 seeds) ends in South's own place 5, which
    // then holds 2: Oware captures only in the opponent's row.
    let before = "0,0,0,2,2,1,10,0,3,3,3,3,3,18:S";
    let (next, _) = sow(Rules::oware(6, 4), before, 4);
    assert_eq!(next.to_string(), "0,0,0,2,0,2,10,1,3,3,3,3,3,18:N");
    let (next, _) = sow(Rules::oware(6, 4), before, 3);
    assert_eq!(next.to_string(), "0,0,0,0,3,2,10,0,3,3,3,3,3,18:N");
}

#[test]
fn oware_sowing_of_a_lap_skips_its_house() {
    // 12 seeds from bin 1 (place 0): places 1..5 (5), 7..12 (6), then place 0 is skipped
    // and the 12th seed falls in place 1. The stores are not on the path.
    let (next, how) = sow(Rules::oware(6, 4), "12,0,0,0,0,0,0,1,1,1,1,1,1,0:S", 0);
    assert_eq!(how, Sowing::Passed);
    assert_eq!(next.to_string(), "0,2,1,1,1,1,0,2,2,2,2,2,2,0:N");
    // 17 seeds from place 0 against an empty North row (the sowing feeds it): places 1..5,
    // 7..12 (11 seeds), place 0 skipped, places 1..5 again (16), and the 17th in place 7,
    // which now holds 2: South takes them. Places 8..12 (1 each) stay: no grand slam.
    let (next, how) = sow(Rules::oware(6, 4), "17,0,0,0,0,0,0,0,0,0,0,0,0,0:S", 0);
    assert_eq!(how, Sowing::Passed);
    assert_eq!(next.to_string(), "0,2,2,2,2,2,2,0,1,1,1,1,1,0:N");
    // In Kalah the store is on the path: the same 12 seeds end in place 12.
    let (next, _) = sow(Rules::kalah(6, 4), "12,0,0,0,0,0,0,1,1,1,1,1,1,0:S", 0);
    assert_eq!(next.to_string(), "0,1,1,1,1,1,1,2,2,2,2,2,2,0:N");
}

#[test]
fn oware_must_feed_an_opponent_without_seeds() {
    // North's row is empty. South's bin 1 (place 0, 1 seed) would sow place 1 only: it
    // does not feed North and is refused; bin 6 (place 5, 2 seeds) sows places 7 and 8.
    let rules = Rules::oware(6, 4);
    let game = game(rules);
    let pos = position(&game, "1,0,0,0,0,2,22,0,0,0,0,0,0,23:S");
    assert!(!pos.is_over());
    assert_eq!(game.legal_moves(&pos).collect::<Vec<_>>(), vec![5]);
    // `Position::moves` is every non-empty house; the rule is `Game::legal_moves`'.
    assert_eq!(pos.moves().collect::<Vec<_>>(), vec![0, 5]);
    assert_eq!(
        game.try_play(&pos, 0),
        Err(MoveError::MustFeed { house: 0 })
    );
    assert_eq!(
        game.try_play(&pos, 1),
        Err(MoveError::EmptyHouse { house: 1 })
    );
    assert_eq!(
        play_moves(&game, pos, "1"),
        Err(PositionError::Illegal {
            bin: 1,
            why: MoveError::MustFeed { house: 0 }
        })
    );
    let (next, how) = game.try_play(&pos, 5).unwrap();
    assert_eq!(how, Sowing::Passed);
    assert_eq!(next.to_string(), "1,0,0,0,0,0,22,1,1,0,0,0,0,23:N");
    // House j feeds when it holds at least H - j seeds: on 6 houses bin 1 needs 6.
    let pos = position(&game, "6,0,0,0,0,1,22,0,0,0,0,0,0,19:S");
    assert_eq!(game.legal_moves(&pos).collect::<Vec<_>>(), vec![0, 5]);
    let pos = position(&game, "5,5,0,0,0,0,22,0,0,0,0,0,0,16:S");
    assert_eq!(game.legal_moves(&pos).collect::<Vec<_>>(), vec![1]);
}

#[test]
fn oware_game_ends_when_no_sowing_can_feed() {
    // North sows bin 13 (place 12, its last seed): North's store is not on the path, so
    // the seed goes to South's place 0. North's row is now empty and South's houses hold
    // 1 and 1 in places 0 and 1, which reach places 1 and 2 only: South cannot feed.
    // The game ends and South keeps the seeds of its own row: 22 + 2 = 24, a draw.
    let (next, how) = sow(Rules::oware(6, 4), "0,1,0,0,0,0,22,0,0,0,0,0,1,24:N", 5);
    assert_eq!(how, Sowing::GameOver);
    assert_eq!(
        next.absolute_counts(),
        counts("0,0,0,0,0,0,24,0,0,0,0,0,0,24")
    );
    assert_eq!(next.score(), 0);
    // The same board entered by hand is settled as over.
    let game = game(Rules::oware(6, 4));
    let pos = position(&game, "1,1,0,0,0,0,22,0,0,0,0,0,0,24:S");
    assert!(pos.is_over());
    assert_eq!(
        pos.absolute_counts(),
        counts("0,0,0,0,0,0,24,0,0,0,0,0,0,24")
    );
    assert_eq!(game.try_play(&pos, 0), Err(MoveError::GameOver));
    // A player to move without seeds ends the game too: the other keeps their row.
    let pos = position(&game, "0,0,0,0,0,0,20,0,3,0,0,1,0,24:S");
    assert!(pos.is_over());
    assert_eq!(
        pos.absolute_counts(),
        counts("0,0,0,0,0,0,20,0,0,0,0,0,0,28")
    );
}

#[test]
fn oware_has_no_extra_turn_and_sows_past_the_stores() {
    // Bin 6 with 1 seed would end in South's store in Kalah; in Oware it goes to place 7
    // and North moves. North's bin 13 likewise goes to place 0.
    let (next, how) = sow(Rules::oware(6, 4), "4,4,4,4,4,1,0,4,4,4,4,4,5,0:S", 5);
    assert_eq!(how, Sowing::Passed);
    assert_eq!(next.to_string(), "4,4,4,4,4,0,0,5,4,4,4,4,5,0:N");
    let (next, _) = sow(Rules::oware(6, 4), "4,4,4,4,4,0,0,5,4,4,4,4,1,4:N", 5);
    assert_eq!(next.to_string(), "5,4,4,4,4,0,0,5,4,4,4,4,0,4:S");
}

#[test]
fn oware_early_stop_at_a_majority() {
    // The chain of `oware_capture_chain_stops_at_a_gap` with stores 17 and 13 (47 seeds):
    // South's store reaches 24, more than half of 47, and the houses are not counted.
    let before = "0,0,0,0,0,5,17,1,3,1,2,1,4,13:S";
    let rules = Rules {
        early_stop: true,
        ..Rules::oware(6, 4)
    };
    let (next, how) = sow(rules, before, 5);
    assert_eq!(how, Sowing::GameOver);
    assert_eq!(
        next.absolute_counts(),
        counts("0,0,0,0,0,0,24,0,0,0,0,0,0,13")
    );
    let (next, how) = sow(Rules::oware(6, 4), before, 5);
    assert_eq!(how, Sowing::Passed);
    assert_eq!(next.to_string(), "0,0,0,0,0,0,24,2,4,0,0,0,4,13:N");
}

// ---------------------------------------------------------------------------------------
// Ethiopian Kalah

#[test]
fn ethiopian_sowing_in_either_direction_captures() {
    // South's bin 4 (place 3, 2 seeds). Clockwise (`4<`): places 2 and 1; place 1 was
    // empty, so the seed and place 11 opposite (2H - 1) go to South's store: 5 + 1 + 3.
    let before = "1,0,0,2,0,0,5,4,4,4,4,3,4,5:S";
    let (next, how) = sow(Rules::ethiopian(6, 4), before, CLOCKWISE + 3);
    assert_eq!(how, Sowing::Passed);
    assert_eq!(next.to_string(), "1,0,1,0,0,0,9,4,4,4,4,0,4,5:N");
    // Counter-clockwise (`4`): places 4 and 5; place 5 was empty and faces place 7 (4
    // seeds): 5 + 1 + 4.
    let (next, how) = sow(Rules::ethiopian(6, 4), before, 3);
    assert_eq!(how, Sowing::Passed);
    assert_eq!(next.to_string(), "1,0,0,0,1,0,10,0,4,4,4,3,4,5:N");
    // North clockwise (decreasing places too): North's bin 9 (place 8, North's second
    // house, 2 seeds) sows place 7, skips South's store (place 6) and ends in South's
    // place 5: nothing to capture in the opponent's row.
    let (next, how) = sow(
        Rules::ethiopian(6, 4),
        "1,0,0,2,0,0,5,4,2,4,4,3,4,5:N",
        CLOCKWISE + 1,
    );
    assert_eq!(how, Sowing::Passed);
    assert_eq!(next.to_string(), "1,0,0,2,0,1,5,5,0,4,4,3,4,5:S");
    // North's bin 8 (place 7, 7 seeds) clockwise: South's store skipped, places 5..0
    // (6 seeds), then North's store (place 13): North sows again.
    let (next, how) = sow(
        Rules::ethiopian(6, 4),
        "1,0,0,2,0,0,5,7,2,4,4,3,4,5:N",
        CLOCKWISE,
    );
    assert_eq!(how, Sowing::ExtraTurn);
    assert_eq!(next.to_string(), "2,1,1,3,1,1,5,0,2,4,4,3,4,6:N");
}

#[test]
fn ethiopian_capture_option() {
    // Clockwise from place 3 (2 seeds): the last seed falls in the empty place 1, whose
    // opposite place 11 is empty. Empty capture (the preset) takes the single seed;
    // standard capture leaves it.
    let before = "1,0,0,2,0,0,5,4,4,4,4,0,4,8:S";
    let (next, _) = sow(with_capture(Capture::Empty), before, CLOCKWISE + 3);
    assert_eq!(next.to_string(), "1,0,1,0,0,0,6,4,4,4,4,0,4,8:N");
    let (next, _) = sow(with_capture(Capture::Standard), before, CLOCKWISE + 3);
    assert_eq!(next.to_string(), "1,1,1,0,0,0,5,4,4,4,4,0,4,8:N");
}

#[test]
fn ethiopian_clockwise_sowing_into_the_store_gives_an_extra_turn() {
    // South's bin 2 (place 1, 8 seeds) clockwise: place 0, North's store (skipped),
    // places 12, 11, 10, 9, 8, 7, and South's store: 1 + 6 + 1 = 8 seeds, the last in
    // South's store. South sows again.
    let before = "0,8,0,0,0,3,0,4,4,4,4,4,4,0:S";
    let (next, how) = sow(Rules::ethiopian(6, 4), before, CLOCKWISE + 1);
    assert_eq!(how, Sowing::ExtraTurn);
    assert_eq!(next.to_string(), "1,0,0,0,0,3,1,5,5,5,5,5,5,0:S");
    // Then bin 6 (place 5, 3 seeds) counter-clockwise: South's store, places 7 and 8.
    // The turn is written `2<-6`.
    let game = game(Rules::ethiopian(6, 4));
    let pos = position(&game, before);
    let (end, played) = play_moves(&game, pos, "2<-6").unwrap();
    assert_eq!(played, vec![CLOCKWISE + 1, 5]);
    assert_eq!(format_turn(6, Side::South, &played), "2<-6");
    assert_eq!(end.to_string(), "1,0,0,0,0,0,2,6,6,5,5,5,5,0:N");
}

#[test]
fn ethiopian_single_seed_house_is_refused() {
    // Bin 1 holds one seed: it may not be sown, either way; bin 2 (3 seeds) may, both
    // ways; bin 3 is empty.
    let game = game(Rules::ethiopian(6, 4));
    let pos = position(&game, "1,3,0,0,0,0,0,2,2,2,2,2,2,0:S");
    assert_eq!(
        game.legal_moves(&pos).collect::<Vec<_>>(),
        vec![1, CLOCKWISE + 1]
    );
    for mv in [0, CLOCKWISE] {
        assert_eq!(
            game.try_play(&pos, mv),
            Err(MoveError::SingleSeed { house: 0 })
        );
    }
    assert_eq!(
        game.try_play(&pos, CLOCKWISE + 2),
        Err(MoveError::EmptyHouse { house: 2 })
    );
    assert_eq!(
        play_moves(&game, pos, "1<"),
        Err(PositionError::Illegal {
            bin: 1,
            why: MoveError::SingleSeed { house: 0 }
        })
    );
}

#[test]
fn ethiopian_game_ends_when_no_house_of_the_mover_holds_two_seeds() {
    // South's bin 6 (place 5, 2 seeds) clockwise: places 4 and 3; place 3 was empty and
    // faces place 9 (1 seed): 10 + 1 + 1 = 12. North's row is then 1,0,0,1,0,1: North
    // cannot move, the game ends, and only the stores count (12 against 20; South's seed
    // in place 4 and North's 3 are lost).
    let (next, how) = sow(
        Rules::ethiopian(6, 4),
        "0,0,0,0,0,2,10,1,0,1,1,0,1,20:S",
        CLOCKWISE + 5,
    );
    assert_eq!(how, Sowing::GameOver);
    assert_eq!(
        next.absolute_counts(),
        counts("0,0,0,0,0,0,12,0,0,0,0,0,0,20")
    );
    assert_eq!(next.total_seeds(), 36);
    // An extra turn for a mover left with single seeds ends the game as well: bin 2's 8
    // seeds clockwise end in South's store (as in the extra-turn example), and South's
    // row is then 1,0,0,0,0,0.
    let (next, how) = sow(
        Rules::ethiopian(6, 4),
        "0,8,0,0,0,0,0,4,4,4,4,4,4,0:S",
        CLOCKWISE + 1,
    );
    assert_eq!(how, Sowing::GameOver);
    assert_eq!(
        next.absolute_counts(),
        counts("0,0,0,0,0,0,1,0,0,0,0,0,0,0")
    );
    assert_eq!(next.score(), 1);
    // A hand-entered board whose mover holds single seeds only is settled as over.
    let game = game(Rules::ethiopian(6, 4));
    let pos = position(&game, "1,1,1,1,1,1,3,2,0,9,0,0,0,5:S");
    assert!(pos.is_over());
    assert_eq!(pos.absolute_counts(), counts("0,0,0,0,0,0,3,0,0,0,0,0,0,5"));
    // So is the start with one seed per house (Game::start itself is not settled).
    let game = Game::new(Rules::ethiopian(6, 1)).unwrap();
    assert!(game.legal_moves(&game.start()).is_empty());
    let start = game.settle(game.start()).unwrap();
    assert!(start.is_over());
    assert_eq!(start.score(), 0);
}

#[test]
fn ethiopian_early_stop_at_a_majority() {
    // The counter-clockwise capture of `ethiopian_sowing_in_either_direction_captures`
    // (place 5's seed and place 7's 4) with the stores at 19 and 1, 46 seeds in all:
    // South's store reaches 24, more than half of 46, and the houses are not counted.
    let rules = Rules {
        early_stop: true,
        ..Rules::ethiopian(6, 4)
    };
    let before = "1,0,0,2,0,0,19,4,4,4,4,3,4,1:S";
    let (next, how) = sow(rules, before, 3);
    assert_eq!(how, Sowing::GameOver);
    assert_eq!(
        next.absolute_counts(),
        counts("0,0,0,0,0,0,24,0,0,0,0,0,0,1")
    );
    assert_eq!(next.total_seeds(), 46);
    let (next, how) = sow(Rules::ethiopian(6, 4), before, 3);
    assert_eq!(how, Sowing::Passed);
    assert_eq!(next.to_string(), "1,0,0,0,1,0,24,0,4,4,4,3,4,1:N");
}

#[test]
fn clockwise_move_notation() {
    let game = game(Rules::ethiopian(6, 4));
    // `3<`: South's bin 3 (place 2, 4 seeds) clockwise: places 1, 0, North's store
    // skipped, places 12 and 11. The last seed is in North's row: North moves.
    let (pos, played) = play_moves(&game, game.start(), "3<").unwrap();
    assert_eq!(played, vec![CLOCKWISE + 2]);
    assert_eq!(pos.to_string(), "5,5,0,4,4,4,0,4,4,4,4,5,5,0:N");
    // `3` and `3>` are counter-clockwise: places 3, 4, 5 and the store, an extra turn.
    for text in ["3", "3>"] {
        let (pos, played) = play_moves(&game, game.start(), text).unwrap();
        assert_eq!(played, vec![2]);
        assert_eq!(pos.to_string(), "4,4,0,5,5,5,1,4,4,4,4,4,4,0:S");
    }
    assert_eq!(format_move(6, Side::South, CLOCKWISE + 2), "3<");
    assert_eq!(format_move(6, Side::South, 2), "3");
    // North's bins are 8..13: North's first house clockwise is `8<`.
    assert_eq!(format_move(6, Side::North, CLOCKWISE), "8<");
    let (pos, played) = play_moves(&game, game.start(), "3<,8<").unwrap();
    assert_eq!(played, vec![CLOCKWISE + 2, CLOCKWISE]);
    // North's place 7 (4 seeds) clockwise: South's store skipped, places 5, 4, 3 and 2;
    // place 2 is South's: no capture, South moves.
    assert_eq!(pos.to_string(), "5,5,1,5,5,5,0,0,4,4,4,5,5,0:S");
    // The families that sow one way refuse the direction.
    for rules in [
        Rules::kalah(6, 4),
        Rules::oware(6, 4),
        Rules::nigerian(6, 4),
    ] {
        let game = Game::new(rules).unwrap();
        assert_eq!(
            play_moves(&game, game.start(), "3<"),
            Err(PositionError::Illegal {
                bin: 3,
                why: MoveError::NoDirection(rules.family)
            })
        );
        assert_eq!(
            game.try_play(&game.start(), CLOCKWISE + 2),
            Err(MoveError::NoDirection(rules.family))
        );
    }
}

// ---------------------------------------------------------------------------------------
// Cycles

/// Plays `moves` from `text` under every rule set of `family` on `h` houses, with the
/// engine and the reference, checking that each move is the only legal one where `forced`,
/// and that the last position is the first again, stores and all.
fn assert_cycle(family: Family, h: u8, text: &str, moves: &[usize], forced: bool) {
    for rules in Rules::every_cyclic_variant(h, 4) {
        if rules.family != family {
            continue;
        }
        let game = game(rules);
        let first = position(&game, text);
        let mut pos = first;
        let parsed: Position = text.parse().unwrap();
        let mut reference =
            RefBoard::from_counts(&parsed.absolute_counts(), parsed.side_to_move()).settled(&rules);
        let mut seen = vec![pos];
        for &mv in moves {
            let legal: Vec<usize> = game.legal_moves(&pos).collect();
            assert_eq!(legal, reference.legal_moves(&rules), "{pos} under {rules}");
            if forced {
                assert_eq!(legal, vec![mv], "{pos} under {rules}");
            }
            let (next, how) = game.try_play(&pos, mv).unwrap();
            assert_eq!(how, Sowing::Passed);
            reference = reference.sow(&rules, mv).0;
            assert_eq!(next.absolute_counts(), reference.counts());
            pos = next;
            seen.push(pos);
        }
        assert_eq!(pos, first, "{text} under {rules}");
        assert_eq!(game.key(&pos), game.key(&first));
        // The positions in between are all different: a cycle of exactly that length.
        for (i, p) in seen[..moves.len()].iter().enumerate() {
            assert!(!seen[i + 1..moves.len()].contains(p), "{p} twice");
        }
        // Going on repeats it: the game never ends by itself.
        let mut again = pos;
        for &mv in moves {
            again = game.try_play(&again, mv).unwrap().0;
        }
        assert_eq!(again, first);
    }
}

#[test]
fn oware_forced_cycle_returns_to_the_same_position() {
    // Oware on 2 houses (places 0, 1 South; 3, 4 North; the stores 2 and 5 are off the
    // path), two seeds. South: 1,1 against an empty North row; bin 1 (1 seed) would stay
    // in South's row, so South must sow bin 2 (place 1): its seed skips the store and
    // lands in place 3. North's only seed (place 3) goes to place 4. South's only seed
    // (place 0) to place 1. North's only seed (place 4) skips North's store into place 0:
    // South 1,1 against an empty North row again. No capture (a house never holds 2 or
    // 3 in the opponent's row), no choice, no end.
    assert_cycle(Family::Oware, 2, "1,1,0,0,0,0:S", &[1, 0, 0, 1], true);
    // One house each: South's 3 seeds all go to North's house (6: no capture), North's 6
    // to South's, and so on: 0,0,6,0:N and 6,0,0,0:S in turn for ever.
    let game = game(Rules::oware(1, 3));
    let after = game.try_play(&game.start(), 0).unwrap().0;
    assert_eq!(after.to_string(), "0,0,6,0:N");
    assert_cycle(Family::Oware, 1, "0,0,6,0:N", &[0, 0], true);
}

#[test]
fn ethiopian_cycle_returns_to_the_same_position() {
    // Ethiopian Kalah on 2 houses (places 0, 1 South; 2 South's store; 3, 4 North; 5
    // North's store), South 2,1 against North 1,0. Clockwise, each sowing of two seeds
    // skips the opponent's store and lands in the opponent's row:
    //   South bin 1< (place 0): places 4, 3        -> 0,1,0,2,1,0:N
    //   North bin 4< (place 3): places 1, 0        -> 1,2,0,0,1,0:S
    //   South bin 2< (place 1): places 0, 4        -> 2,0,0,0,2,0:N
    //   North bin 5< (place 4): places 3, 1        -> 2,1,0,1,0,0:S, the start.
    // The movers had other moves (every sowing of two seeds goes both ways), but these
    // return to the same position with the same stores.
    let line = [CLOCKWISE, CLOCKWISE, CLOCKWISE + 1, CLOCKWISE + 1];
    assert_cycle(Family::Ethiopian, 2, "2,1,0,1,0,0:S", &line, false);
    let game = game(Rules::ethiopian(2, 4));
    let start = position(&game, "2,1,0,1,0,0:S");
    let (pos, _) = play_moves(&game, start, "1< 4< 2< 5<").unwrap();
    assert_eq!(pos, start);
    let (pos, _) = play_moves(&game, start, "1< 4<").unwrap();
    assert_eq!(pos.to_string(), "1,2,0,0,1,0:S");
}

// ---------------------------------------------------------------------------------------
// Every small board

/// Every board of `h` houses holding at most `max` seeds in the houses, with the stores
/// `stores`, either side to move: settled, legal moves and every sowing, engine against
/// reference, under every cyclic rule set. Returns the sowings compared and the grand slams
/// seen (sowings that the two grand slam options play differently).
fn every_board(h: usize, max: usize, stores: [u8; 2]) -> (usize, usize) {
    let games: Vec<Game> = Rules::every_cyclic_variant(h as u8, 8)
        .into_iter()
        .map(game)
        .collect();
    let mut houses = vec![0usize; 2 * h];
    let (mut compared, mut slams) = (0, 0);
    loop {
        let mut counts: Vec<u8> = houses[..h].iter().map(|&c| c as u8).collect();
        counts.push(stores[0]);
        counts.extend(houses[h..].iter().map(|&c| c as u8));
        counts.push(stores[1]);
        for side in [Side::South, Side::North] {
            let text = notation(&counts, side);
            let mut results = Vec::new();
            for game in &games {
                let rules = game.rules();
                let pos = position(game, &text);
                let reference = RefBoard::from_counts(&counts, side).settled(rules);
                assert_eq!(pos.absolute_counts(), reference.counts(), "{text} {rules}");
                assert_eq!(pos.is_over(), reference.over, "{text} {rules}");
                let legal: Vec<usize> = game.legal_moves(&pos).collect();
                assert_eq!(legal, reference.legal_moves(rules), "{text} {rules}");
                let mut sown = Vec::new();
                for mv in legal {
                    let (next, how) = game.try_play(&pos, mv).unwrap();
                    let (want, _) = reference.sow(rules, mv);
                    let what = || format!("{text} move {mv} under {rules}: {next}");
                    assert_eq!(next.absolute_counts(), want.counts(), "{}", what());
                    assert_eq!(next.side_to_move(), want.to_move, "{}", what());
                    assert_eq!(next.is_over(), want.over, "{}", what());
                    assert_eq!(how == Sowing::GameOver, want.over, "{}", what());
                    sown.push(next);
                    compared += 1;
                }
                results.push((rules.family, rules.early_stop, sown));
            }
            // Oware without the early stop: no capture, then capture all.
            let oware: Vec<_> = results
                .iter()
                .filter(|(f, early, _)| *f == Family::Oware && !early)
                .collect();
            slams += oware[0]
                .2
                .iter()
                .zip(&oware[1].2)
                .filter(|(a, b)| a != b)
                .count();
        }
        // The next board: count up, digit by digit, keeping the sum at most `max`.
        let mut i = 0;
        loop {
            if i == houses.len() {
                return (compared, slams);
            }
            houses[i] += 1;
            if houses.iter().sum::<usize>() <= max {
                break;
            }
            houses[i] = 0;
            i += 1;
        }
    }
}

#[test]
fn every_small_board_matches_reference() {
    let mut compared = 0;
    let mut slams = 0;
    for (h, max, stores) in [
        (1, 14, [0, 0]),
        (2, 12, [0, 0]),
        (2, 9, [4, 1]),
        (3, 8, [0, 0]),
        (3, 6, [2, 5]),
        (4, 6, [0, 0]),
    ] {
        let (c, s) = every_board(h, max, stores);
        compared += c;
        slams += s;
    }
    assert!(compared > 200_000, "only {compared} sowings");
    assert!(slams > 1_000, "only {slams} grand slams");
}
