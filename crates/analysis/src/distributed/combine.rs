//! A whole `kalah merge`: the manifest and the answer files read, the answers proved
//! again (unless trusted), the report written with the units still needed, and whether
//! the merge is finished.

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};

use kalah_io::{Output, OutputError};

use super::merge::Merge;
use super::report::Report;
use super::tree::Tree;
use super::verify::verify_interrupted;
use crate::run::solving::{Solving, SolvingError};
use crate::wire::unit;

/// A merge to make: the split's `manifest`, its `answers`, the value tested (none: the
/// exact values are sought), where the units still needed go, and whether the answers
/// are taken as they are.
pub struct Combine<'a> {
    /// The manifest of the split.
    pub manifest: &'a Path,
    /// The answer files.
    pub answers: &'a [PathBuf],
    /// The value tested, from the mover at the root.
    pub hypothesis: Option<i32>,
    /// The file for the units still needed (checked and locked already), with its path
    /// as given.
    pub next: Option<(&'a Output, &'a Path)>,
    /// Take the answers as they are, without proving them again.
    pub trust: bool,
}

/// How the proofs of the answers go: started (with how many), each step, over.
pub enum Proving {
    /// The proofs are starting.
    Started,
    /// `done` of `all` solves are over.
    Step {
        /// Solves over.
        done: usize,
        /// Solves in all.
        all: usize,
    },
    /// The proofs are over (finished or stopped).
    Done,
}

/// Why a merge stopped, or that it is not finished.
#[derive(Debug)]
pub enum CombineError<E> {
    /// The manifest or an answer could not be read or used (or an answer failed its proof).
    Input(String),
    /// The solver for the proofs could not be made.
    Solver(E),
    /// Interrupted while proving: nothing was written (the message says what to do).
    Interrupted(String),
    /// The units still needed could not be written.
    Output(OutputError),
    /// The report could not be written.
    Io(io::Error),
    /// The report was written, but the value is not yet known (the message says why).
    Incomplete(String),
}

impl Combine<'_> {
    /// Makes the merge: `warn` hears each warning about the answers, `solving` makes the
    /// parallel solver that proves them (its cancel flag, raised by Ctrl-C, stops the
    /// proofs: nothing is written then, and the same command starts them again),
    /// `progress` hears the proofs as they go; then writes the units still needed and the
    /// report (`json`: one JSON object) to `out`.
    pub fn run(
        &self,
        warn: &mut dyn FnMut(&str),
        solving: &Solving,
        progress: &(dyn Fn(Proving) + Sync),
        json: bool,
        out: &mut dyn Write,
    ) -> Result<(), CombineError<SolvingError>> {
        let tree = Tree::read_manifest(self.manifest).map_err(|e| CombineError::Input(e.0))?;
        let mut merge = Merge::new(&tree);
        let mut warnings = Vec::new();
        for path in self.answers {
            let more = merge
                .add_answer_file(path)
                .map_err(|e| CombineError::Input(e.0))?;
            warnings.extend(more);
        }
        for w in &warnings {
            warn(&format!("warning: {w}"));
        }
        if self.trust {
            merge.trust();
        } else {
            verify(&mut merge, &tree, solving, progress)?;
        }
        let bounds = merge.bounds();
        let report = Report::new(&merge, &bounds, self.hypothesis);
        if let Some((next, _)) = &self.next {
            next.replace(unit::to_lines(&report.next).as_bytes())
                .map_err(CombineError::Output)?;
        }
        report
            .write(json, self.next.map(|(_, p)| p), out)
            .map_err(CombineError::Io)?;
        match report.unfinished() {
            Some(msg) => Err(CombineError::Incomplete(msg)),
            None => Ok(()),
        }
    }
}

/// Proves the answers not yet proved; stopped by `cancel`, nothing is to be written (the
/// report would rest on bounds not yet proved).
fn verify(
    merge: &mut Merge<'_>,
    tree: &Tree,
    solving: &Solving,
    progress: &(dyn Fn(Proving) + Sync),
) -> Result<(), CombineError<SolvingError>> {
    let units = merge.unverified();
    if units.is_empty() {
        return Ok(());
    }
    let game = merge.game().clone();
    let seeds = tree.most_seeds(&units);
    let (solver, workers) = solving
        .parallel(&game, seeds, units.len())
        .map_err(CombineError::Solver)?;
    let never = AtomicBool::new(false);
    let cancel = solving.cancel.unwrap_or(&never);
    progress(Proving::Started);
    let result = merge.verify(&solver, workers, cancel, &|done, all| {
        progress(Proving::Step { done, all })
    });
    progress(Proving::Done);
    result.map_err(|e| CombineError::Input(e.to_string()))?;
    if cancel.load(Relaxed) {
        return Err(CombineError::Interrupted(verify_interrupted(units.len())));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::distributed::cut::Cut;
    use crate::distributed::Step;
    use crate::run::solving::tests::small_solving;
    use kalah_core::{Game, Rules};

    #[test]
    fn a_merge_without_answers_writes_its_report_and_is_not_finished() {
        let game = Game::new(Rules::kalah(4, 3)).unwrap();
        let start = game.start();
        let dir = tempfile::tempdir().unwrap();
        let cut = Cut {
            game: &game,
            pos: &start,
            step: Step::Turn,
            depth: 1,
            dir: dir.path(),
            force: false,
        };
        let never = AtomicBool::new(false);
        cut.run(None, &never, &mut |_| {}, false, &mut Vec::new())
            .unwrap();
        let manifest = dir.path().join("manifest.json");
        let combine = Combine {
            manifest: &manifest,
            answers: &[],
            hypothesis: None,
            next: None,
            trust: false,
        };
        let mut out = Vec::new();
        let no_solver = small_solving();
        let merged = combine.run(&mut |_| {}, &no_solver, &|_| {}, false, &mut out);
        match merged {
            Err(CombineError::Incomplete(why)) => assert!(why.contains("still needed"), "{why}"),
            _ => panic!("a merge without answers is finished"),
        }
        assert!(String::from_utf8(out)
            .unwrap()
            .starts_with("rules      Kalah(4,3)"));
        let missing = Combine {
            manifest: &dir.path().join("none.json"),
            ..combine
        };
        let merged = missing.run(&mut |_| {}, &no_solver, &|_| {}, false, &mut Vec::new());
        assert!(matches!(merged, Err(CombineError::Input(_))));
    }
}
