//! The game floor, under every task and front end: a position of either kind of game
//! ([`Board`]: a sowing game, or Bao; what is asked of its position, module `position`)
//! and why the options give none ([`BoardError`]); the board with the line that reached
//! it ([`Line`]); both setups, from the options a front end reads ([`setup`],
//! [`setup::bao`]); what the rules option names ([`RulesName`]); which options each
//! command takes for each kind of game ([`options`]); perft ([`perft`]); every first move
//! of a position ([`turns`]), a position as JSON ([`Board::show_json`]) and the pie rule's decision after one ([`pie`]); the bounds
//! on a value that the seeds still on the board allow ([`bounds`]); which positions solve
//! quickly enough to solve rather than analyse ([`quick`]); and a Bao position's game
//! graph solved, which several tasks do ([`bao_solve`]). Nothing here imports a task
//! (openings, pie, export, batch, the protocol, matches, play, the book): the tasks stand
//! on it.

pub mod bao_solve;
pub mod board;
pub mod bounds;
mod error;
mod line;
pub mod options;
pub mod perft;
pub mod pie;
mod position;
pub mod quick;
pub mod rules;
pub mod setup;
mod show;
pub mod turns;

pub use board::{Board, BoardError};
pub use error::AnalysisError;
pub use line::{Line, SowingLine, Sown};
pub use rules::RulesName;

/// The kind of game a [`Board`] holds: what decides the options a command takes
/// ([`options`]) and the code that answers it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// Kalah and its family of sowing games, Oware among them.
    Sowing,
    /// Bao la Kujifunza (`--rules bao`).
    Bao,
}

impl Board {
    /// The kind of game on the board.
    pub fn kind(&self) -> Kind {
        match self {
            Board::Sowing(..) => Kind::Sowing,
            Board::Bao(..) => Kind::Bao,
        }
    }
}
