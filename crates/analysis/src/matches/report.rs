//! The result of `kalah match`, as text or one JSON object (docs/outputs.md): the rules,
//! the players, the score with its 95% interval and Elo difference, for both kinds of
//! game; and, for the sowing games, what the exact values proved (`exact_values`) and
//! each player's accuracy by them (`accuracy`).

use std::fmt::Write as _;

use serde_json::{json, Map, Value};

use crate::matches::score::elo;
use crate::matches::{ExactSummary, Match, MatchOutcome, MatchPlan, Score};

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
        v
    }

    /// The report as text, each line ending with a newline.
    pub fn text(&self) -> String {
        let s = &self.score;
        let mut t = format!(
            "match: {}\nplayer 1: {}\nplayer 2: {}\n",
            self.rules, self.names[0], self.names[1]
        );
        let _ = writeln!(
            t,
            "games: {} ({} openings of {} random turns, seed {}, each with both colours)",
            s.played(),
            s.played().div_ceil(2),
            self.opening_turns,
            self.seed
        );
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
        t
    }
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
    }
}
