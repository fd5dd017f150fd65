//! The summary of a split written to a directory: its shape, its files and the commands
//! that solve and merge it, as text for people and as one JSON object.

use std::io::{self, Write};
use std::path::Path;

use kalah_core::{Position, Rules};
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
    /// The summary as one JSON object on a line (`json`) or as text.
    pub fn write(&self, json: bool, out: &mut dyn Write) -> io::Result<()> {
        crate::wire::json_or_text(json, out, || self.to_json(), |out| self.write_text(out))
    }

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

/// A sample of a split as written: what was drawn, how, and where.
#[derive(Clone, Copy, Debug)]
pub struct SampleSummary<'a> {
    /// The position the walks start from.
    pub position: &'a Position,
    /// The rules.
    pub rules: &'a Rules,
    /// What a level of the split is.
    pub step: Step,
    /// The levels between the root and the units.
    pub depth: usize,
    /// The units drawn.
    pub sample: usize,
    /// The value whose proof the walks follow, from South, if any.
    pub hypothesis: Option<i32>,
    /// The seed of the random walks.
    pub seed: u64,
    /// The estimated number of units of the whole split ([`super::estimated_units`]).
    pub estimated_units: Option<f64>,
    /// The file the sample was written to.
    pub file: &'a Path,
}

impl SampleSummary<'_> {
    /// The summary as one JSON object on a line (`json`) or as text.
    pub fn write(&self, json: bool, out: &mut dyn Write) -> io::Result<()> {
        crate::wire::json_or_text(json, out, || self.to_json(), |out| self.write_text(out))
    }

    /// The summary as one JSON object.
    pub fn to_json(&self) -> Value {
        json!({
            "rules": self.rules.to_string(),
            "position": self.position.to_string(),
            "step": self.step.name(),
            "depth": self.depth,
            "sample": self.sample,
            "hypothesis": self.hypothesis,
            "seed": self.seed,
            "estimated_units": self.estimated_units,
            "file": self.file.display().to_string(),
        })
    }

    /// The summary as text, with what to do with the sample.
    pub fn write_text(&self, out: &mut dyn Write) -> io::Result<()> {
        let (n, depth, step) = (self.sample, self.depth, self.step.name());
        writeln!(out, "rules      {}", self.rules)?;
        writeln!(out, "position   {}", self.position)?;
        if let Some(u) = self.estimated_units {
            writeln!(
                out,
                "sample     {n} of about {u:.3e} units {depth} {step}s deep"
            )?;
        } else {
            writeln!(
                out,
                "sample     {n} units of the proof tree {depth} {step}s deep"
            )?;
        }
        writeln!(
            out,
            "file       wrote {}: solve it with kalah batch, then scripts/estimate.py ANSWERS",
            self.file.display()
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

    #[test]
    fn a_sample_without_an_estimate_says_it_samples_the_proof_tree() {
        let game = Game::new(Rules::kalah(4, 3)).unwrap();
        let summary = SampleSummary {
            position: &game.start(),
            rules: game.rules(),
            step: Step::Sowing,
            depth: 3,
            sample: 5,
            hypothesis: Some(2),
            seed: 1,
            estimated_units: None,
            file: Path::new("d/sample.jsonl"),
        };
        let mut text = Vec::new();
        summary.write_text(&mut text).unwrap();
        let text = String::from_utf8(text).unwrap();
        assert!(text.contains("sample     5 units of the proof tree 3 sowings deep"));
        assert_eq!(summary.to_json()["hypothesis"], 2);
        assert!(summary.to_json()["estimated_units"].is_null());
    }

    #[test]
    fn write_gives_the_json_on_one_line_or_the_text() {
        let game = Game::new(Rules::kalah(4, 3)).unwrap();
        let summary = SampleSummary {
            position: &game.start(),
            rules: game.rules(),
            step: Step::Turn,
            depth: 1,
            sample: 2,
            hypothesis: None,
            seed: 1,
            estimated_units: Some(3.0),
            file: Path::new("d/sample.jsonl"),
        };
        let (mut json, mut text, mut plain) = (Vec::new(), Vec::new(), Vec::new());
        summary.write(true, &mut json).unwrap();
        summary.write(false, &mut text).unwrap();
        summary.write_text(&mut plain).unwrap();
        assert_eq!(json, format!("{}\n", summary.to_json()).into_bytes());
        assert_eq!(text, plain);
    }
}
