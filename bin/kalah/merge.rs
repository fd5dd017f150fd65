//! `kalah merge`: the answers of a split solve put together into exact values of the
//! position, of every first move and of the pie rule; or a hypothesis checked.

use std::io::Write;
use std::path::{Path, PathBuf};

use kalah_analysis::decide;
use kalah_analysis::distributed::{Bounds, Claim, FirstMove, Merge, Tree, Unit, Verdict, Window};
use kalah_core::{Position, Side};
use kalah_io::Output;
use serde_json::{json, Value};

use crate::analysis_io::{file_error, line_strings, signed};
use crate::error::CliError;
use crate::pie::offer_name;

/// Merge the answers of a split solve into exact values, or check a hypothesis.
///
/// Reads the manifest written by `kalah split` and any number of answer files written by
/// `kalah batch` for its units, in any order, with duplicates and missing parts (a file
/// that does not exist yet is skipped with a warning). Every answer is checked: its rules
/// and position against the manifest, its principal variation replayed to its value, and
/// against the other answers for the same unit. Then every position of the manifest is
/// bounded by negamax, and the command prints the value of the position with its
/// principal variation, the value of every first move, and the pie rule.
///
/// While answers are missing it says which units the value still needs (the others cannot
/// change it) and exits with status 3; --next FILE writes those units, to be solved next.
///
/// --hypothesis V proves "the value is V" with narrow windows instead: one child of each
/// position needs to reach V, the others only to stay on their side of it, so far fewer
/// nodes are searched than for exact values. Run `kalah merge MANIFEST --hypothesis V
/// --next FILE` (with the answers so far), solve FILE with `kalah batch`, and repeat until
/// the hypothesis is confirmed or refuted (a refuted hypothesis prints the bound proved,
/// and --next then holds the windows for the hypothesis nearest to it).
///
/// Example: `kalah merge k65/manifest.json k65/results/*.jsonl`
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The manifest.json written by kalah split
    #[arg(value_name = "MANIFEST")]
    manifest: PathBuf,

    /// Answer files written by kalah batch for the manifest's units
    #[arg(value_name = "ANSWERS")]
    answers: Vec<PathBuf>,

    /// Prove or refute "the value of the position is V" (from South)
    #[arg(long, value_name = "V", allow_hyphen_values = true)]
    hypothesis: Option<i32>,

    /// Write the work units to solve next to FILE (JSON lines for kalah batch)
    #[arg(long, value_name = "FILE")]
    next: Option<PathBuf>,

    /// Print the result as one JSON object
    #[arg(long)]
    json: bool,

    /// No warnings on standard error
    #[arg(long, short)]
    quiet: bool,
}

/// Runs `kalah merge`.
pub fn run(args: &Args, out: &mut dyn Write) -> Result<(), CliError> {
    let next_out = args.next.as_deref().map(Output::open).transpose()?;
    let text = std::fs::read(&args.manifest).map_err(|e| file_error(&args.manifest, e))?;
    let value: Value = serde_json::from_slice(&text).map_err(|e| {
        CliError::Input(format!(
            "{}: not a manifest written by kalah split: {e}",
            args.manifest.display()
        ))
    })?;
    let tree = Tree::from_json(&value)
        .map_err(|e| CliError::Input(format!("{}: {e}", args.manifest.display())))?;
    let mut merge = Merge::new(&tree);
    let mut warnings = Vec::new();
    for path in &args.answers {
        read_answers(path, &tree, &mut merge, &mut warnings)?;
    }
    if !args.quiet {
        for w in &warnings {
            eprintln!("warning: {w}");
        }
    }
    let bounds = merge.bounds();
    let report = Report::new(&merge, &tree, &bounds, args.hypothesis);
    if let (Some(next), Some(units)) = (&next_out, &report.next) {
        let mut text = String::new();
        for u in units {
            text.push_str(&u.to_json().to_string());
            text.push('\n');
        }
        next.replace(text.as_bytes())?;
    }
    if args.json {
        writeln!(out, "{}", report.json(&tree, args.next.as_deref()))?;
    } else {
        report.text(&tree, args.next.as_deref(), out)?;
    }
    match report.unfinished() {
        Some(msg) => Err(CliError::Incomplete(msg)),
        None => Ok(()),
    }
}

