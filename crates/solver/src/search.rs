//! The negamax search of one thread: fail-soft alpha-beta over copy-made positions.
//!
//! **Scores.** Every score in this module is a *final margin for the mover*: the mover's
//! final store minus the opponent's, counting the stores already banked. A sowing that
//! ends in the mover's store gives an extra turn, so the child has the same mover and its
//! score is used as it is; any other sowing passes the turn and the child's score is
//! negated. That is decided in one place, [`Worker::child_score`].

use std::sync::atomic::Ordering::Relaxed;

use kalah_core::{Game, Position};

use crate::config::Config;
use crate::egdb::Egdb;
use crate::smp::{Busy, Claim};
use crate::stopdb::StopDb;
use crate::tt::{Entry, Table, EXACT_DEPTH};
use crate::Shared;

/// A score beyond any reachable margin.
pub(crate) const INF: i32 = 1000;

/// Most sowings a mover can have: one per house ([`kalah_core::MAX_HOUSES`]).
const MAX_MOVES: usize = kalah_core::MAX_HOUSES;

/// In the exact search, a move stored by the iterative deepening is tried first only where
/// that search still had at least this many sowings to go: the best move of a shallow
/// store-margin search is a worse guess than the static order (extra turns, captures). The
/// proof of Kalah(6,4) then needs 16% fewer nodes with empty capture (37.3 M -> 29.9-31.3 M,
/// 16-seed database, 2 threads), 9% fewer with standard capture (76.8 M -> 70.0 M), 25-30%
/// fewer with the 24-seed database, and `kalah bench` 7% fewer; Kalah(6,5) is unchanged
/// (873 M nodes). Ignoring every deepening move (only exact entries) was worse there:
/// 1.12 G nodes.
const HINT_MIN_DEPTH: u8 = 8;

/// An exact pass follows the moves the deepening stored (at nodes no exact pass has
/// stored yet) only where its window is at most this far from the deepening's guess. The
/// deepening's best moves are the strongest refutations near the guessed value; a proof far
/// from it has cheaper refutations, which fastest-first ordering finds. Kalah(6,4) empty
/// guesses 8 and proves 10 in a last pass at beta 11: without the deepening's moves there,
/// 23.1 M -> 20.3 M nodes (one thread, 16-seed file); Kalah(6,5) empty with the 28-seed
/// file, two threads: 200 M -> 166 M nodes (29.0 -> 22.7 s); `kalah bench` 3% fewer.
/// Standard capture (guess 7, last pass at beta 9) is unchanged; with a reach of 1 it
/// would lose those moves and grow 10% (57.6 M -> 63.4 M).
pub(crate) const DEEPENING_HINT_REACH: i32 = 2;

/// Fastest-first move ordering: among sowings that pass the turn, each sowing the
/// opponent then has costs half a seed banked, and each of those that lands in the
/// opponent's store (an extra turn, a second decision in the same turn) a quarter more
/// (the order counts 8 per seed). In a null-window proof the opponent's replies are the
/// branches that must all be refuted wherever this position is a cut-node, so a
/// refutation that leaves fewer of them makes a smaller proof. Nodes with the 16-seed
/// database, one thread: Kalah(6,4) empty 33.0 M -> 23.2 M, standard 78.9 M -> 54.6 M;
/// Kalah(6,5) empty with the 28-seed file, two threads: 217 M -> 149 M (57.4 s -> 37.3 s).
/// Weights 4/1, 3/2 and 4/0 were within 10% of these; 8/8 doubled the standard tree, and
/// steering away from (or towards) the opponent's captures was worse either way.
const MOBILITY_WEIGHT: i32 = 4;
/// See [`MOBILITY_WEIGHT`].
const LANDING_WEIGHT: i32 = 2;

