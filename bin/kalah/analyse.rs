//! `kalah analyse` (and `kalah solve` with a limit): the anytime analysis of a position,
//! one line per completed depth with the heuristic evaluation and the proven interval,
//! then a summary that says whether the value is exact. With `--rules bao`, Bao's anytime
//! analysis (`kalah_solver::bao_search`), rendered by `kalah_analysis::wire::bao`.

use std::io::Write;
use std::time::Duration;

use kalah_analysis::front::BAO_DEFAULT_SECONDS;
use kalah_analysis::wire::bao::{report, text};
use kalah_core::bao::BaoPosition;
use kalah_core::{Game, Position};
use kalah_solver::bao_search::{self, BaoAnalysis};
use kalah_solver::{line, Analysis, Limits, ReportKind, RootTurn, Solver};
use serde_json::{json, Value};

use crate::analysis_io::{interrupt_flag, signed};
use crate::args::{GameArgs, LimitArgs};
use crate::book_args::BookArgs;
use crate::error::CliError;
use crate::solving::{analysis_solver, SolverArgs};
use kalah_analysis::book::Entry;

/// The time limit of `kalah analyse` when no limit is given, in seconds.
const DEFAULT_SECONDS: f64 = 3.0;

/// Analyse a position within a time, node or depth limit: the heuristic evaluation, the
/// interval proved to hold the exact value, the best turn and its line.
///
/// One line per completed depth of the iterative deepening: the depth in sowings, the
/// heuristic evaluation (final store difference South minus North that the search
/// guesses), the proven interval (the exact value lies in it, whatever the evaluation
/// says), nodes, nodes per second, time and the line. The proof runs beside the
/// deepening (null-window tests of the exact search); once the interval closes the value
/// is exact and the line is checked to replay to it. The summary says which. Ctrl-C
/// stops the analysis and prints the summary.
///
/// Without a limit the analysis runs for 3 seconds. No endgame database is built unless
/// one is asked for (--egdb, --egdb-seeds): building one would take longer than the
/// analysis. A file already there (in KALAH_EGDB_PATH, else the database cache, as a
/// solve leaves it) is read where it serves the rules and board and loads in a fraction
/// of the time: up to a GiB per second of --time (at least 256 MiB; 2 GiB without a time
/// limit). The summary names it.
///
/// With --rules bao, Bao's anytime analysis on any board (default: 1 second): one line per
/// completed depth in whole moves, with the heuristic evaluation (points, 100 a seed, from
/// South), what is proven (a forced win or loss found within the searched tree; a draw is
/// never claimed), nodes, nodes per second, time and the line.
///
/// Example: `kalah analyse --houses 6 --seeds 6 --time 1 --multi 3` or `kalah analyse
/// --rules bao --time 1`
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Evaluate the N best turns in full and show them under each line, with their
    /// evaluations and proven intervals (0: every turn); the others are only shown to be
    /// no better, which lets the search go deeper
    #[arg(long, value_name = "N", default_value_t = 1)]
    multi: usize,

    /// Print one JSON object per report (every depth and every change of the proven
    /// interval) and a final one with "final": true, instead of text
    #[arg(long)]
    json: bool,

    /// Also print a progress line about every half second while a long depth or exact
    /// test runs (nodes, time, the proven interval); in JSON these lines always come, with
    /// "kind": "tick"
    #[arg(long)]
    verbose: bool,

    #[command(flatten)]
    limits: LimitArgs,

    #[command(flatten)]
    game: GameArgs,

    #[command(flatten)]
    solver: SolverArgs,

    #[command(flatten)]
    book: BookArgs,
}

/// The options `--rules bao` takes besides the board's ([`crate::args::check_game`]).
pub const BAO_OPTIONS: &[&str] = &["json", "time", "nodes", "depth"];

