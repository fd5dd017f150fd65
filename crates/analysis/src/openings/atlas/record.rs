//! One board of the atlas as it is kept: its value (exact, or the interval proved), every
//! first turn's value or interval with its line, how and where it was made; what follows
//! from them (the status, the best turns, the pie rule's decisions and value); and the
//! files they are written to and read back from (`atlas.json`, `boards.csv`,
//! `first_turns.csv`), each writer beside its reader.

use std::fmt;
use std::str::FromStr;

use kalah_core::Rules;
use serde_json::{json, Value};

use crate::game::bounds::Bounds;
use crate::wire::csv_field;

/// The first field of `atlas.json`, naming its format: a file without it is no atlas.
pub const FORMAT: &str = "kalah atlas v1";

/// The header line of `boards.csv`.
pub const BOARDS_HEADER: &str = "houses,seeds,capture,family,value,lower,upper,status,\
best_turns,pie_value,pie_lower,pie_upper,pie_best_turns,turns,turns_exact,nodes,seconds,\
budget,finished,commit,machine,rules";

/// The header line of `first_turns.csv`.
pub const TURNS_HEADER: &str = "houses,seeds,capture,family,turn,value,lower,upper,exact,\
swap,first_player,first_player_lower,first_player_upper,pv,rules";

/// Where and how a board was solved.
#[derive(Clone, Debug, PartialEq)]
pub struct Made {
    /// The command line that solved it (`kalah atlas --houses 1..6 ...`).
    pub command: String,
    /// The program's version.
    pub version: String,
    /// The commit the program was built from, or `unknown`.
    pub commit: String,
    /// The machine.
    pub machine: Machine,
    /// The solves run at once (one search thread each).
    pub threads: usize,
    /// When the board was finished (`2026-12-07 06:12 UTC`).
    pub finished: String,
}

/// The machine a board was solved on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Machine {
    /// Its host name.
    pub hostname: String,
    /// Its processor's model name.
    pub cpu: String,
    /// The cores the program may use.
    pub cores: usize,
}

impl Machine {
    /// This machine, as the operating system tells it (`unknown` for what it does not).
    pub fn here() -> Machine {
        let read = |path: &str| std::fs::read_to_string(path).ok();
        let hostname = read("/proc/sys/kernel/hostname")
            .or_else(|| read("/etc/hostname"))
            .map(|h| h.trim().to_string())
            .filter(|h| !h.is_empty())
            .unwrap_or_else(|| "unknown".into());
        let cpu = read("/proc/cpuinfo")
            .and_then(|info| {
                info.lines()
                    .find(|l| l.starts_with("model name"))
                    .and_then(|l| l.split_once(':'))
                    .map(|(_, m)| m.trim().to_string())
            })
            .unwrap_or_else(|| "unknown".into());
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        Machine {
            hostname,
            cpu,
            cores,
        }
    }
}

impl fmt::Display for Machine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({}, {} cores)", self.hostname, self.cpu, self.cores)
    }
}

/// One first turn of South from the start: its value from South (exact when `lower ==
/// upper`, else the interval proved to hold it) and its line.
#[derive(Clone, Debug, PartialEq)]
pub struct TurnRecord {
    /// The turn in the published notation (`3-6`).
    pub turn: String,
    /// Proven lower bound of its value, from South.
    pub lower: i32,
    /// Proven upper bound of its value, from South.
    pub upper: i32,
    /// Its principal variation from the start, starting with it, one turn a string:
    /// replayed to the value when exact, empty when open.
    pub pv: Vec<String>,
    /// Nodes searched for it.
    pub nodes: u64,
    /// Seconds its solve took.
    pub seconds: f64,
}

impl TurnRecord {
    /// The exact value, when proved.
    pub fn value(&self) -> Option<i32> {
        (self.lower == self.upper).then_some(self.lower)
    }

    /// North's decision under the pie rule: swap when the value is positive for South
    /// (the first player), keep on a tie or worse; `None` while the interval holds both.
    pub fn swap(&self) -> Option<bool> {
        match (self.lower > 0, self.upper <= 0) {
            (true, _) => Some(true),
            (_, true) => Some(false),
            _ => None,
        }
    }

    /// What the turn is worth to the first player under the pie rule, `-|v|`, as bounds.
    pub fn first_player(&self) -> Bounds {
        let (lo, hi) = (self.lower, self.upper);
        if lo >= 0 {
            (-hi, -lo)
        } else if hi <= 0 {
            (lo, hi)
        } else {
            (-(lo.abs().max(hi.abs())), 0)
        }
    }
}

/// How far a board is solved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// The value and every first turn's value are exact.
    Exact,
    /// The value is exact; some first turns are intervals.
    TurnsOpen,
    /// The value is an interval.
    Open,
}

