//! The manifest of a split: the tree as one JSON object, written by `kalah split` and
//! read (and checked move by move) by `kalah merge`; everything a merge needs besides the
//! answers.

use std::path::Path;

use kalah_core::{notation, Game, Position};
use kalah_solver::Turn;
use serde_json::{json, Value};

use super::tree::{Edge, Kind, Node, Step, Tree};
use crate::game::turns::first_steps;
use crate::wire::unit::Window;
use crate::wire::{field, int_field, read_position, read_rules, text_field, FormatError};

/// The manifest's format name, so that another JSON file is not taken for one.
const MANIFEST_FORMAT: &str = "kalah-split";
/// The manifest's format version.
const MANIFEST_VERSION: u64 = 1;
/// The largest manifest read (1 GiB): a split of ten million units writes less, and a
/// larger file (or an endless one, `/dev/zero`) is not one to read into memory.
pub const MAX_MANIFEST: u64 = 1 << 30;
impl Tree {
    /// The manifest: the rules, the root, the step and depth, and every node with its
    /// moves (`children`: pairs of a move and a node index), its unit id (`unit`) or
    /// `over`. Everything [`Merge`](super::Merge) needs besides the answers.
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

    /// The manifest file at `path`, read (at most [`MAX_MANIFEST`] bytes) and checked
    /// ([`Tree::from_manifest`]); the error names the file.
    pub fn read_manifest(path: &Path) -> Result<Tree, FormatError> {
        let at = |e: &dyn std::fmt::Display| FormatError(format!("{}: {e}", path.display()));
        let text = kalah_io::read_bounded(path, MAX_MANIFEST).map_err(|e| at(&e))?;
        Tree::from_manifest(&text).map_err(|e| at(&e))
    }

    /// Reads the text of a manifest file ([`Tree::from_json`]); the error says what is
    /// wrong with it, for the caller to put after the file's name.
    pub fn from_manifest(text: &[u8]) -> Result<Tree, FormatError> {
        let value: Value = serde_json::from_slice(text)
            .map_err(|e| FormatError(format!("not a manifest written by kalah split: {e}")))?;
        Tree::from_json(&value)
    }

