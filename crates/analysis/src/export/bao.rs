//! Bao's evaluation table (`kalah export --rules bao`): every position within N moves of
//! the start ([`reachable`]), each with its value: exact from the solved game graph
//! ([`exact_entry`]) or the anytime analysis' ([`analyse_rows`], labelled, its finished
//! entries kept in a partial file across interruptions as `POSITION<tab>ENTRY` records,
//! [`record`] beside [`read_record`]). The table's JSON and CSV are
//! [`super::table::bao`]'s; the command's run of it is `run`.

use std::collections::{HashMap, HashSet};
use std::fmt;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use kalah_core::bao::{BaoPosition, BaoRules};
use kalah_io::Header;
use kalah_solver::bao::{BaoSolved, Value as BaoValue};
use kalah_solver::bao_search;
use kalah_solver::{Limits, ScoreBound};
use serde_json::{json, Value};

use super::resume::{load_records, without_duplicates, Partial, ResumeError};
use crate::wire;

pub(super) mod run;

/// The most moves from the start a table covers.
pub const MAX_DEPTH: u32 = 40;
/// The most positions a table may hold.
pub const MAX_POSITIONS: usize = 1_000_000;
/// The analysis time a position when no limit is given (boards too large to solve).
pub const DEFAULT_SECONDS: f64 = 0.2;

/// One row of the table: a position and the fewest moves that reach it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Row {
    /// The position.
    pub pos: BaoPosition,
    /// The fewest moves from the start that reach it.
    pub turns: u32,
}

/// Why a table cannot be made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TableError {
    /// More moves asked for than a table covers ([`MAX_DEPTH`]).
    TooDeep(u32),
    /// More than [`MAX_POSITIONS`] positions within this many moves.
    TooLarge(u32),
}

impl fmt::Display for TableError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TableError::TooDeep(depth) => write!(
                f,
                "--depth {depth} is more than Bao's table covers: 0 to {MAX_DEPTH} moves"
            ),
            TableError::TooLarge(depth) => write!(
                f,
                "more than {MAX_POSITIONS} positions within {depth} moves: give a smaller \
                 --depth"
            ),
        }
    }
}

impl std::error::Error for TableError {}

/// Whether the table is solved exactly: asked for (`exact`), or no limits given and the
/// start's graph solves quickly ([`crate::game::quick::bao_solves_quickly`]).
pub fn solves_exactly(exact: bool, limits: Option<&Limits>, start: &BaoPosition) -> bool {
    exact || (limits.is_none() && crate::game::quick::bao_solves_quickly(start))
}

/// The limits of the analysis: those given, else [`DEFAULT_SECONDS`] a position.
pub fn limits_or_default(limits: Option<Limits>) -> Limits {
    limits.unwrap_or_else(|| Limits::time(Duration::from_secs_f64(DEFAULT_SECONDS)))
}

/// Every position within `depth` moves of `start`, once each, in the order first reached
/// (breadth first), with the fewest moves that reach it.
pub fn reachable(start: &BaoPosition, depth: u32) -> Result<Vec<Row>, TableError> {
    if depth > MAX_DEPTH {
        return Err(TableError::TooDeep(depth));
    }
    let mut rows = vec![Row {
        pos: *start,
        turns: 0,
    }];
    let mut seen: HashSet<BaoPosition> = HashSet::from([*start]);
    let mut from = 0;
    for turns in 1..=depth {
        let level_end = rows.len();
        for i in from..level_end {
            let pos = rows[i].pos;
            for child in pos.legal().iter() {
                if seen.insert(child.next) {
                    rows.push(Row {
                        pos: child.next,
                        turns,
                    });
                }
            }
            if rows.len() > MAX_POSITIONS {
                return Err(TableError::TooLarge(depth));
            }
        }
        from = level_end;
    }
    Ok(rows)
}

