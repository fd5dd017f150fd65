//! The conventions every search of the solver shares about a score, stated once: whose
//! view a score is from, how it crosses a move ([`across`], [`Bounds::across`]), and the
//! bounds the seeds still in the houses allow ([`seed_bounds`]).
//!
//! **Scores are for the side to move.** A score is a value for the player to move at its
//! position: in the sowing games a final margin (the mover's final store minus the
//! opponent's, counting the stores already banked), in Bao a heuristic value or a decided
//! win or loss (`bao_search`). A move that gives an extra turn (a sowing that ends in the
//! mover's store) leaves the same player to move, so a score passes between parent and
//! child as it is; any other move passes the turn and the score is negated (a range
//! `lo..=hi` becomes `-hi..=-lo`). Every kernel turns a child's score, window or bounds
//! into its parent's through these two functions: the sowing games' search
//! ([`crate::search`]), the cyclic search ([`crate::cyclic_search`]) and Bao's, whose
//! moves always pass the turn (relays and captures are part of one move), so that it
//! calls them with `same_mover = false`.

use kalah_core::Position;

/// The score `v` of one end of a move (for its mover) as a score for the mover at the
/// other end: kept where the move gave an extra turn (`same_mover`), else negated.
#[inline(always)]
pub(crate) fn across(same_mover: bool, v: i32) -> i32 {
    if same_mover {
        v
    } else {
        -v
    }
}

/// A range of scores `lo..=hi` for one mover: bounds of a value, or a search window
/// (alpha, beta).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Bounds {
    pub(crate) lo: i32,
    pub(crate) hi: i32,
}

impl Bounds {
    /// The range holding only `v`.
    #[inline(always)]
    pub(crate) fn exact(v: i32) -> Bounds {
        Bounds { lo: v, hi: v }
    }

    /// The same range for the mover at the other end of a move (see [`across`]).
    #[inline(always)]
    pub(crate) fn across(self, same_mover: bool) -> Bounds {
        if same_mover {
            self
        } else {
            Bounds {
                lo: -self.hi,
                hi: -self.lo,
            }
        }
    }

    /// The range the seeds of `pos` allow ([`seed_bounds`]).
    #[inline(always)]
    pub(crate) fn seeds(pos: &Position) -> Bounds {
        Bounds::reach(pos.store_margin(), pos.seeds_in_houses() as i32)
    }

    /// The range a store margin `margin` with `left` seeds still in the houses allows
    /// ([`seed_bounds`]), for a caller that holds both already (the search's node).
    #[inline(always)]
    pub(crate) fn reach(margin: i32, left: i32) -> Bounds {
        Bounds {
            lo: margin - left,
            hi: margin + left,
        }
    }
}

/// The bounds of the final margin of a sowing game that the seeds still in the houses of
/// `pos` allow, for its mover, lower first: every one of them may yet reach either store
/// (or none, where the game ends with houses uncounted), so the final margin lies within
/// the current store margin ± the seeds in the houses. Both are the margin once the game
/// is over.
#[inline(always)]
pub fn seed_bounds(pos: &Position) -> (i32, i32) {
    let b = Bounds::seeds(pos);
    (b.lo, b.hi)
}

#[cfg(test)]
mod tests {
    use super::*;
    use kalah_core::{Game, Rules};

    #[test]
    fn a_score_keeps_its_sign_over_an_extra_turn_and_flips_over_a_passed_one() {
        assert_eq!((across(true, 3), across(false, 3)), (3, -3));
        let b = Bounds { lo: -2, hi: 5 };
        assert_eq!(b.across(true), b);
        assert_eq!(b.across(false), Bounds { lo: -5, hi: 2 });
        assert_eq!(b.across(false).across(false), b);
    }

    #[test]
    fn the_seeds_of_the_start_allow_every_seed_either_way() {
        let game = Game::new(Rules::kalah(4, 3)).unwrap();
        assert_eq!(seed_bounds(&game.start()), (-24, 24));
        assert_eq!(Bounds::seeds(&game.start()), Bounds { lo: -24, hi: 24 });
    }
}
