//! A Bao move generation that a time limit can stop: `for_each_child_until` asks its stop
//! test during long moves only, and gives every child, in order, when it is not stopped.

use kalah_core::bao::{BaoMove, BaoPosition};

/// A 4×8 position with a move that relays for millions of sowings before its
/// never-ending test (R7.3) decides (seconds of one thread), met by an analysis of the
/// position of `LINE`'s start.
const LONG: &str = "1,2,3,2,1,2,1,2/2,3,4,1,11,10,9,1/0,1,0,0,0,0,0,1/1,0,1,0,0,2,1,2:N";
/// A 4×8 position and the analysis' line from it: every node of short moves.
const START: &str = "3,0,3,3,0,3,0,2/0,1,1,1,0,1,0,9/1,6,1,2,7,2,1,1/1,3,0,3,3,0,3,3:N";
const LINE: &str = "b3+ A4+ b6- B8- b2+ A6- a4- A3+ a4+ B4+ a5- B1+ a3+ A3+";

fn children(pos: &BaoPosition) -> Vec<(BaoMove, BaoPosition, bool)> {
    let mut out = Vec::new();
    pos.for_each_child(|m, p, w| out.push((m, *p, w)));
    out
}

#[test]
fn a_generation_never_stopped_gives_every_child_and_short_moves_never_ask() {
    let mut pos: BaoPosition = START.parse().unwrap();
    for text in LINE.split(' ') {
        let all = children(&pos);
        let mut seen = Vec::new();
        let asked = std::cell::Cell::new(0u32);
        let count = pos.for_each_child_until(
            &|| {
                asked.set(asked.get() + 1);
                false
            },
            |m, p, w| seen.push((m, *p, w)),
        );
        assert_eq!(count, Some(all.len()));
        assert_eq!(seen, all);
        // Short moves never ask, so a test that says stop changes nothing.
        assert_eq!(asked.get(), 0, "{pos}");
        let n = pos.for_each_child_until(&|| true, |_, _, _| {});
        assert_eq!(n, Some(all.len()));
        let mv = pos.parse_move(text).unwrap();
        pos = pos.try_play(mv).unwrap().0;
    }
}

#[test]
fn a_long_move_asks_and_stops_when_told() {
    let pos: BaoPosition = LONG.parse().unwrap();
    let asked = std::cell::Cell::new(0u32);
    let stopped = pos.for_each_child_until(
        &|| {
            asked.set(asked.get() + 1);
            asked.get() >= 3
        },
        |_, _, _| {},
    );
    assert_eq!(stopped, None);
    assert_eq!(asked.get(), 3, "asked until it said stop, then no more");
}
