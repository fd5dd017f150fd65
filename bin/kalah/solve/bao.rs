//! `kalah solve --rules bao`: the exact win/loss/draw value of a Bao position by
//! retrograde analysis of its whole game graph, with every move's value
//! (kalah_solver::bao); the graph solved within `--memory-mb` for the other commands of
//! Bao that solve one (`openings`, `play`, `batch`, `export`).

use std::io::Write;
use std::time::{Duration, Instant};

use kalah_analysis::wire;
use kalah_core::bao::{BaoMove, BaoPosition};
use kalah_solver::bao::{
    solve_position, BaoSolveError, BaoSolved, GraphStop, Value, BAO_BYTES_PER_POSITION,
};

use crate::analyse::bao::{within, write_report};
use crate::analysis_io::{interrupt_flag, on_terminal};
use crate::args::BAO_HEADING;
use crate::error::CliError;

/// How long an interrupted solve analyses for its best guess.
const GUESS_TIME: Duration = Duration::from_millis(300);

/// The memory a Bao game graph may take (`--memory-mb`), for the commands that solve one.
#[derive(clap::Args, Debug, Clone)]
pub struct GraphArgs {
    /// The most memory Bao's game graph may take, in MiB
    #[arg(long, value_name = "MIB", default_value_t = 4096, help_heading = BAO_HEADING,
          value_parser = clap::value_parser!(u64).range(1..=1 << 20))]
    pub memory_mb: u64,
}

/// A value for the side to move, as printed: `win in 3 (South wins)`.
fn words(pos: &BaoPosition, v: Value) -> String {
    let (mover, other) = (pos.side(), pos.side().other());
    match v {
        Value::Win(_) => format!("{} ({mover} wins)", v.describe()),
        Value::Loss(_) => format!("{} ({other} wins)", v.describe()),
        Value::Draw => "draw (best play repeats for ever)".to_string(),
    }
}

/// Solves `pos` within the memory of `graph`, showing progress unless `quiet`.
pub(crate) fn solved_within(
    graph: &GraphArgs,
    quiet: bool,
    pos: &BaoPosition,
) -> Result<(BaoSolved, Duration), CliError> {
    let memory_mb = graph.memory_mb;
    let limit = memory_mb * (1 << 20) / BAO_BYTES_PER_POSITION;
    let spinner = on_terminal(
        quiet,
        indicatif::ProgressBar::new_spinner,
        "{spinner} [{elapsed}] {msg}",
        120,
    );
    let timer = Instant::now();
    let result = solve_position(pos, limit, interrupt_flag(), &mut |p| {
        spinner.set_message(match p.decided {
            None => format!("{} positions found", p.positions),
            Some(d) => format!("{d} of {} positions decided", p.positions),
        })
    });
    spinner.finish_and_clear();
    match result {
        Ok(s) => Ok((s, timer.elapsed())),
        Err(BaoSolveError::Stopped(GraphStop::Cancelled)) => Err(crate::analysis_io::interrupted(
            "nothing is solved until the whole graph is; --time S gives the anytime \
             analysis's best move and what it proves",
        )),
        Err(e @ BaoSolveError::Stopped(GraphStop::TooLarge { .. })) => {
            Err(CliError::Input(format!(
                "{e} (--memory-mb {memory_mb}); --time S gives the anytime analysis's best \
                 move and what it proves on any board"
            )))
        }
        Err(e) => Err(CliError::Input(e.to_string())),
    }
}

/// Runs `kalah solve --rules bao`.
pub fn solve(args: &super::Args, out: &mut dyn Write) -> Result<(), CliError> {
    let (rules, pos) = args.game.bao_setup()?;
    if let Some(limits) = args.limits.given() {
        return within(&pos, &limits, args.json, false, out);
    }
    let (solution, elapsed) = match solved_within(&args.graph, args.solver.quiet, &pos) {
        Err(CliError::Io(e)) if e.kind() == std::io::ErrorKind::Interrupted => {
            return interrupted(&pos, args.json, out)
        }
        other => other?,
    };
    if args.json {
        let report = wire::bao::report::solve_report(&rules, &pos, &solution, elapsed);
        writeln!(out, "{report}")?;
        return Ok(());
    }
    let value = solution.value(&pos).expect("the root is solved");
    let moves = solution.move_values(&pos).expect("the root is solved");
    let pv: Vec<String> = solution.line(&pos).iter().map(|m| m.to_string()).collect();
    let stats = solution.stats();
    writeln!(out, "position: {pos}")?;
    writeln!(
        out,
        "value:    {} for {} to move",
        words(&pos, value),
        pos.side()
    )?;
    if let Some((m, _)) = solution.best_move(&pos) {
        writeln!(out, "best:     {m}")?;
    }
    writeln!(out, "pv:       {}", pv.join(" "))?;
    write_moves(&moves, out)?;
    writeln!(
        out,
        "{} positions ({} won, {} lost, {} drawn for the mover) in {:.2} s",
        stats.positions,
        stats.won,
        stats.lost,
        stats.drawn,
        elapsed.as_secs_f64()
    )?;
    Ok(())
}

/// The end of an interrupted exact solve: the graph solves nothing until it is whole, so
/// a short anytime analysis gives the best guess and what it proves (labelled so);
/// printed, then the "not exact" error (exit status 3).
fn interrupted(pos: &BaoPosition, json: bool, out: &mut dyn Write) -> Result<(), CliError> {
    // The interrupt flag is up: the guess gets a flag of its own (a second Ctrl-C ends
    // the program at once).
    let quick = kalah_solver::Limits::time(GUESS_TIME);
    let a = kalah_solver::bao_search::analyse(
        pos,
        &quick,
        &std::sync::atomic::AtomicBool::new(false),
        &mut |_| {},
    );
    write_report(&a, json, true, out)?;
    Err(CliError::Incomplete(
        "interrupted: the game graph was not solved (nothing is until all of it is); \
         the line above is a short anytime analysis, exact only where it says proven"
            .to_string(),
    ))
}

/// The value of each move for its mover, one a line.
pub(crate) fn write_moves(moves: &[(BaoMove, Value)], out: &mut dyn Write) -> Result<(), CliError> {
    for (m, v) in moves {
        writeln!(out, "  {:>4}  {}", m.to_string(), v.describe())?;
    }
    Ok(())
}
