//! The Python module `kalah._kalah`: the engine's rules, positions, solves and analyses
//! for Python, re-exported by the package `kalah` (python/kalah/__init__.py). Long calls
//! run without the GIL and stop on Ctrl-C; every error is an exception of `kalah.errors`
//! with the command line's message.

mod errors;
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
    m.add_function(wrap_pyfunction!(solve::solve, m)?)?;
    m.add("CLOCKWISE", kalah_core::CLOCKWISE)?;
    m.add("MAX_HOUSES", kalah_core::MAX_HOUSES)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
