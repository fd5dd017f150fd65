//! The answers of a split's units merged into bounds of every node of its tree, by
//! negamax: exact values with principal variations once the units that matter are
//! answered, and until then the units still needed.

use std::fmt;

use kalah_core::{Game, Position, Side};
use kalah_solver::line::{push_turn, replay};
use kalah_solver::Turn;

use super::tree::{Edge, Kind, Tree};
use crate::game::bounds::{reach, Bounds};
use crate::wire::answer::Claim;
use kalah_solver::line::ReplayError;

/// Why an answer was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MergeError {
    /// No unit of the manifest has this id.
    UnknownUnit(u64),
    /// The answer's position is not the unit's.
    WrongPosition {
        /// The unit.
        id: u64,
        /// The unit's position in the manifest.
        expected: Position,
        /// The position answered.
        found: Position,
    },
    /// The principal variation does not replay to the value.
    Replay {
        /// The unit.
        id: u64,
        /// What went wrong.
        error: ReplayError,
    },
    /// A bound answered for the unit is refuted by a solve of the unit.
    Unproved {
        /// The unit.
        id: u64,
        /// The bound claimed.
        claim: (i32, i32),
        /// What the solve proved.
        proved: (i32, i32),
    },
    /// The answer contradicts an earlier answer for the same unit.
    Conflict {
        /// The unit.
        id: u64,
        /// What the earlier answers proved: lower and upper bound.
        known: (i32, i32),
        /// The new claim's bounds.
        claim: (i32, i32),
    },
}

fn bounds_text((lo, hi): (i32, i32)) -> String {
    match (lo, hi) {
        (lo, hi) if lo == hi => format!("exactly {lo:+}"),
        (i32::MIN, hi) => format!("at most {hi:+}"),
        (lo, i32::MAX) => format!("at least {lo:+}"),
        (lo, hi) => format!("between {lo:+} and {hi:+}"),
    }
}

impl fmt::Display for MergeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MergeError::UnknownUnit(id) => write!(f, "unit {id} is not in the manifest"),
            MergeError::WrongPosition {
                id,
                expected,
                found,
            } => write!(
                f,
                "unit {id} is {expected} in the manifest, but the answer is for {found}"
            ),
            MergeError::Replay { id, error } => {
                write!(
                    f,
                    "unit {id}: the principal variation fails its check: {error}"
                )
            }
            MergeError::Unproved { id, claim, proved } => write!(
                f,
                "unit {id}: an answer says {}, but a solve of the unit proves {}: the \
                 answer is wrong",
                bounds_text(*claim),
                bounds_text(*proved)
            ),
            MergeError::Conflict { id, known, claim } => write!(
                f,
                "unit {id}: the answer says {}, but earlier answers proved {}",
                bounds_text(*claim),
                bounds_text(*known)
            ),
        }
    }
}

impl std::error::Error for MergeError {}

/// A first move of the root, merged.
#[derive(Clone, Debug)]
pub struct FirstMove {
    /// The move.
    pub turn: Turn,
    /// Bounds of its value from South.
    pub bounds: Bounds,
    /// A principal variation from the root starting with the move, replayed to the
    /// value, when the value is exact and the lines of the units on the way are known.
    pub pv: Option<Vec<Turn>>,
}

/// The answers gathered for the units of a [`Tree`], and what they prove.
pub struct Merge<'t> {
    pub(super) tree: &'t Tree,
    pub(super) game: Game,
    /// What is proved of each unit, from South: the bounds its seeds allow, met with
    /// what [`Merge::verify`] proved again (or what [`Merge::trust`] took on trust).
    pub(super) known: Vec<Bounds>,
    /// What the answers claim of each unit, not yet proved again included.
    pub(super) claimed: Vec<Bounds>,
    /// Units whose claims were taken without proof ([`Merge::trust`]).
    pub(super) trusted: usize,
    /// A line from the unit's position replaying to its exact value, where one came.
    lines: Vec<Option<Vec<Turn>>>,
    /// Answers taken, duplicates included.
    answers: usize,
}

