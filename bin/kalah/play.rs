//! `kalah play`: a human plays against the engine in the terminal, one turn at a time.
//!
//! The engine plays perfectly by default: each of its turns is the first turn of the
//! exact solver's principal variation, so it never gives away a seed of the position's
//! value. `--engine greedy` plays the simple [`kalah_analysis::play::greedy::greedy_turn`]
//! instead (the largest store margin at the end of its own turn), for a weaker opponent.
//! `--time S` (and the default on boards that do not solve quickly) moves within S
//! seconds by the anytime analysis. With `--rules bao`, a game of Bao. The game loop is
//! [`kalah_analysis::play::session`], its engine chosen by
//! [`kalah_analysis::play::session::EngineChoice::of`]; this file parses the options,
//! makes the solver the choice needs, and runs the game on the terminal.

use std::io::{self, IsTerminal, Write};

use kalah_analysis::play::session::{self, PlayOptions, SessionError, Thinking};
use kalah_core::Side;

use crate::analysis_io::interrupt_flag;
use crate::args::GameArgs;
use crate::book_args::BookArgs;
use crate::error::CliError;
use crate::solving::{graph_error, SetupSpinner, SolverArgs};

/// Play against the engine in the terminal.
///
/// Type a bin number (or a whole turn such as `3-6`) when it is
/// your move, `help` for help, `quit` to stop. Reads moves from standard input, so a game
/// can also be piped in: `printf '3\n6\n' | kalah play`.
///
/// The engine plays perfectly (the exact solver) where the game solves quickly: at most
/// 48 seeds in the houses at the start (Kalah(6,4)), 24 in the families whose positions
/// repeat (Oware(4,3)). On a larger board (`--houses 6 --seeds 6`) it takes 5 seconds a move by
/// default: the anytime analysis, exact where it proves the value in time, else its best
/// turn. `--time S` sets that time on any board; each engine move then says whether it
/// was exact or heuristic (with the interval proved to hold the value).
///
/// With --rules bao, a game of Bao: type a move such as `A3+` (`printf 'A1+\n' | kalah
/// play --rules bao --houses 3`). A position that comes back a third time ends the game
/// as a draw (BAO.md R9.1: play that only cycles is a draw). On a small board (at most a
/// billion ways to lay the seeds in the pits: 4 rows of 3 pits with 2 seeds, or fewer
/// seeds) the engine plays perfectly: the whole game graph is solved first (minutes for
/// 4×3 with 2 seeds, within --memory-mb). On larger boards, or with --time, it analyses
/// each move for --time seconds (default 1) and says whether its move is proven (a forced
/// win found) or a heuristic choice.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The side you play; South moves first
    #[arg(long = "as", value_enum, value_name = "SIDE", default_value = "south")]
    human: Player,

    /// Break ties between equally good engine turns with this seed (without it the engine
    /// takes the first of them in bin order)
    #[arg(long, value_name = "N")]
    seed: Option<u64>,

    /// How the engine plays: perfectly (the exact solver) or greedily
    #[arg(long, value_enum, default_value = "perfect")]
    engine: EngineKind,

    /// Let the engine move within SECONDS (decimals allowed): exact where the analysis
    /// proves the value in time, else its best turn [default: the exact solver where the
    /// game solves quickly, else 5; Bao: 1]
    #[arg(long, value_name = "SECONDS", value_parser = crate::args::parse_seconds, conflicts_with = "engine")]
    time: Option<std::time::Duration>,

    #[command(flatten)]
    solver: SolverArgs,

    #[command(flatten)]
    game: GameArgs,

    #[command(flatten)]
    book: BookArgs,

    #[command(flatten)]
    graph: crate::solving::GraphArgs,
}

/// The engine's way of playing.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum EngineKind {
    /// The exact solver's best turn (one solver, its table kept between turns).
    Perfect,
    /// The turn that leaves the largest store margin at once.
    Greedy,
}

/// A side, as the command line names it.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum Player {
    South,
    North,
}

impl From<Player> for Side {
    fn from(p: Player) -> Side {
        match p {
            Player::South => Side::South,
            Player::North => Side::North,
        }
    }
}

/// Runs `kalah play`: the board's game ([`kalah_analysis::game::Board::play_session`])
/// on the terminal.
pub fn run(args: &Args, out: &mut dyn Write) -> Result<(), CliError> {
    let board = args.game.board()?;
    let options = PlayOptions {
        human: Side::from(args.human),
        time: args.time,
        greedy: args.engine == EngineKind::Greedy,
        seed: args.seed,
        memory_mb: args.graph.memory_mb,
    };
    let setup = SetupSpinner::of(&args.solver);
    let mut spinner = Spinner {
        options: &args.solver,
        bar: None,
    };
    let mut game = board.play_session(
        &options,
        &args.solver.solving(&setup),
        |rules| args.book.load(rules),
        interrupt_flag,
        &mut spinner,
        |e| graph_error(e, options.memory_mb),
        out,
    )?;
    let stdin = io::stdin();
    let echo = !stdin.is_terminal();
    let mut input = kalah_io::LineReader::new(stdin.lock());
    session::run(game.as_mut(), &mut input, echo, out, &mut spinner).map_err(|e| match e {
        SessionError::Write(e) => CliError::Io(e),
        SessionError::Read(_) => CliError::Input(e.to_string()),
        SessionError::Engine(what) => CliError::Internal(what),
    })
}

/// A spinner on the terminal while the engine thinks (none with `--quiet`).
struct Spinner<'a> {
    options: &'a SolverArgs,
    bar: Option<indicatif::ProgressBar>,
}

impl Thinking for Spinner<'_> {
    fn start(&mut self) {
        self.bar = Some(self.options.spinner());
    }

    fn say(&mut self, message: &str) {
        if let Some(bar) = &self.bar {
            bar.set_message(message.to_string());
        }
    }

    fn stop(&mut self) {
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
        }
    }
}
