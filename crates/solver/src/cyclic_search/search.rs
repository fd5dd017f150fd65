//! The depth-limited negamax of the cyclic search: alpha-beta with its own table, the
//! cycle rule at repetitions of the searched line, and a proven interval beside every
//! heuristic value (see the module [`super`] for why the interval is a proof).

use std::sync::atomic::{AtomicU8, Ordering::Relaxed};

use kalah_core::{Game, Position};

use super::table::{blank, Kind, Slot, Table};
use crate::anytime::{Clock, Ticker};
use crate::db::egdb::Egdb;
use crate::eval::Evaluation;
use crate::score::{across, seed_bounds, Bounds};
use crate::search::quiesce;
use crate::search::reduce::late_reduction;

/// The deepest line the search follows, in sowings (the arrays below are this long).
pub(super) const MAX_PLY: usize = 128;

/// No repetition: the result does not depend on the line that led to the node.
pub(super) const NO_REP: u16 = u16::MAX;

/// The most sowings a position has (Ethiopian: every house in both directions).
const MAX_MOVES: usize = 2 * kalah_core::MAX_HOUSES;

/// What a node's search found, as final store margins for its mover.
#[derive(Clone, Copy, Debug)]
pub(super) struct Score {
    /// The heuristic value (fail-soft: a bound where it falls outside the window).
    pub(super) value: i32,
    /// Proven lower bound.
    pub(super) lo: i32,
    /// Proven upper bound.
    pub(super) hi: i32,
    /// The lowest ply of the line that a repetition below returned to, where it is above
    /// this node ([`NO_REP`] where none): the bounds are then proofs only for this line.
    pub(super) rep: u16,
}

/// Why the search stops: shared with the analysis.
pub(super) struct Stops<'a> {
    /// The analysis's limits and cancel flag.
    pub(super) clock: Clock<'a>,
    /// The retrograde step's state (`super::RETRO_EXACT` once it has the exact value).
    pub(super) retro: &'a AtomicU8,
}

/// One search: the table, the line being searched, move-ordering memory and counters.
pub(super) struct Searcher<'a> {
    pub(super) game: &'a Game,
    pub(super) eval: Evaluation,
    pub(super) table: Table,
    pub(super) stops: Stops<'a>,
    /// Positions of the current line, ply by ply (the root's turn included).
    pub(super) line: Vec<Position>,
    pub(super) pv: Vec<[u8; MAX_PLY]>,
    pub(super) pv_len: Vec<usize>,
    killers: Vec<u8>,
    history: [i32; MAX_MOVES],
    pub(super) nodes: u64,
    /// Leaves cut by the depth (zero: the tree of the iteration was complete).
    pub(super) horizon: u64,
    /// True while the iteration may be stopped by a limit (not the first).
    pub(super) stoppable: bool,
    pub(super) stopped: bool,
    /// The caller's progress reports and ticks.
    pub(super) ticker: Ticker<'a>,
    /// A finished database of the game: the positions it holds are exact leaves.
    pub(super) db: Option<&'a Egdb>,
    /// Heuristic leaves follow captures and extra turns ([`Searcher::quiesce`]).
    pub(super) quiescence: bool,
}

/// A child of a node: the sowing, the position, whether the same player moves again, and
/// its order key.
#[derive(Clone, Copy)]
struct Child {
    mv: u8,
    pos: Position,
    same: bool,
    /// No capture and no extra turn: at most one seed reached a store.
    quiet: bool,
    order: i32,
}

impl Score {
    /// This score seen from the parent's mover: the same where the same player moves
    /// again (an extra turn, or the end of the game after one), else negated (the sign
    /// flip of every search, [`across`] and [`Bounds::across`]).
    #[inline]
    pub(super) fn across(self, same: bool) -> Score {
        let b = Bounds {
            lo: self.lo,
            hi: self.hi,
        }
        .across(same);
        Score {
            value: across(same, self.value),
            lo: b.lo,
            hi: b.hi,
            rep: self.rep,
        }
    }
}

