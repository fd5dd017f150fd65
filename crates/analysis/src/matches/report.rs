//! The result of `kalah match`, as text or one JSON object (docs/outputs.md): the rules,
//! the players, the score with its 95% interval and Elo difference, for both kinds of
//! game; and, for the sowing games, what the exact values proved (`exact_values`) and
//! each player's accuracy by them (`accuracy`).

use std::fmt::Write as _;

use serde_json::{json, Map, Value};

use crate::matches::score::elo;
use crate::matches::{ClockStats, ExactSummary, Match, MatchOutcome, MatchPlan, Score};

/// A match's result, ready to write.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchReport {
    /// The rules as text.
    pub rules: String,
    /// Player 1's and player 2's names.
    pub names: [String; 2],
    /// Player 1's score.
    pub score: Score,
    /// Random turns from the start in each opening.
    pub opening_turns: usize,
    /// The openings' seed.
    pub seed: u64,
    /// What the exact values say (the sowing games' matches only).
    pub exact: Option<ExactSummary>,
    /// Where the openings came from, where not random turns (`--openings`).
    pub openings: Option<String>,
    /// What the clocks saw, where the match was played on time.
    pub clock: Option<ClockStats>,
}

impl MatchReport {
    /// The report of `outcome`, the match `m` played to `plan`.
    pub fn new(m: &Match, plan: &MatchPlan, outcome: &MatchOutcome) -> MatchReport {
        MatchReport {
            rules: m.rules_text(),
            names: m.names(),
            score: outcome.score.clone(),
            opening_turns: plan.opening_turns,
            seed: plan.seed,
            exact: m.exact_summary(plan, outcome),
            openings: None,
            clock: outcome.clock.clone(),
        }
    }

    /// The same report, its openings taken from `from` (in words: `the balanced openings
    /// of FILE`).
    pub fn with_openings(self, from: Option<String>) -> MatchReport {
        MatchReport {
            openings: from,
            ..self
        }
    }

    /// The report as one JSON object.
    pub fn json(&self) -> Value {
        let s = &self.score;
        let mut v = json!({
            "rules": self.rules,
            "players": self.names,
            "games": s.played(),
            "wins": s.wins,
            "draws": s.draws,
            "losses": s.losses,
            "points": s.points(),
            "score": s.mean(),
            "interval95": s.half_width95(),
            "interval_from": interval_from(s),
            "elo": s.elo(),
        });
        if let (Some(e), Some(map)) = (&self.exact, v.as_object_mut()) {
            map.extend(exact_json(e));
        }
        if let (Some(c), Some(map)) = (&self.clock, v.as_object_mut()) {
            map.insert("clock".into(), clock_json(c));
        }
        if let (Some(o), Some(map)) = (&self.openings, v.as_object_mut()) {
            map.insert("openings".into(), json!(o));
        }
        v
    }

    /// The report as text, each line ending with a newline.
    pub fn text(&self) -> String {
        let s = &self.score;
        let mut t = format!(
            "match: {}\nplayer 1: {}\nplayer 2: {}\n",
            self.rules, self.names[0], self.names[1]
        );
        let _ = match &self.openings {
            None => writeln!(
                t,
                "games: {} ({} openings of {} random turns, seed {}, each with both colours)",
                s.played(),
                s.played().div_ceil(2),
                self.opening_turns,
                self.seed
            ),
            Some(from) => writeln!(
                t,
                "games: {} ({} openings from {from}, each with both colours)",
                s.played(),
                s.played().div_ceil(2),
            ),
        };
        let _ = writeln!(
            t,
            "player 1: {} wins, {} draws, {} losses: {} of {} points = {} (95% interval from \
             the {})",
            s.wins,
            s.draws,
            s.losses,
            s.points(),
            s.played(),
            percent(s),
            interval_from(s)
        );
        let bound = |e: Option<f64>, inf: &str| e.map_or(inf.to_string(), |e| format!("{e:+.0}"));
        if let Some(hw) = s.half_width95() {
            let lo = elo((s.mean() - hw).max(0.0));
            let hi = elo((s.mean() + hw).min(1.0));
            let _ = writeln!(
                t,
                "Elo difference: {} (95%: {} to {})",
                bound(s.elo(), "unbounded"),
                bound(lo, "-inf"),
                bound(hi, "+inf")
            );
        }
        if let Some(e) = self.exact.filter(|e| e.positions > 0) {
            let _ = writeln!(
                t,
                "exact values: {} of the {} positions played proved within {} nodes",
                e.known, e.positions, e.nodes
            );
            for (k, a) in e.accuracy.iter().enumerate() {
                let _ = writeln!(
                    t,
                    "player {}: {} of {} turns judged by exact values lost value, {} seeds in \
                     all",
                    k + 1,
                    a.mistakes,
                    a.judged,
                    a.seeds_lost
                );
            }
        }
        if let Some(c) = &self.clock {
            t.push_str(&clock_text(c));
        }
        t
    }
}

/// The clocks' lines: each clocked player's losses on time, its mean and longest move and
/// its largest overrun of the hard limit this engine's time manager sets.
fn clock_text(c: &ClockStats) -> String {
    let mut t = String::new();
    for p in 0..2 {
        if c.moves[p] == 0 {
            continue;
        }
        let mean = c.used[p].as_secs_f64() * 1e3 / c.moves[p] as f64;
        let _ = writeln!(
            t,
            "player {} on the clock: {} losses on time; {} moves, {:.1} ms a move on average, the \
             longest {:.1} ms; largest overrun of the hard limit {}",
            p + 1,
            c.losses_on_time[p],
            c.moves[p],
            mean,
            c.longest[p].as_secs_f64() * 1e3,
            c.overrun_ms[p].map_or("none measured".into(), |o| format!("{o:+.1} ms")),
        );
    }
    t
}

