//! A batch run from end to end, the one loop of `kalah batch` over either kind of game:
//! the output checked and locked before any work, the input read as it comes (a file
//! counted first for the progress), the game chosen ([`BatchOptions::game`]), the answers
//! an interrupted run left checked and resumed after, a few positions read ahead, the
//! front made and every answer line written in input order as soon as it is done. The
//! front end parses the options, makes the sowing games' solver, draws the progress it is
//! told of ([`BatchTick`]) and turns a [`BatchError`] into its message.

use std::fmt;
use std::fs::File;
use std::io::{self, BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

use kalah_io::{Checks, Output, OutputError, OutputKind};

use super::{answer_stream, solves_to_size, BatchGameError, BatchHow, BatchOptions, Front};
use crate::batch::resume::{kept_words, resume, Resume, ResumeError};
use crate::batch::{count_positions, read_ahead, Item, Lines, Sharded, Streamed};
use crate::game::AnalysisError;
use crate::run::outputs;
use crate::run::solving::{Solving, SolvingError};

/// The files of a batch and how they are shared out and resumed, as the options name
/// them.
#[derive(Clone, Copy, Debug, Default)]
pub struct BatchPaths<'a> {
    /// The positions, one a line: standard input where `None` or `-`.
    pub input: Option<&'a Path>,
    /// The file the answers go to instead of the front end's output.
    pub output: Option<&'a Path>,
    /// Continue the interrupted run whose answers `output` holds.
    pub resume: bool,
    /// Start afresh on an `output` that is not a batch's, is read-only or is a link.
    pub force: bool,
    /// Answer only shard I of N (`(I, N)`).
    pub shard: Option<(usize, usize)>,
}

impl<'a> BatchPaths<'a> {
    /// The input file, `None` for standard input.
    fn input_file(&self) -> Option<&'a Path> {
        self.input.filter(|p| p.as_os_str() != "-")
    }

    /// The input's name for messages.
    pub fn input_name(&self) -> String {
        match self.input_file() {
            Some(p) => p.display().to_string(),
            None => "standard input".to_string(),
        }
    }

    /// The output, checked and locked before any work (never the input, nor any of
    /// `databases`, the files the run reads): a stream (a FIFO, a device) cannot be
    /// resumed.
    pub fn open_output(&self, databases: &[PathBuf]) -> Result<Option<Output>, OutputError> {
        let input = self.input_file();
        let checks = Checks::of(outputs::ANSWERS, self.force)
            .reading(input)
            .reading_stdin(input.is_none())
            .reading(databases.iter().map(|p| p.as_path()));
        let output = self
            .output
            .map(|p| Output::open_with(p, &checks))
            .transpose()?;
        if let Some(o) = &output {
            if self.resume && o.kind() == OutputKind::Stream {
                return Err(OutputError::NotResumable(o.path().to_path_buf()));
            }
        }
        Ok(output)
    }

    /// The input as a reader, and its number of positions in the shard when it is a
    /// regular file (counted in a first pass, for the progress); standard input, a FIFO or
    /// a device is read as it comes.
    pub fn open_input(&self) -> Result<(Box<dyn BufRead + Send>, Option<usize>), BatchError> {
        let Some(p) = self.input_file() else {
            return Ok((Box::new(BufReader::new(io::stdin())), None));
        };
        let open = || {
            File::open(p)
                .map(BufReader::new)
                .map_err(|error| BatchError::OpenInput {
                    path: p.to_path_buf(),
                    error,
                })
        };
        let count = match std::fs::metadata(p).is_ok_and(|m| m.is_file()) {
            true => Some(count_positions(open()?, self.shard)),
            false => None,
        };
        Ok((Box::new(open()?), count))
    }
}

