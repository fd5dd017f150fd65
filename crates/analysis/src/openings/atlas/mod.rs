//! The atlas of Kalah: for a range of boards (houses and seeds, under both capture rules
//! by default), each board's exact value, every first turn's exact value with its
//! principal variation, the best first turns, and the pie rule's decision after each
//! first turn with the value of the game with the rule; written to a directory as
//! `atlas.json` (the record, with the command, commit, machine and time of each board),
//! `boards.csv` and `first_turns.csv` (docs/atlas.md has the columns).
//!
//! A run reads back what the directory holds and never solves a finished board again; a
//! board being solved keeps each value proved in its partial file ([`partial`]), so that
//! an interrupted board keeps its proved first turns. With a budget a board past it is
//! written open, with the interval proved for its value and for each first turn not
//! proved; a later run with a larger budget (or none) takes it up again from there.
//!
//! The values are those of [`crate::openings::analyse`] (each first turn solved exactly,
//! its line replayed to its value) and the pie convention of [`mod@crate::pie`]: a first turn
//! of value `v` is worth `-|v|` to the first player; the value of the game with the rule
//! is the largest of them.

pub mod merged;
pub mod partial;
pub mod plan;
pub mod record;
mod solve;

use std::fmt;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use kalah_core::Rules;
use kalah_io::{Checks, Kind, Output, OutputError};

pub use plan::{Captures, Plan, PlanError, Span, SpanError};
pub use record::{BoardRecord, Machine, Made, Status, TurnRecord};
pub use solve::Ended;

use crate::book::about::utc_text;
use crate::game::bounds::{signed, text};
use crate::game::AnalysisError;
use crate::run::solving::{Solving, SolvingError};

/// Why an atlas was not made.
#[derive(Debug)]
pub enum AtlasError {
    /// The boards asked for are not boards.
    Plan(PlanError),
    /// The directory cannot be used.
    Dir(PathBuf, io::Error),
    /// One of the atlas's files cannot be written (busy, foreign, read-only...).
    Output(OutputError),
    /// `atlas.json` is there but cannot be read as an atlas.
    Damaged {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        why: String,
    },
    /// A merged answer (`kalah merge --json`) that cannot be taken into the atlas.
    Merged {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        why: String,
    },
    /// A board's partial file cannot be read or written.
    Partial(PathBuf, String),
    /// A board's rules are refused.
    Rules(String),
    /// A solver could not be made (or its database build was stopped).
    Solving(SolvingError),
    /// A solve failed.
    Analysis(AnalysisError),
    /// Ctrl-C (or a signal) stopped the run; what was kept, in words.
    Interrupted(String),
}

impl fmt::Display for AtlasError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AtlasError::Plan(e) => write!(f, "{e}"),
            AtlasError::Dir(p, e) => write!(f, "cannot use the directory {}: {e}", p.display()),
            AtlasError::Output(e) => write!(f, "{e}"),
            AtlasError::Damaged { path, why } => write!(
                f,
                "{} is not an atlas this version can read ({why}): restore it, or move it \
                 away to start afresh (its boards are then solved again)",
                path.display()
            ),
            AtlasError::Merged { path, why } => write!(
                f,
                "{} cannot be taken into the atlas: {why}",
                path.display()
            ),
            AtlasError::Partial(path, why) => write!(
                f,
                "{} {why}: remove it to solve that board afresh",
                path.display()
            ),
            AtlasError::Rules(e) => write!(f, "{e}"),
            AtlasError::Solving(e) => write!(f, "{e}"),
            AtlasError::Analysis(e) => write!(f, "{e}"),
            AtlasError::Interrupted(kept) => write!(f, "interrupted: {kept}"),
        }
    }
}

impl std::error::Error for AtlasError {}

impl From<AnalysisError> for AtlasError {
    fn from(e: AnalysisError) -> AtlasError {
        AtlasError::Analysis(e)
    }
}

/// One piece of progress of an atlas run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Tick {
    /// A board begins: its name and how many first turns it has.
    Board(String, usize),
    /// A first turn (or the start) proved, in words (`3-6 +2`).
    Turn(String),
    /// A board was written to the atlas: its line of the summary.
    Written(String),
}

