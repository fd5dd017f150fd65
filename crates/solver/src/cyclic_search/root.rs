//! The root of the cyclic analysis: its turns (every sowing of the mover's turn), what
//! each iteration found of them, the proven interval of the root, and the [`Analysis`]
//! made of it.

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use kalah_core::{Game, Position};

use super::search::{Score, Searcher, NO_REP};
use super::step::RetroExact;
use crate::anytime::{
    aspirate, whole_turns, Analysis, Interval, ReportKind, RootTurn, ScoreBound, WholeTurn,
    Windowed,
};
use crate::line::{push_sowing, Turn};
use crate::score::{across, seed_bounds, Bounds};

/// Half the width of the window a root turn is first searched with, around its last
/// evaluation.
const ASPIRATION: i32 = 2;

/// A root turn: its sowings, the positions before each, the position after it, and what
/// the search knows of it (values for the root's mover).
pub(super) struct TurnState {
    sowings: Vec<usize>,
    path: Vec<Position>,
    pub(super) child: Position,
    eval: i32,
    depth: u8,
    /// Bounds for the root's claim (may rest on repetitions of the root's line).
    claim: (i32, i32),
    /// Proven bounds of the turn's own value.
    alone: (i32, i32),
    /// The line after the turn, as sowings.
    pv: Vec<u8>,
}

/// The root of an analysis: its turns and what is proven of it.
pub(super) struct RootState {
    pos: Position,
    pub(super) turns: Vec<TurnState>,
    pub(super) depth: u8,
    pub(super) lo: i32,
    pub(super) hi: i32,
    exact_pv: Option<Vec<Turn>>,
    /// The retrograde solver could not give the line of a value the search proved
    /// ([`RootState::complete_line`]): it is not asked again.
    no_line: bool,
    pub(super) nodes: u64,
    start: Instant,
}

impl RootState {
    pub(super) fn new(game: &Game, pos: &Position, start: Instant) -> RootState {
        let (lo, hi) = seed_bounds(pos);
        let turns = whole_turns(game, pos)
            .into_iter()
            .map(
                |WholeTurn {
                     sowings,
                     path,
                     child,
                 }| {
                    let same = child.side_to_move() == pos.side_to_move();
                    let b = Bounds::seeds(&child).across(same);
                    let b = (b.lo, b.hi);
                    TurnState {
                        sowings,
                        path,
                        child,
                        eval: 0,
                        depth: 0,
                        claim: b,
                        alone: b,
                        pv: Vec::new(),
                    }
                },
            )
            .collect();
        RootState {
            pos: *pos,
            turns,
            depth: 0,
            lo,
            hi,
            exact_pv: None,
            no_line: false,
            nodes: 0,
            start,
        }
    }

    /// One iteration to `depth`, every root turn searched to a value ([`search_turn`]),
    /// best first: false where a limit stopped it (its results are then dropped).
    pub(super) fn iterate(&mut self, searcher: &mut Searcher, depth: i32) -> bool {
        let mut results = Vec::with_capacity(self.turns.len());
        for t in &self.turns {
            let k = t.path.len();
            let same = t.child.side_to_move() == self.pos.side_to_move();
            let Some(s) = search_turn(searcher, t, depth, same) else {
                return false;
            };
            let alone = match s.rep {
                NO_REP => (s.lo, s.hi),
                _ => alone_bounds(searcher, &t.child),
            };
            let pv = searcher.pv[k][..searcher.pv_len[k]].to_vec();
            let alone = Bounds {
                lo: alone.0,
                hi: alone.1,
            }
            .across(same);
            results.push((s.across(same), (alone.lo, alone.hi), pv));
        }
        for (t, (s, alone, pv)) in self.turns.iter_mut().zip(results) {
            t.eval = s.value;
            t.depth = depth.clamp(0, 255) as u8;
            t.claim = (t.claim.0.max(s.lo), t.claim.1.min(s.hi));
            t.alone = (t.alone.0.max(alone.0), t.alone.1.min(alone.1));
            t.pv = pv;
        }
        // Best first; the next iteration searches them in this order.
        self.turns
            .sort_by_key(|t| std::cmp::Reverse((t.eval, t.alone.0)));
        let lo = self
            .turns
            .iter()
            .map(|t| t.claim.0)
            .max()
            .unwrap_or(self.lo);
        let hi = self
            .turns
            .iter()
            .map(|t| t.claim.1)
            .max()
            .unwrap_or(self.hi);
        self.lo = self.lo.max(lo);
        self.hi = self.hi.min(hi);
        true
    }

    /// Where the search closed the proven interval by itself, the line that replays to
    /// the value from the retrograde solver ([`super::step::exact_line`], beyond the
    /// analysis's limits: an exact answer must replay), or where its graph is too large,
    /// an interval one wider; nothing where the line is known or the interval open.
    pub(super) fn complete_line(&mut self, game: &Game, cancel: &AtomicBool) {
        if self.lo != self.hi || self.exact_pv.is_some() {
            return;
        }
        if !self.no_line {
            let children: Vec<Position> = self.turns.iter().map(|t| t.child).collect();
            if let Some(exact) = super::step::exact_line(game, &self.pos, cancel, &children) {
                debug_assert_eq!(exact.value, self.lo);
                self.set_exact(exact);
                return;
            }
            self.no_line = true;
        }
        // No line to show: the answer claims one seed less than was proved (a true
        // interval, never an exact value without a line that replays to it).
        self.hi = self.lo + 1;
    }

