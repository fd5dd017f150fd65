//! `kalah engine` driven through a pipe as a GUI would: the handshake, a full session
//! whose exact answers equal `kalah solve`'s, the error lines a bad line gets (the session
//! goes on), `stop` ending a `go` with its `bestmove`, and the end of the input (the
//! replies still flow after it; SIGTERM stops a `go` with its `bestmove`).

use crate::support::cli;

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::Duration;

use cli::json;
use kalah_core::{notation, Game, Rules};

/// The longest wait for a reply: a guard against a hang, not a timing.
const PATIENCE: Duration = Duration::from_secs(120);

/// A running `kalah engine` with its input and the lines it wrote.
struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl Engine {
    fn start(extra: &[&str]) -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_kalah"))
            .env_remove("KALAH_EGDB_PATH")
            .env("KALAH_CACHE", "off")
            .args(["engine", "--threads", "1", "--hash-mb", "16", "--quiet"])
            .args(extra)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the kalah binary runs");
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().unwrap();
        let (send, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                if send.send(line.unwrap()).is_err() {
                    return;
                }
            }
        });
        Engine {
            child,
            stdin,
            lines,
        }
    }

    fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("input open");
        writeln!(stdin, "{line}").unwrap();
        stdin.flush().unwrap();
    }

    /// The next line.
    fn next(&self) -> String {
        self.lines
            .recv_timeout(PATIENCE)
            .expect("the engine answers")
    }

    /// Every line up to and including the first that `last` accepts.
    fn until(&self, last: impl Fn(&str) -> bool) -> Vec<String> {
        let mut seen = Vec::new();
        loop {
            let line = self.next();
            let done = last(&line);
            seen.push(line);
            if done {
                return seen;
            }
        }
    }

    /// The lines of one `go`, up to its `bestmove`.
    fn go(&mut self, line: &str) -> Vec<String> {
        self.send(line);
        self.until(|l| l.starts_with("bestmove"))
    }

    /// Closes the input and waits for the engine to exit; its last lines.
    fn close(mut self) -> (bool, Vec<String>) {
        drop(self.stdin.take());
        let status = self.child.wait().unwrap();
        // The reader thread ends with the engine's output.
        (status.success(), self.lines.iter().collect())
    }
}

/// The value of a word in an `info` line (`eval`, `lower`, ...).
fn field<'a>(info: &'a str, name: &str) -> &'a str {
    let words: Vec<&str> = info.split_whitespace().collect();
    let k = words
        .iter()
        .position(|w| *w == name)
        .unwrap_or_else(|| panic!("no {name} in {info}"));
    words[k + 1]
}

/// The turns of an `info` line's `pv`.
fn pv(info: &str) -> Vec<&str> {
    let words: Vec<&str> = info.split_whitespace().collect();
    let k = words.iter().position(|w| *w == "pv").unwrap();
    words[k + 1..].to_vec()
}

#[test]
fn hello_names_the_engine_its_protocol_and_options() {
    let mut e = Engine::start(&[]);
    e.send("hello");
    let lines = e.until(|l| l == "hellook");
    assert!(lines[0].starts_with("id name kalah "), "{lines:?}");
    assert!(lines.contains(&"protocol 1".to_string()), "{lines:?}");
    assert!(
        lines.contains(&"option evaluation default".to_string()),
        "{lines:?}"
    );
    e.send("isready");
    assert_eq!(e.next(), "readyok");
    e.send("quit");
    let (ok, rest) = e.close();
    assert!(ok && rest.is_empty(), "{rest:?}");
}

