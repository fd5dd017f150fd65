//! `kalah split`: a solve cut into work units for `kalah batch`, with the manifest that
//! `kalah merge` needs to put their answers together.

use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

use clap::builder::{PossibleValuesParser, TypedValueParser};
use kalah_analysis::distributed::cut::{Cut, CutError, Progress, Sampling};
use kalah_analysis::distributed::Step;

use crate::analysis_io::{interrupt_flag, interrupted, invalid, progress_counter};
use crate::args::{GameArgs, QuietArgs};
use crate::error::CliError;

/// Cut a solve into independent work units, for many machines or a job scheduler.
///
/// Enumerates the positions --depth turns (or sowings, with --step sowing) below the
/// position, merging positions that several lines reach, and writes into --out:
///
/// - `units.jsonl`: one work unit a line, `{"id", "position", "window", "rules"}`, the
///   positions still in play at that depth, to be solved in the full window (exact
///   values);
///
/// - `manifest.json`: every position above the units with its moves, so that
///   `kalah merge` needs nothing else to compute the value of the position, of every
///   first move and the pie rule from the units' answers.
///
/// Solve the units with `kalah batch DIR/units.jsonl --output FILE` (the units carry
/// their rules), cut into shards with `--shard I/N`, one per job; then `kalah merge
/// DIR/manifest.json FILES...`. docs/distributed.md has the GNU parallel and Slurm
/// recipes. Running the same split again into the same directory keeps its files; another
/// split there, or a file of those names that is no split's (or a symbolic link), is
/// refused unless --force (docs/outputs.md).
///
/// --sample N plans a split too large to enumerate: instead of every unit it writes N
/// units drawn by random walks down the tree into DIR/sample.jsonl, each with the
/// "weight" of the units it stands for (Knuth's estimator), and no manifest. Solve them
/// with `kalah batch` and `scripts/estimate.py` turns the answers into the number of units
/// and the CPU time of the whole split, with error bars. With --hypothesis V the walks
/// follow the proof of "the value is V" instead (one move where one suffices), and the
/// units get its narrow windows.
///
/// Example: `kalah split --houses 6 --seeds 5 --depth 1 --out k65`
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Levels between the position and the units, each a turn or a sowing (--step)
    #[arg(long, value_name = "D")]
    depth: usize,

    /// What a level is: a whole `turn` (extra sowings included) or one `sowing`
    #[arg(long, value_name = "STEP", default_value = "turn",
          value_parser = PossibleValuesParser::new(["turn", "sowing"])
              .map(|s| s.parse::<Step>().expect("a listed step")))]
    step: Step,

    /// The directory to write manifest.json and units.jsonl into (created if missing)
    #[arg(long, short, value_name = "DIR")]
    out: PathBuf,

    /// Write N units drawn at random, with weights, to DIR/sample.jsonl instead of the
    /// whole split (to estimate its cost)
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=100_000_000))]
    sample: Option<u64>,

    /// With --sample: walk the proof of "the value is V" (from South) instead
    #[arg(
        long,
        value_name = "V",
        requires = "sample",
        allow_hyphen_values = true
    )]
    hypothesis: Option<i32>,

    /// With --sample: the seed of the random walks
    #[arg(long, value_name = "SEED", default_value_t = 1, requires = "sample")]
    seed: u64,

    /// Print the summary as one JSON object
    #[arg(long)]
    json: bool,

    /// Replace what DIR holds: another split, files of those names that are no split's,
    /// read-only ones, symbolic links (the links themselves; their targets are left alone)
    #[arg(long)]
    force: bool,

    #[command(flatten)]
    game: GameArgs,

    #[command(flatten)]
    quiet: QuietArgs,
}

/// Runs `kalah split`.
pub fn run(args: &Args, out: &mut dyn Write) -> Result<(), CliError> {
    let (game, pos) = args.game.setup()?;
    let cut = Cut {
        game: &game,
        pos: &pos,
        step: args.step,
        depth: args.depth,
        dir: &args.out,
        force: args.force,
    };
    let sampling = args.sample.map(|n| Sampling {
        n,
        hypothesis: args.hypothesis,
        seed: args.seed,
    });
    // Only the split's enumeration is interrupted cleanly and shows its progress.
    let (bar, interrupt) = match sampling {
        None => (
            progress_counter(args.quiet.quiet, "positions"),
            interrupt_flag(),
        ),
        Some(_) => (progress_counter(true, "positions"), &AtomicBool::new(false)),
    };
    let mut progress = |p: Progress| match p {
        Progress::Grew(g) => {
            bar.set_position(g.positions as u64);
            bar.set_message(g.message());
        }
        Progress::Done => bar.finish_and_clear(),
    };
    cut.run(sampling, interrupt, &mut progress, args.json, out)
        .map_err(|e| match e {
            CutError::Invalid(why) => invalid(why),
            CutError::Cancelled => interrupted("nothing written"),
            CutError::Output(e) => e.into(),
            CutError::Io(e) => e.into(),
        })
}
