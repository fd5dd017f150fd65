//! `kalah match --rules bao`: two settings of Bao's anytime analysis (or it and a program
//! speaking the engine protocol's Bao) play a match from random openings with the colours
//! swapped; the score with its error bar, the games as JSON lines. The match itself is
//! [`kalah_analysis::matches::bao`].

use std::io::Write;
use std::time::Duration;

use kalah_analysis::engine::command::seconds;
use kalah_analysis::matches::bao::{run_match, BaoSearchPlayer};
use kalah_analysis::matches::{Bao, Player};
use kalah_analysis::wire;
use kalah_solver::Limits;
use serde_json::Value;

use super::BaoArgs;
use crate::analysis_io::{interrupt_flag, invalid, progress_bar};
use crate::error::CliError;
use crate::r#match::{finish, percent, score_json};

/// The time per move of a player given no limit, in seconds.
const DEFAULT_SECONDS: f64 = 0.1;

/// Play a Bao match between two settings of the anytime analysis, or against a program
/// that speaks the engine protocol (docs/engine.md, `rules bao`), and report the score
/// with its error bar.
///
/// The openings are the positions after --opening-turns random moves from the start
/// (seeded by --seed), each played twice with the colours swapped. Each player moves
/// within its own limits (--time1/--nodes1/--depth1, the same with 2; 0.1 s a move when
/// none is given). A game ends when the mover's front row is empty or it cannot move (the
/// other player wins) or when a position comes back a third time (a draw); one still
/// going after 1000 moves is a draw, marked adjudicated. --games FILE keeps every game as
/// a JSON line. Ctrl-C stops after the game in progress and reports the games played.
///
/// Example: `kalah match --rules bao --houses 4 --count 20 --depth1 4 --depth2 2`
#[derive(clap::Args, Debug)]
pub struct BaoMatchArgs {
    #[command(flatten)]
    common: crate::r#match::MatchArgs,

    /// Player 1's time per move, in seconds
    #[arg(long, value_name = "SECONDS", value_parser = seconds)]
    time1: Option<Duration>,
    /// Player 1's nodes per move
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    nodes1: Option<u64>,
    /// Player 1's depth per move, in moves (1 to 120)
    #[arg(long, value_name = "D", value_parser = clap::value_parser!(u8).range(1..=120))]
    depth1: Option<u8>,

    /// Player 2's time per move, in seconds
    #[arg(long, value_name = "SECONDS", value_parser = seconds)]
    time2: Option<Duration>,
    /// Player 2's nodes per move
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    nodes2: Option<u64>,
    /// Player 2's depth per move, in moves (1 to 120)
    #[arg(long, value_name = "D", value_parser = clap::value_parser!(u8).range(1..=120))]
    depth2: Option<u8>,

    /// No progress display on standard error
    #[arg(long, short)]
    quiet: bool,

    #[command(flatten)]
    pub game: BaoArgs,
}

/// A player's limits (0.1 s a move when none is given) and its name for reports.
fn setting(time: Option<Duration>, nodes: Option<u64>, depth: Option<u8>) -> (Limits, String) {
    let mut limits = Limits { time, nodes, depth };
    if limits.is_unbounded() {
        limits = Limits::time(Duration::from_secs_f64(DEFAULT_SECONDS));
    }
    let mut parts = vec!["bao search".to_string()];
    if let Some(t) = limits.time {
        parts.push(format!("{} s", t.as_secs_f64()));
    }
    if let Some(n) = limits.nodes {
        parts.push(format!("{n} nodes"));
    }
    if let Some(d) = limits.depth {
        parts.push(format!("depth {d}"));
    }
    (limits, parts.join(", "))
}

/// Runs `kalah match --rules bao`.
pub fn run(args: &BaoMatchArgs, out: &mut dyn Write) -> Result<(), CliError> {
    if args.game.position.is_some() || args.game.moves.is_some() {
        return Err(invalid(
            "kalah match plays from the start of the board (its openings are random moves \
             from there): --position and --moves do not apply",
        ));
    }
    let (rules, _) = args.game.setup()?;
    let rules_text = rules.to_string();
    let output = args.common.games_output()?;
    let (limits1, name1) = setting(args.time1, args.nodes1, args.depth1);
    let (limits2, name2) = setting(args.time2, args.nodes2, args.depth2);
    let mut a = BaoSearchPlayer::new(name1, limits1);
    let mut b: Box<dyn Player<Bao>> = match args.common.engine2(limits2)? {
        Some(program) => Box::new(program),
        None => Box::new(BaoSearchPlayer::new(name2, limits2)),
    };
    let names = [a.name().to_string(), b.name().to_string()];
    let plan = args.common.plan(0);
    let bar = progress_bar(args.quiet, plan.games.div_ceil(2) * 2, "games");
    let mut outcome = run_match(
        &rules,
        &plan,
        &mut [&mut a, b.as_mut()],
        interrupt_flag(),
        &mut |_, score| {
            bar.set_message(format!("player 1 {}", percent(score)));
            bar.inc(1);
        },
    );
    bar.finish_and_clear();
    let failure = outcome.failure.take();
    if let Some(output) = &output {
        let text = wire::games::write_games(&rules_text, &names, &outcome.games);
        output.replace(text.as_bytes())?;
    }
    let s = &outcome.score;
    if args.common.json {
        writeln!(out, "{}", Value::Object(score_json(&rules_text, &names, s)))?;
    } else {
        args.common.write_score(&rules_text, &names, s, out)?;
    }
    finish(failure, &names, outcome.games.len(), plan.games)
}