/// Why a batch stopped before its input was answered.
#[derive(Debug)]
pub enum BatchError {
    /// The output file cannot be used, or writing it failed.
    Output(OutputError),
    /// The input file cannot be opened.
    OpenInput {
        /// The file.
        path: PathBuf,
        /// Why.
        error: io::Error,
    },
    /// Reading the input failed (a line too long, a read error).
    Read {
        /// The input's name ([`BatchPaths::input_name`]).
        input: String,
        /// Why.
        error: io::Error,
    },
    /// The game of the batch could not be chosen.
    Game {
        /// The input's name, which the rules of its work units are said to be of.
        input: String,
        /// Why.
        error: BatchGameError,
    },
    /// The output's answers do not resume this run (other input, other rules, no
    /// answers, or `resume` not asked for).
    Resume(ResumeError),
    /// The answering stopped: cancelled, a graph too large, the threads failed; `kept`
    /// says what the output kept (empty where nothing needs saying).
    Stopped {
        /// Why.
        error: AnalysisError,
        /// What was kept, in words.
        kept: String,
    },
    /// Writing the answers to the front end's output (no output file) failed.
    Write(io::Error),
    /// The solver could not be made.
    Solver(SolvingError),
}

impl From<SolvingError> for BatchError {
    fn from(e: SolvingError) -> BatchError {
        BatchError::Solver(e)
    }
}

impl fmt::Display for BatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BatchError::Output(e) => e.fmt(f),
            BatchError::OpenInput { path, error } => write!(f, "{}: {error}", path.display()),
            BatchError::Read { input, error } => write!(f, "cannot read {input}: {error}"),
            BatchError::Game {
                input,
                error: error @ BatchGameError::Disagree(_),
            } => write!(f, "{input} {error}"),
            BatchError::Game { error, .. } => error.fmt(f),
            BatchError::Resume(e) => e.fmt(f),
            BatchError::Stopped { error, .. } => error.fmt(f),
            BatchError::Write(e) => e.fmt(f),
            BatchError::Solver(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for BatchError {}

impl From<OutputError> for BatchError {
    fn from(e: OutputError) -> BatchError {
        BatchError::Output(e)
    }
}

/// What a progress display is told while a batch runs (on the calling thread).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BatchTick {
    /// The answering starts: `len` positions to answer where the input was counted (a
    /// bar), else an unknown number (a counter).
    Start {
        /// The positions left to answer, if known.
        len: Option<usize>,
    },
    /// A line to show above the progress.
    Line(String),
    /// One more position answered, with the few words to show of it.
    Answered(String),
}

/// How a batch ended without error.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BatchEnd {
    /// There was nothing left to answer: the output already held the `answered` answers
    /// of every position.
    NothingLeft {
        /// The positions an earlier run answered.
        answered: usize,
    },
    /// The positions left were answered.
    Answered(Streamed),
}

impl BatchEnd {
    /// What to say of a run that found every position already answered.
    pub fn summary(&self) -> Option<String> {
        match *self {
            BatchEnd::NothingLeft { answered } if answered > 0 => {
                Some(format!("all {answered} positions were already answered"))
            }
            _ => None,
        }
    }
}

/// A batch as a front end asked for it.
#[derive(Clone, Debug)]
pub struct BatchRun<'a> {
    /// Its files.
    pub paths: BatchPaths<'a>,
    /// The options that choose its game.
    pub options: BatchOptions,
    /// The endgame database files the options and the environment name (a sowing game's
    /// solver reads them; the output is checked against them).
    pub databases: Vec<PathBuf>,
    /// How its positions are answered.
    pub how: BatchHow,
}

