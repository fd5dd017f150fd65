//! A match player that is another program speaking the engine protocol
//! (`docs/engine.md`): spawned, driven through its standard input and output, each
//! answer awaited no longer than a timeout.

use std::io::{self, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use kalah_core::{Game, Position};
use kalah_io::LineReader;

use super::{Player, PlayerError};
use crate::protocol::{go_line, parse_bestmove, position_line, rules_line, Go};

/// A program that speaks the engine protocol, asked for one turn at a time.
pub struct ProtocolPlayer {
    name: String,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    go: Go,
    timeout: Duration,
    /// The last `rules` line sent.
    rules: Option<String>,
}

impl ProtocolPlayer {
    /// Starts `command` (a program and its arguments, split at blanks), says `hello` and
    /// waits for `hellook`; every move is then asked with `go` (the limits of `go`) and
    /// awaited at most `timeout`. The name is the program's `id name`, else the command.
    pub fn start(command: &str, go: Go, timeout: Duration) -> Result<ProtocolPlayer, PlayerError> {
        let mut words = command.split_whitespace();
        let program = words
            .next()
            .ok_or_else(|| PlayerError::Protocol("the engine command is empty".into()))?;
        let mut child = Command::new(program)
            .args(words)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| PlayerError::Io(io::Error::new(e.kind(), format!("{program}: {e}"))))?;
        let stdin = child.stdin.take().expect("stdin is piped");
        let stdout = child.stdout.take().expect("stdout is piped");
        let (send, lines) = mpsc::channel();
        std::thread::spawn(move || {
            let mut reader = LineReader::new(BufReader::new(stdout));
            while let Ok(Some(line)) = reader.next_line() {
                let text = String::from_utf8_lossy(line.bytes).into_owned();
                if send.send(text).is_err() {
                    break;
                }
            }
        });
        let mut player = ProtocolPlayer {
            name: command.to_string(),
            child,
            stdin,
            lines,
            go,
            timeout,
            rules: None,
        };
        player.send("hello")?;
        let mut name = None;
        player.await_line("hellook", |l| {
            if let Some(n) = l.strip_prefix("id name ") {
                name = Some(n.trim().to_string());
            }
            l == "hellook"
        })?;
        if let Some(n) = name {
            player.name = n;
        }
        Ok(player)
    }

    /// Sends one line.
    fn send(&mut self, line: &str) -> Result<(), PlayerError> {
        writeln!(self.stdin, "{line}")
            .and_then(|()| self.stdin.flush())
            .map_err(PlayerError::Io)
    }

    /// Reads lines until `done` says one is the awaited one, at most the timeout; an
    /// `error` line or the end of the output is a protocol error.
    fn await_line(
        &mut self,
        awaited: &'static str,
        mut done: impl FnMut(&str) -> bool,
    ) -> Result<String, PlayerError> {
        let deadline = Instant::now() + self.timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = match self.lines.recv_timeout(left) {
                Ok(line) => line,
                Err(RecvTimeoutError::Timeout) => {
                    return Err(PlayerError::Timeout {
                        awaited,
                        after: self.timeout,
                    })
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(PlayerError::Protocol(
                        "the engine ended its output (exited?)".into(),
                    ))
                }
            };
            let line = line.trim().to_string();
            if let Some(why) = line.strip_prefix("error") {
                return Err(PlayerError::Protocol(format!(
                    "the engine said error:{why}"
                )));
            }
            if done(&line) {
                return Ok(line);
            }
        }
    }
}

impl Player for ProtocolPlayer {
    fn name(&self) -> &str {
        &self.name
    }

    fn choose(
        &mut self,
        game: &Game,
        moves: &[String],
        _: &Position,
    ) -> Result<String, PlayerError> {
        self.best_move(&rules_line(game.rules()), moves)
    }
}

impl ProtocolPlayer {
    /// The program's move in the game of `rules` (its `rules` line, sent when it
    /// changes) after `moves` from the start.
    pub fn best_move(&mut self, rules: &str, moves: &[String]) -> Result<String, PlayerError> {
        if self.rules.as_deref() != Some(rules) {
            self.send(rules)?;
            self.rules = Some(rules.to_string());
        }
        self.send(&position_line(None, moves))?;
        self.send(&go_line(&self.go))?;
        let line = self.await_line("bestmove", |l| parse_bestmove(l).is_some())?;
        match parse_bestmove(&line) {
            Some(Some(turn)) => Ok(turn),
            _ => Err(PlayerError::Protocol(
                "the engine answered bestmove none in a game not over".into(),
            )),
        }
    }
}

impl Drop for ProtocolPlayer {
    /// Says `quit`, then makes sure the program is gone.
    fn drop(&mut self) {
        let _ = self.send("quit");
        let deadline = Instant::now() + Duration::from_secs(2);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