/// The files of an atlas.
pub const JSON: &str = "atlas.json";
/// The table of boards.
pub const BOARDS: &str = "boards.csv";
/// The table of first turns.
pub const TURNS: &str = "first_turns.csv";

/// An atlas's files, checked and locked, with the boards they hold and the boards a run
/// is to solve.
pub struct Atlas {
    dir: PathBuf,
    json: Output,
    boards_csv: Output,
    turns_csv: Output,
    /// Every board in the atlas, finished or open.
    boards: Vec<BoardRecord>,
    /// The boards to solve, in order.
    todo: Vec<Rules>,
    /// The boards of the plan already in the atlas and left as they are.
    kept: Vec<BoardRecord>,
    budget: Option<Duration>,
}

/// The kind of `atlas.json`: its format named at its start.
const JSON_KIND: Kind = Kind {
    name: "an atlas written by kalah atlas",
    test: |head| head.starts_with(format!("{{\"format\": \"{}\"", record::FORMAT).as_bytes()),
};

/// The kind of `boards.csv`: its header line.
const BOARDS_KIND: Kind = Kind {
    name: "a table of boards written by kalah atlas",
    test: |head| kalah_io::first_line(head) == Some(record::BOARDS_HEADER.as_bytes()),
};

/// The kind of `first_turns.csv`: its header line.
const TURNS_KIND: Kind = Kind {
    name: "a table of first turns written by kalah atlas",
    test: |head| kalah_io::first_line(head) == Some(record::TURNS_HEADER.as_bytes()),
};

impl Atlas {
    /// Opens the atlas in `dir` (made if missing) for the boards of `plan` within
    /// `budget` a board: checks and locks its three files (a file of another kind there
    /// is refused), reads the boards `atlas.json` holds, and picks the boards to solve:
    /// those not in it, and those open in it that a larger budget (or none) may close.
    pub fn open(plan: &Plan, dir: &Path, budget: Option<Duration>) -> Result<Atlas, AtlasError> {
        let planned = plan.boards().map_err(AtlasError::Plan)?;
        std::fs::create_dir_all(dir).map_err(|e| AtlasError::Dir(dir.to_path_buf(), e))?;
        let open = |name: &str, kind: Kind| {
            Output::open_with(&dir.join(name), &Checks::of(kind, false)).map_err(AtlasError::Output)
        };
        let json = open(JSON, JSON_KIND)?;
        let boards_csv = open(BOARDS, BOARDS_KIND)?;
        let turns_csv = open(TURNS, TURNS_KIND)?;
        let boards = match json.existing().map_err(AtlasError::Output)? {
            Some(bytes) if !bytes.is_empty() => {
                let text = String::from_utf8(bytes).map_err(|_| AtlasError::Damaged {
                    path: dir.join(JSON),
                    why: "not text".into(),
                })?;
                record::read_atlas_json(&text).map_err(|why| AtlasError::Damaged {
                    path: dir.join(JSON),
                    why,
                })?
            }
            _ => Vec::new(),
        };
        let mut todo = Vec::new();
        let mut kept = Vec::new();
        for rules in planned {
            let key = rules.to_string();
            match boards.iter().find(|b| b.key() == key) {
                Some(b) if !may_close(b, budget) => kept.push(b.clone()),
                _ => todo.push(rules),
            }
        }
        Ok(Atlas {
            dir: dir.to_path_buf(),
            json,
            boards_csv,
            turns_csv,
            boards,
            todo,
            kept,
            budget,
        })
    }

    /// The boards this run solves, in order.
    pub fn todo(&self) -> &[Rules] {
        &self.todo
    }

    /// The boards of the plan already in the atlas, left as they are.
    pub fn kept(&self) -> &[BoardRecord] {
        &self.kept
    }

