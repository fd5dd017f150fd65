//! Bao la Kujifunza (docs/bao.md): exact win/loss/draw values of small boards by
//! retrograde analysis of the reachable game graph ([`graph`], generic over the game;
//! [`board`], the Bao board as such a graph).
//!
//! The retrograde solver of [`crate::retro`] is not reused: it solves store margins level
//! by level (seeds leave the houses), while Bao keeps every seed on the board until the
//! capture that ends the game, so its whole graph is one level of win/loss/draw values.

pub mod board;
pub mod graph;

pub use board::{
    solve_position, BaoGraph, BaoKey, BaoSolveError, BaoSolved, BAO_BYTES_PER_POSITION,
};
pub use graph::{solve, GraphProgress, GraphStats, GraphStop, Solved, Step, Value, WldGame};
