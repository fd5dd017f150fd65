//! A session driven by its input: the lines read on a thread of their own
//! ([`read_lines`]), each handed to the session in turn ([`drive`]) until `quit`, the end
//! of the input (a running `go` answers first) or a signal (a running `go` is stopped and
//! answers its `bestmove`).

use std::io::{self, BufRead};
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender};
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

    fn session(out: &Out) -> Session {
        Session::new(
            Box::new(|_| Err("no solver".to_string())),
            out.clone(),
            Vec::new(),
        )
    }

    #[test]
    fn a_bad_line_is_answered_and_the_end_of_the_input_ends_the_session() {
        let written = Arc::new(Mutex::new(Vec::<u8>::new()));
        let out: Out = written.clone();
        let (send, input) = mpsc::channel();
        send.send(Input::Line(Err("line 1 is not UTF-8".into())))
            .unwrap();
        send.send(Input::Failed("too long".into())).unwrap();
        let ended = drive(session(&out), &input, &out, &AtomicBool::new(false)).unwrap();
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
        let ended = drive(session(&out), &input, &out, &AtomicBool::new(true)).unwrap();
        assert_eq!(ended, Ended::Interrupted);
    }
}
