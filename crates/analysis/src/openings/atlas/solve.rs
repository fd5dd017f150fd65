//! One board of the atlas solved within its budget: the start's exact value first (its
//! line proves one best first turn on the way), then every other first turn on the
//! workers sharing one table, each proved turn kept in the board's partial file as it
//! comes. Stopped by the budget or by Ctrl-C, the board keeps what is proved and says
//! the interval of the rest.

use std::collections::HashMap;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use kalah_core::{Game, Rules, Side};
use kalah_solver::line::push_turn;
use kalah_solver::Phase;

use super::partial::{self, Kept, Proved};
use super::record::TurnRecord;
use super::{AtlasError, Tick};
use crate::game::bounds::{from_mover, reach, Bounds};
use crate::game::AnalysisError;
use crate::openings::{analyse, first_steps, Offer, Opening, Step, Watch};
use crate::run::solving::Solving;
use crate::wire::write_line;

/// Why a board's solve ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ended {
    /// Everything is proved.
    Done,
    /// The budget ran out first.
    Budget,
    /// Ctrl-C (or a signal) stopped it.
    Interrupted,
}

/// A board's solve as it ended.
#[derive(Clone, Debug)]
pub struct BoardRun {
    /// Bounds of the board's value, from South.
    pub value: Bounds,
    /// Every first turn, in bin order.
    pub turns: Vec<TurnRecord>,
    /// Nodes searched, kept runs included.
    pub nodes: u64,
    /// Seconds spent, kept runs included.
    pub seconds: f64,
    /// Why it ended.
    pub ended: Ended,
}

/// Solves the board of `rules` (its start value, then every first turn of South) with the
/// solvers `solving` makes, within `budget` if any, stopped early by `interrupt`; keeps
/// each value proved in the board's partial file in `dir` and reads back what an earlier
/// run kept there. `tick` hears of each proved turn.
pub fn solve_board(
    rules: &Rules,
    dir: &Path,
    solving: &Solving,
    budget: Option<Duration>,
    interrupt: &AtomicBool,
    tick: &(dyn Fn(Tick) + Sync),
) -> Result<BoardRun, AtlasError> {
    let began = Instant::now();
    let stop = AtomicBool::new(false);
    let over = AtomicBool::new(false);
    std::thread::scope(|s| {
        // The one clock of the board: raises `stop` at the budget or on Ctrl-C.
        s.spawn(|| {
            while !over.load(Relaxed) {
                if interrupt.load(Relaxed) || budget.is_some_and(|b| began.elapsed() >= b) {
                    stop.store(true, Relaxed);
                    return;
                }
                std::thread::sleep(Duration::from_millis(10));
            }
        });
        let run = work(rules, dir, solving, &stop, began, tick);
        over.store(true, Relaxed);
        let mut run = run?;
        if run.ended != Ended::Done {
            run.ended = match interrupt.load(Relaxed) {
                true => Ended::Interrupted,
                false => Ended::Budget,
            };
        }
        Ok(run)
    })
}