impl<'a> Searcher<'a> {
    pub(super) fn new(
        game: &'a Game,
        eval: Evaluation,
        table_bits: u32,
        stops: Stops<'a>,
        ticker: Ticker<'a>,
    ) -> Self {
        Searcher {
            game,
            eval,
            table: Table::new(game, table_bits),
            stops,
            line: Vec::with_capacity(MAX_PLY + 1),
            pv: vec![[0; MAX_PLY]; MAX_PLY + 1],
            pv_len: vec![0; MAX_PLY + 1],
            killers: vec![u8::MAX; MAX_PLY + 1],
            history: [0; MAX_MOVES],
            nodes: 0,
            horizon: 0,
            stoppable: false,
            stopped: false,
            ticker,
            db: None,
            quiescence: false,
        }
    }

    /// Counts a node and, every 1024, checks the limits and whether a progress tick is due:
    /// true where the search must stop.
    #[inline]
    fn count(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes & 1023 == 0 {
            if self.stoppable {
                self.stopped = self.limit_reached();
            }
            self.ticker.tick(self.nodes);
        }
        self.stopped
    }

    /// True where a limit, the cancel flag or the retrograde step's exact answer says to
    /// stop.
    pub(super) fn limit_reached(&self) -> bool {
        let s = &self.stops;
        s.clock.reached(self.nodes) || s.retro.load(Relaxed) == super::RETRO_EXACT
    }

    /// The ply of the line where `pos` (at `ply`) was seen before, if any. Only positions
    /// with the same seeds in the houses can repeat, and the seeds in the houses never
    /// grow along a line, so the scan stops at the first position with more.
    #[inline]
    fn repetition(&self, pos: &Position, ply: usize) -> Option<usize> {
        let level = pos.seeds_in_houses();
        (0..ply)
            .rev()
            .take_while(|&i| self.line[i].seeds_in_houses() == level)
            .find(|&i| self.line[i] == *pos)
    }

    /// The search of `pos` at `ply` to `depth` sowings, window `alpha..beta`, for its mover
    /// (`None` where a limit stopped it). `self.line` holds the plies before `ply`.
    pub(super) fn search(
        &mut self,
        pos: &Position,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
    ) -> Option<Score> {
        if self.count() {
            return None;
        }
        self.pv_len[ply] = 0;
        let m = pos.store_margin();
        if pos.is_over() {
            return Some(exact(m, NO_REP));
        }
        if let Some(v) = self.db.and_then(|d| d.probe(pos)) {
            // The database's value is the game's, whatever the line: an exact leaf.
            return Some(exact(v, NO_REP));
        }
        if let Some(i) = self.repetition(pos, ply) {
            // The cycle rule: play that goes on for ever leaves the margin standing.
            return Some(exact(m, i as u16));
        }
        let key = self.table.key(pos);
        let (mut lo, mut hi) = seed_bounds(pos);
        let mut tt_move = u8::MAX;
        if let Some(e) = self.table.probe(&key) {
            lo = lo.max(m + e.lo as i32);
            hi = hi.min(m + e.hi as i32);
            tt_move = e.mv;
            if let Some(v) = heuristic_cut(&e, depth, alpha, beta, m) {
                // A heuristic value from the table: the tree below is not followed.
                self.horizon += 1;
                return Some(Score {
                    value: v.clamp(lo, hi),
                    lo,
                    hi,
                    rep: NO_REP,
                });
            }
        }
        if lo == hi || lo >= beta || hi <= alpha {
            let value = if lo >= beta { lo } else { hi };
            return Some(Score {
                value,
                lo,
                hi,
                rep: NO_REP,
            });
        }
        if depth <= 0 || ply + 1 >= MAX_PLY {
            self.horizon += 1;
            let value = if self.quiescence {
                self.quiesce(pos, m, alpha, beta, 0)
            } else {
                self.eval.score(pos, m)
            };
            let value = value.clamp(lo, hi);
            return Some(Score {
                value,
                lo,
                hi,
                rep: NO_REP,
            });
        }
        self.line.truncate(ply);
        self.line.push(*pos);
        let score = self.children(pos, depth, alpha, beta, ply, tt_move, (lo, hi))?;
        self.store(key, m, depth, alpha, beta, &score, ply);
        Some(score)
    }

