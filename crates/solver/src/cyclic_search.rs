//! Anytime analysis of the families whose positions repeat (Ethiopian Kalah, Oware) on
//! boards whose game graph is too large for the retrograde solver: an iterative-deepening
//! negamax that applies the cycle rule to repetitions of the searched line, beside a
//! bounded retrograde solve of the position that, where it finishes, makes the answer
//! exact.
//!
//! **Values.** Every value is a final store margin for the mover of its position, as in
//! [`crate::retro`]. A repetition of a position of the current line scores its store
//! margin: the cycle rule (docs/cyclic.md), play that goes on for ever leaves the margin
//! standing. A leaf cut by the depth scores [`Evaluation::score`].
//!
//! **Proven intervals.** Beside its heuristic value every node gets an interval
//! `lo..=hi`: at a game end the margin; at a leaf the seeds' bounds (margin ± the seeds
//! in the houses) narrowed by the table; at a repetition the margin; inside, the negamax
//! of the children's intervals over *every* child (those a cutoff skipped count with
//! their seeds' bounds). Seen from the root, this is the negamax of a finite tree whose
//! leaves are true bounds or repetitions, and such a tree bounds the value: a player who
//! can force at least `t` in the tree can force it in the game by playing the tree's
//! strategy and, on a repetition, going on as at its first occurrence; play that then
//! never ends keeps the margin of the repetition, which the tree counted. So the root's
//! interval is a proof.
//!
//! **The graph-history interaction.** Below the root that argument fails: a node whose
//! subtree returned to a position *above* it was scored for this line only. The search
//! reports the highest ply a repetition below returned to; where that is above the node,
//! the node's values go into no table entry (only its best move does), and a root turn's
//! own interval falls back to what is known of it alone. Everything the table holds is
//! therefore path-independent: its proven intervals are proofs whatever the line, and
//! its heuristic values are those of an ordinary depth-limited search. Heuristic values
//! along a line may still be approximate (a repetition's margin stands for a cycle that
//! the players might not choose); proven intervals never are.
//!
//! **Exact values.** A retrograde solve ([`crate::retro::Retro`]) of the position runs on
//! a thread of its own, with a graph of bounded size (from the memory, and from the node
//! limit) and until the time limit; where it finishes the answer is exact, with its
//! principal variation and the exact value of every root turn. The search alone is exact
//! where its interval closes (a tree whose leaves are all game ends, repetitions or exact
//! entries).

mod search;
mod table;

use std::sync::atomic::{AtomicBool, AtomicU8, Ordering::Relaxed};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

use kalah_core::{Game, Position};

use crate::anytime::{Analysis, Limits, RootTurn};
use crate::error::SolveError;
use crate::eval::Evaluation;
use crate::line::{push_sowing, Turn};
use crate::retro::{Retro, BYTES_PER_POSITION};
use search::{across, seed_bounds, Score, Searcher, Stops, MAX_PLY, NO_REP};

/// The retrograde step is still running.
const RETRO_RUNNING: u8 = 0;
/// The retrograde step has the exact value.
const RETRO_EXACT: u8 = 1;
/// The retrograde step stopped without it (graph too large, cancelled, or off).
const RETRO_FAILED: u8 = 2;

/// Half the width of the window a root turn is first searched with, around its last
/// evaluation.
const ASPIRATION: i32 = 2;

/// The most positions of the retrograde step's graph with a depth limit only.
const DEPTH_ONLY_POSITIONS: u64 = 2_000_000;

/// How an analysis of a cyclic family runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CyclicSettings {
    /// The leaf evaluation of the depth-limited search.
    pub evaluation: Evaluation,
    /// Memory for the retrograde step's graph, in bytes: `None` chooses it from the
    /// memory available and the limits, `Some(0)` leaves the step out.
    pub retro_memory: Option<u64>,
    /// The search's table holds `2^table_bits` entries.
    pub table_bits: u32,
}

impl Default for CyclicSettings {
    fn default() -> CyclicSettings {
        CyclicSettings {
            evaluation: Evaluation::default(),
            retro_memory: None,
            table_bits: 20,
        }
    }
}

