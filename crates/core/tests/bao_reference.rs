//! The fast Bao engine checked against the simple reference implementation on random
//! positions and random games of every board size, with the invariants of the rules:
//! seeds are conserved until a winning capture, notation round-trips, the two symmetries
//! of R9.2 map legal moves to legal moves.

use crate::bao_common;

use bao_common::reference::{Played, RefPos};
use bao_common::{Rng, BOARDS};
use kalah_core::bao::{BaoPosition, BaoRules};
use kalah_core::Side;

/// The legal moves of both engines with their results, as text, asserted equal.
fn assert_same_moves(pos: &BaoPosition) {
    let text = pos.to_string();
    let r = RefPos::parse(&text);
    assert_eq!(r.text(), text, "the reference reads the notation back");
    let by_ref: Vec<(String, String, bool)> = r
        .legal()
        .into_iter()
        .map(|(m, p)| match p {
            Played::Ends(q) => (m.name(r.mover), q.text(), false),
            Played::Wins(q) => (m.name(r.mover), q.text(), true),
            other => panic!("illegal result {other:?} listed"),
        })
        .collect();
    let by_fast: Vec<(String, String, bool)> = pos
        .legal()
        .iter()
        .map(|c| (c.mv.to_string(), c.next.to_string(), c.wins))
        .collect();
    assert_eq!(by_ref, by_fast, "legal moves of {text}");
    assert_eq!(pos.legal_count(), by_fast.len());
}

/// A random position of `n` pits a row holding `seeds` seeds, `side` to move.
fn random_position(rng: &mut Rng, n: usize, seeds: usize, side: Side) -> BaoPosition {
    let mut counts = vec![0u8; 4 * n];
    for _ in 0..seeds {
        counts[rng.below(4 * n)] += 1;
    }
    let (a, rest) = counts.split_at(n);
    let (b, rest) = rest.split_at(n);
    let (na, nb) = rest.split_at(n);
    BaoPosition::from_rows([a, b, na, nb], side).unwrap()
}

/// What the random positions exercised: candidates never-ending, self-emptying, winning,
/// and positions whose legal moves are back-row takasas.
#[derive(Default, Debug)]
struct Seen {
    never_ending: usize,
    self_emptying: usize,
    wins: usize,
    back_row_takasa: usize,
}

fn tally(seen: &mut Seen, pos: &BaoPosition) {
    let r = RefPos::parse(&pos.to_string());
    for m in r.candidates() {
        match r.play(m) {
            Played::NeverEnding => seen.never_ending += 1,
            Played::SelfEmptying => seen.self_emptying += 1,
            Played::Wins(_) => seen.wins += 1,
            Played::Ends(_) => {}
        }
    }
    let legal = r.legal();
    if !legal.is_empty() && legal.iter().all(|(m, _)| m.pit.row == 1 && !r.is_mtaji(*m)) {
        seen.back_row_takasa += 1;
    }
}

#[test]
fn random_positions_match_reference() {
    let mut rng = Rng(36);
    let per_board = if cfg!(debug_assertions) { 100 } else { 2000 };
    let mut seen = Seen::default();
    for n in 3..=8 {
        for _ in 0..per_board {
            let seeds = 2 + rng.below(8 * n);
            let side = if rng.below(2) == 0 {
                Side::South
            } else {
                Side::North
            };
            let pos = random_position(&mut rng, n, seeds, side);
            assert_same_moves(&pos);
            tally(&mut seen, &pos);
        }
    }
    assert!(
        seen.never_ending > 0
            && seen.self_emptying > 0
            && seen.wins > 0
            && seen.back_row_takasa > 0,
        "the random positions exercise every rule: {seen:?}"
    );
    println!("{seen:?}");
}

/// Checks the symmetries of R9.2 at `pos`: the mirrored and the turned position have the
/// mirrored and the turned moves, leading to the mirrored and turned results.
fn assert_symmetric(pos: &BaoPosition) {
    let n = pos.pits();
    let mut mirror: Vec<_> = pos
        .legal()
        .iter()
        .map(|c| (c.mv.mirrored(n).to_string(), c.next.mirrored(), c.wins))
        .collect();
    let mut of_mirror: Vec<_> = pos
        .mirrored()
        .legal()
        .iter()
        .map(|c| (c.mv.to_string(), c.next, c.wins))
        .collect();
    mirror.sort_by(|a, b| a.0.cmp(&b.0));
    of_mirror.sort_by(|a, b| a.0.cmp(&b.0));
    assert_eq!(mirror, of_mirror, "mirror of {pos}");
    let turn: Vec<_> = pos
        .legal()
        .iter()
        .map(|c| (c.mv.turned(), c.next.turned(), c.wins))
        .collect();
    let of_turn: Vec<_> = pos
        .turned()
        .legal()
        .iter()
        .map(|c| (c.mv, c.next, c.wins))
        .collect();
    assert_eq!(turn, of_turn, "half turn of {pos}");
}

#[test]
fn random_games_match_reference_and_keep_invariants() {
    let mut rng = Rng(2026);
    let games = if cfg!(debug_assertions) { 3 } else { 30 };
    for &(n, s) in BOARDS {
        let rules = BaoRules::new(n, s).unwrap();
        for _ in 0..games {
            let mut pos = rules.start();
            for _ply in 0..200 {
                assert_same_moves(&pos);
                assert_symmetric(&pos);
                assert_eq!(pos.to_string().parse::<BaoPosition>().unwrap(), pos);
                assert_eq!(pos.seeds(), 4 * n * s, "seeds are conserved in {pos}");
                let legal = pos.legal();
                if legal.is_empty() {
                    assert_eq!(pos.terminal_value(), Some(-1));
                    break;
                }
                let child = *legal.iter().nth(rng.below(legal.len())).unwrap();
                assert_eq!(child.wins, child.next.is_over());
                assert_eq!(child.next.side(), pos.side().other());
                if child.wins {
                    assert!(child.next.seeds() < 4 * n * s);
                    assert_eq!(child.next.terminal_value(), Some(-1));
                    break;
                }
                pos = child.next;
            }
        }
    }
}

#[test]
fn keys_differ_for_side_and_board() {
    let start = BaoRules::standard().start();
    assert_ne!(start.key(), start.with_side(Side::North).key());
    let next = start.legal().iter().next().unwrap().next;
    assert_ne!(start.key(), next.with_side(Side::South).key());
    assert_eq!(start.key(), start.turned().turned().key());
    assert_eq!(start.mirrored(), start);
}
