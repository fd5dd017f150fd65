//! The bench files and the settings they are solved with: the reader of the lines
//! `PRESET HOUSES SEEDS POSITION [VALUE]` (`data/bench.txt`, the positions of the search
//! fingerprint, and `data/suite.txt`, the analysis suite), the check of a solution against
//! its line, the [`Config`] of each kind of run, and the run of a case ([`Case::run`]).
//!
//! ```
//! use kalah_solver::bench;
//!
//! let cases = bench::read("kalah 4 3 start 4   # Kalah(4,3)\n\ngeneral 3 2 moves:1 \n").unwrap();
//! assert_eq!(cases.len(), 2);
//! assert_eq!(cases[0].value, Some(4));
//! assert_eq!(cases[1].line, "general 3 2 moves:1");
//! let err = bench::read("kalah 4 3 start four").err().unwrap();
//! assert_eq!(err.to_string(), "bench line 1: the value is not a number: 'kalah 4 3 start four'");
//! ```

use std::fmt;
use std::path::Path;

use kalah_core::notation::play_moves;
use kalah_core::{Game, Position, Preset};

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use crate::db::egdb::file::read_info;
use crate::db::egdb::{describe, Egdb, EgdbError};
use crate::line::ReplayError;
use crate::{Config, Database, Solution, Solver, SolverError};

/// One line of a bench file: a position of a game, with the value from South it states
/// if it does.
#[derive(Clone)]
pub struct Case {
    /// The line, without its comment and surrounding blanks.
    pub line: String,
    /// The game of the line's preset and board.
    pub game: Game,
    /// The position: the start, the start after `moves:...`, or a board (settled).
    pub pos: Position,
    /// The value from South that the line states, if it does.
    pub value: Option<i32>,
}

/// A line of a bench file that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadError {
    /// The line's number, from 1.
    pub line: usize,
    /// The line, without its comment.
    pub text: String,
    /// What is wrong with it.
    pub reason: String,
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "bench line {}: {}: '{}'",
            self.line, self.reason, self.text
        )
    }
}

impl std::error::Error for ReadError {}

/// Why the solution of a [`Case`] fails its check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CheckError {
    /// The principal variation does not replay to the value solved.
    Replay(ReplayError),
    /// The value solved is not the one the line states.
    Value {
        /// The case's line.
        line: String,
        /// The value solved, from South.
        solved: i32,
        /// The value the line states, from South.
        stated: i32,
    },
}

impl fmt::Display for CheckError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CheckError::Replay(e) => write!(f, "principal variation does not replay: {e}"),
            CheckError::Value {
                line,
                solved,
                stated,
            } => write!(f, "{line}: solved {solved:+}, the file says {stated:+}"),
        }
    }
}

impl std::error::Error for CheckError {}

/// The cases of a bench file, in order: blank lines and `#` comments skipped, every
/// other line `PRESET HOUSES SEEDS POSITION [VALUE]`, the position `start`,
/// `moves:BINS` (played from the start) or a board. The first line that cannot be read
/// is the error, named by its number.
pub fn read(text: &str) -> Result<Vec<Case>, ReadError> {
    let mut cases = Vec::new();
    for (n, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let case = read_line(line).map_err(|reason| ReadError {
            line: n + 1,
            text: line.to_string(),
            reason,
        })?;
        cases.push(case);
    }
    Ok(cases)
}

/// One line without its comment, or what is wrong with it.
fn read_line(line: &str) -> Result<Case, String> {
    let f: Vec<&str> = line.split_whitespace().collect();
    if f.len() != 4 && f.len() != 5 {
        return Err("expected PRESET HOUSES SEEDS POSITION [VALUE]".into());
    }
    let value = match f.get(4) {
        Some(v) => Some(
            v.parse::<i32>()
                .map_err(|_| "the value is not a number".to_string())?,
        ),
        None => None,
    };
    let preset: Preset = f[0].parse().map_err(|e| format!("{e}"))?;
    let houses: u8 = f[1]
        .parse()
        .map_err(|_| "houses is not a number".to_string())?;
    let seeds: u8 = f[2]
        .parse()
        .map_err(|_| "seeds is not a number".to_string())?;
    let game = Game::new(preset.rules(houses, seeds)).map_err(|e| format!("{e}"))?;
    let pos = if f[3] == "start" {
        game.start()
    } else if let Some(moves) = f[3].strip_prefix("moves:") {
        play_moves(&game, game.start(), moves)
            .map_err(|e| format!("{e}"))?
            .0
    } else {
        let p: Position = f[3].parse().map_err(|e| format!("{e}"))?;
        game.settle(p).map_err(|e| format!("{e}"))?
    };
    Ok(Case {
        line: line.to_string(),
        game,
        pos,
        value,
    })
}