/// A row's entry from the solved game graph (which holds every position of the table
/// but those where the game has just been won: lost for their mover).
pub fn exact_entry(graph: &BaoSolved, row: &Row) -> Value {
    let pos = &row.pos;
    // The graph holds every position of the table but those where a move has just won
    // (the solver counts a winning move without its position): the mover there has lost.
    let value = graph
        .value(pos)
        .or_else(|| pos.terminal_value().map(|_| BaoValue::Loss(0)))
        .expect("every reachable position is solved or over");
    let moves: Vec<Value> = graph
        .move_values(pos)
        .unwrap_or_default()
        .iter()
        .map(|(m, v)| {
            let mut entry = json!({ "move": m.to_string() });
            for (k, v) in wire::bao::exact_fields(pos.side(), *v) {
                entry[k] = v;
            }
            entry
        })
        .collect();
    let mut entry = json!({
        "position": pos.to_string(),
        "side": pos.side().to_string(),
        "turns": row.turns,
        "exact": true,
    });
    for (k, v) in wire::bao::exact_fields(pos.side(), value) {
        entry[k] = v;
    }
    entry["best"] = json!(graph.best_move(pos).map(|(m, _)| m.to_string()));
    entry["moves"] = json!(moves);
    entry
}

/// A row's entry from the anytime analysis within `limits`.
pub fn analysed_entry(row: &Row, limits: &Limits, cancel: &AtomicBool) -> Value {
    let pos = &row.pos;
    let sign = pos.side().sign();
    let a = bao_search::analyse(pos, limits, cancel, &mut |_| {});
    let moves: Vec<Value> = a
        .turns
        .iter()
        .map(|t| {
            // A mover's upper bound is South's lower bound when North moves.
            let bound = match (t.bound, sign > 0) {
                (ScoreBound::Exact, _) => "exact",
                (ScoreBound::Upper, true) => "at_most",
                (ScoreBound::Upper, false) => "at_least",
            };
            json!({
                "move": t.turn.to_string(),
                "eval": sign * t.eval,
                "eval_mover": t.eval,
                "bound": bound,
                "value": t.proven.map(|o| o.sign() * sign),
            })
        })
        .collect();
    let value = a.proven.map(|o| o.sign() * sign);
    json!({
        "position": pos.to_string(),
        "side": pos.side().to_string(),
        "turns": row.turns,
        "exact": value.is_some(),
        "value": value,
        "eval": a.eval_from_south(),
        "eval_mover": a.eval,
        "depth": a.depth,
        "best": a.best_turn().map(|m| m.to_string()),
        "moves": moves,
    })
}

/// The header of the partial file of an analysed table: what it was made of, so that
/// only the same export resumes it.
pub fn partial_header(
    rules: &BaoRules,
    start: &BaoPosition,
    depth: u32,
    limits: &Limits,
) -> Header {
    Header::new(
        "bao-export-partial",
        &[
            ("rules", rules.to_string()),
            ("start", start.to_string()),
            ("depth", depth.to_string()),
            ("limits", format!("{limits:?}")),
        ],
    )
}

/// The partial file's record of an entry: the position's key, a tab, the entry's JSON.
pub fn record(key: &str, entry: &Value) -> String {
    format!("{key}\t{entry}")
}

/// The key and entry of a record written by [`record`]; `None` for one that is not.
pub fn read_record(text: &str) -> Option<(String, Value)> {
    let (key, entry) = text.split_once('\t')?;
    Some((key.to_string(), serde_json::from_str::<Value>(entry).ok()?))
}

/// The entries an interrupted run of this export (`header`) kept at `partial`, by
/// position; none where there is no partial file.
pub fn load_kept(
    partial: Option<&Path>,
    header: &Header,
) -> Result<HashMap<String, Value>, ResumeError> {
    Ok(match partial {
        // A key written twice is not one a run wrote: both are dropped, and done again.
        Some(p) => without_duplicates(load_records(p, header, read_record)?.0).0,
        None => HashMap::new(),
    })
}

/// Why [`analyse_rows`] stopped short.
#[derive(Debug)]
pub enum AnalyseStop {
    /// `cancel` was raised: the entries finished are in the partial file.
    Cancelled,
    /// The partial file could not be written.
    Partial(ResumeError),
}

/// The entries of `rows` by the anytime analysis within `limits`, in the rows' order:
/// those `kept` (from [`load_kept`]) taken as they are, the others analysed, each written
/// to `partial` as it comes and reported to `on_entry`.
pub fn analyse_rows(
    rows: &[Row],
    limits: &Limits,
    mut kept: HashMap<String, Value>,
    partial: Option<&Partial>,
    cancel: &AtomicBool,
    on_entry: &mut dyn FnMut(),
) -> Result<Vec<Value>, AnalyseStop> {
    let mut entries = Vec::with_capacity(rows.len());
    for row in rows {
        let key = row.pos.to_string();
        if let Some(e) = kept.remove(&key) {
            entries.push(e);
            continue;
        }
        let entry = analysed_entry(row, limits, cancel);
        if cancel.load(Ordering::Relaxed) {
            return Err(AnalyseStop::Cancelled);
        }
        if let Some(f) = partial {
            if !f.add_record(&record(&key, &entry)) {
                f.failure().map_err(AnalyseStop::Partial)?;
            }
        }
        entries.push(entry);
        on_entry();
    }
    Ok(entries)
}

