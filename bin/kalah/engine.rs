//! `kalah engine`: the engine protocol on standard input and output (docs/engine.md);
//! the protocol itself is [`kalah_analysis::protocol::session`].

use std::io::{self, Write};

use kalah_analysis::protocol::session::driver::{self, Ended};
use kalah_analysis::protocol::session::solvers;
use kalah_analysis::protocol::session::{self, launch, EvaluationChoice, Session};

use crate::analysis_io::{interrupt_flag, interrupted};
use crate::book_args::BookArgs;
use crate::error::CliError;
use crate::solving::{SetupSpinner, SolverArgs};

/// Speak the engine protocol on standard input and output, for programs that drive the
/// engine (GUIs, scripts, `kalah match --engine2`).
///
/// Commands, one a line: `hello`, `isready`, `newgame`, `rules <preset and options as on
/// the command line>` (or `rules Kalah(6,4) capture=standard ...`), `position start|<board>
/// [moves <turns>]`, `go [time S] [nodes N] [depth D] [multi N]` (on a game clock: `stime
/// MS ntime MS sinc MS ninc MS movestogo N`; `go ponder` thinks on the opponent's time
/// until `ponderhit` or `stop`), `ponderhit`, `stop`, `quit`. A `go` runs on a thread of
/// its own and writes `info` lines as the analysis improves, then `bestmove <turn>`, each
/// line written as it is made. A line that cannot be read or
/// carried out is answered `error <reason>` and the session goes on (a line over 1 MiB
/// ends it, exit status 2). The end of the input lets a running `go` answer, then ends the
/// session; Ctrl-C or SIGTERM stops the `go`, which answers its `bestmove`, and ends it
/// (exit status 2). The whole protocol, with an example session: docs/engine.md.
///
/// Example: `printf 'position start\ngo depth 8\n' | kalah engine --houses 4 --seeds 3`
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The leaf evaluation of the depth-limited searches: `default` (the learned one on
    /// standard Kalah of six houses, the store difference elsewhere: what won its matches,
    /// docs/matches.md), `store` (the store difference), `fitted` (fitted for the rules,
    /// docs/evaluation.md) or `learned` (the pattern evaluation of Kalah on six houses,
    /// either capture rule; the fitted one elsewhere)
    #[arg(long, value_name = "NAME", default_value = "default", value_parser = session::evaluation_named)]
    pub evaluation: EvaluationChoice,

    #[command(flatten)]
    pub solver: SolverArgs,

    #[command(flatten)]
    pub book: BookArgs,

    /// Refused: the rules come in the protocol's `rules` line (`--rules bao` too), not on
    /// the command line; given, it is named in the error that says so
    #[arg(long, value_name = "RULES", hide = true)]
    pub rules: Option<String>,
}

/// Runs `kalah engine` until `quit`, the end of the input (after a running `go` has
/// answered), or Ctrl-C or SIGTERM (a running `go` stops and answers first).
pub fn run(args: &Args, out: &mut dyn Write) -> Result<(), CliError> {
    if let Some(rules) = &args.rules {
        return Err(CliError::Input(launch::rules_refused(rules)));
    }
    let interrupt = interrupt_flag();
    let evaluation = args.evaluation;
    let make = solvers::engine_factory(
        args.solver.options(),
        evaluation,
        Box::new(SetupSpinner::of(&args.solver)),
        Some(interrupt),
        |e| CliError::from(e).to_string(),
    );
    let (books, book_name) = args.book.engine_books()?;
    let about = launch::about(
        env!("CARGO_PKG_VERSION"),
        args.solver.threads,
        evaluation,
        book_name,
    );
    let session = move |shared| {
        let session = Session::new(make, shared, about);
        match books {
            Some(books) => session.with_books(books),
            None => session,
        }
    };
    let ended = driver::run(session, || io::stdin().lock(), out, interrupt)?;
    match (&ended, ended.why()) {
        (Ended::Interrupted, Some(why)) => Err(interrupted(&why)),
        (_, Some(why)) => Err(CliError::Input(why)),
        (_, None) => Ok(()),
    }
}
