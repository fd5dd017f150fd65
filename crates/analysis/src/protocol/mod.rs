//! The lines of the engine protocol: commands read into [`Command`], and the lines both
//! sides write (`rules`, `position`, `go`, `info`, `bestmove`; Bao's in [`bao`]), encoded
//! beside their decoders so that a driver ([`crate::matches`]) and a session of the
//! protocol ([`session`], what `kalah engine` runs) read each other. The lines know
//! nothing of a session.

pub mod bao;
pub mod clock;
pub mod session;

use std::fmt;
use std::time::Duration;

use kalah_core::bao::BaoRules;
use kalah_core::{
    Capture, End, Game, GrandSlam, Leftovers, Position, Preset, Rules, MAX_HOUSES, MAX_TOTAL_SEEDS,
};
use kalah_solver::{line, Analysis, Limits, RootTurn};

use crate::game::setup::RuleOptions;
pub use clock::GameClock;

/// The longest time limit a `go` takes, in seconds (about eleven days).
pub const MAX_SECONDS: f64 = 1e6;
/// The largest node limit a `go` takes.
pub const MAX_NODES: u64 = 1_000_000_000_000_000;
/// The most turns a `go ... multi N` shows (0 shows them all).
pub const MAX_MULTI: usize = 1000;

/// The rules a `rules` command asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RulesSpec {
    /// Options as on the command line (a preset and the options over it); the board
    /// size and the seeds may come from the position, as they do there.
    Options(RuleOptions),
    /// The exact rules, written as [`Rules`]'s one-line description
    /// (`Kalah(6,4) capture=standard end=row-empty leftovers=owner`).
    Exact(Rules),
    /// Bao la Kujifunza (`rules bao --houses N --seeds S`, the session's `session::bao`).
    Bao(BaoRules),
}

/// The limits and view of one `go`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Go {
    /// Where the analysis stops (none: when the value is exact, or at `stop`).
    pub limits: Limits,
    /// The turns shown in `info turn` lines: 1 none beyond the best, 0 every turn.
    pub multi: usize,
    /// The game clock (`stime`, `ntime`, `sinc`, `ninc`, `movestogo`): the move's time
    /// comes from it ([`GameClock::plan`]).
    pub clock: Option<GameClock>,
    /// `go ponder`: think on the opponent's time until `ponderhit` or `stop`.
    pub ponder: bool,
}

impl Go {
    /// A `go` with `limits`, one line, no clock, not pondering.
    pub fn new(limits: Limits) -> Go {
        Go {
            limits,
            multi: 1,
            clock: None,
            ponder: false,
        }
    }
}

/// The longest remaining time or increment a clock word takes, in milliseconds (about
/// eleven days, as [`MAX_SECONDS`]).
pub const MAX_CLOCK_MS: u64 = 1_000_000_000;

/// One command of the protocol.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `hello`: the engine names itself, its protocol version and options.
    Hello,
    /// `isready`: answered `readyok` at once, even during a `go`.
    IsReady,
    /// `newgame`: forget what earlier analyses stored (a fresh table).
    NewGame,
    /// `rules ...`: the rules of the positions to come (the position goes back to the start).
    Rules(RulesSpec),
    /// `position start|BOARD [moves TURNS...]`.
    Position {
        /// The board (`None`: the start position of the rules).
        board: Option<String>,
        /// The turns played from it, in the move notation.
        moves: Vec<String>,
    },
    /// `go [time S] [nodes N] [depth D] [multi N] [stime MS] [ntime MS] [sinc MS] [ninc MS]
    /// [movestogo N] [ponder]`.
    Go(Go),
    /// `ponderhit`: the opponent played the move pondered on; the search goes on, on the
    /// clock.
    PonderHit,
    /// `stop`: end the running `go` now (it still answers `bestmove`).
    Stop,
    /// `quit`: stop any `go` and end the session.
    Quit,
}

/// A line that is not a command the protocol knows, with the reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProtocolError(pub String);

impl fmt::Display for ProtocolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ProtocolError {}

