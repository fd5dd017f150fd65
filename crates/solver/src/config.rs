//! Solver settings: the [`Config`] a solve runs with, and the tuned defaults for the work
//! at hand.

/// Solver settings.
#[derive(Clone, Copy, Debug)]
pub struct Config {
    /// Search threads.
    pub threads: usize,
    /// Transposition table size in MiB.
    pub hash_mb: usize,
    /// Depth of the iterative-deepening phase, in sowings.
    pub deepening: u8,
    /// Build an endgame database of positions with at most this many seeds in the
    /// houses when the solver is created (in memory; `None`: no database).
    pub egdb_seeds: Option<usize>,
    /// Positions with fewer seeds than this in the houses are searched without the
    /// transposition table (they are cheaper to search than to look up; see
    /// [`Config::default_table_min_seeds`]).
    pub table_min_seeds: usize,
    /// Enhanced transposition cut-offs (probing every child's table entry before
    /// searching any) at positions with at least this many seeds in the houses. Off by
    /// default ([`Config::NO_ETC`]): the children the endgame database holds are valued in
    /// that pass all the same, but nearly every node of a proof is a first visit, so the
    /// children's table entries are rarely there, and each probe of a large table costs a
    /// cache and TLB miss. Without them the proofs search 5-25% more nodes in 7-20% less
    /// time: one thread, 16-seed database, Kalah(6,4) empty 10.9 s -> 9.0-9.6 s, standard
    /// 23.0-23.3 s -> 21.4-21.5 s; two threads, Kalah(6,5) empty with the 24-seed file
    /// 246 s -> 198 s (879 M -> 1.01 G nodes); `kalah bench` 11% more nodes in 4% less
    /// time. Two threads on Kalah(6,4) are within their noise (standard 12.4-14.9 s either
    /// way).
    pub etc_min_seeds: usize,
    /// With several threads, siblings are shared out (ABDADA) at positions with at least
    /// this many seeds in the houses.
    pub share_min_seeds: usize,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            hash_mb: 256,
            deepening: 12,
            egdb_seeds: None,
            table_min_seeds: 0,
            etc_min_seeds: Config::NO_ETC,
            share_min_seeds: 20,
        }
    }
}

/// True where an endgame database of `egdb_seeds` seeds holds at least half of the `seeds`
/// seeds in play: the proof above it is short, so set-up costs (table pages, loading a
/// file, the deepening) weigh more than they save.
fn short_proof(seeds: usize, egdb_seeds: Option<usize>) -> bool {
    egdb_seeds.is_some_and(|k| 2 * k >= seeds)
}

impl Config {
    /// An [`Config::etc_min_seeds`] above any board's seeds: no cut-offs from the
    /// children's table entries.
    pub const NO_ETC: usize = kalah_core::MAX_TOTAL_SEEDS + 1;

    /// The transposition table worth allocating for `game` by default, in MiB: 512 MiB from
    /// 60 seeds up (Kalah(6,5) fills it), 128 MiB below. With one-word entries (every board
    /// up to Kalah(6,8), see [`crate::tt::Table`]) 128 MiB holds 16 M positions. Kalah(6,4)
    /// with the 16-seed database, two threads, alternating: 256 MiB was slower (standard
    /// 7.3-8.6 s wall and 63-65 M nodes against 6.5-7.4 s and 56-58 M; empty 3.6-4.3 s
    /// against 3.6-4.0 s): every page of a table costs its zeroing and, on a virtual
    /// machine, slower address translation, and the larger table did not save nodes.
    pub fn default_hash_mb(game: &kalah_core::Game) -> usize {
        if game.capacity() >= 60 {
            512
        } else {
            128
        }
    }

    /// The transposition table worth allocating for positions of `game` with at most
    /// `seeds` seeds in the houses, with an endgame database of `egdb_seeds` seeds: a
    /// quarter of [`Config::default_hash_mb`] where the database holds at least half of
    /// those seeds (the search above it, which skips the table just above the database,
    /// then stores a few million positions at most), else that default.
    ///
    /// A smaller table has fewer pages to zero on first touch and to translate. Kalah(6,4)
    /// with the 24-seed database file, 64 MiB against 512 MiB: from the start, empty
    /// capture 0.76-0.78 s wall against 1.27 s (same nodes); the ten openings with standard
    /// capture 9.45-9.75 s against 10.35-10.95 s (67.8 M against 66.4 M nodes). (Those were
    /// two-word entries: 64 MiB then held as many as 32 MiB now.)
    pub fn default_hash_mb_with(
        game: &kalah_core::Game,
        seeds: usize,
        egdb_seeds: Option<usize>,
    ) -> usize {
        if short_proof(seeds, egdb_seeds) {
            (Config::default_hash_mb(game) / 4).max(1)
        } else {
            Config::default_hash_mb(game)
        }
    }