/// What a run of a case found ([`Case::run`]).
#[derive(Clone, Debug)]
pub struct Run {
    /// The solution, checked.
    pub solution: Solution,
    /// The time to make the solver: its table and databases.
    pub setup: Duration,
    /// The seeds of the endgame database the solve used for the case's position, if any.
    pub egdb_seeds: Option<usize>,
}

/// The totals of a bench run over its cases: the nodes searched, and the seconds spent
/// making solvers (set-up) and searching.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Totals {
    /// The nodes of every search.
    pub nodes: u64,
    /// The seconds spent making solvers: tables and databases.
    pub setup_seconds: f64,
    /// The seconds of the searches alone.
    pub search_seconds: f64,
}

impl Totals {
    /// Adds one run to the totals.
    pub fn add(&mut self, run: &Run) {
        self.nodes += run.solution.nodes;
        self.setup_seconds += run.setup.as_secs_f64();
        self.search_seconds += run.solution.elapsed.as_secs_f64();
    }

    /// The nodes searched per second of search (of a run too short to time, per 1e-9 s).
    pub fn nodes_per_second(&self) -> f64 {
        self.nodes as f64 / self.search_seconds.max(1e-9)
    }
}

/// Why a run of a case failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RunError {
    /// The solver cannot be made with the settings (table or database too large).
    Solver(SolverError),
    /// The search was cancelled (it never is: nothing sets the flag).
    Cancelled,
    /// The solution failed its check: a bug of the search.
    Check(CheckError),
}

impl Case {
    /// Solves the case with `config` and checks the solution ([`Case::check`]).
    pub fn run(&self, config: Config) -> Result<Run, RunError> {
        let started = Instant::now();
        let solver = Solver::new(self.game.clone(), config).map_err(RunError::Solver)?;
        self.run_solver(&solver, started.elapsed())
    }

    /// [`Case::run`] with the database that `config` builds in memory kept in the
    /// directory `kept` between runs: loaded from the file there holding exactly its seeds
    /// and rules where there is one (checked as every database file is when loaded, so the
    /// search sees the same values and the node count cannot change), else built and then
    /// written there for the next run. A file that fails to load is removed and the
    /// database built again; a file that cannot be written is passed over (the next run
    /// builds it again). Any other database in `config` is used as it is.
    pub fn run_kept(&self, config: Config, kept: &Path) -> Result<Run, RunError> {
        let k = match config.database {
            Database::Build(k) if k > 0 => k,
            _ => return self.run(config),
        };
        let path = kept.join(kept_name(self.game.rules(), k));
        let exact = read_info(&path).is_ok_and(|info| {
            info.is_finished()
                && info.max_seeds == k
                && describe(&info.rules) == describe(self.game.rules())
        });
        if exact {
            let loaded = Config {
                database: Database::File(path.clone()),
                ..config.clone()
            };
            match self.run(loaded) {
                Err(RunError::Solver(_)) => {
                    let _ = std::fs::remove_file(&path);
                }
                done => return done,
            }
        }
        let started = Instant::now();
        let solver = Solver::new(self.game.clone(), config).map_err(RunError::Solver)?;
        let setup = started.elapsed();
        if let Some(db) = solver.egdb() {
            keep(db, kept, &path);
        }
        self.run_solver(&solver, setup)
    }

    /// Solves the case with `solver`, made in `setup`, and checks the solution.
    fn run_solver(&self, solver: &Solver, setup: Duration) -> Result<Run, RunError> {
        let solution = solver
            .solve(&self.pos, &AtomicBool::new(false), &mut |_| {})
            .map_err(|_| RunError::Cancelled)?;
        self.check(&solution).map_err(RunError::Check)?;
        Ok(Run {
            solution,
            setup,
            egdb_seeds: solver.database_seeds_for(&self.pos),
        })
    }

    /// The settings of the search fingerprint (`kalah bench`): the library's settings for
    /// one solve from the start of the case's game with the database built in memory
    /// (never a file: the count must not depend on the machine's files), with `threads`
    /// search threads and a table of `hash_mb` MiB, and the deepening of the board
    /// whatever the database (as the fingerprint has always been taken).
    pub fn fingerprint_config(&self, threads: usize, hash_mb: usize) -> Result<Config, EgdbError> {
        Ok(Config {
            threads,
            hash_mb,
            deepening: Config::default_deepening(&self.game),
            ..Config::for_seeds(&self.game, self.game.capacity(), 1, &Database::Memory)?
        })
    }