/// The clocks' field: per player, losses on time, moves timed, milliseconds used in all,
/// the longest move and the largest overrun of the hard limit (ms; null where none).
fn clock_json(c: &ClockStats) -> Value {
    let players: Vec<Value> = (0..2)
        .map(|p| {
            json!({
                "losses_on_time": c.losses_on_time[p],
                "moves": c.moves[p],
                "used_ms": c.used[p].as_secs_f64() * 1e3,
                "longest_ms": c.longest[p].as_secs_f64() * 1e3,
                "overrun_ms": c.overrun_ms[p],
            })
        })
        .collect();
    Value::Array(players)
}

/// What the 95% interval comes from: the pairs' points once two pairs are finished,
/// else the games'.
fn interval_from(s: &Score) -> &'static str {
    match s.pairs.len() >= 2 {
        true => "pairs",
        false => "games",
    }
}

/// The fields of the exact values: `exact_values` (known of positions) and `accuracy`
/// (each player's judged turns, mistakes and seeds lost).
fn exact_json(e: &ExactSummary) -> Map<String, Value> {
    let accuracy: Vec<Value> = e
        .accuracy
        .iter()
        .map(|a| {
            json!({
                "judged": a.judged,
                "mistakes": a.mistakes,
                "seeds_lost": a.seeds_lost,
            })
        })
        .collect();
    Map::from_iter([
        (
            "exact_values".to_string(),
            json!({"known": e.known, "positions": e.positions}),
        ),
        ("accuracy".to_string(), Value::Array(accuracy)),
    ])
}

/// A score as a percentage with its 95% interval: `55.0% ± 6.1%` (`55.0%` without one).
pub fn percent(score: &Score) -> String {
    match score.half_width95() {
        Some(hw) => format!("{:.1}% ± {:.1}%", 100.0 * score.mean(), 100.0 * hw),
        None => format!("{:.1}%", 100.0 * score.mean()),
    }
}

/// The progress display's words after a game: player 1's score so far
/// (`player 1 55.0% ± 6.1%`).
pub fn progress_words(score: &Score) -> String {
    format!("player 1 {}", percent(score))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matches::Accuracy;

    fn report(exact: Option<ExactSummary>) -> MatchReport {
        let mut score = Score::default();
        for (a, b) in [(1.0, 0.5), (1.0, 0.0)] {
            score.add_game(a);
            score.add_game(b);
            score.add_pair(a + b);
        }
        MatchReport {
            rules: "Kalah(3,2)".to_string(),
            names: ["one".to_string(), "two".to_string()],
            score,
            opening_turns: 2,
            seed: 1,
            exact,
            openings: None,
            clock: None,
        }
    }

    #[test]
    fn the_progress_says_player_one_score() {
        let mut score = Score::default();
        score.add_game(1.0);
        assert_eq!(progress_words(&score), "player 1 100.0%");
    }

    #[test]
    fn the_exact_values_are_reported_only_where_the_match_has_them() {
        let bao = report(None);
        assert!(bao.text().starts_with(
            "match: Kalah(3,2)\nplayer 1: one\nplayer 2: two\ngames: 4 (2 openings of 2 \
             random turns, seed 1, each with both colours)\nplayer 1: 2 wins, 1 draws, 1 \
             losses: 2.5 of 4 points = 62.5% ± "
        ));
        assert!(!bao.text().contains("exact values"));
        let json = bao.json();
        assert_eq!(json["points"], 2.5);
        assert_eq!(json["interval_from"], "pairs");
        assert!(json.get("accuracy").is_none());
        let acc = Accuracy {
            judged: 3,
            mistakes: 1,
            seeds_lost: 2,
        };
        let exact = ExactSummary {
            known: 5,
            positions: 6,
            nodes: 100,
            accuracy: [acc, Accuracy::default()],
        };
        let sowing = report(Some(exact));
        assert!(sowing.text().ends_with(
            "exact values: 5 of the 6 positions played proved within 100 nodes\nplayer 1: 1 \
             of 3 turns judged by exact values lost value, 2 seeds in all\nplayer 2: 0 of 0 \
             turns judged by exact values lost value, 0 seeds in all\n"
        ));
        let json = sowing.json();
        assert_eq!(json["exact_values"]["known"], 5);
        assert_eq!(json["accuracy"][0]["seeds_lost"], 2);
        // No positions played: the fields stay, the lines go.
        let none = report(Some(ExactSummary::default()));
        assert!(!none.text().contains("exact values"));
        assert_eq!(none.json()["exact_values"]["positions"], 0);
        assert!(none.json().get("clock").is_none() && !none.text().contains("clock"));
    }

    #[test]
    fn clocks_and_fixed_openings_are_reported_where_the_match_had_them() {
        let mut clock = ClockStats::default();
        clock.losses_on_time[1] = 1;
        clock.moves = [4, 0];
        clock.used[0] = std::time::Duration::from_millis(100);
        clock.longest[0] = std::time::Duration::from_millis(40);
        clock.overrun_ms[0] = Some(-2.5);
        let r = MatchReport {
            clock: Some(clock),
            ..report(None)
        }
        .with_openings(Some("the book".into()));
        let text = r.text();
        assert!(text.contains("games: 4 (2 openings from the book, each with both colours)"));
        assert!(
            text.ends_with(
                "player 1 on the clock: 0 losses on time; 4 moves, 25.0 ms a move on average, the \
             longest 40.0 ms; largest overrun of the hard limit -2.5 ms\n"
            ),
            "{text}"
        );
        let json = r.json();
        assert_eq!(json["clock"][1]["losses_on_time"], 1);
        assert_eq!(json["openings"], "the book");
    }
}
