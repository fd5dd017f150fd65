//! The evaluation table of `kalah export` as JSON and as CSV, each writer beside its
//! reader: the table is meant to be loaded by other programs (the schema is in
//! data/README.md, and data/export-*.json and *.csv are reference outputs).
//!
//! A sowing is written as its bin in the published notation; a clockwise sowing (Ethiopian
//! Kalah) is marked apart: `"clockwise": true` in JSON, a `_clockwise` column (and `<`
//! after the best bin) in CSV. Bao's table is [`bao`]'s.

use std::path::{Path, PathBuf};

use kalah_core::{notation, Game, Position, Rules, CLOCKWISE};
use serde_json::{json, Value};

pub mod bao;

use crate::wire::{
    self, csv_field, field, int_field, read_position, read_rules, text_field, FormatError,
};

/// One position of the table: what [`crate::export`] makes and the table's JSON and CSV
/// write and read back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The position (its side to move included).
    pub position: Position,
    /// The fewest complete turns from the start that reach it.
    pub turns: u32,
    /// Its exact value from South.
    pub value: i32,
    /// Every legal sowing of the player to move (0-based house from that player's left,
    /// in bin order) with the value from South of the position it leads to.
    pub moves: Vec<(usize, i32)>,
    /// The best sowing for the player to move (the first in bin order among equals);
    /// `None` when the game is over.
    pub best: Option<usize>,
}

/// The line that states what the values mean, in the JSON header.
const VALUES: &str = "from South: final South store minus North store under perfect play";

/// The fields of the rules the JSON header has always printed beside their text.
const RULE_FIELDS: [&str; 7] = [
    "family",
    "houses",
    "seeds",
    "capture",
    "end",
    "leftovers",
    "early_stop",
];

/// A table read back from JSON: the export it came from and its positions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Table {
    /// The rules the table was made under.
    pub rules: Rules,
    /// The position the table starts from.
    pub start: Position,
    /// The turns from the start the table covers.
    pub depth: u32,
    /// The table's positions, in the order written.
    pub entries: Vec<Entry>,
}

/// The two formats of a table file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TableFormat {
    /// One JSON object with an array `positions`.
    Json,
    /// A CSV table, one row per position.
    Csv,
}

impl TableFormat {
    /// The format of a table written to `path` where none is asked for: CSV for a file
    /// named `.csv` (in any case), else JSON.
    pub fn of_path(path: &Path) -> TableFormat {
        match path.extension().and_then(|e| e.to_str()) {
            Some(e) if e.eq_ignore_ascii_case("csv") => TableFormat::Csv,
            _ => TableFormat::Json,
        }
    }
}

/// The line `kalah export` ends with: the `positions` within `depth` turns written to
/// `files`, how many of them were `solved`, and in how many `seconds`.
pub fn written_line(
    positions: usize,
    depth: u32,
    files: &[PathBuf],
    solved: usize,
    seconds: f64,
) -> String {
    let names: Vec<String> = files.iter().map(|p| p.display().to_string()).collect();
    format!(
        "{positions} positions within {depth} turns written to {} ({solved} solved, {seconds:.1} s)",
        names.join(" and ")
    )
}

/// The line `kalah export --rules bao` ends with: the `positions` within `depth` moves
/// written to `file`, `exact` from the solved graph or analysed, in how many `seconds`.
pub fn bao_written_line(
    positions: usize,
    depth: u32,
    file: &Path,
    exact: bool,
    seconds: f64,
) -> String {
    let how = if exact { "exact" } else { "analysed" };
    format!(
        "{positions} positions within {depth} moves written to {} ({how}, {seconds:.1} s)",
        file.display()
    )
}

/// The bin of a move's house (a clockwise move of Ethiopian Kalah is marked apart).
fn bin(game: &Game, pos: &Position, house: usize) -> usize {
    notation::bin(game.houses(), pos.side_to_move(), house % CLOCKWISE)
}

/// The move (house, [`CLOCKWISE`] added for a clockwise one) that bin `b` names in `pos`.
fn move_of_bin(game: &Game, pos: &Position, b: i64, clockwise: bool) -> Option<usize> {
    let b = usize::try_from(b).ok()?;
    let house = notation::house_of_bin(game.houses(), pos.side_to_move(), b)?;
    Some(house + if clockwise { CLOCKWISE } else { 0 })
}