/// Extra turns are ordered from this base (nearest the store first, plus
/// [`EXTRA_BANKED_WEIGHT`] per seed banked, minus [`EXTRA_MOBILITY_WEIGHT`] per sowing the
/// mover then has), on the scale of the other sowings' order (8 per seed banked): an
/// extra turn goes first unless another sowing banks about four seeds more (a capture),
/// and among extra turns the one that leaves the mover fewest sowings to choose from goes
/// first. Found by a coordinate search over these weights (nodes, one thread, against
/// always first, nearest the store first): Kalah(6,4) empty 20.30 M -> 19.68 M
/// (16-seed database), standard 44.69 M -> 41.73 M (17 seeds), `kalah bench` 4.00 M ->
/// 3.77 M. A base of 0 (extra turns among the captures) gave 27-58 M and 53-97 M; 16
/// and 64 were within 3%; a positive weight on the mover's sowings was worse (4: 25.5 M
/// and 61 M).
const EXTRA_TURN_ORDER: i32 = 32;
/// See [`EXTRA_TURN_ORDER`].
const EXTRA_BANKED_WEIGHT: i32 = 2;
/// See [`EXTRA_TURN_ORDER`].
const EXTRA_MOBILITY_WEIGHT: i32 = 2;

/// Nodes between two looks at the stop flags.
const POLL_MASK: u64 = 0x3ff;

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
    /// Positions with at most this many seeds in the houses skip the table.
    small: i32,
    /// Enhanced transposition cut-offs at positions with at least this many seeds.
    etc_min: i32,
    egdb: Option<&'a Egdb>,
    /// Under the early stop, the database that reads the stores.
    stopdb: Option<&'a StopDb>,
    /// The subtrees being searched by some thread (only with several threads).
    busy: Option<&'a Busy>,
    /// Threads share out siblings at positions with at least this many seeds.
    share_min: i32,
    /// Positions with at most this many seeds in the houses are in the database (-1: none).
    egdb_seeds: i32,
    /// The table key is the position's database index ([`Game::key_is_rank`]).
    rank_keys: bool,
    /// Database hits not yet added to the shared counter.
    egdb_hits: u64,
    /// This pass follows the deepening's stored moves ([`DEEPENING_HINT_REACH`]).
    deepening_hints: bool,
}

impl<'a> Worker<'a> {
    pub(crate) fn new(
        game: &'a Game,
        tt: &'a Table,
        shared: &'a Shared<'a>,
        egdb: Option<&'a Egdb>,
        stopdb: Option<&'a StopDb>,
        config: &Config,
    ) -> Worker<'a> {
        Worker {
            game,
            tt,
            shared,
            nodes: 0,
            unreported: 0,
            aborted: false,
            small: config.table_min_seeds as i32 - 1,
            etc_min: config.etc_min_seeds as i32,
            egdb,
            stopdb,
            busy: None,
            share_min: config.share_min_seeds as i32,
            egdb_seeds: egdb
                .map(|d| d.max_seeds())
                .or(stopdb.map(|d| d.max_seeds()))
                .map_or(-1, |k| k as i32),
            rank_keys: game.key_is_rank(),
            egdb_hits: 0,
            deepening_hints: shared.deepening_hints.load(Relaxed),
        }
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

    /// The database's relative value of `pos` (key `key`), which it holds (at most
    /// `egdb_seeds` seeds in the houses, the game not over).
    #[inline]
    fn db_value(&self, pos: &Position, key: u64) -> i32 {
        match (self.egdb, self.stopdb) {
            (Some(db), _) if self.rank_keys => db.value_at(key),
            (Some(db), _) => db.relative_value(pos),
            (None, Some(db)) => db.relative_value(pos),
            (None, None) => unreachable!(
                "no database holds {left} seeds",
                left = pos.seeds_in_houses()
            ),
        }
    }

    /// The score of `child` (key `key`) for the mover of `parent`, searched with the
    /// parent's window. The one place where an extra turn keeps the sign and a passed turn
    /// negates it.
    #[inline]
    #[allow(clippy::too_many_arguments)]
    fn child_score(
        &mut self,
        parent: &Position,
        child: &Position,
        key: u64,
        alpha: i32,
        beta: i32,
        depth: u8,
        ply: u32,
    ) -> i32 {
        if child.side_to_move() == parent.side_to_move() {
            self.search(child, key, alpha, beta, depth, ply + 1)
        } else {
            -self.search(child, key, -beta, -alpha, depth, ply + 1)
        }
    }

