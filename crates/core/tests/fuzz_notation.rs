//! Fuzzing the core's parsers at scale (`KALAH_FUZZ_CASES` cases a property, see
//! `fuzz/mod.rs`): the board notation, the move notation and the rules' text, on
//! arbitrary bytes and on valid text damaged every way hostile input damages it. Any input
//! is read or refused with an error, never a panic; every valid value printed and read
//! again gives itself back.

use crate::fuzz;

use fuzz::{any_rules, config, mutate_text, mutation, random_line};
use kalah_core::notation::play_moves;
use kalah_core::{
    Capture, End, Game, GrandSlam, Leftovers, Position, Preset, Rules, MAX_TOTAL_SEEDS,
};
use proptest::prelude::*;

/// A board in the notation: `houses` houses a side, any counts that fit the encoding.
fn board(houses: usize) -> impl Strategy<Value = String> {
    let places = 2 * houses + 2;
    let most = (MAX_TOTAL_SEEDS / places) as u8;
    (proptest::collection::vec(0..=most, places), any::<bool>()).prop_map(|(counts, north)| {
        let text: Vec<String> = counts.iter().map(u8::to_string).collect();
        format!("{}:{}", text.join(","), if north { "N" } else { "S" })
    })
}

/// Any board of 1 to 8 houses a side.
fn any_board() -> impl Strategy<Value = String> {
    (1usize..=8).prop_flat_map(board)
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn any_bytes_are_read_or_refused_by_every_parser(
        bytes in proptest::collection::vec(any::<u8>(), 0..200),
    ) {
        let text = String::from_utf8_lossy(&bytes);
        let _ = text.parse::<Position>();
        let _ = text.parse::<Rules>();
        let _ = text.parse::<Preset>();
        let _ = text.parse::<Capture>();
        let _ = text.parse::<End>();
        let _ = text.parse::<Leftovers>();
        let _ = text.parse::<GrandSlam>();
        let game = Game::new(Rules::kalah(6, 4)).unwrap();
        let _ = play_moves(&game, game.start(), &text);
    }

    #[test]
    fn a_board_printed_then_read_is_itself(text in any_board()) {
        let pos: Position = text.parse().expect("a board that fits the encoding is read");
        prop_assert_eq!(pos.to_string(), text.clone());
        prop_assert_eq!(pos.to_string().parse::<Position>(), Ok(pos));
    }

    #[test]
    fn a_damaged_board_is_read_or_refused_and_what_is_read_is_a_board(
        text in any_board(),
        m in mutation(4096),
        rules in any_rules(),
    ) {
        let damaged = mutate_text(&text, &m);
        if let Ok(pos) = damaged.parse::<Position>() {
            prop_assert_eq!(pos.to_string().parse::<Position>(), Ok(pos));
            prop_assert!(pos.total_seeds() as usize <= MAX_TOTAL_SEEDS);
            // Settled under any rules: a value of the game or an error, never a panic.
            let game = Game::new(rules).unwrap();
            if let Ok(settled) = game.settle(pos) {
                prop_assert_eq!(settled.total_seeds(), pos.total_seeds());
            }
        }
    }

    #[test]
    fn a_line_of_play_printed_then_played_reaches_the_same_position(
        rules in any_rules(),
        picks in proptest::collection::vec(any::<prop::sample::Index>(), 0..40),
    ) {
        let (end, text, sowings) = random_line(&rules, &picks);
        let game = Game::new(rules).unwrap();
        let (pos, played) = play_moves(&game, game.start(), &text)
            .map_err(|e| TestCaseError::fail(format!("'{text}': {e}")))?;
        prop_assert_eq!(pos, end);
        prop_assert_eq!(played, sowings);
    }

    #[test]
    fn a_damaged_line_of_play_is_played_or_refused(
        rules in any_rules(),
        picks in proptest::collection::vec(any::<prop::sample::Index>(), 0..30),
        m in mutation(4096),
        north in any::<bool>(),
    ) {
        let (_, text, _) = random_line(&rules, &picks);
        let damaged = mutate_text(&text, &m);
        let game = Game::new(rules).unwrap();
        let mut start = game.start();
        if north {
            start = start.flipped();
        }
        if let Ok((pos, _)) = play_moves(&game, start, &damaged) {
            prop_assert_eq!(pos.total_seeds(), start.total_seeds());
        }
    }

    #[test]
    fn rules_printed_then_read_are_themselves(rules in any_rules()) {
        let text = rules.to_string();
        prop_assert_eq!(text.parse::<Rules>(), Ok(rules));
    }

    #[test]
    fn damaged_rules_are_read_or_refused_and_what_is_read_is_valid(
        rules in any_rules(),
        m in mutation(4096),
    ) {
        let damaged = mutate_text(&rules.to_string(), &m);
        if let Ok(read) = damaged.parse::<Rules>() {
            prop_assert!(read.validate().is_ok(), "{damaged}");
            prop_assert!(Game::new(read).is_ok(), "{damaged}");
            prop_assert_eq!(read.to_string().parse::<Rules>(), Ok(read));
        }
    }

    #[test]
    fn any_board_size_in_the_rules_text_is_read_or_refused(
        family in prop::sample::select(vec!["Kalah", "General", "Nigerian", "Ethiopian", "Oware", "kalah", ""]),
        houses in prop::sample::select(vec!["0", "1", "8", "9", "255", "256", "-1", "", " 6", "6 "]),
        seeds in prop::sample::select(vec!["0", "1", "16", "17", "127", "128", "255", "256", ""]),
        tail in "( [a-z\\-]{0,10}(=[a-z\\-]{0,12})?){0,4}",
    ) {
        let text = format!("{family}({houses},{seeds}){tail}");
        if let Ok(rules) = text.parse::<Rules>() {
            prop_assert!(rules.total_seeds() <= MAX_TOTAL_SEEDS);
            prop_assert!(Game::new(rules).is_ok());
        }
    }
}
