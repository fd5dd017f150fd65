//! A session of the engine protocol (`kalah engine`, `docs/engine.md`): it reads one
//! command line at a time, keeps the rules and the position, runs each `go` as an
//! anytime analysis on a thread of its own and writes its `info` lines and `bestmove`,
//! so that programs can drive the engine and play against it, in the spirit of UCI.
//! [`driver`] feeds a session its input lines until it ends.

pub mod bao;
pub mod driver;
pub mod launch;
pub mod solvers;

use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use kalah_core::{notation, Game, Position};
use kalah_solver::{line, Limits, MoveTimer, Solver, TimePlan};

pub use crate::protocol::{parse, Command, Go, ProtocolError, RulesSpec};

use crate::book::Book;
use crate::game::setup::{self, move_message, RuleOptions, SetupError};
use crate::game::Board;
use crate::protocol;
use crate::protocol::clock;

/// The protocol version `hello` announces; raised whenever a line changes meaning.
pub const PROTOCOL_VERSION: u32 = 1;

/// Where the session writes: shared with the thread of a running `go`, one whole line
/// at a time.
pub type Out = Arc<Mutex<dyn Write + Send>>;

/// Makes the solver of a game (the engine's settings: threads, table, evaluation).
pub type SolverFactory = Box<dyn FnMut(&Game) -> Result<Solver, String> + Send>;

/// Finds the opening book of a game's rules (`None`: none), consulted by `go`
/// ([`Session::with_books`]).
pub type BookFactory = Box<dyn FnMut(&kalah_core::Rules) -> Option<Arc<Book>> + Send>;

/// What the caller does after a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Read the next line.
    Continue,
    /// `quit`: end the session.
    Quit,
}

/// The `go` in progress.
struct Running {
    cancel: Arc<AtomicBool>,
    /// Raised just before its `bestmove` is written: a driver that has read the
    /// `bestmove` may send its next command at once.
    answered: Arc<AtomicBool>,
    handle: JoinHandle<()>,
    /// A `go ponder` not yet hit.
    ponder: Option<Pondering>,
}

/// How a `go` is timed: its limits (the clock's hard limit among them), the move's timer
/// where the time manager applies, and what `ponderhit` starts.
struct Timing {
    limits: Limits,
    timer: Option<Arc<MoveTimer>>,
    ponder: Option<Pondering>,
}

/// A `go ponder` waiting for `ponderhit`: its `bestmove` is held until then (or `stop`).
struct Pondering {
    /// Raised while the `bestmove` must wait.
    hold: Arc<AtomicBool>,
    /// The move's plan from the clock (none: `ponderhit` only lets the search answer).
    plan: Option<TimePlan>,
    /// The timer the plan starts (none where the search takes no time manager).
    timer: Option<Arc<MoveTimer>>,
}

/// The longest a `go ponder` searches before `ponderhit` or `stop` (its time limit: an
/// analysis with a limit deepens as a player's does, not as a solve).
const PONDER_LIMIT: Duration = Duration::from_secs(1_000_000);

/// One protocol session: the rules, the board, the solver and the running `go`.
pub struct Session {
    spec: RulesSpec,
    /// The game and the position the next `go` analyses: a sowing game's, or Bao's with
    /// its rules.
    board: Board,
    /// The solver of a sowing game's rules (none under Bao's: each `go` makes its own
    /// search).
    solver: Option<Arc<Solver>>,
    make_solver: SolverFactory,
    out: Out,
    about: Vec<(String, String)>,
    running: Option<Running>,
    /// Finds the opening book of the rules (none: no book is consulted).
    books: Option<BookFactory>,
    /// The book of the current rules, once looked for.
    book: Option<(kalah_core::Rules, Option<Arc<Book>>)>,
}

/// Writes one line to `out` and flushes it.
pub fn say(out: &Out, line: &str) -> io::Result<()> {
    let mut out = out.lock().unwrap_or_else(|e| e.into_inner());
    writeln!(out, "{line}")?;
    out.flush()
}

impl Session {
    /// A session on Kalah(6,4) from its start; `about` is the `id`/`option` pairs
    /// `hello` lists (name first), `make_solver` makes a solver whenever the game changes.
    pub fn new(make_solver: SolverFactory, out: Out, about: Vec<(String, String)>) -> Session {
        let (game, pos) = setup::setup(&RuleOptions::default(), None, None)
            .expect("the default rules make a game");
        Session {
            spec: RulesSpec::Options(RuleOptions::default()),
            board: Board::Sowing(std::sync::Arc::new(game), pos),
            solver: None,
            make_solver,
            out,
            about,
            running: None,
            books: None,
            book: None,
        }
    }

