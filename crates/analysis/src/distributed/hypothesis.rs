//! A guessed value proved or refuted with narrow windows: one child of each node needs
//! the harder half of the proof, the others only to stay on their side of the guess.

use kalah_core::Side;

use super::merge::Merge;
use super::tree::{Edge, Kind, Tree};
use crate::game::bounds::Bounds;
use crate::wire::unit::{Unit, Window};

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

/// The requirement a proof puts on a node, as bits: at least `v`, at most `v`.
const AT_LEAST: u8 = 1;
const AT_MOST: u8 = 2;
/// For a unit that is a sibling of the line the proof follows: ask for both halves, so
/// that a sibling worth exactly `v` comes back exact and can take over the line if the
/// child chosen for it fails, without another round.
const WIDE: u8 = 4;

impl Merge<'_> {
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
        let mut walk = Walk::new(self.tree, bounds, v);
        walk.run();
        Verdict::Pending(walk.units())
    }
}

/// The proof of a hypothesis walked down the tree: what each node must be shown to be
/// ([`AT_LEAST`], [`AT_MOST`]); a node is processed again when a later path asks more of
/// it.
struct Walk<'a> {
    tree: &'a Tree,
    bounds: &'a [Bounds],
    /// The hypothesis.
    v: i32,
    /// What each node is asked.
    need: Vec<u8>,
    /// What each node's children have been asked for already.
    done: Vec<u8>,
    /// What each unit is asked, with [`WIDE`] and what is proved of it already.
    unit_need: Vec<u8>,
    /// Nodes whose requirement grew, to be processed.
    stack: Vec<usize>,
}

impl<'a> Walk<'a> {
    /// The walk that asks both halves of the root.
    fn new(tree: &'a Tree, bounds: &'a [Bounds], v: i32) -> Walk<'a> {
        let mut need = vec![0u8; tree.nodes.len()];
        need[0] = AT_LEAST | AT_MOST;
        Walk {
            tree,
            bounds,
            v,
            need,
            done: vec![0u8; tree.nodes.len()],
            unit_need: vec![0; tree.units.len()],
            stack: vec![0],
        }
    }

    /// Processes nodes until no requirement grows.
    fn run(&mut self) {
        while let Some(n) = self.stack.pop() {
            match &self.tree.nodes[n].kind {
                Kind::Unit(u) => self.at_unit(n, *u),
                Kind::Inner(edges) => self.at_inner(n, edges),
                // A finished game's bounds are exact: nothing is left to prove.
                Kind::Over => {}
            }
        }
    }

    /// The halves of `r` that node `n`'s bounds do not prove yet.
    fn unproved(&self, n: usize, r: u8) -> u8 {
        let (lo, hi) = self.bounds[n];
        let mut r = r & (AT_LEAST | AT_MOST);
        if lo >= self.v {
            r &= !AT_LEAST;
        }
        if hi <= self.v {
            r &= !AT_MOST;
        }
        r
    }

    /// A unit keeps the window of everything asked of it, and of what is proved already:
    /// where that makes both halves, the answer is exact, with its line, rather than a
    /// second bound.
    fn at_unit(&mut self, n: usize, u: usize) {
        if self.unproved(n, self.need[n]) == 0 {
            return;
        }
        let (lo, hi) = self.bounds[n];
        let proved = match (lo >= self.v, hi <= self.v) {
            (true, _) => AT_LEAST,
            (_, true) => AT_MOST,
            _ => 0,
        };
        self.unit_need[u] = self.need[n] | proved;
    }

    /// An inner node passes on what it is newly asked: the half that one child must meet
    /// to the child chosen for it, the half that every child must meet to every child.
    fn at_inner(&mut self, n: usize, edges: &'a [Edge]) {
        let req = self.unproved(n, self.need[n] & !self.done[n]);
        self.done[n] |= self.need[n];
        if req == 0 {
            return;
        }
        let south = self.tree.nodes[n].position.side_to_move() == Side::South;
        let (all, one) = if south {
            (AT_MOST, AT_LEAST)
        } else {
            (AT_LEAST, AT_MOST)
        };
        let mut chosen = None;
        if req & one != 0 {
            chosen = self.choose(edges, south);
            // Not a single child can: the bounds would have refuted the node.
            if let Some(c) = chosen {
                self.ask(c, one | (req & all));
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
                    self.ask(e.child, r);
                }
            }
        }
    }

    /// The child most likely to reach the hypothesis: an exact one that does, else the one
    /// with the best midpoint of its bounds for the mover (for a unit not yet answered, its
    /// score as it stands); ties in move order.
    fn choose(&self, edges: &[Edge], south: bool) -> Option<usize> {
        let v = self.v;
        let reaches = |b: Bounds| if south { b.1 >= v } else { b.0 <= v };
        edges
            .iter()
            .map(|e| e.child)
            .filter(|&c| reaches(self.bounds[c]))
            .max_by_key(|&c| {
                let (clo, chi) = self.bounds[c];
                let mid = midpoint(clo, chi);
                let exact = clo == chi;
                let key = if south { mid } else { -mid };
                (exact, key)
            })
    }

    /// Asks `r` of `child` too, to be processed again if that is more than before.
    fn ask(&mut self, child: usize, r: u8) {
        if self.need[child] | r != self.need[child] {
            self.need[child] |= r;
            self.stack.push(child);
        }
    }

    /// The units asked something, each in the window that decides it.
    fn units(&self) -> Vec<Unit> {
        self.unit_need
            .iter()
            .enumerate()
            .filter(|(_, &r)| r != 0)
            .map(|(u, &r)| self.tree.unit(u, window(r, self.v)))
            .collect()
    }
}

/// The window that decides requirement `r` of the hypothesis `v`: both halves (exact at
/// `v`) for [`WIDE`] or both, else the one asked.
fn window(r: u8, v: i32) -> Window {
    match r & (AT_LEAST | AT_MOST) {
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
    }
}

/// The middle of bounds, as the guess for a value (saturating for one-sided bounds).
fn midpoint(lo: i32, hi: i32) -> i32 {
    ((lo as i64 + hi as i64) / 2) as i32
}