/// A move as JSON: its bin, and `"clockwise": true` for a clockwise sowing.
fn move_json(game: &Game, pos: &Position, j: usize, value: i32) -> Value {
    match j >= CLOCKWISE {
        true => json!({ "bin": bin(game, pos, j), "clockwise": true, "value": value }),
        false => json!({ "bin": bin(game, pos, j), "value": value }),
    }
}

/// One position of the table as JSON.
fn entry_json(game: &Game, e: &Entry) -> Value {
    let mut entry = json!({
        "position": e.position.to_string(),
        "side": e.position.side_to_move().to_string(),
        "turns": e.turns,
        "value": e.value,
        "best": e.best.map(|j| bin(game, &e.position, j)),
        "moves": e.moves.iter().map(|&(j, v)| move_json(game, &e.position, j, v))
            .collect::<Vec<_>>(),
    });
    if e.best.is_some_and(|j| j >= CLOCKWISE) {
        entry["best_clockwise"] = json!(true);
    }
    entry
}

/// The table as one JSON object: the header (the rules, the start, the depth, what the
/// values mean, the count), then the array `positions`, one position a line, so that the
/// table diffs and greps well.
pub fn write_json(game: &Game, start: &Position, depth: u32, table: &[Entry]) -> String {
    let rules = game.rules();
    let mut header = json!({
        "rules": rules.to_string(),
        "start": start.to_string(),
        "depth": depth,
        "values": VALUES,
        "count": table.len(),
    });
    for (name, value) in wire::rules::pick(rules, &RULE_FIELDS) {
        header[name.as_str()] = value;
    }
    let header = header.to_string();
    let mut text = header[..header.len() - 1].to_string();
    text.push_str(",\"positions\":[\n");
    let lines: Vec<String> = table
        .iter()
        .map(|e| entry_json(game, e).to_string())
        .collect();
    text.push_str(&lines.join(",\n"));
    text.push_str("\n]}\n");
    text
}

/// Reads a table written by [`write_json`].
pub fn read_json(text: &str) -> Result<Table, FormatError> {
    let what = "the table";
    let v: Value = serde_json::from_str(text).map_err(|e| FormatError(format!("{what}: {e}")))?;
    let rules = read_rules(&v, what)?;
    let game = Game::new(rules).map_err(|e| FormatError(format!("{what}: {e}")))?;
    let start = read_position(&game, text_field(&v, "start", what)?, what)?;
    let depth = u32::try_from(int_field(&v, "depth", what)?)
        .map_err(|_| FormatError(format!("{what}: \"depth\" is out of range")))?;
    let positions = field(&v, "positions", what)?
        .as_array()
        .ok_or_else(|| FormatError(format!("{what}: \"positions\" is not an array")))?;
    let entries = positions
        .iter()
        .map(|p| read_entry(&game, p))
        .collect::<Result<Vec<_>, _>>()?;
    if int_field(&v, "count", what)? != entries.len() as i64 {
        return Err(FormatError(format!(
            "{what}: \"count\" is not the number of positions"
        )));
    }
    Ok(Table {
        rules,
        start,
        depth,
        entries,
    })
}

/// An integer field that fits an `i32` or `u32` (`T`).
fn small_int<T: TryFrom<i64>>(v: &Value, name: &str, what: &str) -> Result<T, FormatError> {
    T::try_from(int_field(v, name, what)?)
        .map_err(|_| FormatError(format!("{what}: \"{name}\" is out of range")))
}

/// One position of the table, read from its JSON object.
fn read_entry(game: &Game, v: &Value) -> Result<Entry, FormatError> {
    let what = "a position of the table";
    let position = read_position(game, text_field(v, "position", what)?, what)?;
    let clockwise = |v: &Value, name: &str| v.get(name).and_then(Value::as_bool) == Some(true);
    let named = |b: i64, cw: bool| {
        move_of_bin(game, &position, b, cw)
            .ok_or_else(|| FormatError(format!("{what}: bin {b} is not a house of the mover")))
    };
    let best = match field(v, "best", what)? {
        Value::Null => None,
        b => Some(named(
            b.as_i64()
                .ok_or_else(|| FormatError(format!("{what}: \"best\" is not a bin")))?,
            clockwise(v, "best_clockwise"),
        )?),
    };
    let moves = field(v, "moves", what)?
        .as_array()
        .ok_or_else(|| FormatError(format!("{what}: \"moves\" is not an array")))?
        .iter()
        .map(|m| {
            let j = named(int_field(m, "bin", what)?, clockwise(m, "clockwise"))?;
            Ok((j, small_int(m, "value", what)?))
        })
        .collect::<Result<Vec<_>, FormatError>>()?;
    Ok(Entry {
        position,
        turns: small_int(v, "turns", what)?,
        value: small_int(v, "value", what)?,
        moves,
        best,
    })
}