/// Takes every answer of one file. A line that is not JSON is refused, except a last line
/// cut short (an interrupted batch); an answer that is an error, or a file that does not
/// exist, is a warning: the unit stays missing.
fn read_answers(
    path: &Path,
    tree: &Tree,
    merge: &mut Merge<'_>,
    warnings: &mut Vec<String>,
) -> Result<(), CliError> {
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            warnings.push(format!("{}: no such file, skipped", path.display()));
            return Ok(());
        }
        Err(e) => return Err(file_error(path, e)),
    };
    let rules = tree.rules.to_string();
    let name = path.display();
    let game = merge.game().clone();
    let lines: Vec<&[u8]> = bytes.split(|&b| b == b'\n').collect();
    for (i, line) in lines.iter().enumerate() {
        let at = format!("{name} line {}", i + 1);
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let v: Value = match serde_json::from_slice(line) {
            Ok(v) => v,
            // The last line of an interrupted batch may be cut short.
            Err(_) if i + 1 == lines.len() => {
                warnings.push(format!("{at}: an unfinished last line, skipped"));
                continue;
            }
            Err(e) => {
                return Err(CliError::Input(format!(
                    "{at}: not an answer written by kalah batch: {e}"
                )))
            }
        };
        if v["rules"] != json!(rules) {
            return Err(CliError::Input(format!(
                "{at}: the answer is for the rules {}, the manifest has {rules}: is it an \
                 answer to this split?",
                v["rules"].as_str().unwrap_or("(not recorded)")
            )));
        }
        let Some(id) = v.get("id").and_then(Value::as_u64) else {
            return Err(CliError::Input(format!(
                "{at}: not the answer to a work unit (no \"id\"): answer the units.jsonl \
                 that kalah split wrote"
            )));
        };
        if let Some(e) = v.get("error") {
            warnings.push(format!(
                "{at}: unit {id} has no answer: {}",
                e.as_str().unwrap_or("an error")
            ));
            continue;
        }
        let pos: Position = v["position"]
            .as_str()
            .and_then(|p| p.parse().ok())
            .ok_or_else(|| CliError::Input(format!("{at}: no readable \"position\"")))?;
        let claim = Claim::from_answer(&game, &pos, &v)
            .map_err(|e| CliError::Input(format!("{at}: {e}")))?;
        merge
            .add(id, &pos, claim)
            .map_err(|e| CliError::Input(format!("{at}: {e}")))?;
    }
    Ok(())
}

