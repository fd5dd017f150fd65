//! A solve's progress in words, as the front ends show it (the command line's spinner,
//! the analysis board's status line).

use kalah_solver::{Phase, Progress};

/// What a solve is doing, in words (`proving`, `retrograde analysis: level of 12 seeds`).
pub fn phase_name(phase: Phase) -> String {
    match phase {
        Phase::Deepening(d) => format!("deepening to {d} sowings"),
        Phase::Proving => "proving".to_string(),
        Phase::PrincipalVariation => "principal variation".to_string(),
        Phase::Retrograde(None) => "retrograde analysis: finding the positions".to_string(),
        Phase::Retrograde(Some(n)) => format!("retrograde analysis: level of {n} seeds"),
    }
}

/// A one-line description of a running solve, for the spinner.
pub fn progress_message(p: &Progress, side_sign: i32) -> String {
    let (lo, hi) = if side_sign > 0 {
        (p.lower, p.upper)
    } else {
        (-p.upper, -p.lower)
    };
    let phase = phase_name(p.phase);
    format!(
        "{phase}: value for South in [{lo:+}, {hi:+}], {} nodes, {:.1} M nodes/s",
        p.nodes,
        p.nodes_per_second() / 1e6
    )
}