    /// The same session, answering a `go` with limits and one line (`multi 1`) at once
    /// from the opening book that `books` finds for the rules where it holds the position
    /// (an `info book` line, then `bestmove`).
    pub fn with_books(mut self, books: BookFactory) -> Session {
        self.books = Some(books);
        self
    }

    /// The book's entry for the position, where a book of the rules holds it (never under
    /// Bao's rules).
    fn book_entry(&mut self) -> Option<crate::book::Entry> {
        let Board::Sowing(game, pos) = &self.board else {
            return None;
        };
        let books = self.books.as_mut()?;
        let rules = *game.rules();
        if self.book.as_ref().is_none_or(|(r, _)| *r != rules) {
            self.book = Some((rules, books(&rules)));
        }
        let (_, book) = self.book.as_ref()?;
        book.as_ref()?.lookup(pos).cloned()
    }

    /// The game and the position the next `go` analyses.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Handles one input line: a command's replies, or `error <reason>` for a line that
    /// cannot be read or carried out (the session goes on). Errors are only those of
    /// writing the output.
    pub fn handle_line(&mut self, line: &str) -> io::Result<Flow> {
        match parse(line).and_then(|c| c.map_or(Ok(Flow::Continue), |c| self.execute(c))) {
            Ok(flow) => Ok(flow),
            Err(e) => say(&self.out, &format!("error {e}")).map(|()| Flow::Continue),
        }
    }

    /// Whether a `go` still runs; one that has answered is collected first, so that
    /// `false` means its `bestmove` has been written. A caller waiting for the `go` to end
    /// by itself (the end of the input) asks this between its other duties (a signal to
    /// heed) rather than blocking in [`Session::finish`].
    pub fn is_running(&mut self) -> bool {
        self.busy()
    }

    /// Waits for the running `go` to finish by itself.
    pub fn finish(&mut self) {
        if let Some(r) = self.running.take() {
            let _ = r.handle.join();
        }
    }

    /// Stops the running `go`, if any, and waits for its `bestmove`.
    pub fn stop(&mut self) {
        if let Some(r) = self.running.take() {
            r.cancel.store(true, Relaxed);
            let _ = r.handle.join();
        }
    }

    /// True while a `go` runs (one that has answered is collected: its thread has only
    /// the `bestmove` line left to write).
    fn busy(&mut self) -> bool {
        match &self.running {
            Some(r) if r.answered.load(Relaxed) || r.handle.is_finished() => {
                self.finish();
                false
            }
            Some(_) => true,
            None => false,
        }
    }

    /// Carries out one command.
    fn execute(&mut self, c: Command) -> Result<Flow, ProtocolError> {
        let io = |e: io::Error| ProtocolError(format!("output: {e}"));
        match c {
            Command::Hello => self.hello().map_err(io)?,
            Command::IsReady => {
                // Ready means set up: the next go's time goes to the search.
                if !self.busy() {
                    self.ensure_solver()?;
                }
                say(&self.out, "readyok").map_err(io)?
            }
            Command::Stop => self.stop(),
            Command::PonderHit => self.ponder_hit()?,
            Command::Quit => {
                self.stop();
                return Ok(Flow::Quit);
            }
            c if self.busy() => {
                return Err(ProtocolError(format!(
                    "a go is running: `{}` must wait for its bestmove (or send stop)",
                    name(&c)
                )))
            }
            Command::NewGame => {
                self.solver = None;
                self.ensure_solver()?;
            }
            Command::Rules(spec) => {
                self.set_rules(spec)?;
                self.ensure_solver()?;
            }
            Command::Position { board, moves } => self.set_position(board.as_deref(), &moves)?,
            Command::Go(go) => self.go(go)?,
        }
        Ok(Flow::Continue)
    }

    /// The `hello` replies: `id` lines, the protocol version, the options, `hellook`.
    fn hello(&self) -> io::Result<()> {
        for (k, (key, value)) in self.about.iter().enumerate() {
            let kind = if k == 0 { "id" } else { "option" };
            say(&self.out, &format!("{kind} {key} {value}"))?;
        }
        say(&self.out, &format!("protocol {PROTOCOL_VERSION}"))?;
        say(&self.out, "hellook")
    }

