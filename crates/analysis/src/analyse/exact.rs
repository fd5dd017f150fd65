//! One position of either kind solved exactly, for `kalah solve` without a limit: the
//! command sets up a [`Board`], makes its [`Exact`] and runs it with a progress display;
//! a sowing game's parallel solver or Bao's game graph, the check of the principal
//! variation, the report ([`super::solved`], [`super::bao`]) and an interrupted solve's best guess
//! stay behind it.

use std::io::{self, Write};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use kalah_core::bao::{BaoPosition, BaoRules};
use kalah_core::{Game, Position};
use kalah_solver::bao::{BaoSolveError, BaoSolved as GraphSolved, GraphStop};
use kalah_solver::{Config, Progress, Solution, SolveError, Solver, SolverError};

use super::bao::{solve_lines, solve_report};
use super::report::egdb_file;
use super::solved::{guess_config, interrupted_guess, interrupted_words, SolveReport};
use super::view::View;
use super::{bao_report, AnalystError};
use crate::game::bao_solve::{bao_graph_words, bao_guess, bao_solve_within};
use crate::game::Board;
use crate::run::progress::{bao_graph_message, progress_message};
use crate::run::solving::{Solving, SolvingError};

/// What an interrupted Bao solve says: its graph solves nothing until all of it is.
const BAO_INTERRUPTED: &str = "interrupted: the game graph was not solved (nothing is until \
     all of it is); the line above is a short anytime analysis, exact only where it says \
     proven";

/// One position of either kind with what solves it exactly: what `kalah solve` runs
/// without a limit. [`Board::exact`] chooses the kind's once; a sowing game's solver, or
/// Bao's game graph within its memory, stays behind it.
pub trait Exact {
    /// Solves the position, `progress` told a line of words now and then; `cancel` stops
    /// the solve ([`ExactError::Cancelled`]).
    fn solve(
        &self,
        cancel: &AtomicBool,
        progress: &mut dyn FnMut(String),
    ) -> Result<Box<dyn Solved + '_>, ExactError>;

    /// The end of an interrupted solve (`last`: the progress it last reported): the best
    /// guess written, a sowing game's as the summary of a short analysis over the table
    /// the solve left, its interval narrowed by the one the proof had reached; Bao's as a
    /// short analysis's report. Returns what the solve proved, in words: the value is not
    /// exact.
    fn interrupted(
        &self,
        last: Option<&Progress>,
        json: bool,
        out: &mut dyn Write,
    ) -> Result<String, AnalystError>;
}

/// A position solved exactly, what [`Exact::solve`] returns: its report.
pub trait Solved {
    /// The report of the solve, in text or JSON.
    fn write(&self, json: bool, out: &mut dyn Write) -> io::Result<()>;
}

/// A sowing game's position and its solver.
struct SowingExact<'a> {
    /// The game.
    game: &'a Game,
    /// The position solved.
    pos: &'a Position,
    /// The solver, its endgame database loaded or built.
    solver: Solver,
}

/// A Bao position, solved by retrograde analysis of its whole game graph.
struct BaoExact<'a> {
    /// The rules (named in the JSON report).
    rules: &'a BaoRules,
    /// The position solved.
    pos: &'a BaoPosition,
    /// The memory the graph may take, in megabytes.
    memory_mb: u64,
}

/// A sowing game's solution, its principal variation checked to replay to its value.
struct SowingSolved<'a> {
    exact: &'a SowingExact<'a>,
    solution: Solution,
}

/// Bao's solved game graph and the time it took.
struct BaoSolved<'a> {
    exact: &'a BaoExact<'a>,
    solution: GraphSolved,
    elapsed: Duration,
}

/// Why an exact solve gave no value.
#[derive(Debug)]
pub enum ExactError {
    /// Interrupted; a sowing game's solve tells the last progress it reported (the
    /// interval its proof had reached).
    Cancelled(Option<Progress>),
    /// A solve that failed, in words: a sowing game's graph larger than its limit, Bao's
    /// game graph larger than its memory.
    Unsolved(String),
    /// The principal variation does not replay to the value: a bug.
    Replay(String),
    /// A sowing game's solver could not be made.
    Setup(SolvingError),
    /// A sowing game's database build was interrupted; the best guess is written, and
    /// these words say what it proved and what of the build was kept.
    Interrupted(String),
    /// The best guess of a solve interrupted in its database build was not written.
    Guess(AnalystError),
}