    /// Searches the children of `pos` (on the line at `ply`), best first, and joins
    /// their scores: the heuristic value by negamax, the proven interval over every
    /// child (the seeds' bounds for those a cutoff left unsearched).
    #[allow(clippy::too_many_arguments)]
    fn children(
        &mut self,
        pos: &Position,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        tt_move: u8,
        (lo, hi): (i32, i32),
    ) -> Option<Score> {
        let (kids, n) = self.ordered(pos, tt_move, ply);
        if n == 0 {
            // Not reached: a settled position that is not over has a move.
            let value = self.eval.score(pos, pos.store_margin()).clamp(lo, hi);
            return Some(Score {
                value,
                lo,
                hi,
                rep: NO_REP,
            });
        }
        let mut best = i32::MIN;
        let (mut plo, mut phi) = (i32::MIN, i32::MIN);
        let mut rep = NO_REP;
        let mut searched = 0;
        for kid in &kids[..n] {
            // Principal variation search: the first child with the window, the others
            // with a null window first, searched again where they beat it.
            let cut = late_reduction(searched, depth).filter(|_| kid.quiet);
            let mut s = match (searched, cut) {
                (0, _) => self.child(kid, depth, alpha, beta, ply)?,
                (_, Some(cut)) => self.child(kid, depth - cut, alpha, alpha + 1, ply)?,
                _ => self.child(kid, depth, alpha, alpha + 1, ply)?,
            };
            // Late quiet moves were first searched shallower (a heuristic saving: the
            // intervals of any search are proofs): again at full depth where they beat
            // the window.
            if s.value > alpha && cut.is_some() {
                s = self.child(kid, depth, alpha, alpha + 1, ply)?;
            }
            if searched > 0 && s.value > alpha && s.value < beta && alpha + 1 < beta {
                let again = self.child(kid, depth, alpha, beta, ply)?;
                // Both intervals are proofs (or both for this line): keep what both say.
                s = Score {
                    lo: s.lo.max(again.lo),
                    hi: s.hi.min(again.hi),
                    rep: s.rep.min(again.rep),
                    ..again
                };
            }
            searched += 1;
            plo = plo.max(s.lo);
            phi = phi.max(s.hi);
            rep = rep.min(s.rep);
            if s.value > best {
                best = s.value;
                self.set_pv(ply, kid.mv);
            }
            if best > alpha {
                alpha = best;
            }
            if alpha >= beta {
                self.killers[ply] = kid.mv;
                self.history[kid.mv as usize] += depth * depth;
                break;
            }
        }
        for kid in &kids[searched..n] {
            let b = Bounds::seeds(&kid.pos).across(kid.same);
            plo = plo.max(b.lo);
            phi = phi.max(b.hi);
        }
        let rep = if rep as usize >= ply { NO_REP } else { rep };
        Some(Score {
            value: best,
            lo: lo.max(plo),
            hi: hi.min(phi),
            rep,
        })
    }

    /// The search of a child in the window `alpha..beta` of the parent's mover, and its
    /// score seen from them.
    #[inline]
    fn child(
        &mut self,
        kid: &Child,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
    ) -> Option<Score> {
        let w = Bounds {
            lo: alpha,
            hi: beta,
        }
        .across(kid.same);
        Some(
            self.search(&kid.pos, depth - 1, w.lo, w.hi, ply + 1)?
                .across(kid.same),
        )
    }

    /// The children of `pos`, sown, in the order to search them: the table's move, the
    /// killer of the ply, then by the margin gained at once and the history of the move.
    fn ordered(&self, pos: &Position, tt_move: u8, ply: usize) -> ([Child; MAX_MOVES], usize) {
        let mut kids = [Child {
            mv: 0,
            pos: *pos,
            same: false,
            quiet: false,
            order: 0,
        }; MAX_MOVES];
        let mut n = 0;
        let m = pos.store_margin();
        for mv in self.game.legal_moves(pos) {
            let (c, _) = self.game.sow(pos, mv);
            let same = c.side_to_move() == pos.side_to_move();
            let gain = if same {
                c.store_margin() - m
            } else {
                -c.store_margin() - m
            };
            let order = match mv as u8 {
                x if x == tt_move => i32::MAX,
                x if x == self.killers[ply] => i32::MAX - 1,
                _ => gain * (1 << 20) + self.history[mv].min((1 << 19) - 1),
            };
            kids[n] = Child {
                mv: mv as u8,
                pos: c,
                same,
                quiet: !same && c.seeds_in_houses() + 1 >= pos.seeds_in_houses(),
                order,
            };
            n += 1;
        }
        kids[..n].sort_unstable_by_key(|k| std::cmp::Reverse(k.order));
        (kids, n)
    }

