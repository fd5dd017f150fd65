//! The anytime analysis over the exact search: iterative deepening of every root turn
//! with the heuristic evaluation at the leaves, each depth followed by null-window tests of
//! the exact search under a node budget, which narrow each turn's proven interval.
//!
//! **Why the bounds are proofs.** A turn's interval starts from what its seeds can reach
//! and narrows only by a completed exact search ([`EXACT_DEPTH`]) of the position after
//! it: such a search reads only exact table entries (a depth-limited entry has a depth far
//! below [`EXACT_DEPTH`], see [`Limits::MAX_DEPTH`]) and stores only what it completed (an
//! aborted search returns before any store). The root's interval is the maximum over its
//! turns; a test stopped by its budget is dropped, so it tells nothing.

use std::sync::atomic::{AtomicBool, Ordering::Relaxed};

use kalah_core::Position;

use super::manage::{MoveTimer, Progress};
use super::{
    deepen, whole_turns, Analysis, Clock, Kernel, Limits, ReportKind, RootTurn, ScoreBound, Ticker,
};
use crate::driver::principal_variation;
use crate::line::{push_sowing, push_turn, Turn};
use crate::score::{across, Bounds};
use crate::search::{Shared, DEEPENING_HINT_REACH, INF};
use crate::smp::{self, Context};
use crate::tt::EXACT_DEPTH;

/// The least node budget of the exact tests after one depth of the deepening (the budget
/// is otherwise a share of what that depth cost, see [`MAX_PROOF_SHIFT`]).
const MIN_PROOF_NODES: u64 = 1 << 12;

/// The exact tests after a depth get as many nodes as that depth cost while they narrow
/// the proven interval; each round that narrows nothing halves their share, down to
/// `1 >> MAX_PROOF_SHIFT` of the depth's cost, and the next that narrows it restores the
/// whole. Where the value is far out of reach of a proof (a full board), the deepening then
/// gets most of the time instead of half; where proofs progress, the split stays even.
const MAX_PROOF_SHIFT: u32 = 3;

/// One root turn and what is known of it, for the root's mover.
struct Line {
    turn: Turn,
    /// The position after the turn.
    child: Position,
    /// The child's mover is the root's mover (only where the turn ended the game).
    same: bool,
    /// The sowings of the turn (the depth it uses up).
    sowings: u8,
    eval: i32,
    /// Whether `eval` is a value or only an upper bound (a turn shown no better than the
    /// best ones with a null window).
    bound: ScoreBound,
    depth: u8,
    /// The proven interval: the value after this turn lies in `lo..=hi`.
    bounds: Bounds,
}

impl Line {
    fn is_exact(&self) -> bool {
        self.bounds.lo == self.bounds.hi
    }

    /// The evaluation inside the proven interval (the value, once exact).
    fn clamped(&self) -> i32 {
        self.eval.clamp(self.bounds.lo, self.bounds.hi)
    }
}

/// Every whole turn of the mover of `pos` ([`whole_turns`]), with the evaluation of the
/// position it leaves and the interval its seeds allow.
fn root_lines(ctx: &Context, pos: &Position) -> Vec<Line> {
    let side = pos.side_to_move();
    let lines = whole_turns(ctx.game, pos).into_iter().map(|t| {
        let child = t.child;
        let same = child.side_to_move() == side;
        let margin = child.store_margin();
        let reach = Bounds::seeds(&child);
        let eval = ctx.config.evaluation.score(&child, margin);
        Line {
            sowings: t.sowings.len().min(u8::MAX as usize) as u8,
            turn: Turn {
                side,
                sowings: t.sowings,
            },
            child,
            same,
            eval: across(same, eval),
            bound: ScoreBound::Exact,
            depth: 0,
            bounds: reach.across(same),
        }
    });
    lines.collect()
}

/// The sowing games' search as the deepening drives it ([`Kernel`]).
struct Sowing<'k, 'a, 't> {
    analyser: &'k mut Analyser<'a>,
    ticker: &'k mut Ticker<'t>,
    /// Exact tests under a budget after each depth (an analysis with limits); without,
    /// the tests come after the deepening, as in a solve.
    proofs: bool,
    /// The nodes searched before the current depth.
    before: u64,
}

