//! The worked examples E1..E16 of BAO.md §10, each asserted by the simple reference
//! implementation and by the fast engine of `kalah_core::bao`.

use crate::bao_common;

use std::collections::HashMap;

use bao_common::reference::{Played, RefPos};
use kalah_core::bao::{perft, BaoPosition, BaoRules};

fn fast(text: &str) -> BaoPosition {
    text.parse().unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// The legal moves of `text` by both engines, as one space-separated string.
fn legal_both(text: &str) -> String {
    let r = RefPos::parse(text);
    let by_ref: Vec<String> = r.legal().iter().map(|(m, _)| m.name(r.mover)).collect();
    let by_fast: Vec<String> = fast(text).legal().moves().map(|m| m.to_string()).collect();
    assert_eq!(by_ref, by_fast, "legal moves of {text}");
    by_fast.join(" ")
}

/// The position after `mv` by both engines and whether it won, checked equal.
fn play_both(text: &str, mv: &str) -> (String, bool) {
    let r = RefPos::parse(text);
    let (after, won) = match r.play(r.candidate(mv)) {
        Played::Ends(q) => (q.text(), false),
        Played::Wins(q) => (q.text(), true),
        other => panic!("{mv} in {text}: {other:?}"),
    };
    let pos = fast(text);
    let (next, wins) = pos.try_play(pos.parse_move(mv).unwrap()).unwrap();
    assert_eq!(
        (next.to_string(), wins),
        (after.clone(), won),
        "{mv} in {text}"
    );
    (after, won)
}

/// Asserts the legal moves of `text` and the result of `mv`.
fn example(text: &str, legal: &str, mv: &str, result: &str) {
    assert_eq!(legal_both(text), legal);
    assert_eq!(play_both(text, mv), (result.to_string(), false));
}

fn reference_outcome(text: &str, mv: &str) -> Played {
    let r = RefPos::parse(text);
    r.play(r.candidate(mv))
}

#[test]
fn e1_relay_sowing_turns_the_corner() {
    example(
        "0,0,0,0,0,0,0,2/0,0,0,0,0,0,0,1/2,0,1,0,3,0,0,0/0,0,0,0,0,0,0,0:S",
        "A1+ A1- A5+ A5-",
        "A1+",
        "0,0,0,0,0,0,0,2/0,0,0,0,0,0,0,1/0,1,0,1,0,1,1,1/0,0,0,0,0,0,0,1:N",
    );
}

#[test]
fn e2_left_kimbi_capture_sows_clockwise_from_left_kichwa() {
    example(
        "0,0,0,0,0,0,0,0/0,3,0,0,0,0,0,1/0,1,0,2,0,0,0,0/0,0,0,0,0,0,0,0:S",
        "A4-",
        "A4-",
        "0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,1/1,3,0,1,1,0,0,0/0,0,0,0,0,0,0,0:N",
    );
}

#[test]
fn e3_right_kimbi_capture_sows_anticlockwise_from_right_kichwa() {
    example(
        "0,0,0,0,0,0,0,0/1,0,0,0,0,0,2,0/0,0,0,0,2,0,1,0/0,0,0,0,0,0,0,0:S",
        "A5+",
        "A5+",
        "0,0,0,0,0,0,0,0/1,0,0,0,0,0,0,0/0,0,0,1,1,2,0,1/0,0,0,0,0,0,0,0:N",
    );
}

#[test]
fn e4_middle_capture_keeps_the_direction() {
    example(
        "0,0,0,0,0,0,0,0/0,0,0,3,0,0,0,1/0,2,0,1,0,0,0,0/0,0,0,0,0,0,0,0:S",
        "A2+",
        "A2+",
        "0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,1/1,1,0,3,1,0,0,0/0,0,0,0,0,0,0,0:N",
    );
}

#[test]
fn e5_chain_of_three_captures_and_two_relays() {
    let text = "0,0,0,0,0,0,0,0/1,0,0,2,0,0,1,1/0,0,0,1,0,2,1,0/0,0,0,0,0,0,0,0:S";
    let result = "0,0,0,0,0,0,0,0/1,0,0,0,0,0,0,0/0,0,1,3,0,1,3,0/0,0,0,0,0,0,0,0:N";
    example(text, "A6-", "A6-", result);
    let after = fast(result);
    assert!(!after.is_over());
    assert_eq!(after.seeds(), 9);
}

#[test]
fn e6_capture_emptying_the_front_row_ends_the_game_at_once() {
    let text = "0,3,0,0/0,2,0,0/0,1,0,2/0,0,0,0:S";
    assert_eq!(legal_both(text), "A4-");
    let result = "0,3,0,0/0,0,0,0/0,2,1,0/0,0,0,0:N";
    assert_eq!(play_both(text, "A4-"), (result.to_string(), true));
    let after = fast(result);
    assert!(after.is_over());
    assert_eq!(after.terminal_value(), Some(-1));
    assert_eq!(after.seeds(), 6);
    assert_eq!(legal_both(result), "");
}

#[test]
fn e7_pit_of_2n_seeds_is_takasa_and_lone_kichwa_stays_in_front() {
    let text = "0,0,0/0,1,1/7,0,0/0,0,0:S";
    assert_eq!(reference_outcome(text, "A1-"), Played::SelfEmptying);
    let r = RefPos::parse(text);
    assert!(!r.is_mtaji(r.candidate("A1+")));
    example(text, "A1+", "A1+", "0,0,0/0,1,1/2,1,2/0,2,0:N");
}

#[test]
fn e8_capture_is_compulsory() {
    let text = "0,0,0,0,0,0,0,0/0,2,1,0,0,0,0,0/2,2,1,0,0,0,0,0/2,0,0,0,0,0,0,2:S";
    assert_eq!(RefPos::parse(text).candidates().len(), 8);
    example(
        text,
        "A1+ B1+",
        "A1+",
        "0,0,0,0,0,0,0,0/0,2,0,0,0,0,0,0/1,3,2,0,0,0,0,0/2,0,0,0,0,0,0,2:N",
    );
    assert_eq!(
        play_both(text, "B1+").0,
        "0,0,0,0,0,0,0,0/0,0,1,0,0,0,0,0/4,0,2,1,1,1,0,0/0,0,0,0,0,0,0,2:N"
    );
}

#[test]
fn e9_takasa_starts_in_the_front_row() {
    let text = "0,0,0,0/0,0,0,1/3,0,0,0/0,2,0,2:S";
    assert_eq!(reference_outcome(text, "A1-"), Played::SelfEmptying);
    for back in ["B2+", "B2-", "B4+", "B4-"] {
        assert!(matches!(reference_outcome(text, back), Played::Ends(_)));
    }
    example(text, "A1+", "A1+", "0,0,0,0/0,0,0,1/0,1,1,1/0,2,0,2:N");
}

#[test]
fn e10_no_legal_move_loses() {
    let text = "0,1,0/1,0,1/1,0,1/0,1,0:N";
    assert_eq!(legal_both(text), "");
    let pos = fast(text);
    assert!(!pos.is_over());
    assert_eq!(pos.terminal_value(), Some(-1));
}

#[test]
fn e11_never_ending_move_is_illegal() {
    let text = "0,0,0/0,1,0/2,0,2/1,0,1:S";
    let r = RefPos::parse(text);
    assert_eq!(r.first_return(r.candidate("A1+"), 1000), Some(18));
    assert_eq!(reference_outcome(text, "A1+"), Played::NeverEnding);
    assert_eq!(reference_outcome(text, "A3-"), Played::NeverEnding);
    example(text, "A1- A3+", "A1-", "0,0,0/0,1,0/0,0,2/2,1,1:N");
}

#[test]
fn e12_standard_start() {
    let start = BaoRules::standard().start();
    let text = "2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2:S";
    assert_eq!(start.to_string(), text);
    assert_eq!(
        legal_both(text),
        "A1+ A2+ A3+ A3- A4+ A4- A5+ A5- A6+ A6- A7- A8- B1+ B2+ B7- B8-"
    );
    let r = RefPos::parse(text);
    assert!(r.legal().iter().all(|(m, _)| r.is_mtaji(*m)));
    assert_eq!(perft(&start, 1), 16);
    assert_eq!(perft(&start, 2), 108);
    assert_eq!(r.perft(2), 108);
}

#[test]
fn e13_chain_played_by_north() {
    let text = "0,0,0,0,0,0,0,0/0,1,2,0,1,0,0,0/1,1,0,0,2,0,0,1/0,0,0,0,0,0,0,0:N";
    example(
        text,
        "a6-",
        "a6-",
        "0,0,0,0,0,0,0,0/0,3,1,0,3,1,0,0/0,0,0,0,0,0,0,1/0,0,0,0,0,0,0,0:S",
    );
    // E5 turned through 180 degrees.
    let e5 = fast("0,0,0,0,0,0,0,0/1,0,0,2,0,0,1,1/0,0,0,1,0,2,1,0/0,0,0,0,0,0,0,0:S");
    assert_eq!(e5.turned(), fast(text));
}

#[test]
fn e14_never_ending_candidate_with_a_very_long_cycle() {
    let text = "0,2,2,2,2,2,2,2/3,3,1,1,0,0,0,0/1,0,6,5,3,0,1,8/0,3,6,1,2,1,4,1:S";
    let r = RefPos::parse(text);
    assert!(!r.is_mtaji(r.candidate("A4+")));
    assert_eq!(
        r.first_return(r.candidate("A4+"), 7_000_000),
        Some(6_474_848)
    );
    assert_eq!(legal_both(text), "B3+");
}

#[test]
fn e15_front_row_takasas_never_ending_so_back_row_plays() {
    let text = "1,0,0/2,0,0/1,3,1/2,1,0:S";
    let r = RefPos::parse(text);
    let names: Vec<String> = r.candidates().iter().map(|m| m.name(0)).collect();
    assert_eq!(names.join(" "), "A2+ A2- B1+ B1-");
    assert_eq!(reference_outcome(text, "A2+"), Played::NeverEnding);
    assert_eq!(reference_outcome(text, "A2-"), Played::NeverEnding);
    assert_eq!(legal_both(text), "B1+ B1-");
}

/// Values (R9.1) of every position reachable from `root`, by the reference's moves,
/// computed by repeating R9.1's two rules until nothing changes. The fast engine's legal
/// moves and results are checked equal at every position on the way.
fn values_from(root: &str) -> HashMap<String, i32> {
    let mut children: HashMap<String, Vec<(String, bool)>> = HashMap::new();
    let mut todo = vec![root.to_string()];
    while let Some(t) = todo.pop() {
        if children.contains_key(&t) {
            continue;
        }
        let r = RefPos::parse(&t);
        let kids: Vec<(String, bool)> = r
            .legal()
            .into_iter()
            .map(|(_, p)| match p {
                Played::Ends(q) => (q.text(), false),
                Played::Wins(q) => (q.text(), true),
                _ => unreachable!(),
            })
            .collect();
        let by_fast: Vec<(String, bool)> = fast(&t)
            .legal()
            .iter()
            .map(|c| (c.next.to_string(), c.wins))
            .collect();
        assert_eq!(kids, by_fast, "children of {t}");
        todo.extend(kids.iter().map(|k| k.0.clone()));
        children.insert(t, kids);
    }
    let mut value: HashMap<String, i32> = children.keys().map(|k| (k.clone(), 0)).collect();
    loop {
        let mut changed = false;
        for (t, kids) in &children {
            if value[t] != 0 {
                continue;
            }
            let won = kids.iter().any(|(k, wins)| *wins || value[k] == -1);
            let lost = kids.iter().all(|(k, _)| value[k] == 1);
            if won || lost {
                value.insert(t.clone(), if won { 1 } else { -1 });
                changed = true;
            }
        }
        if !changed {
            return value;
        }
    }
}

#[test]
fn e16_repetition_across_turns_is_a_draw() {
    let text = "2,1,0,1/1,0,0,0/0,0,0,1/2,1,1,0:S";
    let value = values_from(text);
    assert_eq!(value[text], 0);
    let line = "B1- b4- B2- a4- A2- a3- A1- a2- B1- a1-";
    let losing = "B1+ b4+ B2+ a4+ A2+ a3+ A1+ a2+ B1+ a1+";
    let mut pos = fast(text);
    let mut seen = Vec::new();
    for (good, bad) in line.split(' ').zip(losing.split(' ')) {
        let legal: Vec<String> = pos.legal().moves().map(|m| m.to_string()).collect();
        let mut expected = vec![good.to_string(), bad.to_string()];
        expected.sort();
        let mut got = legal.clone();
        got.sort();
        assert_eq!(got, expected, "moves at {pos}");
        let (after_bad, _) = pos.try_play(pos.parse_move(bad).unwrap()).unwrap();
        assert_eq!(value[&after_bad.to_string()], 1, "{bad} at {pos} loses");
        let (next, _) = pos.try_play(pos.parse_move(good).unwrap()).unwrap();
        assert_eq!(
            value[&next.to_string()],
            0,
            "{good} at {pos} keeps the draw"
        );
        seen.push(next);
        pos = next;
    }
    assert_eq!(seen[9], seen[1]);
    assert_eq!(seen[1].to_string(), "0,1,0,1/2,1,0,0/0,1,1,0/0,2,0,1:S");
}
