//! `kalah split`: a solve cut into work units for `kalah batch`, with the manifest that
//! `kalah merge` needs to put their answers together.

use std::io::Write;
use std::path::PathBuf;

use clap::builder::{PossibleValuesParser, TypedValueParser};
use kalah_analysis::distributed::{
    another_split, estimated_units, refused, sample, sample_lines, write_once, NewDir, Once,
    SampleSummary, SplitSummary, Step, Window,
};
use kalah_analysis::outputs;
use kalah_analysis::wire::unit;
use kalah_io::{Checks, Output};

use crate::analysis_io::{interrupt_flag, interrupted, invalid, progress_counter};
use crate::args::GameArgs;
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
}

/// Runs `kalah split`.
pub fn run(args: &Args, out: &mut dyn Write) -> Result<(), CliError> {
    let (game, pos) = args.game.setup()?;
    if let Some(why) = refused(args.depth, pos.is_over()) {
        return Err(invalid(why));
    }
    // The directories made here are removed again where the split fails or is
    // interrupted before it writes into them.
    let dir = NewDir::create(&args.out).map_err(invalid)?;
    let written = split_into(args, &game, &pos, out);
    if written.is_err() {
        dir.undo();
    }
    written
}

/// The split (or its sample) of `pos` written into the directory `args.out`, which exists.
fn split_into(
    args: &Args,
    game: &kalah_core::Game,
    pos: &kalah_core::Position,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    if let Some(n) = args.sample {
        return write_sample(args, game, pos, n as usize, out);
    }
    let tree = bounded_split(args, game, pos)?;
    let manifest = format!("{}\n", tree.to_json());
    let units = unit::to_lines(&tree.units_in(Window::full(game.rules())));
    let manifest_path = args.out.join("manifest.json");
    let units_path = args.out.join("units.jsonl");
    let kept = match write_once(&manifest_path, &units_path, &manifest, &units, args.force)? {
        Once::Another => return Err(invalid(another_split(&manifest_path))),
        once => once == Once::Kept,
    };
    let summary = SplitSummary {
        tree: &tree,
        step: args.step,
        depth: args.depth,
        dir: &args.out,
        manifest: &manifest_path,
        units: &units_path,
        kept,
    };
    summary.write(args.json, out)?;
    Ok(())
}

/// `kalah split --sample N`: the units drawn, with their weights, to DIR/sample.jsonl.
fn write_sample(
    args: &Args,
    game: &kalah_core::Game,
    pos: &kalah_core::Position,
    n: usize,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let rules = game.rules();
    let path = args.out.join("sample.jsonl");
    // Checked and locked before the walks.
    let output = Output::open_with(&path, &Checks::of(outputs::UNITS, args.force))?;
    let drawn = sample(
        game,
        pos,
        args.step,
        args.depth,
        n,
        args.hypothesis,
        args.seed,
    )
    .map_err(|e| invalid(e.to_string()))?;
    output.replace(sample_lines(&drawn, rules).as_bytes())?;
    let summary = SampleSummary {
        position: pos,
        rules,
        step: args.step,
        depth: args.depth,
        sample: n,
        hypothesis: args.hypothesis,
        seed: args.seed,
        estimated_units: estimated_units(&drawn),
        file: &path,
    };
    summary.write(args.json, out)?;
    Ok(())
}

/// The tree of the split, bounded by the memory available (refused in its first levels
/// where its estimate runs far past it), with a counter of its positions on a terminal,
/// stopped cleanly by Ctrl-C (nothing is written before the tree is whole).
fn bounded_split(
    args: &Args,
    game: &kalah_core::Game,
    pos: &kalah_core::Position,
) -> Result<kalah_analysis::distributed::Tree, CliError> {
    use kalah_analysis::distributed::{max_positions, split_bounded, Budget, SplitError};
    let bar = progress_counter(false, "positions");
    let budget = Budget {
        max_positions: max_positions(kalah_solver::egdb::file::available_memory()),
        cancel: interrupt_flag(),
        progress: &mut |g| {
            bar.set_position(g.positions as u64);
            bar.set_message(g.message());
        },
    };
    let tree = split_bounded(game, pos, args.step, args.depth, budget);
    bar.finish_and_clear();
    tree.map_err(|e| match e {
        SplitError::Cancelled => interrupted("nothing written"),
        e => invalid(e.to_string()),
    })
}