/// How many columns of sowings a row has per house: two where a sowing may go either way
/// (Ethiopian Kalah: each house's clockwise sowing after the others), else one.
fn directions(game: &Game) -> usize {
    if game.rules().family.has_direction() {
        2
    } else {
        1
    }
}

/// The table as CSV, one row per position: `position,side,turns,value,best`, then the
/// value of the sowing of each house (`house1`, ...; `house1_clockwise`, ... after them
/// where sowings have a direction), empty where the sowing is not legal.
pub fn write_csv(game: &Game, table: &[Entry]) -> String {
    let h = game.houses();
    let directions = directions(game);
    let mut text = String::from("position,side,turns,value,best");
    for d in 0..directions {
        for i in 1..=h {
            text.push_str(&format!(
                ",house{i}{}",
                if d == 1 { "_clockwise" } else { "" }
            ));
        }
    }
    text.push('\n');
    for e in table {
        let mut cells = vec![String::new(); directions * h];
        for &(j, v) in &e.moves {
            cells[j % CLOCKWISE + h * (j / CLOCKWISE)] = v.to_string();
        }
        text.push_str(&format!(
            "{},{},{},{},{},{}\n",
            csv_field(&e.position.to_string()),
            e.position.side_to_move(),
            e.turns,
            e.value,
            e.best.map_or(String::new(), |j| notation::format_move(
                h,
                e.position.side_to_move(),
                j
            )),
            cells.join(",")
        ));
    }
    text
}

/// Reads the rows of a table written by [`write_csv`] for `game`.
pub fn read_csv(game: &Game, text: &str) -> Result<Vec<Entry>, FormatError> {
    let mut lines = text.lines();
    let header = lines.next().unwrap_or_default();
    let columns = 5 + directions(game) * game.houses();
    if header.split(',').count() != columns || !header.starts_with("position,side,") {
        return Err(FormatError(format!(
            "the table: the header '{header}' is not one for these rules"
        )));
    }
    lines.map(|line| read_row(game, line, columns)).collect()
}

/// Splits a row into its cells (only the position is ever quoted, and holds no quote).
fn cells(line: &str) -> Vec<&str> {
    match line.strip_prefix('"').and_then(|l| l.split_once("\",")) {
        Some((first, rest)) => std::iter::once(first).chain(rest.split(',')).collect(),
        None => line.split(',').collect(),
    }
}