    /// The [`Config::table_min_seeds`] worth using with an endgame database of
    /// `egdb_seeds` seeds: a sixth of them above the database (18 seeds with 16, 28 with
    /// 24), none without one.
    ///
    /// Just above the database a subtree is a handful of nodes whose children the database
    /// mostly answers, and the table probe and store (each a cache and TLB miss in a large
    /// table) cost more than the transpositions they catch. Measured without ETC (two
    /// threads unless noted):
    /// - 16-seed database, Kalah(6,4): empty 6.32 s -> 5.46 s (37.1 M -> 38.3 M nodes),
    ///   standard 13.37 s -> 12.04 s (88.7 M -> 93.5 M); from 20 seeds the standard tree
    ///   explodes (139 M nodes, 15.7 s).
    /// - 24-seed file, Kalah(6,4): from 30 seeds, empty 0.55 s -> 0.43 s, standard
    ///   1.18 s -> 0.93 s; one thread, standard 1.70-1.84 s -> 1.29-1.32 s from 28 seeds.
    /// - 24-seed file, Kalah(6,5) empty: 185.6 s -> 173.2 s (1.01 G -> 1.14 G nodes).
    pub fn default_table_min_seeds(egdb_seeds: Option<usize>) -> usize {
        egdb_seeds.map_or(0, |k| k + k / 6)
    }

    /// Where to hold an endgame database file of `egdb_seeds` seeds for solving
    /// positions with at most `seeds` seeds in the houses: mapped where it holds at least
    /// half of those seeds (the proof is short, so loading dominates), else on huge pages
    /// ([`crate::egdb::Residence::Huge`]: the search is long, and reads it faster so).
    pub fn default_residence(seeds: usize, egdb_seeds: usize) -> crate::egdb::Residence {
        if short_proof(seeds, Some(egdb_seeds)) {
            crate::egdb::Residence::Mapped
        } else {
            crate::egdb::Residence::Huge
        }
    }

    /// The iterative-deepening depth worth spending for `game` by default: 16 sowings from
    /// 48 seeds up, 12 below. On Kalah(6,4) the deeper guess and move hints save 8-15% of
    /// the proof (2 threads: empty 7.4-8.0 s -> 6.7-7.2 s, standard 17.4-17.8 s ->
    /// 13.7-14.8 s); on the smaller boards 16 is mixed (Kalah(6,3) and (4,6) 8-13% fewer
    /// nodes, Kalah(5,4) 11-15% more).
    pub fn default_deepening(game: &kalah_core::Game) -> u8 {
        if game.capacity() >= 48 {
            16
        } else {
            12
        }
    }

    /// The deepening worth spending on positions of `game` with at most `seeds` seeds in
    /// the houses, with an endgame database of `egdb_seeds` seeds: none where the database
    /// holds at least half of those seeds, else [`Config::default_deepening`].
    ///
    /// With such a database the proof is so small that the deepening costs more than its
    /// guess saves: Kalah(6,4) from the start with the 24-seed database searches 25-30%
    /// fewer nodes without it (empty 2.6-2.7 M against 3.5-3.7 M, standard 5.4 M against
    /// 7.6-7.7 M), and its ten openings 33% fewer (standard 50 M against 74 M). Where the
    /// database holds less, the guess pays: Kalah(6,5) with the 24-seed database needs
    /// 1.42 G nodes without it and 872 M with it, and most `kalah bench` positions are
    /// also smaller with it.
    pub fn default_deepening_with(
        game: &kalah_core::Game,
        seeds: usize,
        egdb_seeds: Option<usize>,
    ) -> u8 {
        if short_proof(seeds, egdb_seeds) {
            0
        } else {
            Config::default_deepening(game)
        }
    }

    /// The in-memory endgame database worth building for `game` by default, for one solve
    /// from the start (see [`Config::default_egdb_seeds_for`]).
    pub fn default_egdb_seeds(game: &kalah_core::Game) -> Option<usize> {
        Config::default_egdb_seeds_for(game, game.capacity(), 1)
    }

