//! What a merge of a split's answers found, ready to render: the value of the position
//! with its principal variation, every first move, the pie rule, a hypothesis's verdict
//! and the units to solve next, with its two renderings: text, a line a field
//! ([`Report::write_text`]), and one JSON object ([`Report::to_json`]).

use std::io::{self, Write};
use std::path::Path;

use kalah_core::{Position, Side};
use kalah_solver::line::notations;
use kalah_solver::Turn;
use serde_json::{json, Value};

use super::hypothesis::Verdict;
use super::merge::{FirstMove, Merge};
use super::tree::Tree;
use crate::game::bounds::{from_mover, signed, text, Bounds};
use crate::game::pie::decide;
use crate::wire::unit::{Unit, Window};

/// The pie rule over the merged first moves, for the position's mover.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pie {
    /// Bounds of the value with the pie rule, for the player to move.
    pub bounds: Bounds,
    /// When they are exact: the best first move (an index into [`Report::moves`]) and
    /// whether the opponent swaps after it.
    pub best: Option<(usize, bool)>,
}

/// What a merge found.
#[derive(Clone, Debug)]
pub struct Report<'t> {
    /// The split's tree.
    pub tree: &'t Tree,
    /// Bounds of the position's value, from South.
    pub root: Bounds,
    /// A principal variation of the position, replayed, when it is exact and known.
    pub pv: Option<Vec<Turn>>,
    /// The position's first moves, merged.
    pub moves: Vec<FirstMove>,
    /// The pie rule, when the position has moves.
    pub pie: Option<Pie>,
    /// The hypothesis given, and what the answers say of it.
    pub hypothesis: Option<(i32, Verdict)>,
    /// The units to solve next: those the value needs, or the hypothesis's windows.
    pub next: Vec<Unit>,
    /// The hypothesis the next windows are for, when it is not the one given (the nearest
    /// value a refuted hypothesis leaves).
    pub next_hypothesis: Option<i32>,
    /// Units the exact value still needs.
    pub needed: usize,
    /// Units of the split.
    pub units: usize,
    /// Units with an exact value.
    pub exact_units: usize,
    /// Answers taken, duplicates included.
    pub answers: usize,
    /// Units, by id, whose claims the values rest on and that are not proved again yet
    /// ([`Merge::verify`]): those claims do not count.
    pub unverified: Vec<usize>,
    /// Units whose answers were taken without proof ([`Merge::trust`]): the values are
    /// exact only if those answers are.
    pub trusted: usize,
}

/// Bounds of `-|v|` for `v` within `b`.
fn pie_bounds((lo, hi): Bounds) -> Bounds {
    let far = lo.unsigned_abs().max(hi.unsigned_abs()) as i32;
    let near = if lo <= 0 && hi >= 0 {
        0
    } else {
        lo.unsigned_abs().min(hi.unsigned_abs()) as i32
    };
    (-far, -near)
}

/// The pie rule over `moves` of a position with `side` to move.
fn pie(moves: &[FirstMove], side: Side) -> Option<Pie> {
    if moves.is_empty() {
        return None;
    }
    let each: Vec<Bounds> = moves
        .iter()
        .map(|m| pie_bounds(from_mover(side, m.bounds)))
        .collect();
    let lo = each.iter().map(|b| b.0).max().expect("moves");
    let hi = each.iter().map(|b| b.1).max().expect("moves");
    let best = (lo == hi)
        .then(|| each.iter().position(|&b| b == (lo, lo)))
        .flatten()
        .map(|i| (i, decide(side.sign() * moves[i].bounds.0).swap));
    Some(Pie {
        bounds: (lo, hi),
        best,
    })
}

