//! A match of either kind of game, its players and its game held together ([`Match`]),
//! so that a front end plays it and reports it in one flow: the sowing games' games
//! with their exact values ([`super::valued_game`]), Bao's without
//! ([`super::bao::play_game`]), on one table or on several at once
//! ([`Match::play_together`]).

use std::sync::atomic::AtomicBool;

use kalah_core::bao::BaoRules;
use kalah_core::{Game, Rules};
use kalah_solver::Solver;

use super::bao::BaoOpening;
use super::{
    accuracy, openings, Accuracy, Bao, ClockStats, Failure, GameRecord, MatchOutcome, MatchPlan,
    MatchSetting, Opening, Player, Round, Score, Sowing,
};

/// A match ready to play: the game of one kind and its two players (player 1 first),
/// behind one face (the private trait `Played`), so that a front end never asks which kind it holds.
pub struct Match(Box<dyn Played>);

/// What a match of one kind of game does; [`Match`] holds one.
trait Played: Send {
    fn rules_text(&self) -> String;
    fn names(&self) -> [String; 2];
    /// Sets up the openings and the clocks of `plan`'s games: the number of pairs.
    fn begin(&mut self, plan: &MatchPlan) -> usize;
    /// Plays the game of opening `k` with player 1 as South (`south` 0) or North (1).
    fn play_one(&mut self, plan: &MatchPlan, k: usize, south: usize)
        -> Result<GameRecord, Failure>;
    /// What the clocks saw since [`Played::begin`], where a player plays on one.
    fn clock_stats(&self) -> Option<ClockStats>;
    fn set_openings(&mut self, boards: &[String]) -> Result<(), String>;
    fn fixed_openings(&self) -> usize;
    fn exact_summary(&self, plan: &MatchPlan, outcome: &MatchOutcome) -> Option<ExactSummary>;
    fn sowing_rules(&self) -> Option<Rules>;
    fn has_exact(&self) -> bool;
}

/// A sowing game's match, and the solver of the exact values of its positions if they
/// are asked for.
pub(super) struct SowingMatch {
    /// The game.
    pub(super) game: Game,
    /// Player 1 and player 2.
    pub(super) players: [Box<dyn Player<Sowing>>; 2],
    /// The solver of the exact values (none: no values).
    pub(super) exact: Option<Solver>,
    /// The clocks and the fixed openings.
    pub(super) setting: MatchSetting<Opening>,
    /// The openings and the clocks of the match being played.
    pub(super) round: Round<Opening>,
}

/// Bao's match: no exact values are known of its full boards.
pub(super) struct BaoMatch {
    /// The board.
    pub(super) rules: BaoRules,
    /// Player 1 and player 2.
    pub(super) players: [Box<dyn Player<Bao>>; 2],
    /// The clocks and the fixed openings.
    pub(super) setting: MatchSetting<BaoOpening>,
    /// The openings and the clocks of the match being played.
    pub(super) round: Round<BaoOpening>,
}

/// Where opening `k` (from 0) was refused, and why.
fn refused_opening(k: usize, why: String) -> String {
    format!("opening {}: {why}", k + 1)
}

impl Played for SowingMatch {
    fn rules_text(&self) -> String {
        self.game.rules().to_string()
    }

    fn names(&self) -> [String; 2] {
        self.players.each_ref().map(|p| p.name().to_string())
    }

    fn begin(&mut self, plan: &MatchPlan) -> usize {
        let game = &self.game;
        self.round = Round::new(plan, &self.setting, |pairs| {
            openings(game, pairs, plan.opening_turns, plan.seed)
        });
        self.round.openings.len()
    }

    fn play_one(
        &mut self,
        plan: &MatchPlan,
        k: usize,
        south: usize,
    ) -> Result<GameRecord, Failure> {
        let [a, b] = &mut self.players;
        let round = &mut self.round;
        super::valued_game(
            &self.game,
            plan,
            &round.openings[k],
            &mut [a.as_mut(), b.as_mut()],
            self.exact.as_ref(),
            south,
            &mut round.clocks,
        )
    }

    fn clock_stats(&self) -> Option<ClockStats> {
        self.round.clock_stats()
    }

    fn set_openings(&mut self, boards: &[String]) -> Result<(), String> {
        let spec = crate::protocol::RulesSpec::Exact(*self.game.rules());
        let mut found = Vec::new();
        for (k, b) in boards.iter().enumerate() {
            let (_, pos) = crate::protocol::session::setup_position(&spec, Some(b), &[])
                .map_err(|e| refused_opening(k, e.to_string()))?;
            if pos.is_over() {
                return Err(refused_opening(k, format!("the game is over at {b}")));
            }
            found.push(Opening::at(pos));
        }
        self.setting.openings = found;
        Ok(())
    }

    fn fixed_openings(&self) -> usize {
        self.setting.openings.len()
    }

    fn exact_summary(&self, plan: &MatchPlan, outcome: &MatchOutcome) -> Option<ExactSummary> {
        Some(ExactSummary::of(
            &self.game,
            &outcome.games,
            plan.exact_nodes,
        ))
    }

    fn sowing_rules(&self) -> Option<Rules> {
        Some(*self.game.rules())
    }

    fn has_exact(&self) -> bool {
        self.exact.is_some()
    }
}