/// The error for `what`, as an `Err`.
fn bad<T>(what: impl Into<String>) -> Result<T, ProtocolError> {
    Err(ProtocolError(what.into()))
}

/// Reads one line: `Ok(None)` for a blank line or a comment (`#` first).
pub fn parse(line: &str) -> Result<Option<Command>, ProtocolError> {
    let mut words = line.split_whitespace();
    let Some(word) = words.next() else {
        return Ok(None);
    };
    if word.starts_with('#') {
        return Ok(None);
    }
    let rest: Vec<&str> = words.collect();
    let none = |c: Command| -> Result<Option<Command>, ProtocolError> {
        if let Some(extra) = rest.first() {
            return bad(format!("`{word}` takes nothing after it, not `{extra}`"));
        }
        Ok(Some(c))
    };
    match word {
        "hello" => none(Command::Hello),
        "isready" => none(Command::IsReady),
        "newgame" => none(Command::NewGame),
        "stop" => none(Command::Stop),
        "ponderhit" => none(Command::PonderHit),
        "quit" => none(Command::Quit),
        "rules" => parse_rules(&rest).map(|r| Some(Command::Rules(r))),
        "position" => parse_position(&rest).map(Some),
        "go" => parse_go(&rest).map(|g| Some(Command::Go(g))),
        _ => bad(format!(
            "unknown command `{}` (known: hello, isready, newgame, rules, position, go, \
             ponderhit, stop, quit)",
            shortened(word)
        )),
    }
}

/// `word`, cut to its first 40 characters for an error message.
fn shortened(word: &str) -> String {
    match word.char_indices().nth(40) {
        Some((end, _)) => format!("{}...", &word[..end]),
        None => word.to_string(),
    }
}

/// The `rules` words of Bao: `bao` (or `--rules bao`), then `--houses N` (pits a row, 3
/// to 8; default 8) and `--seeds S` (default 2); any other option is refused.
pub fn parse_bao_rules(words: &[&str]) -> Result<BaoRules, ProtocolError> {
    let (mut pits, mut seeds) = (None, None);
    let mut i = 0;
    while i < words.len() {
        let w = words[i];
        match w {
            "bao" if i == 0 => i += 1,
            "--rules" if words.get(i + 1) == Some(&"bao") => i += 2,
            "--houses" | "--seeds" => {
                let v = words
                    .get(i + 1)
                    .ok_or_else(|| ProtocolError(format!("rules: {w} needs a value")))?;
                let n = v.parse::<usize>().map_err(|_| {
                    ProtocolError(format!("rules: {w} takes a whole number, not `{v}`"))
                })?;
                if w == "--houses" {
                    pits = Some(n);
                } else {
                    seeds = Some(n);
                }
                i += 2;
            }
            _ => {
                return Err(ProtocolError(format!(
                    "rules: `{w}` does not apply to bao: its options are --houses N (pits a \
                     row, 3 to 8) and --seeds S"
                )))
            }
        }
    }
    crate::game::setup::bao::rules(pits, seeds).map_err(|e| ProtocolError(format!("rules: {e}")))
}

/// Whether `rules` words ask for Bao: `bao` first, or `--rules bao`.
pub fn bao_requested(words: &[&str]) -> bool {
    words.first() == Some(&"bao") || words.windows(2).any(|w| w == ["--rules", "bao"])
}

