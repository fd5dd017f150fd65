//! One node of the Bao search: depth-limited negamax with alpha-beta (principal variation
//! search), the table, move ordering (table move, winning moves, then the children's
//! evaluations), and the stop checks. Scores are for the side to move ([`super::score`]);
//! a move always passes the turn (its relays and captures are all part of it), so a
//! child's score and window cross to the parent as those of every search do where the
//! turn passes: [`crate::score::across`] and [`Bounds::across`] with `same_mover` false
//! ([`PASSES`]).

use kalah_core::bao::{BaoMove, BaoPosition, MAX_CANDIDATES};

use super::eval::evaluate;
use super::score::{lost_at, DECIDED, INFINITY, WIN};
use super::table::{Hit, Kind, Table};
use crate::anytime::Clock;
use crate::score::{across, Bounds};

/// The stop checks read the clock once in this many nodes.
const CLOCK_EVERY: u64 = 256;

/// A Bao move never leaves the same player to move: the `same_mover` of every crossing.
pub(crate) const PASSES: bool = false;

/// The mutable state of one analysis: the table, the counters and the stop conditions.
pub(crate) struct Worker<'a> {
    pub table: Table,
    pub nodes: u64,
    pub stopped: bool,
    /// The analysis's limits and cancel flag.
    pub clock: Clock<'a>,
}

/// The children of a node, in the order they are searched.
struct Children {
    list: [(BaoMove, BaoPosition, i32); MAX_CANDIDATES],
    len: usize,
}

impl<'a> Worker<'a> {
    /// A worker with a table of `2^bits` entries.
    pub fn new(bits: u32, clock: Clock<'a>) -> Worker<'a> {
        Worker {
            table: Table::new(bits),
            nodes: 0,
            stopped: false,
            clock,
        }
    }

    /// Whether a limit (nodes, time) or the cancel flag says stop; sets `stopped`.
    pub fn should_stop(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        let out_of_nodes = self.clock.out_of_nodes(self.nodes);
        let checks = self.nodes % CLOCK_EVERY == 1;
        let out_of_time = checks && self.clock.out_of_time();
        let cancelled = checks && self.clock.cancelled();
        self.stopped = out_of_nodes || out_of_time || cancelled;
        self.stopped
    }

    /// The stop test of one long expansion (a move whose relay runs for millions of
    /// sowings): the cancel flag and the time limit, read now and then by the generator.
    pub fn stop_test(&self) -> impl Fn() -> bool + 'a {
        let clock = self.clock;
        move || clock.cancelled() || clock.out_of_time()
    }

    /// Checks every stop condition now (before a depth, whose first nodes might not).
    pub fn poll(&mut self) -> bool {
        self.stopped |= self.clock.cancelled() || self.clock.out_of_time();
        self.should_stop()
    }

    /// The depth-limited value of `pos` (`ply` moves below the root) to `depth` more moves
    /// within the window (`alpha`, `beta`), fail-soft. A stopped search returns garbage
    /// that the caller must drop (it checks `stopped`).
    pub fn search(&mut self, pos: &BaoPosition, depth: u8, ply: u32, alpha: i32, beta: i32) -> i32 {
        if pos.is_over() {
            return lost_at(ply);
        }
        if depth == 0 {
            return evaluate(pos);
        }
        self.nodes += 1;
        if self.should_stop() {
            return 0;
        }
        let hit = self.table.probe(pos, ply);
        if let Some(score) = hit.and_then(|h| cutoff(h, depth, alpha, beta)) {
            return score;
        }
        let children = match self.children(pos, ply, hit.and_then(|h| h.best)) {
            Ok(children) => children,
            Err(score) => return score,
        };
        let (best, best_move) = self.children_loop(&children, depth, ply, alpha, beta);
        if self.stopped {
            return 0;
        }
        let kind = if best <= alpha {
            Kind::Upper
        } else if best >= beta {
            Kind::Lower
        } else {
            Kind::Exact
        };
        let best_move = Some(best_move);
        self.table.store(
            pos,
            ply,
            Hit {
                depth,
                score: best,
                kind,
                best: best_move,
            },
        );
        best
    }

