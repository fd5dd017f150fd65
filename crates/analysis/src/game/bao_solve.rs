//! Solving a Bao position on the game floor, for every task and front end that does:
//! its whole game graph within a memory limit ([`bao_solve_within`]), at once where the
//! graph is small ([`bao_solve_quick`], the board's), the best guess of an interrupted
//! solve ([`bao_guess`]), and the words a solve that stopped is told in.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use kalah_core::bao::{BaoMove, BaoPosition};
use kalah_solver::bao::{
    solve_position, BaoSolveError, BaoSolved, GraphProgress, GraphStop, BAO_BYTES_PER_POSITION,
};
use kalah_solver::bao_search;
use kalah_solver::{Analysis, Limits};

/// The analysis time a position of a batch when no limit is given.
pub const BAO_DEFAULT_SECONDS: f64 = 1.0;

/// How long an interrupted solve analyses for its best guess.
const GUESS_TIME: Duration = Duration::from_millis(300);

/// Solves the whole game graph of `pos` in at most `memory_mb` megabytes (every command
/// that solves a Bao position exactly), `progress` told as it goes; `cancel` stops it.
pub fn bao_solve_within(
    pos: &BaoPosition,
    memory_mb: u64,
    cancel: &AtomicBool,
    progress: &mut dyn FnMut(&GraphProgress),
) -> Result<BaoSolved, BaoSolveError> {
    let limit = memory_mb * (1 << 20) / BAO_BYTES_PER_POSITION;
    solve_position(pos, limit, cancel, progress)
}

/// What a solve of a Bao game graph stopped by Ctrl-C keeps, in words, and what to ask
/// for instead.
pub const BAO_SOLVE_INTERRUPTED: &str = "nothing is solved until the whole graph is; --time S \
                                         gives the anytime analysis's best move and what it proves";

/// Why the game graph of a Bao position was not solved within `memory_mb` megabytes
/// ([`bao_solve_within`]), in words: a graph too large names `--memory-mb` and the anytime
/// analysis that serves any board.
pub fn bao_graph_words(e: &BaoSolveError, memory_mb: u64) -> String {
    match e {
        BaoSolveError::Stopped(GraphStop::TooLarge { .. }) => format!(
            "{e} (--memory-mb {memory_mb}); --time S gives the anytime analysis's best move \
             and what it proves on any board"
        ),
        e => e.to_string(),
    }
}

/// The best guess of a solve that was interrupted: the graph solves nothing until it is
/// whole, so a short anytime analysis (under a flag of its own: the interrupt's is up).
pub fn bao_guess(pos: &BaoPosition) -> Analysis<BaoMove> {
    bao_search::analyse(
        pos,
        &Limits::time(GUESS_TIME),
        &AtomicBool::new(false),
        &mut |_| {},
    )
}

/// The most positions (symmetry classes) a quick solve ([`bao_solve_quick`]) may find
/// before it gives up: about 32 MB, and a fraction of a second to find or to give up on.
/// The start of 4×3 with 2 seeds reaches 21.6 million (docs/bao.md), so only boards with
/// few seeds are solved so; the anytime search proves the short wins of the others.
pub const BAO_QUICK_LIMIT: u64 = 250_000;

/// Why a quick solve gave no value.
#[derive(Clone, Debug, PartialEq)]
pub enum QuickMiss {
    /// The cancel flag was raised.
    Cancelled,
    /// The graph was too large or the solve failed: why, in words.
    Unsolved(String),
}

/// An analysis that must answer at once (the board's): `pos` solved exactly where its game
/// graph has at most [`BAO_QUICK_LIMIT`] positions; else why not, and the caller analyses.
pub fn bao_solve_quick(pos: &BaoPosition, cancel: &AtomicBool) -> Result<BaoSolved, QuickMiss> {
    match solve_position(pos, BAO_QUICK_LIMIT, cancel, &mut |_| {}) {
        Ok(solved) => Ok(solved),
        Err(BaoSolveError::Stopped(GraphStop::Cancelled)) => Err(QuickMiss::Cancelled),
        Err(BaoSolveError::Stopped(GraphStop::TooLarge { limit })) => Err(QuickMiss::Unsolved(
            format!("its game has more than {limit} positions"),
        )),
        Err(e) => Err(QuickMiss::Unsolved(e.to_string())),
    }
}

/// Bao's anytime analysis of `pos` within `limits` (`cancel` ends it with what it knows),
/// each report handed to `each` as it comes: the last report, or the first error `each`
/// returned (the analysis then runs to its end without handing on more). Every front end
/// that analyses a Bao position renders its reports through this one loop.
pub fn bao_analysis<E>(
    pos: &BaoPosition,
    limits: &Limits,
    cancel: &AtomicBool,
    each: &mut dyn FnMut(&Analysis<BaoMove>) -> Result<(), E>,
) -> Result<Analysis<BaoMove>, E> {
    let mut failed = None;
    let last = bao_search::analyse(pos, limits, cancel, &mut |a| {
        if failed.is_none() {
            failed = each(a).err();
        }
    });
    match failed {
        Some(e) => Err(e),
        None => Ok(last),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::setup::bao as bao_setup;

    /// A small position of Bao(4,2) whose graph solves at once (a draw).
    const E16: &str = "2,1,0,1/1,0,0,0/0,0,0,1/2,1,1,0:S";

    #[test]
    fn a_graph_too_large_names_the_memory_and_the_way_around() {
        let e = BaoSolveError::Stopped(GraphStop::TooLarge { limit: 10 });
        let words = bao_graph_words(&e, 1);
        assert!(words.starts_with(&e.to_string()), "{words}");
        assert!(
            words.ends_with(" (--memory-mb 1); --time S gives the anytime analysis's best move and what it proves on any board"),
            "{words}"
        );
        let e = BaoSolveError::TooManySeeds {
            seeds: 99,
            pits: 16,
        };
        assert_eq!(bao_graph_words(&e, 1), e.to_string());
        assert_eq!(
            BAO_SOLVE_INTERRUPTED,
            "nothing is solved until the whole graph is; --time S gives the anytime analysis's \
             best move and what it proves"
        );
    }

    #[test]
    fn a_graph_solves_within_its_memory_and_a_guess_is_an_analysis() {
        let pos: BaoPosition = E16.parse().unwrap();
        let never = AtomicBool::new(false);
        let solved = bao_solve_within(&pos, 64, &never, &mut |_| {}).unwrap();
        assert!(solved.value(&pos).is_some());
        assert!(bao_solve_within(&pos, 0, &never, &mut |_| {}).is_err());
        assert!(bao_guess(&pos).best_turn().is_some());
    }

    #[test]
    fn a_quick_solve_answers_a_small_graph_and_says_why_not_otherwise() {
        let small: BaoPosition = E16.parse().unwrap();
        let never = AtomicBool::new(false);
        let solved = bao_solve_quick(&small, &never).unwrap();
        let whole = bao_solve_within(&small, 64, &never, &mut |_| {}).unwrap();
        assert_eq!(solved.value(&small), whole.value(&small));
        let start = bao_setup::setup(&bao_setup::BaoOptions {
            pits: Some(8),
            seeds: Some(2),
            position: None,
            moves: None,
        })
        .unwrap()
        .pos;
        assert_eq!(
            bao_solve_quick(&start, &never).err(),
            Some(QuickMiss::Unsolved(format!(
                "its game has more than {BAO_QUICK_LIMIT} positions"
            )))
        );
        let cancelled = AtomicBool::new(true);
        assert_eq!(
            bao_solve_quick(&start, &cancelled).err(),
            Some(QuickMiss::Cancelled)
        );
    }
}