impl From<SolvingError> for ExactError {
    fn from(e: SolvingError) -> ExactError {
        ExactError::Setup(e)
    }
}

impl Board {
    /// What solves this position exactly: a sowing game's solver made by `solving` (one
    /// solve, every thread on it), Bao's game graph within `memory_mb` megabytes. A
    /// sowing game's database build stopped by `solving`'s cancel flag writes what every
    /// interrupted solve writes, from a short analysis without the database
    /// ([`build_interrupted`], in text or `json`, on `out`), and is
    /// [`ExactError::Interrupted`] with what it proved and what of the build was kept.
    pub fn exact(
        &self,
        memory_mb: u64,
        solving: &Solving,
        json: bool,
        out: &mut dyn Write,
    ) -> Result<Box<dyn Exact + '_>, ExactError> {
        Ok(match self {
            Board::Sowing(game, pos) => {
                let config = solving.config(game, pos.seeds_in_houses() as usize, 1)?;
                let solver = match solving.make(config.clone(), game) {
                    Ok(solver) => solver,
                    Err(SolvingError::Stopped { kept }) => {
                        let words = build_interrupted(game, pos, config, &kept, json, out)
                            .map_err(SolvingError::Solver)?
                            .map_err(ExactError::Guess)?;
                        return Err(ExactError::Interrupted(words));
                    }
                    Err(e) => return Err(e.into()),
                };
                Box::new(SowingExact { game, pos, solver })
            }
            Board::Bao(rules, pos) => Box::new(BaoExact {
                rules,
                pos,
                memory_mb,
            }),
        })
    }
}

impl Exact for SowingExact<'_> {
    fn solve(
        &self,
        cancel: &AtomicBool,
        progress: &mut dyn FnMut(String),
    ) -> Result<Box<dyn Solved + '_>, ExactError> {
        let sign = self.pos.side_to_move().sign();
        let mut last = None;
        let solved = self.solver.solve(self.pos, cancel, &mut |p| {
            last = Some(*p);
            progress(progress_message(p, sign))
        });
        let solution = match solved {
            Ok(solution) => solution,
            Err(SolveError::Cancelled) => return Err(ExactError::Cancelled(last)),
            Err(e) => return Err(ExactError::Unsolved(e.to_string())),
        };
        solution
            .verify(self.game, self.pos)
            .map_err(|e| ExactError::Replay(format!("principal variation does not replay: {e}")))?;
        Ok(Box::new(SowingSolved {
            exact: self,
            solution,
        }))
    }

    fn interrupted(
        &self,
        last: Option<&Progress>,
        json: bool,
        out: &mut dyn Write,
    ) -> Result<String, AnalystError> {
        let a = match interrupted_guess(&self.solver, self.pos, last) {
            Ok(a) => a,
            Err(e) => return Ok(format!("interrupted: not exact ({e})")),
        };
        let view = View {
            game: self.game,
            pos: self.pos,
            multi: 1,
            json,
            verbose: false,
            database: egdb_file(&self.solver),
            book: None,
        };
        view.summary(&a, out)?;
        Ok(interrupted_words(&a))
    }
}

impl Solved for SowingSolved<'_> {
    fn write(&self, json: bool, out: &mut dyn Write) -> io::Result<()> {
        let SowingExact { game, pos, solver } = self.exact;
        let solution = &self.solution;
        SolveReport {
            game,
            pos,
            solver,
            solution,
            pv: kalah_solver::line::notations(game.houses(), &solution.pv),
            best: solution.best_turn().map(|t| t.notation(game.houses())),
            egdb_file: egdb_file(solver),
        }
        .write(json, out)
    }
}

impl Exact for BaoExact<'_> {
    fn solve(
        &self,
        cancel: &AtomicBool,
        progress: &mut dyn FnMut(String),
    ) -> Result<Box<dyn Solved + '_>, ExactError> {
        let timer = Instant::now();
        let result = bao_solve_within(self.pos, self.memory_mb, cancel, &mut |p| {
            progress(bao_graph_message(p))
        });
        match result {
            Ok(solution) => Ok(Box::new(BaoSolved {
                exact: self,
                solution,
                elapsed: timer.elapsed(),
            })),
            Err(BaoSolveError::Stopped(GraphStop::Cancelled)) => Err(ExactError::Cancelled(None)),
            Err(e) => Err(ExactError::Unsolved(bao_graph_words(&e, self.memory_mb))),
        }
    }

    fn interrupted(
        &self,
        _: Option<&Progress>,
        json: bool,
        out: &mut dyn Write,
    ) -> Result<String, AnalystError> {
        bao_report(&bao_guess(self.pos), json, true, out)?;
        Ok(BAO_INTERRUPTED.to_string())
    }
}

