//! One position solved or analysed, for the commands of one position: `kalah analyse`
//! (and `kalah solve` within a limit) runs the board's [`Analyst`] (`analyst.rs`), `kalah
//! solve` its [`Exact`] (`exact.rs`) and `kalah show` prints the board
//! ([`Board::show_json`](crate::game::Board::show_json)). What they print: a solved
//! position and an interrupted solve's guess in words ([`solved`]), an analysis as it
//! comes ([`view`]), a solve and a shown position as JSON ([`report`]), and Bao's solve,
//! analysis and board, whose values are outcomes rather than scores ([`bao`]).

mod analyst;
pub mod bao;
mod exact;
pub mod report;
pub mod solved;
pub mod view;

pub use crate::game::bao_solve::bao_analysis;
pub use crate::wire::bao::analysis::bao_report;
pub use analyst::{Analyst, AnalystError, Shown, SowingParts};
pub use exact::{build_interrupted, Exact, ExactError, Solved};
