//! What a solve gives back: the exact [`Solution`], the [`Bound`] of a solve in a window,
//! and the [`Progress`] reports (with their [`Phase`]) of a solve that runs.

use std::time::Duration;

use kalah_core::{Game, Position, Side};

use crate::line::{self, Turn};

/// Which stage a solve is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Depth-limited search to this many sowings, to guess the value and order moves.
    Deepening(u8),
    /// Null-window searches to the end of the game.
    Proving,
    /// Walking the principal variation.
    PrincipalVariation,
    /// Retrograde analysis of a game whose positions repeat ([`crate::retro`]): finding the
    /// positions of the game graph (`None`), then solving the level of this many seeds in
    /// the houses.
    Retrograde(Option<u32>),
}

/// A report on a running solve, for progress displays.
#[derive(Clone, Copy, Debug)]
pub struct Progress {
    /// The stage.
    pub phase: Phase,
    /// Proved lower bound of the value, for the player to move at the root.
    pub lower: i32,
    /// Proved upper bound of the value, for the player to move at the root.
    pub upper: i32,
    /// Nodes searched so far by all threads.
    pub nodes: u64,
    /// Time since the solve started.
    pub elapsed: Duration,
}

impl Progress {
    /// Nodes per second so far.
    pub fn nodes_per_second(&self) -> f64 {
        self.nodes as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
}

/// The exact result of a solve.
#[derive(Clone, Debug)]
pub struct Solution {
    /// The player to move in the solved position.
    pub side: Side,
    /// The value: final store margin under perfect play for the player to move.
    pub value: i32,
    /// A principal variation to the end of the game, as turns.
    pub pv: Vec<Turn>,
    /// Nodes searched by all threads.
    pub nodes: u64,
    /// Wall time.
    pub elapsed: Duration,
    /// Per mille of the transposition table in use at the end.
    pub table_permille: u32,
    /// Positions valued by the endgame database (by all threads).
    pub egdb_hits: u64,
}

impl Solution {
    /// The value from South: final South store minus North store.
    pub fn value_from_south(&self) -> i32 {
        self.side.sign() * self.value
    }

    /// The first turn of the principal variation (empty when the game is over).
    pub fn best_turn(&self) -> Option<&Turn> {
        self.pv.first()
    }

    /// Nodes per second.
    pub fn nodes_per_second(&self) -> f64 {
        self.nodes as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }

    /// Checks this solution of `pos`: its principal variation replays with the checked
    /// move generator, each turn ends exactly where its extra turns end, and the game ends
    /// with exactly the value claimed. Every value the engine reports passes this check.
    pub fn verify(&self, game: &Game, pos: &Position) -> Result<(), line::ReplayError> {
        line::replay(game, pos, &self.pv, self.value_from_south()).map(|_| ())
    }
}

/// What a solve in a window ([`crate::Solver::solve_window`]) proved when the value lies
/// outside the window: bounds of the value for the player to move, at least one of them
/// beyond the window (`upper <= alpha` or `lower >= beta`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bound {
    /// The player to move in the position solved.
    pub side: Side,
    /// The value is at least this, for the player to move.
    pub lower: i32,
    /// The value is at most this, for the player to move.
    pub upper: i32,
    /// Nodes searched by all threads.
    pub nodes: u64,
    /// Wall time.
    pub elapsed: Duration,
}

impl Bound {
    /// The bounds from South, lower first.
    pub fn from_south(&self) -> (i32, i32) {
        match self.side {
            Side::South => (self.lower, self.upper),
            Side::North => (-self.upper, -self.lower),
        }
    }
}