/// Analyses `pos` of a cyclic family ([`kalah_core::Family::is_cyclic`]) within `limits`
/// with the leaf evaluation `evaluation` and the retrograde step sized automatically; see
/// [`analyse_cyclic_with`].
pub fn analyse_cyclic(
    game: &Game,
    evaluation: Evaluation,
    pos: &Position,
    limits: &Limits,
    cancel: &AtomicBool,
    on_progress: &mut dyn FnMut(&Analysis),
) -> Result<Analysis, SolveError> {
    let settings = CyclicSettings {
        evaluation,
        ..CyclicSettings::default()
    };
    analyse_cyclic_with(game, &settings, pos, limits, cancel, on_progress)
}

/// Analyses `pos` of a cyclic family within `limits` (see the module doc): deepens the
/// search one sowing at a time, reporting through `on_progress` after each completed
/// depth, while the retrograde step runs beside it. It stops at the first limit, at the
/// exact value, or when `cancel` is set, and returns what is known then (the first depth
/// always completes, so there is a best turn).
pub fn analyse_cyclic_with(
    game: &Game,
    settings: &CyclicSettings,
    pos: &Position,
    limits: &Limits,
    cancel: &AtomicBool,
    on_progress: &mut dyn FnMut(&Analysis),
) -> Result<Analysis, SolveError> {
    let start = Instant::now();
    let mut root = RootState::new(game, pos, start);
    if pos.is_over() {
        return Ok(root.analysis(game));
    }
    let memory = settings
        .retro_memory
        .unwrap_or_else(|| retro_memory(game, pos, limits));
    let deadline = limits.time.map(|t| start + t);
    let children: Vec<Position> = root.turns.iter().map(|t| t.child).collect();
    let retro = RetroThread::spawn(game, pos, memory, children);
    let stops = Stops {
        cancel,
        retro: &retro.state,
        deadline,
        nodes: limits.nodes,
    };
    let mut searcher = Searcher::new(game, settings.evaluation, settings.table_bits, stops);
    deepen(&mut searcher, &mut root, limits, on_progress);
    // The retrograde step ends by itself (its graph is bounded), or at the time limit.
    if let Some(exact) = retro.finish(cancel, deadline) {
        root.set_exact(exact);
        on_progress(&root.analysis(game));
    }
    Ok(root.analysis(game))
}

/// Memory for the retrograde step on `pos` within `limits`, 0 where it is left out: a
/// quarter of the memory available (at most 2 GiB); no more positions than the node limit
/// allows, than a million a second of the time limit, or (a depth limit only) than a
/// small graph; and none where the boards with the seeds of `pos` in the houses are so
/// many more than that that the reachable ones cannot fit (they are most of them on the
/// boards solved so far), so that the step does not take the search's time in vain.
fn retro_memory(game: &Game, pos: &Position, limits: &Limits) -> u64 {
    let available = crate::os::available_memory().unwrap_or(4 << 30);
    let mut positions = (available / 4).min(2 << 30) / BYTES_PER_POSITION;
    if let Some(n) = limits.nodes {
        positions = positions.min(n);
    }
    if let Some(t) = limits.time {
        positions = positions.min((t.as_secs_f64() * 1e6) as u64 + 10_000);
    } else if limits.nodes.is_none() && limits.depth.is_some() {
        positions = positions.min(DEPTH_ONLY_POSITIONS);
    }
    let lanes = 2 * game.houses() as u64;
    let boards = kalah_core::binomial(pos.seeds_in_houses() as u64 + lanes, lanes);
    match boards > 8 * positions as u128 {
        true => 0,
        false => positions * BYTES_PER_POSITION,
    }
}

/// The retrograde step on a thread of its own, which is left to stop by itself (within
/// a fraction of a second of its cancel flag) where the analysis ends first.
struct RetroThread {
    state: Arc<AtomicU8>,
    cancel: Arc<AtomicBool>,
    result: Option<mpsc::Receiver<Option<RetroExact>>>,
}

