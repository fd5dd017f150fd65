//! `kalah match`: two engine settings (or the engine and another program speaking the
//! engine protocol) play a match from varied openings with the colours swapped; the score
//! with its error bar, the games as JSON lines. The match itself is
//! [`kalah_analysis::matches`]. With `--rules bao`, a match of Bao ([`bao`]).

mod bao;

use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

use kalah_analysis::engine::{self, command::seconds, EvaluationChoice, Go};
use kalah_analysis::matches::{
    accuracy, protocol::ProtocolPlayer, run_match, Accuracy, Failure, MatchOutcome, MatchPlan,
    Player, Score, SearchPlayer,
};
use kalah_analysis::wire::games;
use kalah_core::Game;
use kalah_solver::Limits;
use serde_json::{json, Value};

use crate::analysis_io::{interrupt_flag, interrupted, invalid, progress_bar};
use crate::args::{PositionArgs, RulesArgs};
use crate::engine::engine_solver;
use crate::error::CliError;
use crate::solving::SolverArgs;

/// The time per move of a player given no limit, in seconds.
const DEFAULT_SECONDS: f64 = 0.1;
/// The table size of the solver of the exact values, in MiB, unless --hash-mb says.
const EXACT_HASH_MB: u64 = 64;

/// Play a match between two engine settings, or against a program that speaks the engine
/// protocol (docs/engine.md), and report the score with its error bar.
///
/// The openings are the positions after --opening-turns random turns from the start
/// (seeded by --seed), each played twice with the colours swapped. Each player moves
/// within its own limits (--time1/--nodes1/--depth1, the same with 2; 0.1 s a move when
/// none is given), with its own evaluation and threads. The score is player 1's: wins,
/// draws, losses, the points, and a 95% interval from the variance of the pairs' points
/// (docs/matches.md). --games FILE keeps every game as a JSON line: the opening, the
/// turns, the result and the exact value of every position that --exact-nodes nodes
/// prove. Ctrl-C stops after the game in progress and reports the games played.
///
/// With --rules bao, a match of Bao between two settings of its anytime analysis (moves
/// for turns, depths in moves), or against a program speaking the protocol's `rules bao`:
/// from the start of the board, without evaluations, threads or exact values. A game ends
/// when the mover's front row is empty or it cannot move (the other player wins) or when a
/// position comes back a third time (a draw); one still going after 1000 moves is a draw,
/// marked adjudicated.
///
/// Example: `kalah match --houses 6 --seeds 6 --count 50 --nodes1 20000 --nodes2 5000` or
/// `kalah match --rules bao --houses 4 --count 20 --depth1 4 --depth2 2`
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    common: MatchArgs,

    #[command(flatten)]
    one: PlayerOne,

    #[command(flatten)]
    two: PlayerTwo,

    /// The node budget per position for the exact values in --games (0: none)
    #[arg(long, value_name = "N", default_value_t = 100_000)]
    exact_nodes: u64,

    #[command(flatten)]
    rules: RulesArgs,

    #[command(flatten)]
    solver: SolverArgs,
}

/// The options of every match, Bao's too: the games and their openings, player 2 as a
/// program, the games file and the output's form.
#[derive(clap::Args, Debug)]
pub(crate) struct MatchArgs {
    /// Games to play (an odd number is raised by one: every opening twice)
    #[arg(long, value_name = "N", default_value_t = 20,
          value_parser = clap::value_parser!(u64).range(1..=100_000))]
    count: u64,

    /// Random turns from the start in each opening (moves, in Bao)
    #[arg(long, value_name = "K", default_value_t = 2,
          value_parser = clap::value_parser!(u64).range(0..=40))]
    opening_turns: u64,

    /// The seed of the random openings
    #[arg(long, value_name = "S", default_value_t = 1)]
    seed: u64,

    /// Player 2 is this program, speaking the engine protocol (its words split at blanks;
    /// e.g. "kalah engine --threads 1"), asked with player 2's limits
    #[arg(long, value_name = "COMMAND")]
    engine2: Option<String>,

    /// The longest wait for a move of --engine2, in seconds
    #[arg(long, value_name = "SECONDS", default_value = "30", value_parser = seconds)]
    move_timeout: Duration,

    /// Write every game as one JSON line to FILE (atomically, at the end); an existing
    /// FILE that is not the games of a match is refused (docs/outputs.md)
    #[arg(long, value_name = "FILE")]
    games: Option<PathBuf>,

    /// Replace --games FILE whatever it holds (a file of another kind, a read-only file;
    /// a symbolic link itself, never its target)
    #[arg(long)]
    force: bool,

    /// Print the result as one JSON object instead of text
    #[arg(long)]
    pub(crate) json: bool,
}

