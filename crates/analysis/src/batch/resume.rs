//! Resuming a batch: the answers an interrupted run left in its output, checked line by
//! line against the input and the rules, so that the rest is appended with nothing lost
//! or written twice; and what an interrupted run kept, in words ([`kept_words`]).

use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

use super::Item;
use crate::wire::answer::AnswerLine;

/// Where a batch resumes: after the answers its output already holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Resume {
    /// Positions of the input already answered.
    pub answered: usize,
    /// Bytes of the output that hold those answers: a half-written last line after them
    /// is to be cut off.
    pub length: u64,
}

impl Resume {
    /// A run from the first position: nothing answered before (no output, or an empty
    /// one).
    pub const START: Resume = Resume {
        answered: 0,
        length: 0,
    };

    /// Whether an output of `existing` bytes holds more than its whole answers (a last
    /// line a kill cut short), to be cut off where no answer is appended after them (an
    /// append cuts it off itself), so that the output ends with whole answer lines only.
    pub fn leaves_unfinished(&self, existing: u64) -> bool {
        existing > self.length
    }
}

/// Why a batch cannot resume with the output it was given.
#[derive(Debug)]
pub enum ResumeError {
    /// The output holds answers, and resuming was not asked for.
    Exists(PathBuf),
    /// An answer line is not JSON.
    NotAnswer {
        /// The output.
        path: PathBuf,
        /// The answer's 1-based number.
        answer: usize,
    },
    /// An answer was solved under other rules.
    OtherRules {
        /// The output.
        path: PathBuf,
        /// The answer's 1-based number.
        answer: usize,
        /// Its rules, if it has them.
        found: Option<String>,
        /// This run's rules.
        rules: String,
    },
    /// The output holds more answers than the input has positions.
    TooMany(PathBuf),
    /// An answer is for another line of input than the one at its place.
    OtherInput {
        /// The output.
        path: PathBuf,
        /// The answer's 1-based number.
        answer: usize,
        /// The line number the answer has, as written.
        line: String,
        /// The input the answer has.
        input: Option<String>,
        /// The input item at the answer's place.
        item: Item,
    },
    /// The input could not be read.
    Read(io::Error),
}

impl fmt::Display for ResumeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ResumeError::Exists(path) => write!(
                f,
                "{} already exists: add --resume to continue the run that wrote it, or remove it",
                path.display()
            ),
            ResumeError::NotAnswer { path, answer } => write!(
                f,
                "{}: answer {answer} is not a JSON line written by kalah batch",
                path.display()
            ),
            ResumeError::OtherRules {
                path,
                answer,
                found,
                rules,
            } => write!(
                f,
                "{}: answer {answer} was solved under the rules {}, this run has the rules \
                 {rules}: resume with the rules of that run, or write elsewhere",
                path.display(),
                found.as_deref().unwrap_or("(not recorded)"),
            ),
            ResumeError::TooMany(path) => write!(
                f,
                "{} holds more answers than the input has positions: is it the output of \
                 this input?",
                path.display()
            ),
            ResumeError::OtherInput {
                path,
                answer,
                line,
                input,
                item,
            } => write!(
                f,
                "{}: answer {answer} is for line {line} '{}', but that position of the input \
                 is line {} '{}': is it the output of this input?",
                path.display(),
                input.as_deref().unwrap_or("?"),
                item.line,
                item.input
            ),
            ResumeError::Read(e) => write!(f, "cannot read the input: {e}"),
        }
    }
}

impl std::error::Error for ResumeError {}

/// How many positions the output at `path`, holding `existing`, already answers, and the
/// length of the part that holds them: its lines are checked against the input (read
/// from `lines`, which is left after them) and the rules (as text); a half-written last
/// line is left out, to be cut off. An existing non-empty output is refused without
/// `resume`, so nothing is overwritten by accident.
pub fn resume(
    existing: &[u8],
    path: &Path,
    resume: bool,
    lines: &mut dyn Iterator<Item = io::Result<Item>>,
    rules: &str,
) -> Result<Resume, ResumeError> {
    let mut at = Resume::START;
    if existing.is_empty() {
        return Ok(at);
    }
    if !resume {
        return Err(ResumeError::Exists(path.to_path_buf()));
    }
    let mut rest = existing;
    while let Some(end) = rest.iter().position(|&b| b == b'\n') {
        check(&rest[..end], at.answered + 1, path, lines, rules)?;
        at.answered += 1;
        at.length += end as u64 + 1;
        rest = &rest[end + 1..];
    }
    Ok(at)
}

