//! The analysis behind `/api/analyse?rules=bao`: the exact solver of small boards first
//! (`kalah_analysis::game::bao_solve::bao_solve_quick`: the graphs of at most
//! [`BAO_QUICK_LIMIT`] positions, so that it answers within a fraction of a second or gives
//! up as fast), else the anytime search
//! (`kalah_solver::bao_search`) within the request's time budget, each completed depth
//! sent as a `depth` event.
//!
//! What is proven and what is a guess stay apart in every event: `exact` is true only
//! where the value is proven (the solver's value, a win or loss the search found, a game
//! already over); the search's evaluations are heuristic points, 100 a seed. The analysis
//! runs on a thread of [`Analyses::spawn`], takes a slot of the limit before it solves,
//! and polls the analysis's cancel flag (the client went away, a newer analysis took its
//! place, the server stops).

use std::sync::atomic::Ordering::Relaxed;
use std::time::{Duration, Instant};

use kalah_analysis::game::bao_solve::{bao_solve_quick, QuickMiss, BAO_QUICK_LIMIT};
use kalah_core::bao::{BaoMove, BaoPosition};
use kalah_core::Side;
use kalah_solver::bao::{BaoSolved, Value as Wld};
use kalah_solver::bao_search::{self, Outcome};
use kalah_solver::Limits;
use kalah_solver::{Analysis, ScoreBound};
use serde_json::{json, Value};

use super::{end_words, letter, side_name};
use crate::analysis::{Analyses, Sink, CANCELLED};

/// Analyses `pos` (the events of docs/serve.md, section Bao): `moves`, then `status`,
/// then `done` from the exact solver, or `depth` events and `done` from the search given
/// `budget`; an error (cancelled included) is the caller's `error` event.
pub fn run(
    analyses: &Analyses,
    pos: &BaoPosition,
    budget: Duration,
    sink: &Sink,
) -> Result<(), String> {
    let moves: Vec<String> = match pos.is_over() {
        true => Vec::new(),
        false => pos.legal().moves().map(|m| m.to_string()).collect(),
    };
    sink.send(
        "moves",
        json!({ "position": pos.to_string(), "side_to_move": letter(pos.side()), "moves": moves }),
    );
    if kalah_analysis::game::setup::bao::is_over(pos) {
        sink.send("done", over_event(pos));
        return Ok(());
    }
    let _slot = analyses.slot(sink)?;
    let timer = Instant::now();
    sink.status(&format!(
        "solving exactly (if its game has at most {BAO_QUICK_LIMIT} positions)"
    ));
    let why = match bao_solve_quick(pos, sink.cancel()) {
        Ok(solved) => {
            sink.send("done", solved_event(pos, &solved, timer, budget));
            return Ok(());
        }
        Err(QuickMiss::Cancelled) => return Err(CANCELLED.to_string()),
        Err(QuickMiss::Unsolved(why)) => why,
    };
    sink.status(&format!(
        "not solved exactly ({why}): searching for {} s; evaluations are heuristic unless \
         a win or a loss is proven",
        budget.as_secs_f64()
    ));
    let last = bao_search::analyse(pos, &Limits::time(budget), sink.cancel(), &mut |a| {
        sink.send("depth", search_event(a, budget))
    });
    if sink.cancel().load(Relaxed) {
        return Err(CANCELLED.to_string());
    }
    let mut done = search_event(&last, budget);
    done["over"] = json!(false);
    sink.send("done", done);
    Ok(())
}

/// A result proven by the search, for the side `mover` to move: the winner, within how
/// many moves (of both players), in words. Null when nothing is proven.
fn outcome_json(mover: Side, outcome: Option<Outcome>) -> Value {
    let (winner, moves) = match outcome {
        Some(Outcome::Won { moves }) => (mover, moves),
        Some(Outcome::Lost { moves }) => (mover.other(), moves),
        None => return Value::Null,
    };
    json!({
        "winner": letter(winner),
        "moves": moves,
        "text": format!("{} wins within {moves} moves", side_name(winner)),
    })
}

