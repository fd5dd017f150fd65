//! The negamax search of one thread: fail-soft alpha-beta over copy-made positions.
//!
//! A node ([`Worker::search`]) answers from the game's end, the endgame database or the
//! seeds' reach where it can; otherwise it generates and orders its children
//! ([`moves`]), reads the table and settles the children whose value is already known
//! ([`probe`]), searches the rest in order, sharing them out between threads, and
//! stores what it proved.
//!
//! **Scores.** Every score in this module is a *final margin for the mover*: the mover's
//! final store minus the opponent's, counting the stores already banked. A sowing that
//! ends in the mover's store gives an extra turn, so the child has the same mover and a
//! score passes between parent and child as it is; any other sowing passes the turn and
//! the score is negated (a range `lo..=hi` becomes `-hi..=-lo`). That is decided in one
//! place for every kernel, [`across`] and [`Bounds::across`] ([`crate::score`]), used for
//! every score, window and bound that crosses a sowing.

mod moves;
mod probe;
pub(crate) mod quiesce;
pub(crate) mod reduce;
mod shared;

use std::ops::ControlFlow;
use std::sync::atomic::Ordering::Relaxed;
use std::time::{Duration, Instant};

use kalah_core::{Game, Position};

use crate::config::Config;
use crate::db::lookup::Lookup;
use crate::eval::Evaluation;
use crate::score::{across, Bounds};
use crate::tt::{Entry, Table, EXACT_DEPTH};
use moves::{Kid, MoveList};
pub(crate) use probe::DEEPENING_HINT_REACH;
use shared::Claim;
pub(crate) use shared::{Busy, Shared};

/// A score beyond any reachable margin.
pub(crate) const INF: i32 = 1000;

/// Nodes between two looks at the stop flags.
const POLL_MASK: u64 = 0x3ff;
/// Nodes between two looks at the stop flags under a deadline: a node that faults in a
/// fresh page of the table can take milliseconds, and the deadline should not wait for a
/// thousand of them.
const DEADLINE_POLL_MASK: u64 = 0x3f;

/// The depth of a child of a node searched `depth` sowings deep.
#[inline(always)]
fn next(depth: u8) -> u8 {
    if depth == EXACT_DEPTH {
        EXACT_DEPTH
    } else {
        depth - 1
    }
}

/// What a node knows before its children are searched.
struct Node {
    /// The table key.
    key: u64,
    /// The store margin (table entries are relative to it).
    margin: i32,
    /// Sowings left before the heuristic leaf, or [`EXACT_DEPTH`].
    depth: u8,
    /// The value's bounds: what the seeds can still reach, narrowed by the table.
    bounds: Bounds,
    /// An exact entry from an earlier window, whose bounds the store keeps.
    merge: Option<Entry>,
}

/// One search thread: owns its counters, shares the table and the flags.
pub(crate) struct Worker<'a> {
    pub(crate) game: &'a Game,
    pub(crate) tt: &'a Table,
    pub(crate) shared: &'a Shared<'a>,
    /// Nodes searched by this worker.
    pub(crate) nodes: u64,
    /// Nodes not yet added to the shared counter.
    unreported: u64,
    /// Set when a stop flag was seen: every score after that is meaningless.
    pub(crate) aborted: bool,
    /// Nodes between two looks at the stop flags.
    poll_mask: u64,
    /// Positions with at most this many seeds in the houses skip the table.
    small: i32,
    /// The evaluation at heuristic leaves.
    evaluation: Evaluation,
    /// Enhanced transposition cut-offs at positions with at least this many seeds.
    etc_min: i32,
    /// The endgame database.
    db: Option<Lookup<'a>>,
    /// The subtrees being searched by some thread (only with several threads).
    busy: Option<&'a Busy>,
    /// Threads share out siblings at positions with at least this many seeds.
    share_min: i32,
    /// Positions with at most this many seeds in the houses are in the database (-1: none).
    db_seeds: i32,
    /// Database hits not yet added to the shared counter.
    egdb_hits: u64,
    /// This pass follows the deepening's stored moves ([`DEEPENING_HINT_REACH`]).
    deepening_hints: bool,
    /// Late quiet children of depth-limited searches are reduced ([`Shared::reductions`]).
    reductions: bool,
    /// Heuristic leaves are searched on through extra turns and captures
    /// ([`Shared::quiescence`]).
    quiescence: bool,
    /// The caller's progress callback, where the worker searches on the caller's thread
    /// ([`Worker::ticking`]).
    ticks: Option<Ticks<'a>>,
}

/// A progress callback the worker calls itself, at most every `every`, when it looks at
/// the stop flags: the search runs on the caller's thread, so no other thread can.
struct Ticks<'a> {
    tick: &'a mut dyn FnMut(u64),
    every: Duration,
    next: Instant,
}

