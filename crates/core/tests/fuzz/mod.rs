//! Shared by the fuzz targets (`fuzz_*.rs` of the crates): the number of cases, read from
//! `KALAH_FUZZ_CASES` (a small default keeps `cargo test` fast; `.ci/run` runs the
//! targets again with many more), and the damage hostile input does to a valid line:
//! truncated, a digit changed, a byte replaced, a field removed or duplicated, a number
//! made huge, a value nested deep, a line made very long.
#![allow(dead_code)] // kalah-core and kalah-analysis each use their own part of this module

use kalah_core::notation::format_move;
use kalah_core::{Game, Position, Rules};
use proptest::prelude::*;
use proptest::sample::Index;

/// The cases each property runs when `KALAH_FUZZ_CASES` is not set.
pub const DEFAULT_CASES: u32 = 64;

/// The cases each property runs: `KALAH_FUZZ_CASES`, else [`DEFAULT_CASES`].
pub fn cases() -> u32 {
    match std::env::var("KALAH_FUZZ_CASES") {
        Ok(text) => text
            .trim()
            .parse()
            .unwrap_or_else(|_| panic!("KALAH_FUZZ_CASES={text:?} is not a number of cases")),
        Err(_) => DEFAULT_CASES,
    }
}

/// The configuration of every fuzz property: [`cases`] cases, no failure files written
/// into the source tree (a failure prints its case; a real one is kept as a regression
/// test by hand).
pub fn config() -> ProptestConfig {
    ProptestConfig {
        cases: cases(),
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

/// Numbers past every bound a reader may have: past `u8`, `i32`, `u64`, `i64` and `f64`,
/// one that wraps to a small `i32`, and numbers in forms a reader of integers refuses.
pub const HUGE: [&str; 14] = [
    "256",
    "-1",
    "4294967302",
    "-4294967290",
    "2147483648",
    "9223372036854775807",
    "-9223372036854775808",
    "18446744073709551616",
    "-9223372036854775809",
    "99999999999999999999999999999999999999",
    "1e400",
    "1.5",
    "-0",
    "0x10",
];

/// One piece of damage done to a line.
#[derive(Clone, Debug)]
pub enum Mutation {
    /// Cut short at a place.
    Truncate(Index),
    /// A digit changed to another digit.
    Digit(Index, u8),
    /// A byte replaced by any byte (so the line may no longer be UTF-8).
    Byte(Index, u8),
    /// A comma-separated piece (a field of a JSON object, a count of a board) removed.
    Drop(Index),
    /// A comma-separated piece written twice.
    Duplicate(Index),
    /// A run of digits replaced by one of [`HUGE`].
    Huge(Index, Index),
    /// A run of digits nested `depth` brackets deep.
    Nest(Index, usize),
    /// A piece of the line repeated until the line is about `len` bytes long.
    Long(Index, usize),
    /// Text put in at a place.
    Insert(Index, String),
}

/// Any one [`Mutation`], lines made long up to `max_len` bytes.
pub fn mutation(max_len: usize) -> impl Strategy<Value = Mutation> {
    prop_oneof![
        any::<Index>().prop_map(Mutation::Truncate),
        (any::<Index>(), b'0'..=b'9').prop_map(|(i, d)| Mutation::Digit(i, d)),
        (any::<Index>(), any::<u8>()).prop_map(|(i, b)| Mutation::Byte(i, b)),
        any::<Index>().prop_map(Mutation::Drop),
        any::<Index>().prop_map(Mutation::Duplicate),
        (any::<Index>(), any::<Index>()).prop_map(|(i, h)| Mutation::Huge(i, h)),
        (any::<Index>(), 1usize..3000).prop_map(|(i, d)| Mutation::Nest(i, d)),
        (any::<Index>(), 1usize..max_len.max(2)).prop_map(|(i, n)| Mutation::Long(i, n)),
        (any::<Index>(), "[\\[\\]{}\",:\\-0-9a-zA-Z<>#\\\\ ]{1,12}")
            .prop_map(|(i, t)| Mutation::Insert(i, t)),
    ]
}

/// The places of the runs of ASCII digits of `line`, as ranges.
fn digit_runs(line: &[u8]) -> Vec<std::ops::Range<usize>> {
    let mut runs = Vec::new();
    let mut start = None;
    for (i, b) in line.iter().enumerate() {
        match (b.is_ascii_digit(), start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                runs.push(s..i);
                start = None;
            }
            _ => {}
        }
    }
    if let Some(s) = start {
        runs.push(s..line.len());
    }
    runs
}

/// The comma-separated pieces of `line`, as ranges (the commas not included).
fn pieces(line: &[u8]) -> Vec<std::ops::Range<usize>> {
    let mut out = Vec::new();
    let mut start = 0;
    for (i, &b) in line.iter().enumerate() {
        if b == b',' {
            out.push(start..i);
            start = i + 1;
        }
    }
    out.push(start..line.len());
    out
}

/// `line` with `range` replaced by `with`.
fn splice(line: &[u8], range: std::ops::Range<usize>, with: &[u8]) -> Vec<u8> {
    let mut out = line[..range.start].to_vec();
    out.extend_from_slice(with);
    out.extend_from_slice(&line[range.end..]);
    out
}

/// `line` damaged by `m`; a mutation with nothing to act on (no digit in the line, an
/// empty line) leaves it as it is.
pub fn mutate(line: &[u8], m: &Mutation) -> Vec<u8> {
    let at = |i: &Index| i.index(line.len() + 1);
    match m {
        Mutation::Truncate(i) => line[..at(i)].to_vec(),
        Mutation::Byte(i, b) if !line.is_empty() => {
            let k = i.index(line.len());
            splice(line, k..k + 1, &[*b])
        }
        Mutation::Digit(i, d) => match digit_runs(line) {
            runs if runs.is_empty() => line.to_vec(),
            runs => {
                let run = &runs[i.index(runs.len())];
                splice(line, run.start..run.start + 1, &[*d])
            }
        },
        Mutation::Drop(i) => {
            let p = pieces(line);
            let k = i.index(p.len());
            // The piece and the comma before it (after it, for the first).
            let range = match k {
                0 if p.len() > 1 => p[0].start..p[1].start,
                0 => p[0].clone(),
                _ => p[k - 1].end..p[k].end,
            };
            splice(line, range, b"")
        }
        Mutation::Duplicate(i) => {
            let p = pieces(line);
            let piece = p[i.index(p.len())].clone();
            let mut twice = line[piece.clone()].to_vec();
            twice.push(b',');
            twice.extend_from_slice(&line[piece.clone()]);
            splice(line, piece, &twice)
        }
        Mutation::Huge(i, h) => match digit_runs(line) {
            runs if runs.is_empty() => line.to_vec(),
            runs => {
                let huge = HUGE[h.index(HUGE.len())].as_bytes();
                splice(line, runs[i.index(runs.len())].clone(), huge)
            }
        },
        Mutation::Nest(i, depth) => match digit_runs(line) {
            runs if runs.is_empty() => line.to_vec(),
            runs => {
                let run = runs[i.index(runs.len())].clone();
                let mut nested = vec![b'['; *depth];
                nested.extend_from_slice(&line[run.clone()]);
                nested.extend(std::iter::repeat_n(b']', *depth));
                splice(line, run, &nested)
            }
        },
        Mutation::Long(i, len) if !line.is_empty() => {
            let p = pieces(line);
            let piece = p[i.index(p.len())].clone();
            let unit = match &line[piece.clone()] {
                [] => &b"0"[..],
                text => text,
            };
            let times = (len / unit.len()).max(1);
            splice(line, piece, &unit.repeat(times))
        }
        Mutation::Insert(i, text) => {
            let k = at(i);
            splice(line, k..k, text.as_bytes())
        }
        Mutation::Byte(..) | Mutation::Long(..) => line.to_vec(),
    }
}

/// `mutate` on text: the damaged line, decoded (a byte that breaks UTF-8 becomes
/// U+FFFD), for parsers of `&str`.
pub fn mutate_text(line: &str, m: &Mutation) -> String {
    String::from_utf8_lossy(&mutate(line.as_bytes(), m)).into_owned()
}

/// Any rules the engine plays: every option of every family on a small board.
pub fn any_rules() -> impl Strategy<Value = Rules> {
    (1u8..=6, 1u8..=4, any::<Index>()).prop_map(|(h, s, i)| {
        let mut all = Rules::every_variant(h, s);
        all.extend(Rules::every_cyclic_variant(h, s));
        all[i.index(all.len())]
    })
}

/// A line of play from the start under `rules`: the position reached, the sowings in
/// the notation (one item each, turns split at extra sowings) and the sowings played.
pub fn random_line(rules: &Rules, picks: &[Index]) -> (Position, String, Vec<usize>) {
    let game = Game::new(*rules).expect("a variant's rules are valid");
    let mut pos = game.start();
    let (mut text, mut played) = (Vec::new(), Vec::new());
    for pick in picks {
        let moves: Vec<usize> = game.legal_moves(&pos).collect();
        if moves.is_empty() || pos.is_over() {
            break;
        }
        let mv = moves[pick.index(moves.len())];
        text.push(format_move(game.houses(), pos.side_to_move(), mv));
        played.push(mv);
        pos = game.play_unchecked(&pos, mv);
    }
    (pos, text.join(" "), played)
}
