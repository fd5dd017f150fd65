//! A whole `kalah split`: refused before any work where it cannot be, the directory made
//! (and removed again where the split fails), the tree cut within the memory there is
//! and its files written once, or a sample of its units drawn, and the summary.

use std::io::{self, Write};
use std::path::Path;
use std::sync::atomic::AtomicBool;

use kalah_core::{Game, Position};
use kalah_io::{Checks, Output, OutputError};

use super::budget::{max_positions, refused, Budget, Growth};
use super::files::{another_split, write_once, NewDir, Once};
use super::sample::{estimated_units, sample, sample_lines};
use super::summary::{SampleSummary, SplitSummary};
use super::tree::{split_bounded, SplitError, Step, Tree};
use crate::run::outputs;
use crate::wire::unit::{self, Window};

/// A split to make: the game and position cut, `depth` steps of `step`, into `dir`
/// (files there of another split or of no split replaced only with `force`).
pub struct Cut<'a> {
    /// The game.
    pub game: &'a Game,
    /// The position split.
    pub pos: &'a Position,
    /// What one level of the tree is.
    pub step: Step,
    /// The levels of the tree.
    pub depth: usize,
    /// The directory written.
    pub dir: &'a Path,
    /// Replace files there that are another split's or no split's.
    pub force: bool,
}

/// A sample of the units instead of the split: `n` walks drawn from `seed`, each stopped
/// where a proof under `hypothesis` is found.
#[derive(Clone, Copy, Debug)]
pub struct Sampling {
    /// Walks drawn.
    pub n: u64,
    /// The value tested, from the mover at the root.
    pub hypothesis: Option<i32>,
    /// The seed of the walks.
    pub seed: u64,
}

/// What the split's enumeration says as it goes: how far it is, then that it is over.
pub enum Progress<'g> {
    /// How far the enumeration is.
    Grew(&'g Growth),
    /// The enumeration is over (finished or stopped).
    Done,
}

/// Why a split wrote nothing.
#[derive(Debug)]
pub enum CutError {
    /// Refused: bad input, another split in the directory, a tree too large.
    Invalid(String),
    /// Interrupted before anything was written.
    Cancelled,
    /// A file could not be written.
    Output(OutputError),
    /// The summary could not be written.
    Io(io::Error),
}

impl From<OutputError> for CutError {
    fn from(e: OutputError) -> Self {
        CutError::Output(e)
    }
}

impl From<io::Error> for CutError {
    fn from(e: io::Error) -> Self {
        CutError::Io(e)
    }
}

