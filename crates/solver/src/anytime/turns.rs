//! The root turns of the sowing games, for both of their kernels (the sowing games' search
//! and the cyclic search): every whole turn of the player to move, each sowing followed
//! through the extra turns it gives, with the positions on the way and the one it leaves.

use kalah_core::{Game, Position};

/// One whole turn of the player to move.
pub(crate) struct WholeTurn {
    /// Its sowings, in order (one, or more where the first ones gave extra turns).
    pub(crate) sowings: Vec<usize>,
    /// The position before each sowing: the root first.
    pub(crate) path: Vec<Position>,
    /// The position the turn leaves: the opponent to move, or the game over.
    pub(crate) child: Position,
}

/// Every whole turn of the mover of `pos` (none where the game is over), in the order of
/// their sowings.
pub(crate) fn whole_turns(game: &Game, pos: &Position) -> Vec<WholeTurn> {
    let side = pos.side_to_move();
    let mut out = Vec::new();
    let mut stack = vec![(Vec::new(), vec![*pos])];
    while let Some((sowings, path)) = stack.pop() {
        let at = *path.last().expect("a path holds its start");
        for m in game.legal_moves(&at) {
            let child = game.play_unchecked(&at, m);
            let mut s: Vec<usize> = sowings.clone();
            s.push(m);
            if child.side_to_move() == side && !child.is_over() {
                let mut p = path.clone();
                p.push(child);
                stack.push((s, p));
            } else {
                out.push(WholeTurn {
                    sowings: s,
                    path: path.clone(),
                    child,
                });
            }
        }
    }
    out.sort_by(|a, b| a.sowings.cmp(&b.sowings));
    out
}