/// One row of the CSV table.
fn read_row(game: &Game, line: &str, columns: usize) -> Result<Entry, FormatError> {
    let what = "a row of the table";
    let bad = |name: &str| FormatError(format!("{what}: bad {name} in '{line}'"));
    let cells = cells(line);
    if cells.len() != columns {
        return Err(bad("number of cells"));
    }
    let position = read_position(game, cells[0], what)?;
    let side = position.side_to_move();
    if cells[1] != side.to_string() {
        return Err(bad("side"));
    }
    let best = match cells[4] {
        "" => None,
        b => {
            let (b, cw) = b.strip_suffix('<').map_or((b, false), |b| (b, true));
            let b = b.parse().map_err(|_| bad("best"))?;
            Some(move_of_bin(game, &position, b, cw).ok_or_else(|| bad("best"))?)
        }
    };
    let h = game.houses();
    let mut moves = Vec::new();
    for (c, cell) in cells[5..].iter().enumerate().filter(|(_, c)| !c.is_empty()) {
        moves.push((
            c % h + CLOCKWISE * (c / h),
            cell.parse().map_err(|_| bad("value"))?,
        ));
    }
    Ok(Entry {
        position,
        turns: cells[2].parse().map_err(|_| bad("turns"))?,
        value: cells[3].parse().map_err(|_| bad("value"))?,
        moves,
        best,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::export::plan;
    use kalah_core::Preset;

    #[test]
    fn the_format_follows_the_extension_and_the_lines_name_every_file() {
        assert_eq!(TableFormat::of_path(Path::new("t.CSV")), TableFormat::Csv);
        assert_eq!(TableFormat::of_path(Path::new("t.json")), TableFormat::Json);
        assert_eq!(TableFormat::of_path(Path::new("-")), TableFormat::Json);
        let files = [PathBuf::from("a.json"), PathBuf::from("b.csv")];
        assert_eq!(
            written_line(12, 2, &files, 7, 1.04),
            "12 positions within 2 turns written to a.json and b.csv (7 solved, 1.0 s)"
        );
        assert_eq!(
            bao_written_line(3, 1, Path::new("t.csv"), true, 1.0),
            "3 positions within 1 moves written to t.csv (exact, 1.0 s)"
        );
    }

    /// A table with made-up values: every position of the plan, each sowing worth its
    /// house number, the last sowing best.
    fn table(game: &Game, depth: u32) -> Vec<Entry> {
        plan(game, &game.start(), depth)
            .positions
            .iter()
            .map(|&(position, turns)| {
                let moves: Vec<(usize, i32)> = game
                    .legal_moves(&position)
                    .into_iter()
                    .map(|j| (j, j as i32 - 3))
                    .collect();
                Entry {
                    position,
                    turns,
                    value: moves.last().map_or(0, |m| m.1),
                    best: moves.last().map(|m| m.0),
                    moves,
                }
            })
            .collect()
    }

    #[test]
    fn the_table_round_trips_through_json_and_csv() {
        for preset in [Preset::Kalah, Preset::Ethiopian, Preset::Oware] {
            let game = Game::new(preset.rules(4, 3)).unwrap();
            let entries = table(&game, 2);
            assert!(entries.iter().any(|e| e.best.is_some()));
            let text = write_json(&game, &game.start(), 2, &entries);
            let back = read_json(&text).unwrap();
            assert_eq!(back.rules, *game.rules());
            assert_eq!((back.start, back.depth), (game.start(), 2));
            assert_eq!(back.entries, entries, "{text}");
            let text = write_csv(&game, &entries);
            assert_eq!(read_csv(&game, &text).unwrap(), entries, "{text}");
        }
    }

    #[test]
    fn the_reference_tables_are_read_and_written_again_byte_for_byte() {
        let files = [
            (
                include_str!("../../../../data/export-5-4-standard-d2.json"),
                include_str!("../../../../data/export-5-4-standard-d2.csv"),
            ),
            (
                include_str!("../../../../data/export-6-4-empty-d2.json"),
                include_str!("../../../../data/export-6-4-empty-d2.csv"),
            ),
        ];
        for (json, csv) in files {
            let table = read_json(json).unwrap();
            let game = Game::new(table.rules).unwrap();
            let written = write_json(&game, &table.start, table.depth, &table.entries);
            assert_eq!(written, json);
            assert_eq!(read_csv(&game, csv).unwrap(), table.entries);
            assert_eq!(write_csv(&game, &table.entries), csv);
        }
    }

    #[test]
    fn a_clockwise_sowing_is_marked_apart() {
        let game = Game::new(Preset::Ethiopian.rules(4, 3)).unwrap();
        let entries = table(&game, 0);
        let json = write_json(&game, &game.start(), 0, &entries);
        assert!(json.contains("\"best_clockwise\":true"), "{json}");
        let csv = write_csv(&game, &entries);
        assert!(csv.starts_with("position,side,turns,value,best,house1,"));
        assert!(csv.contains("house4_clockwise\n"), "{csv}");
    }

    #[test]
    fn a_table_that_does_not_fit_its_rules_is_refused() {
        let game = Game::new(Rules::kalah(4, 3)).unwrap();
        let text = write_csv(&game, &table(&game, 1));
        let other = Game::new(Rules::kalah(5, 3)).unwrap();
        assert!(read_csv(&other, &text).is_err());
        let json = write_json(&game, &game.start(), 1, &table(&game, 1));
        assert!(read_json(&json.replacen("\"count\":", "\"count\":1", 1)).is_err());
    }
}
