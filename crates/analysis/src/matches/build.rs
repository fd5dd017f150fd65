//! A match made from the plain settings a front end reads (`kalah match`): each player's
//! limits, evaluation and threads ([`PlayerSpec`]), player 2 as a program where one is
//! named ([`ProgramSpec`]), the solver of the exact values where they are asked for; and
//! how a match that was played ended ([`MatchEnd`]). The solvers themselves are made by
//! the caller ([`SolverRequest`]), which owns their options and their progress display.

use std::time::Duration;

use kalah_core::bao::BaoRules;
use kalah_core::Game;
use kalah_solver::{Limits, Solver};

use super::bao::BaoSearchPlayer;
use super::protocol::ProtocolPlayer;
use super::run::{BaoMatch, SowingMatch};
use super::{
    interrupted_words, limits_or_default, search_name, Bao, ClockSpec, Failure, Match, MatchPlan,
    MatchSetting, Player, PlayerError, Round, SearchPlayer, Sowing, EXACT_HASH_MB,
};
use crate::protocol::session::EvaluationChoice;
use crate::protocol::Go;

/// A leaf evaluation as a match names it and asks for it (the protocol session's
/// [`EvaluationChoice`], which the caller turns into a solver).
pub trait Evaluation: Copy {
    /// The store difference alone: the evaluation of the exact values' solver.
    const STORE: Self;

    /// Its name in a player's name.
    fn name(&self) -> &'static str;
}

/// Here, not beside [`EvaluationChoice`]: the protocol stands below the matches that
/// drive it, so it names nothing of theirs.
impl Evaluation for EvaluationChoice {
    const STORE: EvaluationChoice = EvaluationChoice::Store;

    fn name(&self) -> &'static str {
        EvaluationChoice::name(*self)
    }
}

/// One player's settings as given: its limits per move (none: [`limits_or_default`]),
/// its clock, its evaluation and its search threads (Bao's player takes only the limits
/// and the clock).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayerSpec<E> {
    /// The limits of each move, as given.
    pub limits: Limits,
    /// The evaluation at the leaves.
    pub evaluation: E,
    /// The search threads.
    pub threads: u32,
    /// The player's clock for each game (none: its limits a move).
    pub clock: Option<ClockSpec>,
}

impl<E: Evaluation> PlayerSpec<E> {
    /// A player's settings: its limits per move, evaluation and search threads.
    pub fn new(limits: Limits, evaluation: E, threads: u32) -> PlayerSpec<E> {
        PlayerSpec {
            limits,
            evaluation,
            threads,
            clock: None,
        }
    }

    /// The same player on `clock`.
    pub fn on_clock(self, clock: Option<ClockSpec>) -> PlayerSpec<E> {
        PlayerSpec { clock, ..self }
    }

    /// The limits the player moves within: those given, else (without a clock) the
    /// default time a move.
    pub fn limits(&self) -> Limits {
        match self.clock {
            Some(_) => self.limits,
            None => limits_or_default(self.limits),
        }
    }

    /// The player's name in reports ([`search_name`]), its clock after its limits.
    pub fn name(&self) -> String {
        let name = search_name(self.evaluation.name(), &self.limits(), self.threads);
        match self.clock {
            Some(c) => {
                let (head, threads) = name.rsplit_once(", ").unwrap_or((&name, ""));
                format!("{head}, clock {c}, {threads}")
            }
            None => name,
        }
    }
}

/// The clocks of player 1 and player 2 of `specs`.
fn clocks<E>(specs: &[PlayerSpec<E>; 2]) -> [Option<ClockSpec>; 2] {
    [specs[0].clock, specs[1].clock]
}

/// Player 2 as a program speaking the engine protocol.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProgramSpec {
    /// The command that starts it (its words split at blanks).
    pub command: String,
    /// The longest wait for one of its moves.
    pub move_timeout: Duration,
    /// It thinks on the opponent's time (`go ponder`, docs/engine.md).
    pub ponder: bool,
}

impl ProgramSpec {
    /// The program started, asked for its moves within `limits`.
    fn start(&self, limits: Limits) -> Result<ProtocolPlayer, PlayerError> {
        let go = Go::new(limits);
        let player = ProtocolPlayer::start(&self.command, go, self.move_timeout)?;
        Ok(player.pondering(self.ponder))
    }
}

/// A solver the match needs: a search player's, or the one of the exact values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SolverRequest<E> {
    /// Its search threads.
    pub threads: u32,
    /// The evaluation at its leaves.
    pub evaluation: E,
    /// Its table in MiB where the user sets none (none: the usual choice).
    pub hash_mb: Option<u64>,
}

