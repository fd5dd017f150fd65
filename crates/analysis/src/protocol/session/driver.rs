//! A session driven by its input: the lines read on a thread of their own
//! ([`read_lines`]), each handed to the session in turn ([`drive`]) until `quit`, the end
//! of the input (a running `go` answers first) or a signal (a running `go` is stopped and
//! answers its `bestmove`); [`run`] wires the two to a reader and a writer.

use std::io::{self, BufRead, Write};
use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use kalah_io::{LineReader, TooLong};

use super::{say, Flow, Out, Session};

/// What the session hears from the input: a line (or why it could not be read, the
/// session going on), the end of the input, or a failure that ends it (a line too long).
pub enum Input {
    /// A line, or why it is not text (the session answers `error` and goes on).
    Line(Result<String, String>),
    /// The end of the input.
    End,
    /// Reading failed: nothing more comes.
    Failed(String),
}

/// How a driven session ended, other than by an output error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ended {
    /// By `quit`, or at the end of the input once a running `go` had answered.
    Done,
    /// The input failed (the reason, in the protocol's words), once a running `go` had
    /// answered.
    InputFailed(String),
    /// By a signal: a running `go` was stopped and answered its `bestmove`.
    Interrupted,
    /// The session's thread panicked ([`run`] only).
    Failed,
}

impl Ended {
    /// Why the session ended other than cleanly, in the words of the command's error
    /// (`None` for [`Ended::Done`]).
    pub fn why(&self) -> Option<String> {
        match self {
            Ended::Done => None,
            Ended::InputFailed(why) => Some(format!("standard input: {why}")),
            Ended::Interrupted => Some(
                "the session ended; a running go was stopped and answered its bestmove".to_string(),
            ),
            Ended::Failed => Some("the engine session failed".to_string()),
        }
    }
}

/// What the writing thread hears: output to write, or the end of the session.
enum Event {
    Output(Vec<u8>),
    Done(io::Result<Ended>),
}

/// The session's output, sent to the writing thread line by line (on each flush): only
/// that thread writes, and it does nothing else, so every line goes out as soon as it is
/// made, whatever the session is doing.
struct ToWriter {
    send: Sender<Event>,
    line: Vec<u8>,
}

