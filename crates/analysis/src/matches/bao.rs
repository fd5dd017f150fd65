//! Matches of Bao la Kujifunza (`kalah match --rules bao`): the same pairs of games from
//! random openings with the colours swapped as [`super::run_match`], between Bao's own
//! anytime analysis under some limits ([`BaoSearchPlayer`]) or a program that speaks the
//! engine protocol's Bao ([`super::protocol::ProtocolPlayer`]). A game ends when the
//! mover's front row is empty or it has no legal move (the other player wins), or when a
//! position comes back a third time (a draw, docs/bao.md); the record's score is +1 when
//! South wins, -1 when North does, 0 for a draw.

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use kalah_core::bao::{BaoPosition, BaoRules};
use kalah_core::Side;
use kalah_solver::{bao_search, Limits};

use super::protocol::ProtocolPlayer;
use super::{
    clocked_limits, run_pairs, Asked, Bao, Clocks, Failure, GameRecord, MatchOutcome, MatchPlan,
    MatchSetting, Player, PlayerError, Rng, Round, Score,
};
use crate::game::setup::bao::{BaoEnd, BaoGame};
use crate::protocol::bao::move_to_play;
use crate::protocol::bao_rules_line;

/// The most moves a game lasts; one still going then is a draw, marked adjudicated.
pub const MAX_MOVES: usize = 1000;

/// The moves a side of Bao is guessed to have left, for its clock's plan.
const BAO_MOVES_LEFT: u32 = 10;

/// Bao's anytime analysis under fixed limits per move; its best move is played.
pub struct BaoSearchPlayer {
    name: String,
    limits: Limits,
}

impl BaoSearchPlayer {
    /// A player named `name` that analyses every move to `limits`.
    pub fn new(name: String, limits: Limits) -> BaoSearchPlayer {
        BaoSearchPlayer { name, limits }
    }

    /// A player that analyses every move to `limits`, named by them: `bao search, 0.1 s`.
    pub fn with_limits(limits: Limits) -> BaoSearchPlayer {
        let mut parts = vec!["bao search".to_string()];
        parts.extend(super::limits_words(&limits));
        BaoSearchPlayer::new(parts.join(", "), limits)
    }
}

impl Player<Bao> for BaoSearchPlayer {
    fn name(&self) -> &str {
        &self.name
    }

    fn choose(
        &mut self,
        _: &BaoRules,
        asked: &Asked,
        pos: &BaoPosition,
    ) -> Result<String, PlayerError> {
        // On a clock, the soft limit of the move's plan is its time (Bao's search takes
        // no time manager).
        let plan = asked.clock.and_then(|c| c.plan(pos.side(), BAO_MOVES_LEFT));
        let (limits, _) = clocked_limits(self.limits, plan, false);
        let a = bao_search::analyse(pos, &limits, &AtomicBool::new(false), &mut |_| {});
        move_to_play(pos, &a)
            .map(|m| m.to_string())
            .ok_or_else(|| PlayerError::Analysis("no move in a game not over".into()))
    }
}

impl Player<Bao> for ProtocolPlayer {
    fn name(&self) -> &str {
        <ProtocolPlayer as Player>::name(self)
    }

    fn choose(
        &mut self,
        rules: &BaoRules,
        asked: &Asked,
        pos: &BaoPosition,
    ) -> Result<String, PlayerError> {
        self.best_move(&bao_rules_line(rules), asked, pos.side())
    }

    fn game_over(&mut self) {
        <ProtocolPlayer as Player>::game_over(self)
    }
}

/// A Bao opening: the moves from the start (or from a board) and the position they reach.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BaoOpening {
    /// The board the moves start from, where not the start (`--openings`).
    pub board: Option<BaoPosition>,
    /// The moves from the start, in the notation.
    pub moves: Vec<String>,
    /// The position they reach.
    pub pos: BaoPosition,
}

impl BaoOpening {
    /// A game from `pos` itself (a balanced set's board).
    pub fn at(pos: BaoPosition) -> BaoOpening {
        BaoOpening {
            board: Some(pos),
            moves: Vec::new(),
            pos,
        }
    }
}

