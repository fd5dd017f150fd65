//! The Bao perft table `data/perft/bao.txt`: counted by the simple reference
//! implementation, checked here against the fast engine. `regenerate_bao_perft_table`
//! rewrites it (`cargo test --profile test-release -p kalah-core --test all -- --ignored
//! bao_perft_data::`).

use crate::bao_common;

use std::fmt::Write as _;
use std::path::PathBuf;

use bao_common::reference::{Played, RefPos};
use bao_common::{Rng, BOARDS};
use kalah_core::bao::{perft, BaoPosition};

/// A series of depths stops after the first count above this, or at `MAX_DEPTH`.
const SERIES_LIMIT: u64 = 50_000;
/// The standard start's series goes further, past perft(8) (319 524).
const STANDARD_LIMIT: u64 = 300_000;
const MAX_DEPTH: u32 = 30;
/// 4x8 with 3 seeds: only its start, to depth 6. The reference plays every candidate out
/// (R6.3 read literally), and the long never-ending takasas of 3-seed pits make its depth 7
/// take many minutes.
const SLOW_BOARD: (usize, usize) = (8, 3);
const SLOW_DEPTH: u32 = 6;
/// Entries up to this count are recounted by the reference in every run.
const QUICK_REFERENCE: u64 = 3_000;
/// In a debug build the fast engine recounts entries up to this count (all in release).
const QUICK_FAST: u64 = 30_000;

fn table_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../data/perft/bao.txt")
}

/// One line of the table.
struct Entry {
    pits: usize,
    seeds: usize,
    position: String,
    depth: u32,
    count: u64,
}

fn read_table() -> Vec<Entry> {
    let text = std::fs::read_to_string(table_path()).expect("data/perft/bao.txt");
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            assert_eq!(f.len(), 5, "line '{l}'");
            Entry {
                pits: f[0].parse().unwrap(),
                seeds: f[1].parse().unwrap(),
                position: f[2].to_string(),
                depth: f[3].parse().unwrap(),
                count: f[4].parse().unwrap(),
            }
        })
        .collect()
}

/// The positions of a board: the start and a middle game (a fixed pseudo-random line of
/// 2N reference moves from the start, stopped early if the game ends).
fn positions(n: usize, s: usize) -> Vec<RefPos> {
    let start = RefPos::start(n, s as u8);
    let mut rng = Rng((100 * n + s) as u64);
    let mut pos = start;
    for _ in 0..2 * n {
        let legal = pos.legal();
        if legal.is_empty() {
            break;
        }
        match legal[rng.below(legal.len())].1 {
            Played::Ends(q) => pos = q,
            _ => break,
        }
    }
    if pos == start || (n, s) == SLOW_BOARD {
        vec![start]
    } else {
        vec![start, pos]
    }
}

#[test]
#[ignore = "rewrites data/perft/bao.txt with the reference's counts (about half an hour on one core of a loaded machine)"]
fn regenerate_bao_perft_table() {
    let mut out = String::from(HEADER);
    for &(n, s) in BOARDS {
        for pos in positions(n, s) {
            let max = if (n, s) == SLOW_BOARD {
                SLOW_DEPTH
            } else {
                MAX_DEPTH
            };
            for depth in 1..=max {
                let count = pos.perft(depth);
                writeln!(out, "{n} {s} {} {depth} {count}", pos.text()).unwrap();
                eprintln!("{n} {s} {} {depth} {count}", pos.text());
                let limit = if pos == RefPos::start(8, 2) {
                    STANDARD_LIMIT
                } else {
                    SERIES_LIMIT
                };
                if count > limit || count == 0 {
                    break;
                }
            }
        }
    }
    std::fs::write(table_path(), out).unwrap();
}

const HEADER: &str = "\
# Perft counts of Bao la Kujifunza (BAO.md R8.3), computed by the simple reference
# implementation in crates/core/tests/bao_common/reference.rs (regenerate:
# cargo test --profile test-release -p kalah-core --test all -- --ignored bao_perft_data::).
#
# One line per (board, position, depth, count), fields separated by spaces:
#   pits seeds position depth count
# pits, seeds: the board (N pits a row, S seeds a pit at the start)
# position:    BAO.md R8.2 notation (b_N..b_1/a_N..a_1/A_1..A_N/B_1..B_N:S|N)
# depth, count: the number of sequences of exactly `depth` legal moves (a move that ends
#              the game counts; nothing continues past it)
# Each board has its start and a middle game (a fixed pseudo-random line of 2N moves);
# depths run until the count first passes 50000 (the standard start: 300000), reaches 0,
# or depth 30; 4x8 with 3 seeds has only its start, to depth 6 (the reference is slow there).
";

#[test]
fn bao_perft_table_matches_fast_engine() {
    let entries = read_table();
    assert!(entries.len() > 50);
    for e in &entries {
        if cfg!(debug_assertions) && e.count > QUICK_FAST {
            continue;
        }
        let pos: BaoPosition = e.position.parse().unwrap();
        assert_eq!(pos.pits(), e.pits);
        assert!(pos.seeds() <= 4 * e.pits * e.seeds);
        assert_eq!(
            perft(&pos, e.depth),
            e.count,
            "{} depth {}",
            e.position,
            e.depth
        );
    }
}

#[test]
fn bao_perft_table_small_entries_match_reference() {
    for e in read_table().iter().filter(|e| e.count <= QUICK_REFERENCE) {
        let pos = RefPos::parse(&e.position);
        assert_eq!(
            pos.perft(e.depth),
            e.count,
            "{} depth {}",
            e.position,
            e.depth
        );
    }
}

#[test]
fn bao_perft_table_covers_every_board_and_the_anchors() {
    let entries = read_table();
    for &(n, s) in BOARDS {
        let start = RefPos::start(n, s as u8).text();
        let series: Vec<&Entry> = entries.iter().filter(|e| e.position == start).collect();
        assert!(!series.is_empty(), "start of 4x{n} S={s}");
        // With one seed a pit South has no candidate at the start and has lost (R7.4).
        if s == 1 {
            assert_eq!((series.len(), series[0].count), (1, 0), "4x{n} S=1");
        } else {
            assert!(
                series.len() >= 6,
                "start of 4x{n} S={s} to depth 6 at least"
            );
        }
    }
    let standard = RefPos::start(8, 2).text();
    let count = |d: u32| {
        entries
            .iter()
            .find(|e| e.position == standard && e.depth == d)
            .map(|e| e.count)
    };
    // BAO.md R8.3's two anchors of the standard start.
    assert_eq!(count(1), Some(16));
    assert_eq!(count(2), Some(108));
}
