//! The budget policy of the in-memory endgame database: how many seeds a database built
//! for the work is worth (small enough to build in a fraction of the work it speeds up,
//! and to fit in a third of the memory available). The measurements behind each budget are
//! in `docs/tuning.md`.

use kalah_core::{Capture, Family, Game};

use crate::db::egdb::Egdb;
use crate::db::stopdb::StopDb;
use crate::os;

/// The seeds of a Kalah position whose search is about as large as that of a position of
/// `game` with `seeds` seeds in the houses, for the defaults that grow with the work
/// (database budget, table size); the measurements are in docs/tuning.md:
/// - General Kalah: 12 more. Nothing is captured and no turn is extra, so games run long
///   and proofs are deep: a larger database saves far more than it costs to build.
/// - Nigerian Kalah: never more than 40. Relays and fours end games fast: the search from
///   the start takes less time than building a database larger than the smallest budget's.
pub(crate) fn work_seeds(game: &Game, seeds: usize) -> usize {
    match game.rules().family {
        Family::Kalah => seeds,
        Family::General => seeds + 12,
        Family::Nigerian => seeds.min(40),
        // Solved by retrograde analysis, which takes no database budget.
        Family::Ethiopian | Family::Oware => seeds,
    }
}

/// A database budget for positions with `seeds` seeds in the houses that grows with them
/// without a step: `small` up to 40 seeds, `at_48` at 48 seeds, `at_60` from 60 seeds up,
/// and in between the geometric interpolation of its neighbours (the search above the
/// database grows about geometrically with the seeds in play, and so does what a larger
/// database saves).
fn budget_between(seeds: usize, small: u128, at_48: u128, at_60: u128) -> u128 {
    let between = |from: u128, to: u128, t: f64| {
        (from as f64 * (to as f64 / from as f64).powf(t)).round() as u128
    };
    match seeds {
        ..=40 => small,
        41..=47 => between(small, at_48, (seeds - 40) as f64 / 8.0),
        48..=59 => between(at_48, at_60.max(at_48), (seeds - 48) as f64 / 12.0),
        _ => at_60.max(at_48),
    }
}

/// The in-memory endgame database worth building for `solves` solves of `game` that
/// share it (the openings, a batch, an export), the largest of them with `seeds` seeds
/// in the houses: small enough to build in a fraction of the work it speeds up, and to
/// fit in a third of the memory available. `None` on tiny boards. Under the early stop
/// it is the database that reads the stores ([`StopDb`]).
///
/// The plain database's budget, in entries:
/// - about 3 million (12 seeds on 6 houses) up to 40 seeds;
/// - for one solve of 48 seeds, about 32 million with empty capture (16 seeds on 6
///   houses) and about 56 million with standard capture (17 seeds), whose proofs are
///   larger and gain more from it;
/// - for four solves or more of 48 seeds, about 150 million with empty capture (19
///   seeds on 6 houses) and about 360 million with standard capture (21 seeds);
/// - about 1.9 billion (25 seeds on 6 houses, 1.7 GiB) from 60 seeds up;
/// - in between, a budget between its neighbours' (no step from one seed to the next:
///   a position of a played game, with a few seeds fewer than the start, gets nearly
///   the start's database).
///
/// The early stop's budget:
/// - about 7 million up to 40 seeds (10 seeds on 6 houses);
/// - for one solve of 48 seeds, 140 million with standard capture and 70 million with
///   empty capture (14 and 13 seeds on 6 houses);
/// - for four solves or more of 48 seeds, 1.6 billion with standard capture (18 seeds)
///   and 900 million with empty capture (17 seeds);
/// - 1.6 billion from 60 seeds up; in between, as for the plain database.
///
/// The seeds stand for the work of a Kalah position; the other families' are weighed
/// first (General as 12 seeds more, Nigerian as at most 40; see `work_seeds`).
pub(crate) fn egdb_seeds_for(game: &Game, seeds: usize, solves: usize) -> Option<usize> {
    if game.capacity() < 24 {
        return None;
    }
    let seeds = work_seeds(game, seeds);
    let standard = game.rules().capture == Capture::Standard;
    // Entries of a database of `k` seeds on this board, and the budget for them.
    let (entries, budget): (fn(usize, usize) -> u128, u128) = if game.rules().early_stop {
        (StopDb::entries, stopdb_budget(seeds, solves, standard))
    } else {
        (Egdb::entries, egdb_budget(seeds, solves, standard))
    };
    let budget = match os::available_memory() {
        Some(bytes) => budget.min(bytes as u128 / 3),
        None => budget,
    };
    let mut k = 0;
    while k < game.capacity() / 2 && entries(game.houses(), k + 1) <= budget {
        k += 1;
    }
    (k > 0).then_some(k)
}