impl MatchArgs {
    /// The plan of the match, with `exact_nodes` a position for its exact values.
    pub(crate) fn plan(&self, exact_nodes: u64) -> MatchPlan {
        MatchPlan {
            games: self.count as usize,
            opening_turns: self.opening_turns as usize,
            seed: self.seed,
            exact_nodes,
        }
    }

    /// The games file (`--games`), checked and locked before any game is played.
    pub(crate) fn games_output(&self) -> Result<Option<kalah_io::Output>, CliError> {
        let open = |path: &std::path::Path| {
            let checks = kalah_io::Checks::of(kalah_analysis::outputs::GAMES, self.force);
            kalah_io::Output::open_with(path, &checks)
        };
        Ok(self.games.as_deref().map(open).transpose()?)
    }

    /// Player 2 as the program of `--engine2`, asked with `limits`, where one is given.
    pub(crate) fn engine2(&self, limits: Limits) -> Result<Option<ProtocolPlayer>, CliError> {
        let Some(command) = &self.engine2 else {
            return Ok(None);
        };
        let go = Go { limits, multi: 1 };
        ProtocolPlayer::start(command, go, self.move_timeout)
            .map(Some)
            .map_err(|e| invalid(format!("--engine2: {e}")))
    }

    /// The result's text (the score, its interval and Elo) for the players `names`.
    pub(crate) fn write_score(
        &self,
        rules: &str,
        names: &[String; 2],
        s: &Score,
        out: &mut dyn Write,
    ) -> std::io::Result<()> {
        write_score(rules, names, s, self.opening_turns, self.seed, out)
    }
}

/// Player 1's settings.
#[derive(clap::Args, Debug)]
#[command(next_help_heading = "Player 1")]
struct PlayerOne {
    /// Player 1's time per move, in seconds
    #[arg(long, value_name = "SECONDS", value_parser = seconds)]
    time1: Option<Duration>,
    /// Player 1's nodes per move
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    nodes1: Option<u64>,
    /// Player 1's depth per move, in sowings (Bao: moves; 1 to 120)
    #[arg(long, value_name = "D", value_parser = clap::value_parser!(u8).range(1..=120))]
    depth1: Option<u8>,
    /// Player 1's evaluation: `default` (the learned one on standard Kalah of six houses,
    /// the store difference elsewhere), `store` (the store difference), `fitted` (fitted to
    /// exact values) or `learned` (the pattern evaluation of Kalah on six houses,
    /// docs/evaluation.md)
    #[arg(long, value_name = "NAME", default_value = "default", value_parser = engine::evaluation_named)]
    evaluation1: EvaluationChoice,
    /// Player 1's search threads
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=1024))]
    threads1: u32,
}

/// Player 2's settings.
#[derive(clap::Args, Debug)]
#[command(next_help_heading = "Player 2")]
struct PlayerTwo {
    /// Player 2's time per move, in seconds
    #[arg(long, value_name = "SECONDS", value_parser = seconds)]
    time2: Option<Duration>,
    /// Player 2's nodes per move
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    nodes2: Option<u64>,
    /// Player 2's depth per move, in sowings (Bao: moves; 1 to 120)
    #[arg(long, value_name = "D", value_parser = clap::value_parser!(u8).range(1..=120))]
    depth2: Option<u8>,
    /// Player 2's evaluation: `default` (the learned one on standard Kalah of six houses,
    /// the store difference elsewhere), `store` (the store difference), `fitted` (fitted to
    /// exact values) or `learned` (the pattern evaluation of Kalah on six houses,
    /// docs/evaluation.md)
    #[arg(long, value_name = "NAME", default_value = "default", value_parser = engine::evaluation_named)]
    evaluation2: EvaluationChoice,
    /// Player 2's search threads
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=1024))]
    threads2: u32,
}

/// One player's settings, whichever flags gave them.
struct Setting {
    limits: Limits,
    evaluation: EvaluationChoice,
    threads: u32,
}