    /// `rules`: the new game from its start.
    fn set_rules(&mut self, spec: RulesSpec) -> Result<(), ProtocolError> {
        self.set_board(&spec, None, &[])?;
        self.spec = spec;
        Ok(())
    }

    /// `position`: the board (else the start) under the current rules, moves played.
    fn set_position(&mut self, board: Option<&str>, moves: &[String]) -> Result<(), ProtocolError> {
        let spec = self.spec.clone();
        self.set_board(&spec, board, moves)
    }

    /// Takes the board of `board` (else the start) with `moves` played under `spec`,
    /// dropping the solver when the sowing game's rules changed.
    fn set_board(
        &mut self,
        spec: &RulesSpec,
        board: Option<&str>,
        moves: &[String],
    ) -> Result<(), ProtocolError> {
        let next = match spec {
            RulesSpec::Bao(rules) => Board::Bao(*rules, bao::setup_position(rules, board, moves)?),
            spec => {
                let (game, pos) = setup_position(spec, board, moves)?;
                Board::Sowing(std::sync::Arc::new(game), pos)
            }
        };
        // A solver is kept for its rules: across Bao's too, for a return to them.
        if let (Board::Sowing(game, _), Some(solver)) = (&next, &self.solver) {
            if solver.game().rules() != game.rules() {
                self.solver = None;
            }
        }
        self.board = next;
        Ok(())
    }

    /// `ponderhit`: the `go ponder` running goes on, on the clock: its plan starts now,
    /// and its `bestmove` is let through.
    fn ponder_hit(&mut self) -> Result<(), ProtocolError> {
        let running = match self.busy() {
            true => self.running.as_mut(),
            false => None,
        };
        let Some(r) = running else {
            return Err(ProtocolError("ponderhit: no go ponder is running".into()));
        };
        let Some(p) = r.ponder.take() else {
            return Err(ProtocolError(
                "ponderhit: the go running is not a go ponder".into(),
            ));
        };
        if let Some(plan) = p.plan {
            // The search's own limit is the ponder's: the hard limit (the soft one where
            // no time manager applies) is the cancel at that instant.
            let cut = match &p.timer {
                Some(t) => {
                    t.start(plan);
                    plan.hard
                }
                None => plan.soft,
            };
            watchdog(Instant::now() + cut, r.cancel.clone(), r.answered.clone());
        }
        p.hold.store(false, Relaxed);
        Ok(())
    }

    /// How `go` is timed on the board: its clock's plan for the mover (the hard limit
    /// as its time limit, or for a `go ponder` held until `ponderhit`); the timer where
    /// the sowing games' search takes the time manager (the cyclic families and Bao take
    /// the soft limit as their time limit).
    fn timing(&self, go: &Go) -> Result<Timing, ProtocolError> {
        let (side, managed) = match &self.board {
            Board::Sowing(game, pos) => (pos.side_to_move(), !game.rules().family.is_cyclic()),
            Board::Bao(_, pos) => (pos.side(), false),
        };
        let mut limits = go.limits;
        let plan = match go.clock {
            Some(c) => Some(
                c.plan(side, clock::board_moves_left(&self.board))
                    .ok_or_else(|| {
                        let word = match side {
                            kalah_core::Side::South => "stime",
                            kalah_core::Side::North => "ntime",
                        };
                        ProtocolError(format!(
                            "go: the clock gives no time to the side to move ({word} MS)"
                        ))
                    })?,
            ),
            None if go.ponder => go.limits.time.map(|t| TimePlan { soft: t, hard: t }),
            None => None,
        };
        let timer = (managed && plan.is_some()).then(|| Arc::new(MoveTimer::new()));
        if go.ponder {
            limits.time = Some(PONDER_LIMIT);
            let ponder = Pondering {
                hold: Arc::new(AtomicBool::new(true)),
                plan,
                timer: timer.clone(),
            };
            return Ok(Timing {
                limits,
                timer,
                ponder: Some(ponder),
            });
        }
        if let Some(plan) = plan {
            let cut = if managed { plan.hard } else { plan.soft };
            limits.time = Some(limits.time.map_or(cut, |t| t.min(cut)));
            if let Some(t) = &timer {
                t.start(plan);
            }
        }
        Ok(Timing {
            limits,
            timer,
            ponder: None,
        })
    }

