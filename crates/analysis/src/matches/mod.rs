//! Matches between two players (`kalah match`): varied openings played twice with the
//! colours swapped, each game's turns and result, the exact value of the positions a
//! small budget proves, and the score with its error bar ([`score`]). A player is the
//! engine's own analysis under some limits ([`SearchPlayer`]) or a program that speaks
//! the engine protocol ([`protocol::ProtocolPlayer`]). A match of either kind of game,
//! played and summed up in one flow, is [`Match`].

pub mod bao;
pub mod build;
pub mod clock;
pub mod games;
pub mod openings;
pub mod protocol;
pub mod report;
mod run;
pub mod score;
pub mod solvers;

use std::collections::HashMap;
use std::fmt;
use std::io;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::Relaxed};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use kalah_core::{notation, Game, Position, PositionError, Side};
use kalah_solver::{Limits, MoveTimer, Solver, TimePlan};

pub use clock::{ClockSpec, ClockStats, Clocks};
pub use run::{ExactSummary, Match};
pub use score::Score;

use crate::game::setup::typed_turn;
use crate::protocol::clock::moves_left;
use crate::protocol::GameClock;

/// The most turns a game lasts; a game still going then is scored as it stands
/// ([`GameRecord::adjudicated`]): the families whose positions repeat could go on for ever.
pub const MAX_TURNS: usize = 1000;

/// Why a player gave no turn.
#[derive(Debug)]
pub enum PlayerError {
    /// Talking to the program failed (it could not be started, or its pipes broke).
    Io(io::Error),
    /// The program did not answer within the time allowed.
    Timeout {
        /// The line awaited (`hellook`, `bestmove`).
        awaited: &'static str,
        /// The time allowed.
        after: Duration,
    },
    /// The program said something the protocol does not allow here (an `error` line, a
    /// `bestmove none` in a game not over, the end of its output).
    Protocol(String),
    /// The turn given cannot be played.
    Illegal {
        /// The turn as given.
        turn: String,
        /// Why not.
        why: PositionError,
    },
    /// The engine's own analysis failed.
    Analysis(String),
}

impl fmt::Display for PlayerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayerError::Io(e) => write!(f, "{e}"),
            PlayerError::Timeout { awaited, after } => {
                write!(f, "no {awaited} within {:.1} s", after.as_secs_f64())
            }
            PlayerError::Protocol(what) => write!(f, "{what}"),
            PlayerError::Illegal { turn, why } => write!(
                f,
                "the turn `{turn}` cannot be played: {}",
                crate::game::setup::move_message(why)
            ),
            PlayerError::Analysis(what) => write!(f, "analysis: {what}"),
        }
    }
}

impl std::error::Error for PlayerError {}

/// A player's failure in a match: which player (0 or 1), and why.
#[derive(Debug)]
pub struct Failure {
    /// The player that gave no turn.
    pub player: usize,
    /// Why.
    pub error: PlayerError,
}

impl Failure {
    /// Why a match stopped after `played` games, in words, with the players' `names`.
    pub fn stopped_words(&self, names: &[String; 2], played: usize) -> String {
        format!(
            "the match stopped after {played} games: player {} ({}) failed: {}",
            self.player + 1,
            names[self.player],
            self.error
        )
    }
}

/// What a match stopped by Ctrl-C after `played` games reports, in words.
pub fn interrupted_words(played: usize) -> String {
    format!("the score covers the {played} games played")
}

/// The table of the solver of a match's exact values, in MiB, unless the user sets one:
/// one thread that proves small positions.
pub const EXACT_HASH_MB: u64 = 64;

/// A kind of game a match plays: what a player is told of the game (its rules) and of
/// the position, as [`Player::choose`] takes them.
pub trait Kind {
    /// The game: its rules.
    type Game: ?Sized;
    /// A position of it.
    type Position;
}

/// The sowing games: a [`Game`] and its [`Position`].
pub struct Sowing;

impl Kind for Sowing {
    type Game = Game;
    type Position = Position;
}

/// Bao la Kujifunza: its board ([`kalah_core::bao::BaoRules`]) and positions.
pub struct Bao;

impl Kind for Bao {
    type Game = kalah_core::bao::BaoRules;
    type Position = kalah_core::bao::BaoPosition;
}

/// What a player is told of the game besides the position: where it started, the turns
/// since, and the clocks.
#[derive(Clone, Copy, Debug, Default)]
pub struct Asked<'a> {
    /// The opening's board where the game did not start from the rules' start (as the
    /// protocol's `position` takes it).
    pub start: Option<&'a str>,
    /// The turns from the start (or `start`), in the notation.
    pub moves: &'a [String],
    /// The clocks where the match is played on time (each side's remaining time and
    /// increment; a side without a clock has none).
    pub clock: Option<GameClock>,
}

/// A player of a match of the games of `K` (the sowing games unless said): given the game
/// so far, the turn to play. One trait for every game, as the engine protocol is one
/// protocol: a program that speaks it plays either ([`protocol::ProtocolPlayer`]).
pub trait Player<K: Kind = Sowing>: Send {
    /// The player's name in reports.
    fn name(&self) -> &str;