impl<E: Evaluation> SolverRequest<E> {
    /// The solver of the exact values: one thread that proves small positions in a small
    /// table, the store difference at its leaves.
    pub const EXACT: SolverRequest<E> = SolverRequest {
        threads: 1,
        evaluation: E::STORE,
        hash_mb: Some(EXACT_HASH_MB),
    };
}

/// The caller's maker of the solvers a match asks for ([`SolverRequest`]).
pub type MakeSolver<'a, V, E> = dyn FnMut(&Game, SolverRequest<V>) -> Result<Solver, E> + 'a;

/// Why a match could not be made: a solver of the caller's (`E`), or the program of
/// player 2, which could not be started.
#[derive(Debug)]
pub enum BuildError<E> {
    /// A solver could not be made.
    Solver(E),
    /// The program of player 2 failed to start.
    Program(PlayerError),
}

/// The match of `game` between the engine's search with `specs[0]` and `specs[1]` (or
/// the program `program`, asked with player 2's limits), made in that order: player 1's
/// solver, player 2, then the solver of the exact values where `exact_nodes` asks for
/// them. `make` makes each solver.
pub fn sowing_match<V: Evaluation, E>(
    game: Game,
    specs: &[PlayerSpec<V>; 2],
    program: Option<&ProgramSpec>,
    exact_nodes: u64,
    make: &mut MakeSolver<'_, V, E>,
) -> Result<Match, BuildError<E>> {
    let mut search = |s: &PlayerSpec<V>| -> Result<SearchPlayer, BuildError<E>> {
        let request = SolverRequest {
            threads: s.threads,
            evaluation: s.evaluation,
            hash_mb: None,
        };
        let solver = make(&game, request).map_err(BuildError::Solver)?;
        Ok(SearchPlayer::new(s.name(), solver, s.limits()))
    };
    let one = search(&specs[0])?;
    let two: Box<dyn Player<Sowing>> = match program {
        Some(p) => Box::new(p.start(specs[1].limits()).map_err(BuildError::Program)?),
        None => Box::new(search(&specs[1])?),
    };
    let exact = match exact_nodes {
        0 => None,
        _ => Some(make(&game, SolverRequest::EXACT).map_err(BuildError::Solver)?),
    };
    Ok(Match::sowing(SowingMatch {
        game,
        players: [Box::new(one), two],
        exact,
        setting: MatchSetting {
            clocks: clocks(specs),
            openings: Vec::new(),
        },
        round: Round::default(),
    }))
}

/// The match of Bao on `rules` between Bao's anytime analysis with player 1's limits
/// and player 2's (or the program `program`, asked with player 2's limits).
pub fn bao_match<V: Evaluation>(
    rules: BaoRules,
    specs: &[PlayerSpec<V>; 2],
    program: Option<&ProgramSpec>,
) -> Result<Match, PlayerError> {
    let bao = |s: &PlayerSpec<V>| {
        let mut p = BaoSearchPlayer::with_limits(s.limits());
        if let Some(c) = s.clock {
            p = BaoSearchPlayer::new(format!("{}, clock {c}", p.name()), s.limits());
        }
        p
    };
    let one = bao(&specs[0]);
    let two: Box<dyn Player<Bao>> = match program {
        Some(p) => Box::new(p.start(specs[1].limits())?),
        None => Box::new(bao(&specs[1])),
    };
    Ok(Match::bao(BaoMatch {
        rules,
        players: [Box::new(one), two],
        setting: MatchSetting {
            clocks: clocks(specs),
            openings: Vec::new(),
        },
        round: Round::default(),
    }))
}

impl MatchPlan {
    /// The games the plan plays: every opening twice, so an odd number is raised by one.
    pub fn games_to_play(&self) -> usize {
        self.games.div_ceil(2) * 2
    }
}

/// How a match that was played ended, for the front end's exit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MatchEnd {
    /// Every game planned was played, or the match ended without a stop.
    Played,
    /// A player failed: why the match stopped, in words.
    Failed(String),
    /// Ctrl-C stopped it before the games planned: what the score covers, in words.
    Interrupted(String),
}

