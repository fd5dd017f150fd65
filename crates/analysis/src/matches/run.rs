//! A match of either kind of game, its players and its game held together ([`Match`]),
//! so that a front end plays it and reports it in one flow: the sowing games' games
//! with their exact values ([`super::run_match`]), Bao's without
//! ([`super::bao::run_match`]).

use std::sync::atomic::AtomicBool;

use kalah_core::bao::BaoRules;
use kalah_core::Game;
use kalah_solver::Solver;

use super::bao::BaoOpening;
use super::{
    accuracy, Accuracy, Bao, GameRecord, MatchOutcome, MatchPlan, MatchSetting, Opening, Player,
    Score, Sowing,
};

/// A match ready to play: the game of one kind and its two players (player 1 first).
/// One value a match, made once: the sowing game's tables are not worth a box.
#[allow(clippy::large_enum_variant)]
pub enum Match {
    /// A sowing game, and the solver of the exact values of its positions if they are
    /// asked for.
    Sowing {
        /// The game.
        game: Game,
        /// Player 1 and player 2.
        players: [Box<dyn Player<Sowing>>; 2],
        /// The solver of the exact values (none: no values).
        exact: Option<Solver>,
        /// The clocks and the fixed openings.
        setting: MatchSetting<Opening>,
    },
    /// Bao: no exact values are known of its full boards.
    Bao {
        /// The board.
        rules: BaoRules,
        /// Player 1 and player 2.
        players: [Box<dyn Player<Bao>>; 2],
        /// The clocks and the fixed openings.
        setting: MatchSetting<BaoOpening>,
    },
}

impl Match {
    /// The rules as the report and the games file name them.
    pub fn rules_text(&self) -> String {
        match self {
            Match::Sowing { game, .. } => game.rules().to_string(),
            Match::Bao { rules, .. } => rules.to_string(),
        }
    }

    /// The players' names, player 1 first.
    pub fn names(&self) -> [String; 2] {
        match self {
            Match::Sowing { players, .. } => players.each_ref().map(|p| p.name().to_string()),
            Match::Bao { players, .. } => players.each_ref().map(|p| p.name().to_string()),
        }
    }

    /// Plays the match `plan` ([`super::run_match`]): `on_game` sees each game as it
    /// ends, raising `stop` ends the match after the game in progress, and a player's
    /// failure ends it too.
    pub fn play(
        &mut self,
        plan: &MatchPlan,
        stop: &AtomicBool,
        on_game: &mut dyn FnMut(&GameRecord, &Score),
    ) -> MatchOutcome {
        match self {
            Match::Sowing {
                game,
                players: [a, b],
                exact,
                setting,
            } => super::run_match(
                game,
                plan,
                setting,
                &mut [a.as_mut(), b.as_mut()],
                exact.as_ref(),
                stop,
                on_game,
            ),
            Match::Bao {
                rules,
                players: [a, b],
                setting,
            } => super::bao::run_match(
                rules,
                plan,
                setting,
                &mut [a.as_mut(), b.as_mut()],
                stop,
                on_game,
            ),
        }
    }

    /// Plays from the boards `boards` (each as the protocol's `position` takes it, the
    /// sowing games' `4,4,4,0,4,4,4,0:S`, Bao's rows) instead of random openings, each
    /// twice with the colours swapped; a board of other rules, or one whose game is over,
    /// is refused with its number (from 1) and why.
    pub fn set_openings(&mut self, boards: &[String]) -> Result<(), String> {
        let at = |k: usize, why: String| format!("opening {}: {why}", k + 1);
        match self {
            Match::Sowing { game, setting, .. } => {
                let spec = crate::protocol::RulesSpec::Exact(*game.rules());
                let mut found = Vec::new();
                for (k, b) in boards.iter().enumerate() {
                    let (_, pos) = crate::protocol::session::setup_position(&spec, Some(b), &[])
                        .map_err(|e| at(k, e.to_string()))?;
                    if pos.is_over() {
                        return Err(at(k, format!("the game is over at {b}")));
                    }
                    found.push(Opening::at(pos));
                }
                setting.openings = found;
            }
            Match::Bao { rules, setting, .. } => {
                let mut found = Vec::new();
                for (k, b) in boards.iter().enumerate() {
                    let pos = crate::protocol::session::bao::setup_position(rules, Some(b), &[])
                        .map_err(|e| at(k, e.to_string()))?;
                    if crate::game::setup::bao::is_over(&pos) {
                        return Err(at(k, format!("the game is over at {b}")));
                    }
                    found.push(BaoOpening::at(pos));
                }
                setting.openings = found;
            }
        }
        Ok(())
    }

    /// The fixed openings the match plays from ([`Match::set_openings`]; 0: random ones).
    pub fn fixed_openings(&self) -> usize {
        match self {
            Match::Sowing { setting, .. } => setting.openings.len(),
            Match::Bao { setting, .. } => setting.openings.len(),
        }
    }

    /// What the exact values of `outcome`'s games say (a sowing game's match, whose
    /// values `plan` asked for or not); `None` for Bao's.
    pub fn exact_summary(&self, plan: &MatchPlan, outcome: &MatchOutcome) -> Option<ExactSummary> {
        match self {
            Match::Sowing { game, .. } => {
                Some(ExactSummary::of(game, &outcome.games, plan.exact_nodes))
            }
            Match::Bao { .. } => None,
        }
    }
}

/// What the exact values of a match's games say: how many positions they proved, and
/// each player's accuracy by them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ExactSummary {
    /// Positions with an exact value.
    pub known: usize,
    /// Positions played (those of the games that have values).
    pub positions: usize,
    /// The node budget each position had.
    pub nodes: u64,
    /// Player 1's and player 2's accuracy ([`accuracy`]), over every game.
    pub accuracy: [Accuracy; 2],
}

impl ExactSummary {
    /// The summary of `games` of `game`, their values proved within `nodes` nodes.
    pub fn of(game: &Game, games: &[GameRecord], nodes: u64) -> ExactSummary {
        let mut s = ExactSummary {
            nodes,
            ..ExactSummary::default()
        };
        for g in games {
            s.known += g.values.iter().filter(|v| v.is_some()).count();
            s.positions += g.values.len();
            for (total, a) in s.accuracy.iter_mut().zip(accuracy(game, g)) {
                total.add(&a);
            }
        }
        s
    }
}
