//! The perft tables in `data/perft`: counted by the reference implementation, checked
//! here against the fast engine. `regenerate_perft_tables` rewrites them (see
//! data/perft/README.md); the quick checks recompute the small entries in a debug build,
//! `perft_tables_match_fast_engine_all_depths` every entry (run it with `--release`).

use crate::common;

use std::fmt::Write as _;

use common::reference::{self, RefBoard};
use common::{family_rules, perft_dir, perft_header, read_perft_tables, PerftEntry, Rng};
use kalah_core::{Capture, End, Family, Game, Leftovers, Position, Rules};

/// Entries whose cost (the counts of their series up to their depth, about the sowings a
/// perft makes) is at most this are checked in every `cargo test` (debug build).
const QUICK_FAST: u64 = 40_000;
/// Entries up to this cost are also recounted by the (slower) reference in every run.
const QUICK_REFERENCE: u64 = 5_000;
/// A series of depths stops after the first count above this.
const SERIES_LIMIT: u64 = 200_000;
/// ... or at this depth.
const SERIES_MAX_DEPTH: u32 = 40;

/// A perft table: the family, the file name, then the boards (houses, seeds) it holds.
type Table = (Family, &'static str, &'static [(u8, u8)]);

/// The tables.
const TABLES: [Table; 9] = [
    (
        Family::Kalah,
        "small.txt",
        &[(1, 1), (1, 3), (1, 8), (2, 1), (2, 3), (2, 5)],
    ),
    (
        Family::Kalah,
        "h3.txt",
        &[(3, 1), (3, 2), (3, 3), (3, 4), (3, 6)],
    ),
    (
        Family::Kalah,
        "h4.txt",
        &[(4, 1), (4, 2), (4, 3), (4, 4), (4, 5)],
    ),
    (Family::Kalah, "h6.txt", &[(6, 3), (6, 4), (6, 5), (6, 6)]),
    (Family::Kalah, "h8.txt", &[(8, 1), (8, 2), (8, 4)]),
    (Family::General, "general.txt", FAMILY_BOARDS),
    (Family::Nigerian, "nigerian.txt", FAMILY_BOARDS),
    (Family::Ethiopian, "ethiopian.txt", CYCLIC_BOARDS),
    (Family::Oware, "oware.txt", CYCLIC_BOARDS),
];

/// The boards of the tables of the families other than Kalah.
const FAMILY_BOARDS: &[(u8, u8)] = &[
    (1, 3),
    (2, 2),
    (2, 5),
    (3, 3),
    (3, 4),
    (4, 3),
    (6, 3),
    (6, 4),
    (6, 5),
    (8, 2),
];

/// The boards of the tables of Ethiopian Kalah and Oware.
const CYCLIC_BOARDS: &[(u8, u8)] = &[
    (1, 3),
    (2, 2),
    (2, 4),
    (3, 3),
    (4, 2),
    (4, 3),
    (6, 2),
    (6, 3),
    (6, 4),
    (8, 2),
];

/// Kalah(6,4) from the start goes deeper: depth 9 for every rule option, depth 11 for
/// the four capture x end combinations with the default leftovers and no early stop
/// (`benches/sowing.rs` checks its perft against these).
fn deep_depth(rules: &Rules, position: &str) -> u32 {
    if (rules.houses, rules.seeds) != (6, 4)
        || !position.starts_with("4,4,4,4,4,4,0,")
        || rules.family != Family::Kalah
    {
        return 0;
    }
    if rules.leftovers == Leftovers::Owner && !rules.early_stop {
        11
    } else {
        9
    }
}

/// The positions of a board: the start, a middle game, and (when the seeds allow) a
/// house big enough to sow more than one lap.
fn positions(h: u8, s: u8) -> Vec<String> {
    let (h, s) = (h as usize, s as usize);
    let mut v = vec![RefBoard::start(h, s as u8).notation()];
    // A middle game: a fixed pseudo-random line of standard Kalah, 2H sowings long,
    // kept only while the game is still running.
    let rules = Rules::kalah(h as u8, s as u8);
    let mut rng = Rng::new(1000 + 10 * h as u64 + s as u64);
    let mut b = RefBoard::start(h, s as u8);
    for _ in 0..2 * h {
        let moves = b.legal_houses();
        if moves.is_empty() {
            break;
        }
        let next = b.sow(&rules, rng.pick(&moves)).0;
        if next.over {
            break;
        }
        b = next;
    }
    if b != RefBoard::start(h, s as u8) {
        v.push(b.notation());
    }
    v.extend(lap_position(h as u8, s as u8));
    v
}