impl Write for ToWriter {
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

/// Runs the session that `session` makes on its output, fed by the lines of what
/// `reader` opens ([`read_lines`]), until it ends ([`drive`]): the session runs on a
/// thread of its own, and this thread only writes to `out` what the session and its
/// `go` say, as they say it. An error writing `out`, or one the session met writing, is
/// the `Err`.
pub fn run<R: BufRead>(
    session: impl FnOnce(Out) -> Session,
    reader: impl FnOnce() -> R + Send + 'static,
    out: &mut dyn Write,
    interrupt: &'static AtomicBool,
) -> io::Result<Ended> {
    let (send, events) = mpsc::channel();
    let shared: Out = Arc::new(Mutex::new(ToWriter {
        send: send.clone(),
        line: Vec::new(),
    }));
    let session = session(shared.clone());
    let (to_session, input) = mpsc::channel();
    read_lines(reader, to_session);
    std::thread::Builder::new()
        .name("kalah-engine-session".into())
        .spawn(move || {
            let ended = std::panic::catch_unwind(AssertUnwindSafe(|| {
                drive(session, &input, &shared, interrupt)
            }));
            let _ = send.send(Event::Done(ended.unwrap_or(Ok(Ended::Failed))));
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
    Ok(Ended::Done)
}

/// How often the session looks for a signal while it waits (for a line, or for a `go`
/// to end after the input did).
const POLL: Duration = Duration::from_millis(50);

/// Reads what `reader` opens (on the reading thread: a lock on standard input stays
/// there) on a thread of its own, each line an [`Input`] sent to `send`: a line
/// that is not UTF-8 is an error the session goes on after; a line too long (or a read
/// that fails) ends the input, which is not read past the limit.
pub fn read_lines<R: BufRead>(reader: impl FnOnce() -> R + Send + 'static, send: Sender<Input>) {
    std::thread::spawn(move || {
        let mut input = LineReader::new(reader());
        loop {
            let event = match input.next_line() {
                Ok(Some(l)) => Input::Line(match std::str::from_utf8(l.bytes) {
                    Ok(text) => Ok(text.to_string()),
                    Err(_) => Err(format!("line {} is not UTF-8", l.number)),
                }),
                Ok(None) => Input::End,
                Err(e) => Input::Failed(read_failure(&e)),
            };
            let last = !matches!(event, Input::Line(_));
            if send.send(event).is_err() || last {
                return;
            }
        }
    });
}

/// Why reading the protocol failed, in the protocol's words.
fn read_failure(e: &io::Error) -> String {
    match e.get_ref().and_then(|e| e.downcast_ref::<TooLong>()) {
        Some(TooLong::Line { line, limit }) => format!(
            "line {line} is longer than {limit} bytes, the most a protocol line may hold: \
             the engine reads no further"
        ),
        _ => format!("cannot read standard input: {e}"),
    }
}

/// Drives `session` by the lines of `input`, each handled in turn, until `quit`, the end
/// of the input (a running `go` answers first: it has its limits, or runs to the exact
/// value) or `interrupt` (a running `go` is stopped and answers its `bestmove`). A line
/// that could not be read is answered `error` on `out`.
pub fn drive(
    mut session: Session,
    input: &Receiver<Input>,
    out: &Out,
    interrupt: &AtomicBool,
) -> io::Result<Ended> {
    let mut ended: Option<Ended> = None;
    loop {
        if interrupt.load(Relaxed) {
            session.stop();
            return Ok(Ended::Interrupted);
        }
        if let Some(result) = ended.take() {
            if !session.is_running() {
                return Ok(result);
            }
            ended = Some(result);
            std::thread::sleep(POLL);
            continue;
        }
        match input.recv_timeout(POLL) {
            Ok(Input::Line(Ok(text))) => {
                if session.handle_line(&text)? == Flow::Quit {
                    return Ok(Ended::Done);
                }
            }
            Ok(Input::Line(Err(why))) => say(out, &format!("error {why}"))?,
            Ok(Input::Failed(why)) => {
                say(out, &format!("error {why}"))?;
                ended = Some(Ended::InputFailed(why));
            }
            Ok(Input::End) | Err(RecvTimeoutError::Disconnected) => ended = Some(Ended::Done),
            Err(RecvTimeoutError::Timeout) => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc;
    use std::sync::{Arc, Mutex};

    fn session(out: Out) -> Session {
        Session::new(Box::new(|_| Err("no solver".to_string())), out, Vec::new())
    }

    #[test]
    fn a_bad_line_is_answered_and_the_end_of_the_input_ends_the_session() {
        let written = Arc::new(Mutex::new(Vec::<u8>::new()));
        let out: Out = written.clone();
        let (send, input) = mpsc::channel();
        send.send(Input::Line(Err("line 1 is not UTF-8".into())))
            .unwrap();
        send.send(Input::Failed("too long".into())).unwrap();
        let ended = drive(session(out.clone()), &input, &out, &AtomicBool::new(false)).unwrap();
        assert_eq!(ended, Ended::InputFailed("too long".into()));
        let text = String::from_utf8(written.lock().unwrap().clone()).unwrap();
        assert_eq!(text, "error line 1 is not UTF-8\nerror too long\n");
    }

    #[test]
    fn lines_are_read_until_the_end_and_a_signal_ends_the_session() {
        let (send, input) = mpsc::channel();
        read_lines(|| io::Cursor::new(b"hello\n\xff\n".to_vec()), send);
        assert!(matches!(input.recv().unwrap(), Input::Line(Ok(l)) if l == "hello"));
        assert!(matches!(input.recv().unwrap(), Input::Line(Err(_))));
        assert!(matches!(input.recv().unwrap(), Input::End));
        let out: Out = Arc::new(Mutex::new(Vec::<u8>::new()));
        let ended = drive(session(out.clone()), &input, &out, &AtomicBool::new(true)).unwrap();
        assert_eq!(ended, Ended::Interrupted);
    }

    #[test]
    fn run_writes_what_the_session_says_and_ends_with_the_input() {
        static NO_SIGNAL: AtomicBool = AtomicBool::new(false);
        let mut written = Vec::new();
        let ended = run(
            session,
            || io::Cursor::new(b"\xff\nnonsense\n".to_vec()),
            &mut written,
            &NO_SIGNAL,
        )
        .unwrap();
        assert_eq!(ended, Ended::Done);
        let text = String::from_utf8(written).unwrap();
        assert!(
            text.starts_with("error line 1 is not UTF-8\nerror "),
            "{text}"
        );
        assert_eq!(text.lines().count(), 2);
    }

    #[test]
    fn how_a_session_ended_is_worded_as_before() {
        assert_eq!(Ended::Done.why(), None);
        assert_eq!(
            Ended::InputFailed("x".into()).why().unwrap(),
            "standard input: x"
        );
        assert_eq!(
            Ended::Interrupted.why().unwrap(),
            "the session ended; a running go was stopped and answered its bestmove"
        );
        assert_eq!(Ended::Failed.why().unwrap(), "the engine session failed");
    }
}