impl<'t> Merge<'t> {
    /// No answers yet.
    pub fn new(tree: &'t Tree) -> Merge<'t> {
        let game = Game::new(tree.rules).expect("a tree's rules are valid");
        let known: Vec<Bounds> = tree
            .units
            .iter()
            .map(|&n| reach(&tree.nodes[n].position))
            .collect();
        Merge {
            tree,
            game,
            claimed: known.clone(),
            known,
            lines: vec![None; tree.units.len()],
            trusted: 0,
            answers: 0,
        }
    }

    /// The game of the tree.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// Takes one answer for unit `id` at `position`: checked against the manifest, the
    /// line replayed, and combined with earlier answers for the unit (a contradiction is
    /// refused: one of them is wrong). What it claims counts only once proved again
    /// ([`Merge::verify`]): a line that replays to a value shows the value can be reached,
    /// not that it is best play.
    pub fn add(&mut self, id: u64, position: &Position, claim: Claim) -> Result<(), MergeError> {
        let u = usize::try_from(id)
            .ok()
            .filter(|&u| u < self.tree.units.len())
            .ok_or(MergeError::UnknownUnit(id))?;
        let expected = *self.tree.unit_position(u);
        if *position != expected {
            return Err(MergeError::WrongPosition {
                id,
                expected,
                found: *position,
            });
        }
        if let Claim::Exact { value, pv } = &claim {
            replay(&self.game, position, pv, *value)
                .map_err(|error| MergeError::Replay { id, error })?;
        }
        let (lo, hi) = self.claimed[u];
        let (clo, chi) = claim.bounds();
        let (nlo, nhi) = (lo.max(clo), hi.min(chi));
        if nlo > nhi {
            return Err(MergeError::Conflict {
                id,
                known: (lo, hi),
                claim: (clo, chi),
            });
        }
        self.claimed[u] = (nlo, nhi);
        if let Claim::Exact { pv, .. } = claim {
            self.lines[u].get_or_insert(pv);
        }
        self.answers += 1;
        Ok(())
    }

    /// Answers taken, duplicates included.
    pub fn answers(&self) -> usize {
        self.answers
    }

    /// The units answered with an exact value.
    pub fn exact_units(&self) -> usize {
        self.claimed.iter().filter(|(lo, hi)| lo == hi).count()
    }

    /// Units whose answers were taken without proof ([`Merge::trust`]).
    pub fn trusted(&self) -> usize {
        self.trusted
    }

    /// Bounds of every node from South, by negamax over the tree from what is proved of
    /// the units.
    pub fn bounds(&self) -> Vec<Bounds> {
        let mut b = vec![(0, 0); self.tree.nodes.len()];
        for n in self.tree.order().expect("a checked tree has no cycle") {
            let node = &self.tree.nodes[n];
            b[n] = match &node.kind {
                Kind::Over => (node.position.score(), node.position.score()),
                Kind::Unit(u) => self.known[*u],
                Kind::Inner(edges) => {
                    let children = edges.iter().map(|e| b[e.child]);
                    match node.position.side_to_move() {
                        Side::South => children
                            .reduce(|(a, b), (c, d)| (a.max(c), b.max(d)))
                            .expect("an inner node has moves"),
                        Side::North => children
                            .reduce(|(a, b), (c, d)| (a.min(c), b.min(d)))
                            .expect("an inner node has moves"),
                    }
                }
            };
        }
        b
    }

    /// The units whose exact values the root still needs, in id order: those below every
    /// node not yet exact whose bounds can still decide it (a child of South's node whose
    /// upper bound is no more than the best lower bound of its siblings cannot, and the
    /// other way round for North). Empty once the root is exact.
    pub fn needed(&self, bounds: &[Bounds]) -> Vec<usize> {
        let mut seen = vec![false; self.tree.nodes.len()];
        let mut out = Vec::new();
        let mut stack = vec![0];
        while let Some(n) = stack.pop() {
            let (lo, hi) = bounds[n];
            if seen[n] || lo == hi {
                continue;
            }
            seen[n] = true;
            match &self.tree.nodes[n].kind {
                Kind::Unit(u) => out.push(*u),
                Kind::Over => {}
                Kind::Inner(edges) => {
                    let south = self.tree.nodes[n].position.side_to_move() == Side::South;
                    for e in edges {
                        let (clo, chi) = bounds[e.child];
                        let can_decide = if south { chi > lo } else { clo < hi };
                        if can_decide {
                            stack.push(e.child);
                        }
                    }
                }
            }
        }
        out.sort_unstable();
        out
    }

    /// A principal variation from node `n` to the end of the game, when its value is
    /// exact and the units on the way have lines: the moves of the tree that keep the
    /// value, then the unit's own line.
    fn line_from(&self, bounds: &[Bounds], n: usize) -> Option<Vec<Turn>> {
        let (value, hi) = bounds[n];
        if value != hi {
            return None;
        }
        let mut line = Vec::new();
        let mut n = n;
        loop {
            match &self.tree.nodes[n].kind {
                Kind::Over => return Some(line),
                Kind::Unit(u) => {
                    for t in self.lines[*u].as_ref()? {
                        push_turn(&mut line, t.clone());
                    }
                    return Some(line);
                }
                Kind::Inner(edges) => {
                    // Prefer a child whose own line is known.
                    let keeps: Vec<&Edge> = edges
                        .iter()
                        .filter(|e| bounds[e.child] == (value, value))
                        .collect();
                    let e = keeps
                        .iter()
                        .find(|e| self.line_from(bounds, e.child).is_some())
                        .or(keeps.first())?;
                    push_turn(&mut line, e.turn.clone());
                    n = e.child;
                }
            }
        }
    }

    /// A principal variation of the root, replayed to its value, when the root is exact
    /// and the units on the way have lines.
    pub fn principal_variation(&self, bounds: &[Bounds]) -> Option<Vec<Turn>> {
        let line = self.line_from(bounds, 0)?;
        replay(&self.game, self.tree.root(), &line, bounds[0].0).ok()?;
        Some(line)
    }

    /// The root's moves with their bounds and, where exact, their lines (replayed).
    pub fn first_moves(&self, bounds: &[Bounds]) -> Vec<FirstMove> {
        let edges = match &self.tree.nodes[0].kind {
            Kind::Inner(edges) => &edges[..],
            _ => &[],
        };
        edges
            .iter()
            .map(|e| {
                let b = bounds[e.child];
                let pv = self.line_from(bounds, e.child).and_then(|rest| {
                    let mut line = vec![e.turn.clone()];
                    for t in &rest {
                        push_turn(&mut line, t.clone());
                    }
                    replay(&self.game, self.tree.root(), &line, b.0).ok()?;
                    Some(line)
                });
                FirstMove {
                    turn: e.turn.clone(),
                    bounds: b,
                    pv,
                }
            })
            .collect()
    }
}
