//! The naive minimax of the solver's tests: plain minimax over the deliberately simple
//! reference implementation of the rules (`crates/core/tests/common/reference.rs`),
//! shared by the test files that compare the engine with it.

use std::collections::HashMap;

use kalah_core::{Position, Rules, Side};

use crate::reference::RefBoard;

/// Values already found, by board and mover.
pub type Memo = HashMap<([u8; 18], Side), i32>;

/// Plain minimax over the reference board: no pruning, no ordering, memoised on the whole
/// board (places and mover; the game graph has no cycles). The final store difference for
/// the player to move.
pub fn naive(rules: &Rules, b: &RefBoard, memo: &mut Memo) -> i32 {
    let mover = b.to_move;
    if b.over {
        return b.store(mover) as i32 - b.store(mover.other()) as i32;
    }
    let key = (b.places, mover);
    if let Some(&v) = memo.get(&key) {
        return v;
    }
    let best = b
        .legal_houses()
        .into_iter()
        .map(|j| {
            let child = b.sow(rules, j).0;
            let v = naive(rules, &child, memo);
            if child.to_move == mover {
                v
            } else {
                -v
            }
        })
        .max()
        .expect("a game that is not over has a move");
    memo.insert(key, best);
    best
}

/// The reference board of an engine position.
pub fn reference_of(rules: &Rules, pos: &Position) -> RefBoard {
    let mut b = RefBoard::from_counts(&pos.absolute_counts(), pos.side_to_move());
    b.total = pos.total_seeds();
    b.settled(rules)
}