/// A lap: South's first house holds one more seed than a full lap of Kalah (2H+1 places),
/// every other house one seed, the rest in the stores; `None` where the seeds do not allow.
fn lap_position(h: u8, s: u8) -> Option<String> {
    let (h, s) = (h as usize, s as usize);
    let capacity = 2 * h * s;
    let big = 2 * h + 2;
    (big + 2 * h - 1 <= capacity).then(|| {
        let mut counts = vec![1u8; 2 * h + 2];
        counts[0] = big as u8;
        let rest = capacity - (big + 2 * h - 1);
        counts[h] = (rest / 2) as u8;
        counts[2 * h + 1] = (rest - rest / 2) as u8;
        common::notation(&counts, kalah_core::Side::South)
    })
}

/// The positions of a board of Ethiopian Kalah or Oware: the start, two middle games (a
/// fixed pseudo-random line of the family's preset, 2H and 4H sowings long, kept while the
/// game runs), the lap position of [`lap_position`] (South's first house sows more than a
/// lap: Oware skips it) and, for Oware, South to move against an empty North row, where
/// only some sowings feed North (South's house `j` holds `j % 3 + 1`).
fn cyclic_positions(family: Family, h: u8, s: u8) -> Vec<String> {
    let rules = match family {
        Family::Ethiopian => Rules::ethiopian(h, s),
        _ => Rules::oware(h, s),
    };
    let (h, s) = (h as usize, s as usize);
    let start = RefBoard::start(h, s as u8);
    let mut v = vec![start.notation()];
    let mut rng = Rng::new(2000 + 10 * h as u64 + s as u64);
    let mut b = start;
    for sowings in 1..=4 * h {
        let moves = b.legal_moves(&rules);
        if moves.is_empty() {
            break;
        }
        let next = b.sow(&rules, rng.pick(&moves)).0;
        if next.over {
            break;
        }
        b = next;
        if sowings % (2 * h) == 0 && !v.contains(&b.notation()) {
            v.push(b.notation());
        }
    }
    v.extend(lap_position(h as u8, s as u8));
    let capacity = 2 * h * s;
    let row: Vec<u8> = (0..h).map(|j| (j % 3 + 1) as u8).collect();
    let sown: usize = row.iter().map(|&c| c as usize).sum();
    if family == Family::Oware && sown <= capacity {
        let rest = capacity - sown;
        let mut counts = row;
        counts.push((rest / 2) as u8);
        counts.extend(std::iter::repeat_n(0, h));
        counts.push((rest - rest / 2) as u8);
        v.push(common::notation(&counts, kalah_core::Side::South));
    }
    v
}

#[test]
#[ignore = "rewrites data/perft; run with --release (see data/perft/README.md)"]
fn regenerate_perft_tables() {
    std::fs::create_dir_all(perft_dir()).unwrap();
    for (family, file, boards) in TABLES {
        let mut text = perft_header(family);
        for &(h, s) in boards {
            let list = match family.is_cyclic() {
                true => cyclic_positions(family, h, s),
                false => positions(h, s),
            };
            for rules in family_rules(family, h, s) {
                for position in &list {
                    let parsed: Position = position.parse().unwrap();
                    let board =
                        RefBoard::from_counts(&parsed.absolute_counts(), parsed.side_to_move())
                            .settled(&rules);
                    if board.over {
                        continue;
                    }
                    let deep = deep_depth(&rules, position);
                    for depth in 1..=SERIES_MAX_DEPTH.max(deep) {
                        let count = reference::perft(&rules, &board, depth);
                        let entry = PerftEntry {
                            rules,
                            position: position.clone(),
                            depth,
                            count,
                        };
                        writeln!(text, "{}", entry.to_line()).unwrap();
                        let done = count == 0
                            || depth >= SERIES_MAX_DEPTH
                            || (count > SERIES_LIMIT && depth >= deep);
                        if done {
                            break;
                        }
                    }
                }
            }
        }
        std::fs::write(perft_dir().join(file), text).unwrap();
    }
}