/// Runs `kalah analyse`.
pub fn run(args: &Args, out: &mut dyn Write) -> Result<(), CliError> {
    if args.game.rules.bao() {
        return bao(args, out);
    }
    let limits = args
        .limits
        .given()
        .unwrap_or_else(|| Limits::time(Duration::from_secs_f64(DEFAULT_SECONDS)));
    let (game, pos) = args.game.setup()?;
    let seeds = pos.seeds_in_houses() as usize;
    interrupt_flag();
    let solver = analysis_solver(&args.solver, &game, seeds, &limits)?;
    let view = View {
        game: &game,
        pos: &pos,
        multi: args.multi,
        json: args.json,
        verbose: args.verbose,
        database: kalah_analysis::wire::report::egdb_file(&solver),
        book: book_entry(&args.book, &game, &pos)?,
    };
    view.book_line(out)?;
    let a = analyse(&solver, &pos, &limits, &view, out)?;
    view.summary(&a, out)
}

/// Runs `kalah analyse --rules bao`: one line per completed depth; forced wins and losses
/// found are labelled proven, everything else is a heuristic guess (a draw is never
/// claimed).
fn bao(args: &Args, out: &mut dyn Write) -> Result<(), CliError> {
    let limits = args
        .limits
        .given()
        .unwrap_or_else(|| Limits::time(Duration::from_secs_f64(BAO_DEFAULT_SECONDS)));
    let (_, pos) = args.game.bao_setup()?;
    let mut failed = None;
    let mut report = |a: &BaoAnalysis| {
        if let Err(e) = write_bao_report(a, args.json, false, out) {
            failed.get_or_insert(e);
        }
    };
    let last = bao_search::analyse(&pos, &limits, interrupt_flag(), &mut report);
    if let Some(e) = failed {
        return Err(e.into());
    }
    write_bao_report(&last, args.json, true, out)?;
    Ok(())
}

/// `kalah solve --rules bao` within `limits` (and `openings`, with `moves`): the
/// analysis's final report alone (as the last line of `kalah analyse --rules bao`), then
/// with `moves` every move's evaluation, depth and what is proven, best first. Ctrl-C
/// stops the analysis and prints what it has.
pub fn bao_within(
    pos: &BaoPosition,
    limits: &Limits,
    json: bool,
    moves: bool,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let last = bao_search::analyse(pos, limits, interrupt_flag(), &mut |_| {});
    write_bao_report(&last, json, true, out)?;
    if moves && !json {
        for line in text::analysed_moves(&last) {
            writeln!(out, "{line}")?;
        }
    }
    Ok(())
}

/// One report of Bao's analysis, in text or JSON; `last` marks the summary.
pub(crate) fn write_bao_report(
    a: &BaoAnalysis,
    json: bool,
    last: bool,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    match json {
        true => writeln!(out, "{}", report::analysis_report(a, last)),
        false => writeln!(out, "{}", text::analysis_line(a, last)),
    }
}

/// The opening book's entry for `pos`, with the book's origin, where the book of the
/// rules holds it.
fn book_entry(
    args: &BookArgs,
    game: &Game,
    pos: &Position,
) -> Result<Option<(Entry, String)>, CliError> {
    Ok(args
        .load(game.rules())?
        .and_then(|b| Some((b.lookup(pos)?.clone(), b.origin().to_string()))))
}

/// The analysis of `pos` to `limits`, each report rendered by `view` as it comes; Ctrl-C
/// (or SIGTERM) ends it with what it knows.
pub fn analyse(
    solver: &Solver,
    pos: &Position,
    limits: &Limits,
    view: &View,
    out: &mut dyn Write,
) -> Result<Analysis, CliError> {
    let mut shown = None;
    let mut failed = None;
    let lines = if view.multi == 0 {
        usize::MAX
    } else {
        view.multi
    };
    let a = solver.analyse_lines(pos, limits, lines, interrupt_flag(), &mut |a| {
        if failed.is_none() {
            if let Err(e) = view.report(a, &mut shown, out) {
                failed = Some(e);
            }
        }
    });
    if let Some(e) = failed {
        return Err(e.into());
    }
    a.map_err(|e| crate::analysis_io::invalid(e.to_string()))
}

