//! One game against a human in the terminal, for either kind of game: what the loop
//! needs of a game ([`Session`]: the drawing, the moves the prompt names, a typed move
//! played, the help, the engine's move with the words that say what backs it, how the
//! game ended), its two implementations ([`SowingSession`] and [`BaoSession`]), the
//! game of either kind started from a board with the engine the options ask for
//! ([`Board::play_session`]), and the one loop that asks, echoes and answers ([`run`]).

mod bao;
mod sowing;

use std::fmt;
use std::io::{self, BufRead, Write};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use kalah_core::{Rules, Side};
use kalah_io::LineReader;
use kalah_solver::bao::BaoSolveError;

use super::bao::{engine_time, perfect_engine, BaoEngine, SOLVING_FIRST};
use super::{next_typed_line, typed, Typed};
use crate::book::Book;
use crate::game::Board;
use crate::run::solving::{Solving, SolvingError};
pub use bao::BaoSession;
pub use sowing::{default_time_note, EngineChoice, SowingEngine, SowingSession};

/// What `kalah play` asks of its engine, as a front end parsed it.
#[derive(Clone, Copy, Debug)]
pub struct PlayOptions {
    /// The side the human plays.
    pub human: Side,
    /// The engine's time a move, where one is given.
    pub time: Option<Duration>,
    /// A sowing game's greedy engine rather than the perfect one.
    pub greedy: bool,
    /// What breaks ties between a sowing game's equally good turns.
    pub seed: Option<u64>,
    /// The memory Bao's game graph may take, in MiB.
    pub memory_mb: u64,
}

impl Board {
    /// The game of `kalah play` from this position, its engine as `options` ask: a sowing
    /// game's as [`EngineChoice::of`] chooses it (the line that says so in its greeting),
    /// its solver made by `solving` and the timed engine's book loaded by `book`; Bao's
    /// perfect engine solves the game graph first where the board is small (said on
    /// `out`, `thinking` shown while it runs, stopped by the flag `cancel` gives, asked
    /// for then only; `graph` says why it did not solve).
    #[allow(clippy::too_many_arguments)]
    pub fn play_session<'c, E: From<SolvingError> + From<io::Error>>(
        &self,
        options: &PlayOptions,
        solving: &Solving,
        book: impl FnOnce(&Rules) -> Result<Option<Book>, E>,
        cancel: impl FnOnce() -> &'c AtomicBool,
        thinking: &mut dyn Thinking,
        graph: impl FnOnce(BaoSolveError) -> E,
        out: &mut dyn Write,
    ) -> Result<Box<dyn Session>, E> {
        Ok(match self {
            Board::Sowing(game, pos) => {
                let (time, greedy) = (options.time, options.greedy);
                let (choice, note) = EngineChoice::of(time, greedy, options.seed, game, pos);
                let engine = SowingEngine::of(choice, solving, game, pos, || book(game.rules()))?;
                let game = (**game).clone();
                Box::new(SowingSession::new(game, *pos, options.human, engine, note))
            }
            Board::Bao(_, pos) => {
                let engine = match engine_time(options.time, pos) {
                    Some(limit) => BaoEngine::Timed(limit),
                    None => {
                        writeln!(out, "{SOLVING_FIRST}")?;
                        let cancel = cancel();
                        thinking.start();
                        let mut say = |m: String| thinking.say(&m);
                        let engine = perfect_engine(pos, options.memory_mb, cancel, &mut say);
                        thinking.stop();
                        engine.map_err(graph)?
                    }
                };
                Box::new(BaoSession::new(*pos, options.human, engine))
            }
        })
    }
}

/// What the game loop needs of one kind of game: the game in progress, the side the human
/// plays and the engine that plays the other.
pub trait Session {
    /// The words before the first drawing: who plays what, and how the engine plays.
    fn greeting(&self) -> String;

    /// The position drawn, ending with a newline.
    fn drawing(&self) -> String;

    /// How the game ended, in words; `None` while it goes on.
    fn end_words(&self) -> Option<String>;

    /// The side to move.
    fn mover(&self) -> Side;

    /// The side the human plays.
    fn human(&self) -> Side;

    /// The names of the legal moves, as the prompt lists them.
    fn move_names(&self) -> Vec<String>;

    /// What the prompt accepts, in words.
    fn help(&self) -> String;

    /// Plays the move the human typed; the reason it cannot be played, in words, if it
    /// cannot.
    fn play_typed(&mut self, text: &str) -> Result<(), String>;

    /// Plays the engine's move; `thinking` shows its search as it goes.
    fn engine_move(&mut self, thinking: &mut dyn Thinking) -> Result<EngineMove, SessionError>;
}

/// What a front end shows while the engine thinks (a spinner on a terminal).
pub trait Thinking {
    /// A search starts.
    fn start(&mut self);
    /// The search's latest news.
    fn say(&mut self, message: &str);
    /// The search is over.
    fn stop(&mut self);
}