impl<'t> Report<'t> {
    /// The report of `merge`, whose node bounds are `bounds` (what is proved,
    /// [`Merge::bounds`]), with the hypothesis `hypothesis` checked if one is given.
    pub fn new(merge: &Merge<'t>, bounds: &[Bounds], hypothesis: Option<i32>) -> Report<'t> {
        let tree = merge.tree;
        let moves = merge.first_moves(bounds);
        let needed = merge.needed(bounds);
        let (hypothesis, next, next_hypothesis) = match hypothesis {
            None => {
                let full = Window::full(&tree.rules);
                let units = needed.iter().map(|&u| tree.unit(u, full)).collect();
                (None, units, None)
            }
            Some(v) => {
                let verdict = merge.hypothesis(bounds, v);
                let (next, nh) = next_windows(merge, bounds, v, &verdict);
                (Some((v, verdict)), next, nh)
            }
        };
        Report {
            tree,
            root: bounds[0],
            pv: merge.principal_variation(bounds),
            pie: pie(&moves, tree.root().side_to_move()),
            moves,
            hypothesis,
            next,
            next_hypothesis,
            needed: needed.len(),
            units: tree.units.len(),
            exact_units: merge.exact_units(),
            answers: merge.answers(),
            unverified: merge.unverified(),
            trusted: merge.trusted(),
        }
    }

    /// What a value of the text rests on, when not on proofs alone: nothing, or
    /// ` (if the answers are)`.
    fn unproved(&self) -> &'static str {
        if self.verified() {
            ""
        } else {
            " (if the answers are)"
        }
    }

    /// Whether every claim the values rest on was proved again (none taken on trust).
    pub fn verified(&self) -> bool {
        self.trusted == 0 && self.unverified.is_empty()
    }

    /// The position merged.
    pub fn position(&self) -> &Position {
        self.tree.root()
    }

    /// Whether the position's value is exact.
    pub fn exact(&self) -> bool {
        self.root.0 == self.root.1
    }

    /// `None` when the run is conclusive (the value exact, or the hypothesis decided),
    /// else what is missing.
    pub fn unfinished(&self) -> Option<String> {
        match &self.hypothesis {
            None if self.exact() => None,
            None => Some(format!(
                "the value is not exact yet: {} units still needed (see --next)",
                self.needed
            )),
            Some((_, Verdict::Pending(units))) => Some(format!(
                "the hypothesis is not decided yet: {} windows to solve (see --next)",
                units.len()
            )),
            Some(_) => None,
        }
    }

    /// One word for where the merge stands: `exact` (proved), `trusted` (a single value,
    /// but resting on answers taken without proof, `--trust-answers`: the answers'
    /// claim, never called exact) or `incomplete`, or for a hypothesis `confirmed`,
    /// `refuted` or `pending` (beside `"verified"`, which says whether they rest on
    /// proofs alone).
    pub fn status(&self) -> &'static str {
        match &self.hypothesis {
            None if self.exact() && self.verified() => "exact",
            None if self.exact() => "trusted",
            None => "incomplete",
            Some((_, Verdict::Confirmed)) => "confirmed",
            Some((_, Verdict::Refuted(_))) => "refuted",
            Some((_, Verdict::Pending(_))) => "pending",
        }
    }
}

/// The windows to solve after `verdict` on the hypothesis `v`, and the hypothesis they are
/// for when it is another: a refuted hypothesis moves on to the nearest value the bounds
/// still allow.
fn next_windows(
    merge: &Merge<'_>,
    bounds: &[Bounds],
    v: i32,
    verdict: &Verdict,
) -> (Vec<Unit>, Option<i32>) {
    match verdict {
        Verdict::Pending(units) => (units.clone(), None),
        Verdict::Confirmed => (Vec::new(), None),
        Verdict::Refuted((lo, hi)) => {
            let w = if *hi < v { *hi } else { *lo };
            match merge.hypothesis(bounds, w) {
                Verdict::Pending(units) => (units, Some(w)),
                _ => (Vec::new(), Some(w)),
            }
        }
    }
}

/// Bounds as JSON: `{"value"}` when exact, else `{"lower", "upper"}`.
fn bounds_json((lo, hi): Bounds) -> Value {
    if lo == hi {
        json!({"value": lo})
    } else {
        json!({"lower": lo, "upper": hi})
    }
}