/// How the reports of an analysis are shown.
pub struct View<'a> {
    /// The game (for the notation).
    pub game: &'a Game,
    /// The position analysed.
    pub pos: &'a Position,
    /// The turns shown under each line (0: all).
    pub multi: usize,
    /// JSON lines instead of text.
    pub json: bool,
    /// Text: a line for every progress tick too ([`ReportKind::Tick`]).
    pub verbose: bool,
    /// The endgame database file the analysis reads, if any (named in the summary).
    pub database: Option<String>,
    /// The opening book's entry for the position and the book's origin, if it holds it:
    /// reported beside the analysis, never mixed into its values.
    pub book: Option<(Entry, String)>,
}

impl View<'_> {
    /// The text line of the book's entry, before the analysis's (JSON: in the final
    /// object, `book`).
    fn book_line(&self, out: &mut dyn Write) -> std::io::Result<()> {
        match (&self.book, self.json) {
            (Some((e, origin)), false) => writeln!(
                out,
                "{}, best turn {} ({origin})",
                e.describe(),
                e.best_turn.notation(self.game.houses())
            ),
            _ => Ok(()),
        }
    }

    /// The book's entry as JSON (values from South, as every field), or null.
    fn book_json(&self) -> Value {
        match &self.book {
            None => Value::Null,
            Some((e, origin)) => {
                kalah_analysis::book::report::entry_json(self.game.houses(), e, origin)
            }
        }
    }

    /// One report: in JSON every one, in text one line per new depth (`shown`: the depth
    /// of the last line printed).
    fn report(
        &self,
        a: &Analysis,
        shown: &mut Option<u8>,
        out: &mut dyn Write,
    ) -> std::io::Result<()> {
        if self.json {
            return writeln!(out, "{}", self.json_of(a, false));
        }
        if a.report == ReportKind::Tick {
            return if self.verbose {
                self.tick_line(a, out)
            } else {
                Ok(())
            };
        }
        if *shown == Some(a.depth) {
            return Ok(());
        }
        *shown = Some(a.depth);
        let (lo, hi) = a.bounds_from_south();
        writeln!(
            out,
            "depth {:>3}  heuristic {:>4} from South  proven {}..{}  nodes {:>11}  {:>7} n/s  {:>7.2} s  line {}",
            a.depth,
            signed(a.eval_from_south()),
            signed(lo),
            signed(hi),
            a.nodes,
            rate(a.nodes_per_second()),
            a.elapsed.as_secs_f64(),
            line::notations(self.game.houses(), &a.pv).join(" "),
        )?;
        if self.multi != 1 {
            for t in self.shown_turns(a) {
                self.turn_line(t, out)?;
            }
        }
        out.flush()
    }

    /// A progress tick: the search goes on past the depth shown.
    fn tick_line(&self, a: &Analysis, out: &mut dyn Write) -> std::io::Result<()> {
        let (lo, hi) = a.bounds_from_south();
        writeln!(
            out,
            "  ...  searching beyond depth {}  proven {}..{}  nodes {:>11}  {:>7} n/s  {:>7.2} s",
            a.depth,
            signed(lo),
            signed(hi),
            a.nodes,
            rate(a.nodes_per_second()),
            a.elapsed.as_secs_f64(),
        )?;
        out.flush()
    }

    /// The turns to show: the `multi` best.
    fn shown_turns<'t>(&self, a: &'t Analysis) -> &'t [RootTurn] {
        let n = if self.multi == 0 {
            a.turns.len()
        } else {
            self.multi.min(a.turns.len())
        };
        &a.turns[..n]
    }

    /// One turn of the multi-line view.
    fn turn_line(&self, t: &RootTurn, out: &mut dyn Write) -> std::io::Result<()> {
        let (lo, hi) = t.bounds_from_south();
        let value = if t.is_exact() {
            format!("exact {:>4}", signed(lo))
        } else {
            format!(
                "heuristic {:>4} at depth {:>2}",
                signed(t.eval_from_south()),
                t.depth
            )
        };
        writeln!(
            out,
            "    {:<12} {value}  proven {}..{}",
            t.turn.notation(self.game.houses()),
            signed(lo),
            signed(hi)
        )
    }

    /// The final summary.
    /// An exact value is printed only with a line that replays to it.
    pub fn summary(&self, a: &Analysis, out: &mut dyn Write) -> Result<(), CliError> {
        if a.is_exact() {
            line::replay(self.game, self.pos, &a.pv, a.bounds_from_south().0).map_err(|e| {
                CliError::Internal(format!("principal variation does not replay: {e}"))
            })?;
        }
        if self.json {
            writeln!(out, "{}", self.json_of(a, true))?;
            return Ok(());
        }
        let best = a.best_turn().map_or("none (the game is over)".into(), |t| {
            t.notation(self.game.houses())
        });
        let line = line::notations(self.game.houses(), &a.pv).join(" ");
        let (lo, hi) = a.bounds_from_south();
        let work = format!(
            "{} nodes, {:.2} s, depth {}",
            a.nodes,
            a.elapsed.as_secs_f64(),
            a.depth
        );
        if let Some(file) = &self.database {
            writeln!(out, "endgame database {file}")?;
        }
        if a.is_exact() {
            writeln!(
                out,
                "exact: value {} from South, best turn {best}, line {line} ({work})",
                signed(lo)
            )?;
        } else {
            writeln!(
                out,
                "not exact: the value from South is proven in {}..{}; best guess {best}, \
                 heuristic {} from South, line {line} ({work})",
                signed(lo),
                signed(hi),
                signed(a.eval_from_south())
            )?;
        }
        Ok(())
    }

    /// One report as JSON (values from South; `eval_mover` and the bounds for the mover
    /// as well).
    fn json_of(&self, a: &Analysis, last: bool) -> Value {
        let houses = self.game.houses();
        let (lo, hi) = a.bounds_from_south();
        let turns: Vec<Value> = self
            .shown_turns(a)
            .iter()
            .map(|t| {
                let (lo, hi) = t.bounds_from_south();
                json!({
                    "turn": t.turn.notation(houses),
                    "eval": t.eval_from_south(),
                    "eval_mover": t.eval,
                    "depth": t.depth,
                    "lower": lo,
                    "upper": hi,
                    "exact": t.is_exact(),
                })
            })
            .collect();
        let kind = match (last, a.report) {
            (true, _) | (_, ReportKind::Final) => "final",
            (false, ReportKind::Iteration) => "iteration",
            (false, ReportKind::Proof) => "proof",
            (false, ReportKind::Tick) => "tick",
        };
        let mut v = json!({
            "kind": kind,
            "final": last,
            "depth": a.depth,
            "eval": a.eval_from_south(),
            "eval_mover": a.eval,
            "lower": lo,
            "upper": hi,
            "exact": a.is_exact(),
            "side": a.side.to_string(),
            "best_turn": a.best_turn().map(|t| t.notation(houses)),
            "pv": line::notations(houses, &a.pv),
            "turns": turns,
            "nodes": a.nodes,
            "nodes_per_second": a.nodes_per_second().round() as u64,
            "seconds": a.elapsed.as_secs_f64(),
            "egdb_file": self.database,
        });
        if last {
            v["book"] = self.book_json();
        }
        v
    }
}

/// A rate with a unit prefix: `950`, `12.3k`, `4.56M`.
fn rate(r: f64) -> String {
    match r {
        r if r >= 1e9 => format!("{:.2}G", r / 1e9),
        r if r >= 1e6 => format!("{:.2}M", r / 1e6),
        r if r >= 1e3 => format!("{:.1}k", r / 1e3),
        r => format!("{r:.0}"),
    }
}
