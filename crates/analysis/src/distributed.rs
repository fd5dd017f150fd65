//! One solve cut into independent work units, and their answers merged back into exact
//! values (docs/distributed.md).
//!
//! [`split`] enumerates the positions a fixed number of turns (or sowings) below a root,
//! merging transpositions, and returns the [`Tree`] above them: every position reached is
//! a [`Node`]; the deepest are the *units*, each solved on its own (by `kalah batch`,
//! anywhere, in any order). A unit is a JSON line ([`Unit`]): its id, its position, the
//! rules and the window `(alpha, beta)` it must be solved in, from South. The full window
//! asks for the exact value; a narrower one only for whether the value lies below, inside
//! or above it.
//!
//! [`Merge`] takes the answers ([`Claim`]s) in any order, duplicates included, checks
//! each (the unit's position, the principal variation replayed to the value), and bounds
//! every node by negamax over the tree: South's nodes take the maximum of their children,
//! North's the minimum, a finished game its score, and a unit not answered yet the bounds
//! its seeds allow. Once the units that matter are answered the root and every first move
//! are exact, with principal variations from the root through the tree into the units'
//! own lines; until then [`Merge::needed`] names the units that still matter.
//!
//! [`Merge::hypothesis`] proves a guessed value `v` with far fewer nodes: a node of South
//! is at least `v` when *one* child is, at most `v` when *every* child is (North's the
//! other way round), so only one child of each node needs the harder half of the proof.
//! Each unit is then asked only for the window that decides its part: `(v-1, v+1)` for
//! "exactly `v`" on the line that the guess follows, `(v-1, v)` for "at least `v`", `(v,
//! v+1)` for "at most `v`". When a child chosen to reach `v` turns out not to, the next
//! round chooses another; when the root is shown to lie above or below `v`, the hypothesis
//! is refuted and the bound proved says where to look next.
//!
//! The tree is a graph of positions only where play cannot return to a position, so the
//! families whose positions repeat (solved whole by retrograde analysis) are not split.

use std::collections::HashMap;
use std::fmt;

use kalah_core::{notation, Family, Game, Position, Rules, Side};
use kalah_solver::line::replay;
use kalah_solver::Turn;
use serde_json::{json, Value};

use crate::bounds::reach;
pub use crate::bounds::Bounds;
use crate::openings::{first_steps, Offer};
pub use crate::wire::answer::Claim;
pub use crate::wire::unit::{Unit, Window};
use crate::wire::{field, int_field, read_position, read_rules, text_field};
pub use crate::wire::{read_line, FormatError};
use crate::ReplayError;

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

/// Why a position cannot be split.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SplitError {
    /// The family's positions can repeat: its positions are solved whole.
    Cyclic(Family),
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
        }
    }
}

impl std::error::Error for SplitError {}

