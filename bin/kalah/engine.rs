//! `kalah engine`: the engine protocol on standard input and output (docs/engine.md);
//! the protocol itself is [`kalah_analysis::engine`].

use std::io::{self, Write};
use std::sync::mpsc::{self, Sender};
use std::sync::{Arc, Mutex};

use kalah_analysis::engine::{self, say, EvaluationChoice, Flow, Session};
use kalah_core::Game;
use kalah_io::LineReader;
use kalah_solver::{Config, Solver};

use crate::error::CliError;
use crate::solving::SolverArgs;

/// Speak the engine protocol on standard input and output, for programs that drive the
/// engine (GUIs, scripts, `kalah match --engine2`).
///
/// Commands, one a line: `hello`, `isready`, `newgame`, `rules <preset and options as on
/// the command line>` (or `rules Kalah(6,4) capture=standard ...`), `position start|<board>
/// [moves <turns>]`, `go [time S] [nodes N] [depth D] [multi N]`, `stop`, `quit`. A `go`
/// runs on a thread of its own and writes `info` lines as the analysis improves, then
/// `bestmove <turn>`. A line that cannot be read or carried out is answered `error
/// <reason>` and the session goes on. The whole protocol, with an example session:
/// docs/engine.md.
///
/// Example: `printf 'position start\ngo depth 8\n' | kalah engine --houses 4 --seeds 3`
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The leaf evaluation of the depth-limited searches: `store` (the store difference) or
    /// `fitted` (fitted for the rules, docs/evaluation.md; on Kalah(6,6) it wins at 0.05 s
    /// a move and is level or worse from 0.1 s, docs/matches.md)
    #[arg(long, value_name = "NAME", default_value = "store", value_parser = engine::evaluation_named)]
    pub evaluation: EvaluationChoice,

    #[command(flatten)]
    pub solver: SolverArgs,
}

/// What the main thread hears: an input line (or why it could not be read), the end of
/// the input, or output to write.
enum Event {
    Line(Result<String, String>),
    End,
    Output(Vec<u8>),
}

/// The session's output, sent to the main thread line by line (on each flush): only the
/// main thread writes to standard output, which it holds locked.
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

/// Reads standard input on a thread of its own, each line an [`Event`]; a line that is
/// too long or not UTF-8 is an error, and a too-long line ends the input (it is not read
/// past the limit).
fn read_input(send: Sender<Event>) {
    std::thread::spawn(move || {
        let stdin = io::stdin();
        let mut input = LineReader::new(stdin.lock());
        loop {
            let event = match input.next_line() {
                Ok(Some(l)) => Event::Line(match std::str::from_utf8(l.bytes) {
                    Ok(text) => Ok(text.to_string()),
                    Err(_) => Err(format!("line {} is not UTF-8", l.number)),
                }),
                Ok(None) => Event::End,
                Err(e) => Event::Line(Err(format!("{e}: the input ends here"))),
            };
            let end = matches!(event, Event::End);
            if send.send(event).is_err() || end {
                return;
            }
        }
    });
}

/// Runs `kalah engine` until `quit` or the end of the input (which waits for a running
/// `go` to answer).
pub fn run(args: &Args, out: &mut dyn Write) -> Result<(), CliError> {
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
    let mut session = Session::new(Box::new(make), shared.clone(), about);
    read_input(send);
    while let Ok(event) = events.recv() {
        match event {
            Event::Output(bytes) => {
                out.write_all(&bytes)?;
                out.flush()?;
            }
            Event::Line(Ok(text)) => {
                if session.handle_line(&text)? == Flow::Quit {
                    break;
                }
            }
            Event::Line(Err(why)) => say(&shared, &format!("error {why}"))?,
            Event::End => {
                session.finish();
                break;
            }
        }
    }
    // Whatever the session and a finished go said last.
    while let Ok(event) = events.try_recv() {
        if let Event::Output(bytes) = event {
            out.write_all(&bytes)?;
        }
    }
    out.flush()?;
    Ok(())
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