/// What the merge found, ready to print.
struct Report {
    root: Bounds,
    pv: Option<Vec<kalah_solver::Turn>>,
    moves: Vec<FirstMove>,
    /// Bounds of the value with the pie rule for the position's mover, and the best move
    /// with its decision when they are exact.
    pie: Option<(Bounds, Option<usize>)>,
    hypothesis: Option<(i32, Verdict)>,
    /// The units to solve next: those the value needs, or the hypothesis's windows.
    next: Option<Vec<Unit>>,
    /// The hypothesis the next windows are for, when it is not the one given.
    next_hypothesis: Option<i32>,
    needed: usize,
    units: usize,
    exact_units: usize,
    answers: usize,
    side: Side,
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

impl Report {
    fn new(merge: &Merge<'_>, tree: &Tree, bounds: &[Bounds], hypothesis: Option<i32>) -> Report {
        let side = tree.root().side_to_move();
        let moves = merge.first_moves(bounds);
        let for_mover = |(lo, hi): Bounds| match side {
            Side::South => (lo, hi),
            Side::North => (-hi, -lo),
        };
        let pie = (!moves.is_empty()).then(|| {
            let each: Vec<Bounds> = moves
                .iter()
                .map(|m| pie_bounds(for_mover(m.bounds)))
                .collect();
            let lo = each.iter().map(|b| b.0).max().expect("moves");
            let hi = each.iter().map(|b| b.1).max().expect("moves");
            let best = (lo == hi)
                .then(|| each.iter().position(|&b| b == (lo, lo)))
                .flatten();
            ((lo, hi), best)
        });
        let needed = merge.needed(bounds);
        let (hypothesis, next, next_hypothesis) = match hypothesis {
            None => {
                let full = Window::full(&tree.rules);
                let units = needed.iter().map(|&u| tree.unit(u, full)).collect();
                (None, Some(units), None)
            }
            Some(v) => {
                let verdict = merge.hypothesis(bounds, v);
                let (next, nh) = match &verdict {
                    Verdict::Pending(units) => (Some(units.clone()), None),
                    Verdict::Confirmed => (Some(Vec::new()), None),
                    Verdict::Refuted((lo, hi)) => {
                        // The nearest value the bounds still allow.
                        let w = if *hi < v { *hi } else { *lo };
                        match merge.hypothesis(bounds, w) {
                            Verdict::Pending(units) => (Some(units), Some(w)),
                            _ => (Some(Vec::new()), Some(w)),
                        }
                    }
                };
                (Some((v, verdict)), next, nh)
            }
        };
        Report {
            root: bounds[0],
            pv: merge.principal_variation(bounds),
            moves,
            pie,
            hypothesis,
            next,
            next_hypothesis,
            needed: needed.len(),
            units: tree.units.len(),
            exact_units: merge.exact_units(),
            answers: merge.answers(),
            side,
        }
    }

