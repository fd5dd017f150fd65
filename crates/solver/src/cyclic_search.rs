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

mod root;
mod search;
mod step;
mod table;

use std::sync::atomic::AtomicBool;

use kalah_core::{Game, Position};

use crate::anytime::{deepen, Analysis, Clock, Kernel, Limits, ReportKind, Ticker};
use crate::db::cyclic_db::answer;
use crate::db::egdb::Egdb;
use crate::error::SolveError;
use crate::eval::Evaluation;
use root::RootState;
use search::{Searcher, Stops, MAX_PLY};
use step::{retro_memory, RetroThread};

/// The retrograde step is still running.
const RETRO_RUNNING: u8 = 0;
/// The retrograde step has the exact value.
const RETRO_EXACT: u8 = 1;
/// The retrograde step stopped without it (graph too large, cancelled, or off).
const RETRO_FAILED: u8 = 2;

// The deepest depth leaves the search room for the sowings of a root turn's extra moves.
const _: () = assert!(Limits::MAX_DEPTH as usize + 8 <= MAX_PLY);

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
    /// The search's heuristic leaves follow captures and extra turns past the horizon
    /// (a quiescence search; heuristic values only, the proven intervals are the same).
    /// On by default: it plays better than the bare leaves (docs/matches.md).
    pub quiescence: bool,
}

impl Default for CyclicSettings {
    fn default() -> CyclicSettings {
        CyclicSettings {
            evaluation: Evaluation::default(),
            retro_memory: None,
            table_bits: 20,
            quiescence: true,
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
/// depth and about every [`Analysis::TICK`] meanwhile ([`ReportKind::Tick`]), while the
/// retrograde step runs beside it. It stops at the first limit, at the exact value, or
/// when `cancel` is set, and returns what is known then (the first depth always
/// completes, so there is a best turn).
pub fn analyse_cyclic_with(
    game: &Game,
    settings: &CyclicSettings,
    pos: &Position,
    limits: &Limits,
    cancel: &AtomicBool,
    on_progress: &mut dyn FnMut(&Analysis),
) -> Result<Analysis, SolveError> {
    analyse_cyclic_db(game, settings, None, pos, limits, cancel, on_progress)
}

/// [`analyse_cyclic_with`] reading the finished database `db` of the game's rules (built by
/// the cycle rule, [`crate::db::cyclic_db`]): every position of the search it holds is an
/// exact leaf, and where it holds the root the answer is exact at once, with a line
/// replayed from it ([`crate::db::cyclic_db::answer`]) and no retrograde step.
pub fn analyse_cyclic_db(
    game: &Game,
    settings: &CyclicSettings,
    db: Option<&Egdb>,
    pos: &Position,
    limits: &Limits,
    cancel: &AtomicBool,
    on_progress: &mut dyn FnMut(&Analysis),
) -> Result<Analysis, SolveError> {
    let clock = Clock::start(limits, cancel);
    let mut root = RootState::new(game, pos, clock.start);
    if pos.is_over() {
        return Ok(Analysis {
            report: ReportKind::Final,
            ..root.analysis(game)
        });
    }
    let held = db.and_then(|d| d.probe(pos)).is_some();
    let memory = match held {
        true => 0,
        false => settings
            .retro_memory
            .unwrap_or_else(|| retro_memory(game, pos, limits)),
    };
    let children: Vec<Position> = root.turns.iter().map(|t| t.child).collect();
    let retro = RetroThread::spawn(game, pos, memory, children);
    let stops = Stops {
        clock,
        retro: &retro.state,
    };
    let ticker = Ticker::new(on_progress, clock.start, root.analysis(game));
    let mut searcher = Searcher::new(
        game,
        settings.evaluation,
        settings.table_bits,
        stops,
        ticker,
    );
    searcher.db = db;
    searcher.quiescence = settings.quiescence;
    let mut kernel = Cyclic {
        searcher: &mut searcher,
        root: &mut root,
    };
    deepen(&mut kernel, limits.last_depth());
    root.nodes = searcher.nodes;
    if let Some(db) = db.filter(|_| held) {
        if let Some((value, pv)) = answer(game, |p| db.probe(p), pos) {
            let children = root.turns.iter().map(|t| (t.child, db.probe(&t.child)));
            root.set_exact(step::RetroExact {
                value,
                pv,
                children: children.collect(),
            });
        }
    }
    // The retrograde step ends by itself (its graph is bounded), or at the time limit;
    // the caller hears from the analysis meanwhile.
    let nodes = searcher.nodes;
    let ticker = &mut searcher.ticker;
    if let Some(exact) = retro.finish(cancel, clock.deadline, &mut || ticker.tick(nodes)) {
        root.set_exact(exact);
        ticker.report(root.analysis(game));
    }
    Ok(Analysis {
        report: ReportKind::Final,
        ..root.analysis(game)
    })
}

/// The cyclic search as the deepening drives it ([`Kernel`]): its root, and the search
/// that reports each completed depth (and ticks meanwhile) through its ticker.
struct Cyclic<'s, 'a> {
    searcher: &'s mut Searcher<'a>,
    root: &'s mut RootState,
}

impl Kernel for Cyclic<'_, '_> {
    /// The first depth always completes, so that there is a best turn.
    fn stopped(&mut self, depth: u8) -> bool {
        depth > 1 && self.searcher.limit_reached()
    }

    /// The interval closed, or the last depth met no leaf cut by the depth (its tree was
    /// complete: a deeper one is the same).
    fn settled(&self) -> bool {
        self.root.lo == self.root.hi || (self.root.depth > 0 && self.searcher.horizon == 0)
    }

    fn iterate(&mut self, depth: u8) -> bool {
        self.searcher.stoppable = depth > 1;
        self.searcher.horizon = 0;
        self.root.iterate(self.searcher, i32::from(depth))
    }

    /// Reports the depth, with the line that replays to the value where the search closed
    /// the interval by itself ([`RootState::complete_line`]).
    fn completed(&mut self, depth: u8) {
        let (root, searcher) = (&mut *self.root, &mut *self.searcher);
        root.depth = depth;
        root.nodes = searcher.nodes;
        root.complete_line(searcher.game, searcher.stops.clock.cancel);
        searcher.ticker.report(root.analysis(searcher.game));
    }
}
