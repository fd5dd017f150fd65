//! Anytime analysis of Bao positions (the full 4×8 board and every smaller one): iterative
//! deepening negamax with alpha-beta, a transposition table and a heuristic evaluation of
//! its own, reporting after every completed depth.
//!
//! Depth counts moves (a Bao move is a whole turn, relays and captures included). An
//! analysis is the one result type of every family, [`Analysis`] over [`BaoMove`]. The
//! evaluation ([`Analysis::eval`], in points: 100 a seed of material) is a heuristic
//! guess. What is proven is labelled apart, in [`Analysis::proven`]: a forced win or
//! loss found inside the searched tree (a move that empties the opponent's front row, or
//! a player with no legal move, R7) is exact, whatever the depth limit. A draw (play that
//! only cycles, R9.1) is never proven by a depth-limited search: a position that is not
//! decided within the tree has only a heuristic value.
//!
//! ```
//! use std::sync::atomic::AtomicBool;
//! use kalah_core::bao::BaoRules;
//! use kalah_solver::bao_search::{analyse, Outcome};
//! use kalah_solver::Limits;
//!
//! let pos = "0,0,0/0,0,1/2,0,1/0,0,0:S".parse().unwrap();
//! let a = analyse(&pos, &Limits::depth(4), &AtomicBool::new(false), &mut |_| {});
//! assert_eq!(a.proven, Some(Outcome::Won { moves: 1 }));
//! # let _ = BaoRules::standard();
//! ```

mod eval;
mod score;
mod search;
mod table;

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use kalah_core::bao::{BaoMove, BaoPosition};

use crate::anytime::{deepen, Analysis, Clock, Kernel, Limits, ReportKind, RootTurn, ScoreBound};
use crate::score::{across, Bounds};
use eval::evaluate;
use score::{outcome, DECIDED, INFINITY, WIN};
use search::{Worker, PASSES};

/// The table holds `2^TABLE_BITS` entries.
const TABLE_BITS: u32 = 20;

/// A forced win or loss, the proven part of a Bao analysis (one case of [`crate::Proven`]).
pub use crate::anytime::Outcome;

/// A root move and the position it leads to, as the deepening loop keeps them.
#[derive(Clone, Copy)]
struct Root {
    mv: BaoMove,
    next: BaoPosition,
    score: i32,
    bound: ScoreBound,
    depth: u8,
}

/// Analyses `pos` until a limit of `limits` is reached (depth in moves, capped at
/// [`Limits::MAX_DEPTH`]), `cancel` is set, or a win or loss is proven. `on_progress`
/// sees the analysis after each completed depth; the last one is returned (an
/// interrupted depth is dropped).
pub fn analyse(
    pos: &BaoPosition,
    limits: &Limits,
    cancel: &AtomicBool,
    on_progress: &mut dyn FnMut(&Analysis<BaoMove>),
) -> Analysis<BaoMove> {
    let clock = Clock::start(limits, cancel);
    let start = clock.start;
    let mut worker = Worker::new(TABLE_BITS, clock);
    let Some(roots) = first_roots(pos, &worker.stop_test()) else {
        // The root's own moves outlasted the limit (a relay of millions of sowings):
        // nothing is searched, so nothing is proven; the evaluation is the root's.
        return Analysis {
            side: pos.side(),
            depth: 0,
            eval: evaluate(pos),
            proven: None,
            pv: Vec::new(),
            turns: Vec::new(),
            nodes: 0,
            elapsed: start.elapsed(),
            report: ReportKind::Final,
        };
    };
    let mut report = snapshot(pos, &roots, 0, &worker, start);
    let decided_at_once = roots.first().is_none_or(|r| r.score >= DECIDED);
    if decided_at_once {
        report.depth = roots.len().min(1) as u8;
        on_progress(&report);
        report.report = ReportKind::Final;
        return report;
    }
    let mut kernel = Bao {
        pos,
        worker: &mut worker,
        roots,
        report,
        on_progress,
    };
    deepen(&mut kernel, limits.last_depth());
    let mut report = kernel.report;
    report.nodes = worker.nodes;
    report.elapsed = start.elapsed();
    report.report = ReportKind::Final;
    report
}

/// The root moves before any search, best first by the children's evaluations; a move
/// that wins at once (R7.1) is decided. `None` when `stop` said stop during a long move.
fn first_roots(pos: &BaoPosition, stop: &impl Fn() -> bool) -> Option<Vec<Root>> {
    let mut roots = Vec::new();
    if pos.is_over() {
        return Some(roots);
    }
    pos.for_each_child_until(stop, |mv, next, wins| {
        let score = if wins {
            WIN - 1
        } else {
            across(PASSES, evaluate(next))
        };
        roots.push(Root {
            mv,
            next: *next,
            score,
            bound: ScoreBound::Exact,
            depth: u8::from(wins),
        });
    })?;
    roots.sort_by_key(|r| std::cmp::Reverse(r.score));
    Some(roots)
}

