//! The kernel of retrograde analysis: one level of the game graph solved from its exits
//! by sweeps of the negamax operator from the extremes (see the module doc of
//! [`super`]), whatever the index of the graph.

use kalah_core::{Game, Position};
use rayon::prelude::*;

use super::values::{Values, INF};
use super::{held, moves};
use crate::db::egdb::Egdb;

/// Nodes of a level prepared at a time (bounds the memory of the moves before they are
/// packed).
const CHUNK: usize = 1 << 20;

/// The moves of the nodes of one level: each node's best exit (−∞ if none), and its moves
/// inside the level, packed (node `p`'s are `inside[offsets[p]..offsets[p + 1]]`, as
/// places in the level).
struct LevelMoves {
    exit: Vec<i16>,
    offsets: Vec<u32>,
    inside: Vec<u32>,
}

/// Solves the nodes `range` of one level, new to the graph: every node they lead to
/// outside the range is solved already, or held by `exits`. `position` gives a node's
/// position, `node` a position's node.
pub(super) fn solve_level(
    game: &Game,
    values: &mut Values,
    range: std::ops::Range<usize>,
    position: &(dyn Fn(u32) -> Position + Sync),
    node: &(dyn Fn(&Position) -> u32 + Sync),
    exits: Option<&Egdb>,
) {
    let level = prepare(game, values, range.clone(), position, node, exits);
    sweep(values, range, &level);
}

/// The moves of the nodes `range` of one level, valued where they leave it (from the graph,
/// or from `exits` where it holds the child).
fn prepare(
    game: &Game,
    values: &Values,
    range: std::ops::Range<usize>,
    position: &(dyn Fn(u32) -> Position + Sync),
    node: &(dyn Fn(&Position) -> u32 + Sync),
    exits: Option<&Egdb>,
) -> LevelMoves {
    let (first, n) = (range.start, range.len());
    // Each node's best exit (−∞ if none), and its moves inside the range, packed.
    let mut exit = Vec::with_capacity(n);
    let mut offsets = Vec::with_capacity(n + 1);
    let mut inside: Vec<u32> = Vec::new();
    offsets.push(0u32);
    let v = values;
    for chunk_start in range.clone().step_by(CHUNK) {
        let chunk = chunk_start..(chunk_start + CHUNK).min(range.end);
        let prepared: Vec<(i16, [u32; 16], u8)> = chunk
            .into_par_iter()
            .map(|i| {
                let pos = position(i as u32);
                let mut best = -INF;
                let (mut ins, mut len) = ([0u32; 16], 0u8);
                for (_, c, same_mover, gain) in moves(game, &pos) {
                    let worth = if c.is_over() {
                        gain
                    } else if let Some(cv) = held(exits, &c) {
                        gain + if same_mover { cv } else { -cv }
                    } else {
                        let q = node(&c) as usize;
                        if range.contains(&q) {
                            debug_assert!(!same_mover && gain == 0);
                            ins[len as usize] = (q - first) as u32;
                            len += 1;
                            continue;
                        }
                        let cv = v.value(q) as i32;
                        gain + if same_mover { cv } else { -cv }
                    };
                    best = best.max(worth as i16);
                }
                (best, ins, len)
            })
            .collect();
        for (best, ins, len) in prepared {
            exit.push(best);
            inside.extend_from_slice(&ins[..len as usize]);
            offsets.push(inside.len() as u32);
        }
    }
    LevelMoves {
        exit,
        offsets,
        inside,
    }
}

/// Sweeps the nodes `range` of one level, whose moves are `level`, until nothing changes.
fn sweep(values: &mut Values, range: std::ops::Range<usize>, level: &LevelMoves) {
    let n = range.len();
    let LevelMoves {
        exit,
        offsets,
        inside,
    } = level;
    // Sweeps from the extremes until nothing changes; a node whose bounds met is final
    // (`lo` only rises, `hi` only falls). Each thread updates a chunk of the level in
    // place, in increasing order (Gauss-Seidel), reading the other chunks as they were
    // at the start of the sweep; every update then reads only values set strictly
    // earlier in the order of [`stamp`].
    let threads = rayon::current_num_threads().max(1);
    let chunk = n.div_ceil(4 * threads).max(1 << 12);
    let Values {
        lo,
        hi,
        lo_at,
        hi_at,
        clock,
    } = values;
    let (lo, hi) = (&mut lo[range.clone()], &mut hi[range.clone()]);
    let (lo_at, hi_at) = (&mut lo_at[range.clone()], &mut hi_at[range]);
    loop {
        *clock += 1;
        let now = *clock;
        let (was_lo, was_hi) = match n > chunk {
            true => (lo.to_vec(), hi.to_vec()),
            false => (Vec::new(), Vec::new()),
        };
        let changed = lo
            .par_chunks_mut(chunk)
            .zip(hi.par_chunks_mut(chunk))
            .zip(lo_at.par_chunks_mut(chunk))
            .zip(hi_at.par_chunks_mut(chunk))
            .enumerate()
            .map(|(c, (((lo, hi), lo_at), hi_at))| {
                let base = c * chunk;
                let end = base + lo.len();
                let mut changed = false;
                for k in 0..lo.len() {
                    if lo[k] == hi[k] {
                        continue;
                    }
                    let p = base + k;
                    let (mut l, mut h) = (exit[p], exit[p]);
                    for &q in &inside[offsets[p] as usize..offsets[p + 1] as usize] {
                        let q = q as usize;
                        let (ql, qh) = match q >= base && q < end {
                            true => (lo[q - base], hi[q - base]),
                            false => (was_lo[q], was_hi[q]),
                        };
                        l = l.max(-qh);
                        h = h.max(-ql);
                    }
                    if l != lo[k] {
                        lo[k] = l;
                        lo_at[k] = now;
                        changed = true;
                    }
                    if h != hi[k] {
                        hi[k] = h;
                        hi_at[k] = now;
                        changed = true;
                    }
                }
                changed
            })
            .reduce(|| false, |a, b| a || b);
        if !changed {
            break;
        }
    }
}

/// The ranges of nodes of equal level in `nodes` (numbered level by level).
pub(super) fn level_ranges(
    nodes: std::ops::Range<usize>,
    level: impl Fn(usize) -> u32,
) -> Vec<std::ops::Range<usize>> {
    let mut out = Vec::new();
    let mut at = nodes.start;
    while at < nodes.end {
        let l = level(at);
        // The first node of a higher level (levels ascend).
        let (mut a, mut b) = (at, nodes.end);
        while a < b {
            let mid = (a + b) / 2;
            if level(mid) == l {
                a = mid + 1;
            } else {
                b = mid;
            }
        }
        out.push(at..a);
        at = a;
    }
    out
}
