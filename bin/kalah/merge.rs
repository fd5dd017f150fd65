//! `kalah merge`: the answers of a split solve put together into exact values of the
//! position, of every first move and of the pie rule; or a hypothesis checked.

use std::io::Write;
use std::path::PathBuf;
use std::sync::OnceLock;

use kalah_analysis::distributed::combine::{Combine, CombineError, Proving};
use kalah_analysis::run::outputs;
use kalah_io::{Checks, Output};

use crate::analysis_io::{interrupt_flag, interrupted, progress_bar};
use crate::error::CliError;
use crate::solving::{SetupSpinner, SolverArgs};

/// Merge the answers of a split solve into exact values, or check a hypothesis.
///
/// Reads the manifest written by `kalah split` and any number of answer files written by
/// `kalah batch` for its units, in any order, with duplicates and missing parts (a file
/// that does not exist yet is skipped with a warning). Every answer is checked: its rules
/// and position against the manifest, its principal variation replayed to its value, and
/// against the other answers for the same unit. Then what the values printed rest on is
/// proved again here: each unit whose answer a value needs is solved in the narrow window
/// that decides it (an exact value v in (v-1, v+1), a bound in its null window), and an
/// answer the solve refutes is refused. Every position of the manifest is bounded by
/// negamax, and the command prints the value of the position with its principal
/// variation, the value of every first move, and the pie rule.
///
/// --trust-answers skips the proofs, for answers from one's own machines: every value
/// printed then says it is exact only if the answers are ("status": "trusted",
/// "exact": false, "verified": false).
///
/// While answers are missing it says which units the value still needs (the others cannot
/// change it) and exits with status 3; --next FILE writes those units, to be solved next
/// (replacing a file of units; the manifest, an answer file given, or any other file is
/// never replaced: docs/outputs.md).
///
/// --hypothesis V proves "the value is V" with narrow windows instead: one child of each
/// position needs to reach V, the others only to stay on their side of it, so far fewer
/// nodes are searched than for exact values. Run `kalah merge MANIFEST --hypothesis V
/// --next FILE` (with the answers so far), solve FILE with `kalah batch`, and repeat until
/// the hypothesis is confirmed or refuted (a refuted hypothesis prints the bound proved,
/// and --next then holds the windows for the hypothesis nearest to it).
///
/// Example: `kalah merge k65/manifest.json k65/results/*.jsonl`
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The manifest.json written by kalah split
    #[arg(value_name = "MANIFEST")]
    manifest: PathBuf,

    /// Answer files written by kalah batch for the manifest's units
    #[arg(value_name = "ANSWERS")]
    answers: Vec<PathBuf>,

    /// Prove or refute "the value of the position is V" (from South)
    #[arg(long, value_name = "V", allow_hyphen_values = true)]
    hypothesis: Option<i32>,

    /// Write the work units to solve next to FILE (JSON lines for kalah batch)
    #[arg(long, value_name = "FILE")]
    next: Option<PathBuf>,

    /// Replace an existing --next FILE that is not a file of work units, a read-only one,
    /// or a symbolic link (the link itself; its target is left alone); never an input
    #[arg(long, requires = "next")]
    force: bool,

    /// Take the answers as they are, without proving again the ones the values rest on:
    /// the values printed are then exact only if the answers are, and say so
    #[arg(long)]
    trust_answers: bool,

    /// Print the result as one JSON object
    #[arg(long)]
    json: bool,

    /// The solver that proves the answers again: as for kalah batch (--quiet also hides
    /// the warnings)
    #[command(flatten)]
    solver: SolverArgs,
}

/// Runs `kalah merge`.
pub fn run(args: &Args, out: &mut dyn Write) -> Result<(), CliError> {
    // The inputs are never the output, by identity: a hard link to one is found too.
    let inputs = std::iter::once(&args.manifest).chain(&args.answers);
    let checks = Checks::of(outputs::UNITS, args.force).reading(inputs.map(PathBuf::as_path));
    let next_out = args
        .next
        .as_deref()
        .map(|p| Output::open_with(p, &checks))
        .transpose()?;
    let combine = Combine {
        manifest: &args.manifest,
        answers: &args.answers,
        hypothesis: args.hypothesis,
        next: next_out.as_ref().zip(args.next.as_deref()),
        trust: args.trust_answers,
    };
    let quiet = args.solver.quiet;
    let bar = OnceLock::new();
    let progress = |p: Proving| match p {
        Proving::Started => {
            bar.get_or_init(|| progress_bar(quiet, 0, "solves proving answers again"));
        }
        Proving::Step { done, all } => {
            if let Some(bar) = bar.get() {
                bar.set_length(all as u64);
                bar.set_position(done as u64);
            }
        }
        Proving::Done => {
            if let Some(bar) = bar.get() {
                bar.finish_and_clear();
            }
        }
    };
    // Ctrl-C stops the proofs (and a database build): nothing is written then.
    interrupt_flag();
    let setup = SetupSpinner::of(&args.solver);
    let merged = combine.run(
        &mut |w| {
            if !quiet {
                eprintln!("{w}");
            }
        },
        &args.solver.solving(&setup),
        &progress,
        args.json,
        out,
    );
    merged.map_err(|e| match e {
        CombineError::Input(m) => CliError::Input(m),
        CombineError::Solver(e) => e.into(),
        CombineError::Interrupted(m) => interrupted(&m),
        CombineError::Output(e) => e.into(),
        CombineError::Io(e) => e.into(),
        CombineError::Incomplete(m) => CliError::Incomplete(m),
    })
}
