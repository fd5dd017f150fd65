//! `kalah perft` of either kind of game, as one run: the counts of the position at each
//! depth (sowings for the sowing games, whole moves for Bao), split by first move at the
//! last depth, with the text shown as each depth is counted and one report at the end
//! ([`Perft`]: its JSON and its closing text).

use std::time::Instant;

use kalah_core::bao::{self, BaoPosition, BaoRules};
use kalah_core::notation::{bin, format_move};
use kalah_core::{perft_depths, Game, PerftDepths, Position, CLOCKWISE};
use serde_json::{json, Value};

/// The deepest count of Bao's perft (whole moves).
pub const BAO_MAX_DEPTH: u32 = 30;

/// The position to count from, of either kind of game.
pub enum Start<'a> {
    /// A sowing game and its position: sequences of sowings.
    Sowing(&'a Game, &'a Position),
    /// Bao and its position: sequences of whole moves (BAO.md R8.3).
    Bao(&'a BaoRules, &'a BaoPosition),
}

/// What a run hands its caller as it goes.
pub enum PerftStep<'a> {
    /// A line of text to show now (text output only).
    Line(&'a str),
    /// The last depth is counted move by move: this many first moves.
    Splitting(u64),
    /// One more first move of the last depth counted.
    Split,
}

/// Why a perft was not run.
#[derive(Debug, PartialEq, Eq)]
pub enum PerftError {
    /// Bao's perft counts at most [`BAO_MAX_DEPTH`] moves.
    TooDeep {
        /// The depth asked for.
        depth: u32,
    },
}

impl std::fmt::Display for PerftError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PerftError::TooDeep { depth } => write!(
                f,
                "--depth {depth} is deeper than Bao's perft counts: 1 to {BAO_MAX_DEPTH} moves"
            ),
        }
    }
}

impl std::error::Error for PerftError {}

/// The counts of a perft (docs/outputs.md): `counts[d - 1]` at depth `d`, the split by
/// first move at the last depth (its name in text, its JSON object), the nodes visited
/// (sowing games) and the time taken.
pub struct Perft {
    rules: String,
    position: String,
    counts: Vec<u64>,
    nodes: Option<u64>,
    split: Vec<(String, Value)>,
    seconds: f64,
}

/// Counts `start` to `depth` (at least 1), split by first move where `divide`. With
/// `text`, each depth's line goes to `step` as soon as it is counted (the sowing games:
/// one traversal a depth, the rules and position first; the last depth comes with the
/// closing text, [`Perft::closing_lines`]); without, every depth is counted at once.
pub fn run(
    start: &Start,
    depth: u32,
    divide: bool,
    text: bool,
    step: &mut dyn FnMut(PerftStep),
) -> Result<Perft, PerftError> {
    match start {
        Start::Sowing(game, pos) => Ok(sowing(game, pos, depth as usize, divide, text, step)),
        Start::Bao(rules, pos) => bao_run(rules, pos, depth, divide, text, step),
    }
}

fn sowing(
    game: &Game,
    pos: &Position,
    depth: usize,
    divide: bool,
    text: bool,
    step: &mut dyn FnMut(PerftStep),
) -> Perft {
    let timer = Instant::now();
    if text {
        step(PerftStep::Line(&format!("rules:    {}", game.rules())));
        step(PerftStep::Line(&format!("position: {pos}")));
        for d in 1..depth {
            let counts = perft_depths(game, pos, d, |_| {}).counts;
            step(PerftStep::Line(&format!("perft({d}) = {}", counts[d - 1])));
        }
    }
    step(PerftStep::Splitting(game.legal_moves(pos).len() as u64));
    let counted = perft_depths(game, pos, depth, |_| step(PerftStep::Split));
    let seconds = timer.elapsed().as_secs_f64();
    let nodes = counted.nodes();
    let PerftDepths {
        counts,
        divide: per_move,
    } = counted;
    let (houses, side) = (game.houses(), pos.side_to_move());
    let split = match divide {
        false => Vec::new(),
        true => per_move
            .iter()
            .map(|&(j, n)| {
                let b = bin(houses, side, j % CLOCKWISE);
                let v = match j >= CLOCKWISE {
                    true => json!({ "bin": b, "clockwise": true, "count": n }),
                    false => json!({ "bin": b, "count": n }),
                };
                (format!("{:>3}: {n}", format_move(houses, side, j)), v)
            })
            .collect(),
    };
    Perft {
        rules: game.rules().to_string(),
        position: pos.to_string(),
        counts,
        nodes: Some(nodes),
        split,
        seconds,
    }
}