    /// The settings of a solve of the case as `kalah solve` makes it (`kalah bench
    /// --suite`): the library's settings for its position's seeds with the endgame database
    /// `database`, and `threads` search threads where given (else every core).
    pub fn solve_config(
        &self,
        database: &Database,
        threads: Option<usize>,
    ) -> Result<Config, EgdbError> {
        let seeds = self.pos.seeds_in_houses() as usize;
        let mut config = Config::for_seeds(&self.game, seeds, 1, database)?;
        if let Some(threads) = threads {
            config.threads = threads;
        }
        Ok(config)
    }

    /// Checks `solution` of the case: its principal variation replays to its value, and
    /// that value is the one the line states, if it states one.
    pub fn check(&self, solution: &Solution) -> Result<(), CheckError> {
        solution
            .verify(&self.game, &self.pos)
            .map_err(CheckError::Replay)?;
        match self.value {
            Some(stated) if stated != solution.value_from_south() => Err(CheckError::Value {
                line: self.line.clone(),
                solved: solution.value_from_south(),
                stated,
            }),
            _ => Ok(()),
        }
    }
}

/// The name of a kept database of `rules` with `max_seeds` seeds: its rules as the cache
/// names them and its seeds, so a file serves exactly one database.
fn kept_name(rules: &kalah_core::Rules, max_seeds: usize) -> String {
    let rules = describe(rules).replace([' ', '='], "-");
    format!("{rules}-{max_seeds}.egdb")
}