/// `rules` words: a description with `(` ([`RulesSpec::Exact`]), else a preset name
/// and/or command-line options.
fn parse_rules(words: &[&str]) -> Result<RulesSpec, ProtocolError> {
    if words.is_empty() {
        return bad("`rules` needs a preset, options such as `--houses 4 --seeds 3`, or a description such as `Kalah(6,4) capture=standard`");
    }
    if bao_requested(words) {
        return parse_bao_rules(words).map(RulesSpec::Bao);
    }
    if words[0].contains('(') {
        return words
            .join(" ")
            .parse::<Rules>()
            .map(RulesSpec::Exact)
            .map_err(|e| ProtocolError(format!("rules: {e}")));
    }
    let mut o = RuleOptions::default();
    let mut i = 0;
    let value = |i: usize, name: &str| -> Result<&str, ProtocolError> {
        words
            .get(i + 1)
            .copied()
            .ok_or_else(|| ProtocolError(format!("rules: {name} needs a value")))
    };
    let rule = |e: kalah_core::RulesError| ProtocolError(format!("rules: {e}"));
    while i < words.len() {
        let w = words[i];
        let mut takes_value = true;
        match w {
            "--houses" => o.houses = Some(small_number(value(i, w)?, w)?),
            "--seeds" => o.seeds = Some(small_number(value(i, w)?, w)?),
            "--rules" => o.preset = value(i, w)?.parse::<Preset>().map_err(rule)?,
            "--capture" => o.capture = Some(value(i, w)?.parse::<Capture>().map_err(rule)?),
            "--end" => o.end = Some(value(i, w)?.parse::<End>().map_err(rule)?),
            "--leftovers" => o.leftovers = Some(value(i, w)?.parse::<Leftovers>().map_err(rule)?),
            "--grand-slam" => o.grand_slam = Some(value(i, w)?.parse::<GrandSlam>().map_err(rule)?),
            "--early-stop" | "--no-early-stop" => {
                o.early_stop = Some(w == "--early-stop");
                takes_value = false;
            }
            _ if i == 0 && !w.starts_with('-') => {
                o.preset = w.parse::<Preset>().map_err(rule)?;
                takes_value = false;
            }
            _ => return bad(format!("rules: unknown option `{w}`")),
        }
        i += if takes_value { 2 } else { 1 };
    }
    Ok(RulesSpec::Options(o))
}

/// A board size (1 to [`MAX_HOUSES`] houses) or seeds per house (1 to half of
/// [`MAX_TOTAL_SEEDS`], the most one house a side can start with; the rules check the
/// total): the range is the library's, said in the error.
fn small_number(s: &str, name: &str) -> Result<u8, ProtocolError> {
    let (most, why) = match name {
        "--houses" => (MAX_HOUSES, String::new()),
        _ => (
            MAX_TOTAL_SEEDS / 2,
            format!(" (at most {MAX_TOTAL_SEEDS} seeds on the board)"),
        ),
    };
    match s.parse::<usize>() {
        Ok(n) if (1..=most).contains(&n) => Ok(n as u8),
        _ => bad(format!(
            "rules: {name} takes a number from 1 to {most}{why}, not `{s}`"
        )),
    }
}

/// `position` words: `start` or a board, then optionally `moves` and turns.
fn parse_position(words: &[&str]) -> Result<Command, ProtocolError> {
    let Some(&first) = words.first() else {
        return bad("`position` needs `start` or a board such as 4,4,4,4,0,4,4,4,4,0:S");
    };
    let board = (first != "start").then(|| first.to_string());
    let moves = match words.get(1) {
        None => Vec::new(),
        Some(&"moves") => words[2..].iter().map(|t| t.to_string()).collect(),
        Some(w) => {
            return bad(format!(
                "position: expected `moves` after the board, not `{w}`"
            ))
        }
    };
    Ok(Command::Position { board, moves })
}