#[test]
fn a_full_session_answers_exactly_as_solve_does() {
    let mut e = Engine::start(&[]);
    e.send("rules --houses 4 --seeds 3");
    for moves in ["", "1", "1 7", "4 8"] {
        let position = if moves.is_empty() {
            "position start".to_string()
        } else {
            format!("position start moves {moves}")
        };
        e.send(&position);
        let lines = e.go("go");
        let info = lines[lines.len() - 2].as_str();
        assert!(info.starts_with("info depth "), "{lines:?}");
        assert_eq!(field(info, "exact"), "yes", "{info}");
        let mut args = vec![
            "solve", "--houses", "4", "--seeds", "3", "--json", "--quiet",
        ];
        if !moves.is_empty() {
            args.extend(["--moves", moves]);
        }
        let solved = json(&args);
        let mover: i32 = field(info, "eval").parse().unwrap();
        assert_eq!(
            mover,
            solved["value_for_mover"].as_i64().unwrap() as i32,
            "{moves}"
        );
        assert_eq!(field(info, "lower"), field(info, "upper"));
        // The line replays from the position to the value it claims.
        let game = Game::new(Rules::kalah(4, 3)).unwrap();
        let (pos, _) = notation::play_moves(&game, game.start(), moves).unwrap();
        let (end, _) = notation::play_moves(&game, pos, &pv(info).join(" ")).unwrap();
        assert!(end.is_over());
        assert_eq!(end.score() * pos.side_to_move().sign(), mover, "{info}");
        assert_eq!(
            lines.last().unwrap(),
            &format!("bestmove {}", pv(info)[0]),
            "{lines:?}"
        );
        // Every report before the last one is an info line, depth first.
        assert!(lines[..lines.len() - 1]
            .iter()
            .all(|l| l.starts_with("info depth ")));
    }
    e.send("quit");
    assert!(e.close().0);
}

#[test]
fn multi_lists_every_turn_with_its_proven_interval() {
    let mut e = Engine::start(&[]);
    e.send("rules Kalah(3,2) capture=standard end=row-empty leftovers=owner");
    let lines = e.go("go depth 2 multi 0");
    let turns: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info turn "))
        .collect();
    assert!(!turns.is_empty(), "{lines:?}");
    for t in &turns {
        let (lo, hi, eval): (i32, i32, i32) = (
            field(t, "lower").parse().unwrap(),
            field(t, "upper").parse().unwrap(),
            field(t, "eval").parse().unwrap(),
        );
        assert!(lo <= eval && eval <= hi, "{t}");
    }
    assert!(turns.iter().any(|t| t.starts_with("info turn 1 move ")));
}

#[test]
fn bad_lines_get_an_error_and_the_session_goes_on() {
    let mut e = Engine::start(&[]);
    for (line, says) in [
        ("fly away", "unknown command `fly`"),
        ("go time -1", "go: time"),
        ("go nodes 0", "go: nodes"),
        ("go depth 500", "go: depth"),
        ("rules --seeds", "needs a value"),
        // The ranges are the library's (the engine once said 1 to 255 houses).
        ("rules --houses 0", "--houses takes a number from 1 to 8,"),
        ("rules --houses 9", "from 1 to 8"),
        (
            "rules --seeds 0",
            "from 1 to 127 (at most 255 seeds on the board)",
        ),
        ("rules bao --houses 2", "3 to 8 pits a row"),
        ("rules --rules chess", "chess"),
        ("position", "needs `start`"),
        ("position start moves 9", "moves: "),
        ("position 1,1,1,1,0,1,1,1,x,0:S", "--position"),
    ] {
        e.send(line);
        let reply = e.next();
        assert!(
            reply.starts_with("error ") && reply.contains(says),
            "{line}: {reply}"
        );
    }
    // A board of other rules: four houses where the rules say three.
    e.send("rules Kalah(3,2) capture=standard end=row-empty leftovers=owner");
    e.send("position 1,1,1,1,0,1,1,1,1,0:S");
    let reply = e.next();
    assert!(
        reply.starts_with("error position: ") && reply.contains("houses"),
        "{reply}"
    );
    e.send("position 9,9,9,0,1,1,1,0:S");
    assert!(e.next().contains("seeds"));
    // A move from an empty house, named by its bin.
    e.send("position 0,1,1,0,1,1,1,0:S moves 1");
    assert!(e.next().contains("bin 1"));
    // Still answering, on the last good position (the start).
    e.send("isready");
    assert_eq!(e.next(), "readyok");
    let lines = e.go("go depth 1");
    assert!(lines.last().unwrap().starts_with("bestmove "), "{lines:?}");
}