impl Solved for BaoSolved<'_> {
    fn write(&self, json: bool, out: &mut dyn Write) -> io::Result<()> {
        let BaoExact { rules, pos, .. } = self.exact;
        if json {
            let report = solve_report(rules, pos, &self.solution, self.elapsed);
            return writeln!(out, "{report}");
        }
        for line in solve_lines(pos, &self.solution, self.elapsed) {
            writeln!(out, "{line}")?;
        }
        Ok(())
    }
}

/// The end of a sowing game's solve of `pos` interrupted while its endgame database was
/// built, `kept` saying what of the build was kept: what every interrupted solve writes
/// ([`Exact::interrupted`]), from a short analysis without the database (a solver of
/// `config` with none, its table no larger than a short analysis takes:
/// [`guess_config`]), and in words what it proved and what was kept, so that the next
/// solve goes on from it. The outer error: the solver of the guess could not be made.
pub fn build_interrupted(
    game: &Game,
    pos: &Position,
    config: Config,
    kept: &str,
    json: bool,
    out: &mut dyn Write,
) -> Result<Result<String, AnalystError>, SolverError> {
    let solver = Solver::new(game.clone(), guess_config(config))?;
    let exact = SowingExact { game, pos, solver };
    Ok(exact
        .interrupted(None, json, out)
        .map(|words| format!("{words}; {kept}")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::run::solving::tests::small_solving;
    use kalah_core::Rules;

    #[test]
    fn a_solve_stopped_in_its_database_build_guesses_without_it() {
        let game = Game::new(Rules::kalah(3, 2)).unwrap();
        let config = Config {
            threads: 1,
            database: kalah_solver::Database::Build(4),
            ..Config::default()
        };
        let mut out = Vec::new();
        let words = build_interrupted(&game, &game.start(), config, "kept", false, &mut out)
            .unwrap()
            .unwrap();
        assert!(words.ends_with("; kept"), "{words}");
        assert!(!out.is_empty());
    }

    #[test]
    fn a_small_sowing_game_solves_and_reports_its_value() {
        let game = Game::new(Rules::kalah(3, 2)).unwrap();
        let board = Board::Sowing(std::sync::Arc::new(game.clone()), game.start());
        let exact = board
            .exact(64, &small_solving(), false, &mut Vec::new())
            .unwrap();
        let mut told = 0;
        let solved = exact
            .solve(&AtomicBool::new(false), &mut |_| told += 1)
            .unwrap();
        let mut out = Vec::new();
        solved.write(true, &mut out).unwrap();
        let report: serde_json::Value = serde_json::from_slice(&out).unwrap();
        let config = Config {
            threads: 1,
            hash_mb: 4,
            ..Config::default()
        };
        let solver = Solver::new(game.clone(), config).unwrap();
        let solution = solver
            .solve(&game.start(), &AtomicBool::new(false), &mut |_| {})
            .unwrap();
        assert_eq!(report["value"], solution.value_from_south());
    }

    #[test]
    fn bao_solves_its_graph_and_an_interrupted_solve_says_it_is_not_exact() {
        let pos: BaoPosition = "2,1,0,1/1,0,0,0/0,0,0,1/2,1,1,0:S".parse().unwrap();
        let board = Board::Bao(BaoRules::new(4, 2).unwrap(), pos);
        let exact = board
            .exact(64, &small_solving(), false, &mut Vec::new())
            .unwrap();
        let solved = exact.solve(&AtomicBool::new(false), &mut |_| {}).unwrap();
        let mut out = Vec::new();
        solved.write(false, &mut out).unwrap();
        assert!(!out.is_empty());
        assert!(matches!(
            exact.solve(&AtomicBool::new(true), &mut |_| {}),
            Err(ExactError::Cancelled(None))
        ));
        let mut guess = Vec::new();
        let words = exact.interrupted(None, true, &mut guess).unwrap();
        assert!(words.starts_with("interrupted"));
        assert_eq!(guess.iter().filter(|&&b| b == b'\n').count(), 1);
    }
}
