//! `kalah match --rules bao`: two settings of Bao's anytime analysis (or it and a program
//! speaking the engine protocol's Bao) play a match from random openings with the colours
//! swapped; the score with its error bar, the games as JSON lines. The match itself is
//! [`kalah_analysis::matches::bao`].

use std::io::Write;
use std::time::Duration;

use kalah_analysis::matches::bao::{run_match, BaoSearchPlayer};
use kalah_analysis::matches::{Bao, Player};
use kalah_analysis::wire;
use kalah_solver::Limits;
use serde_json::Value;

use super::{finish, percent, score_json, DEFAULT_SECONDS};
use crate::analysis_io::{interrupt_flag, progress_bar};
use crate::args::{bao as bao_setup, PositionArgs};
use crate::error::CliError;

/// A player's limits: those given, else 0.1 s a move.
fn limits(time: Option<Duration>, nodes: Option<u64>, depth: Option<u8>) -> Limits {
    let limits = Limits { time, nodes, depth };
    match limits.is_unbounded() {
        true => Limits::time(Duration::from_secs_f64(DEFAULT_SECONDS)),
        false => limits,
    }
}

/// Runs `kalah match --rules bao`.
pub fn run(args: &super::Args, out: &mut dyn Write) -> Result<(), CliError> {
    let start = PositionArgs {
        position: None,
        moves: None,
    };
    let (rules, _) = bao_setup(&args.rules, &start)?;
    let rules_text = rules.to_string();
    let output = args.common.games_output()?;
    let (one, two) = (&args.one, &args.two);
    let limits2 = limits(two.time2, two.nodes2, two.depth2);
    let mut a = BaoSearchPlayer::with_limits(limits(one.time1, one.nodes1, one.depth1));
    let mut b: Box<dyn Player<Bao>> = match args.common.engine2(limits2)? {
        Some(program) => Box::new(program),
        None => Box::new(BaoSearchPlayer::with_limits(limits2)),
    };
    let names = [a.name().to_string(), b.name().to_string()];
    let plan = args.common.plan(0);
    let bar = progress_bar(args.solver.quiet, plan.games.div_ceil(2) * 2, "games");
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