/// The tree of `root` to `depth` steps (see [`Tree`]): positions reached by different
/// lines are one node, and a position met above the units keeps its moves even where
/// another line reaches it at the units' depth. A game that ends on the way is a leaf.
pub fn split(game: &Game, root: &Position, step: Step, depth: usize) -> Result<Tree, SplitError> {
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
    for _ in 0..depth {
        let mut next = Vec::new();
        for &n in &level {
            let pos = nodes[n].position;
            if pos.is_over() {
                continue;
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

/// What a sampled unit is asked, and so how its walk went (see [`sample`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Proof {
    /// The exact value: every move of the tree is followed.
    Exact,
    /// Only "at least `v`": South's nodes follow one move, North's every move.
    AtLeast(i32),
    /// Only "at most `v`": North's nodes follow one move, South's every move.
    AtMost(i32),
}

/// One unit drawn at random from the split of a position (see [`sample`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Sampled {
    /// The unit's position (possibly a finished game, which costs nothing).
    pub position: Position,
    /// How many units of the split this one stands for: the product of the numbers of
    /// moves followed on the way down.
    pub weight: f64,
    /// What it is asked, and its window.
    pub proof: Proof,
}

impl Sampled {
    /// The unit's window, from South.
    pub fn window(&self, rules: &Rules) -> Window {
        match self.proof {
            Proof::Exact => Window::full(rules),
            Proof::AtLeast(v) => Window {
                alpha: v - 1,
                beta: v,
            },
            Proof::AtMost(v) => Window {
                alpha: v,
                beta: v + 1,
            },
        }
    }
}

/// `count` units of the split of `root` to `depth` steps, each drawn by a random walk
/// down the tree (Knuth's estimator, 1975): at a node every move is taken with the same
/// chance, and the unit's weight is the product of the numbers of moves on the way, so
/// that the mean of `weight` estimates the number of units, and the mean of `weight`
/// times a unit's cost the cost of solving them all. Transpositions are not merged (the
/// estimate counts a position once per line that reaches it).
///
/// With a hypothesis `v` the walks follow the proof of "the value is `v`" instead: half of
/// them the proof of "at least `v`" (one move of South's nodes, the one leading to the best
/// score for South as it stands, and every move of North's), half the proof of "at most
/// `v`"; the sum of the two halves' estimates is the cost of the hypothesis mode when the
/// moves chosen are right. `seed` fixes the walks.
pub fn sample(
    game: &Game,
    root: &Position,
    step: Step,
    depth: usize,
    count: usize,
    hypothesis: Option<i32>,
    seed: u64,
) -> Result<Vec<Sampled>, SplitError> {
    let rules = *game.rules();
    if rules.family.is_cyclic() {
        return Err(SplitError::Cyclic(rules.family));
    }
    let mut rng = seed ^ 0x9e37_79b9_7f4a_7c15;
    let mut next = move || {
        // splitmix64
        rng = rng.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = rng;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    };
    let mut out = Vec::with_capacity(count);
    for k in 0..count {
        let proof = match hypothesis {
            None => Proof::Exact,
            Some(v) if k % 2 == 0 => Proof::AtLeast(v),
            Some(v) => Proof::AtMost(v),
        };
        let mut pos = *root;
        let mut weight = 1.0;
        for _ in 0..depth {
            if pos.is_over() {
                break;
            }
            let moves = first_steps(game, &pos, step.offer());
            let south = pos.side_to_move() == Side::South;
            let one = match proof {
                Proof::Exact => false,
                Proof::AtLeast(_) => south,
                Proof::AtMost(_) => !south,
            };
            pos = if one {
                // The move to the best score as it stands for the mover, first of equals.
                let sign = if south { 1 } else { -1 };
                let best = moves
                    .iter()
                    .map(|m| sign * m.after.score())
                    .max()
                    .expect("a position in play has moves");
                moves
                    .into_iter()
                    .find(|m| sign * m.after.score() == best)
                    .expect("the best move")
                    .after
            } else {
                weight *= moves.len() as f64;
                moves[(next() % moves.len() as u64) as usize].after
            };
        }
        out.push(Sampled {
            position: pos,
            weight,
            proof,
        });
    }
    Ok(out)
}

/// The manifest's format name, so that another JSON file is not taken for one.
const MANIFEST_FORMAT: &str = "kalah-split";
/// The manifest's format version.
const MANIFEST_VERSION: u64 = 1;

impl Tree {
    /// The root position.
    pub fn root(&self) -> &Position {
        &self.nodes[0].position
    }

    /// The position of unit `id`.
    pub fn unit_position(&self, id: usize) -> &Position {
        &self.nodes[self.units[id]].position
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

    /// The manifest: the rules, the root, the step and depth, and every node with its
    /// moves (`children`: pairs of a move and a node index), its unit id (`unit`) or
    /// `over`. Everything [`Merge`] needs besides the answers.
    pub fn to_json(&self) -> Value {
        let h = self.rules.houses as usize;
        let nodes: Vec<Value> = self
            .nodes
            .iter()
            .map(|n| match &n.kind {
                Kind::Inner(edges) => json!({
                    "position": n.position.to_string(),
                    "children": edges
                        .iter()
                        .map(|e| json!([e.turn.notation(h), e.child]))
                        .collect::<Vec<_>>(),
                }),
                Kind::Unit(id) => json!({"position": n.position.to_string(), "unit": id}),
                Kind::Over => json!({"position": n.position.to_string(), "over": true}),
            })
            .collect();
        let full = Window::full(&self.rules);
        json!({
            "format": MANIFEST_FORMAT,
            "version": MANIFEST_VERSION,
            "rules": self.rules.to_string(),
            "root": self.root().to_string(),
            "step": self.step.name(),
            "depth": self.depth,
            "units": self.units.len(),
            "window": [full.alpha, full.beta],
            "nodes": nodes,
        })
    }

    /// Reads a manifest written by [`Tree::to_json`], checking that every move is legal
    /// and leads to the node it names, that the units are numbered 0, 1, ... once each,
    /// and that every node but the root is reached.
    pub fn from_json(v: &Value) -> Result<Tree, FormatError> {
        let what = "the manifest";
        if v.get("format").and_then(Value::as_str) != Some(MANIFEST_FORMAT) {
            return Err(FormatError(
                "not a manifest written by kalah split (no \"format\": \"kalah-split\")".into(),
            ));
        }
        let version = int_field(v, "version", what)?;
        if version != MANIFEST_VERSION as i64 {
            return Err(FormatError(format!(
                "manifest version {version}: this kalah reads version {MANIFEST_VERSION}"
            )));
        }
        let rules = read_rules(v, what)?;
        let game = Game::new(rules).map_err(|e| FormatError(format!("{what}: {e}")))?;
        let step: Step = text_field(v, "step", what)?
            .parse()
            .map_err(|e| FormatError(format!("{what}: {e}")))?;
        let depth = int_field(v, "depth", what)?;
        let list = field(v, "nodes", what)?
            .as_array()
            .ok_or_else(|| FormatError(format!("{what}: \"nodes\" is not a list")))?;
        if list.is_empty() {
            return Err(FormatError(format!("{what} has no nodes")));
        }
        let mut nodes = Vec::with_capacity(list.len());
        let mut units: Vec<Option<usize>> = Vec::new();
        for (i, n) in list.iter().enumerate() {
            let what = format!("node {i} of the manifest");
            let position = read_position(&game, text_field(n, "position", &what)?, &what)?;
            let kind = if let Some(children) = n.get("children") {
                let children = children
                    .as_array()
                    .ok_or_else(|| FormatError(format!("{what}: \"children\" is not a list")))?;
                let mut edges = Vec::with_capacity(children.len());
                for c in children {
                    let bad = || FormatError(format!("{what}: a child is not [move, node]"));
                    let pair = c.as_array().filter(|p| p.len() == 2).ok_or_else(bad)?;
                    let text = pair[0].as_str().ok_or_else(bad)?;
                    let child = pair[1].as_u64().ok_or_else(bad)? as usize;
                    if child >= list.len() || child == 0 {
                        return Err(FormatError(format!("{what}: child {child} is not a node")));
                    }
                    // Where the move leads is checked once every node is read.
                    let (_, sowings) = notation::play_moves(&game, position, text)
                        .map_err(|e| FormatError(format!("{what}: move '{text}': {e}")))?;
                    edges.push(Edge {
                        turn: Turn {
                            side: position.side_to_move(),
                            sowings,
                        },
                        child,
                    });
                }
                Kind::Inner(edges)
            } else if let Some(id) = n.get("unit") {
                let id = id
                    .as_u64()
                    .ok_or_else(|| FormatError(format!("{what}: \"unit\" is not an id")))?
                    as usize;
                if id >= list.len() {
                    return Err(FormatError(format!("{what}: unit id {id} is out of range")));
                }
                if units.len() <= id {
                    units.resize(id + 1, None);
                }
                if units[id].replace(i).is_some() {
                    return Err(FormatError(format!(
                        "unit {id} appears twice in the manifest"
                    )));
                }
                Kind::Unit(id)
            } else if n.get("over").and_then(Value::as_bool) == Some(true) {
                if !position.is_over() {
                    return Err(FormatError(format!("{what} is marked over but is not")));
                }
                Kind::Over
            } else {
                return Err(FormatError(format!(
                    "{what} has none of \"children\", \"unit\" and \"over\""
                )));
            };
            nodes.push(Node { position, kind });
        }
        let units = units
            .into_iter()
            .enumerate()
            .map(|(id, n)| n.ok_or_else(|| FormatError(format!("unit {id} is missing"))))
            .collect::<Result<Vec<_>, _>>()?;
        let tree = Tree {
            rules,
            step,
            depth: depth.max(0) as usize,
            nodes,
            units,
        };
        tree.check(&game)?;
        if int_field(v, "units", what)? != tree.units.len() as i64 {
            return Err(FormatError(format!(
                "{what} says {} units but lists {}",
                v["units"],
                tree.units.len()
            )));
        }
        Ok(tree)
    }

    /// Every move leads to the node it names, every node but the root is reached, and
    /// play never leads back to a node it came from.
    fn check(&self, game: &Game) -> Result<(), FormatError> {
        let mut reached = vec![false; self.nodes.len()];
        for (i, n) in self.nodes.iter().enumerate() {
            if let Kind::Inner(edges) = &n.kind {
                for e in edges {
                    let mut p = n.position;
                    for &j in &e.turn.sowings {
                        p = game.play_unchecked(&p, j);
                    }
                    // As written: a finished game's discarded seeds are not in the text.
                    if p.to_string() != self.nodes[e.child].position.to_string() {
                        return Err(FormatError(format!(
                            "node {i} of the manifest: move {} leads to {p}, not to node {} ({})",
                            e.turn.notation(self.rules.houses as usize),
                            e.child,
                            self.nodes[e.child].position
                        )));
                    }
                    reached[e.child] = true;
                }
            }
        }
        if let Some(i) = (1..self.nodes.len()).find(|&i| !reached[i]) {
            return Err(FormatError(format!(
                "node {i} of the manifest is not reached from the root"
            )));
        }
        // Positions of these families never repeat, so a cycle means a damaged file;
        // the order below is what the negamax needs anyway.
        self.order()
            .map(|_| ())
            .ok_or_else(|| FormatError("the manifest's moves go round a cycle".into()))
    }

    /// The nodes children first (a topological order of the moves), or `None` if the
    /// moves go round a cycle.
    fn order(&self) -> Option<Vec<usize>> {
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

/// What the answers say of a hypothesis "the root's value is `v`".
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Proved: the value is `v`.
    Confirmed,
    /// Disproved: the root's bounds exclude `v`.
    Refuted(Bounds),
    /// Not yet decided: these units, in these windows, decide it or move the proof on.
    Pending(Vec<Unit>),
}

/// The answers gathered for the units of a [`Tree`], and what they prove.
pub struct Merge<'t> {
    tree: &'t Tree,
    game: Game,
    /// What the answers proved of each unit, from South.
    known: Vec<Bounds>,
    /// A line from the unit's position replaying to its exact value, where one came.
    lines: Vec<Option<Vec<Turn>>>,
    /// Answers taken, duplicates included.
    answers: usize,
}

/// Where a move leads inside a line of turns: `line` continues with `turn`, its sowings
/// joining the last turn when the same player is still to move (an extra turn).
fn extend(line: &mut Vec<Turn>, turn: &Turn) {
    match line.last_mut() {
        Some(t) if t.side == turn.side => t.sowings.extend_from_slice(&turn.sowings),
        _ => line.push(turn.clone()),
    }
}

/// The requirement a proof puts on a node, as bits: at least `v`, at most `v`.
const AT_LEAST: u8 = 1;
const AT_MOST: u8 = 2;
/// For a unit that is a sibling of the line the proof follows: ask for both halves, so
/// that a sibling worth exactly `v` comes back exact and can take over the line if the
/// child chosen for it fails, without another round.
const WIDE: u8 = 4;

impl<'t> Merge<'t> {
    /// No answers yet.
    pub fn new(tree: &'t Tree) -> Merge<'t> {
        let game = Game::new(tree.rules).expect("a tree's rules are valid");
        let known = tree
            .units
            .iter()
            .map(|&n| reach(&tree.nodes[n].position))
            .collect();
        Merge {
            tree,
            game,
            known,
            lines: vec![None; tree.units.len()],
            answers: 0,
        }
    }

    /// The game of the tree.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// Takes one answer for unit `id` at `position`: checked against the manifest, the
    /// line replayed, and combined with earlier answers for the unit (a contradiction is
    /// refused: one of them is wrong).
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
        let (lo, hi) = self.known[u];
        let (clo, chi) = claim.bounds();
        let (nlo, nhi) = (lo.max(clo), hi.min(chi));
        if nlo > nhi {
            return Err(MergeError::Conflict {
                id,
                known: (lo, hi),
                claim: (clo, chi),
            });
        }
        self.known[u] = (nlo, nhi);
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

    /// The units with an exact value.
    pub fn exact_units(&self) -> usize {
        self.known.iter().filter(|(lo, hi)| lo == hi).count()
    }

    /// Bounds of every node from South, by negamax over the tree.
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
                        extend(&mut line, t);
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
                    extend(&mut line, &e.turn);
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
                        extend(&mut line, t);
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

    /// What the answers say of the hypothesis "the root's value is `v`" (see the module
    /// documentation): confirmed, refuted with the root's bounds, or the units to solve
    /// next with their windows.
    pub fn hypothesis(&self, bounds: &[Bounds], v: i32) -> Verdict {
        let (lo, hi) = bounds[0];
        if lo == v && hi == v {
            return Verdict::Confirmed;
        }
        if hi < v || lo > v {
            return Verdict::Refuted((lo, hi));
        }
        // What each node must be shown to be; a node is processed again when a later path
        // asks more of it.
        let mut need = vec![0u8; self.tree.nodes.len()];
        let mut done = vec![0u8; self.tree.nodes.len()];
        let mut unit_need: Vec<u8> = vec![0; self.tree.units.len()];
        need[0] = AT_LEAST | AT_MOST;
        let mut stack = vec![0];
        while let Some(n) = stack.pop() {
            let (lo, hi) = bounds[n];
            let unproved = |r: u8| {
                let mut r = r & (AT_LEAST | AT_MOST);
                if lo >= v {
                    r &= !AT_LEAST;
                }
                if hi <= v {
                    r &= !AT_MOST;
                }
                r
            };
            let node = &self.tree.nodes[n];
            if let Kind::Unit(u) = node.kind {
                // A unit keeps the window of everything asked of it, and of what is
                // proved already: where that makes both halves, the answer is exact, with
                // its line, rather than a second bound.
                if unproved(need[n]) != 0 {
                    let proved = match (lo >= v, hi <= v) {
                        (true, _) => AT_LEAST,
                        (_, true) => AT_MOST,
                        _ => 0,
                    };
                    unit_need[u] = need[n] | proved;
                }
                continue;
            }
            let req = unproved(need[n] & !done[n]);
            done[n] |= need[n];
            if req == 0 {
                continue;
            }
            let edges = match &node.kind {
                Kind::Unit(_) => continue,
                // A finished game's bounds are exact: nothing is left to prove.
                Kind::Over => continue,
                Kind::Inner(edges) => edges,
            };
            let south = node.position.side_to_move() == Side::South;
            // The half that every child must meet, and the half that one child must.
            let (all, one) = if south {
                (AT_MOST, AT_LEAST)
            } else {
                (AT_LEAST, AT_MOST)
            };
            let mut ask = |child: usize, r: u8, stack: &mut Vec<usize>| {
                if need[child] | r != need[child] {
                    need[child] |= r;
                    stack.push(child);
                }
            };
            let mut chosen = None;
            if req & one != 0 {
                // The child most likely to reach v: an exact one that does, else the one
                // with the best midpoint of its bounds for the mover (for a unit not yet
                // answered, its score as it stands); ties in move order.
                let reaches = |b: Bounds| if south { b.1 >= v } else { b.0 <= v };
                chosen = edges
                    .iter()
                    .map(|e| e.child)
                    .filter(|&c| reaches(bounds[c]))
                    .max_by_key(|&c| {
                        let (clo, chi) = bounds[c];
                        let mid = midpoint(clo, chi);
                        let exact = clo == chi;
                        let key = if south { mid } else { -mid };
                        (exact, key)
                    });
                // Not a single child can: the bounds would have refuted the node.
                if let Some(c) = chosen {
                    ask(c, one | (req & all), &mut stack);
                }
            }
            if req & all != 0 {
                let wide = if req & one != 0 { WIDE } else { 0 };
                for e in edges {
                    if Some(e.child) != chosen {
                        let r = match self.tree.nodes[e.child].kind {
                            Kind::Unit(_) => all | wide,
                            _ => all,
                        };
                        ask(e.child, r, &mut stack);
                    }
                }
            }
        }
        let units = unit_need
            .iter()
            .enumerate()
            .filter(|(_, &r)| r != 0)
            .map(|(u, &r)| {
                let window = match r & (AT_LEAST | AT_MOST) {
                    _ if r & WIDE != 0 => Window {
                        alpha: v - 1,
                        beta: v + 1,
                    },
                    AT_LEAST => Window {
                        alpha: v - 1,
                        beta: v,
                    },
                    AT_MOST => Window {
                        alpha: v,
                        beta: v + 1,
                    },
                    _ => Window {
                        alpha: v - 1,
                        beta: v + 1,
                    },
                };
                self.tree.unit(u, window)
            })
            .collect();
        Verdict::Pending(units)
    }
}

/// The middle of bounds, as the guess for a value (saturating for one-sided bounds).
fn midpoint(lo: i32, hi: i32) -> i32 {
    ((lo as i64 + hi as i64) / 2) as i32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_manifest_round_trips_through_its_json() {
        for (rules, step, depth) in [
            (Rules::kalah(4, 3), Step::Turn, 2),
            (Rules::kalah(3, 3), Step::Sowing, 3),
        ] {
            let game = Game::new(rules).unwrap();
            let tree = split(&game, &game.start(), step, depth).unwrap();
            let text = tree.to_json().to_string();
            let back = Tree::from_json(&serde_json::from_str(&text).unwrap()).unwrap();
            assert_eq!(back, tree);
        }
    }
}
