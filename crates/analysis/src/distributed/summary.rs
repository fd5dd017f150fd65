//! The summary of a split written to a directory: its shape, its files and the commands
//! that solve and merge it, as text for people and as one JSON object.

use std::io::{self, Write};
use std::path::Path;

use serde_json::{json, Value};

use super::tree::{Step, Tree};

/// A split as written: the tree, how it was cut and where its files are.
#[derive(Clone, Copy, Debug)]
pub struct SplitSummary<'a> {
    /// The tree above the units.
    pub tree: &'a Tree,
    /// What a level of the split is.
    pub step: Step,
    /// The levels between the root and the units.
    pub depth: usize,
    /// The directory the split was written into.
    pub dir: &'a Path,
    /// The manifest file.
    pub manifest: &'a Path,
    /// The file of the work units.
    pub units: &'a Path,
    /// True when the directory already held this very split and it was kept.
    pub kept: bool,
}

impl SplitSummary<'_> {
    /// The summary as one JSON object.
    pub fn to_json(&self) -> Value {
        let shape = self.tree.shape();
        json!({
            "rules": self.tree.rules.to_string(),
            "position": self.tree.root().to_string(),
            "step": self.step.name(),
            "depth": self.depth,
            "units": shape.units,
            "inner": shape.inner,
            "over": shape.over,
            "transpositions": shape.transpositions,
            "manifest": self.manifest.display().to_string(),
            "units_file": self.units.display().to_string(),
            "kept": self.kept,
        })
    }

    /// The summary as text, with the commands that solve and merge the split.
    pub fn write_text(&self, out: &mut dyn Write) -> io::Result<()> {
        let shape = self.tree.shape();
        writeln!(out, "rules      {}", self.tree.rules)?;
        writeln!(out, "position   {}", self.tree.root())?;
        writeln!(
            out,
            "split      {} {}{} deep: {} work units, {} positions above them, {} finished \
             games ({} lines merged where they transpose)",
            self.depth,
            self.step.name(),
            if self.depth == 1 { "" } else { "s" },
            shape.units,
            shape.inner,
            shape.over,
            shape.transpositions
        )?;
        let verb = if self.kept {
            "kept (the same split)"
        } else {
            "wrote"
        };
        writeln!(
            out,
            "files      {verb} {} and {}",
            self.manifest.display(),
            self.units.display()
        )?;
        self.write_next(out)
    }

    /// The commands that solve the units in shards and merge their answers.
    fn write_next(&self, out: &mut dyn Write) -> io::Result<()> {
        let dir = self.dir.display();
        writeln!(out, "next       solve the units, for example in 4 shards:")?;
        writeln!(
            out,
            "             kalah batch {dir}/units.jsonl --shard I/4 --output \
             {dir}/results/I.jsonl --resume    (I = 1..4)"
        )?;
        writeln!(
            out,
            "           then: kalah merge {dir}/manifest.json {dir}/results/*.jsonl"
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::distributed::split;
    use kalah_core::{Game, Rules};

    #[test]
    fn the_text_and_the_json_give_the_same_shape_and_files() {
        let game = Game::new(Rules::kalah(4, 3)).unwrap();
        let tree = split(&game, &game.start(), Step::Turn, 1).unwrap();
        let summary = SplitSummary {
            tree: &tree,
            step: Step::Turn,
            depth: 1,
            dir: Path::new("d"),
            manifest: Path::new("d/manifest.json"),
            units: Path::new("d/units.jsonl"),
            kept: false,
        };
        let json = summary.to_json();
        let mut text = Vec::new();
        summary.write_text(&mut text).unwrap();
        let text = String::from_utf8(text).unwrap();
        let units = json["units"].as_u64().unwrap();
        assert!(text.contains(&format!("split      1 turn deep: {units} work units")));
        assert!(text.contains("files      wrote d/manifest.json and d/units.jsonl"));
        assert!(text.contains("kalah merge d/manifest.json d/results/*.jsonl"));
        assert_eq!(json["kept"], false);
    }
}