/// `count` openings of `rules`: the positions after `turns` random moves from the start
/// (each legal move chosen uniformly), seeded by `seed`, distinct while enough distinct
/// ones turn up, none with the game over.
pub fn openings(rules: &BaoRules, count: usize, turns: usize, seed: u64) -> Vec<BaoOpening> {
    let mut rng = Rng(seed);
    let mut found: Vec<BaoOpening> = Vec::new();
    let mut tries = 0;
    while found.len() < count && tries <= 100 * count + 100 {
        tries += 1;
        let mut pos = rules.start();
        let mut moves = Vec::new();
        for _ in 0..turns {
            let legal: Vec<_> = pos.legal().moves().collect();
            if pos.is_over() || legal.is_empty() {
                break;
            }
            let mv = legal[rng.below(legal.len())];
            moves.push(mv.to_string());
            pos = pos.try_play(mv).expect("a legal move plays").0;
        }
        if moves.len() < turns || crate::game::setup::bao::is_over(&pos) {
            continue;
        }
        // After many repeats, repeated openings are taken: the board may have few.
        if tries > 50 * count || !found.iter().any(|f| f.pos == pos) {
            found.push(BaoOpening {
                board: None,
                moves,
                pos,
            });
        }
    }
    found
}

/// Plays one game from `opening`, `players[south]` as South, on `clocks` where any
/// player has one (a player whose time runs out loses the game).
pub fn play_game(
    rules: &BaoRules,
    opening: &BaoOpening,
    players: &mut [&mut dyn Player<Bao>; 2],
    south: usize,
    clocks: &mut Clocks,
) -> Result<GameRecord, Failure> {
    let mut all = opening.moves.clone();
    let mut game = BaoGame::new(opening.pos);
    let mut moves = Vec::new();
    let start = opening.board.map(|b| b.to_string());
    let mut lost_on_time = None;
    clocks.new_game();
    let score = loop {
        let pos = *game.pos();
        match game.end() {
            Some(BaoEnd::Won { winner }) => break winner.sign(),
            Some(BaoEnd::Repetition) => break 0,
            None if moves.len() >= MAX_MOVES => break 0,
            None => {}
        }
        let p = if pos.side() == Side::South {
            south
        } else {
            1 - south
        };
        let asked = Asked {
            start: start.as_deref(),
            moves: &all,
            clock: clocks.game_clock(p, south),
        };
        let began = Instant::now();
        let chosen = players[p].choose(rules, &asked, &pos);
        let used = began.elapsed();
        let text = chosen.map_err(|error| Failure { player: p, error })?;
        if clocks.charge(p, pos.side(), asked.clock, BAO_MOVES_LEFT, used) {
            lost_on_time = Some(pos.side());
            break 0;
        }
        game.play_text(&text).map_err(|e| Failure {
            player: p,
            error: PlayerError::Protocol(format!("the move `{text}` cannot be played: {e}")),
        })?;
        all.push(text.clone());
        moves.push(text);
    };
    for p in players.iter_mut() {
        p.game_over();
    }
    Ok(GameRecord {
        index: 0,
        opening: 0,
        south,
        opening_position: start,
        opening_moves: opening.moves.clone(),
        adjudicated: moves.len() >= MAX_MOVES,
        moves,
        score,
        lost_on_time,
        values: Vec::new(),
    })
}