    /// The in-memory endgame database worth building for `solves` solves of `game` that
    /// share it (the openings, a batch, an export), the largest of them with `seeds` seeds
    /// in the houses: small enough to build in a fraction of the work it speeds up, and to
    /// fit in a third of the memory available. `None` on tiny boards. Under the early stop
    /// it is the database that reads the stores ([`crate::stopdb::StopDb`]), sized by
    /// `stopdb_budget`.
    ///
    /// - About 3 million entries (12 seeds on 6 houses, a fraction of a second) below 48
    ///   seeds.
    /// - For one solve of 48 to 59 seeds, about 30 million with empty capture (16 seeds
    ///   on 6 houses, 0.7 s on 2 cores) and about 52 million with standard capture (17
    ///   seeds, 1.2 s), whose proofs are three times larger and gain more from it.
    ///   Kalah(6,4) from the start at 0779b97, two threads, alternating: standard with 16
    ///   / 17 / 18 seeds 6.20-7.10 / 6.06-6.67 / 6.71-7.18 s wall (seven / seven / three
    ///   runs; 56-58 M -> 46 M nodes from 16 to 17); empty with 15 / 16 seeds 2.45-2.71 /
    ///   2.43-2.52 s (four runs each), 17 seeds 3.17-3.24 s (two runs).
    /// - For four solves or more of 48 to 59 seeds, about 140 million with empty capture
    ///   (19 seeds on 6 houses, 4 s to build) and about 350 million with standard capture
    ///   (21 seeds, 11 s). The ten openings of Kalah(6,4) at e75cb03, wall: empty with 18 /
    ///   19 / 20 / 21 seeds 19.6-20.9 / 15.8-16.4 / 16.7-18.1 / 19.0 s; standard with 20 /
    ///   21 / 22 seeds 35.6 / 30.7-31.2 / 32.2 s.
    /// - About 1.9 billion (25 seeds on 6 houses, 1.7 GiB, about 45 s on 2 cores) from 60
    ///   seeds up. Kalah(6,5) from the start at 6a680ab, one run each: with empty capture
    ///   112.8 s in all with 25 seeds against 118.4 s with 24 (57.1 s against 76.9 s
    ///   searching); with standard capture 195.1 s against 220.1 s, and 203.5 s with 26
    ///   seeds (116.4 s searching, 2.6 GiB). Much smaller is far worse: with 22 seeds
    ///   Kalah(6,5) empty had not finished after 6 min, with 16 not after 23 min.
    pub fn default_egdb_seeds_for(
        game: &kalah_core::Game,
        seeds: usize,
        solves: usize,
    ) -> Option<usize> {
        if game.capacity() < 24 {
            return None;
        }
        let standard = game.rules().capture == kalah_core::Capture::Standard;
        // Entries of a database of `k` seeds on this board, and the budget for them.
        let (entries, budget): (fn(usize, usize) -> u128, u128) = if game.rules().early_stop {
            (
                crate::stopdb::StopDb::entries,
                Config::stopdb_budget(seeds, solves, standard),
            )
        } else {
            let budget = match (seeds, solves) {
                (60.., _) => 1_900_000_000,
                (48.., 4..) if standard => 360_000_000,
                (48.., 4..) => 150_000_000,
                (48.., _) if standard => 56_000_000,
                (48.., _) => 32_000_000,
                _ => 3_000_000,
            };
            (crate::egdb::Egdb::entries, budget)
        };
        let budget = match crate::egdb::file::available_memory() {
            Some(bytes) => budget.min(bytes as u128 / 3),
            None => budget,
        };
        let mut k = 0;
        while k < game.capacity() / 2 && entries(game.houses(), k + 1) <= budget {
            k += 1;
        }
        (k > 0).then_some(k)
    }

