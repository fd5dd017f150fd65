//! Bao's anytime analysis as its reports say it, one report a completed depth and a
//! summary: as JSON (`--json`, docs/outputs.md, in the vocabulary of [`super`]), one line
//! of text, or either ([`bao_report`]). `kalah analyse`, `openings` and the engine
//! protocol's session write them.

use std::io::Write;

use kalah_core::bao::BaoMove;
use kalah_solver::Analysis;
use serde_json::{json, Map, Value};

use super::analysis_fields;
use super::text::outcome_words;

/// One line of `kalah analyse --rules bao --json`: a depth's report, or with `last` the
/// final one (`kind` `iteration` or `final`, `final`, then the analysis' fields).
pub fn analysis_report(a: &Analysis<BaoMove>, last: bool) -> Value {
    let mut value = Map::new();
    value.insert(
        "kind".into(),
        json!(if last { "final" } else { "iteration" }),
    );
    value.insert("final".into(), json!(last));
    value.extend(analysis_fields(a, 0));
    Value::Object(value)
}

/// What an analysis proves, in words.
fn proven_text(a: &Analysis<BaoMove>) -> String {
    let mover = format!("{} ", a.side);
    a.proven.map_or("not proven (heuristic)".to_string(), |o| {
        outcome_words(&mover, o)
    })
}

/// One report of the anytime analysis: a completed depth, or with `last` the summary.
pub fn analysis_line(a: &Analysis<BaoMove>, last: bool) -> String {
    if last {
        let best = a
            .best_turn()
            .map_or("none (the game is over)".to_string(), |m| m.to_string());
        return format!(
            "best move {best} for {}: heuristic {:+} points from South (100 a seed) at depth {}; {}",
            a.side,
            a.eval_from_south(),
            a.depth,
            proven_text(a)
        );
    }
    let line: Vec<String> = a.pv.iter().map(|m| m.to_string()).collect();
    format!(
        "depth {:>3}  heuristic {:>+6} points from South  {}  nodes {:>11}  {:>9.0} n/s  {:>6.2} s  line {}",
        a.depth,
        a.eval_from_south(),
        proven_text(a),
        a.nodes,
        a.nodes_per_second(),
        a.elapsed.as_secs_f64(),
        line.join(" ")
    )
}

/// One report of Bao's analysis, in text or JSON; `last` marks the summary.
pub fn bao_report(
    a: &Analysis<BaoMove>,
    json: bool,
    last: bool,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    match json {
        true => writeln!(out, "{}", analysis_report(a, last)),
        false => writeln!(out, "{}", analysis_line(a, last)),
    }
}