impl Kernel for Sowing<'_, '_, '_> {
    fn stopped(&mut self, _depth: u8) -> bool {
        self.analyser.stopped()
    }

    fn settled(&self) -> bool {
        self.analyser.is_exact()
    }

    /// MTD(f) at the root where only the best turn is wanted under limits
    /// ([`Analyser::iterate_best`]), else every turn ([`Analyser::iterate`]).
    fn iterate(&mut self, depth: u8) -> bool {
        self.before = self.analyser.nodes();
        match self.proofs && self.analyser.lines_wanted == 1 {
            true => self.analyser.iterate_best(depth, self.ticker),
            false => self.analyser.iterate(depth, self.ticker),
        }
    }

    /// The depth reported itself; the exact tests follow, with a share of its cost.
    fn completed(&mut self, _depth: u8) {
        if self.proofs {
            let spent = self.analyser.nodes() - self.before;
            self.analyser.prove_after_depth(spent, self.ticker);
        }
    }

    fn timer(&self) -> Option<&MoveTimer> {
        self.analyser.timer
    }

    /// The best turn, its evaluation, the root's turns, and whether the best turn's
    /// proven lower bound reaches every other turn's upper bound.
    fn progress(&self) -> Option<Progress> {
        let lines = &self.analyser.lines;
        let best = lines.first()?;
        let key = best
            .turn
            .sowings
            .iter()
            .fold(17u64, |k, &s| k.wrapping_mul(31).wrapping_add(s as u64 + 1));
        let others = lines[1..].iter().map(|l| l.bounds.hi).max();
        Some(Progress {
            best: key,
            eval: best.clamped(),
            turns: lines.len(),
            decided: others.is_some_and(|hi| best.bounds.lo >= hi),
        })
    }
}

/// The state of one analysis.
pub(crate) struct Analyser<'a> {
    ctx: &'a Context<'a>,
    pos: Position,
    shared: Shared<'a>,
    /// The limits of the whole analysis.
    clock: Clock<'a>,
    lines: Vec<Line>,
    /// The root's proven interval.
    bounds: Bounds,
    /// The deepest completed depth.
    depth: u8,
    /// The exact principal variation, once found.
    exact_pv: Option<Vec<Turn>>,
    /// The next halving test comes from below (they alternate).
    next_from_below: bool,
    /// The turns evaluated with the full window at each depth (the others are only shown
    /// to be no better than these).
    lines_wanted: usize,
    /// The exact tests after a depth get its cost shifted right by this
    /// ([`MAX_PROOF_SHIFT`]).
    proof_shift: u32,
    /// The move's timer where the analysis plays on a clock ([`Analyser::on_clock`]).
    timer: Option<&'a MoveTimer>,
}