impl BatchRun<'_> {
    /// Runs the batch: answers go to the output file, or to `out`; a sowing game's solver
    /// is made by `solving` for the number of positions to answer; `show` is told the
    /// progress; `cancel` (Ctrl-C) stops it, keeping every answer finished in order.
    pub fn run<E: From<BatchError> + From<SolvingError>>(
        self,
        cancel: &AtomicBool,
        solving: &Solving,
        out: &mut dyn Write,
        show: &mut dyn FnMut(BatchTick),
    ) -> Result<BatchEnd, E> {
        let paths = self.paths;
        let output = paths
            .open_output(&self.options.databases(self.databases))
            .map_err(BatchError::from)?;
        let (reader, count) = paths.open_input()?;
        let input = paths.input_name();
        let read_error = |error| BatchError::Read {
            input: input.clone(),
            error,
        };
        let mut lines = Sharded::new(Lines::new(reader), paths.shard);
        // The rules: the options', or those of the work units the input holds (sowing games).
        let (read, game) = self
            .options
            .game(&mut lines)
            .map_err(|error| BatchError::Game {
                input: input.clone(),
                error,
            })?;
        let mut lines = read.into_iter().chain(lines);
        let at = match &output {
            None => Resume::START,
            Some(o) => {
                let existing = o.existing().map_err(BatchError::from)?;
                let rules = game.rules_text();
                resume(
                    &existing.unwrap_or_default(),
                    o.path(),
                    paths.resume,
                    &mut lines,
                    &rules,
                )
                .map_err(|e| match e {
                    ResumeError::Read(e) => read_error(e),
                    e => BatchError::Resume(e),
                })?
            }
        };
        let skip = at.answered;
        // A few positions read ahead: none left means nothing to do (no database to
        // build), and their number sizes the database when the input's length is not
        // known. A read error (a line too long) is kept for its turn: the lines before it
        // are answered.
        let (ahead, failed) = read_ahead(&mut lines, game.batch_read_ahead());
        if ahead.is_empty() {
            if let Some(e) = failed {
                return Err(read_error(e).into());
            }
            drop_unfinished(output.as_ref(), &at).map_err(BatchError::from)?;
            return Ok(BatchEnd::NothingLeft { answered: skip });
        }
        let mut file = match &output {
            Some(o) => Some(o.append(at.length).map_err(BatchError::from)?),
            None => None,
        };
        let solves = solves_to_size(count, skip, ahead.len());
        let front = game.batch_front(self.how, solves, solving)?;
        show(BatchTick::Start {
            len: count.map(|n| n - skip),
        });
        if skip > 0 {
            show(BatchTick::Line(format!(
                "resuming after the {skip} positions already answered"
            )));
        }
        let sink: &mut dyn Write = match file.as_mut() {
            Some(f) => f,
            None => out,
        };
        let mut next = ahead
            .into_iter()
            .map(Ok)
            .chain(failed.map(Err))
            .chain(lines);
        let ended = answer_all(&*front, &mut next, sink, cancel, show);
        let done = ended.done.map_err(|error| BatchError::Stopped {
            error,
            kept: String::new(),
        })?;
        if let Some(e) = ended.write {
            return Err(match &output {
                Some(o) => BatchError::Output(o.error(e)),
                None => BatchError::Write(e),
            }
            .into());
        }
        if let Some(f) = file {
            f.sync_all().ok();
        }
        if let Some(e) = ended.read {
            return Err(read_error(e).into());
        }
        if cancel.load(Ordering::Relaxed) {
            let kept = kept_words(output.as_ref().map(|o| o.path()), skip, done.answered);
            let error = done.stop_reason();
            return Err(BatchError::Stopped { error, kept }.into());
        }
        Ok(BatchEnd::Answered(done))
    }
}

/// Cuts off what an interrupted run left after its last whole answer, where every
/// position is answered and nothing is appended ([`Resume::leaves_unfinished`]).
fn drop_unfinished(output: Option<&Output>, at: &Resume) -> Result<(), OutputError> {
    if let Some(o) = output {
        if o.existing()?
            .is_some_and(|e| at.leaves_unfinished(e.len() as u64))
        {
            o.append(at.length)?;
        }
    }
    Ok(())
}

/// How the answers of the input ended: the positions answered, and the write or read
/// error that stopped them.
struct Ended {
    done: Result<Streamed, AnalysisError>,
    write: Option<io::Error>,
    read: Option<io::Error>,
}

/// Answers the items of `items` by `front` and writes each answer line to `sink` in
/// input order, flushed at once.
fn answer_all(
    front: &dyn Front,
    items: &mut (dyn Iterator<Item = io::Result<Item>> + Send),
    sink: &mut dyn Write,
    cancel: &AtomicBool,
    show: &mut dyn FnMut(BatchTick),
) -> Ended {
    let mut write = None;
    let mut read = None;
    let mut next = || match items.next()? {
        Ok(item) => Some(item),
        Err(e) => {
            read = Some(e);
            None
        }
    };
    let done = answer_stream(front, &mut next, cancel, &mut |_, answered| {
        if let Err(e) = writeln!(sink, "{}", answered.line).and_then(|()| sink.flush()) {
            write = Some(e);
            return false;
        }
        show(BatchTick::Answered(answered.note));
        true
    });
    Ended { done, write, read }
}

#[cfg(test)]
mod tests;
