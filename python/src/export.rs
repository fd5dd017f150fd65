//! `kalah.export_table`: the evaluation table of `kalah export` (every position within a
//! number of turns, with its exact value and the value of every sowing) as columns of
//! fixed-width numbers, which the package turns into NumPy arrays or `array.array`s.

use std::collections::HashMap;
use std::path::PathBuf;

use kalah_analysis::export::{evaluate, plan_until, Entry};
use kalah_core::{Game, CLOCKWISE};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList};

use crate::interrupt::{interruptible, Callback, Failure};
use crate::position::PyPosition;
use crate::solve::Settings;

/// One column: its name, its `array` type code (`""`: a list of strings) and its data
/// (little-endian machine values, or the list).
type Column = (String, &'static str, Py<PyAny>);

/// The sowings a house has: one direction, or both where the family chooses.
fn directions(game: &Game) -> usize {
    1 + game.rules().family.has_direction() as usize
}

/// Columns of a table: the position in the notation, then the numbers.
fn columns(py: Python<'_>, game: &Game, table: &[Entry]) -> PyResult<Vec<Column>> {
    let h = game.houses();
    let mut out: Vec<Column> = Vec::new();
    let positions: Vec<String> = table.iter().map(|e| e.position.to_string()).collect();
    out.push((
        "position".into(),
        "",
        PyList::new(py, positions)?.into_any().unbind(),
    ));
    let bytes = |data: Vec<u8>| PyBytes::new(py, &data).into_any().unbind();
    let side: Vec<u8> = table
        .iter()
        .map(|e| e.position.side_to_move().sign().is_negative() as u8)
        .collect();
    out.push(("side".into(), "B", bytes(side)));
    let turns: Vec<u8> = table.iter().flat_map(|e| e.turns.to_le_bytes()).collect();
    out.push(("turns".into(), "I", bytes(turns)));
    let value: Vec<u8> = table
        .iter()
        .flat_map(|e| (e.value as i16).to_le_bytes())
        .collect();
    out.push(("value".into(), "h", bytes(value)));
    let best: Vec<u8> = table
        .iter()
        .flat_map(|e| e.best.map_or(-1i8, |j| j as i8).to_le_bytes())
        .collect();
    out.push(("best".into(), "b", bytes(best)));
    for d in 0..directions(game) {
        for i in 0..h {
            let sowing = i + d * CLOCKWISE;
            let cells: Vec<u8> = table
                .iter()
                .flat_map(|e| {
                    let v = e.moves.iter().find(|(j, _)| *j == sowing);
                    v.map_or(f64::NAN, |&(_, v)| v as f64).to_le_bytes()
                })
                .collect();
            let suffix = if d == 1 { "_clockwise" } else { "" };
            out.push((format!("house{}{suffix}", i + 1), "d", bytes(cells)));
        }
    }
    let boards: Vec<Vec<u8>> = table.iter().map(|e| e.position.absolute_counts()).collect();
    for b in 0..2 * h + 2 {
        let counts: Vec<u8> = boards.iter().map(|c| c[b]).collect();
        out.push((format!("bin{}", b + 1), "B", bytes(counts)));
    }
    Ok(out)
}

/// The evaluation table of every position within `depth` turns of `position`, as
/// columns; see `export_table` in the stub.
#[pyfunction]
#[pyo3(signature = (position, depth, *, threads = None, hash_mb = None, egdb = None,
                    egdb_seeds = None, cache = true, deepening = None))]
#[allow(clippy::too_many_arguments)]
pub fn export_columns(
    py: Python<'_>,
    position: PyPosition,
    depth: u32,
    threads: Option<usize>,
    hash_mb: Option<u64>,
    egdb: Option<PathBuf>,
    egdb_seeds: Option<usize>,
    cache: bool,
    deepening: Option<u8>,
) -> PyResult<Vec<Column>> {
    let settings = Settings::new(threads, hash_mb, egdb, egdb_seeds, cache, deepening)?;
    let callback = Callback::new(None);
    let (game, start) = position.sowing("kalah.export_table")?;
    let game = game.clone();
    let table = interruptible(py, |cancel| -> Result<Vec<Entry>, Failure> {
        let plan = plan_until(&game, &start, depth, cancel)?;
        let known = HashMap::new();
        let todo = plan.to_solve(&known).len();
        let seeds = start.seeds_in_houses() as usize;
        let (solver, workers) = settings.parallel_solver(&game, seeds, todo.max(1), cancel)?;
        Ok(evaluate(
            &solver,
            &plan,
            &known,
            workers,
            cancel,
            &|_, _| {},
        )?)
    })?
    .map_err(|f| f.into_err(&callback))?;
    columns(py, &game, &table)
}
