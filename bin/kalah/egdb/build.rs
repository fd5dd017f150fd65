//! `kalah egdb build`: a database file, one seed level after the other, resumable.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::time::Instant;

use indicatif::{ProgressBar, ProgressStyle};
use kalah_analysis::run::egdb_build::{build_file, BuildError, BuildShown, FileRequest};
use kalah_analysis::run::levels::LevelDisplay;
use kalah_analysis::wire::egdb as wire;

use crate::analysis_io::{interrupt_flag, interrupted};
use crate::args::RulesArgs;
use crate::error::CliError;

/// Build a database file, in parallel over all cores, one seed level after the other.
///
/// The memory and disk space needed are stated up front, and the build is refused when
/// they are not available. It writes FILE.partial and renames it to FILE when done; an
/// interrupted build resumes from the levels FILE.partial already holds.
#[derive(clap::Args, Debug)]
pub(super) struct BuildArgs {
    /// The most seeds in the houses of a position in the database
    #[arg(long, value_name = "K")]
    pub(super) max_seeds: usize,

    /// The file to write: an existing database is replaced; another file, a read-only
    /// one or a symbolic link only with --force
    #[arg(long, value_name = "FILE")]
    pub(super) out: PathBuf,

    /// Replace an existing --out FILE that is no database, a read-only one, or a symbolic
    /// link (the link itself; its target is left alone)
    #[arg(long)]
    pub(super) force: bool,

    /// Start from a finished database file of fewer seeds for the same rules (say a
    /// 24-seed file towards a 28-seed one): its levels are verified and copied, not
    /// computed again
    #[arg(long, value_name = "SMALLER")]
    pub(super) from: Option<PathBuf>,

    /// No progress display on standard error
    #[arg(long, short)]
    pub(super) quiet: bool,

    #[command(flatten)]
    pub(super) rules: RulesArgs,
}

pub(super) fn build(args: &BuildArgs, out: &mut dyn Write) -> Result<(), CliError> {
    args.rules.options().check()?;
    let request = FileRequest {
        rules: args.rules.board_rules(),
        max_seeds: args.max_seeds,
        out: &args.out,
        from: args.from.as_deref(),
        force: args.force,
        quiet: args.quiet,
    };
    let summary = build_file(&request, interrupt_flag(), &LevelBars::default())?;
    writeln!(out, "{summary}")?;
    Ok(())
}

/// The command-line error of a database not built.
impl From<BuildError> for CliError {
    fn from(e: BuildError) -> CliError {
        match e {
            BuildError::Rules(e) => CliError::Rules(e),
            BuildError::Egdb(e) => CliError::Egdb(e),
            BuildError::Build(e) => CliError::EgdbBuild(e),
            BuildError::Output(e) => CliError::Output(e),
            BuildError::Stream(why) => CliError::Input(why),
            BuildError::Interrupted(kept) => interrupted(&kept),
        }
    }
}

/// The bars of a build on standard error, one a seed level; a line a level off a
/// terminal.
pub(super) struct LevelBars {
    terminal: bool,
}

impl Default for LevelBars {
    fn default() -> LevelBars {
        LevelBars {
            terminal: std::io::stderr().is_terminal(),
        }
    }
}

impl BuildShown for LevelBars {
    type Bar = LevelBar;

    fn say(&self, line: &str) {
        eprintln!("{line}");
    }

    fn bar(&self, level: usize, total: u64) -> LevelBar {
        LevelBar::new(level, total, self.terminal)
    }
}

/// The progress display of one seed level.
pub(super) struct LevelBar {
    level: usize,
    bar: ProgressBar,
    start: Instant,
    terminal: bool,
}

impl LevelBar {
    fn new(level: usize, total: u64, terminal: bool) -> LevelBar {
        let bar = if terminal {
            let bar = ProgressBar::new(total).with_style(
                ProgressStyle::with_template(
                    "{prefix:>9} [{elapsed_precise}] {bar:30} {human_pos}/{human_len} {rate} eta {eta}",
                )
                .map(|style| {
                    style.with_key(
                        "rate",
                        |state: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                            let _ = write!(w, "{:.1} M/s", state.per_sec() / 1e6);
                        },
                    )
                })
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
            );
            bar.set_prefix(format!("{level} seeds"));
            bar
        } else {
            let bar = ProgressBar::hidden();
            bar.set_length(total);
            bar
        };
        LevelBar {
            level,
            bar,
            start: Instant::now(),
            terminal,
        }
    }
}

impl LevelDisplay for LevelBar {
    fn set(&self, done: u64) {
        self.bar.set_position(done);
    }

    /// Leaves the bar on screen, or prints one line where standard error is no terminal.
    fn finish(self) {
        if self.terminal {
            self.bar.finish();
        } else {
            let (n, s) = (self.bar.length().unwrap_or(0), self.start.elapsed());
            eprintln!("{}", wire::level_line(self.level, n, s.as_secs_f64()));
        }
    }
}