/// The Bao search as the deepening drives it ([`Kernel`]): the root moves best first,
/// and what the last completed depth reported.
struct Bao<'k, 'a> {
    pos: &'k BaoPosition,
    worker: &'k mut Worker<'a>,
    roots: Vec<Root>,
    report: Analysis<BaoMove>,
    on_progress: &'k mut dyn FnMut(&Analysis<BaoMove>),
}

impl Kernel for Bao<'_, '_> {
    /// Checks every stop condition now (the first nodes of a depth might not).
    fn stopped(&mut self, _depth: u8) -> bool {
        self.worker.poll()
    }

    /// A win or loss is proven.
    fn settled(&self) -> bool {
        self.report.proven.is_some()
    }

    fn iterate(&mut self, depth: u8) -> bool {
        match iterate(self.worker, &self.roots, depth) {
            Some(next) => {
                self.roots = next;
                true
            }
            None => false,
        }
    }

    fn completed(&mut self, depth: u8) {
        let start = self.worker.clock.start;
        self.report = snapshot(self.pos, &self.roots, depth, self.worker, start);
        (self.on_progress)(&self.report);
    }
}

/// One depth of the root: principal variation search over the root moves in the order
/// of the previous depth. `None` when a limit stopped it.
fn iterate(worker: &mut Worker, roots: &[Root], depth: u8) -> Option<Vec<Root>> {
    let mut alpha = -INFINITY;
    let mut out = Vec::with_capacity(roots.len());
    for (i, r) in roots.iter().enumerate() {
        let child = |w: &mut Worker, lo: i32, hi: i32| {
            let b = Bounds { lo, hi }.across(PASSES);
            across(PASSES, w.search(&r.next, depth - 1, 1, b.lo, b.hi))
        };
        let full = |w: &mut Worker, alpha: i32| child(w, alpha, INFINITY);
        let (score, bound) = if i == 0 {
            (full(worker, alpha), ScoreBound::Exact)
        } else {
            let probe = child(worker, alpha, alpha + 1);
            if probe > alpha && !worker.stopped {
                let score = full(worker, alpha);
                let bound = if score > alpha {
                    ScoreBound::Exact
                } else {
                    ScoreBound::Upper
                };
                (score, bound)
            } else {
                (probe, ScoreBound::Upper)
            }
        };
        if worker.stopped {
            return None;
        }
        alpha = alpha.max(score);
        out.push(Root {
            score,
            bound,
            depth,
            ..*r
        });
    }
    out.sort_by_key(|r| (std::cmp::Reverse(r.score), r.bound != ScoreBound::Exact));
    Some(out)
}

/// What a root move's score proves: a decided score that is the value, or an upper bound
/// that is a loss.
fn proven(r: &Root) -> Option<Outcome> {
    match r.bound {
        ScoreBound::Exact => outcome(r.score),
        ScoreBound::Upper if r.score <= -DECIDED => outcome(r.score),
        ScoreBound::Upper => None,
    }
}

/// The analysis as the root moves stand after `depth`.
fn snapshot(
    pos: &BaoPosition,
    roots: &[Root],
    depth: u8,
    worker: &Worker,
    start: Instant,
) -> Analysis<BaoMove> {
    let turns: Vec<RootTurn<BaoMove>> = roots
        .iter()
        .map(|r| RootTurn {
            turn: r.mv,
            eval: r.score,
            bound: r.bound,
            depth: r.depth,
            proven: proven(r),
        })
        .collect();
    let (eval, proven) = match turns.first() {
        Some(t) => (t.eval, t.proven.filter(|_| t.bound == ScoreBound::Exact)),
        None => (score::lost_at(0), Some(Outcome::Lost { moves: 0 })),
    };
    Analysis {
        side: pos.side(),
        depth,
        eval,
        proven,
        pv: roots.first().map_or(Vec::new(), |r| line(worker, r, depth)),
        turns,
        nodes: worker.nodes,
        elapsed: start.elapsed(),
        report: ReportKind::Iteration,
    }
}

/// The best line: the root move, then the table's best moves while they are legal, at
/// most `depth` moves in all.
fn line(worker: &Worker, root: &Root, depth: u8) -> Vec<BaoMove> {
    let mut pv = vec![root.mv];
    let mut pos = root.next;
    while pv.len() < depth.max(1) as usize && !pos.is_over() {
        let Some(mv) = worker.table.probe(&pos, 0).and_then(|h| h.best) else {
            break;
        };
        let Ok((next, _)) = pos.try_play(mv) else {
            break;
        };
        pv.push(mv);
        pos = next;
    }
    pv
}
