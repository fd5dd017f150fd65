//! Bounds of a value, and the two conventions about them stated once: turning bounds from
//! the mover's view to South's (and back), and the bounds that a position's seeds allow.

use kalah_core::{Position, Side};

/// Bounds of a value from South, lower first; equal when the value is exact.
pub type Bounds = (i32, i32);

/// Bounds (or a window) seen from the player to move turned into bounds from South, when
/// `side` is to move: South keeps them, North's are negated and swapped. The turn is its
/// own inverse, so the same call takes bounds from South to the mover's view.
pub fn from_mover(side: Side, (lo, hi): Bounds) -> Bounds {
    match side {
        Side::South => (lo, hi),
        Side::North => (-hi, -lo),
    }
}

/// A value as the front ends write it: `0`, else with its sign (`+3`, `-2`).
pub fn signed(v: i32) -> String {
    if v == 0 {
        "0".to_string()
    } else {
        format!("{v:+}")
    }
}

/// Bounds as text: the value when exact, else `lower .. upper` ([`signed`] each).
pub fn text((lo, hi): Bounds) -> String {
    if lo == hi {
        signed(lo)
    } else {
        format!("{} .. {}", signed(lo), signed(hi))
    }
}

/// The bounds a position's seeds allow, from South: its score, give or take every seed
/// still in the houses (each may yet end in either store; the solver's
/// [`kalah_solver::seed_bounds`], turned to South's view).
pub fn reach(pos: &Position) -> Bounds {
    from_mover(pos.side_to_move(), kalah_solver::seed_bounds(pos))
}

#[cfg(test)]
mod tests {
    use super::*;
    use kalah_core::{Game, Rules};

    #[test]
    fn from_mover_is_its_own_inverse() {
        for side in [Side::South, Side::North] {
            for b in [(-3, 5), (0, 0), (i32::MIN + 1, 7)] {
                assert_eq!(from_mover(side, from_mover(side, b)), b);
            }
        }
        assert_eq!(from_mover(Side::North, (-3, 5)), (-5, 3));
    }

    #[test]
    fn the_reach_of_the_start_is_every_seed_either_way() {
        let game = Game::new(Rules::kalah(4, 3)).unwrap();
        assert_eq!(reach(&game.start()), (-24, 24));
    }

    #[test]
    fn the_reach_is_the_score_give_or_take_the_seeds_left_for_either_mover() {
        let game = Game::new(Rules::kalah(4, 3)).unwrap();
        let mut pos = game.start();
        let mut north_seen = false;
        while !pos.is_over() {
            let left = pos.seeds_in_houses() as i32;
            assert_eq!(
                reach(&pos),
                (pos.score() - left, pos.score() + left),
                "{pos}"
            );
            north_seen |= pos.side_to_move() == Side::North;
            let m = pos.moves().last().expect("a move");
            pos = game.play_unchecked(&pos, m);
        }
        assert!(north_seen);
    }

    #[test]
    fn values_and_bounds_are_written_with_their_sign() {
        assert_eq!(signed(0), "0");
        assert_eq!(signed(3), "+3");
        assert_eq!(text((-2, -2)), "-2");
        assert_eq!(text((-2, 4)), "-2 .. +4");
    }
}
