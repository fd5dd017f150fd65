//! `kalah match`: two engine settings (or the engine and another program speaking the
//! engine protocol) play a match from varied openings with the colours swapped; the score
//! with its error bar, the games as JSON lines. The match itself, of either kind of game,
//! is [`kalah_analysis::matches::Match`] and its result
//! [`kalah_analysis::matches::report`], its players made by
//! [`kalah_analysis::matches::build`]; this file parses the options and renders.

use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

use kalah_analysis::matches::build::{BuildError, MatchEnd, PlayerSpec, ProgramSpec};
use kalah_analysis::matches::games;
use kalah_analysis::matches::openings::OpeningsChoice;
use kalah_analysis::matches::report::{progress_words, MatchReport};
use kalah_analysis::matches::solvers;
use kalah_analysis::matches::{ClockSpec, Match, MatchPlan};
use kalah_analysis::protocol::seconds;
use kalah_analysis::protocol::session::{self, EvaluationChoice};
use kalah_solver::Limits;

use crate::analysis_io::{interrupt_flag, interrupted, invalid, progress_bar};
use crate::args::{GameArgs, PositionArgs, RulesArgs};
use crate::error::CliError;
use crate::solving::{SetupSpinner, SolverArgs};

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
/// --openings book plays from the opening book's positions valued within a seed of 0,
/// --openings FILE from a file of positions (one a line; data/openings/ holds balanced
/// sets). --clock MINUTES+INCREMENT (or --clock1/--clock2 for one player) plays on a game
/// clock kept by the match: a player whose time runs out loses the game on time.
/// --ponder lets --engine2 think on the opponent's time (`go ponder`).
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
struct MatchArgs {
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

    /// Play from chosen openings instead of random ones: `book` (the opening book's
    /// positions valued within a seed of 0) or a FILE of positions, one a line as
    /// --position reads them (# comments; data/openings/ holds balanced sets), each twice
    /// with the colours swapped, in turn
    #[arg(long, value_name = "book|FILE")]
    openings: Option<String>,

    /// Both players on a game clock: MINUTES+INCREMENT (the increment in seconds, e.g.
    /// 2+1); a player whose time runs out loses on time
    #[arg(long, value_name = "M+I", value_parser = clock_spec)]
    clock: Option<ClockSpec>,

    /// Player 1 alone on a game clock (MINUTES+INCREMENT)
    #[arg(long, value_name = "M+I", value_parser = clock_spec, conflicts_with = "clock")]
    clock1: Option<ClockSpec>,

    /// Player 2 alone on a game clock (MINUTES+INCREMENT)
    #[arg(long, value_name = "M+I", value_parser = clock_spec, conflicts_with = "clock")]
    clock2: Option<ClockSpec>,

    /// Let --engine2 think on the opponent's time: `go ponder` on the reply its line
    /// expects after each of its moves, then `ponderhit` or `stop`
    #[arg(long, requires = "engine2")]
    ponder: bool,

    /// Player 2 is this program, speaking the engine protocol (its words split at blanks;
    /// e.g. "kalah engine --threads 1"), asked with player 2's limits
    #[arg(long, value_name = "COMMAND")]
    engine2: Option<String>,

    /// Games played at once, each by players of its own (and its own --engine2
    /// process): a match's time divided by N where N games' searches (N times each
    /// player's threads) have a core each. The games are scored as they end and kept in
    /// the games file as one game at a time keeps them
    #[arg(long, value_name = "N", default_value_t = 1,
          value_parser = clap::value_parser!(u64).range(1..=64))]
    concurrency: u64,

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
    json: bool,
}

impl MatchArgs {
    /// The plan of the match, with `exact_nodes` a position for its exact values.
    fn plan(&self, exact_nodes: u64) -> MatchPlan {
        MatchPlan {
            games: self.count as usize,
            opening_turns: self.opening_turns as usize,
            seed: self.seed,
            exact_nodes,
        }
    }

    /// The games file (`--games`), checked and locked before any game is played.
    fn games_output(&self) -> Result<Option<kalah_io::Output>, CliError> {
        let open = |path: &std::path::Path| {
            let checks = kalah_io::Checks::of(kalah_analysis::run::outputs::GAMES, self.force);
            kalah_io::Output::open_with(path, &checks)
        };
        Ok(self.games.as_deref().map(open).transpose()?)
    }

    /// Player 2 as the program of `--engine2`, where one is given.
    fn program(&self) -> Option<ProgramSpec> {
        self.engine2.as_ref().map(|command| ProgramSpec {
            command: command.clone(),
            move_timeout: self.move_timeout,
            ponder: self.ponder,
        })
    }