    /// The turn to play at `pos`, reached as `asked` says, in the notation.
    fn choose(
        &mut self,
        game: &K::Game,
        asked: &Asked,
        pos: &K::Position,
    ) -> Result<String, PlayerError>;

    /// The game is over: a player thinking on the opponent's time stops.
    fn game_over(&mut self) {}
}

/// The limits of a move on a clock by the plan `plan` (none: `limits` as they are): the
/// hard limit as the time limit where the search takes the time manager (`managed`, with
/// the timer started), else the soft limit.
pub fn clocked_limits(
    limits: Limits,
    plan: Option<TimePlan>,
    managed: bool,
) -> (Limits, Option<MoveTimer>) {
    let Some(plan) = plan else {
        return (limits, None);
    };
    let cut = if managed { plan.hard } else { plan.soft };
    let limits = Limits {
        time: Some(limits.time.map_or(cut, |t| t.min(cut))),
        ..limits
    };
    (limits, managed.then(|| MoveTimer::started(plan)))
}

/// The engine's anytime analysis under fixed limits per move; its best turn is played.
pub struct SearchPlayer {
    name: String,
    solver: Solver,
    limits: Limits,
}

impl SearchPlayer {
    /// A player named `name` that analyses every move with `solver` to `limits`.
    pub fn new(name: String, solver: Solver, limits: Limits) -> SearchPlayer {
        SearchPlayer {
            name,
            solver,
            limits,
        }
    }
}

impl Player for SearchPlayer {
    fn name(&self) -> &str {
        &self.name
    }

    fn choose(
        &mut self,
        game: &Game,
        asked: &Asked,
        pos: &Position,
    ) -> Result<String, PlayerError> {
        // The limits bound every move; Ctrl-C waits for the game's end, so the move is
        // never cut short. On a clock, the move's plan sets them.
        let plan = asked
            .clock
            .and_then(|c| c.plan(pos.side_to_move(), moves_left(pos)));
        let managed = !game.rules().family.is_cyclic();
        let (limits, timer) = clocked_limits(self.limits, plan, managed);
        let never = AtomicBool::new(false);
        let a = self
            .solver
            .analyse_timed(pos, &limits, 1, timer.as_ref(), &never, &mut |_| {})
            .map_err(|e| PlayerError::Analysis(e.to_string()))?;
        a.best_turn()
            .map(|t| t.notation(game.houses()))
            .ok_or_else(|| PlayerError::Analysis("no turn in a game not over".into()))
    }
}

/// A position to start games from: the turns played from the start (or from a board)
/// to reach it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// The board the turns start from, where not the rules' start (`--openings`).
    pub board: Option<Position>,
    /// The turns from the start, in the notation.
    pub moves: Vec<String>,
    /// The position they reach.
    pub pos: Position,
}

impl Opening {
    /// A game from `pos` itself (a balanced set's board).
    pub fn at(pos: Position) -> Opening {
        Opening {
            board: Some(pos),
            moves: Vec::new(),
            pos,
        }
    }
}

/// A small deterministic generator (SplitMix64): the same seed, the same openings.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// `count` openings of `game`: the positions after `turns` random whole turns from the
/// start (each sowing chosen uniformly), seeded by `seed`, distinct while enough distinct
/// ones turn up, none with the game over.
pub fn openings(game: &Game, count: usize, turns: usize, seed: u64) -> Vec<Opening> {
    let mut rng = Rng(seed);
    let mut found: Vec<Opening> = Vec::new();
    let mut tries = 0;
    while found.len() < count && tries <= 100 * count + 100 {
        tries += 1;
        let Some(o) = random_opening(game, turns, &mut rng) else {
            continue;
        };
        // After many repeats, repeated openings are taken: the board may have few.
        if tries > 50 * count || !found.iter().any(|f| f.pos == o.pos) {
            found.push(o);
        }
    }
    found
}

/// The position after `turns` random whole turns from the start, `None` if the game ended.
fn random_opening(game: &Game, turns: usize, rng: &mut Rng) -> Option<Opening> {
    let mut pos = game.start();
    let mut moves = Vec::new();
    for _ in 0..turns {
        if pos.is_over() {
            return None;
        }
        let side = pos.side_to_move();
        let mut sowings = Vec::new();
        while !pos.is_over() && pos.side_to_move() == side {
            let legal: Vec<usize> = game.legal_moves(&pos).collect();
            let j = legal[rng.below(legal.len())];
            sowings.push(j);
            pos = game.play_unchecked(&pos, j);
        }
        moves.push(notation::format_turn(game.houses(), side, &sowings));
    }
    (!pos.is_over()).then_some(Opening {
        board: None,
        moves,
        pos,
    })
}

