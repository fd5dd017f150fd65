//! Bao la Kujifunza in the engine protocol (`rules bao`, docs/engine.md): the rules, the
//! position and its moves in Bao's own notation (docs/bao.md), and each `go` as Bao's
//! anytime analysis ([`kalah_solver::bao_search::analyse`]), whose `info` lines say what
//! is proven (a forced win or loss found) beside the heuristic evaluation.

use std::io;
use std::sync::atomic::AtomicBool;

use kalah_core::bao::{BaoMove, BaoPosition, BaoRules};
use kalah_solver::bao_search::{self, BaoAnalysis, BaoRootMove, Outcome};

use super::command::{Go, ProtocolError};
use super::{say, Out};

/// The position of `board` (else the start of `rules`) with `moves` played
/// ([`crate::setup::bao::position`]); a board of another size, or a move that cannot be
/// played, is refused with the reason.
pub fn setup_position(
    rules: &BaoRules,
    board: Option<&str>,
    moves: &[String],
) -> Result<BaoPosition, ProtocolError> {
    crate::setup::bao::position(rules, board, moves.iter().map(String::as_str))
        .map_err(|e| ProtocolError(e.to_string()))
}

/// One `go` on `pos`: an `info` line per report (and `info turn` lines for `multi`),
/// the final report; returns the `bestmove` line to write.
pub fn run_go(pos: &BaoPosition, go: &Go, cancel: &AtomicBool, out: &Out) -> io::Result<String> {
    let mut failed = None;
    let mut report = |a: &BaoAnalysis| {
        if failed.is_none() {
            failed = write_report(a, go.multi, out).err();
        }
    };
    let a = bao_search::analyse(pos, &go.limits, cancel, &mut report);
    if let Some(e) = failed {
        return Err(e);
    }
    write_report(&a, go.multi, out)?;
    Ok(bestmove_line(pos, &a))
}

/// The report's `info` line and, unless `multi` is 1, its `info turn` lines.
fn write_report(a: &BaoAnalysis, multi: usize, out: &Out) -> io::Result<()> {
    say(out, &info_line(a))?;
    if multi != 1 {
        let shown = if multi == 0 {
            a.turns.len()
        } else {
            multi.min(a.turns.len())
        };
        for (k, t) in a.turns[..shown].iter().enumerate() {
            say(out, &turn_line(k + 1, t))?;
        }
    }
    Ok(())
}

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
pub fn info_line(a: &BaoAnalysis) -> String {
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
pub fn turn_line(rank: usize, t: &BaoRootMove) -> String {
    format!(
        "info turn {rank} move {} depth {} eval {} proven {}",
        t.mv,
        t.depth,
        t.score,
        proven_words(t.proven)
    )
}

/// The move to play at `pos` after the analysis `a`: its best move, else (the root's own
/// moves outlasted the limit) the first legal one; `None` where the game is over.
pub fn move_to_play(pos: &BaoPosition, a: &BaoAnalysis) -> Option<BaoMove> {
    a.best.or_else(|| pos.legal().moves().next())
}

/// The `bestmove` line: [`move_to_play`], or `none` where the game is over.
pub fn bestmove_line(pos: &BaoPosition, a: &BaoAnalysis) -> String {
    match move_to_play(pos, a) {
        Some(mv) => format!("bestmove {mv}"),
        None => "bestmove none".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bao_positions_are_the_start_or_a_board_with_moves() {
        let rules = BaoRules::new(4, 2).unwrap();
        let start = setup_position(&rules, None, &[]).unwrap();
        assert_eq!(start, rules.start());
        let text = start.to_string();
        assert_eq!(setup_position(&rules, Some(&text), &[]).unwrap(), start);
        let mv = start.legal().moves().next().unwrap();
        let after = setup_position(&rules, None, &[mv.to_string()]).unwrap();
        assert_eq!(after, start.try_play(mv).unwrap().0);
        // Other boards, other players' moves and unreadable text are refused.
        let other = BaoRules::new(3, 2).unwrap().start().to_string();
        assert!(setup_position(&rules, Some(&other), &[]).is_err());
        assert!(setup_position(&rules, Some("1,2,3"), &[]).is_err());
        assert!(setup_position(&rules, None, &["a1+".to_string()]).is_err());
        assert!(setup_position(&rules, None, &["Z9".to_string()]).is_err());
    }
}
