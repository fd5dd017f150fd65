//! `kalah analyse --rules bao`: the anytime analysis of a Bao position on any board
//! (`kalah_solver::bao_search`), one line per completed depth; forced wins and losses found
//! are labelled proven, everything else is a heuristic guess (a draw is never claimed).

use std::io::Write;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use kalah_analysis::wire;
use kalah_solver::bao_search::{self, BaoAnalysis, Outcome};
use kalah_solver::Limits;

use crate::analysis_io::interrupt_flag;
use crate::error::CliError;

/// The time limit when none is given, in seconds.
const DEFAULT_SECONDS: f64 = 1.0;

/// Runs `kalah analyse --rules bao`.
pub fn analyse(args: &super::Args, out: &mut dyn Write) -> Result<(), CliError> {
    let limits = args
        .limits
        .given()
        .unwrap_or_else(|| Limits::time(Duration::from_secs_f64(DEFAULT_SECONDS)));
    let (_, pos) = args.game.bao_setup()?;
    let cancel: &AtomicBool = interrupt_flag();
    let mut failed = None;
    let mut report = |a: &BaoAnalysis| {
        if let Err(e) = write_report(a, args.json, false, out) {
            failed.get_or_insert(e);
        }
    };
    let last = bao_search::analyse(&pos, &limits, cancel, &mut report);
    if let Some(e) = failed {
        return Err(e.into());
    }
    write_report(&last, args.json, true, out)?;
    Ok(())
}

/// `kalah solve --rules bao` within `limits` (and `openings`, with `moves`): the
/// analysis's final report alone (as the last line of `kalah analyse --rules bao`), then
/// with `moves` every move's evaluation, depth and what is proven, best first. Ctrl-C
/// stops the analysis and prints what it has.
pub fn within(
    pos: &kalah_core::bao::BaoPosition,
    limits: &Limits,
    json: bool,
    moves: bool,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let last = bao_search::analyse(pos, limits, interrupt_flag(), &mut |_| {});
    write_report(&last, json, true, out)?;
    if moves && !json {
        for t in &last.turns {
            let proven = t
                .proven
                .map_or("heuristic".to_string(), |o| outcome_words("", o));
            writeln!(
                out,
                "  {:>4}  {:>+6} points for the mover, depth {:>2}  {proven}",
                t.mv.to_string(),
                t.score,
                t.depth
            )?;
        }
    }
    Ok(())
}

/// What is proven, in words.
fn proven_text(a: &BaoAnalysis) -> String {
    let mover = format!("{} ", a.side);
    a.proven.map_or("not proven (heuristic)".to_string(), |o| {
        outcome_words(&mover, o)
    })
}

/// A proven outcome in words, for `mover` (a name and a blank, or nothing):
/// `proven: South wins within 3 moves`.
pub(crate) fn outcome_words(mover: &str, o: Outcome) -> String {
    match o {
        Outcome::Won { moves } => format!("proven: {mover}wins within {moves} moves"),
        Outcome::Lost { moves } => format!("proven: {mover}loses within {moves} moves"),
    }
}

/// The line of moves, space separated.
fn line(a: &BaoAnalysis) -> String {
    let moves: Vec<String> = a.pv.iter().map(|m| m.to_string()).collect();
    moves.join(" ")
}

/// One report, in text or JSON; `last` marks the summary.
pub(crate) fn write_report(
    a: &BaoAnalysis,
    json: bool,
    last: bool,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    if json {
        return writeln!(out, "{}", wire::bao::report::analysis_report(a, last));
    }
    if last {
        let best = a
            .best
            .map_or("none (the game is over)".to_string(), |m| m.to_string());
        return writeln!(
            out,
            "best move {best} for {}: heuristic {:+} points from South (100 a seed) at depth {}; {}",
            a.side,
            a.eval_from_south(),
            a.depth,
            proven_text(a)
        );
    }
    writeln!(
        out,
        "depth {:>3}  heuristic {:>+6} points from South  {}  nodes {:>11}  {:>9.0} n/s  {:>6.2} s  line {}",
        a.depth,
        a.eval_from_south(),
        proven_text(a),
        a.nodes,
        a.nodes_per_second(),
        a.elapsed.as_secs_f64(),
        line(a)
    )
}
