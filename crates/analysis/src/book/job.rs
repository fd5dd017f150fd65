//! A whole `kalah book build`: the positions to analyse, the partial file resumed and
//! kept up to date, the entries made, and the book written whole at the end with the
//! fields that say how it was made.

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use kalah_core::{Game, Position};
use kalah_io::{Output, OutputError};
use kalah_solver::{Limits, Solver};

use super::about::{self, Made};
use super::build::{self, Kept, Partial, PartialError};
use super::{format, Book};
use crate::game::AnalysisError;

/// Why a build stopped.
#[derive(Debug)]
pub enum JobError {
    /// The game is over at the start: there is no turn to put in a book.
    NothingToBook,
    /// The partial file could not be read, written or used (the message names it).
    Partial(PartialError),
    /// The analysis stopped; `kept` says where the entries made so far are kept.
    Analysis {
        /// Why it stopped.
        error: AnalysisError,
        /// Where the work done so far is, in words ([`build::kept_words`]).
        kept: String,
    },
    /// The book could not be written.
    Write(OutputError),
}

impl JobError {
    /// The message of [`JobError::NothingToBook`].
    pub const NOTHING_TO_BOOK: &'static str =
        "the game is over in this position: there is no turn to put in a book";
}

/// What a build covers: its game and start, the whole `turns` from there, each position's
/// `limits`, and the partial file beside the book (none when the book is a stream).
pub struct Job<'a> {
    /// The game of the book.
    pub game: &'a Game,
    /// The position the book starts from.
    pub start: &'a Position,
    /// Whole turns from the start to cover.
    pub turns: u32,
    /// The limits of each position's analysis.
    pub limits: &'a Limits,
    /// The partial file that keeps the entries as they come.
    pub partial: Option<PathBuf>,
}

/// A build ready to run: its positions, what the partial file kept, and that file open.
pub struct Prepared<'a> {
    job: Job<'a>,
    started: Instant,
    limits_text: String,
    todo: Vec<Position>,
    kept: Kept,
    kept_here: usize,
    partial: Option<Partial>,
}

/// Prepares `job`: its positions (refused when there is none), the entries its partial
/// file kept (one made for another build is refused; `warn` hears how many failed their
/// check), and the partial file started again with them.
pub fn prepare<'a>(job: Job<'a>, warn: &mut dyn FnMut(&str)) -> Result<Prepared<'a>, JobError> {
    let started = Instant::now();
    let limits_text = build::limits_text(job.limits);
    let todo = build::positions(job.game, job.start, job.turns);
    if todo.is_empty() {
        return Err(JobError::NothingToBook);
    }
    let header = build::partial_header(job.game.rules(), job.start, job.turns, &limits_text);
    let kept = match &job.partial {
        Some(path) => build::load_partial(job.game, path, &header).map_err(JobError::Partial)?,
        None => Kept::default(),
    };
    if let Some(warning) = kept.damaged_warning() {
        warn(&warning);
    }
    let kept_here = kept.of(&todo);
    let partial = match &job.partial {
        Some(path) => Some(
            Partial::start(path, &header, job.game.houses(), &kept_here)
                .map_err(JobError::Partial)?,
        ),
        None => None,
    };
    let kept_here = kept_here.len();
    Ok(Prepared {
        job,
        started,
        limits_text,
        todo,
        kept,
        kept_here,
        partial,
    })
}

/// Who made a book, for its header: the threads asked for, the command's arguments, the
/// program's version and its commit.
pub struct Maker<'a> {
    /// The search threads asked for (`None`: all cores).
    pub threads: Option<u32>,
    /// The arguments of the command, after the program's name.
    pub args: &'a [String],
    /// The program's version.
    pub version: &'a str,
    /// The commit it was built from, or `unknown`.
    pub commit: &'a str,
}