    /// The entries of the early-stop database ([`crate::stopdb::StopDb`]) worth building
    /// for `solves` solves of positions with at most `seeds` seeds in the houses (see
    /// [`Config::default_egdb_seeds_for`]):
    /// - about 7 million entries below 48 seeds (10 seeds on 6 houses);
    /// - for one solve from 48 seeds up, 140 million with standard capture and 70 million
    ///   with empty capture (14 and 13 seeds, 1.2 s and 0.6 s on 2 cores);
    /// - for four solves or more from 48 seeds up, 1.6 billion with standard capture
    ///   (18 seeds, 1.5 GiB, about 13 s) and 900 million with empty capture (17 seeds,
    ///   0.8 GiB, about 8 s);
    /// - from 60 seeds up, 1.6 billion (18 seeds);
    ///
    /// the caller caps it at a third of the memory available.
    ///
    /// Kalah(6,4) under the online rules from the start, two threads, build + search:
    /// standard capture without a database 13.6-15.2 s, with 13 / 14 / 15 / 16 seeds
    /// 0.8 + 5.4 / 1.4 + 4.5 / 2.8 + 3.6 / 5.1 + 3.0 s; empty capture without 4.3 s, with
    /// 13 / 14 / 15 seeds 0.7 + 2.7 / 1.4 + 2.4 / 2.6 + 2.2 s. Kalah(6,3): standard 0.41 s
    /// without, 0.11 + 0.17 s with 10 seeds. The ten openings of Kalah(6,4), wall:
    /// `online` with 16 / 17 / 18 / 19 seeds 184.5 / 132.8 / 99.1 / 91.5 s (3.7 GB at
    /// 19); `online-empty` with 13 / 15 / 16 / 17 seeds 73.0 / 53.6 / 47.2 / 44.1 s.
    /// Kalah(6,5) `online-empty` from the start (+14): 15 seeds 436.6 s searching (5.14 G
    /// nodes), 18 seeds 297.0 s (3.10 G nodes) after a 13 s build.
    fn stopdb_budget(seeds: usize, solves: usize, standard: bool) -> u128 {
        match (seeds, solves) {
            (60.., _) => 1_600_000_000,
            (48.., 4..) if standard => 1_600_000_000,
            (48.., 4..) => 900_000_000,
            (48.., _) if standard => 140_000_000,
            (48.., _) => 70_000_000,
            _ => 7_000_000,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kalah_core::{Game, Rules};

    #[test]
    fn deepening_is_skipped_only_where_the_database_holds_half_the_seeds() {
        let k64 = Game::new(Rules::kalah(6, 4)).unwrap();
        let k65 = Game::new(Rules::kalah(6, 5)).unwrap();
        let k53 = Game::new(Rules::kalah(5, 3)).unwrap();
        assert_eq!(Config::default_deepening_with(&k64, 48, Some(24)), 0);
        assert_eq!(Config::default_deepening_with(&k64, 47, Some(24)), 0);
        assert_eq!(Config::default_deepening_with(&k64, 48, Some(20)), 16);
        assert_eq!(Config::default_deepening_with(&k64, 48, None), 16);
        assert_eq!(Config::default_deepening_with(&k65, 60, Some(24)), 16);
        assert_eq!(Config::default_deepening_with(&k53, 30, Some(14)), 12);
        assert_eq!(Config::default_deepening_with(&k53, 20, Some(14)), 0);
    }

    #[test]
    fn files_are_mapped_where_the_database_holds_half_the_seeds() {
        use crate::egdb::Residence;
        assert_eq!(Config::default_residence(48, 24), Residence::Mapped);
        assert_eq!(Config::default_residence(60, 24), Residence::Huge);
        assert_eq!(Config::default_residence(48, 20), Residence::Huge);
    }

    #[test]
    fn table_shrinks_where_the_database_holds_half_the_seeds() {
        let k64 = Game::new(Rules::kalah(6, 4)).unwrap();
        let k65 = Game::new(Rules::kalah(6, 5)).unwrap();
        assert_eq!(Config::default_hash_mb_with(&k64, 48, Some(24)), 32);
        assert_eq!(Config::default_hash_mb_with(&k64, 48, Some(20)), 128);
        assert_eq!(Config::default_hash_mb_with(&k64, 48, None), 128);
        assert_eq!(Config::default_hash_mb_with(&k65, 60, Some(24)), 512);
        assert_eq!(Config::default_hash_mb_with(&k65, 40, Some(24)), 128);
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
        assert_eq!(Config::default_egdb_seeds_for(&k64, 48, 1), Some(17));
        assert_eq!(Config::default_egdb_seeds_for(&k64e, 48, 1), Some(16));
        assert_eq!(Config::default_egdb_seeds_for(&k64, 48, 10), Some(21));
        assert_eq!(Config::default_egdb_seeds_for(&k64e, 48, 10), Some(19));
        assert_eq!(Config::default_egdb_seeds_for(&k64, 30, 10), Some(12));
        // Under the early stop, the database that reads the stores: 14 seeds with standard
        // capture, 13 with empty capture, 10 below 48 seeds.
        assert_eq!(Config::default_egdb_seeds_for(&early, 48, 1), Some(14));
        let early_empty = Game::new(Rules {
            capture: kalah_core::Capture::Empty,
            ..*early.rules()
        })
        .unwrap();
        assert_eq!(
            Config::default_egdb_seeds_for(&early_empty, 48, 1),
            Some(13)
        );
        assert_eq!(Config::default_egdb_seeds_for(&early, 36, 1), Some(10));
        // More solves (or Kalah(6,5)) make a larger one pay, where the memory allows.
        let many = Config::default_egdb_seeds_for(&early_empty, 48, 10).unwrap();
        match crate::egdb::file::available_memory() {
            Some(bytes) if bytes >= 3 << 30 => assert_eq!(many, 17),
            _ => assert!((13..=17).contains(&many), "{many}"),
        }
        // 25 seeds need 1.7 GiB: only where a third of the memory available holds them.
        let big = Config::default_egdb_seeds_for(&k65, 60, 1).unwrap();
        match crate::egdb::file::available_memory() {
            Some(bytes) if bytes >= 6 << 30 => assert_eq!(big, 25),
            _ => assert!(big <= 25, "{big}"),
        }
    }
}