impl<'a> Worker<'a> {
    /// A worker that searches alone (see [`Worker::sharing`]).
    pub(crate) fn new(
        game: &'a Game,
        tt: &'a Table,
        shared: &'a Shared<'a>,
        db: Option<Lookup<'a>>,
        config: &Config,
    ) -> Worker<'a> {
        Worker {
            game,
            tt,
            shared,
            nodes: 0,
            unreported: 0,
            aborted: false,
            poll_mask: if shared.deadline.is_some() {
                DEADLINE_POLL_MASK
            } else {
                POLL_MASK
            },
            small: config.table_min_seeds as i32 - 1,
            evaluation: config.evaluation,
            etc_min: config.etc_min_seeds as i32,
            db,
            busy: None,
            share_min: config.share_min_seeds as i32,
            db_seeds: db.map_or(-1, |d| d.max_seeds() as i32),
            egdb_hits: 0,
            deepening_hints: shared.deepening_hints.load(Relaxed),
            reductions: shared.reductions,
            quiescence: shared.quiescence,
            ticks: None,
        }
    }

    /// Lets this worker, searching on the caller's thread, call `tick` with the shared
    /// node count about every `every` while it searches.
    pub(crate) fn ticking(mut self, tick: &'a mut dyn FnMut(u64), every: Duration) -> Worker<'a> {
        let next = Instant::now() + every;
        self.ticks = Some(Ticks { tick, every, next });
        self
    }

    /// Lets this worker share siblings with the other threads through `busy`.
    pub(crate) fn sharing(mut self, busy: &'a Busy) -> Worker<'a> {
        self.busy = Some(busy);
        self
    }

    /// Adds this worker's uncounted nodes to the shared counter.
    pub(crate) fn flush(&mut self) {
        self.shared.nodes.fetch_add(self.unreported, Relaxed);
        let hits = std::mem::take(&mut self.egdb_hits);
        self.shared.egdb_hits.fetch_add(hits, Relaxed);
        self.unreported = 0;
    }

    /// Counts a node and looks at the stop flags now and then; true once aborted.
    #[inline(always)]
    fn count_node(&mut self) -> bool {
        self.nodes += 1;
        self.unreported += 1;
        if self.unreported > self.poll_mask {
            self.flush();
            if self.shared.should_stop() {
                self.aborted = true;
            }
            self.tick_now_and_then();
        }
        self.aborted
    }

    /// Calls the caller's progress callback, if it has one and its time has come.
    #[cold]
    fn tick_now_and_then(&mut self) {
        if let Some(t) = &mut self.ticks {
            let now = Instant::now();
            if now >= t.next {
                t.next = now + t.every;
                (t.tick)(self.shared.nodes.load(Relaxed));
            }
        }
    }

    /// The database's relative value of `pos`, which it holds (at most `db_seeds` seeds
    /// in the houses, the game not over), whose entry is at `index`.
    #[inline(always)]
    fn db_value(&mut self, pos: &Position, index: u64) -> i32 {
        self.egdb_hits += 1;
        match self.db {
            Some(db) => db.value(pos, index),
            None => unreachable!(
                "no database holds {left} seeds",
                left = pos.seeds_in_houses()
            ),
        }
    }

    /// Fail-soft alpha-beta over `pos`, whose table key is `key`. `depth` is the number of
    /// sowings left before the heuristic leaf ([`Config::evaluation`]), or [`EXACT_DEPTH`] for a
    /// search to the end of the game. Returns a score `v` with: `v <= alpha` → the value is
    /// at most `v`; `v >= beta` → at least `v`; otherwise exactly `v` (for an exact search).
    pub(crate) fn search(
        &mut self,
        pos: &Position,
        key: u64,
        alpha: i32,
        beta: i32,
        depth: u8,
        ply: u32,
    ) -> i32 {
        if self.count_node() {
            return 0;
        }
        let margin = pos.store_margin();
        if pos.is_over() {
            return margin;
        }
        let left = pos.seeds_in_houses() as i32;
        if left <= self.db_seeds {
            // Held by the database (so there is one).
            let index = self.db.map_or(0, |db| db.index(pos, || key));
            return margin + self.db_value(pos, index);
        }
        // The seeds still in the houses decide the reachable range.
        let reach = Bounds::reach(margin, left);
        if reach.hi <= alpha {
            return reach.hi;
        }
        if reach.lo >= beta {
            return reach.lo;
        }
        if depth == 0 {
            if self.quiescence {
                return self.quiesce(pos, margin, alpha, beta, 0);
            }
            return self.evaluation.score(pos, margin);
        }

        let use_table = left > self.small;
        let mut list = MoveList::new();
        self.generate(pos, use_table, &mut list);
        let mut node = Node {
            key,
            margin,
            depth,
            bounds: reach,
            merge: None,
        };
        let asked = Bounds {
            lo: alpha,
            hi: beta,
        };
        let mut hint = None;
        if use_table {
            match self.probe_table(&mut node, asked) {
                ControlFlow::Break(v) => return v,
                ControlFlow::Continue(h) => hint = h,
            }
        }
        // The window narrowed to what the node can still reach.
        let window = Bounds {
            lo: asked.lo.max(node.bounds.lo),
            hi: asked.hi.min(node.bounds.hi),
        };
        let nodes0 = self.nodes;
        list.rank(hint);
        let probe_kids = use_table && left >= self.etc_min;
        if let ControlFlow::Break(v) = self.settle_kids(&mut list, depth, probe_kids, window) {
            return v;
        }

        let share = self.busy.is_some() && left >= self.share_min;
        let (best, best_move) = self.search_kids(&mut list, window, next(depth), ply, share);
        if self.aborted {
            return 0;
        }
        if use_table {
            self.store(&node, window, best, best_move, self.nodes - nodes0);
        }
        best
    }

    /// Searches the children in order with the (narrowed) `window` until one fails
    /// high; returns the best score for this node's mover and its move. Children are
    /// searched `depth` sowings deep.
    ///
    /// Simplified ABDADA (with `share`): a child after the first that another thread is
    /// searching right now is put off to a second pass, so the threads spread over the
    /// siblings instead of all walking the same subtree.
    #[inline(always)]
    fn search_kids(
        &mut self,
        list: &mut MoveList,
        mut window: Bounds,
        depth: u8,
        ply: u32,
        share: bool,
    ) -> (i32, u8) {
        let n = list.len();
        let mut best = -INF;
        let first = list.nth(0, false);
        let mut best_move = list.kids()[first].house;
        let mut deferred = 0u16;
        for pass in 0..2 {
            for i in 0..n {
                let k = list.nth(i, pass == 0 && i > 0);
                let kid = &list.kids()[k];
                if pass == 1 && deferred >> i & 1 == 0 {
                    continue;
                }
                // A settled child has no subtree to share out, and one below the table
                // (no key) a small one.
                let claim = share && pass == 0 && i > 0 && kid.tabled;
                let Some(v) = self.late_score(kid, window, depth, ply, claim, i) else {
                    deferred |= 1 << i;
                    continue;
                };
                if self.aborted {
                    return (0, best_move);
                }
                if v > best {
                    best = v;
                    best_move = kid.house;
                    if v > window.lo {
                        window.lo = v;
                        if window.lo >= window.hi {
                            return (best, best_move);
                        }
                    }
                }
            }
            if deferred == 0 {
                break;
            }
        }
        (best, best_move)
    }

    /// The score of `kid` for this node's mover: its known score, or a search with this
    /// node's `window`. With `claim`, an unsettled child is first claimed for this thread;
    /// `None` where another thread is searching it.
    #[inline(always)]
    fn kid_score(
        &mut self,
        kid: &Kid,
        window: Bounds,
        depth: u8,
        ply: u32,
        claim: bool,
    ) -> Option<i32> {
        if let Some(v) = kid.known {
            return Some(v);
        }
        let busy = self.busy.filter(|_| claim);
        let mine = match busy.map(|b| b.claim(kid.key)) {
            Some(Claim::Taken) => return None,
            Some(Claim::Mine) => busy,
            Some(Claim::Full) | None => None,
        };
        let w = window.across(kid.same_mover);
        let v = across(
            kid.same_mover,
            self.search(&kid.pos, kid.key, w.lo, w.hi, depth, ply + 1),
        );
        if let Some(b) = mine {
            b.release(kid.key);
        }
        Some(v)
    }

    /// Records what `node` proved: `best` searched with `window` (fail-soft), with the
    /// best move and the nodes spent, relative to the stores as they stand.
    #[inline(always)]
    fn store(&self, node: &Node, window: Bounds, best: i32, best_move: u8, spent: u64) {
        let mut proved = node.bounds;
        if best <= window.lo {
            proved.hi = best;
        } else if best >= window.hi {
            proved.lo = best;
        } else {
            proved = Bounds::exact(best);
        }
        if let Some(e) = node.merge {
            let kept = probe::entry_bounds(&e, node.margin);
            proved.lo = proved.lo.max(kept.lo);
            proved.hi = proved.hi.min(kept.hi);
        }
        self.tt.store(
            node.key,
            &Entry {
                lower: (proved.lo - node.margin) as i16,
                upper: (proved.hi - node.margin) as i16,
                best: Some(best_move),
                depth: node.depth,
                work: (64 - spent.leading_zeros()) as u8,
            },
        );
    }
}
