//! A file of `kalah batch` answers taken into a merge, line by line, with the warnings
//! that leave a unit missing and the errors that refuse the file.

use std::io::BufRead;
use std::path::Path;

use kalah_io::LineReader;

use super::merge::Merge;
use crate::wire::answer::AnswerLine;
use crate::wire::FormatError;

impl Merge<'_> {
    /// Takes every answer of the file at `path` ([`Merge::add_answers`]) and returns the
    /// warnings; a file that does not exist (yet) is skipped with a warning, one that
    /// cannot be opened is refused, naming it.
    pub fn add_answer_file(&mut self, path: &Path) -> Result<Vec<String>, FormatError> {
        let file = match std::fs::File::open(path) {
            Ok(f) => std::io::BufReader::new(f),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Ok(vec![format!("{}: no such file, skipped", path.display())]);
            }
            Err(e) => return Err(FormatError(format!("{}: {e}", path.display()))),
        };
        self.add_answers(file, &path.display().to_string())
    }

    /// Takes every answer of one file of `kalah batch` answers, read from `reader` line by
    /// line (each at most [`kalah_io::MAX_LINE`] bytes), named `name` in messages, and
    /// returns the warnings: an answer that is an error leaves its unit missing, and a last
    /// line cut short (an interrupted batch) is skipped. Any other line that is not an
    /// answer to a unit of this split is refused, and so is a line too long to be one.
    pub fn add_answers(
        &mut self,
        reader: impl BufRead,
        name: &str,
    ) -> Result<Vec<String>, FormatError> {
        let rules = self.tree.rules.to_string();
        let mut warnings = Vec::new();
        let mut lines = LineReader::new(reader);
        loop {
            let line = match lines.next_line() {
                Ok(Some(line)) => line,
                Ok(None) => break,
                Err(e) => return Err(FormatError(format!("cannot read {name}: {e}"))),
            };
            let at = format!("{name} line {}", line.number);
            if line.bytes.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            let answer = match AnswerLine::parse(line.bytes) {
                Ok(v) => v,
                // The last line of an interrupted batch may be cut short.
                Err(_) if !line.ended => {
                    warnings.push(format!("{at}: an unfinished last line, skipped"));
                    continue;
                }
                Err(e) => {
                    return Err(FormatError(format!(
                        "{at}: not an answer written by kalah batch: {e}"
                    )))
                }
            };
            if let Some(warning) = self.add_line(&answer, &rules, &at)? {
                warnings.push(warning);
            }
        }
        Ok(warnings)
    }

    /// Takes one answer line (`at` in messages) for the split of the rules `rules`; an
    /// error instead of an answer is a warning.
    fn add_line(
        &mut self,
        v: &AnswerLine,
        rules: &str,
        at: &str,
    ) -> Result<Option<String>, FormatError> {
        if !v.has_rules(rules) {
            return Err(FormatError(format!(
                "{at}: the answer is for the rules {}, the manifest has {rules}: is it an \
                 answer to this split?",
                v.rules().unwrap_or("(not recorded)")
            )));
        }
        let Some(id) = v.id() else {
            return Err(FormatError(format!(
                "{at}: not the answer to a work unit (no \"id\"): answer the units.jsonl \
                 that kalah split wrote"
            )));
        };
        if v.is_error() {
            return Ok(Some(format!(
                "{at}: unit {id} has no answer: {}",
                v.error().unwrap_or("an error")
            )));
        }
        let pos = v
            .position()
            .ok_or_else(|| FormatError(format!("{at}: no readable \"position\"")))?;
        let claim = v
            .claim(&self.game, &pos)
            .map_err(|e| FormatError(format!("{at}: {e}")))?;
        self.add(id, &pos, claim)
            .map_err(|e| FormatError(format!("{at}: {e}")))?;
        Ok(None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::distributed::{split, Step};
    use kalah_core::{Game, Rules};

    #[test]
    fn a_missing_answer_file_is_skipped_with_a_warning() {
        let game = Game::new(Rules::kalah(3, 2)).unwrap();
        let tree = split(&game, &game.start(), Step::Turn, 1).unwrap();
        let mut merge = Merge::new(&tree);
        let dir = tempfile::tempdir().unwrap();
        let missing = dir.path().join("none.jsonl");
        assert_eq!(
            merge.add_answer_file(&missing).unwrap(),
            vec![format!("{}: no such file, skipped", missing.display())]
        );
        let empty = dir.path().join("empty.jsonl");
        std::fs::write(&empty, "").unwrap();
        assert!(merge.add_answer_file(&empty).unwrap().is_empty());
        assert_eq!(merge.answers(), 0);
    }
}