    /// `None` when the run is conclusive (the value exact, or the hypothesis decided),
    /// else what is missing.
    fn unfinished(&self) -> Option<String> {
        match &self.hypothesis {
            None if self.root.0 == self.root.1 => None,
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

    fn status(&self) -> &'static str {
        match &self.hypothesis {
            None if self.root.0 == self.root.1 => "exact",
            None => "incomplete",
            Some((_, Verdict::Confirmed)) => "confirmed",
            Some((_, Verdict::Refuted(_))) => "refuted",
            Some((_, Verdict::Pending(_))) => "pending",
        }
    }

    fn json(&self, tree: &Tree, next: Option<&Path>) -> Value {
        let h = tree.rules.houses as usize;
        let bounds_json = |(lo, hi): Bounds| {
            if lo == hi {
                json!({"value": lo})
            } else {
                json!({"lower": lo, "upper": hi})
            }
        };
        let mut obj = json!({
            "rules": tree.rules.to_string(),
            "position": tree.root().to_string(),
            "step": tree.step.name(),
            "depth": tree.depth,
            "status": self.status(),
            "units": self.units,
            "answers": self.answers,
            "exact_units": self.exact_units,
            "needed": self.needed,
        });
        let root = bounds_json(self.root);
        for (k, v) in root.as_object().expect("an object") {
            obj[k] = v.clone();
        }
        obj["pv"] = json!(self.pv.as_ref().map(|l| line_strings(h, l)));
        obj["moves"] = self
            .moves
            .iter()
            .map(|m| {
                let mut o = bounds_json(m.bounds);
                o["turn"] = json!(m.turn.notation(h));
                o["pv"] = json!(m.pv.as_ref().map(|l| line_strings(h, l)));
                o
            })
            .collect();
        if let Some(((lo, hi), best)) = self.pie {
            let mut o = bounds_json((lo, hi));
            o["offer"] = json!(offer_name(tree.step.offer()));
            if let Some(b) = best {
                let m = &self.moves[b];
                let d = decide(self.side.sign() * m.bounds.0);
                o["best_turn"] = json!(m.turn.notation(h));
                o["swap"] = json!(d.swap);
            }
            obj["pie"] = o;
        }
        if let Some((v, verdict)) = &self.hypothesis {
            obj["hypothesis"] = json!(v);
            if let Verdict::Pending(units) = verdict {
                obj["windows"] = json!(units.len());
            }
        }
        if let Some(w) = self.next_hypothesis {
            obj["next_hypothesis"] = json!(w);
        }
        if let (Some(path), Some(units)) = (next, &self.next) {
            obj["next"] = json!(path.display().to_string());
            obj["next_units"] = json!(units.len());
        }
        obj
    }

    fn text(&self, tree: &Tree, next: Option<&Path>, out: &mut dyn Write) -> Result<(), CliError> {
        let h = tree.rules.houses as usize;
        let show = |(lo, hi): Bounds| {
            if lo == hi {
                signed(lo)
            } else {
                format!("{} .. {}", signed(lo), signed(hi))
            }
        };
        writeln!(out, "rules      {}", tree.rules)?;
        writeln!(out, "position   {}", tree.root())?;
        writeln!(
            out,
            "answers    {} answers, {} of the {} units exact",
            self.answers, self.exact_units, self.units
        )?;
        let what = if self.root.0 == self.root.1 {
            "exact"
        } else {
            "bounds: not exact yet"
        };
        writeln!(out, "value      {} ({what}, from South)", show(self.root))?;
        if let Some(pv) = &self.pv {
            writeln!(out, "pv         {}", line_strings(h, pv).join(" "))?;
        } else if self.root.0 == self.root.1 {
            writeln!(
                out,
                "pv         none: a unit on the line was answered with bounds only"
            )?;
        }
        writeln!(out, "moves      (value from South after each first move)")?;
        for m in &self.moves {
            writeln!(out, "  {:<10} {}", m.turn.notation(h), show(m.bounds))?;
        }
        if let Some((b, best)) = self.pie {
            match best {
                Some(i) => {
                    let m = &self.moves[i];
                    let d = decide(self.side.sign() * m.bounds.0);
                    writeln!(
                        out,
                        "pie rule   {} for the player to move, best first move {} ({})",
                        show(b),
                        m.turn.notation(h),
                        if d.swap {
                            "the opponent swaps"
                        } else {
                            "no swap"
                        }
                    )?;
                }
                None => writeln!(out, "pie rule   {} for the player to move", show(b))?,
            }
        }
        match &self.hypothesis {
            None if self.root.0 != self.root.1 => {
                writeln!(
                    out,
                    "needed     {} units still needed for the exact value",
                    self.needed
                )?;
            }
            None => {}
            Some((v, Verdict::Confirmed)) => writeln!(
                out,
                "hypothesis {} confirmed: the value is {}",
                signed(*v),
                signed(*v)
            )?,
            Some((v, Verdict::Refuted(b))) => {
                writeln!(
                    out,
                    "hypothesis {} refuted: the value is {}",
                    signed(*v),
                    show(*b)
                )?;
                if let Some(w) = self.next_hypothesis {
                    writeln!(out, "           the nearest value left is {}", signed(w))?;
                }
            }
            Some((v, Verdict::Pending(units))) => writeln!(
                out,
                "hypothesis {} not decided yet: {} windows to solve",
                signed(*v),
                units.len()
            )?,
        }
        if let (Some(path), Some(units)) = (next, &self.next) {
            let what = match (self.hypothesis.as_ref(), self.next_hypothesis) {
                (_, Some(w)) => format!("the windows of the hypothesis {}", signed(w)),
                (Some(_), None) => "the windows to solve".to_string(),
                (None, None) => "the units still needed".to_string(),
            };
            writeln!(
                out,
                "next       {} units written to {} ({what}): solve them with kalah batch",
                units.len(),
                path.display()
            )?;
        }
        Ok(())
    }
}