#[test]
fn stop_ends_a_go_with_its_bestmove_and_a_go_during_a_go_is_refused() {
    let mut e = Engine::start(&[]);
    e.send("rules --houses 6 --seeds 6");
    e.send("go");
    // The first report comes before any search.
    assert!(e.next().starts_with("info depth 0 "));
    e.send("go depth 3");
    e.send("position start moves 1");
    e.send("isready");
    let lines = e.until(|l| l == "readyok");
    let errors: Vec<&String> = lines.iter().filter(|l| l.starts_with("error ")).collect();
    assert_eq!(errors.len(), 2, "{lines:?}");
    assert!(
        errors.iter().all(|l| l.contains("a go is running")),
        "{errors:?}"
    );
    e.send("stop");
    let lines = e.until(|l| l.starts_with("bestmove"));
    let best = lines.last().unwrap();
    let game = Game::new(Rules::kalah(6, 6)).unwrap();
    let turn = best.strip_prefix("bestmove ").unwrap();
    assert!(
        notation::play_moves(&game, game.start(), turn).is_ok(),
        "{best}"
    );
    // Not exact: the (6,6) start is far beyond a moment's proof.
    let info = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .unwrap();
    assert_eq!(field(info, "exact"), "no", "{info}");
    // A new go is taken once the last one answered.
    e.send("stop");
    let lines = e.go("go depth 2");
    assert!(lines.last().unwrap().starts_with("bestmove "));
    e.send("quit");
    assert!(e.close().0);
}

#[test]
fn the_end_of_the_input_waits_for_the_go_to_answer() {
    let mut e = Engine::start(&[]);
    e.send("rules --houses 3 --seeds 3");
    e.send("go depth 4");
    let (ok, mut lines) = e.close();
    assert!(ok);
    let last = lines.pop().expect("an answer before the end");
    assert!(last.starts_with("bestmove "), "{last}");
}

