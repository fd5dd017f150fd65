//! `kalah atlas`: every board of a range solved with every first turn and the pie rule,
//! kept in a directory of files (`kalah_analysis::openings::atlas`), with a progress bar.

use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

use clap::builder::{PossibleValuesParser, TypedValueParser};
use indicatif::ProgressBar;
use kalah_analysis::game::setup::RuleOptions;
use kalah_analysis::openings::atlas::{
    summary_line, Atlas, AtlasError, Captures, Machine, Made, Plan, Span, Tick,
};
use kalah_analysis::run::solving::{SetupShown, Solving};
use kalah_core::{Capture, Preset};

use crate::analysis_io::{file_error, interrupt_flag, interrupted, progress_bar};
use crate::error::CliError;
use crate::solving::SolverArgs;

/// Solve a range of boards: each one's value, every first turn, the pie rule.
///
/// For every board of --houses and --seeds (ranges such as `1..6`, or one size), under
/// both capture rules unless --capture says one: the board's exact value (South's final
/// margin under perfect play from the start), every first turn of South with its exact
/// value and principal variation (each replayed to its value), the best first turns, and
/// under the pie rule North's decision after each first turn (swap when the value is
/// positive for South) with the value of the game with the rule (the largest -|v|).
///
/// Written to --dir as atlas.json (the record: every value, line, and the command,
/// commit, machine and time of each board), boards.csv (one row a board: houses, seeds,
/// capture, value, lower, upper, status, best_turns, pie_value...) and first_turns.csv
/// (one row a first turn: value or interval, swap, pv); docs/atlas.md has the columns.
/// The files are rewritten whole, atomically, after each board.
///
/// A board already in the atlas is never solved again. A board under way keeps each value
/// it proves in DIR/BOARD.partial, so Ctrl-C (or a kill) loses at most the turns being
/// solved; the same command goes on from there. With --budget a board still unproved
/// after SECONDS is written open: its value and each unproved first turn as the interval
/// proved (status `open`, or `turns-open` where the value is exact), and a later run with
/// a larger budget, or none, takes it up again. A board past one machine can be cut into
/// units with `kalah split` (the summary prints the command; docs/atlas.md), solved with
/// `kalah batch` on many machines, merged with `kalah merge --json`, and taken into the
/// atlas with --merged.
///
/// --threads sets how many first turns are solved at once (one search thread each).
///
/// Example: `kalah atlas --houses 1..6 --seeds 1..5 --threads 2` or `kalah atlas --houses
/// 7 --seeds 1..3 --budget 600`
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Houses a side: a range (`1..6`) or one size
    #[arg(long, value_name = "RANGE", default_value = "1..6")]
    houses: Span,

    /// Seeds a house at the start: a range (`1..5`) or one size
    #[arg(long, value_name = "RANGE", default_value = "1..5")]
    seeds: Span,

    /// The capture rule: `standard`, `empty`, or `both` (each board twice; a family
    /// without the choice plays its own)
    #[arg(long, value_name = "RULE", default_value = "both",
          value_parser = PossibleValuesParser::new(["standard", "empty", "both"]))]
    capture: String,

    /// Rule preset of every board (docs/rules.md); the sowing games only
    #[arg(
        long = "rules",
        value_name = "PRESET",
        default_value = "kalah",
        value_parser = PossibleValuesParser::new(Preset::ALL.map(|(_, name)| name))
            .try_map(|s| s.parse::<Preset>())
    )]
    preset: Preset,

    /// The directory of the atlas (made if missing)
    #[arg(long, value_name = "DIR", default_value = "data/atlas")]
    dir: PathBuf,

    /// Seconds a board may take (decimals allowed); past it the board is written open with
    /// its proven interval [default: no limit]
    #[arg(long, value_name = "SECONDS", value_parser = crate::args::parse_seconds)]
    budget: Option<std::time::Duration>,

    /// Take the board of FILE, the JSON of `kalah merge --json` over a split of a board's
    /// start by turns (exact and proved), into the atlas instead of solving it; may be
    /// given more than once
    #[arg(long, value_name = "FILE")]
    merged: Vec<PathBuf>,

    #[command(flatten)]
    solver: SolverArgs,
}

/// The set-up of each board's solver, said above the bar.
struct OnBar<'a>(&'a ProgressBar);

impl SetupShown for OnBar<'_> {
    fn message(&self, message: String) {
        self.0.set_message(message);
    }

    fn say(&self, line: &str) {
        self.0.println(line);
    }
}

/// Runs `kalah atlas`.
pub fn run(args: &Args, out: &mut dyn Write) -> Result<(), CliError> {
    // Catch Ctrl-C from the start, before any database is built.
    let interrupt = interrupt_flag();
    let captures = match args.capture.as_str() {
        "both" => Captures::Both,
        c => Captures::Only(c.parse::<Capture>().map_err(CliError::Rules)?),
    };
    let plan = Plan {
        houses: args.houses,
        seeds: args.seeds,
        rules: RuleOptions {
            preset: args.preset,
            ..RuleOptions::default()
        },
        captures,
    };
    let mut atlas = Atlas::open(&plan, &args.dir, args.budget).map_err(atlas_error)?;
    let made = Made {
        command: format!(
            "kalah {}",
            std::env::args().skip(1).collect::<Vec<_>>().join(" ")
        ),
        version: format!("kalah {}", env!("CARGO_PKG_VERSION")),
        commit: crate::book::commit(),
        machine: Machine::here(),
        threads: args.solver.threads.map_or_else(
            || std::thread::available_parallelism().map_or(1, |n| n.get()),
            |t| t as usize,
        ),
        finished: String::new(),
    };
    for file in &args.merged {
        let text = std::fs::read_to_string(file).map_err(|e| file_error(file, e))?;
        let board = atlas.take_merged(&text, file, &made).map_err(atlas_error)?;
        writeln!(
            out,
            "{} (taken from {})",
            summary_line(&board),
            file.display()
        )?;
    }
    let bar = progress_bar(args.solver.quiet, atlas.todo().len(), "boards");
    let shown = OnBar(&bar);
    let solving = Solving {
        options: args.solver.options(),
        shown: &shown,
        cancel: Some(interrupt as &AtomicBool),
    };
    let written = atlas.run(&solving, &made, interrupt, &|tick| match tick {
        Tick::Board(name, turns) => bar.set_message(format!("{name}, {turns} first turns")),
        Tick::Turn(turn) => bar.set_message(turn),
        Tick::Written(line) => {
            bar.println(line);
            bar.inc(1);
        }
    });
    bar.finish_and_clear();
    let written = written.map_err(atlas_error)?;
    atlas.write_summary(&written, out)?;
    Ok(())
}

/// The command-line error of an atlas not made.
fn atlas_error(e: AtlasError) -> CliError {
    match e {
        AtlasError::Interrupted(kept) => interrupted(&kept),
        AtlasError::Output(e) => CliError::Output(e),
        AtlasError::Solving(e) => e.into(),
        e @ (AtlasError::Plan(_) | AtlasError::Rules(_)) => CliError::Input(e.to_string()),
        AtlasError::Analysis(e) => crate::analysis_io::analysis_error(e, "nothing kept"),
        e => CliError::Input(e.to_string()),
    }
}
