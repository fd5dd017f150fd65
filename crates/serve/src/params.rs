//! The parameters every endpoint takes (the rules, the start position, the moves), read
//! from a query string or a JSON object into the same [`RuleOptions`] the command line
//! fills and set up by the same [`setup`](kalah_analysis::game::setup::setup), so that the
//! server and the CLI accept exactly the same input; and the JSON descriptions of rules
//! and positions the API answers with.

use std::collections::HashMap;

use kalah_analysis::wire::rules;
use kalah_core::notation::{bin, format_move};
use kalah_core::{Capture, End, GrandSlam, Leftovers, Position, Preset, Side, Sowing, CLOCKWISE};
use serde_json::{json, Value};

use kalah_analysis::game::setup::{RuleOptions, SetupError};
use kalah_analysis::game::{BoardError, SowingLine};

/// The parameter names, in the order the API documentation lists them.
pub const NAMES: [&str; 10] = [
    "rules",
    "houses",
    "seeds",
    "capture",
    "end",
    "leftovers",
    "grand_slam",
    "early_stop",
    "position",
    "moves",
];

/// A bad parameter: the message says which and what it should be.
#[derive(Debug)]
pub struct BadRequest(pub String);

impl From<SetupError> for BadRequest {
    /// The command line's message, naming the parameters as the API does (`moves`, not
    /// `--moves`).
    fn from(e: SetupError) -> Self {
        let mut message = e.to_string();
        for (option, parameter) in [
            ("--early-stop", "early_stop=on"),
            ("--no-early-stop", "early_stop=off"),
            ("--grand-slam", "grand_slam"),
        ] {
            message = message.replace(option, parameter);
        }
        for name in NAMES {
            message = message.replace(&format!("--{name}"), name);
        }
        BadRequest(message)
    }
}

/// Reads the parameters (names from [`NAMES`]; an empty value counts as absent) into the
/// rule options, the position and the moves, for the game to be set up as the command
/// line would with the same options.
pub fn options(
    params: &HashMap<String, String>,
) -> Result<(RuleOptions, Option<&str>, Option<&str>), BadRequest> {
    if let Some(name) = params.keys().find(|k| !NAMES.contains(&k.as_str())) {
        return Err(BadRequest(format!(
            "unknown parameter `{name}`: the parameters are {}",
            NAMES.join(", ")
        )));
    }
    let get = |name: &str| params.get(name).map(|v| v.trim()).filter(|v| !v.is_empty());
    let early_stop = match get("early_stop") {
        None => None,
        Some("on" | "true") => Some(true),
        Some("off" | "false") => Some(false),
        Some(other) => {
            return Err(BadRequest(format!(
                "early_stop is `on` or `off` (or left out for the preset's), not `{other}`"
            )))
        }
    };
    let rules = RuleOptions {
        houses: number(get("houses"), "houses", "1 to 8")?,
        seeds: number(get("seeds"), "seeds", "1 to 255")?,
        preset: choice(get("rules"), "rules", &Preset::ALL.map(|(_, n)| n))?
            .unwrap_or(Preset::Kalah),
        capture: choice::<Capture>(get("capture"), "capture", &["standard", "empty"])?,
        end: choice::<End>(get("end"), "end", &["row-empty", "mover-stuck"])?,
        leftovers: choice::<Leftovers>(get("leftovers"), "leftovers", &["owner", "discard"])?,
        grand_slam: choice::<GrandSlam>(
            get("grand_slam"),
            "grand_slam",
            &["no-capture", "capture-all"],
        )?,
        early_stop,
    };
    Ok((rules, get("position"), get("moves")))
}

/// A whole number parameter, if given.
fn number(value: Option<&str>, name: &str, range: &str) -> Result<Option<u8>, BadRequest> {
    value
        .map(|v| {
            v.parse::<u8>()
                .map_err(|_| BadRequest(format!("{name} is a whole number ({range}), not `{v}`")))
        })
        .transpose()
}

/// A parameter with named values, if given.
fn choice<T: std::str::FromStr>(
    value: Option<&str>,
    name: &str,
    allowed: &[&str],
) -> Result<Option<T>, BadRequest> {
    let Some(v) = value else {
        return Ok(None);
    };
    match allowed.contains(&v).then(|| v.parse::<T>().ok()).flatten() {
        Some(parsed) => Ok(Some(parsed)),
        None => Err(BadRequest(format!(
            "{name} is one of {}, not `{v}`",
            allowed.join(", ")
        ))),
    }
}