impl MatchEnd {
    /// The end of a match between `names` that played `played` of `planned` games, with
    /// a player's `failure` if one stopped it, and `stopped` when Ctrl-C was pressed.
    pub fn of(
        failure: Option<&Failure>,
        names: &[String; 2],
        played: usize,
        planned: usize,
        stopped: bool,
    ) -> MatchEnd {
        if let Some(f) = failure {
            return MatchEnd::Failed(f.stopped_words(names, played));
        }
        match stopped && played < planned {
            true => MatchEnd::Interrupted(interrupted_words(played)),
            false => MatchEnd::Played,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kalah_core::Rules;
    use kalah_solver::Config;

    /// The one evaluation these tests need.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    struct Store;

    impl Evaluation for Store {
        const STORE: Store = Store;
        fn name(&self) -> &'static str {
            "store"
        }
    }

    fn spec(limits: Limits, threads: u32) -> PlayerSpec<Store> {
        PlayerSpec::new(limits, Store, threads)
    }

    #[test]
    fn a_player_given_no_limit_moves_in_the_default_time() {
        let s = spec(Limits::none(), 1);
        assert_eq!(s.limits(), Limits::time(super::super::DEFAULT_MOVE_TIME));
        assert_eq!(s.name(), "store, 0.1 s, 1 thread");
        let s = spec(Limits::nodes(500), 2);
        assert_eq!(s.limits(), Limits::nodes(500));
        assert_eq!(s.name(), "store, 500 nodes, 2 threads");
        // On a clock no time a move is added.
        let s = spec(Limits::none(), 1).on_clock("2+1".parse().ok());
        assert_eq!(s.limits(), Limits::none());
        assert_eq!(s.name(), "store, clock 2+1, 1 thread");
    }

    #[test]
    fn the_solvers_are_asked_for_in_order_and_the_exact_one_only_with_a_budget() {
        let game = Game::new(Rules::kalah(3, 2)).unwrap();
        let specs = [spec(Limits::nodes(10), 1), spec(Limits::depth(2), 3)];
        for (nodes, expected) in [(0, 2), (1000, 3)] {
            let mut asked = Vec::new();
            let mut make = |g: &Game, r: SolverRequest<Store>| -> Result<Solver, ()> {
                asked.push(r);
                let config = Config {
                    threads: 1,
                    hash_mb: 4,
                    ..Config::default()
                };
                Ok(Solver::new(g.clone(), config).unwrap())
            };
            let m = sowing_match(game.clone(), &specs, None, nodes, &mut make).unwrap();
            assert_eq!(asked.len(), expected);
            assert_eq!((asked[0].threads, asked[1].threads), (1, 3));
            assert!(asked[..2].iter().all(|r| r.hash_mb.is_none()));
            if nodes > 0 {
                assert_eq!(asked[2], SolverRequest::EXACT);
            }
            assert_eq!(
                m.names(),
                ["store, 10 nodes, 1 thread", "store, depth 2, 3 threads"]
            );
            assert!(m.sowing_rules().is_some(), "a sowing game's match");
            assert_eq!(m.has_exact(), nodes > 0);
        }
    }

    #[test]
    fn a_solver_that_cannot_be_made_stops_the_making() {
        let game = Game::new(Rules::kalah(3, 2)).unwrap();
        let specs = [spec(Limits::none(), 1); 2];
        let mut make = |_: &Game, _: SolverRequest<Store>| -> Result<Solver, &str> { Err("no") };
        let e = sowing_match(game, &specs, None, 0, &mut make)
            .err()
            .unwrap();
        assert!(matches!(e, BuildError::Solver("no")));
    }

    #[test]
    fn bao_players_are_named_by_their_limits() {
        let rules = BaoRules::new(3, 2).unwrap();
        let specs = [spec(Limits::none(), 1), spec(Limits::depth(2), 1)];
        let m = bao_match(rules, &specs, None).unwrap();
        assert_eq!(m.names(), ["bao search, 0.1 s", "bao search, depth 2"]);
    }

    #[test]
    fn every_opening_is_played_twice() {
        let plan = |games| MatchPlan {
            games,
            opening_turns: 2,
            seed: 1,
            exact_nodes: 0,
        };
        assert_eq!(plan(5).games_to_play(), 6);
        assert_eq!(plan(4).games_to_play(), 4);
    }

    #[test]
    fn the_end_names_a_failure_first_then_an_interrupt_before_the_plan() {
        let names = ["a".to_string(), "b".to_string()];
        let failure = Failure {
            player: 0,
            error: PlayerError::Protocol("gone".into()),
        };
        assert_eq!(
            MatchEnd::of(Some(&failure), &names, 2, 4, true),
            MatchEnd::Failed("the match stopped after 2 games: player 1 (a) failed: gone".into())
        );
        assert_eq!(
            MatchEnd::of(None, &names, 2, 4, true),
            MatchEnd::Interrupted("the score covers the 2 games played".into())
        );
        assert_eq!(MatchEnd::of(None, &names, 4, 4, true), MatchEnd::Played);
        assert_eq!(MatchEnd::of(None, &names, 2, 4, false), MatchEnd::Played);
    }
}