    /// `go`: the analysis of the position on a thread of its own.
    fn go(&mut self, go: Go) -> Result<(), ProtocolError> {
        let Timing {
            limits,
            timer,
            ponder,
        } = self.timing(&go)?;
        let go = Go { limits, ..go };
        let (pos, houses) = match &self.board {
            Board::Bao(_, pos) => {
                let pos = *pos;
                return self.spawn(ponder, move |flag, out| bao::run_go(&pos, &go, flag, out));
            }
            Board::Sowing(game, pos) => (*pos, game.houses()),
        };
        // A go with limits and one line is a move to play: the book answers it at once.
        // A go without limits asks for the exact value, `multi` for every turn's: searched.
        if go.multi == 1 && !go.limits.is_unbounded() {
            if let Some(entry) = self.book_entry() {
                return self.spawn(ponder, move |_, out| {
                    say(out, &entry.info_line(houses))?;
                    Ok(format!("bestmove {}", entry.best_turn.notation(houses)))
                });
            }
        }
        let Some(solver) = self.ensure_solver()? else {
            return Err(ProtocolError("no solver for these rules".into()));
        };
        self.spawn(ponder, move |flag, out| {
            run_go(&solver, &pos, &go, timer.as_deref(), flag, out)
        })
    }

    /// The solver of the current rules of a sowing game, made and set up
    /// ([`Solver::warm_up`]) if there is none yet: at `rules`, `newgame` and `isready`, so
    /// that a `go`'s time goes to its search; `None` under Bao's rules (each `go` makes its
    /// own search).
    fn ensure_solver(&mut self) -> Result<Option<Arc<Solver>>, ProtocolError> {
        let Board::Sowing(game, _) = &self.board else {
            return Ok(None);
        };
        if let Some(s) = &self.solver {
            return Ok(Some(s.clone()));
        }
        let s = Arc::new((self.make_solver)(game).map_err(ProtocolError)?);
        s.warm_up();
        self.solver = Some(s.clone());
        Ok(Some(s))
    }

    /// Runs the analysis `run` on a thread of its own: it writes its `info` lines and
    /// returns the `bestmove` line, written once it has answered (for a `go ponder`, once
    /// `ponderhit` or `stop` has come as well).
    fn spawn<F>(&mut self, ponder: Option<Pondering>, run: F) -> Result<(), ProtocolError>
    where
        F: FnOnce(&AtomicBool, &Out) -> io::Result<String> + Send + 'static,
    {
        let cancel = Arc::new(AtomicBool::new(false));
        let answered = Arc::new(AtomicBool::new(false));
        let (flag, done, out) = (cancel.clone(), answered.clone(), self.out.clone());
        let hold = ponder.as_ref().map(|p| p.hold.clone());
        let handle = std::thread::Builder::new()
            .name("kalah-engine-go".into())
            .spawn(move || {
                // A reader gone away ends the session's output; nothing more to tell it.
                let best = run(&flag, &out).unwrap_or_else(|_| "bestmove none".to_string());
                // A ponder search that ended by itself answers only after ponderhit or stop.
                while hold.as_ref().is_some_and(|h| h.load(Relaxed)) && !flag.load(Relaxed) {
                    std::thread::sleep(Duration::from_millis(1));
                }
                done.store(true, Relaxed);
                let _ = say(&out, &best);
            })
            .map_err(|e| ProtocolError(format!("could not start the analysis thread: {e}")))?;
        self.running = Some(Running {
            cancel,
            answered,
            handle,
            ponder,
        });
        Ok(())
    }
}

/// The command's word, for an error message.
fn name(c: &Command) -> &'static str {
    match c {
        Command::Hello => "hello",
        Command::IsReady => "isready",
        Command::NewGame => "newgame",
        Command::Rules(_) => "rules",
        Command::Position { .. } => "position",
        Command::Go(_) => "go",
        Command::Stop => "stop",
        Command::PonderHit => "ponderhit",
        Command::Quit => "quit",
    }
}

/// Raises `cancel` at `deadline` unless the `go` has answered before (`answered`): the
/// hard limit of a move whose time started at `ponderhit`.
fn watchdog(deadline: Instant, cancel: Arc<AtomicBool>, answered: Arc<AtomicBool>) {
    std::thread::spawn(move || loop {
        if answered.load(Relaxed) {
            return;
        }
        let now = Instant::now();
        if now >= deadline {
            cancel.store(true, Relaxed);
            return;
        }
        std::thread::sleep((deadline - now).min(Duration::from_millis(1)));
    });
}