/// An exact value of the solver, for the side `mover` to move: the winner (null for a
/// draw), in how many moves against best defence, in words.
fn value_json(mover: Side, value: Wld) -> Value {
    let (winner, moves) = match value {
        Wld::Win(d) => (mover, d),
        Wld::Loss(d) => (mover.other(), d),
        Wld::Draw => {
            return json!({
                "winner": null, "moves": null,
                "text": "a draw: best play repeats for ever",
            })
        }
    };
    json!({
        "winner": letter(winner),
        "moves": moves,
        "text": format!("{} wins in {moves} moves", side_name(winner)),
    })
}

/// +1 where South has won, -1 where North has, 0 for a draw or nothing proven.
fn from_south(result: &Value) -> Value {
    match result["winner"].as_str() {
        Some("S") => json!(1),
        Some("N") => json!(-1),
        _ if result.is_null() => Value::Null,
        _ => json!(0),
    }
}

/// One report of the search (a `depth` event, and the last one's `done`): the depth, the
/// heuristic evaluation (from South and for the mover), what is proven, the best move and
/// line, every move best first (its evaluation from South and for the mover, whether it
/// is the depth's value or an upper bound of it, its depth and what is proven of it), the
/// work.
fn search_event(a: &Analysis<BaoMove>, budget: Duration) -> Value {
    let side = a.side;
    let moves: Vec<Value> = a
        .turns
        .iter()
        .map(|t| {
            json!({
                "move": t.turn.to_string(),
                "eval": side.sign() * t.eval,
                "eval_mover": t.eval,
                "bound": match t.bound { ScoreBound::Exact => "exact", ScoreBound::Upper => "upper" },
                "depth": t.depth,
                "exact": t.proven.is_some(),
                "outcome": outcome_json(side, t.proven),
            })
        })
        .collect();
    let result = outcome_json(side, a.proven);
    json!({
        "method": "search",
        "exact": a.proven.is_some(),
        "over": false,
        "value": from_south(&result),
        "outcome": result,
        "depth": a.depth,
        "eval": a.eval_from_south(),
        "eval_mover": a.eval,
        "best_turn": a.best_turn().map(|m| m.to_string()),
        "pv": a.pv.iter().map(|m| m.to_string()).collect::<Vec<_>>(),
        "moves": moves,
        "nodes": a.nodes,
        "positions": null,
        "seconds": a.elapsed.as_secs_f64(),
        "budget": budget.as_secs_f64(),
    })
}

/// The `done` event of an exact solve: the value, the best move and line to the end of
/// the game (or to a repetition, for a draw), every move's value best first.
fn solved_event(pos: &BaoPosition, solved: &BaoSolved, timer: Instant, budget: Duration) -> Value {
    let side = pos.side();
    let mut values = solved.move_values(pos).unwrap_or_default();
    values.sort_by_key(|(_, v)| std::cmp::Reverse(v.rank()));
    let moves: Vec<Value> = values
        .iter()
        .map(|(m, v)| {
            json!({
                "move": m.to_string(), "eval": null, "eval_mover": null,
                "bound": "exact", "depth": null, "exact": true, "outcome": value_json(side, *v),
            })
        })
        .collect();
    let result = solved
        .value(pos)
        .map_or(Value::Null, |v| value_json(side, v));
    json!({
        "method": "solver",
        "exact": !result.is_null(),
        "over": false,
        "value": from_south(&result),
        "outcome": result,
        "depth": null,
        "eval": null,
        "eval_mover": null,
        "best_turn": solved.best_move(pos).map(|(m, _)| m.to_string()),
        "pv": solved.line(pos).iter().map(|m| m.to_string()).collect::<Vec<_>>(),
        "moves": moves,
        "nodes": null,
        "positions": solved.stats().positions,
        "seconds": timer.elapsed().as_secs_f64(),
        "budget": budget.as_secs_f64(),
    })
}

/// The `done` event of a game already over: the winner, nothing to play.
fn over_event(pos: &BaoPosition) -> Value {
    let winner = pos.side().other();
    let result = json!({ "winner": letter(winner), "moves": 0, "text": end_words(pos) });
    json!({
        "method": "over", "exact": true, "over": true,
        "value": from_south(&result), "outcome": result,
        "depth": null, "eval": null, "eval_mover": null,
        "best_turn": null, "pv": [], "moves": [],
        "nodes": null, "positions": null, "seconds": 0.0, "budget": null,
    })
}
