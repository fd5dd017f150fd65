//! Long calls off the interpreter: the work runs on a thread of its own without the GIL,
//! while the calling thread watches for signals (Ctrl-C raises the work's cancel flag and
//! the call ends with the KeyboardInterrupt) and a progress callback reaches Python.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::Mutex;
use std::time::Duration;

use pyo3::prelude::*;

use kalah_solver::SolveError;

use crate::errors::{analysis_error, error, solve_error, Kind};

/// How often the calling thread looks for a signal while the work runs: well within the
/// second a KeyboardInterrupt may take.
const POLL: Duration = Duration::from_millis(50);

/// Runs `work` on a thread of its own, the GIL released, and waits for it. A signal
/// whose handler raises (Ctrl-C's KeyboardInterrupt) raises `work`'s cancel flag; once the
/// work has stopped, the call ends with that exception whatever the work returned.
pub fn interruptible<T: Send>(
    py: Python<'_>,
    work: impl FnOnce(&AtomicBool) -> T + Send,
) -> PyResult<T> {
    let cancel = AtomicBool::new(false);
    let (done, finished) = mpsc::channel::<()>();
    std::thread::scope(|scope| {
        let cancel = &cancel;
        let handle = scope.spawn(move || {
            let out = work(cancel);
            // The watcher may be gone; nothing to tell then.
            let _ = done.send(());
            out
        });
        let mut signal = None;
        let mut finished = finished;
        loop {
            let (waited, back) = py.detach(move || (finished.recv_timeout(POLL), finished));
            finished = back;
            if !matches!(waited, Err(RecvTimeoutError::Timeout)) {
                break;
            }
            if signal.is_none() {
                if let Err(e) = py.check_signals() {
                    cancel.store(true, Ordering::Relaxed);
                    signal = Some(e);
                }
            }
        }
        let joined = py.detach(move || handle.join());
        match (signal, joined) {
            (Some(e), _) => Err(e),
            (None, Ok(out)) => Ok(out),
            (None, Err(_)) => Err(error(Kind::Internal, "the engine's thread panicked")),
        }
    })
}

/// An optional Python progress callback, called from the work's threads. The first
/// exception it raises stops the work (through the cancel flag) and is raised by the call.
pub struct Callback {
    function: Option<Py<PyAny>>,
    raised: Mutex<Option<PyErr>>,
}

impl Callback {
    /// The callback `function` (None: no progress reports).
    pub fn new(function: Option<Py<PyAny>>) -> Callback {
        Callback {
            function,
            raised: Mutex::new(None),
        }
    }

    /// Calls the function with what `make` builds, taking the GIL; an exception raised
    /// (by `make` or the function) is kept and raises `cancel`.
    pub fn call<'py, F>(&self, cancel: &AtomicBool, make: F)
    where
        F: for<'a> FnOnce(Python<'a>) -> PyResult<Bound<'a, PyAny>>,
    {
        let Some(function) = &self.function else {
            return;
        };
        let mut raised = self.raised.lock().unwrap_or_else(|p| p.into_inner());
        if raised.is_some() {
            return;
        }
        let outcome = Python::attach(|py| {
            let argument = make(py)?;
            function.call1(py, (argument,)).map(|_| ())
        });
        if let Err(e) = outcome {
            *raised = Some(e);
            cancel.store(true, Ordering::Relaxed);
        }
    }

    /// The exception the callback raised, if any.
    pub fn take_error(&self) -> Option<PyErr> {
        self.raised.lock().unwrap_or_else(|p| p.into_inner()).take()
    }
}

/// Why a piece of work run off the interpreter gave no result.
pub enum Failure {
    /// Its cancel flag was raised (Ctrl-C, or a callback that raised).
    Cancelled,
    /// An error to raise.
    Py(PyErr),
}

impl Failure {
    /// The exception of a failure; a cancelled call raises what cancelled it (the
    /// KeyboardInterrupt is raised before this is reached, the callback's error here).
    pub fn into_err(self, callback: &Callback) -> PyErr {
        match self {
            Failure::Py(e) => e,
            Failure::Cancelled => callback
                .take_error()
                .unwrap_or_else(|| error(Kind::Internal, "the work was cancelled")),
        }
    }
}

impl From<kalah_analysis::AnalysisError> for Failure {
    fn from(e: kalah_analysis::AnalysisError) -> Failure {
        match e {
            kalah_analysis::AnalysisError::Cancelled => Failure::Cancelled,
            e => Failure::Py(analysis_error(&e)),
        }
    }
}

impl From<SolveError> for Failure {
    fn from(e: SolveError) -> Failure {
        match e {
            SolveError::Cancelled => Failure::Cancelled,
            e => Failure::Py(solve_error(&e)),
        }
    }
}
