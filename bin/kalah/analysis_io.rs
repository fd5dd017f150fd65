//! What the analysis subcommands (`openings`, `pie`, `batch`, `export`) share: the
//! progress bar, Ctrl-C, CSV fields and error messages (their solvers are made in
//! `solving`).

use std::io::{self, IsTerminal};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::OnceLock;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};

use crate::error::CliError;

/// A progress bar of `len` steps on standard error with the elapsed time and an estimate
/// of the time left; hidden with `--quiet` or when standard error is not a terminal.
pub fn progress_bar(quiet: bool, len: usize, unit: &str) -> ProgressBar {
    let template =
        format!("{{bar:30}} {{pos}}/{{len}} {unit} [{{elapsed}}, about {{eta}} left] {{msg}}");
    on_terminal(quiet, || ProgressBar::new(len as u64), &template, 200)
}

/// The bar `make` gives, styled with `template` (else the plain bar) and redrawn every
/// `tick_ms`; hidden with `--quiet` or when standard error is not a terminal.
pub fn on_terminal(
    quiet: bool,
    make: impl FnOnce() -> ProgressBar,
    template: &str,
    tick_ms: u64,
) -> ProgressBar {
    if quiet || !io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = make().with_style(
        ProgressStyle::with_template(template).unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar.enable_steady_tick(Duration::from_millis(tick_ms));
    bar
}

/// A counter of `unit` done on standard error, for work of unknown length (a batch read
/// from a pipe); hidden like [`progress_bar`].
pub fn progress_counter(quiet: bool, unit: &str) -> ProgressBar {
    let template = format!("{{spinner}} {{pos}} {unit} [{{elapsed}}] {{msg}}");
    on_terminal(quiet, ProgressBar::new_spinner, &template, 200)
}

/// The flag of [`interrupt_flag`], once installed.
static INTERRUPT: OnceLock<&'static AtomicBool> = OnceLock::new();

/// The flag that Ctrl-C (SIGINT), SIGTERM and SIGHUP raise (ctrlc's `termination`
/// feature), installed on first use. The work in progress watches it and stops cleanly,
/// keeping what was finished; a second signal ends the program at once.
pub fn interrupt_flag() -> &'static AtomicBool {
    INTERRUPT.get_or_init(|| {
        let flag: &'static AtomicBool = Box::leak(Box::new(AtomicBool::new(false)));
        // Without a handler Ctrl-C still ends the program, just not cleanly.
        let _ = ctrlc::set_handler(move || {
            if flag.swap(true, Relaxed) {
                std::process::exit(130);
            }
            eprintln!("\ninterrupted: finishing cleanly (a second Ctrl-C or signal quits at once)");
        });
        flag
    })
}

/// The Ctrl-C flag where this command installed it ([`interrupt_flag`]), else none (the
/// default handler ends the program at once).
pub fn installed_interrupt_flag() -> Option<&'static AtomicBool> {
    INTERRUPT.get().copied()
}

/// The error for a run stopped by Ctrl-C, saying what was kept.
pub fn interrupted(what_was_kept: &str) -> CliError {
    CliError::Io(io::Error::new(
        io::ErrorKind::Interrupted,
        format!("interrupted (Ctrl-C or a signal): {what_was_kept}"),
    ))
}

/// Runs `body` with its output going to `out`, or with `--output FILE` to FILE: checked
/// and locked before `body` starts (a file that is no report of `openings` or `pie`, a
/// read-only file or a symbolic link refused unless `force`), written whole at the end
/// (atomically for a regular file, straight through for a FIFO or device), untouched when
/// `body` fails. `inputs` (the database files the command reads) are never replaced.
pub fn with_output(
    path: Option<&Path>,
    force: bool,
    inputs: &[PathBuf],
    out: &mut dyn io::Write,
    body: impl FnOnce(&mut dyn io::Write) -> Result<(), CliError>,
) -> Result<(), CliError> {
    kalah_analysis::run::outputs::with_report(path, force, inputs, out, body)
}

/// An I/O error naming the file it happened on.
pub fn file_error(path: &Path, e: io::Error) -> CliError {
    CliError::Io(io::Error::new(e.kind(), format!("{}: {e}", path.display())))
}

/// A request that cannot be carried out as asked (say, the pie decision for a position
/// where South is still to move); the message says what to change.
pub fn invalid(msg: impl Into<String>) -> CliError {
    CliError::Io(io::Error::new(io::ErrorKind::InvalidInput, msg.into()))
}

/// The command-line error for an analysis that failed; `kept` says what a Ctrl-C left.
pub fn analysis_error(e: kalah_analysis::AnalysisError, kept: &str) -> CliError {
    use kalah_analysis::{game::setup::words, AnalysisError};
    match e {
        AnalysisError::Cancelled => interrupted(kept),
        AnalysisError::GameOver => invalid(words::GAME_OVER),
        AnalysisError::Replay(e) => CliError::Internal(e.to_string()),
        AnalysisError::Threads(e) => CliError::Io(io::Error::other(e)),
        AnalysisError::GraphTooLarge { limit } => CliError::Io(io::Error::new(
            io::ErrorKind::OutOfMemory,
            words::graph_too_large_words(limit, kept),
        )),
    }
}
