//! What a board keeps while it is solved: a partial file beside the atlas
//! (`DIR/BOARD.partial`) with a header naming the board, then one sealed record for the
//! start's value and for each first turn as it is proved, so that an interrupted board
//! keeps its proved first turns. The file goes once the board is written to the atlas
//! exact; an open board keeps it, for a later run with a larger budget.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use kalah_core::{Game, Position, Rules};
use kalah_io::{read_regular, unseal, Header};
use serde_json::Value;

use crate::run::partial::{without_duplicates, Partial};
use crate::wire::read_line;

/// A value proved, with its line from the start (replayed to it) and its cost.
#[derive(Clone, Debug, PartialEq)]
pub struct Proved {
    /// The value from South.
    pub value: i32,
    /// The principal variation from the start, one turn a string.
    pub pv: Vec<String>,
    /// Nodes searched for it.
    pub nodes: u64,
    /// Seconds its solve took.
    pub seconds: f64,
}

/// What a partial file holds.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Kept {
    /// The start's value, when proved.
    pub root: Option<Proved>,
    /// The first turns proved, by their notation.
    pub turns: HashMap<String, Proved>,
    /// Records that failed their check, their seal or their replay (solved again).
    pub damaged: usize,
}

/// The header of the partial file of the board `rules`.
pub fn header(rules: &Rules, start: &Position) -> Header {
    Header::new(
        "atlas-partial",
        &[("rules", rules.to_string()), ("start", start.to_string())],
    )
}

/// The partial file of the board `rules` in `dir`: `kalah-6x4-standard-1a2b3c4d.partial`
/// (the family, the size, the capture rule, and a checksum of the whole rules).
pub fn path(dir: &Path, rules: &Rules) -> PathBuf {
    let text = rules.to_string();
    let check = text.bytes().fold(0x811c_9dc5u32, |h, b| {
        (h ^ u32::from(b)).wrapping_mul(0x0100_0193)
    });
    dir.join(format!(
        "{}-{}x{}-{}-{check:08x}.partial",
        rules.family.name(),
        rules.houses,
        rules.seeds,
        rules.family.capture_name(rules.capture)
    ))
}

/// The record of the start's value.
pub fn root_record(p: &Proved) -> String {
    format!(
        "root\t{}\t{}\t{}\t{}",
        p.value,
        p.nodes,
        p.seconds,
        p.pv.join(" ")
    )
}

/// The record of a first turn's value.
pub fn turn_record(turn: &str, p: &Proved) -> String {
    format!(
        "turn\t{turn}\t{}\t{}\t{}\t{}",
        p.value,
        p.nodes,
        p.seconds,
        p.pv.join(" ")
    )
}

/// One record read back: `None` for the start, else the turn; `None` overall when it is
/// not a record of [`root_record`] or [`turn_record`].
fn parse(record: &str) -> Option<(Option<String>, Proved)> {
    let mut fields = record.split('\t');
    let turn = match fields.next()? {
        "root" => None,
        "turn" => Some(fields.next()?.to_string()),
        _ => return None,
    };
    let value = fields.next()?.parse().ok()?;
    let nodes = fields.next()?.parse().ok()?;
    let seconds = fields.next()?.parse().ok()?;
    let pv = fields
        .next()?
        .split_whitespace()
        .map(str::to_string)
        .collect();
    fields.next().is_none().then_some((
        turn,
        Proved {
            value,
            pv,
            nodes,
            seconds,
        },
    ))
}

/// Whether `p`'s line, replayed from `start`, starts with `turn` (where given) and ends
/// with its value.
fn replays(game: &Game, start: &Position, turn: Option<&str>, p: &Proved) -> bool {
    if turn.is_some_and(|t| p.pv.first().map(String::as_str) != Some(t)) {
        return false;
    }
    let line: Vec<Value> = p.pv.iter().cloned().map(Value::from).collect();
    read_line(game, start, &line)
        .ok()
        .is_some_and(|turns| kalah_solver::line::replay(game, start, &turns, p.value).is_ok())
}

