//! `kalah solve`: the exact value of a position, its best turn and a principal variation;
//! with a limit, or when interrupted, what is proven and the best guess. With `--rules
//! bao`, Bao's win, loss or draw by retrograde analysis of the whole game graph. Either
//! kind is solved by the board's `kalah_analysis::analyse::Exact` (within a limit, its
//! `Analyst`).

use std::io::Write;

use kalah_analysis::analyse::{ExactError, Shown};

use crate::analyse;
use crate::analysis_io::interrupt_flag;
use crate::args::GameArgs;
use crate::args::LimitArgs;
use crate::error::CliError;
use crate::solving::{GraphArgs, SetupSpinner, SolverArgs};

/// Solve a position exactly: its value under perfect play, best turn and principal variation.
///
/// The value is the final store difference South minus North (stores already banked
/// included) when both sides play perfectly. The principal variation is replayed before
/// anything is printed, to check that it ends with exactly that value.
///
/// With --time, --nodes or --depth the solve is the analysis of `kalah analyse` under that
/// limit: exact if the proof ends in time, else the proven interval and the best guess.
/// Interrupted (Ctrl-C, SIGTERM), a solve prints the interval proved so far and a best
/// guess, says that the value is not exact, and exits with status 3; stopped while it
/// builds its endgame database for the cache, it keeps the seed levels finished there, and
/// the next solve goes on from them.
///
/// With --rules bao, a Bao position: win, loss or draw for the side to move, in how many
/// moves, its best move, a principal variation and the value of every legal move. Every
/// position reachable from it is solved by retrograde analysis, within --memory-mb;
/// positions that only cycle are draws (BAO.md R9.1). This finishes on small boards only
/// (4 rows of 3 pits with 2 seeds: 21.6 million positions); a larger graph stops at the
/// memory limit with an error. With --time, --nodes or --depth, Bao's anytime analysis
/// instead (`kalah analyse --rules bao`): the best move and what is proven, on any board.
/// JSON: value, value_for_mover, result, best_turn, pv, turns, positions, seconds
/// (docs/outputs.md).
///
/// Example: `kalah solve --houses 6 --seeds 4 --capture empty --json` or `kalah solve
/// --rules bao --houses 3 --seeds 2`
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Print one JSON object (value, best_turn, pv, nodes, seconds, ...) instead of text
    #[arg(long)]
    json: bool,

    #[command(flatten)]
    limits: LimitArgs,

    #[command(flatten)]
    game: GameArgs,

    #[command(flatten)]
    solver: SolverArgs,

    #[command(flatten)]
    graph: GraphArgs,
}

/// Runs `kalah solve`: within a limit, the board's analyst
/// ([`kalah_analysis::analyse::Analyst::solve_within`]); else the board's exact solve, with
/// a spinner, its best guess where it is interrupted.
pub fn run(args: &Args, out: &mut dyn Write) -> Result<(), CliError> {
    let board = args.game.board()?;
    // Ctrl-C from here on: a database build stops, a solve prints what it proved.
    interrupt_flag();
    let setup = SetupSpinner::of(&args.solver);
    let solving = args.solver.solving(&setup);
    if let Some(limits) = args.limits.given() {
        let shown = Shown {
            multi: 1,
            json: args.json,
            verbose: false,
        };
        let analyst = board.analyst::<CliError>(shown, &solving, &limits, None)?;
        analyst
            .solve_within(&limits, interrupt_flag(), out)
            .map_err(analyse::analyst_error)?;
        return Ok(());
    }
    let exact = board
        .exact(args.graph.memory_mb, &solving, args.json, out)
        .map_err(exact_error)?;
    let spinner = args.solver.spinner();
    let solved = exact.solve(interrupt_flag(), &mut |m| spinner.set_message(m));
    spinner.finish_and_clear();
    let solved = match solved {
        Ok(solved) => solved,
        Err(ExactError::Cancelled(last)) => {
            let words = exact.interrupted(last.as_ref(), args.json, out);
            return Err(CliError::Incomplete(words.map_err(analyse::analyst_error)?));
        }
        Err(e) => return Err(exact_error(e)),
    };
    solved.write(args.json, out)?;
    Ok(())
}

/// The command-line error of an exact solve that gave no value: an interrupted one, its
/// guess written, is incomplete (exit status 3).
fn exact_error(e: ExactError) -> CliError {
    match e {
        ExactError::Cancelled(_) => crate::analysis_io::interrupted("nothing proved"),
        ExactError::Unsolved(words) => crate::analysis_io::invalid(words),
        ExactError::Replay(msg) => CliError::Internal(msg),
        ExactError::Setup(e) => e.into(),
        ExactError::Interrupted(words) => CliError::Incomplete(words),
        ExactError::Guess(e) => analyse::analyst_error(e),
    }
}
