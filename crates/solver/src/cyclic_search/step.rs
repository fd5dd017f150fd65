//! The retrograde step of the cyclic analysis: [`crate::retro::Retro`] on the position, on a
//! thread of its own, with a bounded graph; where it finishes, the answer is exact.

use std::sync::atomic::{AtomicBool, AtomicU8, Ordering::Relaxed};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

use kalah_core::{Game, Position};

use super::{RETRO_EXACT, RETRO_FAILED, RETRO_RUNNING};
use crate::anytime::Limits;
use crate::line::Turn;
use crate::retro::{Retro, BYTES_PER_POSITION};

/// The most positions of the retrograde step's graph with a depth limit only.
const DEPTH_ONLY_POSITIONS: u64 = 2_000_000;

/// Memory for the retrograde step on `pos` within `limits`, 0 where it is left out: a
/// quarter of the memory available (at most 2 GiB); no more positions than the node limit
/// allows, than a million a second of the time limit, or (a depth limit only) than a
/// small graph; and none where the boards with the seeds of `pos` in the houses are so
/// many more than that that the reachable ones cannot fit (they are most of them on the
/// boards solved so far), so that the step does not take the search's time in vain.
pub(super) fn retro_memory(game: &Game, pos: &Position, limits: &Limits) -> u64 {
    let mut positions = positions_that_fit();
    if let Some(n) = limits.nodes {
        positions = positions.min(n);
    }
    if let Some(t) = limits.time {
        positions = positions.min((t.as_secs_f64() * 1e6) as u64 + 10_000);
    } else if limits.nodes.is_none() && limits.depth.is_some() {
        positions = positions.min(DEPTH_ONLY_POSITIONS);
    }
    match boards(game, pos) > 8 * positions as u128 {
        true => 0,
        false => positions * BYTES_PER_POSITION,
    }
}

/// The positions of a retrograde graph that a quarter of the memory available holds (at
/// most 2 GiB of it).
fn positions_that_fit() -> u64 {
    let available = crate::os::available_memory().unwrap_or(4 << 30);
    (available / 4).min(2 << 30) / BYTES_PER_POSITION
}

/// The boards with the seeds of `pos` in the houses: a bound on the positions reachable
/// from it.
fn boards(game: &Game, pos: &Position) -> u128 {
    let lanes = 2 * game.houses() as u64;
    kalah_core::binomial(pos.seeds_in_houses() as u64 + lanes, lanes)
}

/// The most positions of the graph [`exact_line`] builds: a few tenths of a second.
const EXACT_LINE_POSITIONS: u64 = 500_000;

/// The exact answer of the retrograde solver on `pos`, run to its end on this thread, for
/// an analysis whose search closed the proven interval by itself: the value is known, the
/// line that replays to it is not. The graph gets every board with the seeds of `pos` in
/// the houses, up to [`EXACT_LINE_POSITIONS`] and a quarter of the memory available;
/// `None` where the reachable positions do not fit or `cancel` is set.
pub(super) fn exact_line(
    game: &Game,
    pos: &Position,
    cancel: &AtomicBool,
    children: &[Position],
) -> Option<RetroExact> {
    let fits = positions_that_fit().min(EXACT_LINE_POSITIONS);
    let positions = u64::try_from(boards(game, pos))
        .unwrap_or(u64::MAX)
        .min(fits);
    retro_step(game, pos, positions * BYTES_PER_POSITION, cancel, children)
}

/// The retrograde step on a thread of its own, which is left to stop by itself (within
/// a fraction of a second of its cancel flag) where the analysis ends first.
pub(super) struct RetroThread {
    pub(super) state: Arc<AtomicU8>,
    cancel: Arc<AtomicBool>,
    result: Option<mpsc::Receiver<Option<RetroExact>>>,
}

impl RetroThread {
    /// Starts the step on `pos` with `memory` bytes for its graph (none where 0).
    pub(super) fn spawn(
        game: &Game,
        pos: &Position,
        memory: u64,
        children: Vec<Position>,
    ) -> RetroThread {
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
    /// step is then told to stop), calling `tick` every few milliseconds: its exact
    /// answer, if it has one.
    pub(super) fn finish(
        &self,
        cancel: &AtomicBool,
        deadline: Option<Instant>,
        tick: &mut dyn FnMut(),
    ) -> Option<RetroExact> {
        let rx = self.result.as_ref()?;
        loop {
            if cancel.load(Relaxed) || deadline.is_some_and(|d| Instant::now() >= d) {
                self.cancel.store(true, Relaxed);
                return rx.try_recv().ok().flatten();
            }
            match rx.recv_timeout(Duration::from_millis(2)) {
                Ok(out) => return out,
                Err(mpsc::RecvTimeoutError::Timeout) => tick(),
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
pub(super) struct RetroExact {
    pub(super) value: i32,
    pub(super) pv: Vec<Turn>,
    /// The position after each root turn with its exact value (for its mover).
    pub(super) children: Vec<(Position, Option<i32>)>,
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