    /// Makes the analysis exact with the retrograde step's answer.
    pub(super) fn set_exact(&mut self, exact: RetroExact) {
        self.lo = exact.value;
        self.hi = exact.value;
        self.exact_pv = Some(exact.pv);
        for t in self.turns.iter_mut() {
            let known = exact.children.iter().find(|(c, _)| *c == t.child);
            if let Some(&(_, Some(v))) = known {
                let v = across(t.child.side_to_move() == self.pos.side_to_move(), v);
                t.eval = v;
                t.alone = (v, v);
                t.claim = (v, v);
            }
        }
        // The exact turns first, best first: the first of them keeps the root's value.
        self.turns
            .sort_by_key(|t| std::cmp::Reverse((t.alone.0 == t.alone.1, t.eval)));
        // The turn the exact line starts with leads.
        let first = self.exact_pv.as_ref().and_then(|pv| pv.first());
        let lead = first.and_then(|f| self.turns.iter().position(|t| t.sowings == f.sowings));
        if let Some(i) = lead {
            let t = self.turns.remove(i);
            self.turns.insert(0, t);
        }
    }

    /// What is known now.
    pub(super) fn analysis(&self, game: &Game) -> Analysis {
        let side = self.pos.side_to_move();
        let best = self.turns.first();
        let eval = match (self.lo == self.hi, best) {
            (true, _) => self.lo,
            (false, Some(t)) => t.eval.clamp(self.lo, self.hi),
            (false, None) => self.pos.store_margin().clamp(self.lo, self.hi),
        };
        let pv = match (&self.exact_pv, best) {
            (Some(pv), _) => pv.clone(),
            (None, Some(t)) if self.depth > 0 => line(game, &self.pos, t),
            _ => Vec::new(),
        };
        let turns = self
            .turns
            .iter()
            .map(|t| RootTurn {
                turn: Turn {
                    side,
                    sowings: t.sowings.clone(),
                },
                eval: t.eval,
                bound: ScoreBound::Exact,
                depth: t.depth,
                proven: Interval {
                    lower: t.alone.0,
                    upper: t.alone.1,
                },
            })
            .collect();
        Analysis {
            side,
            depth: self.depth,
            eval,
            proven: Interval {
                lower: self.lo,
                upper: self.hi,
            },
            pv,
            turns,
            nodes: self.nodes,
            elapsed: self.start.elapsed(),
            report: ReportKind::Iteration,
        }
    }
}

/// The search of root turn `t` to `depth` (from the root), from the mover after it:
/// with a window of [`ASPIRATION`] around its last evaluation ([`aspirate`]), so that
/// every turn's evaluation is a value, not a bound.
fn search_turn(searcher: &mut Searcher, t: &TurnState, depth: i32, same: bool) -> Option<Score> {
    const INF: i32 = 1000;
    let k = t.path.len();
    let guess = (t.depth > 0).then(|| across(same, t.eval));
    aspirate(guess, ASPIRATION, INF, |alpha, beta| {
        searcher.line.clear();
        searcher.line.extend_from_slice(&t.path);
        searcher.search(&t.child, depth - k as i32, alpha, beta, k)
    })
}

/// The intervals of the tries of one turn are all proofs for the line: they are
/// intersected.
impl Windowed for Score {
    fn value(&self) -> i32 {
        self.value
    }

    fn join(self, earlier: Score) -> Score {
        Score {
            lo: self.lo.max(earlier.lo),
            hi: self.hi.min(earlier.hi),
            rep: self.rep.min(earlier.rep),
            ..self
        }
    }
}

/// What is proven of `pos` alone: the seeds' bounds narrowed by the table (whose
/// intervals are path-independent).
fn alone_bounds(searcher: &Searcher, pos: &Position) -> (i32, i32) {
    let (mut lo, mut hi) = seed_bounds(pos);
    if let Some(e) = searcher.table.probe(&searcher.table.key(pos)) {
        let m = pos.store_margin();
        lo = lo.max(m + e.lo as i32);
        hi = hi.min(m + e.hi as i32);
    }
    (lo, hi)
}

/// The line of the root turn `t`: its sowings, then the search's line after it.
fn line(game: &Game, root: &Position, t: &TurnState) -> Vec<Turn> {
    let mut line = Vec::new();
    let mut pos = *root;
    let sowings = t
        .sowings
        .iter()
        .copied()
        .chain(t.pv.iter().map(|&m| m as usize));
    for m in sowings {
        if pos.is_over() || !game.legal_moves(&pos).contains(m) {
            break;
        }
        push_sowing(&mut line, pos.side_to_move(), m);
        pos = game.play_unchecked(&pos, m);
    }
    line
}