/// One `go`: an `info` line per report (and `info turn` lines for `multi`), the final
/// report; returns the `bestmove` line to write. An exact value is claimed only with a
/// line that replays to it; an analysis that fails says `error` and answers `bestmove
/// none`.
fn run_go(
    solver: &Solver,
    pos: &Position,
    go: &Go,
    timer: Option<&MoveTimer>,
    cancel: &AtomicBool,
    out: &Out,
) -> io::Result<String> {
    let game = solver.game();
    let mut failed = None;
    let report = |a: &kalah_solver::Analysis| -> io::Result<()> {
        say(out, &protocol::info_line(game, a))?;
        let shown = if go.multi == 0 {
            a.turns.len()
        } else {
            go.multi.min(a.turns.len())
        };
        if go.multi != 1 {
            for (k, t) in a.turns[..shown].iter().enumerate() {
                say(out, &protocol::turn_line(game, k + 1, t))?;
            }
        }
        Ok(())
    };
    // The turns shown are the ones evaluated in full (`multi 0`: every one).
    let lines = if go.multi == 0 { usize::MAX } else { go.multi };
    let result = solver.analyse_timed(pos, &go.limits, lines, timer, cancel, &mut |a| {
        if failed.is_none() {
            failed = report(a).err();
        }
    });
    if let Some(e) = failed {
        return Err(e);
    }
    match result {
        Ok(a) => {
            if a.is_exact() {
                if let Err(e) = line::replay(game, pos, &a.pv, a.bounds_from_south().0) {
                    // Stopped (by `stop` or a ponder's hard limit) as the value closed:
                    // the line is the table's, not replayed; the best turn stands.
                    if cancel.load(Relaxed) && a.best_turn().is_some() {
                        return Ok(protocol::bestmove_line(game, &a));
                    }
                    say(
                        out,
                        &format!("error the principal variation does not replay from {pos}: {e}"),
                    )?;
                    return Ok("bestmove none".to_string());
                }
            }
            report(&a)?;
            Ok(protocol::bestmove_line(game, &a))
        }
        Err(e) => {
            say(out, &format!("error analysis: {e}"))?;
            Ok("bestmove none".to_string())
        }
    }
}

/// The game and position of `board` (else the start) with `moves` played, under `spec`;
/// a board of other rules is refused with the reason.
pub fn setup_position(
    spec: &RulesSpec,
    board: Option<&str>,
    moves: &[String],
) -> Result<(Game, Position), ProtocolError> {
    let joined = moves.join(" ");
    let moves = (!moves.is_empty()).then_some(joined.as_str());
    match spec {
        RulesSpec::Options(o) => setup::setup(o, board, moves).map_err(setup_error),
        RulesSpec::Exact(rules) => {
            let game = Game::new(*rules).map_err(|e| ProtocolError(format!("rules: {e}")))?;
            let start = match board {
                None => game.start(),
                Some(text) => exact_board(&game, text)?,
            };
            let pos = match moves {
                None => start,
                Some(list) => {
                    notation::play_moves(&game, start, list)
                        .map_err(|e| ProtocolError(format!("moves: {}", move_message(&e))))?
                        .0
                }
            };
            Ok((game, pos))
        }
        RulesSpec::Bao(_) => Err(ProtocolError(
            "the rules are Bao's: its positions are set up by bao::setup_position".into(),
        )),
    }
}

/// A board under exact rules: its houses and seeds must fit them.
fn exact_board(game: &Game, text: &str) -> Result<Position, ProtocolError> {
    let pos: Position = text
        .parse()
        .map_err(|e| ProtocolError(format!("position: {e}")))?;
    let rules = game.rules();
    if pos.houses_per_side() != game.houses() {
        return Err(ProtocolError(format!(
            "position: the board has {} houses per side, the rules {rules} have {}",
            pos.houses_per_side(),
            game.houses()
        )));
    }
    if pos.total_seeds() as usize > game.capacity() {
        return Err(ProtocolError(format!(
            "position: the board holds {} seeds, more than the {} of the rules {rules}",
            pos.total_seeds(),
            game.capacity()
        )));
    }
    game.settle(pos)
        .map_err(|e| ProtocolError(format!("position: {e}")))
}