/// The work of [`solve_board`], stopped by `stop`.
fn work(
    rules: &Rules,
    dir: &Path,
    solving: &Solving,
    stop: &AtomicBool,
    began: Instant,
    tick: &(dyn Fn(Tick) + Sync),
) -> Result<BoardRun, AtlasError> {
    let game = Game::new(*rules).map_err(|e| AtlasError::Rules(e.to_string()))?;
    let start = game.start();
    let h = game.houses();
    let steps = first_steps(&game, &start, Offer::AfterTurn);
    let path = partial::path(dir, rules);
    let kept = partial::load(&path, &game, &start)
        .map_err(|why| AtlasError::Partial(path.clone(), why))?;
    let earlier: f64 = kept
        .root
        .iter()
        .chain(kept.turns.values())
        .map(|p| p.seconds)
        .sum();
    let file = partial::start(&path, rules, &start, &kept)
        .map_err(|why| AtlasError::Partial(path.clone(), why))?;
    let Kept {
        mut root, turns, ..
    } = kept;
    let proved = Mutex::new(turns);
    let keep = |turn: &str, p: &Proved| {
        let fresh = proved
            .lock()
            .map(|mut m| m.insert(turn.to_string(), p.clone()).is_none())
            .unwrap_or(false);
        if fresh {
            file.add_record(&partial::turn_record(turn, p));
            tick(Tick::Turn(format!("{turn} {:+}", p.value)));
        }
    };
    let seeds = start.seeds_in_houses() as usize;
    let (solver, workers) = solving
        .parallel(&game, seeds, steps.len())
        .map_err(AtlasError::Solving)?;
    // The start's exact value; its line's first turn is a best first turn, proved by the
    // same solve (its nodes counted once, with the start's). Cancelled: the bounds proved.
    let solve_root = || -> Result<(Option<Proved>, Bounds), AtlasError> {
        let t0 = Instant::now();
        let mut last = reach(&start);
        let solved = solver.solve(&start, stop, &mut |p| {
            if !matches!(p.phase, Phase::Retrograde(_)) {
                last = from_mover(Side::South, (p.lower, p.upper));
            }
        });
        let solution = match solved.map_err(AnalysisError::from) {
            Ok(solution) => solution,
            Err(AnalysisError::Cancelled) => return Ok((None, last)),
            Err(e) => return Err(e.into()),
        };
        let value = solution.value_from_south();
        let mut line = Vec::new();
        for t in solution.pv {
            push_turn(&mut line, t);
        }
        kalah_solver::line::replay(&game, &start, &line, value).map_err(AnalysisError::from)?;
        let p = Proved {
            value,
            pv: write_line(h, &line),
            nodes: solution.nodes,
            seconds: t0.elapsed().as_secs_f64(),
        };
        file.add_record(&partial::root_record(&p));
        if let Some(first) = line.first().filter(|t| steps.iter().any(|s| s.turn == **t)) {
            let best = Proved {
                nodes: 0,
                seconds: 0.0,
                ..p.clone()
            };
            keep(&first.notation(h), &best);
        }
        Ok((Some(p), (value, value)))
    };
    let unproved = || -> Vec<Step> {
        let done = proved.lock().map(|m| m.clone()).unwrap_or_default();
        steps
            .iter()
            .filter(|s| !done.contains_key(&s.turn.notation(h)))
            .cloned()
            .collect()
    };
    // Every first turn not proved yet, solved on `workers` threads sharing the table; each
    // one's bounds and nodes so far kept in `bounds` and `spent` (by its place in `open`).
    let solve_turns = |open: &[Step],
                       bounds: &[Mutex<Option<Bounds>>],
                       spent: &[Mutex<u64>],
                       workers: usize,
                       halt: &AtomicBool|
     -> Result<(), AtlasError> {
        if open.is_empty() || halt.load(Relaxed) {
            return Ok(());
        }
        let on_bounds = |i: usize, lo: i32, hi: i32, p: &kalah_solver::Progress| {
            if let Ok(mut b) = bounds[i].lock() {
                *b = Some((lo, hi));
            }
            if let Ok(mut n) = spent[i].lock() {
                *n = p.nodes;
            }
        };
        let on_value = |_: usize, o: &Opening| {
            let p = Proved {
                value: o.value,
                pv: write_line(h, &o.pv),
                nodes: o.nodes,
                seconds: o.elapsed.as_secs_f64(),
            };
            keep(&o.step.turn.notation(h), &p);
        };
        let watch = Watch {
            graph: None,
            bounds: &on_bounds,
            value: &on_value,
        };
        match analyse(&solver, &start, open, workers, halt, watch) {
            Ok(_) | Err(AnalysisError::Cancelled) => Ok(()),
            Err(e) => Err(e.into()),
        }
    };
    let mut root_bounds = root.as_ref().map_or(reach(&start), |p| (p.value, p.value));
    // With two workers or more (and no game graph to share), the start is solved on one
    // of them while the others take the first turns; once the start is proved the turns
    // still open are taken up again by every worker (the table keeps what the stopped
    // ones had found). Else the start comes first.
    let beside = workers >= 2 && !rules.family.is_cyclic();
    let first = unproved();
    let first_bounds: Vec<Mutex<Option<Bounds>>> = first.iter().map(|_| Mutex::new(None)).collect();
    let first_spent: Vec<Mutex<u64>> = first.iter().map(|_| Mutex::new(0)).collect();
    if root.is_none() && !stop.load(Relaxed) {
        // The turns beside the start stop with the board, or when the start is proved
        // (every worker takes the rest then).
        let halt = AtomicBool::new(false);
        let (solved, turns) = match beside {
            true => std::thread::scope(|s| {
                s.spawn(|| {
                    while !halt.load(Relaxed) {
                        if stop.load(Relaxed) {
                            halt.store(true, Relaxed);
                        }
                        std::thread::sleep(Duration::from_millis(10));
                    }
                });
                let started = s.spawn(|| {
                    let solved = solve_root();
                    halt.store(true, Relaxed);
                    solved
                });
                let turns = solve_turns(&first, &first_bounds, &first_spent, workers - 1, &halt);
                let solved = started.join().unwrap_or_else(|_| {
                    Err(AtlasError::Analysis(AnalysisError::Threads(
                        "the solve of the start stopped".into(),
                    )))
                });
                halt.store(true, Relaxed);
                (solved, turns)
            }),
            false => (solve_root(), Ok(())),
        };
        turns?;
        let (p, b) = solved?;
        root = p;
        root_bounds = b;
    }
    // Every turn still open, on every worker.
    let open = unproved();
    let bounds: Vec<Mutex<Option<Bounds>>> = open.iter().map(|_| Mutex::new(None)).collect();
    let spent: Vec<Mutex<u64>> = open.iter().map(|_| Mutex::new(0)).collect();
    solve_turns(&open, &bounds, &spent, workers, stop)?;
    // What is known of an open turn: its bounds and nodes from the last run that took it.
    let known = |turn: &Step| -> (Option<Bounds>, u64) {
        let of = |list: &[Step], b: &[Mutex<Option<Bounds>>], n: &[Mutex<u64>]| {
            let i = list.iter().position(|s| s.turn == turn.turn)?;
            let bounds = b[i].lock().ok().and_then(|b| *b);
            let nodes = n[i].lock().ok().map_or(0, |n| *n);
            Some((bounds, nodes))
        };
        let late = of(&open, &bounds, &spent).filter(|(b, _)| b.is_some());
        let early = of(&first, &first_bounds, &first_spent);
        late.or(early).unwrap_or((None, 0))
    };
    file.failure()
        .map_err(|e| AtlasError::Partial(path.clone(), e.to_string()))?;
    let done: HashMap<String, Proved> = proved.into_inner().unwrap_or_default();
    let mut turns = Vec::with_capacity(steps.len());
    for step in &steps {
        let turn = step.turn.notation(h);
        let record = match done.get(&turn) {
            Some(p) => TurnRecord {
                turn,
                lower: p.value,
                upper: p.value,
                pv: p.pv.clone(),
                nodes: p.nodes,
                seconds: p.seconds,
            },
            None => {
                let (bounds, nodes) = known(step);
                let (lower, upper) = bounds.unwrap_or_else(|| reach(&step.after));
                TurnRecord {
                    turn,
                    lower,
                    upper,
                    pv: Vec::new(),
                    nodes,
                    seconds: 0.0,
                }
            }
        };
        turns.push(record);
    }
    let nodes = root.as_ref().map_or(0, |p| p.nodes) + turns.iter().map(|t| t.nodes).sum::<u64>();
    // The value is the best first turn's: the turns bound it as the start's solve does.
    let best = (
        turns.iter().map(|t| t.lower).max().unwrap_or(root_bounds.0),
        turns.iter().map(|t| t.upper).max().unwrap_or(root_bounds.1),
    );
    let value = (root_bounds.0.max(best.0), root_bounds.1.min(best.1));
    let all = turns.iter().all(|t| t.value().is_some()) && value.0 == value.1;
    Ok(BoardRun {
        value,
        turns,
        nodes,
        seconds: earlier + began.elapsed().as_secs_f64(),
        ended: match all {
            true => Ended::Done,
            false => Ended::Budget,
        },
    })
}
