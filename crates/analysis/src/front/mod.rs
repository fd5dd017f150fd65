//! The command-level flow of the tasks not yet in their own folders: a command of one
//! position that analyses it (`analyse`, `solve` within a limit) runs the board's
//! [`Analyst`], one that solves it exactly (`solve`) its [`Exact`]; `openings` asks it for
//! every first turn ([`Openings`]), `pie` for the swap decision ([`PieRun`]).

mod analyst;
mod exact;
mod openings;
mod pie;

use crate::game::bao_solve::{bao_guess, bao_solve_within, BAO_DEFAULT_SECONDS};
use crate::game::Board;
pub use analyst::{
    bao_analysis, bao_report, Analyst, AnalystError, Shown, SowingParts, ANALYSE_DEFAULT_SECONDS,
};
pub use exact::{build_interrupted, Exact, ExactError, Solved};
pub use openings::{book_first_turns, Asked, Listed, Meter, Openings, OpeningsError, Tick};
pub use pie::{decide_report, PieRan, PieRun, PIE_UNIT};