impl RetroThread {
    /// Starts the step on `pos` with `memory` bytes for its graph (none where 0).
    fn spawn(game: &Game, pos: &Position, memory: u64, children: Vec<Position>) -> RetroThread {
        let off = memory == 0;
        let state = Arc::new(AtomicU8::new(if off {
            RETRO_FAILED
        } else {
            RETRO_RUNNING
        }));
        let cancel = Arc::new(AtomicBool::new(false));
        let result = (!off).then(|| {
            let (tx, rx) = mpsc::channel();
            let (game, pos) = (game.clone(), *pos);
            let (state, cancel) = (state.clone(), cancel.clone());
            std::thread::spawn(move || {
                let out = retro_step(&game, &pos, memory, &cancel, &children);
                let done = if out.is_some() {
                    RETRO_EXACT
                } else {
                    RETRO_FAILED
                };
                let _ = tx.send(out);
                state.store(done, Relaxed);
            });
            rx
        });
        RetroThread {
            state,
            cancel,
            result,
        }
    }

    /// Waits for the step until it ends, `cancel` is set or the `deadline` passes (the
    /// step is then told to stop): its exact answer, if it has one.
    fn finish(&self, cancel: &AtomicBool, deadline: Option<Instant>) -> Option<RetroExact> {
        let rx = self.result.as_ref()?;
        loop {
            if cancel.load(Relaxed) || deadline.is_some_and(|d| Instant::now() >= d) {
                self.cancel.store(true, Relaxed);
                return rx.try_recv().ok().flatten();
            }
            match rx.recv_timeout(Duration::from_millis(2)) {
                Ok(out) => return out,
                Err(mpsc::RecvTimeoutError::Timeout) => continue,
                Err(mpsc::RecvTimeoutError::Disconnected) => return None,
            }
        }
    }
}

impl Drop for RetroThread {
    /// The step stops with the analysis.
    fn drop(&mut self) {
        self.cancel.store(true, Relaxed);
    }
}

/// What the retrograde step found: the value and line of the root, and the exact value
/// of each root turn's position (for its mover).
struct RetroExact {
    value: i32,
    pv: Vec<Turn>,
    /// The position after each root turn with its exact value (for its mover).
    children: Vec<(Position, Option<i32>)>,
}

/// The retrograde solve of `pos` with a graph of at most what `memory` bytes hold.
fn retro_step(
    game: &Game,
    pos: &Position,
    memory: u64,
    cancel: &AtomicBool,
    children: &[Position],
) -> Option<RetroExact> {
    let retro = Retro::new(game, memory);
    let solution = retro.solve(game, pos, cancel, &mut |_| {}).ok()?;
    Some(RetroExact {
        value: solution.value,
        pv: solution.pv,
        children: children
            .iter()
            .map(|c| (*c, retro.known_value(game, c)))
            .collect(),
    })
}

/// Deepens the search from depth 1 until a limit, the exact value, or a complete tree.
fn deepen(
    searcher: &mut Searcher,
    root: &mut RootState,
    limits: &Limits,
    on_progress: &mut dyn FnMut(&Analysis),
) {
    let last = limits
        .depth
        .map_or(MAX_PLY as i32 - 8, |d| (d as i32).min(MAX_PLY as i32 - 8));
    for depth in 1..=last {
        searcher.stoppable = depth > 1;
        if searcher.stoppable && searcher.limit_reached() {
            break;
        }
        searcher.horizon = 0;
        if !root.iterate(searcher, depth) {
            break;
        }
        root.depth = depth as u8;
        root.nodes = searcher.nodes;
        on_progress(&root.analysis(searcher.game));
        if root.lo == root.hi || searcher.horizon == 0 {
            break;
        }
    }
    root.nodes = searcher.nodes;
}

/// A root turn: its sowings, the positions before each, the position after it, and what
/// the search knows of it (values for the root's mover).
struct TurnState {
    sowings: Vec<usize>,
    path: Vec<Position>,
    child: Position,
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
struct RootState {
    pos: Position,
    turns: Vec<TurnState>,
    depth: u8,
    lo: i32,
    hi: i32,
    exact_pv: Option<Vec<Turn>>,
    nodes: u64,
    start: Instant,
}

impl RootState {
    fn new(game: &Game, pos: &Position, start: Instant) -> RootState {
        let (lo, hi) = seed_bounds(pos);
        let turns = root_turns(game, pos)
            .into_iter()
            .map(|(sowings, path, child)| {
                let b = across_bounds(
                    seed_bounds(&child),
                    child.side_to_move() == pos.side_to_move(),
                );
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
            })
            .collect();
        RootState {
            pos: *pos,
            turns,
            depth: 0,
            lo,
            hi,
            exact_pv: None,
            nodes: 0,
            start,
        }
    }