/// What the partial file at `path` keeps for the board of `game` from `start` (nothing
/// when there is none). A file of another board, or one with a damaged header, is refused
/// with the reason in words; a record that fails its seal or whose line does not replay
/// to its value is counted as damaged and solved again.
pub fn load(path: &Path, game: &Game, start: &Position) -> Result<Kept, String> {
    let bytes = match read_regular(path).map_err(|e| e.to_string())? {
        Some(b) if !b.is_empty() => b,
        _ => return Ok(Kept::default()),
    };
    let text = String::from_utf8_lossy(&bytes);
    let mut lines = text.split('\n');
    header(game.rules(), start).resumes(lines.next().unwrap_or(""), "kalah atlas", "board")?;
    let records: Vec<&str> = lines.collect();
    // The last piece is empty after the final line break, or a line a crash cut short.
    let whole = records.split_last().map_or(&[][..], |(_, whole)| whole);
    let mut kept = Kept::default();
    let mut turns = Vec::new();
    for line in whole {
        match unseal(line).and_then(parse) {
            Some((turn, p)) if replays(game, start, turn.as_deref(), &p) => match turn {
                Some(t) => turns.push((t, p)),
                None => kept.root = Some(p),
            },
            _ => kept.damaged += 1,
        }
    }
    let (turns, duplicated) = without_duplicates(turns);
    kept.turns = turns;
    kept.damaged += duplicated;
    Ok(kept)
}

/// Starts the partial file at `path` afresh with `kept`'s records, open to add more.
pub fn start(path: &Path, rules: &Rules, pos: &Position, kept: &Kept) -> Result<Partial, String> {
    let mut records: Vec<String> = kept.root.iter().map(root_record).collect();
    let mut turns: Vec<_> = kept.turns.iter().collect();
    turns.sort_by(|a, b| a.0.cmp(b.0));
    records.extend(turns.into_iter().map(|(t, p)| turn_record(t, p)));
    Partial::start_with(path, &header(rules, pos), records).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicBool;

    #[test]
    fn records_written_are_read_back_and_a_false_value_is_dropped() {
        let dir = tempfile::tempdir().unwrap();
        let game = Game::new(Rules::kalah(3, 2)).unwrap();
        let origin = game.start();
        let path = path(dir.path(), game.rules());
        let solver = kalah_solver::Solver::new(
            game.clone(),
            kalah_solver::Config {
                threads: 1,
                hash_mb: 1,
                ..kalah_solver::Config::default()
            },
        )
        .unwrap();
        let cancel = AtomicBool::new(false);
        let list = crate::openings(
            &solver,
            &origin,
            crate::game::turns::Offer::AfterTurn,
            1,
            &cancel,
            &|_| {},
        )
        .unwrap();
        let proved = |o: &crate::openings::Opening, value: i32| Proved {
            value,
            pv: crate::wire::write_line(3, &o.pv),
            nodes: o.nodes,
            seconds: 0.5,
        };
        let partial = start(&path, game.rules(), &origin, &Kept::default()).unwrap();
        let (a, b) = (&list[0], &list[1]);
        let (ta, tb) = (a.step.turn.notation(3), b.step.turn.notation(3));
        assert!(partial.add_record(&turn_record(&ta, &proved(a, a.value))));
        // A value its line does not reach: sealed, but refused on replay.
        assert!(partial.add_record(&turn_record(&tb, &proved(b, b.value + 1))));
        assert!(partial.add_record(&root_record(&proved(a, a.value))));
        partial.failure().unwrap();
        let back = load(&path, &game, &origin).unwrap();
        assert_eq!(back.turns.len(), 1);
        assert_eq!(back.turns[&ta], proved(a, a.value));
        assert_eq!(back.root, Some(proved(a, a.value)));
        assert_eq!(back.damaged, 1);
        let other = Game::new(Rules::kalah(3, 3)).unwrap();
        let e = load(&path, &other, &other.start()).unwrap_err();
        assert!(e.contains("another board"), "{e}");
    }
}
