//! Bao in a game against a human: the engine perfect from the solved game graph, or the
//! anytime analysis within a time a move; a position that comes back a third time ends
//! the game as a draw.

use kalah_core::bao::BaoPosition;
use kalah_core::Side;

use super::{EngineMove, Session, SessionError, Thinking};
use crate::game::setup::bao::{drawing, BaoEnd, BaoGame};
use crate::play::bao::{engine_turn, Backing, BaoEngine};
use crate::wire::bao::text::outcome_words;

/// A game of Bao between a human and the engine.
pub struct BaoSession {
    game: BaoGame,
    human: Side,
    engine: BaoEngine,
}

impl BaoSession {
    /// A game from `pos`, the human playing `human` against `engine`.
    pub fn new(pos: BaoPosition, human: Side, engine: BaoEngine) -> BaoSession {
        BaoSession {
            game: BaoGame::new(pos),
            human,
            engine,
        }
    }
}

impl Session for BaoSession {
    fn greeting(&self) -> String {
        let mut text = String::new();
        if let BaoEngine::Timed(limit) = &self.engine {
            text += &format!(
                "The engine thinks {:.2} s a move (not a perfect engine on this board).\n",
                limit.as_secs_f64()
            );
        }
        let human = self.human;
        text + &format!(
            "You play {human}, the engine plays {}. Type 'help' for help.\n\n",
            human.other()
        )
    }

    fn drawing(&self) -> String {
        drawing(self.game.pos())
    }

    fn end_words(&self) -> Option<String> {
        let pos = self.game.pos();
        let (mover, other) = (pos.side(), pos.side().other());
        Some(match self.game.end()? {
            BaoEnd::Won { .. } if pos.is_over() => {
                format!("{other} emptied {mover}'s front row: {other} wins")
            }
            BaoEnd::Won { .. } => format!("{mover} has no legal move: {other} wins"),
            BaoEnd::Repetition => "the position came back a third time: a draw".to_string(),
        })
    }

    fn mover(&self) -> Side {
        self.game.pos().side()
    }

    fn human(&self) -> Side {
        self.human
    }

    fn move_names(&self) -> Vec<String> {
        self.game
            .pos()
            .legal()
            .moves()
            .map(|m| m.to_string())
            .collect()
    }

    fn help(&self) -> String {
        format!(
            "A move is a row letter (yours: {}), a pit number from your left and a \
             direction: + clockwise, - anticlockwise. Legal now: {}",
            match self.game.pos().side() {
                Side::South => "A front, B back",
                Side::North => "a front, b back",
            },
            self.move_names().join(" ")
        )
    }

    fn play_typed(&mut self, text: &str) -> Result<(), String> {
        self.game.play_text(text).map_err(|e| e.to_string())
    }

    fn engine_move(&mut self, _: &mut dyn Thinking) -> Result<EngineMove, SessionError> {
        let pos = *self.game.pos();
        let (mv, backing) = engine_turn(&self.engine, &pos).ok_or_else(|| {
            SessionError::Engine(match self.engine {
                BaoEngine::Perfect(_) => format!("no solved move in {pos}"),
                BaoEngine::Timed(_) => format!("no legal move in {pos}"),
            })
        })?;
        let how = match backing {
            Backing::Exact(value) => value.describe(),
            Backing::Proven(o) => outcome_words("", o),
            Backing::NotSearched => "not searched: the first legal move".to_string(),
            Backing::Heuristic { eval, depth } => {
                format!("heuristic {eval:+} points from South, depth {depth}")
            }
        };
        self.game
            .play(mv)
            .map_err(|e| SessionError::Engine(format!("the engine's move {mv}: {e}")))?;
        Ok(EngineMove {
            notation: mv.to_string(),
            how: Some(how),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::super::{run, Silent};
    use super::*;
    use std::sync::atomic::AtomicBool;
    use std::time::Duration;

    use kalah_io::LineReader;

    #[test]
    fn the_engine_says_what_backs_its_move_and_the_human_gets_bao_s_help() {
        // A small position of Bao(4,2) whose graph solves at once.
        let pos: BaoPosition = "2,1,0,1/1,0,0,0/0,0,0,1/2,1,1,0:S".parse().unwrap();
        let solved =
            kalah_solver::bao::solve_position(&pos, 1 << 20, &AtomicBool::new(false), &mut |_| {})
                .unwrap();
        let transcript = |engine| {
            let mut session = BaoSession::new(pos, Side::North, engine);
            let mut out = Vec::new();
            let mut input = LineReader::new(&b"help\nquit\n"[..]);
            run(&mut session, &mut input, true, &mut out, &mut Silent).unwrap();
            String::from_utf8(out).unwrap()
        };
        let perfect = transcript(BaoEngine::Perfect(solved));
        assert!(perfect.starts_with("You play North, the engine plays South."));
        assert!(perfect.contains("\nSouth plays "), "{perfect}");
        assert!(perfect.contains("> help\nA move is a row letter (yours: a front, b back)"));
        assert!(perfect.ends_with("> quit\ngame abandoned\n"), "{perfect}");
        let timed = transcript(BaoEngine::Timed(Duration::from_millis(20)));
        assert!(
            timed.starts_with("The engine thinks 0.02 s a move"),
            "{timed}"
        );
    }
}
