//! The sowing games in a game against a human: the engine perfect (the exact solver),
//! within a time a move (the anytime analysis, its book first), or greedy.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use kalah_core::notation::{self, bin, format_turn};
use kalah_core::{Game, Position, Side};
use kalah_solver::{Analysis, Limits, Solver};

use super::{EngineMove, Session, SessionError, Thinking};
use crate::book::Book;
use crate::game::bounds::signed;
use crate::game::setup::{move_message, typed_turn};
use crate::play::greedy::greedy_turn;
use crate::play::{perfect_turn, result_for, timed_turn, EngineError};
use crate::run::progress::progress_message;
use crate::run::solving::{Solving, SolvingError};

/// The engine of a game of a sowing game.
pub enum SowingEngine {
    /// The exact solver.
    Perfect(Solver),
    /// The anytime analysis within the limits, the book's turn first where it has one.
    Timed(Solver, Limits, Option<Book>),
    /// The greedy turn, ties broken by the seed (the first in bin order without one).
    Greedy(Option<u64>),
}

impl SowingEngine {
    /// The engine `choice` names for a game of `game` from `pos`, its solver made by
    /// `solving`; the timed one with the book `book` loads (the exact solver needs none).
    pub fn of<E: From<SolvingError>>(
        choice: EngineChoice,
        solving: &Solving,
        game: &Game,
        pos: &Position,
        book: impl FnOnce() -> Result<Option<Book>, E>,
    ) -> Result<SowingEngine, E> {
        let seeds = pos.seeds_in_houses() as usize;
        Ok(match choice {
            EngineChoice::Perfect => SowingEngine::Perfect(solving.solver(game, seeds)?),
            EngineChoice::Greedy(seed) => SowingEngine::Greedy(seed),
            EngineChoice::Timed(limits) => {
                let solver = solving.analysis(game, seeds, &limits)?;
                SowingEngine::Timed(solver, limits, book()?)
            }
        })
    }
}

/// How the engine of a sowing game is to play, chosen before any solver is made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EngineChoice {
    /// The exact solver.
    Perfect,
    /// The anytime analysis within these limits, the book's turn first.
    Timed(Limits),
    /// The greedy turn, ties broken by the seed.
    Greedy(Option<u64>),
}

impl EngineChoice {
    /// The engine for a game of `game` from `pos`: the anytime analysis within `time` a
    /// move where one is given, else greedy (ties broken by `seed`) where `greedy`, else
    /// perfect where the game solves quickly and within the default time a move where it
    /// does not ([`crate::play::default_engine`]), with the line that says so
    /// ([`default_time_note`]).
    pub fn of(
        time: Option<Duration>,
        greedy: bool,
        seed: Option<u64>,
        game: &Game,
        pos: &Position,
    ) -> (EngineChoice, Option<String>) {
        if let Some(time) = time {
            return (EngineChoice::Timed(Limits::time(time)), None);
        }
        if greedy {
            return (EngineChoice::Greedy(seed), None);
        }
        match crate::play::default_engine(game, pos) {
            None => (EngineChoice::Perfect, None),
            Some(limits) => (
                EngineChoice::Timed(limits),
                limits.time.map(default_time_note),
            ),
        }
    }
}

/// The line that says how the engine plays where the board does not solve quickly and
/// no time was asked for: `time` a move.
pub fn default_time_note(time: Duration) -> String {
    format!(
        "This board does not solve quickly: the engine takes {} s a move, exact \
         where it can prove it (set the time with --time).",
        time.as_secs_f64()
    )
}

/// A game of a sowing game between a human and the engine.
pub struct SowingSession {
    game: Game,
    pos: Position,
    human: Side,
    engine: SowingEngine,
    note: Option<String>,
}

impl SowingSession {
    /// A game of `game` from `pos`, the human playing `human` against `engine`; `note`
    /// (a line on how the engine plays) is said after the greeting.
    pub fn new(
        game: Game,
        pos: Position,
        human: Side,
        engine: SowingEngine,
        note: Option<String>,
    ) -> SowingSession {
        SowingSession {
            game,
            pos,
            human,
            engine,
            note,
        }
    }

    /// The engine's turn and the words that say how it was chosen.
    fn engine_turn(
        &self,
        thinking: &mut dyn Thinking,
    ) -> Result<(Vec<usize>, Option<String>), EngineError> {
        let pos = &self.pos;
        Ok(match &self.engine {
            SowingEngine::Perfect(solver) => {
                thinking.start();
                let sign = pos.side_to_move().sign();
                let turn = perfect_turn(solver, pos, &mut |p| {
                    thinking.say(&progress_message(p, sign))
                });
                thinking.stop();
                (turn?, None)
            }
            SowingEngine::Timed(solver, limits, book) => {
                if let Some(e) = book.as_ref().and_then(|b| b.lookup(pos)) {
                    return Ok((e.best_turn.sowings.clone(), Some(e.describe())));
                }
                thinking.start();
                let cancel = AtomicBool::new(false);
                let turn = timed_turn(solver, pos, limits, &cancel, &mut |a| {
                    let (lo, hi) = a.bounds_from_south();
                    thinking.say(&format!(
                        "depth {}, heuristic {} from South, proven {}..{}, {} nodes",
                        a.depth,
                        signed(a.eval_from_south()),
                        signed(lo),
                        signed(hi),
                        a.nodes
                    ))
                });
                thinking.stop();
                let t = turn?;
                let how = how_timed(&t.analysis);
                (t.sowings, Some(how))
            }
            SowingEngine::Greedy(seed) => (greedy_turn(&self.game, pos, *seed), None),
        })
    }
}