fn bao_run(
    rules: &BaoRules,
    pos: &BaoPosition,
    depth: u32,
    divide: bool,
    text: bool,
    step: &mut dyn FnMut(PerftStep),
) -> Result<Perft, PerftError> {
    if depth > BAO_MAX_DEPTH {
        return Err(PerftError::TooDeep { depth });
    }
    let timer = Instant::now();
    let mut counts = Vec::new();
    for d in 1..=depth {
        counts.push(bao::perft(pos, d));
        if text {
            step(PerftStep::Line(&format!(
                "perft({d}) = {}",
                counts[d as usize - 1]
            )));
        }
    }
    let split = match divide {
        false => Vec::new(),
        true => bao::divide(pos, depth)
            .iter()
            .map(|(m, n)| {
                let name = m.to_string();
                (
                    format!("{name:>4}: {n}"),
                    json!({ "move": name, "count": n }),
                )
            })
            .collect(),
    };
    Ok(Perft {
        rules: rules.to_string(),
        position: pos.to_string(),
        counts,
        nodes: None,
        split,
        seconds: timer.elapsed().as_secs_f64(),
    })
}

impl Perft {
    /// The counts, `counts()[d - 1]` at depth `d`.
    pub fn counts(&self) -> &[u64] {
        &self.counts
    }

    /// The report of `kalah perft --json`: `rules`, `position`, `counts`, `nodes` (the
    /// sowing games), `seconds`, and with `divide` the split by first move.
    pub fn json(&self, divide: bool) -> Value {
        let mut report = json!({
            "rules": self.rules,
            "position": self.position,
            "counts": self.counts,
        });
        if let Some(nodes) = self.nodes {
            report["nodes"] = json!(nodes);
        }
        report["seconds"] = json!(self.seconds);
        if divide {
            report["divide"] = self.split.iter().map(|(_, v)| v.clone()).collect();
        }
        report
    }

    /// The text after the counts shown as they came: the last depth's count (the sowing
    /// games), the split by first move where asked, then the time (and the rate).
    pub fn closing_lines(&self, divide: bool) -> Vec<String> {
        let depth = self.counts.len();
        let mut lines = Vec::new();
        if self.nodes.is_some() {
            lines.push(format!("perft({depth}) = {}", self.counts[depth - 1]));
        }
        if divide {
            lines.push(format!("divide at depth {depth}:"));
            lines.extend(self.split.iter().map(|(t, _)| format!("  {t}")));
        }
        let seconds = self.seconds;
        lines.push(match self.nodes {
            Some(nodes) => format!(
                "{nodes} nodes in {seconds:.3} s ({:.1} Mnodes/s)",
                nodes as f64 / seconds.max(1e-9) / 1e6
            ),
            None => format!("{seconds:.3} s"),
        });
        lines
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kalah_core::Rules;

    fn lines_of(start: &Start, depth: u32, divide: bool) -> (Vec<String>, Perft) {
        let mut shown = Vec::new();
        let p = run(start, depth, divide, true, &mut |s| {
            if let PerftStep::Line(l) = s {
                shown.push(l.to_string())
            }
        })
        .unwrap();
        (shown, p)
    }

    #[test]
    fn a_sowing_perft_shows_each_depth_and_splits_the_last() {
        let game = Game::new(Rules::kalah(6, 4)).unwrap();
        let pos = game.start();
        let (shown, p) = lines_of(&Start::Sowing(&game, &pos), 3, true);
        assert_eq!(shown.len(), 2 + 2);
        assert!(shown[2].starts_with("perft(1) = "));
        let split: u64 = p.json(true)["divide"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v["count"].as_u64().unwrap())
            .sum();
        assert_eq!(split, p.counts()[2]);
        let closing = p.closing_lines(true);
        assert_eq!(closing[0], format!("perft(3) = {}", p.counts()[2]));
        assert!(closing.last().unwrap().ends_with("Mnodes/s)"));
        assert!(p.json(false)["nodes"].is_u64());
    }

    #[test]
    fn a_bao_perft_counts_whole_moves_to_thirty_at_most() {
        let rules = BaoRules::new(4, 2).unwrap();
        let pos = rules.start();
        let (shown, p) = lines_of(&Start::Bao(&rules, &pos), 2, true);
        let each: Vec<String> = (1..=2)
            .map(|d| format!("perft({d}) = {}", p.counts()[d - 1]))
            .collect();
        assert_eq!(shown, each);
        assert_eq!(p.counts()[0], pos.legal_count() as u64);
        assert!(p.json(true)["divide"][0]["move"].is_string());
        assert!(p.json(true).get("nodes").is_none());
        assert_eq!(p.closing_lines(false).len(), 1);
        let too_deep = run(&Start::Bao(&rules, &pos), 31, false, false, &mut |_| {});
        assert_eq!(too_deep.err(), Some(PerftError::TooDeep { depth: 31 }));
    }
}
