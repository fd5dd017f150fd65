//! The Python module `kalah._kalah`: the engine's rules, positions, solves and analyses
//! for Python (the sowing games and Bao) and a game-long engine that keeps its table,
//! re-exported by the package `kalah` (python/kalah/__init__.py). Long calls run without
//! the GIL and stop on Ctrl-C; every error is an exception of `kalah.errors` with the
//! command line's message.

mod analysis;
mod bao;
mod engine;
mod errors;
mod export;
mod interrupt;
mod position;
mod rules;
mod solve;

use pyo3::prelude::*;

/// The compiled part of the package `kalah`.
#[pymodule]
fn _kalah(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<rules::PySide>()?;
    m.add_class::<rules::PyRules>()?;
    m.add_class::<position::PyPosition>()?;
    m.add_class::<solve::PyProgress>()?;
    m.add_class::<solve::PySolution>()?;
    m.add_class::<analysis::PyAnalysis>()?;
    m.add_class::<analysis::PyTurnAnalysis>()?;
    m.add_class::<analysis::PyOpening>()?;
    m.add_class::<analysis::PyPieChoice>()?;
    m.add_class::<analysis::PyPieAnalysis>()?;
    m.add_class::<analysis::PyProbe>()?;
    m.add_class::<engine::PyEngine>()?;
    m.add_function(wrap_pyfunction!(solve::solve, m)?)?;
    m.add_function(wrap_pyfunction!(analysis::analyse, m)?)?;
    m.add_function(wrap_pyfunction!(analysis::openings, m)?)?;
    m.add_function(wrap_pyfunction!(analysis::pie, m)?)?;
    m.add_function(wrap_pyfunction!(analysis::probe, m)?)?;
    m.add_function(wrap_pyfunction!(export::export_columns, m)?)?;
    m.add("CLOCKWISE", kalah_core::CLOCKWISE)?;
    m.add("MAX_HOUSES", kalah_core::MAX_HOUSES)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