impl Session for SowingSession {
    fn greeting(&self) -> String {
        let (h, human) = (self.game.houses(), self.human);
        let mut text = format!(
            "rules: {}\nYou play {human} (bins {} to {}), the engine plays {}. Type 'help' \
             for help.\n\n",
            self.game.rules(),
            bin(h, human, 0),
            bin(h, human, h - 1),
            human.other()
        );
        if let Some(note) = &self.note {
            text += &format!("{note}\n\n");
        }
        text
    }

    fn drawing(&self) -> String {
        format!("{}\n", notation::board(&self.pos))
    }

    fn end_words(&self) -> Option<String> {
        let pos = &self.pos;
        if !pos.is_over() {
            return None;
        }
        let (south, north) = (pos.store(Side::South), pos.store(Side::North));
        let score = pos.score();
        let verdict = match result_for(pos, self.human) {
            1 => "you win",
            -1 => "the engine wins",
            _ => "a draw",
        };
        Some(format!(
            "game over: South {south}, North {north}, score {score:+} (South - North): {verdict}"
        ))
    }

    fn mover(&self) -> Side {
        self.pos.side_to_move()
    }

    fn human(&self) -> Side {
        self.human
    }

    fn move_names(&self) -> Vec<String> {
        notation::move_names(&self.game, &self.pos)
    }

    fn help(&self) -> String {
        let h = self.pos.houses_per_side();
        let side = self.pos.side_to_move();
        format!(
            "Type the bin of the house to sow: {side} owns bins {} to {} (bins {} and {} are \
             the stores). A last seed in your own store gives you another sowing; you may \
             also type a whole turn at once as bins joined by '-'.{} 'quit' ends the game.",
            bin(h, side, 0),
            bin(h, side, h - 1),
            h + 1,
            2 * h + 2,
            match self.game.rules().family.has_direction() {
                true => " Add '<' to sow clockwise (3<).",
                false => "",
            },
        )
    }

    fn play_typed(&mut self, text: &str) -> Result<(), String> {
        self.pos = typed_turn(&self.game, &self.pos, text).map_err(|e| move_message(&e))?;
        Ok(())
    }

    fn engine_move(&mut self, thinking: &mut dyn Thinking) -> Result<EngineMove, SessionError> {
        let mover = self.pos.side_to_move();
        let (turn, how) = self.engine_turn(thinking).map_err(|e| {
            SessionError::Engine(match e {
                EngineError::Solve(_) => "the search was cancelled".into(),
                EngineError::Replay(e) => format!("principal variation does not replay: {e}"),
            })
        })?;
        for &j in &turn {
            self.pos = self.game.play_unchecked(&self.pos, j);
        }
        Ok(EngineMove {
            notation: format_turn(self.game.houses(), mover, &turn),
            how,
        })
    }
}

/// How an engine turn of the analysis `a` was chosen: exact, or heuristic with the
/// interval proved to hold the value.
fn how_timed(a: &Analysis) -> String {
    let (lo, hi) = a.bounds_from_south();
    let secs = a.elapsed.as_secs_f64();
    match a.is_exact() {
        true => format!("exact, value {} from South, {secs:.2} s", signed(lo)),
        false => format!(
            "heuristic, proven interval {}..{} from South, evaluation {} at depth {}, \
             {secs:.2} s",
            signed(lo),
            signed(hi),
            signed(a.eval_from_south()),
            a.depth
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::run::solving::tests::small_solving;
    use kalah_core::Rules;

    #[test]
    fn the_engine_chosen_is_made_and_only_the_timed_one_loads_the_book() {
        let game = Game::new(Rules::kalah(3, 2)).unwrap();
        let start = game.start();
        let solving = small_solving();
        let mut loaded = 0;
        let mut make = |choice| {
            SowingEngine::of::<SolvingError>(choice, &solving, &game, &start, || {
                loaded += 1;
                Ok(None)
            })
        };
        assert!(matches!(
            make(EngineChoice::Greedy(Some(3))),
            Ok(SowingEngine::Greedy(Some(3)))
        ));
        assert!(matches!(
            make(EngineChoice::Perfect),
            Ok(SowingEngine::Perfect(_))
        ));
        let limits = Limits::depth(2);
        assert!(matches!(
            make(EngineChoice::Timed(limits)),
            Ok(SowingEngine::Timed(_, l, None)) if l == limits
        ));
        assert_eq!(loaded, 1);
    }

    #[test]
    fn a_time_comes_first_then_greedy_then_the_board_decides() {
        let small = Game::new(Rules::kalah(4, 3)).unwrap();
        let start = small.start();
        let second = Duration::from_secs(1);
        assert_eq!(
            EngineChoice::of(Some(second), true, None, &small, &start),
            (EngineChoice::Timed(Limits::time(second)), None)
        );
        assert_eq!(
            EngineChoice::of(None, true, Some(3), &small, &start),
            (EngineChoice::Greedy(Some(3)), None)
        );
        assert_eq!(
            EngineChoice::of(None, false, None, &small, &start),
            (EngineChoice::Perfect, None)
        );
        let large = Game::new(Rules::kalah(6, 6)).unwrap();
        let (choice, note) = EngineChoice::of(None, false, None, &large, &large.start());
        let time = crate::play::DEFAULT_MOVE_TIME;
        assert_eq!(choice, EngineChoice::Timed(Limits::time(time)));
        assert_eq!(note, Some(default_time_note(time)));
        assert!(note
            .unwrap()
            .starts_with("This board does not solve quickly"));
    }
}
