//! The tree of a split solve: the positions a fixed number of steps below a root, each
//! once, with the moves between them; its deepest positions in play are the work units.

use std::collections::HashMap;
use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};

use kalah_core::{Family, Game, Position, Rules};
use kalah_solver::Turn;

use super::budget::{self, Budget, Growth, TooLarge};
use crate::game::turns::{first_steps, Offer};
use crate::wire::unit::{Unit, Window};

/// What one level of the tree is: a whole turn of the mover (extra sowings included), or a
/// single sowing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Step {
    /// A whole turn: the chain of sowings while extra turns last.
    #[default]
    Turn,
    /// One sowing; after an extra turn the same player moves again one level down.
    Sowing,
}

impl Step {
    /// The name written in manifests and on the command line: `turn` or `sowing`.
    pub fn name(self) -> &'static str {
        match self {
            Step::Turn => "turn",
            Step::Sowing => "sowing",
        }
    }

    /// The first moves a node of the tree has, as [`first_steps`] lists them; also where
    /// the pie rule's offer comes in a split's merge.
    pub fn offer(self) -> Offer {
        match self {
            Step::Turn => Offer::AfterTurn,
            Step::Sowing => Offer::AfterFirstSowing,
        }
    }
}

impl std::str::FromStr for Step {
    type Err = String;
    fn from_str(s: &str) -> Result<Step, String> {
        match s {
            "turn" => Ok(Step::Turn),
            "sowing" => Ok(Step::Sowing),
            _ => Err(format!("unknown step '{s}': expected turn or sowing")),
        }
    }
}

/// One move of the tree, and the node it leads to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Edge {
    /// The move: a turn, or a single sowing (see [`Step`]).
    pub turn: Turn,
    /// The index of the node it leads to in [`Tree::nodes`].
    pub child: usize,
}

/// What a node of the tree is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A position above the units, with its moves.
    Inner(Vec<Edge>),
    /// A work unit: its id, an index into [`Tree::units`].
    Unit(usize),
    /// A finished game: its value is its score.
    Over,
}

/// One position of the tree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Node {
    /// The position.
    pub position: Position,
    /// Its place in the tree.
    pub kind: Kind,
}

/// A position split into work units: the positions reached from the root in at most
/// `depth` steps, each once, with the moves between them. Node 0 is the root.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tree {
    /// The rules of the game.
    pub rules: Rules,
    /// What a level of the tree is.
    pub step: Step,
    /// Levels between the root and the units.
    pub depth: usize,
    /// Every position of the tree, the root first, then level by level.
    pub nodes: Vec<Node>,
    /// The node of each unit, by unit id.
    pub units: Vec<usize>,
}

/// The size of a [`Tree`] ([`Tree::shape`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    /// Work units.
    pub units: usize,
    /// Positions above the units, with moves.
    pub inner: usize,
    /// Finished games.
    pub over: usize,
    /// Moves that lead to a position some other move of the tree already reached.
    pub transpositions: usize,
}

/// Why a position cannot be split.
#[derive(Clone, Debug, PartialEq)]
pub enum SplitError {
    /// The family's positions can repeat: its positions are solved whole.
    Cyclic(Family),
    /// The tree would not fit in the memory available (see [`split_bounded`]).
    TooLarge(TooLarge),
    /// The enumeration was stopped through its cancel flag.
    Cancelled,
    /// A sample of more units than the memory available holds.
    SampleTooLarge {
        /// The units asked for.
        count: usize,
        /// The most that fit.
        max: usize,
    },
}

impl fmt::Display for SplitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SplitError::Cyclic(family) => write!(
                f,
                "{} positions can repeat, so their values come from one retrograde analysis \
                 of the whole game graph, which cannot be cut into independent units: solve \
                 the position directly",
                family.long_title()
            ),
            SplitError::TooLarge(e) => write!(f, "{e}"),
            SplitError::Cancelled => f.write_str("the split was cancelled"),
            SplitError::SampleTooLarge { count, max } => write!(
                f,
                "--sample {count}: the units would not fit in the memory available, which \
                 holds at most {max}: draw fewer"
            ),
        }
    }
}

impl std::error::Error for SplitError {}

/// The tree of `root` to `depth` steps (see [`Tree`]): positions reached by different
/// lines are one node, and a position met above the units keeps its moves even where
/// another line reaches it at the units' depth. A game that ends on the way is a leaf.
/// Unbounded: [`split_bounded`] is the same with a bound on the positions, progress and a
/// cancel flag.
pub fn split(game: &Game, root: &Position, step: Step, depth: usize) -> Result<Tree, SplitError> {
    let budget = Budget {
        max_positions: usize::MAX,
        cancel: &AtomicBool::new(false),
        progress: &mut |_| {},
    };
    split_bounded(game, root, step, depth, budget)
}