impl Setting {
    fn new(
        time: Option<Duration>,
        nodes: Option<u64>,
        depth: Option<u8>,
        evaluation: EvaluationChoice,
        threads: u32,
    ) -> Setting {
        let mut limits = Limits { time, nodes, depth };
        if limits.is_unbounded() {
            limits = Limits::time(Duration::from_secs_f64(DEFAULT_SECONDS));
        }
        Setting {
            limits,
            evaluation,
            threads,
        }
    }

    /// A name for reports: `store, 0.1 s, 1 thread`.
    fn name(&self) -> String {
        let mut parts = vec![self.evaluation.name().to_string()];
        parts.extend(kalah_analysis::matches::limits_words(&self.limits));
        let s = if self.threads == 1 { "" } else { "s" };
        parts.push(format!("{} thread{s}", self.threads));
        parts.join(", ")
    }
}

/// The options `--rules bao` takes besides the board's ([`crate::args::check_game`]).
pub const BAO_OPTIONS: &[&str] = &[
    "count",
    "opening-turns",
    "seed",
    "engine2",
    "move-timeout",
    "games",
    "force",
    "json",
    "time1",
    "nodes1",
    "depth1",
    "time2",
    "nodes2",
    "depth2",
    "quiet",
];

/// Runs `kalah match`.
pub fn run(args: &Args, out: &mut dyn Write) -> Result<(), CliError> {
    if args.rules.bao() {
        return bao::run(args, out);
    }
    let (game, _) = crate::args::setup(
        &args.rules,
        &PositionArgs {
            position: None,
            moves: None,
        },
    )?;
    let output = args.common.games_output()?;
    let one = Setting::new(
        args.one.time1,
        args.one.nodes1,
        args.one.depth1,
        args.one.evaluation1,
        args.one.threads1,
    );
    let two = Setting::new(
        args.two.time2,
        args.two.nodes2,
        args.two.depth2,
        args.two.evaluation2,
        args.two.threads2,
    );
    let mut a = SearchPlayer::new(one.name(), search_solver(args, &game, &one)?, one.limits);
    let mut b: Box<dyn Player> = match args.common.engine2(two.limits)? {
        Some(program) => Box::new(program),
        None => Box::new(SearchPlayer::new(
            two.name(),
            search_solver(args, &game, &two)?,
            two.limits,
        )),
    };
    let names = [a.name().to_string(), b.name().to_string()];
    let exact = exact_solver(args, &game)?;
    let plan = args.common.plan(args.exact_nodes);
    let bar = progress_bar(args.solver.quiet, plan.games.div_ceil(2) * 2, "games");
    let stop = interrupt_flag();
    let mut outcome = run_match(
        &game,
        &plan,
        &mut [&mut a, b.as_mut()],
        exact.as_ref(),
        stop,
        &mut |_, score| {
            bar.set_message(format!("player 1 {}", percent(score)));
            bar.inc(1);
        },
    );
    bar.finish_and_clear();
    let failure = outcome.failure.take();
    if let Some(output) = &output {
        let rules = game.rules().to_string();
        output.replace(games::write_games(&rules, &names, &outcome.games).as_bytes())?;
    }
    report(args, &game, &names, &outcome, out)?;
    finish(failure, &names, outcome.games.len(), plan.games)
}

/// The exit of a match: an error when a player failed or Ctrl-C stopped it.
pub(crate) fn finish(
    failure: Option<Failure>,
    names: &[String; 2],
    played: usize,
    planned: usize,
) -> Result<(), CliError> {
    if let Some(f) = failure {
        return Err(invalid(format!(
            "the match stopped after {played} games: player {} ({}) failed: {}",
            f.player + 1,
            names[f.player],
            f.error
        )));
    }
    if interrupt_flag().load(std::sync::atomic::Ordering::Relaxed) && played < planned {
        return Err(interrupted(&format!(
            "the score covers the {played} games played"
        )));
    }
    Ok(())
}

/// The solver of a player of the engine's own.
fn search_solver(
    args: &Args,
    game: &Game,
    setting: &Setting,
) -> Result<kalah_solver::Solver, CliError> {
    engine_solver(
        &args.solver,
        game,
        Some(setting.threads),
        setting.evaluation,
    )
}

/// The solver of the exact values (one thread, a small table), if they are asked for.
fn exact_solver(args: &Args, game: &Game) -> Result<Option<kalah_solver::Solver>, CliError> {
    if args.exact_nodes == 0 {
        return Ok(None);
    }
    let mut solver_args = args.solver.clone();
    solver_args.hash_mb = Some(solver_args.hash_mb.unwrap_or(EXACT_HASH_MB));
    engine_solver(&solver_args, game, Some(1), EvaluationChoice::Store).map(Some)
}