impl Report<'_> {
    /// The report as one JSON object on a line (`json`) or as text; `next` names the file
    /// the next units were written to, if any.
    pub fn write(&self, json: bool, next: Option<&Path>, out: &mut dyn Write) -> io::Result<()> {
        crate::wire::json_or_text(
            json,
            out,
            || self.to_json(next),
            |out| self.write_text(next, out),
        )
    }

    /// The report as one JSON object; `next` names the file the next units were written
    /// to, if any.
    pub fn to_json(&self, next: Option<&Path>) -> Value {
        let tree = self.tree;
        let h = tree.rules.houses as usize;
        let mut obj = json!({
            "rules": tree.rules.to_string(),
            "position": self.position().to_string(),
            "step": tree.step.name(),
            "depth": tree.depth,
            "status": self.status(),
            "exact": self.exact() && self.verified(),
            "units": self.units,
            "answers": self.answers,
            "exact_units": self.exact_units,
            "needed": self.needed,
            "verified": self.verified(),
        });
        if let Value::Object(root) = bounds_json(self.root) {
            for (k, v) in root {
                obj[k] = v;
            }
        }
        obj["pv"] = json!(self.pv.as_ref().map(|l| notations(h, l)));
        obj["moves"] = self
            .moves
            .iter()
            .map(|m| {
                let mut o = bounds_json(m.bounds);
                o["turn"] = json!(m.turn.notation(h));
                o["pv"] = json!(m.pv.as_ref().map(|l| notations(h, l)));
                o["verified"] = json!(self.verified());
                o
            })
            .collect();
        if let Some(pie) = &self.pie {
            obj["pie"] = self.pie_json(pie);
        }
        self.verdict_json(&mut obj);
        if let Some(path) = next {
            obj["next"] = json!(path.display().to_string());
            obj["next_units"] = json!(self.next.len());
        }
        obj
    }

    /// The pie rule as JSON: its bounds, the offer, and the best first move when exact.
    fn pie_json(&self, pie: &Pie) -> Value {
        let h = self.tree.rules.houses as usize;
        let mut o = bounds_json(pie.bounds);
        o["verified"] = json!(self.verified());
        o["offer"] = json!(self.tree.step.offer().name());
        if let Some((b, swap)) = pie.best {
            o["best_turn"] = json!(self.moves[b].turn.notation(h));
            o["swap"] = json!(swap);
        }
        o
    }

    /// Adds to `obj` the hypothesis, its windows and the units left unverified.
    fn verdict_json(&self, obj: &mut Value) {
        if let Some((v, verdict)) = &self.hypothesis {
            obj["hypothesis"] = json!(v);
            if let Verdict::Pending(units) = verdict {
                obj["windows"] = json!(units.len());
            }
        }
        if let Some(w) = self.next_hypothesis {
            obj["next_hypothesis"] = json!(w);
        }
        if !self.unverified.is_empty() {
            obj["unverified"] = json!(self.unverified);
        }
        if self.trusted > 0 {
            obj["trusted_units"] = json!(self.trusted);
        }
    }

    /// Writes the report as text, a line a field; `next` names the file the next units
    /// were written to, if any.
    pub fn write_text(&self, next: Option<&Path>, out: &mut dyn Write) -> io::Result<()> {
        let h = self.tree.rules.houses as usize;
        writeln!(out, "rules      {}", self.tree.rules)?;
        writeln!(out, "position   {}", self.position())?;
        writeln!(
            out,
            "answers    {} answers, {} of the {} units exact",
            self.answers, self.exact_units, self.units
        )?;
        let what = match (self.exact(), self.verified()) {
            (true, true) => "exact",
            (true, false) => "trusted: exact if the answers are",
            (false, true) => "bounds: not exact yet",
            (false, false) => "bounds if the answers are: not exact yet",
        };
        writeln!(out, "value      {} ({what}, from South)", text(self.root))?;
        if self.trusted > 0 {
            writeln!(
                out,
                "trusted    the answers of {} units taken without proving them again \
                 (--trust-answers): no value here is proved",
                self.trusted
            )?;
        }
        if let Some(pv) = &self.pv {
            writeln!(out, "pv         {}", notations(h, pv).join(" "))?;
        } else if self.exact() {
            writeln!(
                out,
                "pv         none: a unit on the line was answered with bounds only"
            )?;
        }
        writeln!(out, "moves      (value from South after each first move)")?;
        let unproved = self.unproved();
        for m in &self.moves {
            writeln!(
                out,
                "  {:<10} {}{unproved}",
                m.turn.notation(h),
                text(m.bounds)
            )?;
        }
        self.pie_text(out)?;
        self.verdict_text(out)?;
        self.next_text(next, out)
    }

    /// The pie rule's line.
    fn pie_text(&self, out: &mut dyn Write) -> io::Result<()> {
        let Some(pie) = &self.pie else {
            return Ok(());
        };
        let h = self.tree.rules.houses as usize;
        match pie.best {
            Some((i, swap)) => writeln!(
                out,
                "pie rule   {} for the player to move, best first move {} ({}){}",
                text(pie.bounds),
                self.moves[i].turn.notation(h),
                if swap {
                    "the opponent swaps"
                } else {
                    "no swap"
                },
                self.unproved()
            ),
            None => writeln!(
                out,
                "pie rule   {} for the player to move{}",
                text(pie.bounds),
                self.unproved()
            ),
        }
    }

    /// The units still needed, or what the answers say of the hypothesis.
    fn verdict_text(&self, out: &mut dyn Write) -> io::Result<()> {
        match &self.hypothesis {
            None if !self.exact() => writeln!(
                out,
                "needed     {} units still needed for the exact value",
                self.needed
            ),
            None => Ok(()),
            Some((v, Verdict::Confirmed)) => writeln!(
                out,
                "hypothesis {} confirmed: the value is {}{}",
                signed(*v),
                signed(*v),
                self.unproved()
            ),
            Some((v, Verdict::Refuted(b))) => {
                writeln!(
                    out,
                    "hypothesis {} refuted: the value is {}",
                    signed(*v),
                    text(*b)
                )?;
                match self.next_hypothesis {
                    Some(w) => writeln!(out, "           the nearest value left is {}", signed(w)),
                    None => Ok(()),
                }
            }
            Some((v, Verdict::Pending(units))) => writeln!(
                out,
                "hypothesis {} not decided yet: {} windows to solve",
                signed(*v),
                units.len()
            ),
        }
    }

    /// The units left unverified, and where the next units were written.
    fn next_text(&self, next: Option<&Path>, out: &mut dyn Write) -> io::Result<()> {
        if !self.unverified.is_empty() {
            let ids: Vec<String> = self.unverified.iter().map(|u| u.to_string()).collect();
            writeln!(
                out,
                "unverified {} units whose answers are not proved again, which do not count: {}",
                ids.len(),
                ids.join(" ")
            )?;
        }
        let Some(path) = next else {
            return Ok(());
        };
        let what = match (self.hypothesis.as_ref(), self.next_hypothesis) {
            (_, Some(w)) => format!("the windows of the hypothesis {}", signed(w)),
            (Some(_), None) => "the windows to solve".to_string(),
            (None, None) => "the units still needed".to_string(),
        };
        writeln!(
            out,
            "next       {} units written to {} ({what}): solve them with kalah batch",
            self.next.len(),
            path.display()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::distributed::{split, Step};
    use kalah_core::{Game, Rules};

    #[test]
    fn a_merge_without_answers_renders_as_incomplete_in_text_and_json() {
        let game = Game::new(Rules::kalah(3, 2)).unwrap();
        let tree = split(&game, &game.start(), Step::Turn, 1).unwrap();
        let merge = Merge::new(&tree);
        let bounds = merge.bounds();
        let report = Report::new(&merge, &bounds, None);
        let next = Path::new("next.jsonl");
        let json = report.to_json(Some(next));
        assert_eq!(json["status"], "incomplete");
        assert_eq!(json["units"], tree.units.len());
        assert_eq!(json["next"], "next.jsonl");
        assert!(json["lower"].as_i64() < json["upper"].as_i64());
        let mut text = Vec::new();
        report.write_text(Some(next), &mut text).unwrap();
        let text = String::from_utf8(text).unwrap();
        assert!(text.starts_with("rules      "), "{text}");
        assert!(
            text.contains("(bounds: not exact yet, from South)"),
            "{text}"
        );
        assert!(text.contains(&format!(
            "needed     {} units still needed for the exact value",
            report.needed
        )));
        assert!(text.ends_with("solve them with kalah batch\n"), "{text}");
    }

    #[test]
    fn write_gives_the_json_on_one_line_or_the_text() {
        let game = Game::new(Rules::kalah(3, 2)).unwrap();
        let tree = split(&game, &game.start(), Step::Turn, 1).unwrap();
        let merge = Merge::new(&tree);
        let bounds = merge.bounds();
        let report = Report::new(&merge, &bounds, None);
        let (mut json, mut text, mut plain) = (Vec::new(), Vec::new(), Vec::new());
        report.write(true, None, &mut json).unwrap();
        report.write(false, None, &mut text).unwrap();
        report.write_text(None, &mut plain).unwrap();
        assert_eq!(json, format!("{}\n", report.to_json(None)).into_bytes());
        assert_eq!(text, plain);
    }
}