    /// Reads a manifest written by [`Tree::to_json`], checking that every move is legal
    /// and leads to the node it names, that the units are numbered 0, 1, ... once each,
    /// and that every node but the root is reached.
    pub fn from_json(v: &Value) -> Result<Tree, FormatError> {
        let what = "the manifest";
        let (game, step, depth) = read_header(v)?;
        let list = field(v, "nodes", what)?
            .as_array()
            .ok_or_else(|| FormatError(format!("{what}: \"nodes\" is not a list")))?;
        if list.is_empty() {
            return Err(FormatError(format!("{what} has no nodes")));
        }
        let mut nodes = Vec::with_capacity(list.len());
        let mut units: Vec<Option<usize>> = Vec::new();
        for (i, n) in list.iter().enumerate() {
            nodes.push(read_node(&game, n, i, list.len(), &mut units)?);
        }
        let units = units
            .into_iter()
            .enumerate()
            .map(|(id, n)| n.ok_or_else(|| FormatError(format!("unit {id} is missing"))))
            .collect::<Result<Vec<_>, _>>()?;
        let tree = Tree {
            rules: *game.rules(),
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

    /// Every move leads to the node it names, every node with moves lists all the moves of
    /// its position, every node but the root is reached, and play never leads back to a
    /// node it came from.
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
                let what = format!("node {i} of the manifest");
                check_moves(game, self.step, &n.position, edges, &what)?;
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
}

/// The manifest's format and version checked, its game (of its rules), step and depth.
fn read_header(v: &Value) -> Result<(Game, Step, i64), FormatError> {
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
    Ok((game, step, depth))
}

/// Node `i` of a manifest of `count` nodes: its position and its moves, unit id (noted
/// in `units`) or end.
fn read_node(
    game: &Game,
    n: &Value,
    i: usize,
    count: usize,
    units: &mut Vec<Option<usize>>,
) -> Result<Node, FormatError> {
    let what = format!("node {i} of the manifest");
    let position = read_position(game, text_field(n, "position", &what)?, &what)?;
    let kind = if let Some(children) = n.get("children") {
        let children = children
            .as_array()
            .ok_or_else(|| FormatError(format!("{what}: \"children\" is not a list")))?;
        let edges = children
            .iter()
            .map(|c| read_edge(game, &position, c, count, &what))
            .collect::<Result<Vec<_>, _>>()?;
        Kind::Inner(edges)
    } else if let Some(id) = n.get("unit") {
        let id = id
            .as_u64()
            .ok_or_else(|| FormatError(format!("{what}: \"unit\" is not an id")))?
            as usize;
        if id >= count {
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
    Ok(Node { position, kind })
}

/// Checks that the moves listed for the node at `position` (`what` in messages) are its
/// moves, every one once: a node that lacks one of them (or has none) would take its value
/// from the others, and a forged manifest could make a wrong value exact.
fn check_moves(
    game: &Game,
    step: Step,
    position: &Position,
    edges: &[Edge],
    what: &str,
) -> Result<(), FormatError> {
    let h = game.houses();
    let names = |turns: &mut dyn Iterator<Item = &Turn>| {
        let mut names: Vec<String> = turns.map(|t| t.notation(h)).collect();
        names.sort_unstable();
        names
    };
    let listed = names(&mut edges.iter().map(|e| &e.turn));
    let steps = first_steps(game, position, step.offer());
    let moves = names(&mut steps.iter().map(|s| &s.turn));
    if listed != moves {
        return Err(FormatError(format!(
            "{what}: the moves listed, [{}], are not the moves of its position, [{}]",
            listed.join(", "),
            moves.join(", ")
        )));
    }
    Ok(())
}

/// One move `[move, node]` of the node at `position` (`what` in messages), played; where
/// it leads is checked once every node is read.
fn read_edge(
    game: &Game,
    position: &Position,
    c: &Value,
    count: usize,
    what: &str,
) -> Result<Edge, FormatError> {
    let bad = || FormatError(format!("{what}: a child is not [move, node]"));
    let pair = c.as_array().filter(|p| p.len() == 2).ok_or_else(bad)?;
    let text = pair[0].as_str().ok_or_else(bad)?;
    let child = pair[1].as_u64().ok_or_else(bad)? as usize;
    if child >= count || child == 0 {
        return Err(FormatError(format!("{what}: child {child} is not a node")));
    }
    let (_, sowings) = notation::play_moves(game, *position, text)
        .map_err(|e| FormatError(format!("{what}: move '{text}': {e}")))?;
    Ok(Edge {
        turn: Turn {
            side: position.side_to_move(),
            sowings,
        },
        child,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::distributed::split;
    use kalah_core::Rules;

    #[test]
    fn a_manifest_file_is_read_and_its_errors_name_it() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("manifest.json");
        let game = Game::new(Rules::kalah(3, 2)).unwrap();
        let tree = split(&game, &game.start(), Step::Turn, 1).unwrap();
        std::fs::write(&path, tree.to_json().to_string()).unwrap();
        assert_eq!(
            Tree::read_manifest(&path).unwrap().to_json(),
            tree.to_json()
        );
        std::fs::write(&path, "{}").unwrap();
        let e = Tree::read_manifest(&path).unwrap_err().0;
        assert!(e.starts_with(&format!("{}: ", path.display())), "{e}");
        let missing = dir.path().join("none.json");
        let e = Tree::read_manifest(&missing).unwrap_err().0;
        assert!(e.starts_with(&format!("{}: ", missing.display())), "{e}");
    }

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
            assert_eq!(Tree::from_manifest(text.as_bytes()).unwrap(), tree);
        }
        let refused = Tree::from_manifest(b"[1,").unwrap_err().0;
        assert!(refused.starts_with("not a manifest written by kalah split: "));
    }

    #[test]
    fn the_units_most_seeds_size_their_solver() {
        let game = Game::new(Rules::kalah(4, 3)).unwrap();
        let tree = split(&game, &game.start(), Step::Turn, 1).unwrap();
        let all: Vec<usize> = (0..tree.units_in(Window::full(game.rules())).len()).collect();
        // South's first turn from house 1 sows into houses only: all 24 seeds stay there.
        assert_eq!(tree.most_seeds(&all), 24);
        assert_eq!(tree.most_seeds(&[]), 0);
    }
}