impl From<BoardError> for BadRequest {
    /// The sowing game's refusal as [`SetupError`]'s, Bao's with its own message.
    fn from(e: BoardError) -> Self {
        match e {
            BoardError::Sowing(e) => e.into(),
            e => BadRequest(e.to_string()),
        }
    }
}

/// One sowing, as the API describes it.
fn sowing_json(h: usize, side: Side, mv: usize, how: Sowing, after: &Position) -> Value {
    json!({
        "move": format_move(h, side, mv),
        "side": side.letter().to_string(),
        "bin": bin(h, side, mv % CLOCKWISE),
        "clockwise": mv >= CLOCKWISE,
        "extra_turn": how == Sowing::ExtraTurn,
        "after": after.to_string(),
    })
}

/// The answer of `/api/position`: the rules, the line played and the position reached
/// with its legal sowings.
pub fn position_json(s: &SowingLine) -> Value {
    let (game, pos) = (&s.game, &s.pos);
    let h = game.houses();
    let side = pos.side_to_move();
    let row = |side: Side| (0..h).map(|j| pos.house(side, j)).collect::<Vec<_>>();
    let legal: Vec<Value> = game
        .legal_moves(pos)
        .map(|mv| {
            let (after, how) = game.sow(pos, mv);
            sowing_json(h, side, mv, how, &after)
        })
        .collect();
    let history: Vec<Value> = s
        .history
        .iter()
        .map(|p| sowing_json(h, p.side, p.mv, p.how, &p.after))
        .collect();
    json!({
        "rules": rules::to_json(game.rules()),
        "start": s.start.to_string(),
        "position": pos.to_string(),
        "south": row(Side::South),
        "north": row(Side::North),
        "south_store": pos.store(Side::South),
        "north_store": pos.store(Side::North),
        "side_to_move": side.letter().to_string(),
        "over": pos.is_over(),
        "result": pos.is_over().then(|| json!({
            "south": pos.store(Side::South),
            "north": pos.store(Side::North),
            "value": pos.score(),
        })),
        "legal": legal,
        "history": history,
        "at_start": s.at_start(),
        "after_first_turn": s.after_first_turn(),
    })
}

/// A short description of each preset, for the rules panel.
pub fn preset_description(preset: Preset) -> &'static str {
    match preset {
        Preset::Kalah => "Kalah: standard capture, the game ends when a row is empty",
        Preset::KalahEmpty => "Kalah with empty capture (a last seed in an empty own house captures even when the opposite house is empty)",
        Preset::Online => "the online rules: the game ends when the mover is stuck, or when a store holds more than half of the seeds",
        Preset::OnlineEmpty => "the online rules with empty capture",
        Preset::General => "General Kalah: no extra turns, no captures, only the stores count",
        Preset::Egyptian => "Egyptian Kalah: Kalah with empty capture",
        Preset::Nigerian => "Nigerian Kalah: relay sowing through both stores, fours captured",
        Preset::Ethiopian => "Ethiopian Kalah: Egyptian Kalah with the direction chosen each turn (positions repeat: retrograde analysis)",
        Preset::Oware => "Oware (abapa): twos and threes captured (positions repeat: retrograde analysis)",
    }
}

/// The answer of `/api/options`.
pub fn options_json() -> Value {
    let presets: Vec<Value> = Preset::ALL
        .iter()
        .map(|&(preset, name)| {
            json!({
                "name": name,
                "description": preset_description(preset),
                "rules": rules::to_json(&preset.rules(6, 4)),
            })
        })
        .collect();
    json!({
        "version": env!("CARGO_PKG_VERSION"),
        "max_houses": kalah_core::MAX_HOUSES,
        "max_total_seeds": kalah_core::MAX_TOTAL_SEEDS,
        "presets": presets,
        "options": {
            "capture": ["standard", "empty"],
            "end": ["row-empty", "mover-stuck"],
            "leftovers": ["owner", "discard"],
            "grand_slam": ["no-capture", "capture-all"],
        },
        "parameters": NAMES,
    })
}