/// `go` words: pairs of a limit name and its value, and `ponder` alone.
fn parse_go(words: &[&str]) -> Result<Go, ProtocolError> {
    let mut go = Go::new(Limits::none());
    let mut i = 0;
    while i < words.len() {
        let name = words[i];
        if name == "ponder" {
            go.ponder = true;
            i += 1;
            continue;
        }
        let Some(&v) = words.get(i + 1) else {
            return bad(format!("go: `{name}` needs a value"));
        };
        i += 2;
        let number = |max: u64| -> Result<u64, ProtocolError> {
            match v.parse::<u64>() {
                Ok(n) if n <= max => Ok(n),
                _ => bad(format!(
                    "go: {name} takes a whole number up to {max}, not `{v}`"
                )),
            }
        };
        match name {
            "time" => {
                go.limits.time = Some(seconds(v).map_err(|e| ProtocolError(format!("go: {e}")))?)
            }
            "nodes" => match number(MAX_NODES)? {
                0 => return bad("go: nodes must be at least 1"),
                n => go.limits.nodes = Some(n),
            },
            "depth" => match number(Limits::MAX_DEPTH as u64)? {
                0 => return bad("go: depth must be at least 1"),
                d => go.limits.depth = Some(d as u8),
            },
            "multi" => go.multi = number(MAX_MULTI as u64)? as usize,
            "stime" | "ntime" | "sinc" | "ninc" => {
                let ms = Duration::from_millis(number(MAX_CLOCK_MS)?);
                let c = go.clock.get_or_insert_with(GameClock::default);
                match name {
                    "stime" => c.south = Some(ms),
                    "ntime" => c.north = Some(ms),
                    "sinc" => c.south_inc = ms,
                    _ => c.north_inc = ms,
                }
            }
            "movestogo" => match number(10_000)? {
                0 => return bad("go: movestogo must be at least 1"),
                n => go.clock.get_or_insert_with(GameClock::default).moves_to_go = Some(n as u32),
            },
            _ => {
                return bad(format!(
                    "go: unknown limit `{name}` (known: time, nodes, depth, multi, stime, \
                     ntime, sinc, ninc, movestogo, ponder)"
                ))
            }
        }
    }
    Ok(go)
}

/// A time limit in seconds: more than 0, at most [`MAX_SECONDS`] (decimals allowed).
pub fn seconds(v: &str) -> Result<Duration, String> {
    match v.trim().parse::<f64>() {
        Ok(s) if s.is_finite() && s > 0.0 && s <= MAX_SECONDS => Ok(Duration::from_secs_f64(s)),
        _ => Err(format!(
            "time takes seconds above 0 and at most {MAX_SECONDS}, not `{v}`"
        )),
    }
}

/// The `rules` line that sets exactly `rules`.
pub fn rules_line(rules: &Rules) -> String {
    format!("rules {rules}")
}

/// The `rules` line that sets the Bao rules `rules`.
pub fn bao_rules_line(rules: &BaoRules) -> String {
    format!(
        "rules bao --houses {} --seeds {}",
        rules.pits(),
        rules.seeds()
    )
}

/// The `position` line of `board` (`None`: the start) with `moves` played.
pub fn position_line(board: Option<&Position>, moves: &[String]) -> String {
    let mut line = match board {
        None => "position start".to_string(),
        Some(p) => format!("position {p}"),
    };
    if !moves.is_empty() {
        line.push_str(" moves ");
        line.push_str(&moves.join(" "));
    }
    line
}

/// The `go` line of `go`.
pub fn go_line(go: &Go) -> String {
    let mut line = "go".to_string();
    if let Some(t) = go.limits.time {
        line.push_str(&format!(" time {}", t.as_secs_f64()));
    }
    if let Some(n) = go.limits.nodes {
        line.push_str(&format!(" nodes {n}"));
    }
    if let Some(d) = go.limits.depth {
        line.push_str(&format!(" depth {d}"));
    }
    if go.multi != 1 {
        line.push_str(&format!(" multi {}", go.multi));
    }
    if let Some(c) = go.clock.filter(|c| !c.words().is_empty()) {
        line.push(' ');
        line.push_str(&c.words());
    }
    if go.ponder {
        line.push_str(" ponder");
    }
    line
}

/// `yes` or `no`.
fn yes(b: bool) -> &'static str {
    if b {
        "yes"
    } else {
        "no"
    }
}

/// The `info` line of one report: values for the side to move, time in milliseconds.
pub fn info_line(game: &Game, a: &Analysis) -> String {
    format!(
        "info depth {} eval {} lower {} upper {} exact {} nodes {} nps {} time {} pv {}",
        a.depth,
        a.eval,
        a.proven.lower,
        a.proven.upper,
        yes(a.is_exact()),
        a.nodes,
        a.nodes_per_second().round() as u64,
        a.elapsed.as_millis(),
        line::notations(game.houses(), &a.pv).join(" ")
    )
}