/// One game played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// The game's number in the match, from 0.
    pub index: usize,
    /// The opening's number.
    pub opening: usize,
    /// Which player (0 or 1) played South.
    pub south: usize,
    /// The opening's board where it is not the rules' start (`--openings`), as text.
    pub opening_position: Option<String>,
    /// The opening's turns.
    pub opening_moves: Vec<String>,
    /// The turns the players chose, from the opening on.
    pub moves: Vec<String>,
    /// The final score from South (store minus store).
    pub score: i32,
    /// True when the game hit [`MAX_TURNS`] and was scored as it stood.
    pub adjudicated: bool,
    /// The side whose time ran out (it lost the game, whatever the stores held).
    pub lost_on_time: Option<Side>,
    /// The exact value from South of each position, where known: the opening position
    /// first, then the position after each of `moves` (the last is the final score).
    /// Empty when no exact values were asked for.
    pub values: Vec<Option<i32>>,
}

impl GameRecord {
    /// The winner: the side whose time did not run out, else by the score (none: a draw).
    pub fn winner(&self) -> Option<Side> {
        match (self.lost_on_time, self.score.signum()) {
            (Some(loser), _) => Some(loser.other()),
            (None, 1) => Some(Side::South),
            (None, -1) => Some(Side::North),
            _ => None,
        }
    }

    /// Points of player `p`: 1 a win, 0.5 a draw, 0 a loss.
    pub fn points(&self, p: usize) -> f64 {
        let south = match self.winner() {
            Some(Side::South) => 1.0,
            None => 0.5,
            Some(Side::North) => 0.0,
        };
        if p == self.south {
            south
        } else {
            1.0 - south
        }
    }
}

/// Plays one game from `opening`, `players[south]` as South, on `clocks` where any
/// player has one (a player whose time runs out loses the game).
pub fn play_game(
    game: &Game,
    opening: &Opening,
    players: &mut [&mut dyn Player; 2],
    south: usize,
    clocks: &mut Clocks,
) -> Result<GameRecord, Failure> {
    let mut all = opening.moves.clone();
    let mut pos = opening.pos;
    let mut moves = Vec::new();
    let start = opening.board.map(|b| b.to_string());
    let mut lost_on_time = None;
    clocks.new_game();
    while !pos.is_over() && moves.len() < MAX_TURNS {
        let side = pos.side_to_move();
        let p = if side == Side::South {
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
        let chosen = players[p].choose(game, &asked, &pos);
        let used = began.elapsed();
        let turn = chosen.map_err(|error| Failure { player: p, error })?;
        if clocks.charge(p, side, asked.clock, moves_left(&pos), used) {
            lost_on_time = Some(side);
            break;
        }
        pos = typed_turn(game, &pos, &turn).map_err(|why| Failure {
            player: p,
            error: PlayerError::Illegal {
                turn: turn.clone(),
                why,
            },
        })?;
        all.push(turn.clone());
        moves.push(turn);
    }
    for p in players.iter_mut() {
        p.game_over();
    }
    Ok(GameRecord {
        index: 0,
        opening: 0,
        south,
        opening_position: start,
        opening_moves: opening.moves.clone(),
        moves,
        score: pos.score(),
        adjudicated: !pos.is_over() && lost_on_time.is_none(),
        lost_on_time,
        values: Vec::new(),
    })
}

/// The position a record's game started from: its opening's board (else the rules'
/// start) with its opening turns played; `None` where they do not replay.
fn opening_position(game: &Game, record: &GameRecord) -> Option<Position> {
    let board = match &record.opening_position {
        Some(text) => game.settle(text.parse().ok()?).ok()?,
        None => game.start(),
    };
    let (pos, _) = notation::play_moves(game, board, &record.opening_moves.join(" ")).ok()?;
    Some(pos)
}

/// The exact value from South of every position of `record` that `solver` proves within
/// `nodes` nodes (`None` where it does not): the opening position, then after each turn.
pub fn exact_values(
    game: &Game,
    solver: &Solver,
    record: &GameRecord,
    nodes: u64,
) -> Vec<Option<i32>> {
    let Some(start) = opening_position(game, record) else {
        return Vec::new();
    };
    let mut positions = vec![start];
    for turn in &record.moves {
        let last = *positions.last().expect("one position at least");
        match typed_turn(game, &last, turn) {
            Ok(p) => positions.push(p),
            Err(_) => break,
        }
    }
    positions
        .iter()
        .map(|p| exact_value(solver, p, nodes))
        .collect()
}

/// What the exact values say of one player's turns in a game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Accuracy {
    /// Turns whose positions before and after both have an exact value.
    pub judged: usize,
    /// Judged turns that lowered the player's exact value (a perfect player's never do).
    pub mistakes: usize,
    /// Seeds those turns gave away in all (the drops of the exact value).
    pub seeds_lost: i64,
}

impl Accuracy {
    /// Adds `other`'s counts to these.
    pub fn add(&mut self, other: &Accuracy) {
        self.judged += other.judged;
        self.mistakes += other.mistakes;
        self.seeds_lost += other.seeds_lost;
    }
}