/// Checks answer number `answer` (the bytes of its line) against the next item of the
/// input.
fn check(
    bytes: &[u8],
    answer: usize,
    path: &Path,
    lines: &mut dyn Iterator<Item = io::Result<Item>>,
    rules: &str,
) -> Result<(), ResumeError> {
    let path_buf = || path.to_path_buf();
    let line = AnswerLine::parse(bytes).map_err(|_| ResumeError::NotAnswer {
        path: path_buf(),
        answer,
    })?;
    if !line.has_rules(rules) {
        return Err(ResumeError::OtherRules {
            path: path_buf(),
            answer,
            found: line.rules().map(str::to_string),
            rules: rules.to_string(),
        });
    }
    let item = lines
        .next()
        .transpose()
        .map_err(ResumeError::Read)?
        .ok_or_else(|| ResumeError::TooMany(path_buf()))?;
    if !line.answers(item.line, &item.input) {
        return Err(ResumeError::OtherInput {
            path: path_buf(),
            answer,
            line: line.line().to_string(),
            input: line.input().map(str::to_string),
            item,
        });
    }
    Ok(())
}

/// What an interrupted batch kept, in words: the answers in its output file (`output`,
/// where it writes to one: the `skip` there before this run and the `done` since) and
/// how to go on, or the answers it wrote to a stream.
pub fn kept_words(output: Option<&Path>, skip: usize, done: usize) -> String {
    match output {
        Some(path) => format!(
            "{} positions answered in {}; run the same command with --resume to answer \
             the rest",
            skip + done,
            path.display()
        ),
        None => format!("{done} positions answered"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::batch::items;

    fn run(existing: &str, input: &str, rules: &str) -> Result<Resume, ResumeError> {
        let mut lines = items(input).into_iter().map(Ok);
        resume(
            existing.as_bytes(),
            Path::new("out"),
            true,
            &mut lines,
            rules,
        )
    }

    #[test]
    fn only_what_follows_the_whole_answers_is_cut_off() {
        let at = run(
            "{\"line\":1,\"input\":\"1\",\"rules\":\"R\"}\n{\"li",
            "1\n2\n",
            "R",
        )
        .unwrap();
        assert_eq!(at.answered, 1);
        assert!(at.leaves_unfinished(at.length + 5));
        assert!(!at.leaves_unfinished(at.length));
        assert!(!Resume::START.leaves_unfinished(0));
        assert_eq!(run("", "1\n", "R").unwrap(), Resume::START);
    }

    #[test]
    fn a_resume_keeps_whole_answers_and_cuts_a_half_line() {
        let a1 = r#"{"line":1,"input":"1","rules":"R","value":2}"#;
        let a2 = r#"{"line":3,"input":"2 5","rules":"R","value":0}"#;
        let text = format!("{a1}\n{a2}\n{{\"line\":4,\"inp");
        let at = run(&text, "1\n# c\n2 5\n3\n", "R").unwrap();
        assert_eq!(at.answered, 2);
        assert_eq!(at.length as usize, a1.len() + a2.len() + 2);
        assert!(matches!(
            run(&text, "1\n2 5\n", "R"),
            Err(ResumeError::OtherInput { .. })
        ));
        assert!(matches!(
            run(&text, "1\n", "R"),
            Err(ResumeError::TooMany(_))
        ));
        assert!(matches!(
            run(&text, "1\n", "S"),
            Err(ResumeError::OtherRules { .. })
        ));
        assert!(matches!(
            run("x\n", "1\n", "R"),
            Err(ResumeError::NotAnswer { .. })
        ));
        let mut none = std::iter::empty();
        let refused = resume(b"x", Path::new("out"), false, &mut none, "R");
        assert!(matches!(refused, Err(ResumeError::Exists(_))));
        assert_eq!(run("", "1\n", "R").unwrap().answered, 0);
    }

    #[test]
    fn an_interrupted_batch_counts_the_answers_its_file_holds() {
        let kept = kept_words(Some(Path::new("a.jsonl")), 3, 2);
        assert_eq!(
            kept,
            "5 positions answered in a.jsonl; run the same command with --resume to answer \
             the rest"
        );
        assert_eq!(kept_words(None, 0, 2), "2 positions answered");
    }
}