/// Starts the partial file at `path` with the entries already `kept`.
pub fn start_partial(
    path: &Path,
    header: &Header,
    kept: &HashMap<String, Value>,
) -> Result<Partial, ResumeError> {
    Partial::start_with(path, header, kept.iter().map(|(k, e)| record(k, e)))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small position of Bao(4,2) (a draw).
    const E16: &str = "2,1,0,1/1,0,0,0/0,0,0,1/2,1,1,0:S";

    #[test]
    fn a_record_round_trips() {
        let entry = json!({"position": E16, "value": null, "moves": [{"move": "A1+"}]});
        let text = record(E16, &entry);
        assert_eq!(read_record(&text), Some((E16.to_string(), entry)));
        assert_eq!(read_record("no tab"), None);
        assert_eq!(read_record("k\tnot json"), None);
    }

    #[test]
    fn a_row_where_the_game_is_over_is_a_loss_for_its_mover() {
        // Every move of South's wins: the positions after them are in no game graph.
        let start: BaoPosition = "5,0,8,1/2,2,0,0/1,1,1,6/1,0,2,2:S".parse().unwrap();
        let never = AtomicBool::new(false);
        let graph =
            kalah_solver::bao::solve_position(&start, 1 << 10, &never, &mut |_| {}).unwrap();
        let rows = reachable(&start, 1).unwrap();
        let over = rows
            .iter()
            .find(|r| r.pos.terminal_value().is_some())
            .expect("a won game among the rows");
        assert_eq!(graph.value(&over.pos), None);
        let entry = exact_entry(&graph, over);
        for (k, v) in wire::bao::exact_fields(over.pos.side(), BaoValue::Loss(0)) {
            assert_eq!(entry[&k], v, "{k}");
        }
        assert_eq!(entry["best"], Value::Null);
        assert_eq!(entry["moves"], json!([]));
    }

    #[test]
    fn reachable_rows_are_breadth_first_once_each() {
        let start: BaoPosition = E16.parse().unwrap();
        let rows = reachable(&start, 2).unwrap();
        assert_eq!(
            rows[0],
            Row {
                pos: start,
                turns: 0
            }
        );
        assert!(rows.windows(2).all(|w| w[0].turns <= w[1].turns));
        let distinct: HashSet<_> = rows.iter().map(|r| r.pos).collect();
        assert_eq!(distinct.len(), rows.len());
        assert_eq!(
            rows.iter().filter(|r| r.turns == 1).count(),
            start
                .legal()
                .iter()
                .map(|c| c.next)
                .collect::<HashSet<_>>()
                .len()
        );
        assert_eq!(
            reachable(&start, MAX_DEPTH + 1),
            Err(TableError::TooDeep(MAX_DEPTH + 1))
        );
    }

    #[test]
    fn exact_and_analysed_entries_agree_where_the_analysis_proves() {
        let start: BaoPosition = E16.parse().unwrap();
        let graph = kalah_solver::bao::solve_position(
            &start,
            1 << 20,
            &AtomicBool::new(false),
            &mut |_| {},
        )
        .unwrap();
        let rows = reachable(&start, 1).unwrap();
        let never = AtomicBool::new(false);
        let mut done = 0;
        let analysed = analyse_rows(
            &rows,
            &Limits::nodes(20_000),
            HashMap::new(),
            None,
            &never,
            &mut || done += 1,
        )
        .unwrap();
        assert_eq!(done, rows.len());
        for (row, a) in rows.iter().zip(&analysed) {
            let e = exact_entry(&graph, row);
            assert_eq!(e["position"], a["position"]);
            assert_eq!(e["exact"], true);
            if a["exact"] == true {
                assert_eq!(e["value"], a["value"], "{e} {a}");
            }
        }
        let kept = HashMap::from([(rows[0].pos.to_string(), json!({"kept": true}))]);
        let cancelled = AtomicBool::new(true);
        let r = analyse_rows(
            &rows[..1],
            &Limits::nodes(10),
            kept,
            None,
            &cancelled,
            &mut || {},
        );
        assert_eq!(r.unwrap(), [json!({"kept": true})]);
    }
}
