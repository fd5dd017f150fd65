//! The Bao board as a game graph ([`BaoGraph`]) and the exact solve of a Bao position
//! ([`solve_position`]): positions stored once per symmetry class, in 128 bits.
//!
//! **The key** of a position is its class under the two symmetries of BAO.md R9.2, which
//! keep the value: the half turn (the position seen from the player to move, who then
//! plays South's rows) and the left-right mirror (the smaller of the two keys). A key
//! lists the 4N pits, the mover's loop then the opponent's, each in loop order (front pit
//! 1..N, back pit N..1), in unary from the lowest bit: a pit of `c` seeds is `c` one bits
//! and a zero. It takes seeds + 4N bits, 96 on the standard board.

use std::sync::atomic::AtomicBool;

use kalah_core::bao::{BaoMove, BaoPosition};
use kalah_core::Side;

use super::graph::{self, GraphProgress, GraphStats, GraphStop, Solved, Step, Value, WldGame};

/// A symmetry class of Bao positions (see the module's doc).
pub type BaoKey = u128;

/// Why a Bao position could not be solved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BaoSolveError {
    /// The seeds and pits do not fit the 128 bits of a key.
    TooManySeeds {
        /// Seeds on the board.
        seeds: usize,
        /// Pits on the board (4N).
        pits: usize,
    },
    /// The analysis stopped (cancelled, or the graph passed the limit).
    Stopped(GraphStop),
}

impl std::fmt::Display for BaoSolveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BaoSolveError::TooManySeeds { seeds, pits } => write!(
                f,
                "{seeds} seeds on {pits} pits are too many for the exact solver of Bao (it \
                 keeps a position in 128 bits: seeds + pits at most 128)"
            ),
            BaoSolveError::Stopped(stop) => write!(f, "{stop}"),
        }
    }
}

impl std::error::Error for BaoSolveError {}

/// The Bao game of one board size as a [`WldGame`] over symmetry classes.
#[derive(Clone, Copy, Debug)]
pub struct BaoGraph {
    /// N, the pits of one row.
    pits: usize,
}

impl BaoGraph {
    /// The game of boards of `pits` pits a row.
    pub fn new(pits: usize) -> BaoGraph {
        BaoGraph { pits }
    }

    /// The key of `pos` (`None` where its seeds and pits pass 128 bits).
    pub fn key(&self, pos: &BaoPosition) -> Option<BaoKey> {
        if pos.seeds() + 4 * pos.pits() > 128 {
            return None;
        }
        let mover = match pos.side() {
            Side::South => *pos,
            Side::North => pos.turned(),
        };
        let a = pack(&mover);
        let b = pack(&mover.mirrored());
        Some(a.min(b))
    }

    /// The position of a key, South to move.
    pub fn position(&self, key: BaoKey) -> BaoPosition {
        let n = self.pits;
        let mut loops = [[0u8; 16]; 2];
        let (mut bits, mut pit) = (key, 0);
        while pit < 4 * n {
            let ones = bits.trailing_ones();
            loops[pit / (2 * n)][pit % (2 * n)] = ones as u8;
            bits = bits.checked_shr(ones + 1).unwrap_or(0);
            pit += 1;
        }
        let rows = |l: &[u8; 16]| {
            let front: Vec<u8> = l[..n].to_vec();
            let back: Vec<u8> = (1..=n).map(|k| l[2 * n - k]).collect();
            (front, back)
        };
        let ((sa, sb), (na, nb)) = (rows(&loops[0]), rows(&loops[1]));
        BaoPosition::from_rows([&sa, &sb, &na, &nb], Side::South).expect("a key's board")
    }
}

/// The unary packing of a position's loops, South's first (see the module's doc).
fn pack(pos: &BaoPosition) -> BaoKey {
    let (mut key, mut at) = (0u128, 0u32);
    for side in [Side::South, Side::North] {
        for &c in pos.loop_counts(side) {
            key |= ((1u128 << c) - 1) << at;
            at += c as u32 + 1;
        }
    }
    key
}

impl WldGame for BaoGraph {
    type State = BaoKey;

    fn moves(&self, state: &BaoKey, out: &mut Vec<Step<BaoKey>>) {
        let pos = self.position(*state);
        for child in pos.legal().iter() {
            out.push(match child.wins {
                true => Step::Wins,
                // A move keeps the seeds or, winning, ends the game: the key fits.
                false => Step::To(self.key(&child.next).expect("seeds kept")),
            });
        }
    }

