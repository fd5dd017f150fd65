//! What a merge of a split's answers found, ready to render: the value of the position
//! with its principal variation, every first move, the pie rule, a hypothesis's verdict
//! and the units to solve next. `kalah merge` renders it as text or as JSON.

use kalah_core::{Position, Side};
use kalah_solver::Turn;

use super::hypothesis::Verdict;
use super::merge::{FirstMove, Merge};
use super::tree::Tree;
use crate::bounds::{from_mover, Bounds};
use crate::pie::decide;
use crate::wire::unit::{Unit, Window};

/// The pie rule over the merged first moves, for the position's mover.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pie {
    /// Bounds of the value with the pie rule, for the player to move.
    pub bounds: Bounds,
    /// When they are exact: the best first move (an index into [`Report::moves`]) and
    /// whether the opponent swaps after it.
    pub best: Option<(usize, bool)>,
}

/// What a merge found.
#[derive(Clone, Debug)]
pub struct Report<'t> {
    /// The split's tree.
    pub tree: &'t Tree,
    /// Bounds of the position's value, from South.
    pub root: Bounds,
    /// A principal variation of the position, replayed, when it is exact and known.
    pub pv: Option<Vec<Turn>>,
    /// The position's first moves, merged.
    pub moves: Vec<FirstMove>,
    /// The pie rule, when the position has moves.
    pub pie: Option<Pie>,
    /// The hypothesis given, and what the answers say of it.
    pub hypothesis: Option<(i32, Verdict)>,
    /// The units to solve next: those the value needs, or the hypothesis's windows.
    pub next: Vec<Unit>,
    /// The hypothesis the next windows are for, when it is not the one given (the nearest
    /// value a refuted hypothesis leaves).
    pub next_hypothesis: Option<i32>,
    /// Units the exact value still needs.
    pub needed: usize,
    /// Units of the split.
    pub units: usize,
    /// Units with an exact value.
    pub exact_units: usize,
    /// Answers taken, duplicates included.
    pub answers: usize,
    /// Units, by id, answered with bounds not yet proved again ([`Merge::verify`]): those
    /// bounds do not count.
    pub unverified: Vec<usize>,
}

/// Bounds of `-|v|` for `v` within `b`.
fn pie_bounds((lo, hi): Bounds) -> Bounds {
    let far = lo.unsigned_abs().max(hi.unsigned_abs()) as i32;
    let near = if lo <= 0 && hi >= 0 {
        0
    } else {
        lo.unsigned_abs().min(hi.unsigned_abs()) as i32
    };
    (-far, -near)
}

/// The pie rule over `moves` of a position with `side` to move.
fn pie(moves: &[FirstMove], side: Side) -> Option<Pie> {
    if moves.is_empty() {
        return None;
    }
    let each: Vec<Bounds> = moves
        .iter()
        .map(|m| pie_bounds(from_mover(side, m.bounds)))
        .collect();
    let lo = each.iter().map(|b| b.0).max().expect("moves");
    let hi = each.iter().map(|b| b.1).max().expect("moves");
    let best = (lo == hi)
        .then(|| each.iter().position(|&b| b == (lo, lo)))
        .flatten()
        .map(|i| (i, decide(side.sign() * moves[i].bounds.0).swap));
    Some(Pie {
        bounds: (lo, hi),
        best,
    })
}

impl<'t> Report<'t> {
    /// The report of `merge`, whose node bounds are `bounds`, with the hypothesis
    /// `hypothesis` checked if one is given.
    pub fn new(merge: &Merge<'t>, bounds: &[Bounds], hypothesis: Option<i32>) -> Report<'t> {
        let tree = merge.tree;
        let moves = merge.first_moves(bounds);
        let needed = merge.needed(bounds);
        let (hypothesis, next, next_hypothesis) = match hypothesis {
            None => {
                let full = Window::full(&tree.rules);
                let units = needed.iter().map(|&u| tree.unit(u, full)).collect();
                (None, units, None)
            }
            Some(v) => {
                let verdict = merge.hypothesis(bounds, v);
                let (next, nh) = next_windows(merge, bounds, v, &verdict);
                (Some((v, verdict)), next, nh)
            }
        };
        Report {
            tree,
            root: bounds[0],
            pv: merge.principal_variation(bounds),
            pie: pie(&moves, tree.root().side_to_move()),
            moves,
            hypothesis,
            next,
            next_hypothesis,
            needed: needed.len(),
            units: tree.units.len(),
            exact_units: merge.exact_units(),
            answers: merge.answers(),
            unverified: merge.unverified(),
        }
    }

    /// The position merged.
    pub fn position(&self) -> &Position {
        self.tree.root()
    }

    /// Whether the position's value is exact.
    pub fn exact(&self) -> bool {
        self.root.0 == self.root.1
    }

    /// `None` when the run is conclusive (the value exact, or the hypothesis decided),
    /// else what is missing.
    pub fn unfinished(&self) -> Option<String> {
        match &self.hypothesis {
            None if self.exact() => None,
            None => Some(format!(
                "the value is not exact yet: {} units still needed (see --next)",
                self.needed
            )),
            Some((_, Verdict::Pending(units))) => Some(format!(
                "the hypothesis is not decided yet: {} windows to solve (see --next)",
                units.len()
            )),
            Some(_) => None,
        }
    }

    /// One word for where the merge stands: `exact` or `incomplete`, or for a hypothesis
    /// `confirmed`, `refuted` or `pending`.
    pub fn status(&self) -> &'static str {
        match &self.hypothesis {
            None if self.exact() => "exact",
            None => "incomplete",
            Some((_, Verdict::Confirmed)) => "confirmed",
            Some((_, Verdict::Refuted(_))) => "refuted",
            Some((_, Verdict::Pending(_))) => "pending",
        }
    }
}

/// The windows to solve after `verdict` on the hypothesis `v`, and the hypothesis they are
/// for when it is another: a refuted hypothesis moves on to the nearest value the bounds
/// still allow.
fn next_windows(
    merge: &Merge<'_>,
    bounds: &[Bounds],
    v: i32,
    verdict: &Verdict,
) -> (Vec<Unit>, Option<i32>) {
    match verdict {
        Verdict::Pending(units) => (units.clone(), None),
        Verdict::Confirmed => (Vec::new(), None),
        Verdict::Refuted((lo, hi)) => {
            let w = if *hi < v { *hi } else { *lo };
            match merge.hypothesis(bounds, w) {
                Verdict::Pending(units) => (units, Some(w)),
                _ => (Vec::new(), Some(w)),
            }
        }
    }
}
