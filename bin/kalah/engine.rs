//! `kalah engine`: the engine protocol on standard input and output (docs/engine.md);
//! the protocol itself is [`kalah_analysis::engine`].

use std::io::{self, Write};
use std::panic::AssertUnwindSafe;
use std::sync::atomic::AtomicBool;
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Mutex};

use kalah_analysis::engine::driver::{self, Ended, Input};
use kalah_analysis::engine::{self, EvaluationChoice, Session};
use kalah_core::Game;
use kalah_solver::{Config, Solver};

use crate::analysis_io::{interrupt_flag, interrupted};
use crate::book_args::BookArgs;
use crate::error::CliError;
use crate::solving::SolverArgs;

/// Speak the engine protocol on standard input and output, for programs that drive the
/// engine (GUIs, scripts, `kalah match --engine2`).
///
/// Commands, one a line: `hello`, `isready`, `newgame`, `rules <preset and options as on
/// the command line>` (or `rules Kalah(6,4) capture=standard ...`), `position start|<board>
/// [moves <turns>]`, `go [time S] [nodes N] [depth D] [multi N]`, `stop`, `quit`. A `go`
/// runs on a thread of its own and writes `info` lines as the analysis improves, then
/// `bestmove <turn>`, each line written as it is made. A line that cannot be read or
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
    /// docs/evaluation.md) or `learned` (the pattern evaluation of standard Kalah on six
    /// houses; the fitted one elsewhere)
    #[arg(long, value_name = "NAME", default_value = "default", value_parser = engine::evaluation_named)]
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

/// What the main thread hears: output to write, or the end of the session with its result.
enum Event {
    Output(Vec<u8>),
    Done(Result<(), CliError>),
}

/// The session's output, sent to the main thread line by line (on each flush): only the
/// main thread writes to standard output, which it holds locked, and it does nothing
/// else, so every line goes out as soon as it is made, whatever the session is doing.
struct ToMain {
    send: Sender<Event>,
    line: Vec<u8>,
}

impl Write for ToMain {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.line.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        let line = std::mem::take(&mut self.line);
        self.send
            .send(Event::Output(line))
            .map_err(|_| io::Error::new(io::ErrorKind::BrokenPipe, "the output is closed"))
    }
}

/// Runs `kalah engine` until `quit`, the end of the input (after a running `go` has
/// answered), or Ctrl-C or SIGTERM (a running `go` stops and answers first). The session
/// runs on a thread of its own; this thread only writes what it and its `go` say, as
/// they say it.
pub fn run(args: &Args, out: &mut dyn Write) -> Result<(), CliError> {
    match args.rules.as_deref() {
        Some("bao") => {
            return Err(CliError::Input(
                "kalah engine takes Bao through its protocol: start it without --rules and \
                 send `rules bao --houses N --seeds S` (docs/engine.md)"
                    .to_string(),
            ))
        }
        Some(rules) => {
            return Err(CliError::Input(format!(
                "kalah engine takes its rules through its protocol: start it without --rules \
                 and send `rules {rules} ...` (docs/engine.md)"
            )))
        }
        None => {}
    }
    let interrupt = interrupt_flag();
    let (send, events) = mpsc::channel();
    let shared: engine::Out = Arc::new(Mutex::new(ToMain {
        send: send.clone(),
        line: Vec::new(),
    }));
    let solver_args = args.solver.clone();
    let evaluation = args.evaluation;
    let make = move |game: &Game| {
        engine_solver(&solver_args, game, None, evaluation).map_err(|e| e.to_string())
    };
    let threads = args.solver.threads.map_or("all".into(), |t| t.to_string());
    let about = vec![
        (
            "name".to_string(),
            format!("kalah {}", env!("CARGO_PKG_VERSION")),
        ),
        ("threads".to_string(), threads),
        ("evaluation".to_string(), evaluation.name().to_string()),
    ];
    let (books, book_name) = args.book.engine_books()?;
    let mut about = about;
    about.push(("book".to_string(), book_name));
    let mut session = Session::new(Box::new(make), shared.clone(), about);
    if let Some(books) = books {
        session = session.with_books(books);
    }
    let (to_session, input) = mpsc::channel();
    driver::read_lines(|| io::stdin().lock(), to_session);
    std::thread::Builder::new()
        .name("kalah-engine-session".into())
        .spawn(move || {
            let ended = std::panic::catch_unwind(AssertUnwindSafe(|| {
                serve(session, &input, &shared, interrupt)
            }));
            let ended = ended
                .unwrap_or_else(|_| Err(CliError::Input("the engine session failed".to_string())));
            let _ = send.send(Event::Done(ended));
        })?;
    while let Ok(event) = events.recv() {
        match event {
            Event::Output(bytes) => {
                out.write_all(&bytes)?;
                out.flush()?;
            }
            Event::Done(ended) => {
                // The session is over: nothing more can come.
                while let Ok(Event::Output(bytes)) = events.try_recv() {
                    out.write_all(&bytes)?;
                }
                out.flush()?;
                return ended;
            }
        }
    }
    Ok(())
}

/// The session driven by `input` ([`driver::drive`]), its end as the command's result.
fn serve(
    session: Session,
    input: &Receiver<Input>,
    out: &engine::Out,
    interrupt: &AtomicBool,
) -> Result<(), CliError> {
    match driver::drive(session, input, out, interrupt)? {
        Ended::Done => Ok(()),
        Ended::InputFailed(why) => Err(CliError::Input(format!("standard input: {why}"))),
        Ended::Interrupted => Err(interrupted(
            "the session ended; a running go was stopped and answered its bestmove",
        )),
    }
}

/// The solver of an engine on `game`: the flags' settings (`threads` over `--threads`),
/// `evaluation` at the leaves, and no endgame database built unless one is asked for
/// (building one would take longer than the moves; a file already there is read).
pub fn engine_solver(
    args: &SolverArgs,
    game: &Game,
    threads: Option<u32>,
    evaluation: EvaluationChoice,
) -> Result<Solver, CliError> {
    let mut args = args.for_analysis(None);
    args.threads = threads.or(args.threads);
    let config = Config {
        evaluation: evaluation.for_rules(game.rules()),
        ..args.config(game, game.capacity(), 1)?
    };
    args.make_solver(config, game)
}
