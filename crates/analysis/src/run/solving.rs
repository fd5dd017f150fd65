//! The solver a command asks for, built here from one options value: the command fills a
//! [`SolverOptions`] from its flags, and the library makes every solver it needs from it
//! ([`Solving`]), showing its set-up through a [`SetupShown`] the front end draws. No
//! closure goes back up to the front end to get a solver.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use kalah_core::Game;
use kalah_solver::{Config, Evaluation, Limits, OverrideError, Overrides, Solver, SolverError};

use crate::run::progress;

/// What a command's flags ask of its solvers: the settings over the library's choice
/// (threads, table size, deepening, the endgame database) and whether to keep quiet.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SolverOptions {
    /// The settings the flags give over the library's choice ([`Overrides`]).
    pub overrides: Overrides,
    /// No notices on standard error (the front end hides its spinner too).
    pub quiet: bool,
}

/// How a front end shows the set-up of a solver: a spinner with a message while its
/// database is loaded or built, cleared before the lines said after it.
pub trait SetupShown {
    /// The set-up begins (a spinner appears).
    fn start(&self) {}
    /// What the set-up is doing now, in words.
    fn message(&self, _message: String) {}
    /// The set-up is over: the spinner goes.
    fn clear(&self) {}
    /// A line of its own (a notice, a warning); never called with `quiet`.
    fn say(&self, _line: &str) {}
}

/// A set-up shown nowhere (tests, and front ends that show nothing).
pub struct Unshown;

impl SetupShown for Unshown {}

/// Why no solver was made.
#[derive(Debug)]
pub enum SolvingError {
    /// The options give no configuration (a search option for a family solved by
    /// retrograde analysis, the environment's cache cap, the database asked for).
    Options(OverrideError),
    /// The solver could not be set up (its table or database).
    Solver(SolverError),
    /// The database build was stopped (Ctrl-C or a signal); what of it was kept, in words.
    Stopped {
        /// What of the build was kept ([`progress::build_stopped`]).
        kept: String,
    },
}

impl std::fmt::Display for SolvingError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SolvingError::Options(e) => write!(f, "{e}"),
            SolvingError::Solver(e) => write!(f, "{e}"),
            SolvingError::Stopped { kept } => write!(f, "interrupted: {kept}"),
        }
    }
}

impl std::error::Error for SolvingError {}

impl From<OverrideError> for SolvingError {
    fn from(e: OverrideError) -> SolvingError {
        SolvingError::Options(e)
    }
}

impl From<SolverError> for SolvingError {
    fn from(e: SolverError) -> SolvingError {
        SolvingError::Solver(e)
    }
}

/// What makes a command's solvers: its options, how the set-up is shown, and the flag
/// that stops a database build (a command that watches Ctrl-C), if any.
#[derive(Clone)]
pub struct Solving<'a> {
    /// The options the flags filled.
    pub options: SolverOptions,
    /// Where the set-up is shown.
    pub shown: &'a dyn SetupShown,
    /// Stops a database build ([`SolvingError::Stopped`]).
    pub cancel: Option<&'a AtomicBool>,
}