/// A setup error in the protocol's words (the options are named as on the command line).
fn setup_error(e: SetupError) -> ProtocolError {
    ProtocolError(match e {
        SetupError::Moves(e) => format!("moves: {}", move_message(&e)),
        e => e.to_string(),
    })
}

/// The names of the leaf evaluations an engine can be given (`--evaluation`).
pub const EVALUATION_NAMES: &[&str] = &["default", "fitted", "learned", "store"];

/// A leaf evaluation chosen by name before the rules are known (`--evaluation`); the
/// evaluation itself is made for a game's rules ([`EvaluationChoice::for_rules`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EvaluationChoice {
    /// The analysis's evaluation for the rules ([`kalah_solver::Evaluation::for_analysis`]:
    /// learned on standard Kalah of six houses, the store difference elsewhere).
    Default,
    /// The evaluation fitted to exact values for the rules' family and board
    /// ([`kalah_solver::Evaluation::fitted`]).
    Fitted,
    /// The learned pattern evaluation of Kalah on six houses (either capture rule), the
    /// fitted one elsewhere ([`kalah_solver::Evaluation::learned`]).
    Learned,
    /// The store difference alone.
    Store,
}

impl EvaluationChoice {
    /// The evaluation for a game of `rules`.
    pub fn for_rules(self, rules: &kalah_core::Rules) -> kalah_solver::Evaluation {
        match self {
            EvaluationChoice::Default => kalah_solver::Evaluation::for_analysis(rules),
            EvaluationChoice::Fitted => kalah_solver::Evaluation::fitted(rules),
            EvaluationChoice::Learned => kalah_solver::Evaluation::learned(rules),
            EvaluationChoice::Store => kalah_solver::Evaluation::StoreDifference,
        }
    }

    /// The name, as [`evaluation_named`] reads it.
    pub fn name(self) -> &'static str {
        match self {
            EvaluationChoice::Default => "default",
            EvaluationChoice::Fitted => "fitted",
            EvaluationChoice::Learned => "learned",
            EvaluationChoice::Store => "store",
        }
    }
}