    /// Player 1's and player 2's clocks.
    fn clocks(&self) -> [Option<ClockSpec>; 2] {
        [self.clock.or(self.clock1), self.clock.or(self.clock2)]
    }

    /// The chosen openings (`--openings`), set on every table of the match; where they
    /// came from, in words.
    fn set_openings(&self, tables: &mut [Match]) -> Result<Option<String>, CliError> {
        let Some(choice) = self.openings.as_deref().map(OpeningsChoice::parse) else {
            return Ok(None);
        };
        let rules = tables.first().and_then(Match::sowing_rules);
        let (boards, words) = choice.boards(rules.as_ref()).map_err(invalid)?;
        for m in tables {
            m.set_openings(&boards)
                .map_err(|e| invalid(format!("--openings: {e}")))?;
        }
        Ok(Some(words))
    }
}

/// A clock option's value.
fn clock_spec(text: &str) -> Result<ClockSpec, String> {
    text.parse()
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
    #[arg(long, value_name = "NAME", default_value = "default", value_parser = session::evaluation_named)]
    evaluation1: EvaluationChoice,
    /// Player 1's search threads
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=1024))]
    threads1: u32,
}

impl PlayerOne {
    /// Player 1's settings.
    fn spec(&self) -> PlayerSpec<EvaluationChoice> {
        let limits = Limits {
            time: self.time1,
            nodes: self.nodes1,
            depth: self.depth1,
        };
        PlayerSpec::new(limits, self.evaluation1, self.threads1)
    }
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
    #[arg(long, value_name = "NAME", default_value = "default", value_parser = session::evaluation_named)]
    evaluation2: EvaluationChoice,
    /// Player 2's search threads
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=1024))]
    threads2: u32,
}

impl PlayerTwo {
    /// Player 2's settings.
    fn spec(&self) -> PlayerSpec<EvaluationChoice> {
        let limits = Limits {
            time: self.time2,
            nodes: self.nodes2,
            depth: self.depth2,
        };
        PlayerSpec::new(limits, self.evaluation2, self.threads2)
    }
}

/// Runs `kalah match`.
pub fn run(args: &Args, out: &mut dyn Write) -> Result<(), CliError> {
    let game = GameArgs {
        rules: args.rules.clone(),
        position: PositionArgs {
            position: None,
            moves: None,
        },
    };
    let board = game.board()?;
    let output = args.common.games_output()?;
    let clocks = args.common.clocks();
    let specs = [
        args.one.spec().on_clock(clocks[0]),
        args.two.spec().on_clock(clocks[1]),
    ];
    let program = args.common.program();
    let setup = SetupSpinner::of(&args.solver);
    let solving = args.solver.solving(&setup);
    let exact_nodes = args.exact_nodes;
    let table = || {
        solvers::board_match(
            &solving,
            board.clone(),
            &specs,
            program.as_ref(),
            exact_nodes,
        )
        .map_err(|e| match e {
            BuildError::Solver(e) => CliError::from(e),
            BuildError::Program(e) => invalid(format!("--engine2: {e}")),
        })
    };
    let mut tables = (0..args.common.concurrency)
        .map(|_| table())
        .collect::<Result<Vec<Match>, CliError>>()?;
    let openings = args.common.set_openings(&mut tables)?;
    let m = &tables[0];
    let (names, rules_text) = (m.names(), m.rules_text());
    let plan = args.common.plan(args.exact_nodes);
    let bar = progress_bar(args.solver.quiet, plan.games_to_play(), "games");
    let outcome = Match::play_together(&mut tables, &plan, interrupt_flag(), &mut |_, score| {
        bar.set_message(progress_words(score));
        bar.inc(1);
    });
    bar.finish_and_clear();
    if let Some(output) = &output {
        let text = games::write_games(&rules_text, &names, &outcome.games);
        output.replace(text.as_bytes())?;
    }
    let report = MatchReport::new(&tables[0], &plan, &outcome).with_openings(openings);
    match args.common.json {
        true => writeln!(out, "{}", report.json())?,
        false => write!(out, "{}", report.text())?,
    }
    let stopped = interrupt_flag().load(std::sync::atomic::Ordering::Relaxed);
    let played = outcome.games.len();
    match MatchEnd::of(
        outcome.failure.as_ref(),
        &names,
        played,
        plan.games,
        stopped,
    ) {
        MatchEnd::Played => Ok(()),
        MatchEnd::Failed(words) => Err(invalid(words)),
        MatchEnd::Interrupted(words) => Err(interrupted(&words)),
    }
}