/// Sends `signal` (`-TERM`, `-INT`) to the engine.
fn signal(e: &Engine, signal: &str) {
    let sent = Command::new("kill")
        .args([signal, &e.child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
}

#[test]
fn replies_flow_after_the_end_of_the_input_and_sigterm_answers_the_bestmove() {
    // A go that runs to its exact value (far off on Kalah(6,6)), and one of ten minutes.
    for go in ["go", "go time 600"] {
        // Without the opening book, which would answer the timed go at once.
        let mut e = Engine::start(&["--no-book"]);
        e.send("rules --houses 6 --seeds 6");
        e.send(go);
        drop(e.stdin.take());
        // Each report goes out as it is made, the input ended or not (the engine once
        // held them all back until the go ended: here never, or after ten minutes).
        assert!(e.next().starts_with("info depth 0 "), "{go}");
        assert!(e.next().starts_with("info "), "{go}");
        // SIGTERM stops the go: its last report, its bestmove, then the engine ends
        // (status 2, an interrupted run), nothing said lost.
        signal(&e, "-TERM");
        let lines = e.until(|l| l.starts_with("bestmove"));
        let turn = lines.last().unwrap().strip_prefix("bestmove ").unwrap();
        let game = Game::new(Rules::kalah(6, 6)).unwrap();
        assert!(
            notation::play_moves(&game, game.start(), turn).is_ok(),
            "{go}: {lines:?}"
        );
        let status = e.child.wait().unwrap();
        assert_eq!(status.code(), Some(2), "{go}: {status:?}");
    }
}

#[test]
fn a_line_too_long_is_answered_and_ends_the_session_with_status_2() {
    let mut e = Engine::start(&[]);
    e.send("isready");
    assert_eq!(e.next(), "readyok");
    // Two MiB without a line break, then a command the engine never reads: it stops
    // reading at the limit and exits, so the rest of this write may find the pipe closed.
    let mut stdin = e.stdin.take().unwrap();
    let mut long = vec![b'x'; 2 << 20];
    long.extend_from_slice(b"\nisready\n");
    let _ = stdin.write_all(&long);
    drop(stdin);
    let status = e.child.wait().unwrap();
    let rest: Vec<String> = e.lines.iter().collect();
    assert_eq!(rest.len(), 1, "{rest:?}");
    assert!(
        rest[0].starts_with("error line 2 is longer than 1048576 bytes, the most a protocol line"),
        "{rest:?}"
    );
    // Not in the words of the batch files, and not a clean end.
    assert!(!rest[0].contains("work units"), "{rest:?}");
    assert_eq!(status.code(), Some(2), "{status:?}");
}

#[test]
fn a_command_sent_right_after_bestmove_is_taken() {
    let mut e = Engine::start(&[]);
    e.send("rules --houses 3 --seeds 2");
    for _ in 0..30 {
        e.send("position start");
        let lines = e.go("go depth 1");
        assert!(lines.iter().all(|l| !l.starts_with("error ")), "{lines:?}");
    }
}

#[test]
fn bao_is_played_through_the_protocol_in_its_own_notation() {
    use kalah_core::bao::BaoRules;
    let mut e = Engine::start(&[]);
    e.send("rules bao --houses 4 --seeds 2");
    let lines = e.go("go depth 3 multi 0");
    let start = BaoRules::new(4, 2).unwrap().start();
    let legal: Vec<String> = start.legal().moves().map(|m| m.to_string()).collect();
    let infos: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .collect();
    assert!(!infos.is_empty(), "{lines:?}");
    for info in &infos {
        assert!(
            ["none", "win", "loss"].contains(&field(info, "proven")),
            "{info}"
        );
        assert!(field(info, "eval").parse::<i32>().is_ok(), "{info}");
    }
    // Every root move listed (multi 0), and the best one is South's and legal.
    let turns = lines.iter().filter(|l| l.starts_with("info turn")).count();
    assert!(turns >= legal.len(), "{lines:?}");
    let best = lines
        .last()
        .unwrap()
        .strip_prefix("bestmove ")
        .unwrap()
        .to_string();
    assert!(legal.contains(&best), "{best} not in {legal:?}");
    // After it, North (lower-case rows) is to move.
    let after = start.try_play(start.parse_move(&best).unwrap()).unwrap().0;
    e.send(&format!("position start moves {best}"));
    let reply = e.go("go depth 2");
    let north = reply.last().unwrap().strip_prefix("bestmove ").unwrap();
    if after.is_over() || after.legal().is_empty() {
        assert_eq!(north, "none", "{reply:?}");
    } else {
        assert!(
            after.parse_move(north).is_ok(),
            "{north} is not North's: {reply:?}"
        );
    }
    // A board of four rows is taken; options, boards and moves of other rules are not.
    e.send(&format!("position {after}"));
    e.send("isready");
    assert_eq!(e.next(), "readyok");
    for bad in [
        "rules bao --capture empty",
        "position 4,4,4,4,4,4,0,4,4,4,4,4,4,0:S",
        "position start moves 3",
        "position start moves a1+",
    ] {
        e.send(bad);
        let line = e.next();
        assert!(line.starts_with("error "), "{bad}: {line}");
    }
    // Back to Kalah: its turns again.
    e.send("rules --houses 3 --seeds 2");
    let kalah = e.go("go depth 2");
    let turn = kalah.last().unwrap().strip_prefix("bestmove ").unwrap();
    let game = Game::new(Rules::kalah(3, 2)).unwrap();
    assert!(
        notation::play_moves(&game, game.start(), turn).is_ok(),
        "{kalah:?}"
    );
    let (ok, _) = e.close();
    assert!(ok);
}