/// The leaf evaluation named `name` (`default`, `fitted`, `learned`, or `store`: the store
/// difference).
pub fn evaluation_named(name: &str) -> Result<EvaluationChoice, String> {
    match name.trim().to_ascii_lowercase().as_str() {
        "default" => Ok(EvaluationChoice::Default),
        "fitted" => Ok(EvaluationChoice::Fitted),
        "learned" => Ok(EvaluationChoice::Learned),
        "store" | "store-difference" => Ok(EvaluationChoice::Store),
        other => Err(format!(
            "unknown evaluation `{other}` (known: {})",
            EVALUATION_NAMES.join(", ")
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicUsize;

    /// A session whose solvers are counted, writing into a buffer.
    fn counted() -> (Session, Arc<AtomicUsize>, Arc<Mutex<Vec<u8>>>) {
        let made = Arc::new(AtomicUsize::new(0));
        let count = made.clone();
        let factory: SolverFactory = Box::new(move |game: &Game| {
            count.fetch_add(1, Relaxed);
            let config = kalah_solver::Config {
                threads: 1,
                hash_mb: 1,
                ..kalah_solver::Config::default()
            };
            Solver::new(game.clone(), config).map_err(|e| e.to_string())
        });
        let buffer = Arc::new(Mutex::new(Vec::new()));
        let out: Out = buffer.clone();
        (Session::new(factory, out, Vec::new()), made, buffer)
    }

    #[test]
    fn the_solver_is_set_up_at_rules_newgame_and_isready_not_inside_a_go() {
        let (mut session, made, out) = counted();
        session.handle_line("isready").unwrap();
        assert_eq!(
            made.load(Relaxed),
            1,
            "isready sets up the solver of the rules"
        );
        session.handle_line("rules --houses 3 --seeds 2").unwrap();
        assert_eq!(made.load(Relaxed), 2, "new rules: their solver at once");
        session.handle_line("position start moves 1").unwrap();
        session.handle_line("isready").unwrap();
        assert_eq!(made.load(Relaxed), 2, "the same rules keep their solver");
        session.handle_line("go depth 2").unwrap();
        session.finish();
        assert_eq!(made.load(Relaxed), 2, "a go finds its solver ready");
        session.handle_line("newgame").unwrap();
        assert_eq!(
            made.load(Relaxed),
            3,
            "a new game: a fresh table, set up at once"
        );
        let text = String::from_utf8(out.lock().unwrap().clone()).unwrap();
        assert_eq!(text.matches("readyok").count(), 2, "{text}");
        assert!(text.contains("bestmove"), "{text}");
    }

    /// The output so far, and clears it.
    fn taken(out: &Arc<Mutex<Vec<u8>>>) -> String {
        let text = String::from_utf8(out.lock().unwrap().clone()).unwrap();
        out.lock().unwrap().clear();
        text
    }

    /// The turn of the last `bestmove` line of `text`, checked legal after `moves` from
    /// the start of Kalah(6,4).
    fn legal_bestmove(text: &str, moves: &[&str]) -> String {
        let line = text.lines().rev().find(|l| l.starts_with("bestmove"));
        let turn = line.and_then(protocol::parse_bestmove).flatten();
        let turn = turn.unwrap_or_else(|| panic!("a bestmove with a turn: {text}"));
        let mut all: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
        all.push(turn.clone());
        let spec = RulesSpec::Options(RuleOptions::default());
        assert!(
            setup_position(&spec, None, &all).is_ok(),
            "{turn} illegal: {text}"
        );
        turn
    }

    #[test]
    fn a_go_on_a_clock_answers_a_legal_bestmove() {
        let (mut session, _, out) = counted();
        session.handle_line("isready").unwrap();
        session.handle_line("position start moves 1").unwrap();
        // North to move, 300 ms left and 50 ms a move; South's time does not matter.
        session
            .handle_line("go stime 1000 ntime 300 sinc 50 ninc 50")
            .unwrap();
        session.finish();
        let text = taken(&out);
        assert!(!text.contains("error"), "{text}");
        legal_bestmove(&text, &["1"]);
        // Moves to go, and a clock almost spent: still a legal answer.
        session.handle_line("position start").unwrap();
        session.handle_line("go stime 15 movestogo 3").unwrap();
        session.finish();
        legal_bestmove(&taken(&out), &[]);
        // A clock without the mover's time is refused.
        session.handle_line("go ntime 1000").unwrap();
        assert!(taken(&out)
            .starts_with("error go: the clock gives no time to the side to move (stime MS)"));
    }

    #[test]
    fn ponder_then_ponderhit_answers_a_legal_bestmove() {
        let (mut session, _, out) = counted();
        session.handle_line("isready").unwrap();
        session.handle_line("position start moves 1 9").unwrap();
        session
            .handle_line("go ponder stime 500 ntime 500 sinc 20 ninc 20")
            .unwrap();
        // While it ponders nothing is answered; other commands wait.
        session.handle_line("isready").unwrap();
        session.handle_line("position start").unwrap();
        session.handle_line("ponderhit").unwrap();
        session.finish();
        let text = taken(&out);
        assert!(text.contains("readyok"), "{text}");
        assert!(text.contains("error a go is running"), "{text}");
        let answers = text.lines().filter(|l| l.starts_with("bestmove"));
        assert_eq!(answers.count(), 1, "{text}");
        legal_bestmove(&text, &["1", "9"]);
        // A second ponderhit has no ponder to hit.
        session.handle_line("ponderhit").unwrap();
        assert!(taken(&out).starts_with("error ponderhit: no go ponder is running"));
    }

    #[test]
    fn ponder_then_stop_then_a_new_position_plays_on() {
        let (mut session, _, out) = counted();
        session.handle_line("isready").unwrap();
        session.handle_line("position start moves 2").unwrap();
        session
            .handle_line("go ponder stime 500 ntime 500")
            .unwrap();
        session.handle_line("stop").unwrap();
        let text = taken(&out);
        let answers = text.lines().filter(|l| l.starts_with("bestmove"));
        assert_eq!(answers.count(), 1, "{text}");
        // The opponent played another move: the normal position and go.
        session.handle_line("position start moves 4").unwrap();
        session.handle_line("go stime 500 ntime 400").unwrap();
        session.finish();
        let text = taken(&out);
        assert!(!text.contains("error"), "{text}");
        legal_bestmove(&text, &["4"]);
        // A ponder search that ends by itself (a depth limit) still waits for ponderhit.
        session.handle_line("position start moves 4 9").unwrap();
        session.handle_line("go ponder depth 2").unwrap();
        std::thread::sleep(Duration::from_millis(50));
        assert!(session.is_running(), "held until ponderhit");
        session.handle_line("ponderhit").unwrap();
        session.finish();
        legal_bestmove(&taken(&out), &["4", "9"]);
    }
}