impl Cut<'_> {
    /// Makes the split (or with `sampling` its sample) and writes its summary (`json`:
    /// as one JSON object) to `out`. The directories made are removed again where the
    /// split fails or is interrupted (`cancel`) before it writes into them.
    pub fn run(
        &self,
        sampling: Option<Sampling>,
        cancel: &AtomicBool,
        progress: &mut dyn FnMut(Progress),
        json: bool,
        out: &mut dyn Write,
    ) -> Result<(), CutError> {
        if let Some(why) = refused(self.depth, self.pos.is_over()) {
            return Err(CutError::Invalid(why));
        }
        let dir = NewDir::create(self.dir).map_err(CutError::Invalid)?;
        let written = match sampling {
            Some(s) => self.write_sample(s, json, out),
            None => self.write_split(cancel, progress, json, out),
        };
        if written.is_err() {
            dir.undo();
        }
        written
    }

    /// The split's tree, its manifest and units written once, and its summary.
    fn write_split(
        &self,
        cancel: &AtomicBool,
        progress: &mut dyn FnMut(Progress),
        json: bool,
        out: &mut dyn Write,
    ) -> Result<(), CutError> {
        let tree = self.bounded_split(cancel, progress)?;
        let manifest = format!("{}\n", tree.to_json());
        let units = unit::to_lines(&tree.units_in(Window::full(self.game.rules())));
        let manifest_path = self.dir.join("manifest.json");
        let units_path = self.dir.join("units.jsonl");
        let kept = match write_once(&manifest_path, &units_path, &manifest, &units, self.force)? {
            Once::Another => return Err(CutError::Invalid(another_split(&manifest_path))),
            once => once == Once::Kept,
        };
        let summary = SplitSummary {
            tree: &tree,
            step: self.step,
            depth: self.depth,
            dir: self.dir,
            manifest: &manifest_path,
            units: &units_path,
            kept,
        };
        summary.write(json, out)?;
        Ok(())
    }

    /// The tree, cut within the memory there is.
    fn bounded_split(
        &self,
        cancel: &AtomicBool,
        progress: &mut dyn FnMut(Progress),
    ) -> Result<Tree, CutError> {
        let budget = Budget {
            max_positions: max_positions(kalah_solver::egdb::file::available_memory()),
            cancel,
            progress: &mut |g| progress(Progress::Grew(g)),
        };
        let tree = split_bounded(self.game, self.pos, self.step, self.depth, budget);
        progress(Progress::Done);
        tree.map_err(|e| match e {
            SplitError::Cancelled => CutError::Cancelled,
            e => CutError::Invalid(e.to_string()),
        })
    }

    /// A sample of the split's units (`sample.jsonl`, checked and locked before the
    /// walks) and its summary.
    fn write_sample(&self, s: Sampling, json: bool, out: &mut dyn Write) -> Result<(), CutError> {
        let rules = self.game.rules();
        let path = self.dir.join("sample.jsonl");
        let output = Output::open_with(&path, &Checks::of(outputs::UNITS, self.force))?;
        let n = s.n as usize;
        let drawn = sample(
            self.game,
            self.pos,
            self.step,
            self.depth,
            n,
            s.hypothesis,
            s.seed,
        )
        .map_err(|e| CutError::Invalid(e.to_string()))?;
        output.replace(sample_lines(&drawn, rules).as_bytes())?;
        let summary = SampleSummary {
            position: self.pos,
            rules,
            step: self.step,
            depth: self.depth,
            sample: n,
            hypothesis: s.hypothesis,
            seed: s.seed,
            estimated_units: estimated_units(&drawn),
            file: &path,
        };
        summary.write(json, out)?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kalah_core::Rules;

    fn run(cut: &Cut, sampling: Option<Sampling>) -> (Result<(), CutError>, String, usize) {
        let mut out = Vec::new();
        let mut grew = 0;
        let ran = cut.run(
            sampling,
            &AtomicBool::new(false),
            &mut |p| grew += matches!(p, Progress::Done) as usize,
            false,
            &mut out,
        );
        (ran, String::from_utf8(out).unwrap(), grew)
    }

    #[test]
    fn a_split_writes_its_files_once_and_a_refused_one_leaves_no_directory() {
        let game = Game::new(Rules::kalah(4, 3)).unwrap();
        let start = game.start();
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("a/b");
        let mut cut = Cut {
            game: &game,
            pos: &start,
            step: Step::Turn,
            depth: super::super::budget::MAX_DEPTH + 1,
            dir: &out,
            force: false,
        };
        assert!(matches!(run(&cut, None).0, Err(CutError::Invalid(_))));
        assert!(!dir.path().join("a").exists());
        cut.depth = 2;
        let (ran, text, done) = run(&cut, None);
        ran.unwrap();
        assert_eq!(done, 1);
        assert!(text.contains("40 work units"), "{text}");
        assert!(out.join("manifest.json").exists() && out.join("units.jsonl").exists());
        cut.depth = 3;
        match run(&cut, None).0 {
            Err(CutError::Invalid(why)) => assert!(why.contains("holds another split"), "{why}"),
            _ => panic!("another split is written over"),
        }
        let sampling = Sampling {
            n: 5,
            hypothesis: None,
            seed: 1,
        };
        let (ran, _, done) = run(&cut, Some(sampling));
        ran.unwrap();
        assert_eq!(done, 0);
        assert!(out.join("sample.jsonl").exists());
    }
}
