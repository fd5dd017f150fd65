//! The parsers of the notation on arbitrary input: any text is read as a value or refused
//! with an error, never a panic, and what is read writes back to the same text.

use kalah_core::notation::play_moves;
use kalah_core::{Game, Position, Rules};
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn any_text_is_a_board_or_an_error(text in "\\PC{0,80}") {
        let _ = text.parse::<Position>();
    }

    #[test]
    fn any_bytes_are_a_board_or_an_error(bytes in proptest::collection::vec(any::<u8>(), 0..80)) {
        let _ = String::from_utf8_lossy(&bytes).parse::<Position>();
    }

    #[test]
    fn a_board_that_is_read_writes_back_the_same(
        counts in proptest::collection::vec(0u8..40, 4..=18),
        north in any::<bool>(),
        sep in prop::sample::select(vec![",", ", ", " ,"]),
    ) {
        let text = format!(
            "{}:{}",
            counts.iter().map(u8::to_string).collect::<Vec<_>>().join(sep),
            if north { "N" } else { "S" }
        );
        if let Ok(pos) = text.parse::<Position>() {
            let again: Position = pos.to_string().parse().expect("its own notation reads back");
            prop_assert_eq!(again, pos);
            prop_assert_eq!(pos.total_seeds(), counts.iter().map(|&c| c as u32).sum::<u32>());
        }
    }

    #[test]
    fn any_move_list_is_played_or_refused(
        houses in 1u8..=8,
        seeds in 1u8..=6,
        moves in "[0-9, \\-]{0,40}",
    ) {
        let game = Game::new(Rules::kalah(houses, seeds)).unwrap();
        let start = game.start();
        if let Ok((pos, _)) = play_moves(&game, start, &moves) {
            // Seeds are conserved by every legal line.
            prop_assert_eq!(pos.total_seeds(), start.total_seeds());
        }
    }

    #[test]
    fn any_text_as_moves_is_played_or_refused(moves in "\\PC{0,60}") {
        let game = Game::new(Rules::kalah(6, 4)).unwrap();
        let _ = play_moves(&game, game.start(), &moves);
    }
}