/// Plays the match `plan` of Bao between `players` (player 0 South first in each pair;
/// `plan.exact_nodes` is not used: no exact values are known of full Bao boards).
/// `on_game` sees each game as it ends; raising `stop` ends the match after the game in
/// progress, and a player's failure ends it too.
pub fn run_match(
    rules: &BaoRules,
    plan: &MatchPlan,
    setting: &MatchSetting<BaoOpening>,
    players: &mut [&mut dyn Player<Bao>; 2],
    stop: &AtomicBool,
    on_game: &mut dyn FnMut(&GameRecord, &Score),
) -> MatchOutcome {
    let mut round = Round::new(plan, setting, |pairs| {
        openings(rules, pairs, plan.opening_turns, plan.seed)
    });
    let Round { openings, clocks } = &mut round;
    let play = |k: usize, south: usize| play_game(rules, &openings[k], players, south, clocks);
    let mut outcome = run_pairs(openings.len(), stop, on_game, play);
    outcome.clock = round.clock_stats();
    outcome
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    /// Plays the first legal move, always.
    struct First;

    impl Player<Bao> for First {
        fn name(&self) -> &str {
            "first"
        }
        fn choose(
            &mut self,
            _: &BaoRules,
            _: &Asked,
            pos: &BaoPosition,
        ) -> Result<String, PlayerError> {
            Ok(pos
                .legal()
                .moves()
                .next()
                .expect("a legal move")
                .to_string())
        }
    }

    #[test]
    fn a_search_player_is_named_by_its_limits() {
        let limits = Limits {
            time: Some(std::time::Duration::from_millis(100)),
            nodes: Some(500),
            depth: Some(4),
        };
        let p = BaoSearchPlayer::with_limits(limits);
        assert_eq!(p.name(), "bao search, 0.1 s, 500 nodes, depth 4");
        assert_eq!(
            BaoSearchPlayer::with_limits(Limits::depth(3)).name(),
            "bao search, depth 3"
        );
    }

    /// Replays a game's moves from its opening: every move legal, and the result the
    /// record's (a win for the side not to move at the end, or a draw by repetition).
    fn replays(rules: &BaoRules, g: &GameRecord) {
        let mut pos = rules.start();
        let mut seen: HashMap<BaoPosition, u32> = HashMap::new();
        for (k, text) in g.opening_moves.iter().chain(&g.moves).enumerate() {
            if k >= g.opening_moves.len() {
                *seen.entry(pos).or_insert(0) += 1;
            }
            let mv = pos.parse_move(text).unwrap();
            pos = pos.try_play(mv).unwrap().0;
        }
        if pos.is_over() || pos.legal().is_empty() {
            assert_eq!(g.score, -pos.side().sign(), "{g:?}");
        } else {
            assert_eq!(g.score, 0, "{g:?}");
            assert!(g.adjudicated || seen.get(&pos) == Some(&2), "{g:?}");
        }
    }

    #[test]
    fn bao_openings_are_seeded_distinct_and_replay() {
        let rules = BaoRules::new(4, 2).unwrap();
        let a = openings(&rules, 5, 2, 3);
        assert_eq!(a, openings(&rules, 5, 2, 3));
        assert_eq!(a.len(), 5);
        for (k, o) in a.iter().enumerate() {
            let mut pos = rules.start();
            for m in &o.moves {
                pos = pos.try_play(pos.parse_move(m).unwrap()).unwrap().0;
            }
            assert_eq!(pos, o.pos);
            assert!(a[..k].iter().all(|p| p.pos != o.pos));
        }
    }

    #[test]
    fn bao_games_end_by_the_rules_and_a_searcher_beats_a_first_mover() {
        let rules = BaoRules::standard();
        let plan = MatchPlan {
            games: 8,
            opening_turns: 2,
            seed: 1,
            exact_nodes: 0,
        };
        let mut search = BaoSearchPlayer::new("search".into(), Limits::depth(3));
        let mut first = First;
        let out = run_match(
            &rules,
            &plan,
            &MatchSetting::default(),
            &mut [&mut search, &mut first],
            &AtomicBool::new(false),
            &mut |_, _| {},
        );
        assert!(out.failure.is_none());
        assert_eq!(out.games.len(), 8);
        for pair in out.games.chunks(2) {
            assert_eq!((pair[0].south, pair[1].south), (0, 1));
            assert_eq!(pair[0].opening_moves, pair[1].opening_moves);
        }
        for g in &out.games {
            replays(&rules, g);
        }
        // A three-move search against the first legal move, every time.
        assert!(out.score.mean() > 0.5, "{:?}", out.score);
    }
}