impl Prepared<'_> {
    /// How many positions the build covers.
    pub fn len(&self) -> usize {
        self.todo.len()
    }

    /// Whether it covers none (never, once prepared).
    pub fn is_empty(&self) -> bool {
        self.todo.is_empty()
    }

    /// The line that says what a resumed build kept, and where (none when nothing was).
    pub fn resuming_line(&self) -> Option<String> {
        build::resuming_line(self.kept_here, self.job.partial.as_deref())
    }

    /// Runs the build with `solver`, `progress` hearing each entry's turn and value in
    /// words as it comes, until every position has its entry or `cancel` is raised; then
    /// writes the book whole to `output`, removes the partial file and returns the
    /// closing line.
    pub fn run(
        mut self,
        solver: &Solver,
        cancel: &AtomicBool,
        maker: &Maker,
        output: &Output,
        progress: &mut dyn FnMut(&str),
    ) -> Result<String, JobError> {
        let game = self.job.game;
        let h = game.houses();
        let partial = &mut self.partial;
        let entries = build::build(
            solver,
            &self.todo,
            self.job.limits,
            &self.kept.entries,
            cancel,
            &mut |e, was_kept| -> Result<(), JobError> {
                if let (false, Some(p)) = (was_kept, partial.as_mut()) {
                    p.add(e).map_err(JobError::Partial)?;
                }
                progress(&format!("{} {}", e.best_turn.notation(h), e.describe()));
                Ok(())
            },
        );
        let entries = entries.map_err(|e| match e {
            JobError::Analysis { error, .. } => JobError::Analysis {
                error,
                kept: build::kept_words(self.job.partial.as_deref()),
            },
            e => e,
        })?;
        let exact = entries.iter().filter(|e| e.is_exact()).count();
        let seconds = self.started.elapsed().as_secs_f64();
        let book = Book::new(
            *game.rules(),
            about::about(&Made {
                start: self.job.start,
                turns: self.job.turns,
                limits: &self.limits_text,
                threads: maker.threads,
                args: maker.args,
                version: maker.version,
                commit: maker.commit,
                unix_secs: SystemTime::now()
                    .duration_since(UNIX_EPOCH)
                    .map_or(0, |d| d.as_secs()),
                seconds,
                positions: entries.len(),
                exact,
            }),
            entries,
        );
        output
            .replace(format::write(&book).as_bytes())
            .map_err(JobError::Write)?;
        if let Some(path) = &self.job.partial {
            let _ = std::fs::remove_file(path);
        }
        Ok(build::written_line(
            book.len(),
            self.job.turns,
            output.path(),
            exact,
            &self.limits_text,
            seconds,
        ))
    }
}

impl From<AnalysisError> for JobError {
    fn from(error: AnalysisError) -> Self {
        JobError::Analysis {
            error,
            kept: String::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kalah_core::Rules;
    use kalah_io::Checks;
    use kalah_solver::Config;

    fn game() -> (Game, Position) {
        let game = Game::new(Rules::kalah(3, 2)).unwrap();
        let start = game.start();
        (game, start)
    }

    #[test]
    fn a_game_over_at_the_start_has_nothing_to_book() {
        let options = crate::game::setup::RuleOptions {
            houses: Some(3),
            seeds: Some(2),
            ..Default::default()
        };
        let (game, over) =
            crate::game::setup::setup(&options, Some("0,0,0,4,0,0,0,8:S"), None).unwrap();
        let job = Job {
            game: &game,
            start: &over,
            turns: 1,
            limits: &Limits::none(),
            partial: None,
        };
        assert!(matches!(
            prepare(job, &mut |_| {}),
            Err(JobError::NothingToBook)
        ));
    }

    #[test]
    fn a_build_writes_the_book_removes_its_partial_and_says_what_it_wrote() {
        let (game, start) = game();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("b.book");
        let output = Output::open_with(&path, &Checks::of(crate::book::KIND, false)).unwrap();
        let partial = output.sibling(".partial");
        let job = Job {
            game: &game,
            start: &start,
            turns: 2,
            limits: &Limits::none(),
            partial: partial.clone(),
        };
        let mut warnings = Vec::new();
        let prepared = prepare(job, &mut |w| warnings.push(w.to_string())).unwrap();
        assert_eq!((prepared.len(), prepared.resuming_line()), (5, None));
        assert!(partial.as_ref().unwrap().exists());
        let config = Config {
            threads: 1,
            hash_mb: 1,
            database: kalah_solver::Database::None,
            ..Config::default()
        };
        let solver = Solver::new(game.clone(), config).unwrap();
        let mut seen = Vec::new();
        let maker = Maker {
            threads: Some(1),
            args: &[],
            version: "0",
            commit: "unknown",
        };
        let line = prepared
            .run(
                &solver,
                &AtomicBool::new(false),
                &maker,
                &output,
                &mut |m| seen.push(m.to_string()),
            )
            .unwrap();
        assert!(warnings.is_empty());
        assert_eq!(seen[0], "2-3 book depth 12: exact +4 from South");
        assert_eq!(seen.len(), 5);
        assert!(
            line.starts_with("5 positions within 2 turns written to "),
            "{line}"
        );
        assert!(!partial.unwrap().exists());
        let book = Book::read_file(&path, None).unwrap();
        assert_eq!(book.len(), 5);
    }
}