    /// One iteration to `depth`, every root turn with a full window: false where a limit
    /// stopped it (its results are then dropped).
    fn iterate(&mut self, searcher: &mut Searcher, depth: i32) -> bool {
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
            results.push((across(s, same), across_bounds(alone, same), pv));
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

    /// Makes the analysis exact with the retrograde step's answer.
    fn set_exact(&mut self, exact: RetroExact) {
        self.lo = exact.value;
        self.hi = exact.value;
        self.exact_pv = Some(exact.pv);
        for t in self.turns.iter_mut() {
            let known = exact.children.iter().find(|(c, _)| *c == t.child);
            if let Some(&(_, Some(v))) = known {
                let v = if t.child.side_to_move() == self.pos.side_to_move() {
                    v
                } else {
                    -v
                };
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
    fn analysis(&self, game: &Game) -> Analysis {
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
                depth: t.depth,
                lower: t.alone.0,
                upper: t.alone.1,
            })
            .collect();
        Analysis {
            side,
            depth: self.depth,
            eval,
            lower: self.lo,
            upper: self.hi,
            pv,
            turns,
            nodes: self.nodes,
            elapsed: self.start.elapsed(),
        }
    }
}

/// The search of root turn `t` to `depth` (from the root), from the mover after it:
/// with a window of [`ASPIRATION`] around its last evaluation, widened where the value
/// falls outside (a few times, then the whole range), so that every turn's evaluation is
/// a value, not a bound. The intervals of the tries are all proofs for the line, and are
/// intersected.
fn search_turn(searcher: &mut Searcher, t: &TurnState, depth: i32, same: bool) -> Option<Score> {
    const INF: i32 = 1000;
    let k = t.path.len();
    let guess = if same { t.eval } else { -t.eval };
    let mut window = match t.depth {
        0 => (-INF, INF),
        _ => (guess - ASPIRATION, guess + ASPIRATION),
    };
    let mut known: Option<Score> = None;
    for attempt in 0.. {
        searcher.line.clear();
        searcher.line.extend_from_slice(&t.path);
        let s = searcher.search(&t.child, depth - k as i32, window.0, window.1, k)?;
        let s = match known {
            Some(p) => Score {
                lo: s.lo.max(p.lo),
                hi: s.hi.min(p.hi),
                rep: s.rep.min(p.rep),
                ..s
            },
            None => s,
        };
        known = Some(s);
        let v = s.value;
        let (low, high) = (
            v <= window.0 && window.0 > -INF,
            v >= window.1 && window.1 < INF,
        );
        window = match (low, high) {
            (false, false) => return Some(s),
            _ if attempt >= 2 => (-INF, INF),
            (true, _) => (-INF, v + 1),
            (false, true) => (v - 1, INF),
        };
    }
    known
}

/// Bounds of a child seen from the parent's mover.
fn across_bounds((lo, hi): (i32, i32), same: bool) -> (i32, i32) {
    let s = across(
        Score {
            value: 0,
            lo,
            hi,
            rep: NO_REP,
        },
        same,
    );
    (s.lo, s.hi)
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

/// Every turn of the mover of `pos`: its sowings, the positions before each sowing, and
/// the position after it (the opponent to move, or the game over).
fn root_turns(game: &Game, pos: &Position) -> Vec<(Vec<usize>, Vec<Position>, Position)> {
    let mut out = Vec::new();
    let mut stack = vec![(Vec::new(), vec![*pos])];
    while let Some((sowings, path)) = stack.pop() {
        let at = *path.last().expect("a path holds its start");
        for m in game.legal_moves(&at) {
            let (c, _) = game.sow(&at, m);
            let mut s = sowings.clone();
            s.push(m);
            if c.side_to_move() == pos.side_to_move() && !c.is_over() {
                let mut p = path.clone();
                p.push(c);
                stack.push((s, p));
            } else {
                out.push((s, path.clone(), c));
            }
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}