impl<'a> Analyser<'a> {
    pub(crate) fn new(
        ctx: &'a Context<'a>,
        pos: &Position,
        limits: &Limits,
        cancel: &'a AtomicBool,
    ) -> Analyser<'a> {
        let clock = Clock::start(limits, cancel);
        let mut shared = Shared::new(cancel);
        shared.deadline = clock.deadline;
        shared.node_stop.store(clock.node_limit, Relaxed);
        // The deepening of an analysis with limits reduces late quiet moves and follows
        // captures and extra turns past its horizon; without limits it deepens as the
        // solve does.
        shared.reductions = !limits.is_unbounded();
        shared.quiescence = !limits.is_unbounded();
        let bounds = Bounds::seeds(pos);
        let mut a = Analyser {
            ctx,
            pos: *pos,
            shared,
            clock,
            lines: if pos.is_over() {
                Vec::new()
            } else {
                root_lines(ctx, pos)
            },
            bounds,
            depth: 0,
            exact_pv: None,
            next_from_below: true,
            lines_wanted: usize::MAX,
            proof_shift: 0,
            timer: None,
        };
        a.narrow();
        a.rank();
        a
    }

    /// Evaluates only the `lines` best turns (at least one) with the full window at each
    /// depth (see [`crate::Solver::analyse_lines`]).
    pub(crate) fn lines(mut self, lines: usize) -> Analyser<'a> {
        self.lines_wanted = lines.max(1);
        self
    }

    /// Plays on a clock: the time manager ends the deepening by `timer`'s plan once its
    /// time has started (see [`crate::Solver::analyse_timed`]).
    pub(crate) fn on_clock(mut self, timer: Option<&'a MoveTimer>) -> Analyser<'a> {
        self.timer = timer;
        self
    }

    /// The analysis to `limits` (see [`crate::Solver::analyse`]).
    pub(crate) fn run(
        mut self,
        limits: &Limits,
        on_progress: &mut dyn FnMut(&Analysis),
    ) -> Analysis {
        self.ctx.table.new_generation();
        let ticker = &mut Ticker::new(on_progress, self.clock.start, self.snapshot());
        self.report(ReportKind::Iteration, ticker);
        let unbounded = limits.is_unbounded();
        let last = if unbounded {
            // As the proof of `solve`: the deepening of the configuration, then the
            // exact tests without a budget.
            let seeds = u8::try_from(self.pos.seeds_in_houses()).unwrap_or(u8::MAX);
            self.ctx.config.deepening.min(seeds).min(Limits::MAX_DEPTH)
        } else {
            limits.last_depth()
        };
        let mut kernel = Sowing {
            analyser: &mut self,
            ticker: &mut *ticker,
            proofs: !unbounded,
            before: 0,
        };
        deepen(&mut kernel, last);
        if unbounded {
            self.prove(u64::MAX, false, ticker);
        }
        self.finish()
    }

    /// The exact tests after a depth that cost `spent` nodes: a share of that (see
    /// [`MAX_PROOF_SHIFT`]), halved after each round that narrowed nothing.
    fn prove_after_depth(&mut self, spent: u64, ticker: &mut Ticker<'_>) {
        let was = self.bounds;
        let budget = (spent >> self.proof_shift).max(MIN_PROOF_NODES);
        self.prove(budget, true, ticker);
        self.proof_shift = if self.bounds != was {
            0
        } else {
            (self.proof_shift + 1).min(MAX_PROOF_SHIFT)
        };
    }

    /// The nodes searched so far.
    fn nodes(&self) -> u64 {
        self.shared.nodes.load(Relaxed)
    }

    fn is_exact(&self) -> bool {
        self.bounds.lo == self.bounds.hi
    }

    /// True once the caller cancelled or a limit of the whole analysis is reached.
    fn stopped(&self) -> bool {
        self.clock.reached(self.nodes())
    }

    /// One depth of the deepening over every root turn not yet exact; false (and nothing
    /// changed) where it was stopped before the end.
    ///
    /// The first [`Analyser::lines`] turns (best first from the depth before) get the full
    /// window. Each other turn is first tested with a null window against the worst of
    /// the evaluations of those (a turn no better gets its fail-soft upper bound: a far
    /// smaller search), and searched with the full window only where it is better.
    fn iterate(&mut self, depth: u8, ticker: &mut Ticker<'_>) -> bool {
        let mut evals = Vec::with_capacity(self.lines.len());
        // The evaluations of the turns searched whole, best first.
        let mut top: Vec<i32> = Vec::new();
        for line in &self.lines {
            if line.is_exact() {
                evals.push((line.bounds.lo, ScoreBound::Exact));
                continue;
            }
            let d = depth.saturating_sub(line.sowings);
            let mut search = |w: Bounds| self.search_line(line, d, w, &mut *ticker);
            let full = Bounds { lo: -INF, hi: INF };
            let v = match top.get(self.lines_wanted.saturating_sub(1)) {
                Some(&worst) => match search(Bounds {
                    lo: worst,
                    hi: worst + 1,
                }) {
                    Some(v) if v > worst => search(full),
                    bound => {
                        evals.extend(bound.map(|v| (v, ScoreBound::Upper)));
                        if bound.is_none() {
                            return false;
                        }
                        continue;
                    }
                },
                None => search(full),
            };
            let Some(v) = v else { return false };
            evals.push((v, ScoreBound::Exact));
            let at = top.partition_point(|&t| t >= v);
            top.insert(at, v);
        }
        for (line, (eval, bound)) in self.lines.iter_mut().zip(evals) {
            (line.eval, line.bound) = (eval, bound);
            line.depth = depth;
        }
        self.depth = depth;
        self.rank();
        self.report(ReportKind::Iteration, ticker);
        true
    }

    /// One depth of the deepening where only the best turn is wanted ([`Analyser::lines`]
    /// 1): MTD(f) over the root turns from the best evaluation of the depth before. A test
    /// "is the root's value at this depth at least `t`?" searches the turns best first
    /// with a null window and ends at the first that reaches `t`; the tests converge on
    /// the best turn's value in a few null-window searches, each far smaller than one with
    /// a wide window. Every other turn gets the least upper bound of its evaluation found
    /// (at most the best's), as in [`Analyser::iterate`]. False (and nothing changed) where
    /// it was stopped before the end.
    fn iterate_best(&mut self, depth: u8, ticker: &mut Ticker<'_>) -> bool {
        let full = Bounds { lo: -INF, hi: INF };
        // What is known of each turn's value at this depth, and of the root's.
        let mut known: Vec<Bounds> = self
            .lines
            .iter()
            .map(|l| if l.is_exact() { l.bounds } else { full })
            .collect();
        let mut root = full;
        let mut best = 0;
        let mut guess = self.lines.first().map_or(0, |l| l.eval);
        while root.lo < root.hi {
            let t = guess.clamp(root.lo + 1, root.hi);
            let Some(found) = self.reaches(depth, t, &mut known, ticker) else {
                // Stopped inside the depth: a turn shown better at it than the best of
                // the depth before goes first, though the depth is not complete.
                if best != 0 && known[0].hi < root.lo {
                    self.promote(best, ticker);
                }
                return false;
            };
            // The clamps keep the loop finite should a search contradict another (a
            // depth-limited value depends on what the table holds).
            match found {
                Some((i, v)) => {
                    best = i;
                    root.lo = v.min(root.hi).max(t);
                    guess = root.lo;
                }
                None => {
                    let hi = known.iter().map(|b| b.hi).max().unwrap_or(root.lo);
                    root.hi = hi.min(t - 1).max(root.lo);
                    guess = root.hi;
                }
            }
        }
        for (i, (line, k)) in self.lines.iter_mut().zip(&known).enumerate() {
            line.eval = if i == best {
                root.lo
            } else {
                k.hi.min(root.lo)
            };
            line.bound = match i == best || line.is_exact() {
                true => ScoreBound::Exact,
                false => ScoreBound::Upper,
            };
            line.depth = depth;
        }
        // The best turn first, before the turns that tie with it only by an upper bound.
        let line = self.lines.remove(best);
        self.lines.insert(0, line);
        self.depth = depth;
        self.rank();
        self.report(ReportKind::Iteration, ticker);
        true
    }

    /// Puts root turn `i` first, shown better than the first by an unfinished depth: its
    /// evaluation (that of a shallower search) rises to the first's, and the report says
    /// so; the depth reached stays the last complete one.
    /// Nothing changes where the proven interval of turn `i` lies below the first's
    /// evaluation.
    fn promote(&mut self, i: usize, ticker: &mut Ticker<'_>) {
        let first = self.lines[0].clamped();
        if self.lines[i].bounds.hi < first {
            return;
        }
        let mut line = self.lines.remove(i);
        line.eval = line.eval.max(first);
        self.lines.insert(0, line);
        self.report(ReportKind::Iteration, ticker);
    }

    /// Whether the root's value at `depth` is at least `t`, turn by turn, best first,
    /// narrowing `known` (each turn's bounds at this depth): the first turn that reaches
    /// `t` and its fail-soft score, `Some(None)` where none does, `None` where a search was
    /// stopped.
    fn reaches(
        &self,
        depth: u8,
        t: i32,
        known: &mut [Bounds],
        ticker: &mut Ticker<'_>,
    ) -> Option<Option<(usize, i32)>> {
        for (i, line) in self.lines.iter().enumerate() {
            let k = &mut known[i];
            if k.hi < t {
                continue;
            }
            if k.lo >= t {
                return Some(Some((i, k.lo)));
            }
            let d = depth.saturating_sub(line.sowings);
            let w = Bounds { lo: t - 1, hi: t };
            let v = self.search_line(line, d, w, &mut *ticker)?;
            if v >= t {
                k.lo = v.min(k.hi);
                return Some(Some((i, v)));
            }
            k.hi = v.max(k.lo);
        }
        Some(None)
    }

    /// The search of the position after `line` to `depth` sowings (or [`EXACT_DEPTH`])
    /// with the window `w` for the root's mover, its fail-soft score for that mover;
    /// `None` where it was stopped. The caller hears from the analysis about every
    /// [`Analysis::TICK`] meanwhile ([`ReportKind::Tick`]).
    fn search_line(
        &self,
        line: &Line,
        depth: u8,
        w: Bounds,
        ticker: &mut Ticker<'_>,
    ) -> Option<i32> {
        let w = w.across(line.same);
        let v = smp::search(
            self.ctx,
            &line.child,
            w.lo,
            w.hi,
            depth,
            &self.shared,
            &mut |_| ticker.tick(self.nodes()),
        );
        // Many short searches in a row tick too.
        ticker.tick(self.nodes());
        Some(across(line.same, v?))
    }

    /// Tells the caller what is known now, as a report of `kind`.
    fn report(&self, kind: ReportKind, ticker: &mut Ticker<'_>) {
        ticker.report(Analysis {
            report: kind,
            ..self.snapshot()
        });
    }

    /// Null-window tests of the exact search with `budget` nodes, until the root's
    /// interval closes, the budget is spent or a limit is reached. Each completed test of
    /// a turn narrows that turn's interval.
    ///
    /// With `halving`, the tests close in on the best evaluation from both ends of the
    /// interval in turn, each halfway from a bound to the evaluation: far from the value a
    /// proof is cheap, so the interval narrows step by step within any budget. Without,
    /// MTD(f) from the evaluation, as the proof of a solve: fewest tests where the budget
    /// does not matter.
    fn prove(&mut self, budget: u64, halving: bool, ticker: &mut Ticker<'_>) {
        let stop = self
            .nodes()
            .saturating_add(budget)
            .min(self.clock.node_limit);
        self.shared.node_stop.store(stop, Relaxed);
        let mut guess = self.lines.first().map_or(0, Line::clamped);
        while !self.is_exact() && !self.stopped() {
            let Bounds { lo, hi } = self.bounds;
            let test = if halving {
                let g = self.lines[0].clamped();
                let below = self.next_from_below;
                self.next_from_below = !below;
                if below {
                    lo + ((g - lo + 1) / 2).max(1)
                } else {
                    hi - (hi - g) / 2
                }
            } else if guess <= lo {
                lo + 1
            } else {
                guess
            }
            .clamp(lo + 1, hi);
            let near = (test - self.lines[0].eval).abs() <= DEEPENING_HINT_REACH;
            self.shared.deepening_hints.store(near, Relaxed);
            let Some(g) = self.test(test, ticker) else {
                break;
            };
            guess = g;
            self.report(ReportKind::Proof, ticker);
        }
        self.shared.node_stop.store(self.clock.node_limit, Relaxed);
    }

    /// Whether the root's value is at least `test` (in `lo + 1..=hi`), tested turn by
    /// turn, best first: the bound found (fail-soft), `None` where a search was stopped
    /// (the turns tested before keep what they proved).
    fn test(&mut self, test: i32, ticker: &mut Ticker<'_>) -> Option<i32> {
        let mut found = None;
        for i in 0..self.lines.len() {
            let line = &self.lines[i];
            if line.bounds.hi < test {
                continue;
            }
            let w = Bounds {
                lo: test - 1,
                hi: test,
            };
            let Some(v) = self.search_line(line, EXACT_DEPTH, w, &mut *ticker) else {
                self.narrow();
                self.rank();
                return None;
            };
            let b = &mut self.lines[i].bounds;
            // A proof never contradicts another (the clamps only guard the invariant).
            debug_assert!(if v >= test { v <= b.hi } else { v >= b.lo });
            if v >= test {
                b.lo = b.lo.max(v).min(b.hi);
                found = Some(v);
                break;
            }
            b.hi = b.hi.min(v).max(b.lo);
        }
        self.narrow();
        self.rank();
        Some(found.unwrap_or(self.bounds.hi))
    }

    /// The root's interval from its turns' (the value is the best turn's), and each
    /// turn's upper bound from the root's.
    fn narrow(&mut self) {
        if self.lines.is_empty() {
            return;
        }
        let lo = self.lines.iter().map(|l| l.bounds.lo).max().unwrap_or(-INF);
        let hi = self.lines.iter().map(|l| l.bounds.hi).max().unwrap_or(INF);
        self.bounds.lo = self.bounds.lo.max(lo);
        self.bounds.hi = self.bounds.hi.min(hi).max(self.bounds.lo);
        for l in &mut self.lines {
            l.bounds.hi = l.bounds.hi.min(self.bounds.hi).max(l.bounds.lo);
        }
    }

    /// Sorts the turns best first: by evaluation inside the proven interval, then by
    /// proven lower bound; turns that tie keep their order (the best of the depth first).
    fn rank(&mut self) {
        self.lines
            .sort_by_key(|l| std::cmp::Reverse((l.clamped(), l.bounds.lo)));
    }

    /// The principal variation where the value is exact (the search stopped only by
    /// `cancel`, not by the limits: the table holds the proof, so it is short), and the
    /// analysis as it stands.
    fn finish(mut self) -> Analysis {
        if self.is_exact() && !self.lines.is_empty() && !self.shared.cancel.load(Relaxed) {
            self.shared.node_stop.store(u64::MAX, Relaxed);
            self.shared.deadline = None;
            self.shared.done.store(false, Relaxed);
            self.exact_pv = self.exact_line();
        }
        Analysis {
            report: ReportKind::Final,
            ..self.snapshot()
        }
    }

    /// A line to the end of the game that keeps the exact value: the proved best turn,
    /// then [`principal_variation`] from the position it leaves; `None` if cancelled.
    fn exact_line(&self) -> Option<Vec<Turn>> {
        let value = self.bounds.lo;
        let line = self.lines.iter().find(|l| l.bounds.lo == value)?;
        let mut pv = vec![line.turn.clone()];
        if !line.child.is_over() {
            let target = across(line.same, value);
            let rest = principal_variation(self.ctx, &line.child, target, &self.shared);
            for t in rest.ok()? {
                push_turn(&mut pv, t);
            }
        }
        Some(pv)
    }

    /// The best turn followed by the moves the table stores after it (a heuristic line,
    /// at most `depth` sowings long).
    fn table_line(&self) -> Vec<Turn> {
        let Some(line) = self.lines.first() else {
            return Vec::new();
        };
        let mut pv = vec![line.turn.clone()];
        let mut pos = line.child;
        for _ in line.sowings..self.depth {
            if pos.is_over() {
                break;
            }
            let entry = self.ctx.table.probe(self.ctx.game.key(&pos));
            let Some(j) = entry.and_then(|e| e.best).map(usize::from) else {
                break;
            };
            if !pos.moves().any(|m| m == j) {
                break;
            }
            push_sowing(&mut pv, pos.side_to_move(), j);
            pos = self.ctx.game.play_unchecked(&pos, j);
        }
        pv
    }

    /// What is known now.
    fn snapshot(&self) -> Analysis {
        let best = self.lines.first();
        let eval = best.map_or(self.bounds.lo, |l| l.eval);
        Analysis {
            side: self.pos.side_to_move(),
            depth: self.depth,
            eval: eval.clamp(self.bounds.lo, self.bounds.hi),
            proven: self.bounds.into(),
            pv: self.exact_pv.clone().unwrap_or_else(|| self.table_line()),
            turns: self
                .lines
                .iter()
                .map(|l| RootTurn {
                    turn: l.turn.clone(),
                    eval: l.clamped(),
                    bound: l.bound,
                    depth: l.depth,
                    proven: l.bounds.into(),
                })
                .collect(),
            nodes: self.nodes(),
            elapsed: self.clock.start.elapsed(),
            report: ReportKind::Iteration,
        }
    }
}
