//! Bao's lines of the engine protocol (`rules bao`, docs/engine.md): the `info` line of
//! one report of Bao's anytime analysis, saying what is proven (a forced win or loss
//! found) beside the heuristic evaluation, its `info turn` lines, and the `bestmove` line.

use kalah_core::bao::{BaoMove, BaoPosition};
use kalah_solver::bao_search::Outcome;
use kalah_solver::{Analysis, RootTurn};

/// What is proven for the mover, in the protocol's words: `win N`, `loss N` (within N
/// moves of both players) or `none`.
fn proven_words(proven: Option<Outcome>) -> String {
    match proven {
        Some(Outcome::Won { moves }) => format!("win {moves}"),
        Some(Outcome::Lost { moves }) => format!("loss {moves}"),
        None => "none".to_string(),
    }
}

/// The moves of a line, space separated.
fn moves_text(line: &[BaoMove]) -> String {
    let moves: Vec<String> = line.iter().map(|m| m.to_string()).collect();
    moves.join(" ")
}

/// The `info` line of one report: the evaluation for the side to move in points (100 a
/// seed), what is proven, time in milliseconds.
pub fn info_line(a: &Analysis<BaoMove>) -> String {
    format!(
        "info depth {} eval {} proven {} exact {} nodes {} nps {} time {} pv {}",
        a.depth,
        a.eval,
        proven_words(a.proven),
        if a.proven.is_some() { "yes" } else { "no" },
        a.nodes,
        a.nodes_per_second().round() as u64,
        a.elapsed.as_millis(),
        moves_text(&a.pv)
    )
}

/// The `info turn` line of the `rank`-th best root move (1 first).
pub fn turn_line(rank: usize, t: &RootTurn<BaoMove>) -> String {
    format!(
        "info turn {rank} move {} depth {} eval {} proven {}",
        t.turn,
        t.depth,
        t.eval,
        proven_words(t.proven)
    )
}

/// The move to play at `pos` after the analysis `a`: its best move, else (the root's own
/// moves outlasted the limit) the first legal one; `None` where the game is over.
pub fn move_to_play(pos: &BaoPosition, a: &Analysis<BaoMove>) -> Option<BaoMove> {
    a.best_turn()
        .copied()
        .or_else(|| pos.legal().moves().next())
}

/// The `bestmove` line: [`move_to_play`], or `none` where the game is over.
pub fn bestmove_line(pos: &BaoPosition, a: &Analysis<BaoMove>) -> String {
    match move_to_play(pos, a) {
        Some(mv) => format!("bestmove {mv}"),
        None => "bestmove none".to_string(),
    }
}