/// `55.0% ± 6.1%`.
pub(crate) fn percent(score: &Score) -> String {
    match score.half_width95() {
        Some(hw) => format!("{:.1}% ± {:.1}%", 100.0 * score.mean(), 100.0 * hw),
        None => format!("{:.1}%", 100.0 * score.mean()),
    }
}

/// The result: the players, the score with its interval and Elo, the exact values known.
fn report(
    args: &Args,
    game: &Game,
    names: &[String; 2],
    outcome: &MatchOutcome,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let s = &outcome.score;
    let known: usize = outcome
        .games
        .iter()
        .map(|g| g.values.iter().filter(|v| v.is_some()).count())
        .sum();
    let positions: usize = outcome.games.iter().map(|g| g.values.len()).sum();
    let mut acc = [Accuracy::default(); 2];
    for g in &outcome.games {
        for (total, a) in acc.iter_mut().zip(accuracy(game, g)) {
            total.add(&a);
        }
    }
    if args.common.json {
        let mut v = score_json(&game.rules().to_string(), names, s);
        v.extend([
            (
                "exact_values".to_string(),
                json!({"known": known, "positions": positions}),
            ),
            (
                "accuracy".to_string(),
                json!(acc
                    .iter()
                    .map(|a| json!({
                        "judged": a.judged,
                        "mistakes": a.mistakes,
                        "seeds_lost": a.seeds_lost,
                    }))
                    .collect::<Vec<_>>()),
            ),
        ]);
        writeln!(out, "{}", Value::Object(v))?;
        return Ok(());
    }
    args.common
        .write_score(&game.rules().to_string(), names, s, out)?;
    if positions > 0 {
        writeln!(
            out,
            "exact values: {known} of the {positions} positions played proved within {} nodes",
            args.exact_nodes
        )?;
        for (k, a) in acc.iter().enumerate() {
            writeln!(
                out,
                "player {}: {} of {} turns judged by exact values lost value, {} seeds in all",
                k + 1,
                a.mistakes,
                a.judged,
                a.seeds_lost
            )?;
        }
    }
    Ok(())
}

/// The fields of a match's JSON result that every game has: the rules, the players and
/// the score with its interval and Elo.
pub(crate) fn score_json(
    rules: &str,
    names: &[String; 2],
    s: &Score,
) -> serde_json::Map<String, Value> {
    let v = json!({
        "rules": rules,
        "players": names,
        "games": s.played(),
        "wins": s.wins,
        "draws": s.draws,
        "losses": s.losses,
        "points": s.points(),
        "score": s.mean(),
        "interval95": s.half_width95(),
        "interval_from": if s.pairs.len() >= 2 { "pairs" } else { "games" },
        "elo": s.elo(),
    });
    match v {
        Value::Object(map) => map,
        _ => unreachable!("a JSON object"),
    }
}

/// The text of a match's result that every game has: the rules, the players, the games,
/// the score with its 95% interval and the Elo difference.
pub(crate) fn write_score(
    rules: &str,
    names: &[String; 2],
    s: &Score,
    opening_turns: u64,
    seed: u64,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    let from = if s.pairs.len() >= 2 { "pairs" } else { "games" };
    writeln!(out, "match: {rules}")?;
    writeln!(out, "player 1: {}", names[0])?;
    writeln!(out, "player 2: {}", names[1])?;
    writeln!(
        out,
        "games: {} ({} openings of {opening_turns} random turns, seed {seed}, each with both colours)",
        s.played(),
        s.played().div_ceil(2),
    )?;
    writeln!(
        out,
        "player 1: {} wins, {} draws, {} losses: {} of {} points = {} (95% interval from the {from})",
        s.wins,
        s.draws,
        s.losses,
        s.points(),
        s.played(),
        percent(s)
    )?;
    let bound = |e: Option<f64>, inf: &str| e.map_or(inf.to_string(), |e| format!("{e:+.0}"));
    if let Some(hw) = s.half_width95() {
        let lo = kalah_analysis::matches::score::elo((s.mean() - hw).max(0.0));
        let hi = kalah_analysis::matches::score::elo((s.mean() + hw).min(1.0));
        writeln!(
            out,
            "Elo difference: {} (95%: {} to {})",
            bound(s.elo(), "unbounded"),
            bound(lo, "-inf"),
            bound(hi, "+inf")
        )?;
    }
    Ok(())
}
