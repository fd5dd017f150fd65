//! The reports of `kalah analyse` of the sowing games (and of `kalah solve` within a
//! limit or interrupted), as they come: in text one line per completed depth (with the
//! best turns under it, and progress ticks where asked) and a summary that says whether
//! the value is exact; in JSON every report, then the final one (docs/outputs.md).

use std::io::Write;

use kalah_core::{Game, Position};
use kalah_solver::line::{self, ReplayError};
use kalah_solver::{Analysis, ReportKind, RootTurn};
use serde_json::{json, Value};

use crate::book::Entry;
use crate::game::bounds::signed;

/// Why a summary was not written.
#[derive(Debug)]
pub enum SummaryError {
    /// The principal variation of an exact value does not replay to it: a bug.
    Replay(ReplayError),
    /// The output could not be written.
    Io(std::io::Error),
}

impl From<std::io::Error> for SummaryError {
    fn from(e: std::io::Error) -> SummaryError {
        SummaryError::Io(e)
    }
}

impl std::fmt::Display for SummaryError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SummaryError::Replay(e) => write!(f, "principal variation does not replay: {e}"),
            SummaryError::Io(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for SummaryError {}

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
    pub fn book_line(&self, out: &mut dyn Write) -> std::io::Result<()> {
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
            Some((e, origin)) => crate::book::report::entry_json(self.game.houses(), e, origin),
        }
    }

    /// One report: in JSON every one, in text one line per new depth (`shown`: the depth
    /// of the last line printed).
    pub fn report(
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

    /// The final summary. An exact value is printed only with a line that replays to it.
    pub fn summary(&self, a: &Analysis, out: &mut dyn Write) -> Result<(), SummaryError> {
        if a.is_exact() {
            line::replay(self.game, self.pos, &a.pv, a.bounds_from_south().0)
                .map_err(SummaryError::Replay)?;
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

#[cfg(test)]
mod tests {
    use super::*;
    use kalah_core::Rules;
    use kalah_solver::{Config, Limits, Solver};
    use std::sync::atomic::AtomicBool;

    #[test]
    fn an_exact_analysis_summarises_as_exact_in_text_and_json() {
        let game = Game::new(Rules::kalah(3, 2)).unwrap();
        let pos = game.start();
        let config = Config {
            threads: 1,
            hash_mb: 1,
            ..Config::default()
        };
        let solver = Solver::new(game.clone(), config).unwrap();
        let never = AtomicBool::new(false);
        let a = solver
            .analyse_lines(&pos, &Limits::depth(40), 1, &never, &mut |_| {})
            .unwrap();
        assert!(a.is_exact());
        let mut view = View {
            game: &game,
            pos: &pos,
            multi: 1,
            json: false,
            verbose: false,
            database: None,
            book: None,
        };
        let mut text = Vec::new();
        view.summary(&a, &mut text).unwrap();
        let text = String::from_utf8(text).unwrap();
        assert!(text.starts_with("exact: value "), "{text}");
        let mut shown = None;
        let mut depth_line = Vec::new();
        view.report(&a, &mut shown, &mut depth_line).unwrap();
        assert!(String::from_utf8(depth_line).unwrap().starts_with("depth "));
        view.json = true;
        let mut json = Vec::new();
        view.summary(&a, &mut json).unwrap();
        let v: Value = serde_json::from_slice(&json).unwrap();
        assert_eq!(v["final"], true);
        assert_eq!(v["exact"], true);
        assert_eq!(v["book"], Value::Null);
    }

    #[test]
    fn rates_carry_a_unit_prefix() {
        assert_eq!(rate(950.0), "950");
        assert_eq!(rate(12_345.0), "12.3k");
        assert_eq!(rate(4_560_000.0), "4.56M");
    }
}