impl Status {
    /// The word the files write.
    pub fn name(self) -> &'static str {
        match self {
            Status::Exact => "exact",
            Status::TurnsOpen => "turns-open",
            Status::Open => "open",
        }
    }
}

/// One board of the atlas.
#[derive(Clone, Debug, PartialEq)]
pub struct BoardRecord {
    /// The board's rules, its size included.
    pub rules: Rules,
    /// Proven lower bound of the board's value (South's margin under perfect play from
    /// the start).
    pub lower: i32,
    /// Proven upper bound of the board's value.
    pub upper: i32,
    /// Every first turn of South, in bin order.
    pub turns: Vec<TurnRecord>,
    /// Nodes searched, over every run on the board.
    pub nodes: u64,
    /// Seconds spent, over every run on the board.
    pub seconds: f64,
    /// The budget of the run that wrote it, in seconds (`None`: none).
    pub budget: Option<f64>,
    /// Where and how.
    pub made: Made,
}

impl BoardRecord {
    /// The board's key in the files: its rules as text.
    pub fn key(&self) -> String {
        self.rules.to_string()
    }

    /// The exact value, when proved.
    pub fn value(&self) -> Option<i32> {
        (self.lower == self.upper).then_some(self.lower)
    }

    /// How far the board is solved.
    pub fn status(&self) -> Status {
        match (self.value(), self.turns.iter().all(|t| t.value().is_some())) {
            (None, _) => Status::Open,
            (Some(_), true) => Status::Exact,
            (Some(_), false) => Status::TurnsOpen,
        }
    }

    /// The first turns proved to keep the value (every one of them once the status is
    /// [`Status::Exact`]).
    pub fn best_turns(&self) -> Vec<&str> {
        let Some(v) = self.value() else {
            return Vec::new();
        };
        self.turns
            .iter()
            .filter(|t| t.value() == Some(v))
            .map(|t| t.turn.as_str())
            .collect()
    }

    /// The value of the game with the pie rule, for the first player, as bounds: the
    /// largest `-|v|` over the first turns.
    pub fn pie(&self) -> Bounds {
        let lower = self.turns.iter().map(|t| t.first_player().0).max();
        let upper = self.turns.iter().map(|t| t.first_player().1).max();
        (lower.unwrap_or(0), upper.unwrap_or(0))
    }

    /// The first turns proved best with the pie rule (once its value is exact).
    pub fn pie_best_turns(&self) -> Vec<&str> {
        let (lo, hi) = self.pie();
        if lo != hi {
            return Vec::new();
        }
        self.turns
            .iter()
            .filter(|t| t.first_player() == (lo, lo))
            .map(|t| t.turn.as_str())
            .collect()
    }

