//! Bao la Kujifunza on the analysis board (docs/serve.md, section Bao; the game in
//! docs/bao.md): what is Bao's own. With `rules=bao`, its parameters (not those of the
//! sowing games) are read here; the request is set up by the game floor's
//! [`Line`](kalah_analysis::game::Line) like any other; `/api/position` answers with Bao's
//! JSON (the four rows, the side to move, the legal moves, who has won) and
//! `/api/analyse` streams its analysis (module `analysis`).

mod analysis;

use std::collections::HashMap;

use std::time::Duration;

use axum::http::StatusCode;
use axum::response::Response;
use kalah_analysis::game::setup::bao::{self as bao_setup, end_words, BaoSetup};
use kalah_analysis::game::setup::RuleOptions;
use kalah_core::bao::{BaoMove, BaoPosition, BaoRules, Row};
use kalah_core::Side;
use serde_json::{json, Value};

use super::params::BadRequest;
use super::{event_stream, ApiError, App};

/// True when the parameters ask for Bao (`rules=bao`): the endpoints answer for its board.
pub fn asked(params: &HashMap<String, String>) -> bool {
    params.get("rules").map(|r| r.trim()) == Some("bao")
}

/// The parameter names Bao takes (`pits` is another name for `houses`).
pub const NAMES: [&str; 6] = ["rules", "houses", "pits", "seeds", "position", "moves"];

/// Reads the parameters (names from [`NAMES`]; an empty value counts as absent) as `kalah
/// show --rules bao` reads its options: the board from `houses` (or `pits`) and `seeds`,
/// the `position` and the `moves`, for [`Line::set_up`](kalah_analysis::game::Line::set_up)
/// with `rules=bao`.
pub fn options(
    params: &HashMap<String, String>,
) -> Result<(RuleOptions, Option<&str>, Option<&str>), BadRequest> {
    if let Some(name) = params.keys().find(|k| !NAMES.contains(&k.as_str())) {
        return Err(BadRequest(format!(
            "unknown parameter `{name}`: the parameters of Bao are {}",
            NAMES.join(", ")
        )));
    }
    let get = |name: &str| params.get(name).map(|v| v.trim()).filter(|v| !v.is_empty());
    if get("houses").is_some() && get("pits").is_some() {
        return Err(BadRequest(
            "give the pits a row once, as houses or as pits, not both".to_string(),
        ));
    }
    let options = RuleOptions {
        houses: number(
            get("houses").or(get("pits")),
            "houses (pits a row)",
            "3 to 8",
        )?,
        seeds: number(get("seeds"), "seeds (a pit at the start)", "1 or more")?,
        ..RuleOptions::default()
    };
    Ok((options, get("position"), get("moves")))
}

/// A whole number parameter, if given (at most 255: any board past it is refused all the
/// same).
fn number(value: Option<&str>, name: &str, range: &str) -> Result<Option<u8>, BadRequest> {
    value
        .map(|v| {
            v.parse::<u8>()
                .map_err(|_| BadRequest(format!("{name} is a whole number ({range}), not `{v}`")))
        })
        .transpose()
}

/// `S` or `N`.
fn letter(side: Side) -> String {
    side.letter().to_string()
}

/// South or North.
fn side_name(side: Side) -> &'static str {
    match side {
        Side::South => "South",
        Side::North => "North",
    }
}

/// The row letter of a move as the notation writes it: `A`, `B` (South), `a`, `b`.
fn row_letter(mv: &BaoMove) -> &'static str {
    match (mv.side, mv.row) {
        (Side::South, Row::Front) => "A",
        (Side::South, Row::Back) => "B",
        (Side::North, Row::Front) => "a",
        (Side::North, Row::Back) => "b",
    }
}

/// One move, as the API describes it.
fn move_json(mv: &BaoMove, wins: bool, after: &BaoPosition) -> Value {
    json!({
        "move": mv.to_string(),
        "side": letter(mv.side),
        "row": row_letter(mv),
        "pit": mv.pit,
        "dir": mv.dir.sign().to_string(),
        "wins": wins,
        "after": after.to_string(),
    })
}

/// The board in force.
fn rules_json(rules: &BaoRules) -> Value {
    json!({
        "name": "bao",
        "text": format!(
            "Bao la Kujifunza, 4 rows of {} pits, {} seeds a pit at the start",
            rules.pits(),
            rules.seeds()
        ),
        "pits": rules.pits(),
        "seeds": rules.seeds(),
    })
}

/// The answer of `/api/position?rules=bao`: the board, the line played and the position
/// reached, with its four rows (top to bottom as `kalah show --rules bao` draws them:
/// North's back row `b_N..b_1`, North's front row `a_N..a_1`, South's front row
/// `A_1..A_N`, South's back row `B_1..B_N`) and its legal moves in canonical order.
pub fn position_json(s: &BaoSetup) -> Value {
    let pos = &s.pos;
    let over = bao_setup::is_over(pos);
    let legal: Vec<Value> = match pos.is_over() {
        true => Vec::new(),
        false => pos
            .legal()
            .iter()
            .map(|c| move_json(&c.mv, c.wins, &c.next))
            .collect(),
    };
    let history: Vec<Value> = s
        .history
        .iter()
        .map(|p| move_json(&p.mv, p.wins, &p.after))
        .collect();
    json!({
        "rules": rules_json(&s.rules),
        "start": s.start.to_string(),
        "position": pos.to_string(),
        "rows": pos.text_rows(),
        "seeds": pos.seeds(),
        "side_to_move": letter(pos.side()),
        "over": over,
        "winner": over.then(|| letter(pos.side().other())),
        "end": over.then(|| end_words(pos)),
        "legal": legal,
        "history": history,
        "at_start": s.history.is_empty() && s.start == s.rules.start(),
    })
}

/// The server-sent events of one analysis of a Bao position (`/api/analyse?rules=bao`,
/// admitted by the caller: the page's token and the budget), counted toward the limit of
/// analyses like those of the sowing games.
pub fn analyse(app: &App, pos: BaoPosition, budget: Duration) -> Result<Response, ApiError> {
    let events = app
        .analyses
        .spawn({
            let analyses = app.analyses.clone();
            move |sink| analysis::run(&analyses, &pos, budget, sink)
        })
        .map_err(|e| ApiError(StatusCode::SERVICE_UNAVAILABLE, e))?;
    Ok(event_stream(events))
}