    /// Fail-soft alpha-beta over `pos`, whose table key is `key`. `depth` is the number of
    /// sowings left before the heuristic leaf (the store margin), or [`EXACT_DEPTH`] for a
    /// search to the end of the game. Returns a score `v` with: `v <= alpha` → the value is
    /// at most `v`; `v >= beta` → at least `v`; otherwise exactly `v` (for an exact search).
    pub(crate) fn search(
        &mut self,
        pos: &Position,
        key: u64,
        mut alpha: i32,
        mut beta: i32,
        depth: u8,
        ply: u32,
    ) -> i32 {
        self.nodes += 1;
        self.unreported += 1;
        if self.unreported > POLL_MASK {
            self.flush();
            if self.shared.should_stop() {
                self.aborted = true;
            }
        }
        if self.aborted {
            return 0;
        }

        let margin = pos.store_margin();
        if pos.is_over() {
            return margin;
        }
        // The seeds still in the houses decide the reachable range.
        let left = pos.seeds_in_houses() as i32;
        if left <= self.egdb_seeds {
            self.egdb_hits += 1;
            return margin + self.db_value(pos, key);
        }
        let (mut lower, mut upper) = (margin - left, margin + left);
        if upper <= alpha {
            return upper;
        }
        if lower >= beta {
            return lower;
        }
        if depth == 0 {
            return margin;
        }

        let use_table = left > self.small;

        // Generate and order the children: the table's move, extra turns (unless a capture
        // banks much more; those leaving the mover fewest sowings first, see
        // [`EXTRA_TURN_ORDER`]), then by what the sowing banks at once (captures, store
        // seeds) less what it leaves the opponent to answer ([`MOBILITY_WEIGHT`]), then
        // nearest the store first.
        // Only the slots of actual children are written: filling all eight (512 bytes) at
        // every node cost 6-7% of the search time.
        let mut kid_slots = [std::mem::MaybeUninit::<Kid>::uninit(); MAX_MOVES];
        // The search order: `order << 4 | index in kids`, the best of the rest selected as
        // the search goes (at a cut-node the first child is usually the only one).
        let mut rank = [0u32; MAX_MOVES];
        let mut orders = [0i32; MAX_MOVES];
        let mut n = 0;
        // The children that use the table.
        let mut tabled = 0u32;
        for j in pos.moves() {
            let child = self.game.play_unchecked(pos, j);
            let same = child.side_to_move() == pos.side_to_move();
            let banked = if same {
                child.store_margin()
            } else {
                -child.store_margin()
            } - margin;
            // Among sowings that bank the same, the house nearest the store goes first: it
            // disturbs the fewest of the mover's other houses (a tenfold smaller tree on
            // Kalah(6,3) than the reverse order).
            let order = if same {
                // See EXTRA_TURN_ORDER.
                EXTRA_TURN_ORDER + j as i32 + EXTRA_BANKED_WEIGHT * banked
                    - EXTRA_MOBILITY_WEIGHT * child.moves().len() as i32
            } else {
                // Fastest first (see MOBILITY_WEIGHT).
                8 * banked + j as i32
                    - MOBILITY_WEIGHT * child.moves().len() as i32
                    - LANDING_WEIGHT * child.store_landings().len() as i32
            };
            // A child the database holds is answered from it, not the table: where the key
            // is the database index, its entry is fetched now.
            let child_seeds = child.seeds_in_houses() as i32;
            let in_db = child_seeds <= self.egdb_seeds;
            let child_key = match (self.egdb, self.stopdb) {
                (Some(db), _) if in_db && self.rank_keys => {
                    let key = self.game.key(&child);
                    db.prefetch(key);
                    key
                }
                // Under the early stop: the index of its database entry.
                (None, Some(db)) if in_db && !child.is_over() => {
                    let index = db.index(&child);
                    db.prefetch(index);
                    index
                }
                // A child that skips the table needs no key.
                _ if use_table && !in_db && child_seeds > self.small => {
                    tabled |= 1 << n;
                    self.game.key(&child)
                }
                _ => 0,
            };
            kid_slots[n] = std::mem::MaybeUninit::new(Kid {
                house: j as u8,
                in_db,
                key: child_key,
                known: None,
                pos: child,
            });
            orders[n] = order;
            n += 1;
        }

        // SAFETY: the first `n` slots were written above.
        let kids: &mut [Kid] =
            unsafe { std::slice::from_raw_parts_mut(kid_slots.as_mut_ptr() as *mut Kid, n) };
        // Their buckets are fetched now, after all the sowings.
        for (i, kid) in kids.iter().enumerate() {
            if tabled >> i & 1 != 0 {
                self.tt.prefetch(kid.key);
            }
        }
        // The table is read only now, so that its entry (prefetched by the parent) had the
        // sowings above to arrive.
        let mut hint = None;
        let mut merge = None;
        if use_table {
            if let Some(e) = self.tt.probe(key) {
                // The exact search takes the move of an exact entry, and the deepening's
                // from enough depth while the pass is near its guess.
                if depth != EXACT_DEPTH
                    || e.depth == EXACT_DEPTH
                    || (e.depth >= HINT_MIN_DEPTH && self.deepening_hints)
                {
                    hint = e.best;
                }
                if e.depth >= depth {
                    lower = lower.max(e.lower as i32 + margin);
                    upper = upper.min(e.upper as i32 + margin);
                    if lower >= beta || upper <= alpha || lower == upper {
                        return if lower >= beta { lower } else { upper };
                    }
                    if depth == EXACT_DEPTH {
                        // Exact bounds from earlier windows stay true: keep the tighter pair.
                        merge = Some(e);
                    }
                }
            }
        }
        alpha = alpha.max(lower);
        beta = beta.min(upper);
        let alpha0 = alpha;
        let nodes0 = self.nodes;
        for (i, &order) in orders[..n].iter().enumerate() {
            let order = if hint == Some(kids[i].house) {
                1024
            } else {
                order
            };
            rank[i] = ((order + 4096) as u32) << 4 | i as u32;
        }
        select_best(&mut rank[..n], 0);

        // Children settled here (the game is over, the database holds them, or the table
        // pins their value or bounds them at most alpha) are not searched: their score for
        // this position's mover goes in `known`.
        // Enhanced transposition cut-offs: a child whose known value or stored bound
        // already refutes the window ends the search before any child is searched; so does
        // a set of children whose upper bounds are all known and all at most alpha. The
        // table is probed for that only at positions with at least `etc_min` seeds.
        let probe_kids = use_table && left >= self.etc_min;
        let mut all_known = true;
        let mut max_upper = -INF;
        for (i, kid) in kids.iter_mut().enumerate() {
            let same = kid.pos.side_to_move() == pos.side_to_move();
            let child_margin = kid.pos.store_margin();
            // Bounds of the child's value for its own mover.
            let (lo, hi) = if kid.pos.is_over() {
                (child_margin, child_margin)
            } else if kid.in_db {
                self.egdb_hits += 1;
                let v = child_margin
                    + match self.stopdb {
                        Some(db) if self.egdb.is_none() => db.value_at(kid.key),
                        _ => self.db_value(&kid.pos, kid.key),
                    };
                (v, v)
            } else if probe_kids && tabled >> i & 1 != 0 {
                match self.tt.probe(kid.key) {
                    Some(e) if e.depth >= depth.saturating_sub(1) || e.depth == EXACT_DEPTH => {
                        (e.lower as i32 + child_margin, e.upper as i32 + child_margin)
                    }
                    _ => {
                        all_known = false;
                        continue;
                    }
                }
            } else {
                all_known = false;
                continue;
            };
            // The same bounds for this position's mover.
            let (lo, hi) = if same { (lo, hi) } else { (-hi, -lo) };
            if lo == hi {
                kid.known = Some(lo);
            } else if hi <= alpha {
                // Searching it would return this bound at once.
                kid.known = Some(hi);
            }
            if lo >= beta {
                return lo;
            }
            max_upper = max_upper.max(hi);
        }
        if all_known && max_upper <= alpha {
            return max_upper;
        }

        let next = if depth == EXACT_DEPTH {
            EXACT_DEPTH
        } else {
            depth - 1
        };
        let mut best = -INF;
        let mut best_move = kids[(rank[0] & 15) as usize].house;
        // Simplified ABDADA: with several threads, a child (after the first) that another
        // thread is searching right now is put off to a second pass, so the threads spread
        // over the siblings instead of all walking the same subtree.
        let share = self.busy.is_some() && left >= self.share_min;
        let mut deferred = 0u16;
        for pass in 0..2 {
            for i in 0..n {
                if pass == 0 && i > 0 {
                    select_best(&mut rank[..n], i);
                }
                let kid = &kids[(rank[i] & 15) as usize];
                if pass == 1 && deferred >> i & 1 == 0 {
                    continue;
                }
                let mut marked = false;
                // A settled child has no subtree to share out, and one below the table
                // (no key) a small one.
                if share
                    && pass == 0
                    && i > 0
                    && kid.known.is_none()
                    && tabled >> (rank[i] & 15) & 1 != 0
                {
                    if let Some(busy) = self.busy {
                        match busy.claim(kid.key) {
                            Claim::Taken => {
                                deferred |= 1 << i;
                                continue;
                            }
                            Claim::Mine => marked = true,
                            Claim::Full => {}
                        }
                    }
                }
                let v = match kid.known {
                    Some(v) => v,
                    None => self.child_score(pos, &kid.pos, kid.key, alpha, beta, next, ply),
                };
                if marked {
                    if let Some(busy) = self.busy {
                        busy.release(kid.key);
                    }
                }
                if self.aborted {
                    return 0;
                }
                if v > best {
                    best = v;
                    best_move = kid.house;
                    if v > alpha {
                        alpha = v;
                        if alpha >= beta {
                            deferred = 0;
                            break;
                        }
                    }
                }
            }
            if deferred == 0 {
                break;
            }
        }
        if !use_table {
            return best;
        }

        // Record what was proved, relative to the stores as they stand.
        let (mut lo, mut hi) = (lower, upper);
        if best <= alpha0 {
            hi = best;
        } else if best >= beta {
            lo = best;
        } else {
            lo = best;
            hi = best;
        }
        if let Some(e) = merge {
            lo = lo.max(e.lower as i32 + margin);
            hi = hi.min(e.upper as i32 + margin);
        }
        let spent = self.nodes - nodes0;
        self.tt.store(
            key,
            &Entry {
                lower: (lo - margin) as i16,
                upper: (hi - margin) as i16,
                best: Some(best_move),
                depth,
                work: (64 - spent.leading_zeros()) as u8,
            },
        );
        best
    }
}

/// A child in the move list.
#[derive(Clone, Copy)]
struct Kid {
    house: u8,
    /// The child is in the endgame database (then `key` is its index there where the
    /// keys are ranks, its entry's index in the early stop's database under the early
    /// stop, else not computed). Outside it, `key` is computed only where the child uses
    /// the table (0 otherwise).
    in_db: bool,
    key: u64,
    /// The child's score for the parent's mover, where it needs no search: exact (the game
    /// is over, the database or an exact table entry) or an upper bound at most alpha.
    known: Option<i32>,
    pos: Position,
}

/// Moves the largest of `rank[i..]` to `rank[i]`.
#[inline(always)]
fn select_best(rank: &mut [u32], i: usize) {
    let mut m = i;
    for k in i + 1..rank.len() {
        m = if rank[k] > rank[m] { k } else { m };
    }
    rank.swap(i, m);
}
