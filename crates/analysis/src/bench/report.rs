//! What `kalah bench` prints, in text and JSON: a row for each case solved and the totals
//! (the node count that fingerprints the search), for the fixed-size bench and for the
//! suite of solves with their databases (`--suite`).

use kalah_solver::bench::{Case, Run, Totals};
use serde_json::{json, Value};

/// One case of the bench as a text row: the case, its value from South, nodes and time.
pub fn case_text(case: &Case, run: &Run) -> String {
    let sol = &run.solution;
    format!(
        "{:<48} value {:+4}  nodes {:>11}  {:>8.3} s",
        case.line,
        sol.value_from_south(),
        sol.nodes,
        sol.elapsed.as_secs_f64()
    )
}

/// One case of the bench as a row of the JSON's `cases`.
pub fn case_json(case: &Case, run: &Run) -> Value {
    let sol = &run.solution;
    json!({
        "case": case.line,
        "value": sol.value_from_south(),
        "nodes": sol.nodes,
        "seconds": sol.elapsed.as_secs_f64(),
        "setup_seconds": run.setup.as_secs_f64(),
        "egdb_seeds": run.egdb_seeds,
    })
}

/// The bench's last line: the nodes of every case (the fingerprint) in `seconds` of
/// `threads` threads, and the part of it spent searching.
pub fn totals_text(totals: &Totals, seconds: f64, threads: u32) -> String {
    format!(
        "Bench: {} nodes in {seconds:.3} s ({:.3} s searching, {:.2} M nodes/s, {threads} \
         threads; the rest is set-up: tables and databases)",
        totals.nodes,
        totals.search_seconds,
        totals.nodes_per_second() / 1e6,
    )
}

/// The bench as one JSON object: its totals, settings and `cases` ([`case_json`]).
pub fn totals_json(
    totals: &Totals,
    seconds: f64,
    threads: u32,
    hash_mb: u64,
    cases: Vec<Value>,
) -> Value {
    json!({
        "nodes": totals.nodes,
        "seconds": seconds,
        "search_seconds": totals.search_seconds,
        "nodes_per_second": totals.nodes_per_second().round(),
        "threads": threads,
        "hash_mb": hash_mb,
        "cases": cases,
    })
}

/// One case of the suite as a text row: seeds, value, nodes, the database's seeds (`-`
/// for none), set-up and search times.
pub fn suite_case_text(case: &Case, run: &Run) -> String {
    let sol = &run.solution;
    format!(
        "{:<52} seeds {:>2}  value {:+4}  nodes {:>11}  db {:>2}  set-up {:>6.2} s  \
         search {:>7.2} s",
        case.line,
        case.pos.seeds_in_houses(),
        sol.value_from_south(),
        sol.nodes,
        run.egdb_seeds.map_or("-".to_string(), |k| k.to_string()),
        run.setup.as_secs_f64(),
        sol.elapsed.as_secs_f64(),
    )
}

/// One case of the suite as a row of the JSON's `cases`.
pub fn suite_case_json(case: &Case, run: &Run) -> Value {
    let sol = &run.solution;
    json!({
        "case": case.line,
        "seeds": case.pos.seeds_in_houses() as usize,
        "value": sol.value_from_south(),
        "nodes": sol.nodes,
        "egdb_seeds": run.egdb_seeds,
        "setup_seconds": run.setup.as_secs_f64(),
        "search_seconds": sol.elapsed.as_secs_f64(),
    })
}

/// The suite's last line: `positions` solved, their nodes, `seconds` in all with the
/// set-up and search parts, and whether the database cache was on.
pub fn suite_totals_text(totals: &Totals, seconds: f64, positions: usize, cache: bool) -> String {
    format!(
        "Suite: {positions} positions, {} nodes in {seconds:.2} s ({:.2} s set-up, {:.2} s \
         searching; database cache {})",
        totals.nodes,
        totals.setup_seconds,
        totals.search_seconds,
        if cache { "on" } else { "off" }
    )
}

/// The suite as one JSON object: its totals, whether the cache was on, and `cases`
/// ([`suite_case_json`]).
pub fn suite_totals_json(totals: &Totals, seconds: f64, cache: bool, cases: Vec<Value>) -> Value {
    json!({
        "nodes": totals.nodes,
        "seconds": seconds,
        "setup_seconds": totals.setup_seconds,
        "search_seconds": totals.search_seconds,
        "cache": cache,
        "cases": cases,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use kalah_solver::bench;

    #[test]
    fn a_case_row_and_the_totals_carry_the_nodes_searched() {
        let case = &bench::read("kalah 3 2 start\n").unwrap()[0];
        let run = case.run(case.fingerprint_config(1, 1).unwrap()).unwrap();
        let mut totals = Totals::default();
        totals.add(&run);
        let nodes = run.solution.nodes;
        let row = case_text(case, &run);
        assert!(row.starts_with("kalah 3 2 start"), "{row}");
        assert!(row.contains(&format!("nodes {nodes:>11}")), "{row}");
        let line = totals_text(&totals, 1.0, 1);
        assert!(line.starts_with(&format!("Bench: {nodes} nodes in 1.000 s")));
        let json = totals_json(&totals, 1.0, 1, 64, vec![case_json(case, &run)]);
        assert_eq!(json["nodes"], nodes);
        assert_eq!(json["cases"][0]["case"], "kalah 3 2 start");
        let suite = suite_case_json(case, &run);
        assert_eq!(suite["seeds"], 12);
        let text = suite_totals_text(&totals, 2.0, 1, false);
        assert!(text.ends_with("database cache off)"), "{text}");
    }
}
