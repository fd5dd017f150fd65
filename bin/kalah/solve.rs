//! `kalah solve`: the exact value of a position, its best turn and a principal variation;
//! with a limit, or when interrupted, what is proven and the best guess. With `--rules
//! bao`, Bao's win, loss or draw by retrograde analysis of the whole game graph
//! (`kalah_solver::bao`), rendered by `kalah_analysis::wire::bao`.

use std::io::Write;

use kalah_analysis::front::{bao_guess, bao_report, Board, Shown, SowingParts};
use kalah_analysis::solved::{self, SolveReport};
use kalah_analysis::wire;
use kalah_core::bao::{BaoPosition, BaoRules};
use kalah_core::{Game, Position};
use kalah_solver::{Config, Progress, SolveError, Solver};

use crate::analyse::{self, View};
use crate::analysis_io::interrupt_flag;
use crate::args::GameArgs;
use crate::args::LimitArgs;
use crate::error::CliError;
use crate::solving::{
    analysis_solver, progress_message, pv_strings, solved_within, verify, BuildStopped, GraphArgs,
    SolverArgs,
};

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

/// The options `--rules bao` takes besides the board's ([`crate::args::check_game`]).
pub const BAO_OPTIONS: &[&str] = &["json", "time", "nodes", "depth", "memory-mb", "quiet"];

/// Runs `kalah solve`: within a limit, the board's analyst
/// ([`kalah_analysis::front::Analyst::solve_within`]);
/// else the exact solve of its kind.
pub fn run(args: &Args, out: &mut dyn Write) -> Result<(), CliError> {
    let board = args.game.board()?;
    // Ctrl-C from here on: a database build stops, a solve prints what it proved.
    interrupt_flag();
    if let Some(limits) = args.limits.given() {
        let shown = Shown {
            multi: 1,
            json: args.json,
            verbose: false,
        };
        let analyst = board.analyst(shown, |game, pos| {
            let seeds = pos.seeds_in_houses() as usize;
            let solver = analysis_solver(&args.solver, game, seeds, &limits)?;
            Ok::<_, CliError>(SowingParts { solver, book: None })
        })?;
        analyst
            .solve_within(&limits, interrupt_flag(), out)
            .map_err(analyse::analyst_error)?;
        return Ok(());
    }
    match board {
        Board::Sowing(game, pos) => exact(args, *game, pos, out),
        Board::Bao(rules, pos) => bao(args, rules, pos, out),
    }
}

/// The exact solve of a sowing game's position: value, best turn and principal variation,
/// checked by replaying it; interrupted, what is proven and the best guess.
fn exact(args: &Args, game: Game, pos: Position, out: &mut dyn Write) -> Result<(), CliError> {
    let seeds = pos.seeds_in_houses() as usize;
    let config = args.solver.config(&game, seeds, 1)?;
    let solver = match args.solver.try_make_solver(config.clone(), &game)? {
        Ok(solver) => solver,
        Err(stopped) => return build_interrupted(config, &game, &pos, &stopped, args.json, out),
    };
    let spinner = args.solver.spinner();
    let sign = pos.side_to_move().sign();
    let mut last: Option<Progress> = None;
    let solved = solver.solve(&pos, interrupt_flag(), &mut |p| {
        last = Some(*p);
        spinner.set_message(progress_message(p, sign))
    });
    spinner.finish_and_clear();
    let solution = match solved {
        Ok(solution) => solution,
        Err(SolveError::Cancelled) => {
            return interrupted(&solver, &game, &pos, last.as_ref(), args.json, out)
        }
        Err(e @ SolveError::GraphTooLarge { .. }) => {
            return Err(crate::analysis_io::invalid(e.to_string()))
        }
    };
    verify(&game, &pos, &solution)?;

    let report = SolveReport {
        game: &game,
        pos: &pos,
        solver: &solver,
        solution: &solution,
        pv: pv_strings(&game, &solution),
        best: solution.best_turn().map(|t| t.notation(game.houses())),
        egdb_file: wire::report::egdb_file(&solver),
    };
    report.write(args.json, out)?;
    Ok(())
}

/// Runs `kalah solve --rules bao` without a limit: the graph solved within
/// `--memory-mb`; interrupted, a short analysis's best guess.
fn bao(
    args: &Args,
    rules: BaoRules,
    pos: BaoPosition,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let (solution, elapsed) = match solved_within(&args.graph, args.solver.quiet, &pos) {
        Err(CliError::Io(e)) if e.kind() == std::io::ErrorKind::Interrupted => {
            bao_report(&bao_guess(&pos), args.json, true, out)?;
            return Err(CliError::Incomplete(
                "interrupted: the game graph was not solved (nothing is until all of it is); \
                 the line above is a short anytime analysis, exact only where it says proven"
                    .to_string(),
            ));
        }
        other => other?,
    };
    if args.json {
        let report = wire::bao::report::solve_report(&rules, &pos, &solution, elapsed);
        writeln!(out, "{report}")?;
        return Ok(());
    }
    for line in wire::bao::text::solve_lines(&pos, &solution, elapsed) {
        writeln!(out, "{line}")?;
    }
    Ok(())
}

/// The end of a solve interrupted while its endgame database was built: what every
/// interrupted solve prints ([`interrupted`]), from a short analysis without the database
/// (a solver of `config` with none, its table no larger than a short analysis takes), and
/// what of the build was kept, so that the next solve goes on from it.
fn build_interrupted(
    config: Config,
    game: &Game,
    pos: &Position,
    stopped: &BuildStopped,
    json: bool,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let solver = Solver::new(game.clone(), solved::guess_config(config))?;
    match interrupted(&solver, game, pos, None, json, out) {
        Err(CliError::Incomplete(msg)) => {
            Err(CliError::Incomplete(format!("{msg}; {}", stopped.kept)))
        }
        other => other,
    }
}

/// The end of an interrupted solve: the interval its proof had reached (`last`), narrowed
/// by a short analysis over the table it left, which also gives the best guess; printed,
/// then the "not exact" error (exit status 3).
fn interrupted(
    solver: &Solver,
    game: &Game,
    pos: &Position,
    last: Option<&Progress>,
    json: bool,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let a = solved::interrupted_guess(solver, pos, last)
        .map_err(|e| CliError::Incomplete(format!("interrupted: not exact ({e})")))?;
    let view = View {
        game,
        pos,
        multi: 1,
        json,
        verbose: false,
        database: wire::report::egdb_file(solver),
        book: None,
    };
    analyse::summary(&view, &a, out)?;
    Err(CliError::Incomplete(solved::interrupted_words(&a)))
}