impl Played for BaoMatch {
    fn rules_text(&self) -> String {
        self.rules.to_string()
    }

    fn names(&self) -> [String; 2] {
        self.players.each_ref().map(|p| p.name().to_string())
    }

    fn begin(&mut self, plan: &MatchPlan) -> usize {
        let rules = &self.rules;
        self.round = Round::new(plan, &self.setting, |pairs| {
            super::bao::openings(rules, pairs, plan.opening_turns, plan.seed)
        });
        self.round.openings.len()
    }

    fn play_one(&mut self, _: &MatchPlan, k: usize, south: usize) -> Result<GameRecord, Failure> {
        let [a, b] = &mut self.players;
        let round = &mut self.round;
        super::bao::play_game(
            &self.rules,
            &round.openings[k],
            &mut [a.as_mut(), b.as_mut()],
            south,
            &mut round.clocks,
        )
    }

    fn clock_stats(&self) -> Option<ClockStats> {
        self.round.clock_stats()
    }

    fn set_openings(&mut self, boards: &[String]) -> Result<(), String> {
        let mut found = Vec::new();
        for (k, b) in boards.iter().enumerate() {
            let pos = crate::protocol::session::bao::setup_position(&self.rules, Some(b), &[])
                .map_err(|e| refused_opening(k, e.to_string()))?;
            if crate::game::setup::bao::is_over(&pos) {
                return Err(refused_opening(k, format!("the game is over at {b}")));
            }
            found.push(BaoOpening::at(pos));
        }
        self.setting.openings = found;
        Ok(())
    }

    fn fixed_openings(&self) -> usize {
        self.setting.openings.len()
    }

    fn exact_summary(&self, _: &MatchPlan, _: &MatchOutcome) -> Option<ExactSummary> {
        None
    }

    fn sowing_rules(&self) -> Option<Rules> {
        None
    }

    fn has_exact(&self) -> bool {
        false
    }
}

impl Match {
    /// A sowing game's match.
    pub(super) fn sowing(m: SowingMatch) -> Match {
        Match(Box::new(m))
    }

    /// Bao's match.
    pub(super) fn bao(m: BaoMatch) -> Match {
        Match(Box::new(m))
    }

    /// The rules as the report and the games file name them.
    pub fn rules_text(&self) -> String {
        self.0.rules_text()
    }

    /// The players' names, player 1 first.
    pub fn names(&self) -> [String; 2] {
        self.0.names()
    }

    /// Plays the match `plan` ([`super::run_match`]; Bao's [`super::bao::run_match`]):
    /// `on_game` sees each game as it ends, raising `stop` ends the match after the game
    /// in progress, and a player's failure ends it too.
    pub fn play(
        &mut self,
        plan: &MatchPlan,
        stop: &AtomicBool,
        on_game: &mut dyn FnMut(&GameRecord, &Score),
    ) -> MatchOutcome {
        Match::play_together(std::slice::from_mut(self), plan, stop, on_game)
    }

    /// Plays the match `plan` on every table of `tables` at once, one game each (copies
    /// of one match, each with players of its own: [`super::run_pairs_together`]); the
    /// score, the games by opening and the clocks of them all, as
    /// [`Match::play`] gives them for one table.
    pub fn play_together(
        tables: &mut [Match],
        plan: &MatchPlan,
        stop: &AtomicBool,
        on_game: &mut dyn FnMut(&GameRecord, &Score),
    ) -> MatchOutcome {
        let pairs = tables
            .iter_mut()
            .map(|t| t.0.begin(plan))
            .min()
            .unwrap_or(0);
        let play = |t: &mut Match, k: usize, south: usize| t.0.play_one(plan, k, south);
        let mut outcome = super::run_pairs_together(tables, pairs, stop, on_game, play);
        let mut clocks = tables.iter().filter_map(|t| t.0.clock_stats());
        outcome.clock = clocks
            .next()
            .map(|first| clocks.fold(first, |all, c| all.merged(&c)));
        outcome
    }

    /// Plays from the boards `boards` (each as the protocol's `position` takes it, the
    /// sowing games' `4,4,4,0,4,4,4,0:S`, Bao's rows) instead of random openings, each
    /// twice with the colours swapped; a board of other rules, or one whose game is over,
    /// is refused with its number (from 1) and why.
    pub fn set_openings(&mut self, boards: &[String]) -> Result<(), String> {
        self.0.set_openings(boards)
    }

    /// The fixed openings the match plays from ([`Match::set_openings`]; 0: random ones).
    pub fn fixed_openings(&self) -> usize {
        self.0.fixed_openings()
    }

    /// What the exact values of `outcome`'s games say (a sowing game's match, whose
    /// values `plan` asked for or not); `None` for Bao's.
    pub fn exact_summary(&self, plan: &MatchPlan, outcome: &MatchOutcome) -> Option<ExactSummary> {
        self.0.exact_summary(plan, outcome)
    }

    /// The rules of a sowing game's match; `None` for Bao's.
    pub fn sowing_rules(&self) -> Option<Rules> {
        self.0.sowing_rules()
    }

    /// Whether the match has a solver of the exact values of its positions.
    pub fn has_exact(&self) -> bool {
        self.0.has_exact()
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