    /// The capture rule as the files write it (`standard`, `empty`, or the family's own).
    pub fn capture(&self) -> &'static str {
        self.rules.family.capture_name(self.rules.capture)
    }

    /// The board as one JSON object (the derived fields too, for readers).
    pub fn to_json(&self) -> Value {
        let exact = |b: Option<i32>| b.map_or(Value::Null, Value::from);
        let turns: Vec<Value> = self
            .turns
            .iter()
            .map(|t| {
                let (fl, fu) = t.first_player();
                json!({
                    "turn": t.turn,
                    "value": exact(t.value()),
                    "lower": t.lower,
                    "upper": t.upper,
                    "exact": t.value().is_some(),
                    "swap": t.swap().map_or(Value::Null, Value::from),
                    "first_player": exact((fl == fu).then_some(fl)),
                    "first_player_lower": fl,
                    "first_player_upper": fu,
                    "pv": t.pv,
                    "nodes": t.nodes,
                    "seconds": t.seconds,
                })
            })
            .collect();
        let (pl, pu) = self.pie();
        let m = &self.made;
        json!({
            "houses": self.rules.houses,
            "seeds": self.rules.seeds,
            "capture": self.capture(),
            "family": self.rules.family.name(),
            "rules": self.key(),
            "status": self.status().name(),
            "value": exact(self.value()),
            "lower": self.lower,
            "upper": self.upper,
            "best_turns": self.best_turns(),
            "pie_value": exact((pl == pu).then_some(pl)),
            "pie_lower": pl,
            "pie_upper": pu,
            "pie_best_turns": self.pie_best_turns(),
            "turns": turns,
            "nodes": self.nodes,
            "seconds": self.seconds,
            "budget": self.budget,
            "command": m.command,
            "version": m.version,
            "commit": m.commit,
            "machine": {
                "hostname": m.machine.hostname,
                "cpu": m.machine.cpu,
                "cores": m.machine.cores,
            },
            "threads": m.threads,
            "finished": m.finished,
        })
    }

    /// A board read back from [`BoardRecord::to_json`]'s object (the derived fields are
    /// worked out again, not read); `Err` names the field that is missing or wrong.
    pub fn from_json(v: &Value) -> Result<BoardRecord, String> {
        let rules_text = text(v, "rules")?;
        let rules = Rules::from_str(&rules_text).map_err(|e| format!("rules: {e}"))?;
        let turns = v
            .get("turns")
            .and_then(Value::as_array)
            .ok_or("turns: missing")?
            .iter()
            .map(|t| {
                Ok(TurnRecord {
                    turn: text(t, "turn")?,
                    lower: int(t, "lower")?,
                    upper: int(t, "upper")?,
                    pv: t
                        .get("pv")
                        .and_then(Value::as_array)
                        .ok_or("pv: missing")?
                        .iter()
                        .map(|s| s.as_str().map(str::to_string).ok_or("pv: not text"))
                        .collect::<Result<_, _>>()?,
                    nodes: t.get("nodes").and_then(Value::as_u64).unwrap_or(0),
                    seconds: t.get("seconds").and_then(Value::as_f64).unwrap_or(0.0),
                })
            })
            .collect::<Result<Vec<_>, String>>()?;
        let machine = v.get("machine").ok_or("machine: missing")?;
        let record = BoardRecord {
            rules,
            lower: int(v, "lower")?,
            upper: int(v, "upper")?,
            turns,
            nodes: v.get("nodes").and_then(Value::as_u64).unwrap_or(0),
            seconds: v.get("seconds").and_then(Value::as_f64).unwrap_or(0.0),
            budget: v.get("budget").and_then(Value::as_f64),
            made: Made {
                command: text(v, "command")?,
                version: text(v, "version")?,
                commit: text(v, "commit")?,
                machine: Machine {
                    hostname: text(machine, "hostname")?,
                    cpu: text(machine, "cpu")?,
                    cores: machine.get("cores").and_then(Value::as_u64).unwrap_or(1) as usize,
                },
                threads: v.get("threads").and_then(Value::as_u64).unwrap_or(1) as usize,
                finished: text(v, "finished")?,
            },
        };
        if record.lower > record.upper || record.turns.iter().any(|t| t.lower > t.upper) {
            return Err(format!("{rules_text}: a lower bound above its upper bound"));
        }
        Ok(record)
    }

    /// The board's row of `boards.csv` (without its line break).
    pub fn csv_row(&self) -> String {
        let exact = |b: Option<i32>| b.map_or(String::new(), |v| v.to_string());
        let (pl, pu) = self.pie();
        let exact_turns = self.turns.iter().filter(|t| t.value().is_some()).count();
        let fields = [
            self.rules.houses.to_string(),
            self.rules.seeds.to_string(),
            self.capture().to_string(),
            self.rules.family.name().to_string(),
            exact(self.value()),
            self.lower.to_string(),
            self.upper.to_string(),
            self.status().name().to_string(),
            self.best_turns().join(" "),
            exact((pl == pu).then_some(pl)),
            pl.to_string(),
            pu.to_string(),
            self.pie_best_turns().join(" "),
            self.turns.len().to_string(),
            exact_turns.to_string(),
            self.nodes.to_string(),
            format!("{:.2}", self.seconds),
            self.budget.map_or(String::new(), |b| format!("{b}")),
            self.made.finished.clone(),
            self.made.commit.clone(),
            self.made.machine.to_string(),
            self.key(),
        ];
        fields.map(|f| csv_field(&f)).join(",")
    }

    /// The board's rows of `first_turns.csv`, in bin order (each without its line break).
    pub fn turn_rows(&self) -> Vec<String> {
        let exact = |b: Option<i32>| b.map_or(String::new(), |v| v.to_string());
        self.turns
            .iter()
            .map(|t| {
                let (fl, fu) = t.first_player();
                let swap = match t.swap() {
                    Some(true) => "swap",
                    Some(false) => "keep",
                    None => "open",
                };
                let fields = [
                    self.rules.houses.to_string(),
                    self.rules.seeds.to_string(),
                    self.capture().to_string(),
                    self.rules.family.name().to_string(),
                    t.turn.clone(),
                    exact(t.value()),
                    t.lower.to_string(),
                    t.upper.to_string(),
                    t.value().is_some().to_string(),
                    swap.to_string(),
                    exact((fl == fu).then_some(fl)),
                    fl.to_string(),
                    fu.to_string(),
                    t.pv.join(" "),
                    self.key(),
                ];
                fields.map(|f| csv_field(&f)).join(",")
            })
            .collect()
    }
}