/// The `info turn` line of the `rank`-th best root turn (1 first).
pub fn turn_line(game: &Game, rank: usize, t: &RootTurn) -> String {
    format!(
        "info turn {rank} move {} depth {} eval {} lower {} upper {} exact {}",
        t.turn.notation(game.houses()),
        t.depth,
        t.eval,
        t.proven.lower,
        t.proven.upper,
        yes(t.is_exact())
    )
}

/// The `bestmove` line: the turn, or `none` where the game is over.
pub fn bestmove_line(game: &Game, a: &Analysis) -> String {
    match a.best_turn() {
        Some(t) => format!("bestmove {}", t.notation(game.houses())),
        None => "bestmove none".to_string(),
    }
}

/// Reads a `bestmove` line: `Some(Some(turn))`, `Some(None)` for `bestmove none`, `None`
/// for any other line.
pub fn parse_bestmove(line: &str) -> Option<Option<String>> {
    let mut words = line.split_whitespace();
    if words.next()? != "bestmove" {
        return None;
    }
    match words.next() {
        None | Some("none") => Some(None),
        Some(turn) => Some(Some(turn.to_string())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn command(line: &str) -> Command {
        parse(line).unwrap().unwrap()
    }

    fn error(line: &str) -> String {
        parse(line).unwrap_err().0
    }

    #[test]
    fn bao_rules_take_the_board_size_and_seeds_only() {
        assert_eq!(parse_bao_rules(&["bao"]).unwrap(), BaoRules::standard());
        let r = parse_bao_rules(&["--rules", "bao", "--houses", "4", "--seeds", "1"]).unwrap();
        assert_eq!((r.pits(), r.seeds()), (4, 1));
        assert!(bao_requested(&["bao", "--houses", "4"]));
        assert!(bao_requested(&["--houses", "4", "--rules", "bao"]));
        assert!(!bao_requested(&["kalah", "--houses", "4"]));
        for bad in [
            &["bao", "--capture", "empty"][..],
            &["bao", "--houses"],
            &["bao", "--houses", "x"],
            &["bao", "--houses", "9"],
            &["bao", "--seeds", "0"],
        ] {
            assert!(parse_bao_rules(bad).is_err(), "{bad:?}");
        }
        let line = bao_rules_line(&r);
        let words: Vec<&str> = line.split_whitespace().skip(1).collect();
        assert_eq!(parse_bao_rules(&words).unwrap(), r);
    }

    #[test]
    fn blank_lines_and_comments_are_no_command() {
        assert_eq!(parse("   ").unwrap(), None);
        assert_eq!(parse("# a note").unwrap(), None);
    }

    #[test]
    fn the_words_without_arguments_take_nothing_more() {
        assert_eq!(command("hello"), Command::Hello);
        assert_eq!(command(" isready "), Command::IsReady);
        assert_eq!(command("stop"), Command::Stop);
        assert_eq!(command("quit"), Command::Quit);
        assert_eq!(command("newgame"), Command::NewGame);
        assert_eq!(command("ponderhit"), Command::PonderHit);
        assert!(error("stop now").contains("takes nothing"));
        assert!(error("fly").contains("unknown command `fly`"));
        let long = "x".repeat(10_000);
        assert!(error(&long).len() < 200);
    }

    #[test]
    fn rules_are_options_a_preset_or_an_exact_description() {
        let Command::Rules(RulesSpec::Options(o)) =
            command("rules oware --houses 4 --seeds 3 --no-early-stop")
        else {
            panic!("options expected");
        };
        assert_eq!(
            (o.preset, o.houses, o.seeds, o.early_stop),
            (Preset::Oware, Some(4), Some(3), Some(false))
        );
        let Command::Rules(RulesSpec::Options(o)) = command("rules --capture empty") else {
            panic!("options expected");
        };
        assert_eq!(o.capture, Some(Capture::Empty));
        let rules = Rules::kalah(4, 3);
        assert_eq!(
            command(&rules_line(&rules)),
            Command::Rules(RulesSpec::Exact(rules))
        );
        assert!(error("rules").contains("needs a preset"));
        assert!(error("rules --houses").contains("needs a value"));
        // The ranges are the library's: 8 houses at most, 255 seeds on the board.
        let houses = error("rules --houses 0");
        assert!(
            houses.contains("--houses takes a number from 1 to 8,"),
            "{houses}"
        );
        assert!(error("rules --houses 9").contains("from 1 to 8"));
        let seeds = error("rules --seeds 0");
        assert!(
            seeds.contains("from 1 to 127 (at most 255 seeds"),
            "{seeds}"
        );
        assert!(error("rules --seeds 300").contains("from 1 to 127"));
        assert!(error("rules --capture sideways").contains("sideways"));
        assert!(error("rules --frobnicate 2").contains("unknown option"));
        assert!(error("rules Kalah(6,x)").starts_with("rules: "));
    }

    #[test]
    fn positions_are_the_start_or_a_board_with_moves() {
        assert_eq!(
            command("position start"),
            Command::Position {
                board: None,
                moves: vec![]
            }
        );
        assert_eq!(
            command("position 1,1,0,1,1,0:S moves 1 2-1"),
            Command::Position {
                board: Some("1,1,0,1,1,0:S".into()),
                moves: vec!["1".into(), "2-1".into()]
            }
        );
        assert!(error("position").contains("needs `start`"));
        assert!(error("position start 3").contains("expected `moves`"));
    }

    #[test]
    fn go_reads_every_limit_and_refuses_absurd_ones() {
        let Command::Go(go) = command("go time 0.5 nodes 1000 depth 9 multi 3") else {
            panic!("go expected");
        };
        assert_eq!(go.limits.time, Some(Duration::from_millis(500)));
        assert_eq!(
            (go.limits.nodes, go.limits.depth, go.multi),
            (Some(1000), Some(9), 3)
        );
        assert_eq!(command("go"), Command::Go(Go::new(Limits::none())));
        for line in [
            "go time -1",
            "go time 0",
            "go time nan",
            "go time 1e9",
            "go nodes 0",
            "go nodes -5",
            "go depth 0",
            "go depth 121",
            "go multi 100000",
            "go depth",
            "go speed 3",
            "go stime -5",
            "go stime 1.5",
            "go ntime",
            "go movestogo 0",
            "go sinc 1e12",
        ] {
            assert!(error(line).starts_with("go: "), "{line}: {}", error(line));
        }
    }

    #[test]
    fn go_lines_read_back_as_they_were_written() {
        let go = Go {
            multi: 0,
            ..Go::new(Limits {
                depth: Some(7),
                nodes: Some(5000),
                ..Limits::time(Duration::from_millis(250))
            })
        };
        assert_eq!(command(&go_line(&go)), Command::Go(go));
        let plain = Go::new(Limits::none());
        assert_eq!(go_line(&plain), "go");
        let clocked = Go {
            clock: Some(GameClock {
                south: Some(Duration::from_millis(120_000)),
                north: Some(Duration::from_millis(90_500)),
                south_inc: Duration::from_millis(1000),
                north_inc: Duration::from_millis(1000),
                moves_to_go: Some(12),
            }),
            ponder: true,
            ..plain
        };
        assert_eq!(
            go_line(&clocked),
            "go stime 120000 ntime 90500 sinc 1000 ninc 1000 movestogo 12 ponder"
        );
        assert_eq!(command(&go_line(&clocked)), Command::Go(clocked));
    }

    #[test]
    fn position_lines_read_back_as_they_were_written() {
        let start: Position = "1,1,0,1,1,0:S".parse().unwrap();
        let moves = vec!["2".to_string(), "4-5".to_string()];
        assert_eq!(
            command(&position_line(Some(&start), &moves)),
            Command::Position {
                board: Some(start.to_string()),
                moves
            }
        );
        assert_eq!(position_line(None, &[]), "position start");
    }

    #[test]
    fn bestmove_lines_give_the_turn_or_none() {
        assert_eq!(parse_bestmove("bestmove 3-6"), Some(Some("3-6".into())));
        assert_eq!(parse_bestmove("bestmove none"), Some(None));
        assert_eq!(parse_bestmove("info depth 3"), None);
    }
}