    fn set_pv(&mut self, ply: usize, mv: u8) {
        let len = self.pv_len[ply + 1].min(MAX_PLY - 1);
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        head[ply][0] = mv;
        head[ply][1..=len].copy_from_slice(&tail[0][..len]);
        self.pv_len[ply] = len + 1;
    }

    /// Stores a node's result. Where a repetition below returned above the node
    /// (`rep` set), its values hold for this line only: just the move is kept.
    #[allow(clippy::too_many_arguments)]
    fn store(
        &mut self,
        key: super::table::Key,
        m: i32,
        depth: i32,
        alpha: i32,
        beta: i32,
        s: &Score,
        ply: usize,
    ) {
        let mv = match self.pv_len[ply] {
            0 => u8::MAX,
            _ => self.pv[ply][0],
        };
        let mut slot = Slot { mv, ..blank(key) };
        if s.rep == NO_REP {
            slot.kind = match s.value {
                v if v <= alpha => Kind::Upper,
                v if v >= beta => Kind::Lower,
                _ => Kind::Exact,
            };
            slot.value = (s.value - m) as i16;
            slot.depth = depth as i16;
            slot.lo = (s.lo - m) as i16;
            slot.hi = (s.hi - m) as i16;
        }
        self.table.store(slot);
    }
}

/// An exact score.
#[inline]
fn exact(v: i32, rep: u16) -> Score {
    Score {
        value: v,
        lo: v,
        hi: v,
        rep,
    }
}

/// The heuristic value of a table entry (`m`: the position's store margin) where it is
/// deep enough and decides the window `alpha..beta`.
#[inline]
fn heuristic_cut(e: &Slot, depth: i32, alpha: i32, beta: i32, m: i32) -> Option<i32> {
    if (e.depth as i32) < depth {
        return None;
    }
    let v = m + e.value as i32;
    match e.kind {
        Kind::Exact => Some(v),
        Kind::Lower if v >= beta => Some(v),
        Kind::Upper if v <= alpha => Some(v),
        _ => None,
    }
}

impl Searcher<'_> {
    /// The heuristic value of a leaf `pos` (store margin `m`) for its mover within
    /// `alpha..beta` (fail-soft): the evaluation, or better where a capture or an extra
    /// turn reaches more ([`quiesce::is_noisy`], as in the sowing games' search), each
    /// followed the same way (the mover may always stop with the evaluation). Captures only
    /// take seeds out of the houses, so no line repeats. Never a bound: the caller keeps
    /// its proven interval.
    fn quiesce(&mut self, pos: &Position, m: i32, mut alpha: i32, beta: i32, ply: u32) -> i32 {
        let stand = self.eval.score(pos, m);
        if stand >= beta || ply >= quiesce::MAX_PLY {
            return stand;
        }
        let mut best = stand;
        alpha = alpha.max(stand);
        for j in pos.moves() {
            let child = self.game.play_unchecked(pos, j);
            let same = child.side_to_move() == pos.side_to_move();
            if !quiesce::is_noisy(m, &child, same) {
                continue;
            }
            let cm = child.store_margin();
            self.nodes += 1;
            let own = if child.is_over() {
                cm
            } else if let Some(v) = self.db.and_then(|d| d.probe(&child)) {
                v
            } else if same {
                self.quiesce(&child, cm, alpha, beta, ply + 1)
            } else {
                self.quiesce(&child, cm, -beta, -alpha, ply + 1)
            };
            let v = across(same, own);
            if v > best {
                best = v;
                alpha = alpha.max(v);
                if alpha >= beta {
                    break;
                }
            }
        }
        best
    }
}