/// The plain database's budget in entries (see [`egdb_seeds_for`]).
fn egdb_budget(seeds: usize, solves: usize, standard: bool) -> u128 {
    let at_48 = match (solves, standard) {
        (4.., true) => 360_000_000,
        (4.., false) => 150_000_000,
        (_, true) => 56_000_000,
        (_, false) => 32_000_000,
    };
    budget_between(seeds, 3_000_000, at_48, 1_900_000_000)
}

/// The early stop's database budget in entries (see
/// [`egdb_seeds_for`]).
fn stopdb_budget(seeds: usize, solves: usize, standard: bool) -> u128 {
    let at_48 = match (solves, standard) {
        (4.., true) => 1_600_000_000,
        (4.., false) => 900_000_000,
        (_, true) => 140_000_000,
        (_, false) => 70_000_000,
    };
    budget_between(seeds, 7_000_000, at_48, 1_600_000_000)
}

#[cfg(test)]
mod tests {
    use super::*;
    use kalah_core::{Game, Rules};

    #[test]
    fn families_weigh_the_work_of_their_seeds() {
        let seeds = |rules: Rules| {
            let game = Game::new(rules).unwrap();
            egdb_seeds_for(&game, game.capacity(), 1)
        };
        // General(6,3) gets Kalah's database for 48 seeds, Nigerian never more than the
        // smallest budget's (available memory permitting: both are small).
        assert_eq!(seeds(Rules::kalah(6, 3)), Some(12));
        assert_eq!(seeds(Rules::general(6, 3)), Some(17));
        assert_eq!(seeds(Rules::kalah(6, 4)), Some(17));
        assert_eq!(seeds(Rules::nigerian(6, 4)), Some(12));
        assert_eq!(seeds(Rules::nigerian(6, 5)), Some(12));
    }

    #[test]
    fn default_database_grows_with_the_seeds_without_a_step() {
        for capture in [kalah_core::Capture::Standard, kalah_core::Capture::Empty] {
            for early_stop in [false, true] {
                let game = Game::new(Rules {
                    capture,
                    early_stop,
                    ..Rules::kalah(6, 5)
                })
                .unwrap();
                let mut last = egdb_seeds_for(&game, 40, 1).unwrap();
                for seeds in 41..=60 {
                    let k = egdb_seeds_for(&game, seeds, 1).unwrap();
                    assert!(
                        (last..=last + 1).contains(&k),
                        "{capture:?} early stop {early_stop}: {last} seeds at {} seeds in \
                         the houses, {k} at {seeds}",
                        seeds - 1
                    );
                    last = k;
                }
            }
        }
    }

    #[test]
    fn default_database_grows_with_the_seeds_and_the_solves() {
        let k64 = Game::new(Rules::kalah(6, 4)).unwrap();
        let k65 = Game::new(Rules::kalah(6, 5)).unwrap();
        let early = Game::new(Rules {
            early_stop: true,
            ..Rules::kalah(6, 4)
        })
        .unwrap();
        let k64e = Game::new(Rules {
            capture: kalah_core::Capture::Empty,
            ..Rules::kalah(6, 4)
        })
        .unwrap();
        assert_eq!(egdb_seeds_for(&k64, 48, 1), Some(17));
        assert_eq!(egdb_seeds_for(&k64e, 48, 1), Some(16));
        assert_eq!(egdb_seeds_for(&k64, 48, 10), Some(21));
        assert_eq!(egdb_seeds_for(&k64e, 48, 10), Some(19));
        assert_eq!(egdb_seeds_for(&k64, 30, 10), Some(12));
        // Under the early stop, the database that reads the stores: 14 seeds with standard
        // capture, 13 with empty capture, 10 below 48 seeds.
        assert_eq!(egdb_seeds_for(&early, 48, 1), Some(14));
        let early_empty = Game::new(Rules {
            capture: kalah_core::Capture::Empty,
            ..*early.rules()
        })
        .unwrap();
        assert_eq!(egdb_seeds_for(&early_empty, 48, 1), Some(13));
        assert_eq!(egdb_seeds_for(&early, 36, 1), Some(10));
        // More solves (or Kalah(6,5)) make a larger one pay, where the memory allows.
        let many = egdb_seeds_for(&early_empty, 48, 10).unwrap();
        match os::available_memory() {
            Some(bytes) if bytes >= 3 << 30 => assert_eq!(many, 17),
            _ => assert!((13..=17).contains(&many), "{many}"),
        }
        // 25 seeds need 1.7 GiB: only where a third of the memory available holds them.
        let big = egdb_seeds_for(&k65, 60, 1).unwrap();
        match os::available_memory() {
            Some(bytes) if bytes >= 6 << 30 => assert_eq!(big, 25),
            _ => assert!(big <= 25, "{big}"),
        }
    }
}