    /// Solves the boards to solve in order with the solvers `solving` makes, writing the
    /// atlas's files after each one; `made` says how (its time is set per board).
    /// `interrupt` stops the run: the boards finished stay written, the board under way
    /// keeps its proved values in its partial file, and the error says so.
    pub fn run(
        &mut self,
        solving: &Solving,
        made: &Made,
        interrupt: &AtomicBool,
        tick: &(dyn Fn(Tick) + Sync),
    ) -> Result<Vec<BoardRecord>, AtlasError> {
        let mut written = Vec::new();
        for rules in self.todo.clone() {
            let name = board_name(&rules);
            let turns = crate::openings::first_steps(
                &kalah_core::Game::new(rules).map_err(|e| AtlasError::Rules(e.to_string()))?,
                &kalah_core::Game::new(rules)
                    .map_err(|e| AtlasError::Rules(e.to_string()))?
                    .start(),
                crate::game::turns::Offer::AfterTurn,
            )
            .len();
            tick(Tick::Board(name.clone(), turns));
            let run = solve::solve_board(&rules, &self.dir, solving, self.budget, interrupt, tick)?;
            if run.ended == Ended::Interrupted {
                let proved = run.turns.iter().filter(|t| t.value().is_some()).count();
                return Err(AtlasError::Interrupted(format!(
                    "{} boards finished in this run are in {}; {name} keeps its {proved} \
                     proved first turns of {} in {} for the next run",
                    written.len(),
                    self.dir.join(JSON).display(),
                    run.turns.len(),
                    partial::path(&self.dir, &rules).display()
                )));
            }
            let board = BoardRecord {
                rules,
                lower: run.value.0,
                upper: run.value.1,
                turns: run.turns,
                nodes: run.nodes,
                seconds: run.seconds,
                budget: self.budget.map(|b| b.as_secs_f64()),
                made: Made {
                    finished: utc_text(now()),
                    ..made.clone()
                },
            };
            let key = board.key();
            self.boards.retain(|b| b.key() != key);
            self.boards.push(board.clone());
            self.write()?;
            if run.ended == Ended::Done {
                let _ = std::fs::remove_file(partial::path(&self.dir, &rules));
            }
            tick(Tick::Written(summary_line(&board)));
            written.push(board);
        }
        Ok(written)
    }

    /// Takes into the atlas the board of a merged answer (`kalah merge --json` over a
    /// split of its start: [`merged::board`]), written as it was found, exact; the board
    /// is then not solved by this run. `origin` names the file for messages.
    pub fn take_merged(
        &mut self,
        text: &str,
        origin: &Path,
        made: &Made,
    ) -> Result<BoardRecord, AtlasError> {
        let made = Made {
            command: format!("kalah merge (taken by {})", made.command),
            finished: utc_text(now()),
            ..made.clone()
        };
        let board = merged::board(text, &made).map_err(|why| AtlasError::Merged {
            path: origin.to_path_buf(),
            why,
        })?;
        let key = board.key();
        self.boards.retain(|b| b.key() != key);
        self.boards.push(board.clone());
        self.todo.retain(|r| r.to_string() != key);
        self.kept.retain(|b| b.key() != key);
        self.write()?;
        let _ = std::fs::remove_file(partial::path(&self.dir, &board.rules));
        Ok(board)
    }

    /// Writes the three files whole, atomically, the boards in order.
    fn write(&mut self) -> Result<(), AtlasError> {
        self.boards.sort_by_key(|b| {
            (
                b.rules.family.name(),
                b.rules.houses,
                b.rules.seeds,
                b.capture() != "standard",
                b.key(),
            )
        });
        let out = |o: &Output, text: String| o.replace(text.as_bytes()).map_err(AtlasError::Output);
        out(&self.json, record::atlas_json(&self.boards))?;
        out(&self.boards_csv, record::boards_csv(&self.boards))?;
        out(&self.turns_csv, record::turns_csv(&self.boards))
    }

    /// The summary of a run that wrote `written`: a line a board, those kept as they were
    /// counted, and for each board left open the split that would close it elsewhere.
    pub fn write_summary(&self, written: &[BoardRecord], out: &mut dyn Write) -> io::Result<()> {
        for b in written {
            writeln!(out, "{}", summary_line(b))?;
        }
        if !self.kept.is_empty() {
            let open = self
                .kept
                .iter()
                .filter(|b| b.status() != Status::Exact)
                .count();
            writeln!(
                out,
                "{} boards already in the atlas left as they are ({open} of them open: give a \
                 larger --budget, or none, to take them up)",
                self.kept.len()
            )?;
        }
        let exact = written
            .iter()
            .filter(|b| b.status() == Status::Exact)
            .count();
        writeln!(
            out,
            "{} boards solved in this run ({exact} exact, {} open), written to {}",
            written.len(),
            written.len() - exact,
            self.dir.display()
        )?;
        for b in written
            .iter()
            .chain(&self.kept)
            .filter(|b| b.value().is_none())
        {
            writeln!(
                out,
                "{} is past one run's budget: to cut it for many machines, {} (docs/atlas.md)",
                board_name(&b.rules),
                split_command(&b.rules)
            )?;
        }
        Ok(())
    }
}

