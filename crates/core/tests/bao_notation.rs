//! Bao notation (BAO.md R8): positions and moves round-trip, and bad text gets a clear
//! error, never a panic.

use kalah_core::bao::{BaoError, BaoMove, BaoPosition, BaoRules, Dir, Row};
use kalah_core::Side;
use proptest::prelude::*;

fn parse(text: &str) -> Result<BaoPosition, BaoError> {
    text.parse()
}

#[test]
fn rules_outside_the_bounds_are_refused() {
    assert_eq!(BaoRules::new(2, 2), Err(BaoError::Pits(2)));
    assert_eq!(BaoRules::new(9, 2), Err(BaoError::Pits(9)));
    assert!(matches!(BaoRules::new(8, 0), Err(BaoError::Seeds { .. })));
    assert!(matches!(BaoRules::new(8, 8), Err(BaoError::Seeds { .. })));
    // A seed count so large that 4 x pits x seeds wraps is refused, not taken.
    assert!(matches!(
        BaoRules::new(8, usize::MAX / 16 + 1),
        Err(BaoError::Seeds { .. })
    ));
    assert_eq!(BaoRules::new(8, 7).unwrap().start().seeds(), 224);
    let msg = BaoRules::new(8, 8).unwrap_err().to_string();
    assert!(msg.contains("1 to 7 seeds"), "{msg}");
}

#[test]
fn position_text_errors_name_the_problem() {
    assert_eq!(parse("2,2,2/2,2,2/2,2,2/2,2,2"), Err(BaoError::MissingSide));
    assert_eq!(
        parse("2,2,2/2,2,2/2,2,2/2,2,2:X"),
        Err(BaoError::BadSide("X".into()))
    );
    assert_eq!(parse("2,2,2/2,2,2/2,2,2:S"), Err(BaoError::Rows(3)));
    assert_eq!(
        parse("2,2,2/2,2/2,2,2/2,2,2:S"),
        Err(BaoError::RowLength { row: 2, found: 2 })
    );
    assert_eq!(
        parse("2,2/2,2/2,2/2,2:S"),
        Err(BaoError::RowLength { row: 3, found: 2 })
    );
    assert_eq!(
        parse("2,2,2/2,x,2/2,2,2/2,2,2:N"),
        Err(BaoError::BadCount {
            row: 2,
            column: 2,
            text: "x".into()
        })
    );
    assert_eq!(
        parse("2,2,2/2,2,2/2,2,2/2,2,256:S"),
        Err(BaoError::BadCount {
            row: 4,
            column: 3,
            text: "256".into()
        })
    );
    assert_eq!(
        parse("200,2,2/2,2,2/2,2,2/2,2,200:S"),
        Err(BaoError::TooManySeeds(420))
    );
    assert_eq!(
        parse("2, 2,2/2,2,2/2,2,2/2,2,2:S"),
        Err(BaoError::BadCount {
            row: 1,
            column: 2,
            text: " 2".into()
        })
    );
}

#[test]
fn position_rows_are_read_as_south_sees_them() {
    let pos = parse("1,2,3/4,5,6/7,8,9/10,11,12:N").unwrap();
    assert_eq!(pos.side(), Side::North);
    // Text column c holds Bc, Ac, a(N+1-c), b(N+1-c).
    assert_eq!(pos.count(Side::South, Row::Front, 1), 7);
    assert_eq!(pos.count(Side::South, Row::Back, 3), 12);
    assert_eq!(pos.count(Side::North, Row::Front, 1), 6);
    assert_eq!(pos.count(Side::North, Row::Back, 3), 1);
    assert_eq!(pos.loop_counts(Side::South), &[7, 8, 9, 12, 11, 10]);
    assert_eq!(pos.to_string(), "1,2,3/4,5,6/7,8,9/10,11,12:N");
    assert_eq!(pos.mirrored().to_string(), "3,2,1/6,5,4/9,8,7/12,11,10:N");
    assert_eq!(pos.turned().to_string(), "12,11,10/9,8,7/6,5,4/3,2,1:S");
}

#[test]
fn move_text_errors_name_the_problem() {
    let start = BaoRules::standard().start();
    assert_eq!(
        start.parse_move("A3+"),
        Ok(BaoMove {
            side: Side::South,
            row: Row::Front,
            pit: 3,
            dir: Dir::Clockwise
        })
    );
    assert_eq!(start.parse_move(" B8− ").unwrap().to_string(), "B8-");
    for bad in [
        "", "A", "A+", "C3+", "A3", "A3*", "A-3", "A 3+", "A003+", "A3++",
    ] {
        assert!(
            matches!(start.parse_move(bad), Err(BaoError::MoveSyntax(_))),
            "'{bad}'"
        );
    }
    assert!(matches!(
        start.parse_move("a3+"),
        Err(BaoError::WrongSide { .. })
    ));
    assert!(matches!(
        start.parse_move("A9+"),
        Err(BaoError::PitRange { pits: 8, .. })
    ));
    assert!(matches!(
        start.parse_move("A0-"),
        Err(BaoError::PitRange { .. })
    ));
    let takasa = start.parse_move("A1-").unwrap();
    assert_eq!(start.try_play(takasa), Err(BaoError::Illegal(takasa)));
    assert_eq!(
        BaoError::Illegal(takasa).to_string(),
        "A1- is not a legal move here"
    );
}

#[test]
fn moves_round_trip_on_every_board() {
    for n in 3..=8 {
        for side in [Side::South, Side::North] {
            for idx in 0..2 * n {
                for dir in [Dir::Clockwise, Dir::Anticlockwise] {
                    let mv = BaoMove::from_loop_index(side, n, idx, dir);
                    assert_eq!(mv.loop_index(n), idx);
                    assert_eq!(BaoMove::parse(&mv.to_string(), n), Ok(mv));
                    assert_eq!(mv.mirrored(n).mirrored(n), mv);
                }
            }
        }
    }
}

proptest! {
    #[test]
    fn arbitrary_position_text_never_panics(text in "[0-9,/:SNx ]{0,60}") {
        if let Ok(pos) = parse(&text) {
            prop_assert_eq!(parse(&pos.to_string()), Ok(pos));
        }
    }

    #[test]
    fn arbitrary_move_text_never_panics(text in "[ABab0-9+\\-−x ]{0,6}") {
        let start = BaoRules::new(5, 2).unwrap().start();
        if let Ok(mv) = start.parse_move(&text) {
            prop_assert_eq!(start.parse_move(&mv.to_string()), Ok(mv));
        }
    }

    #[test]
    fn arbitrary_counts_round_trip(counts in proptest::collection::vec(0u8..9, 12..=32)) {
        let n = counts.len() / 4;
        let c = &counts[..4 * n];
        let pos = BaoPosition::from_rows(
            [&c[..n], &c[n..2 * n], &c[2 * n..3 * n], &c[3 * n..]],
            Side::South,
        )
        .unwrap();
        prop_assert_eq!(parse(&pos.to_string()), Ok(pos));
        prop_assert_eq!(pos.mirrored().mirrored(), pos);
        prop_assert_eq!(pos.turned().turned(), pos);
    }
}