/// Writes `db` to `path` in the directory `dir` through a temporary of this process's own
/// (named as the cache names its temporaries, so a stale one is found and cleaned) and a
/// rename, so a file of the final name is always whole even where two runs write it at
/// once. A failure leaves nothing behind and is not an error of the bench.
fn keep(db: &Egdb, dir: &Path, path: &Path) {
    if std::fs::create_dir_all(dir).is_err() {
        return;
    }
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    let own = dir.join(format!(".{name}.{}.tmp", std::process::id()));
    if db.save(&own).is_err() || std::fs::rename(&own, path).is_err() {
        let _ = std::fs::remove_file(&own);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kalah_core::Side;

    /// The reason `read` gives for a file of one line.
    fn reason(line: &str) -> String {
        let err = read(line).err().expect("a bad line");
        assert_eq!((err.line, err.text.as_str()), (1, line.trim()));
        err.reason
    }

    #[test]
    fn totals_add_runs_and_rate_the_search() {
        let case = &read("kalah 4 3 start").unwrap()[0];
        let config = case.fingerprint_config(1, 1).unwrap();
        let run = case.run(config).unwrap();
        let mut totals = Totals::default();
        totals.add(&run);
        totals.add(&run);
        assert_eq!(totals.nodes, 2 * run.solution.nodes);
        assert_eq!(
            totals.search_seconds,
            2.0 * run.solution.elapsed.as_secs_f64()
        );
        assert_eq!(totals.setup_seconds, 2.0 * run.setup.as_secs_f64());
        let idle = Totals {
            nodes: 5,
            ..Totals::default()
        };
        assert!((idle.nodes_per_second() - 5e9).abs() < 1.0);
    }

    #[test]
    fn reads_every_form_of_position_and_skips_comments() {
        let text = "# a comment\n\
                    kalah 6 4 start 8\n   \n\
                    kalah-empty 4 3 moves:2-1 # played from the start\n\
                    oware 6 4 4,4,4,4,4,4,0,4,4,4,4,4,4,0:N -3\n";
        let cases = read(text).unwrap();
        assert_eq!(cases.len(), 3);
        assert_eq!(cases[0].pos, cases[0].game.start());
        assert_eq!(cases[0].value, Some(8));
        assert_eq!(cases[1].line, "kalah-empty 4 3 moves:2-1");
        assert_eq!(cases[1].value, None);
        let (played, _) = play_moves(&cases[1].game, cases[1].game.start(), "2-1").unwrap();
        assert_eq!(cases[1].pos, played);
        assert_eq!(cases[2].pos.side_to_move(), Side::North);
        assert_eq!(cases[2].value, Some(-3));
    }

    #[test]
    fn a_malformed_line_is_named_by_its_number() {
        let err = read("kalah 6 4 start\n\n# fine so far\nkalah 6 4\n")
            .err()
            .unwrap();
        assert_eq!(err.line, 4);
        assert_eq!(err.text, "kalah 6 4");
        assert_eq!(
            err.to_string(),
            "bench line 4: expected PRESET HOUSES SEEDS POSITION [VALUE]: 'kalah 6 4'"
        );
    }

    #[test]
    fn each_field_has_its_own_reason() {
        assert_eq!(reason("kalah 6 4 start x"), "the value is not a number");
        assert_eq!(reason("kalah six 4 start"), "houses is not a number");
        assert_eq!(reason("kalah 6 four start"), "seeds is not a number");
        assert_eq!(
            reason("kalah 6 4 start 1 2"),
            "expected PRESET HOUSES SEEDS POSITION [VALUE]"
        );
        for line in [
            "chess 6 4 start",
            "kalah 0 4 start",
            "kalah 6 4 moves:9",
            "kalah 6 4 4,4,4:S",
            "kalah 6 4 9,9,9,9,9,9,0,9,9,9,9,9,9,0:S",
        ] {
            assert!(!reason(line).is_empty(), "{line}");
        }
    }

    #[test]
    fn the_bench_files_of_the_source_tree_read() {
        let bench = read(include_str!("../../../data/bench.txt")).unwrap();
        let suite = read(include_str!("../../../data/suite.txt")).unwrap();
        assert!(!bench.is_empty() && !suite.is_empty());
        assert!(suite.iter().all(|case| case.value.is_some()));
    }

    #[test]
    fn the_fingerprint_takes_the_threads_table_and_board_deepening() {
        let case = &read("kalah 4 3 start").unwrap()[0];
        let config = case.fingerprint_config(3, 16).unwrap();
        assert_eq!((config.threads, config.hash_mb), (3, 16));
        assert_eq!(config.deepening, Config::default_deepening(&case.game));
        let solve = case.solve_config(&Database::Memory, Some(2)).unwrap();
        assert_eq!(solve.threads, 2);
    }

    #[test]
    fn a_run_solves_and_checks_the_case() {
        let case = &read("kalah-empty 4 2 start 6").unwrap()[0];
        let run = case.run(case.fingerprint_config(1, 4).unwrap()).unwrap();
        assert_eq!(run.solution.value_from_south(), 6);
        let wrong = Case {
            value: Some(5),
            ..case.clone()
        };
        assert!(matches!(
            wrong.run(case.fingerprint_config(1, 4).unwrap()),
            Err(RunError::Check(CheckError::Value { stated: 5, .. }))
        ));
    }

    #[test]
    fn a_kept_database_is_loaded_again_and_searches_the_same_nodes() {
        let dir = std::env::temp_dir().join(format!("kalah-bench-kept-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let case = &read("kalah-empty 4 3 start").unwrap()[0];
        let config = case.fingerprint_config(1, 4).unwrap();
        let Database::Build(k) = config.database else {
            panic!("the fingerprint builds its database: {:?}", config.database)
        };
        let built = case.run(config.clone()).unwrap();
        let first = case.run_kept(config.clone(), &dir).unwrap();
        let path = dir.join(kept_name(case.game.rules(), k));
        let info = read_info(&path).unwrap();
        assert_eq!((info.max_seeds, info.is_finished()), (k, true));
        let loaded = case.run_kept(config.clone(), &dir).unwrap();
        for run in [&first, &loaded] {
            assert_eq!(run.solution.nodes, built.solution.nodes);
            assert_eq!(run.solution.value, built.solution.value);
            assert_eq!(run.egdb_seeds, built.egdb_seeds);
        }
        // A damaged file is removed and the database built and kept again.
        let whole = std::fs::read(&path).unwrap();
        let mut bytes = whole.clone();
        let last = bytes.len() - 1;
        bytes[last] ^= 0x55;
        std::fs::write(&path, bytes).unwrap();
        let again = case.run_kept(config.clone(), &dir).unwrap();
        assert_eq!(again.solution.nodes, built.solution.nodes);
        assert_eq!(
            std::fs::read(&path).unwrap(),
            whole,
            "the file is written again"
        );
        assert_eq!(
            case.run_kept(config, &dir).unwrap().solution.nodes,
            built.solution.nodes
        );
        // Nothing but the one file is left behind.
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_solution_is_checked_against_the_stated_value() {
        let case = &read("kalah-empty 4 2 start 6").unwrap()[0];
        let solver =
            crate::Solver::new(case.game.clone(), case.fingerprint_config(1, 4).unwrap()).unwrap();
        let cancel = std::sync::atomic::AtomicBool::new(false);
        let solution = solver.solve(&case.pos, &cancel, &mut |_| {}).unwrap();
        assert_eq!(case.check(&solution), Ok(()));
        let wrong = Case {
            value: Some(5),
            ..case.clone()
        };
        assert_eq!(
            wrong.check(&solution).unwrap_err().to_string(),
            "kalah-empty 4 2 start 6: solved +6, the file says +5"
        );
    }
}