/// A text field of `v`.
fn text(v: &Value, key: &str) -> Result<String, String> {
    v.get(key)
        .and_then(Value::as_str)
        .map(str::to_string)
        .ok_or_else(|| format!("{key}: missing or not text"))
}

/// A whole number field of `v`.
fn int(v: &Value, key: &str) -> Result<i32, String> {
    v.get(key)
        .and_then(Value::as_i64)
        .and_then(|n| i32::try_from(n).ok())
        .ok_or_else(|| format!("{key}: missing or not a whole number"))
}

/// The whole `atlas.json` of `boards`: the format, then one board a line.
pub fn atlas_json(boards: &[BoardRecord]) -> String {
    let mut text = format!("{{\"format\": \"{FORMAT}\", \"boards\": [\n");
    let lines: Vec<String> = boards.iter().map(|b| b.to_json().to_string()).collect();
    text.push_str(&lines.join(",\n"));
    text.push_str("\n]}\n");
    text
}

/// The boards of an `atlas.json` ([`atlas_json`]); `Err` says what is wrong with it.
pub fn read_atlas_json(text: &str) -> Result<Vec<BoardRecord>, String> {
    let v: Value = serde_json::from_str(text).map_err(|e| format!("not JSON ({e})"))?;
    if v.get("format").and_then(Value::as_str) != Some(FORMAT) {
        return Err(format!("no \"format\": \"{FORMAT}\""));
    }
    let boards = v
        .get("boards")
        .and_then(Value::as_array)
        .ok_or("no array \"boards\"")?;
    boards
        .iter()
        .enumerate()
        .map(|(i, b)| BoardRecord::from_json(b).map_err(|e| format!("board {}: {e}", i + 1)))
        .collect()
}

/// The whole `boards.csv` of `boards`.
pub fn boards_csv(boards: &[BoardRecord]) -> String {
    let mut text = format!("{BOARDS_HEADER}\n");
    for b in boards {
        text.push_str(&b.csv_row());
        text.push('\n');
    }
    text
}

/// The whole `first_turns.csv` of `boards`.
pub fn turns_csv(boards: &[BoardRecord]) -> String {
    let mut text = format!("{TURNS_HEADER}\n");
    for row in boards.iter().flat_map(BoardRecord::turn_rows) {
        text.push_str(&row);
        text.push('\n');
    }
    text
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A board of two turns, one exact, one open.
    pub(crate) fn sample() -> BoardRecord {
        BoardRecord {
            rules: Rules::kalah(2, 1),
            lower: 2,
            upper: 2,
            turns: vec![
                TurnRecord {
                    turn: "1".into(),
                    lower: -4,
                    upper: 1,
                    pv: vec![],
                    nodes: 3,
                    seconds: 0.5,
                },
                TurnRecord {
                    turn: "2".into(),
                    lower: 2,
                    upper: 2,
                    pv: vec!["2".into(), "3".into()],
                    nodes: 5,
                    seconds: 0.25,
                },
            ],
            nodes: 8,
            seconds: 1.0,
            budget: Some(10.0),
            made: Made {
                command: "kalah atlas --houses 2".into(),
                version: "kalah 0.1.0".into(),
                commit: "abc1234".into(),
                machine: Machine {
                    hostname: "h".into(),
                    cpu: "a cpu, fast".into(),
                    cores: 2,
                },
                threads: 1,
                finished: "2026-12-07 06:00 UTC".into(),
            },
        }
    }

    #[test]
    fn a_board_round_trips_through_its_json() {
        let board = sample();
        let text = atlas_json(std::slice::from_ref(&board));
        assert_eq!(read_atlas_json(&text).unwrap(), vec![board]);
        assert!(read_atlas_json("{\"boards\": []}").is_err());
        assert!(read_atlas_json(&text[..text.len() / 2]).is_err());
    }

    #[test]
    fn an_open_turn_leaves_the_pie_value_open_and_its_decision_unsaid() {
        let board = sample();
        assert_eq!(board.status(), Status::TurnsOpen);
        assert_eq!(board.best_turns(), ["2"]);
        assert_eq!(board.turns[0].swap(), None);
        assert_eq!(board.turns[0].first_player(), (-4, 0));
        assert_eq!(board.turns[1].swap(), Some(true));
        assert_eq!(board.pie(), (-2, 0));
        assert!(board.pie_best_turns().is_empty());
        let rows = board.turn_rows();
        assert!(rows[0].starts_with("2,1,standard,kalah,1,,-4,1,false,open,,-4,0,,"));
        assert!(board.csv_row().contains(",\"h (a cpu, fast, 2 cores)\","));
    }
}