/// The accuracy of each player (0 and 1) in `record`, from its exact values: a turn is
/// judged where the values before and after it are both known, and its loss is the drop
/// of the value for the player who made it.
pub fn accuracy(game: &Game, record: &GameRecord) -> [Accuracy; 2] {
    let mut acc = [Accuracy::default(); 2];
    let Some(mut pos) = opening_position(game, record) else {
        return acc;
    };
    for (k, turn) in record.moves.iter().enumerate() {
        let side = pos.side_to_move();
        let p = if side == Side::South {
            record.south
        } else {
            1 - record.south
        };
        if let (Some(Some(before)), Some(Some(after))) =
            (record.values.get(k), record.values.get(k + 1))
        {
            let lost = i64::from((before - after) * side.sign()).max(0);
            acc[p].judged += 1;
            acc[p].mistakes += usize::from(lost > 0);
            acc[p].seeds_lost += lost;
        }
        match typed_turn(game, &pos, turn) {
            Ok(next) => pos = next,
            Err(_) => break,
        }
    }
    acc
}

/// The exact value from South of `pos` if `solver` proves it within `nodes` nodes.
fn exact_value(solver: &Solver, pos: &Position, nodes: u64) -> Option<i32> {
    if pos.is_over() {
        return Some(pos.score());
    }
    let a = solver
        .analyse(
            pos,
            &Limits::nodes(nodes),
            &AtomicBool::new(false),
            &mut |_| {},
        )
        .ok()?;
    a.is_exact().then(|| a.bounds_from_south().0)
}

/// A player's limits in words, for its name in reports: `0.1 s`, `1000 nodes`, `depth 6`,
/// each given limit in that order.
pub fn limits_words(limits: &Limits) -> Vec<String> {
    let mut parts = Vec::new();
    if let Some(t) = limits.time {
        parts.push(format!("{} s", t.as_secs_f64()));
    }
    if let Some(n) = limits.nodes {
        parts.push(format!("{n} nodes"));
    }
    if let Some(d) = limits.depth {
        parts.push(format!("depth {d}"));
    }
    parts
}

/// The name of the engine's own player in reports: its evaluation's name, its limits
/// ([`limits_words`]) and its threads: `store, 0.1 s, 1 thread`.
pub fn search_name(evaluation: &str, limits: &Limits, threads: u32) -> String {
    let mut parts = vec![evaluation.to_string()];
    parts.extend(limits_words(limits));
    let s = if threads == 1 { "" } else { "s" };
    parts.push(format!("{threads} thread{s}"));
    parts.join(", ")
}

/// The time a move of a player given no limit.
pub const DEFAULT_MOVE_TIME: Duration = Duration::from_millis(100);

/// A player's limits: `limits`, or [`DEFAULT_MOVE_TIME`] a move where they bound nothing.
pub fn limits_or_default(limits: Limits) -> Limits {
    match limits.is_unbounded() {
        true => Limits::time(DEFAULT_MOVE_TIME),
        false => limits,
    }
}

/// How a match is played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MatchPlan {
    /// Games to play (an odd number is raised by one: every opening twice).
    pub games: usize,
    /// Random turns from the start in each opening.
    pub opening_turns: usize,
    /// The openings' seed.
    pub seed: u64,
    /// The node budget per position of the exact values (0: none).
    pub exact_nodes: u64,
}

/// The games of a match and its score for player 0.
#[derive(Debug, Default)]
pub struct MatchOutcome {
    /// The games played, in order.
    pub games: Vec<GameRecord>,
    /// Player 0's score.
    pub score: Score,
    /// The player's failure that ended the match early, if one did.
    pub failure: Option<Failure>,
    /// What the clocks saw, where the match was played on time.
    pub clock: Option<ClockStats>,
}

/// The openings of a match of `pairs` pairs from `fixed` (a balanced set: its boards in
/// turn, from the first again where the match wants more), else random ones (`make`).
pub fn chosen_openings<O: Clone>(
    fixed: &[O],
    pairs: usize,
    make: impl FnOnce() -> Vec<O>,
) -> Vec<O> {
    match fixed.is_empty() {
        true => make(),
        false => fixed.iter().cycle().take(pairs).cloned().collect(),
    }
}

/// The openings of a match being played and their clocks: what one table of it keeps
/// between its games.
struct Round<O> {
    openings: Vec<O>,
    clocks: Clocks,
}

impl<O> Default for Round<O> {
    /// No openings yet, no clocks.
    fn default() -> Round<O> {
        Round {
            openings: Vec::new(),
            clocks: Clocks::default(),
        }
    }
}

impl<O: Clone> Round<O> {
    /// The round of `plan` on `setting`: its fixed openings, else those `make` makes
    /// for the number of pairs it is given.
    fn new(
        plan: &MatchPlan,
        setting: &MatchSetting<O>,
        make: impl FnOnce(usize) -> Vec<O>,
    ) -> Round<O> {
        let pairs = plan.games.div_ceil(2);
        Round {
            openings: chosen_openings(&setting.openings, pairs, || make(pairs)),
            clocks: Clocks::new(setting.clocks),
        }
    }

    /// What the clocks saw over the round's games, where a player plays on one.
    fn clock_stats(&self) -> Option<ClockStats> {
        self.clocks.any().then(|| self.clocks.stats.clone())
    }
}