/// Shows nothing while the engine thinks.
pub struct Silent;

impl Thinking for Silent {
    fn start(&mut self) {}
    fn say(&mut self, _: &str) {}
    fn stop(&mut self) {}
}

/// A move of the engine, played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineMove {
    /// The move in the notation.
    pub notation: String,
    /// What backs it (exact, proven, heuristic), where said.
    pub how: Option<String>,
}

/// Why a game stopped on an error.
#[derive(Debug)]
pub enum SessionError {
    /// Writing the game out failed.
    Write(io::Error),
    /// Reading the typed lines failed (a line too long).
    Read(io::Error),
    /// The engine has no move to give: a bug or a cancelled search, said in words.
    Engine(String),
}

impl fmt::Display for SessionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SessionError::Write(e) => write!(f, "{e}"),
            SessionError::Read(e) => write!(f, "cannot read standard input: {e}"),
            SessionError::Engine(what) => write!(f, "{what}"),
        }
    }
}

impl std::error::Error for SessionError {}

impl From<io::Error> for SessionError {
    fn from(e: io::Error) -> Self {
        SessionError::Write(e)
    }
}

/// Plays the game of `session` to its end, or until the human quits or `input` ends:
/// draws each position on `out`, asks the human for a move (`echo`: the input is not a
/// terminal, so each line read is shown after the prompt) and answers with the engine's.
pub fn run(
    session: &mut dyn Session,
    input: &mut LineReader<impl BufRead>,
    echo: bool,
    out: &mut dyn Write,
    thinking: &mut dyn Thinking,
) -> Result<(), SessionError> {
    write!(out, "{}", session.greeting())?;
    loop {
        write!(out, "{}", session.drawing())?;
        if let Some(words) = session.end_words() {
            writeln!(out, "{words}")?;
            return Ok(());
        }
        let mover = session.mover();
        if mover != session.human() {
            let m = session.engine_move(thinking)?;
            let how = m.how.map_or(String::new(), |how| format!(" ({how})"));
            writeln!(out, "{mover} plays {}{how}\n", m.notation)?;
            continue;
        }
        if !human_move(session, input, echo, out)? {
            return Ok(());
        }
    }
}

/// Asks the human until the input is a playable move and plays it; `false` where the
/// human quits or the input ends (the game is then abandoned, as said on `out`).
fn human_move(
    session: &mut dyn Session,
    input: &mut LineReader<impl BufRead>,
    echo: bool,
    out: &mut dyn Write,
) -> Result<bool, SessionError> {
    let names = session.move_names().join(" ");
    loop {
        write!(out, "{} to move ({names})> ", session.mover())?;
        out.flush()?;
        let line = match next_typed_line(input).map_err(SessionError::Read)? {
            None => {
                writeln!(out, "\nend of input: game abandoned")?;
                return Ok(false);
            }
            Some(Err(e)) => {
                writeln!(out, "\nnot played: {e}; try again, or type 'help'")?;
                continue;
            }
            Some(Ok(line)) => line,
        };
        if echo {
            writeln!(out, "{line}")?;
        }
        let text = match typed(&line) {
            Typed::Nothing => continue,
            Typed::Quit => {
                writeln!(out, "game abandoned")?;
                return Ok(false);
            }
            Typed::Help => {
                writeln!(out, "{}", session.help())?;
                continue;
            }
            Typed::Turn(text) => text,
        };
        match session.play_typed(text) {
            Ok(()) => {
                writeln!(out)?;
                return Ok(true);
            }
            Err(why) => writeln!(out, "not played: {why}; try again, or type 'help'")?,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kalah_core::{Game, Rules};

    /// The transcript of a game of Kalah(2,1) against the greedy engine, typed `input`.
    fn transcript(input: &[u8]) -> String {
        let game = Game::new(Rules::kalah(2, 1)).unwrap();
        let start = game.start();
        let engine = SowingEngine::Greedy(None);
        let mut session = SowingSession::new(game, start, Side::South, engine, None);
        let mut out = Vec::new();
        let mut input = LineReader::new(input);
        run(&mut session, &mut input, true, &mut out, &mut Silent).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn the_loop_echoes_answers_help_and_refusals_and_plays_to_the_end() {
        let text = transcript(b"help\n9\n1\n2\n");
        assert!(text.starts_with("rules: Kalah(2,1) "), "{text}");
        assert!(text.contains("> help\nType the bin"), "{text}");
        assert!(text.contains("> 9\nnot played: "), "{text}");
        assert!(text.contains("North plays "), "{text}");
        assert!(text
            .trim_end()
            .lines()
            .last()
            .unwrap()
            .starts_with("game over: "));
    }

    #[test]
    fn the_game_is_abandoned_on_quit_or_at_the_end_of_the_input() {
        assert!(transcript(b"quit\n").ends_with("> quit\ngame abandoned\n"));
        assert!(transcript(b"").ends_with("> \nend of input: game abandoned\n"));
    }
}