/// Whether an atlas of budget `budget` may close the board `b` it holds: `b` is not
/// exact and was left open under a smaller budget than `budget` (or `budget` is none).
fn may_close(b: &BoardRecord, budget: Option<Duration>) -> bool {
    if b.status() == Status::Exact {
        return false;
    }
    match (b.budget, budget) {
        (_, None) => true,
        (None, Some(_)) => false,
        (Some(was), Some(now)) => now.as_secs_f64() > was,
    }
}

/// A board in words: `Kalah(6,4) standard`, with its rules in full where they are not
/// its family's own but for the capture (`--rules online`).
pub fn board_name(rules: &Rules) -> String {
    let name = format!(
        "{}({},{}) {}",
        rules.family.title(),
        rules.houses,
        rules.seeds,
        rules.family.capture_name(rules.capture)
    );
    let own = Rules {
        capture: rules.capture,
        ..family_rules(rules)
    };
    match own == *rules {
        true => name,
        false => format!("{name} ({rules})"),
    }
}

/// The rules of the first preset of `rules`' family on its board (`kalah` for Kalah).
fn family_rules(rules: &Rules) -> Rules {
    let of = |p: &kalah_core::Preset| p.rules(rules.houses, rules.seeds);
    kalah_core::Preset::ALL
        .iter()
        .map(|(p, _)| of(p))
        .find(|r| r.family == rules.family)
        .unwrap_or(*rules)
}

/// The `kalah split` that cuts the board of `rules` into units two turns deep, for GNU
/// parallel or Slurm (docs/distributed.md).
pub fn split_command(rules: &Rules) -> String {
    let own = family_rules(rules);
    let mut options = String::new();
    if rules.family.has_capture_option() {
        options += &format!(" --capture {}", rules.capture.name());
    }
    if (rules.end, rules.leftovers) != (own.end, own.leftovers) {
        options += &format!(" --end {} --leftovers {}", rules.end, rules.leftovers);
    }
    if rules.early_stop != own.early_stop {
        options += if rules.early_stop {
            " --early-stop"
        } else {
            " --no-early-stop"
        };
    }
    format!(
        "kalah split --rules {} --houses {} --seeds {}{options} --depth 2 --out {}-{}x{}",
        preset_name(rules),
        rules.houses,
        rules.seeds,
        rules.family.name(),
        rules.houses,
        rules.seeds
    )
}

/// The preset whose family is that of `rules` (`kalah` for Kalah, whatever its capture).
fn preset_name(rules: &Rules) -> &'static str {
    kalah_core::Preset::ALL
        .iter()
        .find(|(p, _)| p.rules(rules.houses, rules.seeds).family == rules.family)
        .map_or("kalah", |(_, n)| n)
}

/// A board's line of the summary: its value (or interval), status, best turns and the
/// value with the pie rule.
pub fn summary_line(b: &BoardRecord) -> String {
    let exact = b.turns.iter().filter(|t| t.value().is_some()).count();
    let best = b.best_turns().join(" ");
    let pie = b.pie();
    let status = match b.status() {
        Status::Exact => "exact".to_string(),
        s => format!(
            "{} ({exact} of {} first turns proved)",
            s.name(),
            b.turns.len()
        ),
    };
    format!(
        "{:<24} value {:<10} {status}; best {}; with the pie rule {} ({:.1} s)",
        board_name(&b.rules),
        text((b.lower, b.upper)),
        if best.is_empty() { "-".into() } else { best },
        match pie.0 == pie.1 {
            true => signed(pie.0),
            false => text(pie),
        },
        b.seconds
    )
}

/// Seconds since 1970-01-01 00:00 UTC.
fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

#[cfg(test)]
mod tests;