impl<'a> Solving<'a> {
    /// These options for an analysis within `time` (none: no time limit), or for the
    /// time a move or an answer may take: no endgame database is built unless one is
    /// asked for, since a build can take longer than the analysis; a file already there
    /// is read where it loads in a fraction of the time ([`Overrides::for_analysis`]).
    pub fn within(&self, time: Option<Duration>) -> Solving<'a> {
        let mut within = self.clone();
        within.options.overrides = self.options.overrides.for_analysis(time);
        within
    }

    /// The configuration for `solves` solves of positions of `game` with at most `seeds`
    /// seeds in the houses: the library's choice with the options' settings.
    pub fn config(&self, game: &Game, seeds: usize, solves: usize) -> Result<Config, SolvingError> {
        Ok(self.options.overrides.config(game, seeds, solves)?)
    }

    /// A solver for positions of `game` with at most `seeds` seeds in the houses (one
    /// solve, every thread on it).
    pub fn solver(&self, game: &Game, seeds: usize) -> Result<Solver, SolvingError> {
        self.make(self.config(game, seeds, 1)?, game)
    }

    /// A solver with one search thread per solve, and the number of solves to run at
    /// once (the threads, default all cores): many independent solves keep every core
    /// busy with less overhead than Lazy SMP inside each, and they all share the one
    /// table (and the endgame database, sized for `solves` solves of positions with at
    /// most `seeds` seeds in the houses).
    pub fn parallel(
        &self,
        game: &Game,
        seeds: usize,
        solves: usize,
    ) -> Result<(Solver, usize), SolvingError> {
        let (config, workers) = self.config(game, seeds, solves)?.one_thread_a_solve();
        Ok((self.make(config, game)?, workers))
    }

    /// A solver for an analysis to `limits`: the solve's, but with no endgame database
    /// built unless one is asked for ([`Solving::within`]), and, under a time limit and
    /// without a table size asked for, a table of at most [`Limits::table_mb_cap`]
    /// ([`Overrides::analysis_config`]).
    pub fn analysis(
        &self,
        game: &Game,
        seeds: usize,
        limits: &Limits,
    ) -> Result<Solver, SolvingError> {
        let config = self
            .options
            .overrides
            .analysis_config(game, seeds, limits)?;
        self.within(limits.time).make(config, game)
    }

    /// The solver of an engine on `game` (the protocol's, a match's player): `threads`
    /// over the options', `evaluation` at the leaves, and no endgame database built
    /// unless one is asked for (a file already there is read).
    pub fn engine(
        &self,
        game: &Game,
        threads: Option<usize>,
        evaluation: Evaluation,
    ) -> Result<Solver, SolvingError> {
        let mut within = self.within(None);
        let overrides = &mut within.options.overrides;
        overrides.threads = threads.or(overrides.threads);
        let config = Config {
            evaluation,
            ..within.config(game, game.capacity(), 1)?
        };
        within.make(config, game)
    }

    /// A solver with `config`, its set-up shown (a notice before a build for the
    /// database cache, then the notes of the set-up unless quiet); a build stopped by
    /// `cancel` is [`SolvingError::Stopped`].
    pub fn make(&self, config: Config, game: &Game) -> Result<Solver, SolvingError> {
        let quiet = self.options.quiet;
        self.shown.start();
        let made = progress::make_solver(
            game,
            config,
            self.cancel,
            self.options.overrides.existing_only.is_some(),
            &mut |message| self.shown.message(message),
            &mut |notice| {
                if !quiet {
                    self.shown.say(&notice)
                }
            },
        );
        self.shown.clear();
        match made? {
            Ok((solver, notes)) => {
                for note in notes.iter().filter(|_| !quiet) {
                    self.shown.say(note);
                }
                Ok(solver)
            }
            Err(kept) => Err(SolvingError::Stopped { kept }),
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::book::choice::LoadError;

    /// A set-up that failed (to make a solver or load a book), for the tests of the
    /// library's commands.
    #[derive(Debug)]
    pub(crate) struct Failed;

    impl From<SolvingError> for Failed {
        fn from(_: SolvingError) -> Failed {
            Failed
        }
    }

    impl From<LoadError> for Failed {
        fn from(_: LoadError) -> Failed {
            Failed
        }
    }

    /// What makes a small solver quietly: one thread, a small table, no database.
    pub(crate) fn small_solving() -> Solving<'static> {
        Solving {
            options: SolverOptions {
                overrides: Overrides {
                    threads: Some(1),
                    hash_mb: Some(16),
                    egdb_seeds: Some(0),
                    ..Overrides::default()
                },
                quiet: true,
            },
            shown: &Unshown,
            cancel: None,
        }
    }
    use kalah_core::Rules;
    use std::cell::RefCell;

    /// What a set-up showed, in order.
    #[derive(Default)]
    struct Told(RefCell<Vec<String>>);

    impl SetupShown for Told {
        fn start(&self) {
            self.0.borrow_mut().push("start".into());
        }
        fn clear(&self) {
            self.0.borrow_mut().push("clear".into());
        }
        fn say(&self, line: &str) {
            self.0.borrow_mut().push(line.to_string());
        }
    }

    fn options(overrides: Overrides) -> SolverOptions {
        SolverOptions {
            overrides,
            quiet: false,
        }
    }

    #[test]
    fn the_flags_set_the_threads_and_table_of_the_solver_made() {
        let game = Game::new(Rules::kalah(4, 3)).unwrap();
        let told = Told::default();
        let solving = Solving {
            options: options(Overrides {
                threads: Some(2),
                hash_mb: Some(3),
                egdb_seeds: Some(0),
                ..Overrides::default()
            }),
            shown: &told,
            cancel: None,
        };
        let config = solving.config(&game, 12, 1).unwrap();
        assert_eq!((config.threads, config.hash_mb), (2, 2));
        let (_, workers) = solving.parallel(&game, 12, 4).unwrap();
        assert_eq!(workers, 2);
        assert_eq!(told.0.borrow()[..2], ["start".to_string(), "clear".into()]);
    }

    #[test]
    fn an_analysis_builds_no_database_and_an_engine_takes_its_threads() {
        let game = Game::new(Rules::kalah(4, 3)).unwrap();
        let solving = Solving {
            options: options(Overrides {
                threads: Some(3),
                no_cache: true,
                ..Overrides::default()
            }),
            shown: &Unshown,
            cancel: None,
        };
        let within = solving.within(Some(Duration::from_secs(1)));
        assert!(within.options.overrides.existing_only.is_some());
        assert!(solving.options.overrides.existing_only.is_none());
        let solver = solving
            .engine(&game, Some(1), Evaluation::default())
            .unwrap();
        assert!(solver.egdb().is_none());
    }

    #[test]
    fn a_search_option_for_a_retrograde_family_is_refused_in_its_words() {
        let game = Game::new(Rules::oware(4, 3)).unwrap();
        let solving = Solving {
            options: options(Overrides {
                hash_mb: Some(8),
                ..Overrides::default()
            }),
            shown: &Unshown,
            cancel: None,
        };
        let Err(e) = solving.solver(&game, 12) else {
            panic!("--hash-mb is refused for Oware")
        };
        assert!(e.to_string().contains("--hash-mb"), "{e}");
    }

    #[test]
    fn a_quiet_setup_says_nothing() {
        let game = Game::new(Rules::kalah(3, 2)).unwrap();
        let told = Told::default();
        let solving = Solving {
            options: SolverOptions {
                overrides: Overrides {
                    egdb_seeds: Some(4),
                    ..Overrides::default()
                },
                quiet: true,
            },
            shown: &told,
            cancel: None,
        };
        solving.solver(&game, 6).unwrap();
        assert_eq!(*told.0.borrow(), ["start", "clear"]);
    }
}
