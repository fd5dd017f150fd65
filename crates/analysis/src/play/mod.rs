//! A game played turn by turn (`kalah play`): the turn a player types, the engine's
//! perfect turn (the first turn of the exact solver's principal variation, checked by
//! replaying it), the engine's turn within a time ([`timed_turn`]: exact when the
//! analysis proves it, else the analysis' best turn), and the result of a finished game
//! for one side. The greedy engine is [`greedy::greedy_turn`]; Bao's engine is
//! [`bao`]; the game loop over either kind of game is [`session`].

pub mod bao;
pub mod greedy;
pub mod session;

pub use crate::game::quick::{
    bao_solves_quickly, solves_quickly, BAO_PERFECT_LAYOUTS, PERFECT_SEEDS, PERFECT_SEEDS_CYCLIC,
};

use std::io::{self, BufRead};
use std::sync::atomic::AtomicBool;

use std::time::Duration;

use kalah_core::{Game, Position, Side};
use kalah_io::LineReader;
use kalah_solver::line::{replay, ReplayError};
use kalah_solver::{Analysis, Limits, Progress, SolveError, Solver};

/// A typed line that is not UTF-8: answered with an error, and the game goes on (as in
/// `kalah engine` and `kalah batch`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NotUtf8 {
    /// The line's 1-based number.
    pub line: usize,
}

impl std::fmt::Display for NotUtf8 {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {} is not UTF-8", self.line)
    }
}

/// The next line a player types, trimmed (or [`NotUtf8`] for a line that is not text);
/// `None` at the end of the input. An error is one of reading (a line too long), after
/// which nothing more is read.
pub fn next_typed_line(
    input: &mut LineReader<impl BufRead>,
) -> io::Result<Option<Result<String, NotUtf8>>> {
    Ok(input.next_line()?.map(|l| {
        std::str::from_utf8(l.bytes)
            .map(|s| s.trim().to_string())
            .map_err(|_| NotUtf8 { line: l.number })
    }))
}

/// Why the perfect engine has no turn to give.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineError {
    /// The solve ended without a value.
    Solve(SolveError),
    /// The principal variation does not replay to the value solved: a bug of the search.
    Replay(ReplayError),
}

/// The perfect engine's turn in `pos` (the houses it sows, as
/// [`greedy::greedy_turn`] gives them): the first turn of the solver's principal
/// variation, once the whole variation has replayed to the value; empty where the game
/// is over. `progress` sees the solve's progress.
pub fn perfect_turn(
    solver: &Solver,
    pos: &Position,
    progress: &mut dyn FnMut(&Progress),
) -> Result<Vec<usize>, EngineError> {
    let solution = solver
        .solve(pos, &AtomicBool::new(false), progress)
        .map_err(EngineError::Solve)?;
    solution
        .verify(solver.game(), pos)
        .map_err(EngineError::Replay)?;
    Ok(solution
        .best_turn()
        .map(|t| t.sowings.clone())
        .unwrap_or_default())
}

/// The time a move of the engine takes by default where the game does not solve quickly
/// ([`default_engine`]).
pub const DEFAULT_MOVE_TIME: Duration = Duration::from_secs(5);

/// How the engine plays when asked for nothing: perfectly (`None`) where the game from
/// `pos` solves quickly ([`solves_quickly`]), else within [`DEFAULT_MOVE_TIME`] a move.
pub fn default_engine(game: &Game, pos: &Position) -> Option<Limits> {
    (!solves_quickly(game, pos)).then(|| Limits::time(DEFAULT_MOVE_TIME))
}

/// The engine's turn within limits ([`timed_turn`]) and the analysis behind it.
#[derive(Clone, Debug)]
pub struct TimedTurn {
    /// The houses it sows, in order (empty where the game is over).
    pub sowings: Vec<usize>,
    /// The analysis: exact ([`Analysis::is_exact`], its line replayed to the value) or
    /// heuristic with its proven interval.
    pub analysis: Analysis,
}

impl TimedTurn {
    /// Whether the turn is perfect: the analysis proved the value, and the turn is the
    /// first of a line that replays to it.
    pub fn is_exact(&self) -> bool {
        self.analysis.is_exact()
    }
}

/// The engine's turn in `pos` within `limits`: the best turn of the anytime analysis
/// ([`Solver::analyse`]), which is a perfect turn where the analysis proves the value in
/// time (its line is then replayed to the value first), else the turn of the best
/// heuristic evaluation. `on_progress` sees each report. Stopped by `cancel` it gives
/// the best turn found so far. An analysis that fails (a game graph too large for the
/// memory) is [`EngineError::Solve`].
pub fn timed_turn(
    solver: &Solver,
    pos: &Position,
    limits: &Limits,
    cancel: &AtomicBool,
    on_progress: &mut dyn FnMut(&Analysis),
) -> Result<TimedTurn, EngineError> {
    // One line evaluated in full: a player needs the best turn, and the others only shown
    // no better lets the deepening go further.
    let analysis = solver
        .analyse_lines(pos, limits, 1, cancel, on_progress)
        .map_err(EngineError::Solve)?;
    if analysis.is_exact() {
        let value = analysis.bounds_from_south().0;
        replay(solver.game(), pos, &analysis.pv, value).map_err(EngineError::Replay)?;
    }
    let sowings = match pos.is_over() {
        true => Vec::new(),
        false => analysis
            .best_turn()
            .map(|t| t.sowings.clone())
            .unwrap_or_default(),
    };
    Ok(TimedTurn { sowings, analysis })
}