/// [`split`] within `budget`: refused ([`SplitError::TooLarge`]) as soon as the tree holds
/// more positions than the budget allows, or its estimate from the levels built passes
/// that by far (so a tree too large for the memory is refused in its first levels, not
/// when the memory runs out); stopped ([`SplitError::Cancelled`]) soon after the flag is
/// raised; progress reported after each level and every few thousand positions.
pub fn split_bounded(
    game: &Game,
    root: &Position,
    step: Step,
    depth: usize,
    budget: Budget<'_>,
) -> Result<Tree, SplitError> {
    let rules = *game.rules();
    if rules.family.is_cyclic() {
        return Err(SplitError::Cyclic(rules.family));
    }
    let mut nodes = vec![Node {
        position: *root,
        kind: Kind::Over,
    }];
    let mut index: HashMap<Position, usize> = HashMap::from([(*root, 0)]);
    let mut level = vec![0];
    let mut sizes = vec![1];
    let Budget {
        max_positions,
        cancel,
        progress,
    } = budget;
    for depth_now in 1..=depth {
        let mut growth = Growth {
            level: depth_now,
            depth,
            positions: nodes.len(),
            estimate: (depth_now > 1).then(|| budget::estimate(&sizes, depth)),
        };
        let mut next = Vec::new();
        for (i, &n) in level.iter().enumerate() {
            if i % POLL == 0 {
                if cancel.load(Relaxed) {
                    return Err(SplitError::Cancelled);
                }
                if nodes.len() > max_positions {
                    // Past the bound already, in the middle of a level: refused.
                    let mut so_far = sizes.clone();
                    so_far.push(next.len());
                    budget::check(&so_far, depth, max_positions).map_err(SplitError::TooLarge)?;
                }
                growth.positions = nodes.len();
                progress(&growth);
            }
            expand(game, step, &mut nodes, &mut index, &mut next, n);
        }
        sizes.push(next.len());
        budget::check(&sizes, depth, max_positions).map_err(SplitError::TooLarge)?;
        level = next;
    }
    // The deepest level's positions still in play are the units.
    let mut units = Vec::new();
    for &n in &level {
        if !nodes[n].position.is_over() {
            nodes[n].kind = Kind::Unit(units.len());
            units.push(n);
        }
    }
    Ok(Tree {
        rules,
        step,
        depth,
        nodes,
        units,
    })
}

/// Positions expanded between two looks at the cancel flag and the bound.
const POLL: usize = 4096;

/// Gives node `n` (a game still in play) its moves: each child is the node of its position,
/// added (and pushed on `next`, the next level) where the tree does not hold it yet.
fn expand(
    game: &Game,
    step: Step,
    nodes: &mut Vec<Node>,
    index: &mut HashMap<Position, usize>,
    next: &mut Vec<usize>,
    n: usize,
) {
    let pos = nodes[n].position;
    if pos.is_over() {
        return;
    }
    let mut edges = Vec::new();
    for s in first_steps(game, &pos, step.offer()) {
        let child = *index.entry(s.after).or_insert_with(|| {
            nodes.push(Node {
                position: s.after,
                kind: Kind::Over,
            });
            next.push(nodes.len() - 1);
            nodes.len() - 1
        });
        edges.push(Edge {
            turn: s.turn,
            child,
        });
    }
    nodes[n].kind = Kind::Inner(edges);
}

impl Tree {
    /// The root position.
    pub fn root(&self) -> &Position {
        &self.nodes[0].position
    }

    /// The position of unit `id`.
    pub fn unit_position(&self, id: usize) -> &Position {
        &self.nodes[self.units[id]].position
    }

    /// The most seeds in the houses among the positions of the units `ids` (0 for none):
    /// what a solver for them is sized by.
    pub fn most_seeds(&self, ids: &[usize]) -> usize {
        ids.iter()
            .map(|&u| self.unit_position(u).seeds_in_houses() as usize)
            .max()
            .unwrap_or(0)
    }

    /// Unit `id` to be solved in `window`.
    pub fn unit(&self, id: usize, window: Window) -> Unit {
        Unit {
            id: id as u64,
            position: *self.unit_position(id),
            window,
            rules: self.rules,
        }
    }

    /// Every unit, each to be solved in `window`.
    pub fn units_in(&self, window: Window) -> Vec<Unit> {
        (0..self.units.len())
            .map(|id| self.unit(id, window))
            .collect()
    }

    /// How many nodes of each kind the tree has, and how many moves transpose.
    pub fn shape(&self) -> Shape {
        let over = self.nodes.iter().filter(|n| n.kind == Kind::Over).count();
        let edges: usize = self
            .nodes
            .iter()
            .map(|n| match &n.kind {
                Kind::Inner(e) => e.len(),
                _ => 0,
            })
            .sum();
        Shape {
            units: self.units.len(),
            inner: self.nodes.len() - self.units.len() - over,
            over,
            transpositions: edges + 1 - self.nodes.len(),
        }
    }

    /// The nodes children first (a topological order of the moves), or `None` if the
    /// moves go round a cycle.
    pub(crate) fn order(&self) -> Option<Vec<usize>> {
        let mut order = Vec::with_capacity(self.nodes.len());
        // 0: not seen, 1: on the path, 2: done.
        let mut state = vec![0u8; self.nodes.len()];
        let mut stack = vec![(0usize, 0usize)];
        state[0] = 1;
        while let Some(&mut (n, ref mut next)) = stack.last_mut() {
            let edges = match &self.nodes[n].kind {
                Kind::Inner(edges) => &edges[..],
                _ => &[],
            };
            if let Some(e) = edges.get(*next) {
                *next += 1;
                match state[e.child] {
                    0 => {
                        state[e.child] = 1;
                        stack.push((e.child, 0));
                    }
                    1 => return None,
                    _ => {}
                }
            } else {
                state[n] = 2;
                order.push(n);
                stack.pop();
            }
        }
        Some(order)
    }
}
