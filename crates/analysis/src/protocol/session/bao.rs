//! Bao la Kujifunza in the engine protocol (`rules bao`, docs/engine.md): the position
//! and its moves in Bao's own notation (docs/bao.md), and each `go` as Bao's anytime
//! analysis ([`crate::analyse::bao_analysis`]), written as the lines of
//! [`crate::protocol::bao`], which say what is proven (a forced win or loss found) beside
//! the heuristic evaluation.

use std::io;
use std::sync::atomic::AtomicBool;

use kalah_core::bao::{BaoMove, BaoPosition, BaoRules};
use kalah_solver::Analysis;

use super::{say, Out};
use crate::game::bao_solve::bao_analysis;
use crate::protocol::bao::{bestmove_line, info_line, turn_line};
use crate::protocol::{Go, ProtocolError};

/// The position of `board` (else the start of `rules`) with `moves` played
/// ([`crate::game::setup::bao::position`]); a board of another size, or a move that cannot be
/// played, is refused with the reason.
pub fn setup_position(
    rules: &BaoRules,
    board: Option<&str>,
    moves: &[String],
) -> Result<BaoPosition, ProtocolError> {
    crate::game::setup::bao::position(rules, board, moves.iter().map(String::as_str))
        .map_err(|e| ProtocolError(e.to_string()))
}

/// One `go` on `pos`: an `info` line per report (and `info turn` lines for `multi`),
/// the final report; returns the `bestmove` line to write.
pub fn run_go(pos: &BaoPosition, go: &Go, cancel: &AtomicBool, out: &Out) -> io::Result<String> {
    let mut report = |a: &Analysis<BaoMove>| write_report(a, go.multi, out);
    let a = bao_analysis(pos, &go.limits, cancel, &mut report)?;
    write_report(&a, go.multi, out)?;
    Ok(bestmove_line(pos, &a))
}

/// The report's `info` line and, unless `multi` is 1, its `info turn` lines.
fn write_report(a: &Analysis<BaoMove>, multi: usize, out: &Out) -> io::Result<()> {
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
