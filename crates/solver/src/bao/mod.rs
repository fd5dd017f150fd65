//! Bao la Kujifunza (docs/bao.md): exact win/loss/draw values of small boards by
//! retrograde analysis of the reachable game graph ([`graph`]).

pub mod graph;

pub use graph::{solve, GraphProgress, GraphStats, GraphStop, Solved, Step, Value, WldGame};