/// How a match is timed and where its games start: each player's clock (none: its
/// limits a move) and the fixed openings (empty: random ones, [`openings()`]).
#[derive(Clone, Debug)]
pub struct MatchSetting<O> {
    /// Player 1's and player 2's clocks.
    pub clocks: [Option<ClockSpec>; 2],
    /// The openings to play, each twice (empty: random ones by the plan).
    pub openings: Vec<O>,
}

impl<O> Default for MatchSetting<O> {
    /// No clock, random openings.
    fn default() -> MatchSetting<O> {
        MatchSetting {
            clocks: [None, None],
            openings: Vec::new(),
        }
    }
}

/// Plays the match `plan` between `players` (player 0 South first in each pair) from the
/// openings and on the clocks of `setting`; `exact` gives each finished game its exact
/// values; `on_game` sees each game as it ends. Raising `stop` ends the match after the
/// game in progress. A player's failure ends it too ([`MatchOutcome::failure`]), with the
/// games played so far.
pub fn run_match(
    game: &Game,
    plan: &MatchPlan,
    setting: &MatchSetting<Opening>,
    players: &mut [&mut dyn Player; 2],
    exact: Option<&Solver>,
    stop: &AtomicBool,
    on_game: &mut dyn FnMut(&GameRecord, &Score),
) -> MatchOutcome {
    let mut round = Round::new(plan, setting, |pairs| {
        openings(game, pairs, plan.opening_turns, plan.seed)
    });
    let Round { openings, clocks } = &mut round;
    let play = |k: usize, south: usize| {
        valued_game(game, plan, &openings[k], players, exact, south, clocks)
    };
    let mut outcome = run_pairs(openings.len(), stop, on_game, play);
    outcome.clock = round.clock_stats();
    outcome
}

/// [`play_game`], and the exact values of its positions by `exact` where `plan` asks for
/// them.
pub fn valued_game(
    game: &Game,
    plan: &MatchPlan,
    opening: &Opening,
    players: &mut [&mut dyn Player; 2],
    exact: Option<&Solver>,
    south: usize,
    clocks: &mut Clocks,
) -> Result<GameRecord, Failure> {
    let mut record = play_game(game, opening, players, south, clocks)?;
    if let Some(solver) = exact.filter(|_| plan.exact_nodes > 0) {
        record.values = exact_values(game, solver, &record, plan.exact_nodes);
    }
    Ok(record)
}

/// The games of `pairs` openings, each played by `play(opening, south)` with player 0 as
/// South and then as North, scored for player 0; `on_game` sees each game as it ends.
/// Raising `stop` ends the match after the game in progress; a player's failure ends it
/// too, with the games played so far.
pub fn run_pairs(
    pairs: usize,
    stop: &AtomicBool,
    on_game: &mut dyn FnMut(&GameRecord, &Score),
    mut play: impl FnMut(usize, usize) -> Result<GameRecord, Failure>,
) -> MatchOutcome {
    let mut tally = Tally::new(on_game);
    'pairs: for k in 0..pairs {
        for south in [0, 1] {
            if stop.load(Relaxed) || !tally.add(k, play(k, south)) {
                break 'pairs;
            }
        }
    }
    tally.outcome
}

/// [`run_pairs`] on several tables at once: each of `tables` (its own players) plays one
/// pair at a time, `play(table, opening, south)`, in a thread of its own, taking the next
/// opening not yet begun; the games are scored in the order they end, and listed at the
/// end by opening, as one table lists them. One table plays in the caller's thread, as
/// [`run_pairs`] does. Raising `stop` ends the match after the
/// games in progress; a player's failure ends it too, every table finishing its game.
pub fn run_pairs_together<T: Send>(
    tables: &mut [T],
    pairs: usize,
    stop: &AtomicBool,
    on_game: &mut dyn FnMut(&GameRecord, &Score),
    play: impl Fn(&mut T, usize, usize) -> Result<GameRecord, Failure> + Sync,
) -> MatchOutcome {
    if let [table] = tables {
        return run_pairs(pairs, stop, on_game, |k, south| play(table, k, south));
    }
    let next = AtomicUsize::new(0);
    let failed = AtomicBool::new(false);
    let mut tally = Tally::new(on_game);
    let (send, games) = mpsc::channel();
    std::thread::scope(|scope| {
        for table in tables.iter_mut() {
            let (send, next, failed, play) = (send.clone(), &next, &failed, &play);
            scope.spawn(move || loop {
                let k = next.fetch_add(1, Relaxed);
                if k >= pairs {
                    return;
                }
                for south in [0, 1] {
                    if stop.load(Relaxed) || failed.load(Relaxed) {
                        return;
                    }
                    let game = play(table, k, south);
                    failed.fetch_or(game.is_err(), Relaxed);
                    if send.send((k, game)).is_err() {
                        return;
                    }
                }
            });
        }
        drop(send);
        for (k, game) in games {
            if !tally.add(k, game) {
                failed.store(true, Relaxed);
            }
        }
    });
    let mut outcome = tally.outcome;
    outcome.games.sort_by_key(|g| (g.opening, g.south));
    for (i, g) in outcome.games.iter_mut().enumerate() {
        g.index = i;
    }
    outcome
}