    /// Principal variation search over the ordered children: the first with the full
    /// window, the others with a null window, searched again if they beat it.
    fn children_loop(
        &mut self,
        children: &Children,
        depth: u8,
        ply: u32,
        mut alpha: i32,
        beta: i32,
    ) -> (i32, BaoMove) {
        let mut best = -INFINITY;
        let mut best_move = children.list[0].0;
        for (i, (mv, next, _)) in children.list[..children.len].iter().enumerate() {
            let child = |w: &mut Worker<'a>, lo: i32, hi: i32| {
                let b = Bounds { lo, hi }.across(PASSES);
                across(PASSES, w.search(next, depth - 1, ply + 1, b.lo, b.hi))
            };
            let score = if i == 0 {
                child(self, alpha, beta)
            } else {
                let probe = child(self, alpha, alpha + 1);
                if probe > alpha && probe < beta && !self.stopped {
                    child(self, alpha, beta)
                } else {
                    probe
                }
            };
            if self.stopped {
                break;
            }
            if score > best {
                best = score;
                best_move = *mv;
            }
            alpha = alpha.max(score);
            if alpha >= beta {
                break;
            }
        }
        (best, best_move)
    }

    /// The node's children, ordered: the table's move first, then by the child's
    /// evaluation (best for the mover first). `Err` holds the node's decided score when a
    /// move wins at once (R7.1) or no move is legal (R7.4).
    fn children(
        &mut self,
        pos: &BaoPosition,
        ply: u32,
        first: Option<BaoMove>,
    ) -> Result<Children, i32> {
        let mut out = Children {
            list: [(first.unwrap_or_else(|| dummy_move(pos)), *pos, 0); MAX_CANDIDATES],
            len: 0,
        };
        let mut wins = false;
        let stop = self.stop_test();
        let expanded = pos.for_each_child_until(&stop, |mv, next, won| {
            wins |= won;
            let key = if Some(mv) == first {
                -INFINITY
            } else {
                evaluate(next)
            };
            out.list[out.len] = (mv, *next, key);
            out.len += 1;
        });
        if expanded.is_none() {
            // A long move outlasted the time limit or met Ctrl-C: the search is stopped
            // and its score (0 here) dropped by the caller.
            self.stopped = true;
            return Err(0);
        }
        if wins {
            let score = WIN - (ply as i32 + 1);
            let best = out.list[..out.len]
                .iter()
                .find(|c| c.1.is_over())
                .map(|c| c.0);
            self.table.store(
                pos,
                ply,
                Hit {
                    depth: u8::MAX,
                    score,
                    kind: Kind::Exact,
                    best,
                },
            );
            return Err(score);
        }
        if out.len == 0 {
            return Err(lost_at(ply));
        }
        out.list[..out.len].sort_by_key(|c| c.2);
        Ok(out)
    }
}

/// The score a table entry settles at this node, if it does: searched at least as deep
/// (or a proof, which holds at any depth), and exact or a bound outside the window.
fn cutoff(hit: Hit, depth: u8, alpha: i32, beta: i32) -> Option<i32> {
    let proof = match hit.kind {
        Kind::Exact => hit.score.abs() >= DECIDED,
        Kind::Lower => hit.score >= DECIDED,
        Kind::Upper => hit.score <= -DECIDED,
    };
    if hit.depth < depth && !proof {
        return None;
    }
    match hit.kind {
        Kind::Exact => Some(hit.score),
        Kind::Lower if hit.score >= beta => Some(hit.score),
        Kind::Upper if hit.score <= alpha => Some(hit.score),
        _ => None,
    }
}

/// A filler for the unused slots of [`Children::list`].
fn dummy_move(pos: &BaoPosition) -> BaoMove {
    BaoMove::from_loop_index(pos.side(), pos.pits(), 0, kalah_core::bao::Dir::Clockwise)
}
