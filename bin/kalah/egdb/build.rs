//! `kalah egdb build`: a database file, one seed level after the other, resumable.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

use indicatif::{ProgressBar, ProgressStyle};
use kalah_analysis::run::levels::{LevelDisplay, LevelProgress};
use kalah_analysis::run::outputs;
use kalah_analysis::wire::egdb as wire;
use kalah_io::{Checks, Output, OutputKind};
use kalah_solver::egdb::{self, FileBuild, PlanError};

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
    let rules = args.rules.board_rules();
    let plan = FileBuild::plan(rules, args.max_seeds).map_err(|e| match e {
        PlanError::Rules(e) => CliError::Rules(e),
        PlanError::Unbuildable(e) => CliError::Egdb(e),
        PlanError::Size(e) => CliError::EgdbBuild(e),
    })?;
    // The path checked and locked before any work, like every output: only a database
    // is replaced without --force, never --from, and a second build fails at once.
    let checks = Checks::of(outputs::DATABASE, args.force).reading(args.from.as_deref());
    let output = Output::open_with(&args.out, &checks)?;
    if output.kind() != OutputKind::File {
        return Err(CliError::Input(format!(
            "--out {}: a database is a file to map and resume, not a stream: name a file",
            args.out.display()
        )));
    }
    let out_file = output.target().to_path_buf();
    if let Some(from) = &args.from {
        start_from(&plan, args, from, &out_file)?;
    }
    if !args.quiet {
        let partial = plan.resumes(&out_file);
        eprintln!(
            "{}",
            wire::build_announcement(&args.out, &plan, partial.as_deref())
        );
    }
    // The bar of the level being built (none when quiet), replaced when the next level
    // starts; reported from the build's worker threads.
    let (bars, terminal) = (LevelProgress::default(), std::io::stderr().is_terminal());
    let start = Instant::now();
    let built = plan
        .run(&out_file, interrupt_flag(), &|level, done, total| {
            if !args.quiet {
                bars.show(level, done, || LevelBar::new(level, total, terminal))
            }
        })
        .map_err(|e| match e {
            egdb::EgdbError::Cancelled => interrupted(&wire::build_kept(&out_file, args.max_seeds)),
            e => CliError::EgdbBuild(e),
        })?;
    drop(output);
    bars.finish();
    let seconds = start.elapsed().as_secs_f64();
    let summary = wire::build_summary(&args.out, &plan, built.computed, built.resumed, seconds);
    writeln!(out, "{summary}")?;
    Ok(())
}

/// Copies the levels of the smaller file `from` to the build of `out_file` (`--from`).
fn start_from(
    plan: &FileBuild,
    args: &BuildArgs,
    from: &Path,
    out_file: &Path,
) -> Result<(), CliError> {
    // The smaller file is loaded like any database: its own errors name it.
    let levels = plan.start_from(from, out_file).map_err(|e| match e {
        e @ egdb::EgdbError::FromRefused { .. } => CliError::EgdbBuild(e),
        e => CliError::Egdb(e),
    })?;
    if !args.quiet {
        eprintln!("{}", wire::start_from_line(from, levels));
    }
    Ok(())
}

/// The progress display of one seed level.
struct LevelBar {
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