/// The score of a match as its games end: each game counted as it comes, each pair once
/// both of its games are in.
struct Tally<'a> {
    outcome: MatchOutcome,
    /// The points of the pairs with one game in, by opening.
    halves: HashMap<usize, f64>,
    on_game: &'a mut dyn FnMut(&GameRecord, &Score),
}

impl<'a> Tally<'a> {
    fn new(on_game: &'a mut dyn FnMut(&GameRecord, &Score)) -> Tally<'a> {
        Tally {
            outcome: MatchOutcome::default(),
            halves: HashMap::new(),
            on_game,
        }
    }

    /// Counts a game of opening `k`: false where it is a player's failure instead (kept
    /// as the outcome's, the first one only), which ends the match.
    fn add(&mut self, k: usize, game: Result<GameRecord, Failure>) -> bool {
        let mut record = match game {
            Ok(r) => r,
            Err(f) => {
                self.outcome.failure.get_or_insert(f);
                return false;
            }
        };
        let outcome = &mut self.outcome;
        record.index = outcome.games.len();
        record.opening = k;
        let points = record.points(0);
        outcome.score.add_game(points);
        match self.halves.remove(&k) {
            Some(first) => outcome.score.add_pair(first + points),
            None => {
                self.halves.insert(k, points);
            }
        }
        outcome.games.push(record);
        (self.on_game)(outcome.games.last().expect("just pushed"), &outcome.score);
        outcome.failure.is_none()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kalah_core::Rules;
    use kalah_solver::Config;
    use std::sync::{Arc, Mutex};

    #[test]
    fn a_stopped_match_names_the_player_that_failed() {
        let failure = Failure {
            player: 1,
            error: PlayerError::Protocol("bestmove none".into()),
        };
        let names = ["store".to_string(), "other".to_string()];
        assert_eq!(
            failure.stopped_words(&names, 4),
            "the match stopped after 4 games: player 2 (other) failed: bestmove none"
        );
        assert_eq!(interrupted_words(3), "the score covers the 3 games played");
    }

    /// Plays the first legal sowing, always.
    struct First;

    impl Player for First {
        fn name(&self) -> &str {
            "first"
        }
        fn choose(
            &mut self,
            game: &Game,
            _: &Asked,
            pos: &Position,
        ) -> Result<String, PlayerError> {
            let j = game.legal_moves(pos).next().expect("a legal move");
            Ok(notation::format_move(game.houses(), pos.side_to_move(), j))
        }
    }

    /// Plays as [`First`], and refuses a turn asked with a clock.
    struct NoClock;

    impl Player for NoClock {
        fn name(&self) -> &str {
            "no clock"
        }
        fn choose(
            &mut self,
            game: &Game,
            asked: &Asked,
            pos: &Position,
        ) -> Result<String, PlayerError> {
            match asked.clock {
                Some(_) => Err(PlayerError::Protocol("go: unknown limit `stime`".into())),
                None => First.choose(game, asked, pos),
            }
        }
    }

    fn solver(game: &Game) -> Solver {
        Solver::new(
            game.clone(),
            Config {
                threads: 1,
                hash_mb: 4,
                ..Config::default()
            },
        )
        .unwrap()
    }

    #[test]
    fn openings_are_seeded_distinct_and_replay() {
        let game = Game::new(Rules::kalah(4, 3)).unwrap();
        let a = openings(&game, 6, 2, 7);
        assert_eq!(a, openings(&game, 6, 2, 7));
        assert_eq!(a.len(), 6);
        for (k, o) in a.iter().enumerate() {
            assert_eq!(o.moves.len(), 2);
            let (pos, _) = notation::play_moves(&game, game.start(), &o.moves.join(" ")).unwrap();
            assert_eq!(pos, o.pos);
            assert!(a[..k].iter().all(|p| p.pos != o.pos));
        }
    }

    #[test]
    fn each_opening_is_played_with_both_colours_and_scored_for_player_zero() {
        let game = Game::new(Rules::kalah(3, 2)).unwrap();
        let exact = solver(&game);
        let (mut a, mut b) = (First, First);
        let plan = MatchPlan {
            games: 5,
            opening_turns: 1,
            seed: 1,
            exact_nodes: 100_000,
        };
        let mut seen = 0;
        let out = run_match(
            &game,
            &plan,
            &MatchSetting::default(),
            &mut [&mut a, &mut b],
            Some(&exact),
            &AtomicBool::new(false),
            &mut |_, _| seen += 1,
        );
        assert!(out.failure.is_none());
        let n = out.games.len();
        assert!(n % 2 == 0 && (2..=6).contains(&n), "{n} games");
        assert_eq!(seen, n);
        for pair in out.games.chunks(2) {
            assert_eq!((pair[0].south, pair[1].south), (0, 1));
            assert_eq!(pair[0].opening_moves, pair[1].opening_moves);
            // Both players play alike: the same game twice, so player 0 scores one win
            // and one loss or two draws.
            assert_eq!(pair[0].moves, pair[1].moves);
            assert_eq!(pair[0].points(0) + pair[1].points(0), 1.0);
            for g in pair {
                assert_eq!(g.values.len(), g.moves.len() + 1);
                assert_eq!(*g.values.last().unwrap(), Some(g.score));
                assert!(g.values.iter().all(|v| v.is_some()), "small boards solve");
            }
        }
        for g in &out.games {
            // Every value known: every turn judged, and the value drops of South's turns
            // less North's make the change from the opening's value to the final score.
            let acc = accuracy(&game, g);
            assert_eq!(acc[0].judged + acc[1].judged, g.moves.len());
            let (south, north) = (acc[g.south], acc[1 - g.south]);
            assert_eq!(
                south.seeds_lost - north.seeds_lost,
                i64::from(g.values[0].unwrap() - g.score)
            );
            assert!(acc.iter().all(|a| a.mistakes as i64 <= a.seeds_lost));
        }
        let s = &out.score;
        assert_eq!(s.wins + s.draws + s.losses, n);
        assert_eq!(s.points(), n as f64 / 2.0);
    }

    /// A table of a match played by [`run_pairs_together`]: a game of a made-up record
    /// whose result is South's win at an odd opening, else a draw, or a failure at
    /// `fail_at`, with the tables that played each game.
    struct Table {
        id: usize,
        fail_at: Option<usize>,
        played: Arc<Mutex<Vec<(usize, usize, usize)>>>,
    }

    fn play_on(t: &mut Table, k: usize, south: usize) -> Result<GameRecord, Failure> {
        if t.fail_at == Some(k) {
            let error = PlayerError::Protocol("gone".into());
            return Err(Failure { player: 1, error });
        }
        t.played.lock().unwrap().push((t.id, k, south));
        // Let the other tables in, so that the games interleave.
        std::thread::sleep(Duration::from_millis(2));
        Ok(GameRecord {
            index: 0,
            opening: 0,
            south,
            opening_position: None,
            opening_moves: vec![k.to_string()],
            moves: Vec::new(),
            score: if k % 2 == 1 { 2 } else { 0 },
            adjudicated: false,
            lost_on_time: None,
            values: Vec::new(),
        })
    }

    fn tables(n: usize, fail_at: Option<usize>) -> Vec<Table> {
        let played = Arc::new(Mutex::new(Vec::new()));
        let table = |id| Table {
            id,
            fail_at,
            played: Arc::clone(&played),
        };
        (0..n).map(table).collect()
    }

    #[test]
    fn tables_playing_at_once_play_every_game_once_and_score_as_one_table_does() {
        let never = AtomicBool::new(false);
        let mut one = tables(1, None);
        let alone = run_pairs_together(&mut one, 9, &never, &mut |_, _| {}, play_on);
        for n in [2, 3] {
            let mut t = tables(n, None);
            let mut seen = 0;
            let out = run_pairs_together(&mut t, 9, &never, &mut |_, _| seen += 1, play_on);
            assert!(out.failure.is_none());
            assert_eq!(seen, 18);
            let mut games: Vec<(usize, usize)> =
                out.games.iter().map(|g| (g.opening, g.south)).collect();
            games.sort();
            let every: Vec<(usize, usize)> = (0..9).flat_map(|k| [(k, 0), (k, 1)]).collect();
            assert_eq!(games, every);
            assert!(out.games.iter().enumerate().all(|(i, g)| g.index == i));
            for g in &out.games {
                assert_eq!(g.opening_moves, vec![g.opening.to_string()]);
            }
            // Each pair is a win and a loss (odd openings) or two draws, whichever table
            // played it.
            let s = &out.score;
            assert_eq!((s.wins, s.draws, s.losses, s.pairs.len()), (4, 10, 4, 9));
            assert_eq!(s.pairs, vec![1.0; 9]);
            assert_eq!(
                (s.mean(), s.half_width95()),
                (alone.score.mean(), alone.score.half_width95())
            );
            // Both games of a pair are played at the table that began it.
            let played = t[0].played.lock().unwrap().clone();
            let tables_used: std::collections::HashSet<usize> =
                played.iter().map(|p| p.0).collect();
            assert!(tables_used.len() > 1, "one table played all: {played:?}");
            for k in 0..9 {
                let at: Vec<usize> = played.iter().filter(|p| p.1 == k).map(|p| p.0).collect();
                assert!(at.len() == 2 && at[0] == at[1], "{k}: {at:?}");
            }
        }
    }

    #[test]
    fn a_failure_at_one_table_ends_the_match_and_stop_ends_it_between_games() {
        let never = AtomicBool::new(false);
        let mut t = tables(2, Some(3));
        let out = run_pairs_together(&mut t, 20, &never, &mut |_, _| {}, play_on);
        let failure = out.failure.expect("a table failed");
        assert_eq!(failure.player, 1);
        // The games begun before the failure are kept; no pair after 4 is begun.
        assert!(out.games.len() <= 10, "{} games", out.games.len());
        assert!(out.games.iter().all(|g| g.opening != 3));
        // Stop raised as the first game ends: the game the other table is playing (it
        // waits for the stop) still counts, and no table begins another after it sees
        // the stop (the first table may have begun its second game before).
        let stop = AtomicBool::new(false);
        let mut t = tables(2, None);
        let waiting = |t: &mut Table, k: usize, south: usize| {
            for _ in 0..5000 {
                if k == 0 || stop.load(Relaxed) {
                    break;
                }
                std::thread::sleep(Duration::from_millis(1));
            }
            play_on(t, k, south)
        };
        let out = run_pairs_together(
            &mut t,
            20,
            &stop,
            &mut |_, _| stop.store(true, Relaxed),
            waiting,
        );
        assert!(
            (1..=3).contains(&out.games.len()),
            "{} games",
            out.games.len()
        );
        assert!(out.failure.is_none());
    }

    #[test]
    fn a_raised_stop_ends_the_match_between_games() {
        let game = Game::new(Rules::kalah(3, 2)).unwrap();
        let (mut a, mut b) = (First, First);
        let plan = MatchPlan {
            games: 4,
            opening_turns: 1,
            seed: 1,
            exact_nodes: 0,
        };
        let stop = AtomicBool::new(false);
        let out = run_match(
            &game,
            &plan,
            &MatchSetting::default(),
            &mut [&mut a, &mut b],
            None,
            &stop,
            &mut |_, _| stop.store(true, Relaxed),
        );
        assert_eq!(out.games.len(), 1);
        assert!(out.games[0].values.is_empty());
    }

    #[test]
    fn a_clocked_match_times_every_move_and_a_spent_clock_loses_on_time() {
        let game = Game::new(Rules::kalah(4, 3)).unwrap();
        let plan = MatchPlan {
            games: 4,
            opening_turns: 1,
            seed: 3,
            exact_nodes: 0,
        };
        // A minute for a small board: every move on time, the time manager's plan kept.
        // The player without a clock is never sent one (as a program that knows none).
        let mut search = SearchPlayer::new("search".into(), solver(&game), Limits::none());
        let mut first = NoClock;
        let setting = MatchSetting {
            clocks: ["1+0.1".parse().ok(), None],
            openings: Vec::new(),
        };
        let never = AtomicBool::new(false);
        let out = run_match(
            &game,
            &plan,
            &setting,
            &mut [&mut search, &mut first],
            None,
            &never,
            &mut |_, _| {},
        );
        assert!(out.failure.is_none());
        let clock = out.clock.expect("a clocked match reports its clocks");
        assert_eq!(clock.losses_on_time, [0, 0]);
        assert!(clock.moves[0] > 0 && clock.moves[1] == 0, "{clock:?}");
        assert!(out.games.iter().all(|g| g.lost_on_time.is_none()));
        // A clock of a few nanoseconds runs out at the first move: every game lost on time.
        let spent = ClockSpec {
            base: Duration::from_nanos(1),
            increment: Duration::ZERO,
        };
        let setting = MatchSetting {
            clocks: [Some(spent), None],
            openings: Vec::new(),
        };
        let mut first_too = First;
        let out = run_match(
            &game,
            &plan,
            &setting,
            &mut [&mut first_too, &mut first],
            None,
            &never,
            &mut |_, _| {},
        );
        assert_eq!(out.clock.unwrap().losses_on_time[0], 4);
        for g in &out.games {
            let side = if g.south == 0 {
                Side::South
            } else {
                Side::North
            };
            assert_eq!(g.lost_on_time, Some(side));
            assert_eq!(g.points(0), 0.0);
        }
    }

    #[test]
    fn a_match_from_chosen_boards_plays_each_twice_and_judges_from_the_board() {
        let game = Game::new(Rules::kalah(3, 2)).unwrap();
        let board: Position = "2,2,0,1,2,3,2,0:S".parse().unwrap();
        let board = game.settle(board).unwrap();
        let setting = MatchSetting {
            clocks: [None, None],
            openings: vec![Opening::at(board)],
        };
        let plan = MatchPlan {
            games: 4,
            opening_turns: 2,
            seed: 1,
            exact_nodes: 100_000,
        };
        let exact = solver(&game);
        let (mut a, mut b) = (First, First);
        let out = run_match(
            &game,
            &plan,
            &setting,
            &mut [&mut a, &mut b],
            Some(&exact),
            &AtomicBool::new(false),
            &mut |_, _| {},
        );
        assert_eq!(
            out.games.len(),
            4,
            "the one board, again for the second pair"
        );
        assert!(out.clock.is_none());
        for g in &out.games {
            assert_eq!(
                g.opening_position.as_deref(),
                Some(board.to_string().as_str())
            );
            assert!(g.opening_moves.is_empty());
            assert_eq!(g.values.len(), g.moves.len() + 1);
            assert_eq!(*g.values.last().unwrap(), Some(g.score));
            let acc = accuracy(&game, g);
            assert_eq!(acc[0].judged + acc[1].judged, g.moves.len());
        }
    }
}
