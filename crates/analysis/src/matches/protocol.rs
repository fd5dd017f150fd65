//! A match player that is another program speaking the engine protocol
//! (`docs/engine.md`): spawned, driven through its standard input and output, each
//! answer awaited no longer than a timeout. On a clock it is sent each side's time; asked
//! to ponder, it thinks on the opponent's time about the reply its own line expects
//! (`go ponder`), told `ponderhit` where the opponent played it, else `stop`.

use std::io::{self, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use kalah_core::{Game, Position, Side};
use kalah_io::LineReader;

use super::{Asked, Player, PlayerError};
use crate::protocol::{go_line, parse_bestmove, rules_line, Go};

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
    /// Thinks on the opponent's time ([`ProtocolPlayer::pondering`]).
    ponder: bool,
    /// The `position` line of the `go ponder` running (the expected reply played).
    pondering: Option<String>,
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
            ponder: false,
            pondering: None,
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

    /// The same player, thinking on the opponent's time when `ponder`: after each of its
    /// moves it is sent the position with the reply its line expects and `go ponder`, and
    /// at the opponent's move `ponderhit` (that reply was played) or `stop`.
    pub fn pondering(mut self, ponder: bool) -> ProtocolPlayer {
        self.ponder = ponder;
        self
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
        asked: &Asked,
        pos: &Position,
    ) -> Result<String, PlayerError> {
        self.best_move(&rules_line(game.rules()), asked, pos.side_to_move())
    }

    fn game_over(&mut self) {
        let _ = self.stop_pondering();
    }
}

/// The `position` line of a game that started at `start` (none: the rules' start) with
/// `moves` played.
fn position_text(start: Option<&str>, moves: &[String]) -> String {
    let mut line = format!("position {}", start.unwrap_or("start"));
    if !moves.is_empty() {
        line.push_str(" moves ");
        line.push_str(&moves.join(" "));
    }
    line
}

impl ProtocolPlayer {
    /// The program's move as `side` in the game of `rules` (its `rules` line, sent when
    /// it changes) reached as `asked` says, on its clock where there is one.
    pub fn best_move(
        &mut self,
        rules: &str,
        asked: &Asked,
        side: Side,
    ) -> Result<String, PlayerError> {
        let position = position_text(asked.start, asked.moves);
        let go = Go {
            clock: asked.clock,
            ..self.go
        };
        let began = Instant::now();
        if self.pondering.as_deref() == Some(position.as_str()) {
            // The opponent played the reply pondered on: the search goes on, on the clock.
            self.pondering = None;
            self.send("ponderhit")?;
        } else {
            self.stop_pondering()?;
            if self.rules.as_deref() != Some(rules) {
                self.send(rules)?;
                self.rules = Some(rules.to_string());
            }
            self.send(&position)?;
            self.send(&go_line(&go))?;
        }
        let mut pv: Vec<String> = Vec::new();
        let line = self.await_line("bestmove", |l| {
            if let Some((_, line)) = l.split_once(" pv ").filter(|_| l.starts_with("info ")) {
                pv = line.split_whitespace().map(str::to_string).collect();
            }
            parse_bestmove(l).is_some()
        })?;
        let Some(Some(turn)) = parse_bestmove(&line) else {
            return Err(PlayerError::Protocol(
                "the engine answered bestmove none in a game not over".into(),
            ));
        };
        // Ponder on the reply the line expects, the clock as it will stand.
        if let Some(reply) = pv.get(1).filter(|_| self.ponder && pv[0] == turn) {
            let mut moves = asked.moves.to_vec();
            moves.extend([turn.clone(), reply.clone()]);
            let position = position_text(asked.start, &moves);
            let clock = asked.clock.map(|mut c| {
                let used = began.elapsed();
                let (left, inc) = c.of(side);
                let left = left.map(|l| l.saturating_sub(used) + inc);
                match side {
                    Side::South => c.south = left,
                    Side::North => c.north = left,
                }
                c
            });
            let go = Go {
                clock,
                ponder: true,
                ..self.go
            };
            self.send(&position)?;
            self.send(&go_line(&go))?;
            self.pondering = Some(position);
        }
        Ok(turn)
    }

    /// Stops a `go ponder` that runs, if any, and reads its `bestmove` (not played).
    fn stop_pondering(&mut self) -> Result<(), PlayerError> {
        if self.pondering.take().is_some() {
            self.send("stop")?;
            self.await_line("bestmove", |l| parse_bestmove(l).is_some())?;
        }
        Ok(())
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
