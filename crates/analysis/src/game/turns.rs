//! The first moves of a position: every turn the mover may make (a chain of sowings
//! while the extra turns last), or only its first sowings for the pie rule offered that
//! early ([`Offer`]), each with the position it leads to ([`first_steps`]). What the
//! openings, the pie rule, the book and a split enumerate and solve.

use kalah_core::{Game, Position, Sowing};
use kalah_solver::Turn;

/// Where the first move of the mover stops: after the whole turn, or after its first sowing.
///
/// The name comes from the pie rule, whose offer comes at that point (see `kalah_analysis::pie()`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Offer {
    /// After the mover's complete first turn, extra sowings included (the rule of
    /// docs/rules.md §3.6).
    #[default]
    AfterTurn,
    /// After the mover's very first sowing, even when it earned an extra sowing: whoever
    /// then owns the mover's side plays the rest of that turn.
    AfterFirstSowing,
}

impl Offer {
    /// The offer as written in JSON and on the command line: `turn`, `first-sowing`.
    pub fn name(self) -> &'static str {
        match self {
            Offer::AfterTurn => "turn",
            Offer::AfterFirstSowing => "first-sowing",
        }
    }
}

/// One first move: a whole turn or a single sowing (see [`Offer`]), and where it leads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// The sowings, as a turn of the mover.
    pub turn: Turn,
    /// The position it leads to.
    pub after: Position,
}

/// Every first move of the mover in `pos`, in bin order (chains in lexicographic order).
///
/// Empty when the game is over. Under [`Offer::AfterTurn`] each chain of sowings that
/// earns extra sowings is followed to its end, so a turn ends when a sowing passes the
/// turn or ends the game.
pub fn first_steps(game: &Game, pos: &Position, offer: Offer) -> Vec<Step> {
    fn chains(game: &Game, pos: &Position, prefix: &mut Vec<usize>, out: &mut Vec<Step>) {
        for j in game.legal_moves(pos) {
            let (next, how) = game.sow(pos, j);
            prefix.push(j);
            if how == Sowing::ExtraTurn {
                chains(game, &next, prefix, out);
            } else {
                out.push(Step {
                    turn: Turn {
                        side: pos.side_to_move(),
                        sowings: prefix.clone(),
                    },
                    after: next,
                });
            }
            prefix.pop();
        }
    }
    let mut out = Vec::new();
    if pos.is_over() {
        return out;
    }
    match offer {
        Offer::AfterTurn => chains(game, pos, &mut Vec::new(), &mut out),
        Offer::AfterFirstSowing => out.extend(game.legal_moves(pos).map(|j| Step {
            turn: Turn {
                side: pos.side_to_move(),
                sowings: vec![j],
            },
            after: game.play_unchecked(pos, j),
        })),
    }
    out
}