/// What a line typed at the prompt asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Typed<'a> {
    /// Nothing: ask again.
    Nothing,
    /// Abandon the game (`quit`, `q`, `exit`).
    Quit,
    /// Explain the input (`help`, `h`, `?`).
    Help,
    /// A turn to play ([`crate::game::setup::typed_turn`] for the sowing games).
    Turn(&'a str),
}

/// What the line `line` (already trimmed) asks for; the words are read in any case.
pub fn typed(line: &str) -> Typed<'_> {
    match line.to_ascii_lowercase().as_str() {
        "" => Typed::Nothing,
        "quit" | "q" | "exit" => Typed::Quit,
        "help" | "h" | "?" => Typed::Help,
        _ => Typed::Turn(line),
    }
}

/// The result of the finished game `pos` for `side`: 1 a win, -1 a loss, 0 a draw.
pub fn result_for(pos: &Position, side: Side) -> i32 {
    (pos.score().signum() * side.sign()).signum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use kalah_core::Rules;
    use kalah_solver::Config;

    #[test]
    fn typed_lines_are_trimmed_and_one_not_utf8_is_skipped() {
        let mut input = LineReader::new(&b"  3-1 \r\n\xff\nquit\n"[..]);
        let mut next = || next_typed_line(&mut input).unwrap();
        assert_eq!(next(), Some(Ok("3-1".to_string())));
        assert_eq!(next(), Some(Err(NotUtf8 { line: 2 })));
        assert_eq!(next(), Some(Ok("quit".to_string())));
        assert_eq!(next(), None);
    }

    #[test]
    fn typed_words_are_read_in_any_case() {
        assert_eq!(typed(""), Typed::Nothing);
        assert_eq!(typed("QUIT"), Typed::Quit);
        assert_eq!(typed("Exit"), Typed::Quit);
        assert_eq!(typed("?"), Typed::Help);
        assert_eq!(typed("3-6"), Typed::Turn("3-6"));
        assert_eq!(typed("Help me"), Typed::Turn("Help me"));
    }

    #[test]
    fn the_perfect_turn_starts_a_best_line() {
        let game = Game::new(Rules::kalah(3, 2)).unwrap();
        let config = Config {
            threads: 1,
            hash_mb: 4,
            ..Config::default()
        };
        let solver = Solver::new(game.clone(), config).unwrap();
        let start = game.start();
        let turn = perfect_turn(&solver, &start, &mut |_| {}).unwrap();
        let mut pos = start;
        for &j in &turn {
            pos = game.play_unchecked(&pos, j);
        }
        let cancel = AtomicBool::new(false);
        let value = |p: &Position| {
            solver
                .solve(p, &cancel, &mut |_| {})
                .unwrap()
                .value_from_south()
        };
        assert_eq!(value(&pos), value(&start));
    }

    #[test]
    fn a_timed_turn_is_legal_and_perfect_once_exact() {
        let game = Game::new(Rules::kalah(3, 2)).unwrap();
        let config = Config {
            threads: 1,
            hash_mb: 4,
            ..Config::default()
        };
        let solver = Solver::new(game.clone(), config).unwrap();
        let start = game.start();
        let cancel = AtomicBool::new(false);
        let value = |p: &Position| {
            solver
                .solve(p, &cancel, &mut |_| {})
                .unwrap()
                .value_from_south()
        };
        // The position after the turn, each sowing checked to be legal.
        let play = |t: &TimedTurn| {
            let mut pos = start;
            for &j in &t.sowings {
                assert!(game.legal_moves(&pos).any(|m| m == j), "{j} in {pos}");
                pos = game.play_unchecked(&pos, j);
            }
            assert!(pos.is_over() || pos.side_to_move() != start.side_to_move());
            pos
        };
        // Without a limit the analysis runs until exact: a perfect turn.
        let t = timed_turn(&solver, &start, &Limits::none(), &cancel, &mut |_| {}).unwrap();
        assert!(t.is_exact());
        assert_eq!(value(&play(&t)), value(&start));
        // One node: still a legal turn, whose interval holds the exact value.
        let t = timed_turn(&solver, &start, &Limits::nodes(1), &cancel, &mut |_| {}).unwrap();
        play(&t);
        let (lo, hi) = t.analysis.bounds_from_south();
        assert!(lo <= value(&start) && value(&start) <= hi);
    }

    #[test]
    fn the_perfect_engine_is_the_default_where_the_game_solves_quickly() {
        let small = Game::new(Rules::kalah(6, 4)).unwrap();
        assert_eq!(default_engine(&small, &small.start()), None);
        let large = Game::new(Rules::kalah(6, 6)).unwrap();
        let limits = default_engine(&large, &large.start()).unwrap();
        assert_eq!(limits.time, Some(DEFAULT_MOVE_TIME));
        // Bao: 4×3 with 2 seeds is solved (C(35, 11) layouts), 4×4 with 2 seeds is not.
        let bao = |pits, seeds| kalah_core::bao::BaoRules::new(pits, seeds).unwrap().start();
        assert!(bao_solves_quickly(&bao(3, 2)));
        assert!(!bao_solves_quickly(&bao(4, 2)));
    }

    #[test]
    fn the_result_is_seen_from_the_side_asked() {
        let game = Game::new(Rules::kalah(1, 1)).unwrap();
        let mut pos = game.start();
        while !pos.is_over() {
            let j = pos.moves().next().unwrap();
            pos = game.play_unchecked(&pos, j);
        }
        let south = result_for(&pos, Side::South);
        assert_eq!(result_for(&pos, Side::North), -south);
        assert_eq!(south, pos.score().signum());
    }
}