fn fast_perft(entry: &PerftEntry) -> u64 {
    let game = Game::new(entry.rules).unwrap();
    let pos = game.settle(entry.position.parse().unwrap()).unwrap();
    kalah_core::perft(&game, &pos, entry.depth)
}

/// The entries with their cost: the sum of the counts of the same series (rules and
/// position) up to their depth, about the number of sowings recounting them takes.
fn entries_with_cost() -> Vec<(String, PerftEntry, u64)> {
    let mut v: Vec<(String, PerftEntry, u64)> = Vec::new();
    for (place, entry) in read_perft_tables() {
        let cost = match v.last() {
            Some((_, e, c)) if e.rules == entry.rules && e.position == entry.position => {
                c.saturating_add(entry.count)
            }
            _ => entry.count,
        };
        v.push((place, entry, cost));
    }
    v
}

fn check_fast(limit: u64) -> usize {
    let mut checked = 0;
    for (place, entry, cost) in entries_with_cost() {
        if cost <= limit {
            assert_eq!(
                fast_perft(&entry),
                entry.count,
                "{place}: {}",
                entry.to_line()
            );
            checked += 1;
        }
    }
    checked
}

#[test]
fn perft_tables_match_fast_engine() {
    let checked = check_fast(QUICK_FAST);
    assert!(checked > 1_000, "only {checked} entries checked");
}

#[test]
#[ignore = "every depth of every table: run with --release"]
fn perft_tables_match_fast_engine_all_depths() {
    check_fast(u64::MAX);
}

#[test]
fn perft_tables_match_reference() {
    let mut checked = 0;
    for (place, entry, cost) in entries_with_cost() {
        if cost <= QUICK_REFERENCE {
            let parsed: Position = entry.position.parse().unwrap();
            let board = RefBoard::from_counts(&parsed.absolute_counts(), parsed.side_to_move())
                .settled(&entry.rules);
            assert_eq!(
                reference::perft(&entry.rules, &board, entry.depth),
                entry.count,
                "{place}: {}",
                entry.to_line()
            );
            checked += 1;
        }
    }
    assert!(checked > 500, "only {checked} entries checked");
}

#[test]
fn perft_tables_cover_every_rule_option() {
    let entries = read_perft_tables();
    let all_rules = |h, s| family_rules(Family::Kalah, h, s);
    let deepest = |rules: &Rules, position: &str| {
        entries
            .iter()
            .filter(|(_, e)| e.rules == *rules && e.position == position)
            .map(|(_, e)| e.depth)
            .max()
            .unwrap_or(0)
    };
    for h in [3u8, 4, 6] {
        let mut seeds: Vec<u8> = entries
            .iter()
            .filter(|(_, e)| e.rules.houses == h && e.rules.family == Family::Kalah)
            .map(|(_, e)| e.rules.seeds)
            .collect();
        seeds.sort();
        seeds.dedup();
        assert!(seeds.len() >= 3, "only seeds {seeds:?} for {h} houses");
        for s in seeds {
            for rules in all_rules(h, s) {
                let start = RefBoard::start(h as usize, s).notation();
                assert!(deepest(&rules, &start) >= 3, "{rules} from the start");
            }
        }
    }
    let start = RefBoard::start(6, 4).notation();
    for rules in all_rules(6, 4) {
        assert!(deepest(&rules, &start) >= 9, "{rules}");
    }
    for capture in [Capture::Standard, Capture::Empty] {
        for end in [End::RowEmpty, End::MoverStuck] {
            let rules = Rules {
                capture,
                end,
                ..Rules::kalah(6, 4)
            };
            assert!(deepest(&rules, &start) >= 11, "{rules}");
        }
    }
    // Every rule set of the other families, from the start of every board of theirs
    // (a game of one house may end within three sowings).
    for (family, boards) in [
        (Family::General, FAMILY_BOARDS),
        (Family::Nigerian, FAMILY_BOARDS),
        (Family::Ethiopian, CYCLIC_BOARDS),
        (Family::Oware, CYCLIC_BOARDS),
    ] {
        for &(h, s) in boards {
            let start = RefBoard::start(h as usize, s).notation();
            let depth = if h == 1 { 1 } else { 3 };
            for rules in family_rules(family, h, s) {
                assert!(deepest(&rules, &start) >= depth, "{rules} from the start");
            }
        }
    }
}