    fn moves_until(
        &self,
        state: &BaoKey,
        out: &mut Vec<Step<BaoKey>>,
        stop: &dyn Fn() -> bool,
    ) -> bool {
        let pos = self.position(*state);
        let visit = |_, next: &BaoPosition, wins: bool| {
            out.push(match wins {
                true => Step::Wins,
                // A move keeps the seeds or, winning, ends the game: the key fits.
                false => Step::To(self.key(next).expect("seeds kept")),
            });
        };
        pos.for_each_child_until(&|| stop(), visit).is_some()
    }
}

/// Every position reachable from a Bao position, solved.
pub struct BaoSolved {
    graph: BaoGraph,
    solved: Solved<BaoKey>,
}

/// Solves every position reachable from `root` exactly, stopping where they pass `limit`
/// positions or `cancel` is set.
pub fn solve_position(
    root: &BaoPosition,
    limit: u64,
    cancel: &AtomicBool,
    progress: &mut dyn FnMut(&GraphProgress),
) -> Result<BaoSolved, BaoSolveError> {
    let graph = BaoGraph::new(root.pits());
    let key = graph.key(root).ok_or(BaoSolveError::TooManySeeds {
        seeds: root.seeds(),
        pits: 4 * root.pits(),
    })?;
    let solved =
        graph::solve(&graph, &key, limit, cancel, progress).map_err(BaoSolveError::Stopped)?;
    Ok(BaoSolved { graph, solved })
}

/// Memory a position of the analysis takes with its 128-bit key (an estimate for sizing
/// the limit).
pub const BAO_BYTES_PER_POSITION: u64 = graph::BYTES_PER_POSITION + 32;

impl BaoSolved {
    /// The value of `pos` for the player to move, where it is reachable from the root.
    pub fn value(&self, pos: &BaoPosition) -> Option<Value> {
        if pos.pits() != self.graph.pits {
            return None;
        }
        self.solved.value(&self.graph.key(pos)?)
    }

    /// Every legal move of `pos` with its value for the mover, in canonical order (`None`
    /// where `pos` is not reachable from the root).
    pub fn move_values(&self, pos: &BaoPosition) -> Option<Vec<(BaoMove, Value)>> {
        self.value(pos)?;
        pos.legal()
            .iter()
            .map(|c| match c.wins {
                true => Some((c.mv, Value::Win(1))),
                false => self.value(&c.next).map(|v| (c.mv, v.through())),
            })
            .collect()
    }

    /// The best move of `pos` with its value: the fastest win, else a draw, else the
    /// slowest loss; the first of equals in canonical order. `None` where it has no move
    /// or is not reachable.
    pub fn best_move(&self, pos: &BaoPosition) -> Option<(BaoMove, Value)> {
        let values = self.move_values(pos)?;
        let best = values.iter().map(|(_, v)| v.rank()).max()?;
        values.into_iter().find(|(_, v)| v.rank() == best)
    }

    /// A principal variation from `pos`: best moves to the end of the game where it is won
    /// or lost, or up to the first position that would repeat where it is drawn.
    pub fn line(&self, pos: &BaoPosition) -> Vec<BaoMove> {
        let mut line = Vec::new();
        let mut seen = std::collections::HashSet::new();
        let mut pos = *pos;
        while seen.insert(pos) {
            let Some((mv, _)) = self.best_move(&pos) else {
                break;
            };
            line.push(mv);
            match pos.try_play(mv).expect("a legal move") {
                (_, true) => break,
                (next, false) => pos = next,
            }
        }
        line
    }

    /// The counts of the analysis (positions are symmetry classes).
    pub fn stats(&self) -> GraphStats {
        self.solved.stats()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kalah_core::bao::BaoRules;

    #[test]
    fn a_key_unpacks_to_its_position_seen_from_the_mover() {
        let rules = BaoRules::new(4, 2).unwrap();
        let mut pos = rules.start();
        let graph = BaoGraph::new(4);
        for _ in 0..12 {
            let Some(child) = pos
                .legal()
                .iter()
                .nth(1)
                .or(pos.legal().iter().next())
                .copied()
            else {
                break;
            };
            let key = graph.key(&pos).unwrap();
            let back = graph.position(key);
            let mover = match pos.side() {
                Side::South => pos,
                Side::North => pos.turned(),
            };
            assert!(back == mover || back == mover.mirrored(), "{pos}");
            assert_eq!(graph.key(&back), Some(key));
            pos = child.next;
        }
    }
}
