//! Solver settings: the [`Config`] a solve runs with, and the one place that chooses them
//! for the work at hand ([`Config::for_work`], [`Config::for_seeds`]).
//!
//! The command line, `kalah bench`, the benchmarks and a library caller all solve with
//! these choices, so a library solve with [`Config::for_work`] searches exactly what
//! `kalah solve` searches. The choices follow the seeds in play, the number of solves that
//! share one solver, the rules, the endgame database at hand and the memory available. The
//! measurements behind each threshold are in `docs/tuning.md`.

use kalah_core::{Game, Position};

use crate::db::database::{egdb_seeds_for, work_seeds, Chosen, Database};
use crate::db::egdb::{EgdbError, Residence};
use crate::eval::Evaluation;

/// Solver settings.
///
/// [`Config::for_work`] gives the tuned settings the command line uses; the fields are
/// public so that a caller can then change one (threads, table size) or build an
/// experiment by hand. [`Config::default`] is a fixed, untuned baseline (no database, a
/// 256 MiB table, 12 sowings of deepening) for such experiments and tests.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    /// Search threads.
    pub threads: usize,
    /// Transposition table size in MiB.
    pub hash_mb: usize,
    /// Depth of the iterative-deepening phase, in sowings.
    pub deepening: u8,
    /// The endgame database, built or loaded when the solver is created. A solver given
    /// [`Database::Auto`] or [`Database::Memory`] sizes it for one solve from the start.
    pub database: Database,
    /// Where the values of a database file are held (see [`Config::default_residence`]).
    pub residence: Residence,
    /// Positions with fewer seeds than this in the houses are searched without the
    /// transposition table (they are cheaper to search than to look up; see
    /// [`Config::default_table_min_seeds`]).
    pub table_min_seeds: usize,
    /// Enhanced transposition cut-offs (probing every child's table entry before
    /// searching any) at positions with at least this many seeds in the houses. Off by
    /// default ([`Config::NO_ETC`]): nearly every node of a proof is a first visit, so the
    /// children's table entries are rarely there, and each probe of a large table costs a
    /// cache and TLB miss; the children the endgame database holds are valued in that pass
    /// all the same.
    pub etc_min_seeds: usize,
    /// With several threads, siblings are shared out (ABDADA) at positions with at least
    /// this many seeds in the houses.
    pub share_min_seeds: usize,
    /// The evaluation at the leaves of the anytime analysis ([`crate::Solver::analyse`]);
    /// it never touches an exact value. The settings made for a game
    /// ([`Config::for_work`], [`Config::for_seeds`]) take [`Evaluation::for_analysis`] of
    /// its rules (the learned evaluation of standard Kalah on six houses, the store
    /// difference elsewhere); [`Config::default`] the store difference. The deepening
    /// before an exact proof always orders by the store margin ([`Config::for_proof`]):
    /// the other evaluations' guesses cost the proof more nodes than they save
    /// (`docs/evaluation.md`).
    pub evaluation: Evaluation,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            threads: Config::default_threads(),
            hash_mb: 256,
            deepening: 12,
            database: Database::None,
            residence: Residence::Mapped,
            table_min_seeds: 0,
            etc_min_seeds: Config::NO_ETC,
            share_min_seeds: 20,
            evaluation: Evaluation::default(),
        }
    }
}

/// The share of the seeds in play (numerator, denominator) an endgame database must hold
/// for half the default table (see [`Config::default_hash_mb_with`]): Kalah(6,4) from the
/// start with a 20-seed file (standard capture) or a 22-seed one (empty capture).
const TABLE_HALF_SHARE: (usize, usize) = (2, 5);

/// True where an endgame database of `egdb_seeds` seeds holds at least half of the `seeds`
/// seeds in play: the proof above it is short, so set-up costs (table pages, loading a
/// file, the deepening) weigh more than they save.
fn short_proof(seeds: usize, egdb_seeds: Option<usize>) -> bool {
    egdb_seeds.is_some_and(|k| 2 * k >= seeds)
}

impl Config {
    /// These settings for many independent solves at once sharing one solver (its table
    /// and database): one search thread a solve, and the solves to run at once (the
    /// threads of these settings, at least one). Many solves keep every core busy with
    /// less overhead than Lazy SMP inside each.
    pub fn one_thread_a_solve(self) -> (Config, usize) {
        let workers = self.threads.max(1);
        (Config { threads: 1, ..self }, workers)
    }

    /// An [`Config::etc_min_seeds`] above any board's seeds: no cut-offs from the
    /// children's table entries.
    pub const NO_ETC: usize = kalah_core::MAX_TOTAL_SEEDS + 1;

    /// The settings for `solves` solves sharing one solver, the largest of them `pos` (or a
    /// position with as many seeds in the houses), with a database built in memory for the
    /// work ([`Database::auto`]): every core, and the table, database and deepening chosen
    /// for the seeds in play. It never looks at the environment; the command line's
    /// settings are [`Config::for_seeds`] with [`Database::from_env`].
    ///
    /// ```
    /// use kalah_core::{Game, Rules};
    /// use kalah_solver::Config;
    ///
    /// let game = Game::new(Rules::kalah(6, 4)).unwrap();
    /// let config = Config::for_work(&game, &game.start(), 1);
    /// assert_eq!(config.deepening, 16);
    /// ```
    pub fn for_work(game: &Game, pos: &Position, solves: usize) -> Config {
        let seeds = pos.seeds_in_houses() as usize;
        Config::sized(game, seeds, solves, Database::memory(game, seeds, solves))
    }

    /// [`Config::for_work`] for positions with at most `seeds` seeds in the houses and the
    /// endgame database `database`: an error where a named file or directory cannot be
    /// used (a directory without a file for these rules, a file that cannot be read).
    pub fn for_seeds(
        game: &Game,
        seeds: usize,
        solves: usize,
        database: &Database,
    ) -> Result<Config, EgdbError> {
        if game.rules().family.is_cyclic() {
            // Solved by retrograde analysis of the whole game graph, its positions that a
            // database file of the cycle rule holds answered from it (docs/cyclic.md).
            let database = match database.cyclic_file(game, seeds)? {
                Some(path) => Database::File(path),
                None => Database::Build(0),
            };
            return Ok(Config {
                threads: Config::default_threads(),
                database,
                ..Config::default()
            });
        }
        Ok(Config::sized(
            game,
            seeds,
            solves,
            database.choose(game, seeds, solves)?,
        ))
    }

    /// The settings for `solves` solves of positions with at most `seeds` seeds in the
    /// houses and the database `chosen`.
    fn sized(game: &Game, seeds: usize, solves: usize, chosen: Chosen) -> Config {
        Config {
            threads: Config::default_threads(),
            hash_mb: Config::default_hash_mb_with(game, seeds, solves, chosen.seeds),
            deepening: Config::default_deepening_with(game, seeds, chosen.seeds),
            residence: chosen
                .seeds
                .map_or(Residence::Mapped, |k| Config::default_residence(seeds, k)),
            table_min_seeds: Config::default_table_min_seeds(chosen.seeds),
            database: chosen.database,
            evaluation: Evaluation::for_analysis(game.rules()),
            ..Config::default()
        }
    }

    /// These settings for an exact proof: the deepening before it evaluates its leaves by
    /// the store margin, whatever [`Config::evaluation`] the analysis uses.
    pub fn for_proof(&self) -> std::borrow::Cow<'_, Config> {
        match self.evaluation {
            Evaluation::StoreDifference => std::borrow::Cow::Borrowed(self),
            _ => std::borrow::Cow::Owned(Config {
                evaluation: Evaluation::StoreDifference,
                ..self.clone()
            }),
        }
    }

    /// Every core the system offers this process.
    pub fn default_threads() -> usize {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    }

    /// The transposition table worth allocating for `game` by default, in MiB: 512 MiB from
    /// 60 seeds up (Kalah(6,5) fills it), 128 MiB below. With one-word entries (every board
    /// up to Kalah(6,8), see [`crate::tt::Table`]) 128 MiB holds 16 M positions; a larger
    /// table costs the zeroing of its pages and slower address translation, and saves no
    /// nodes on the smaller boards.
    pub fn default_hash_mb(game: &Game) -> usize {
        if work_seeds(game, game.capacity()) >= 60 {
            512
        } else {
            128
        }
    }

    /// The transposition table worth allocating for `solves` solves sharing it, of
    /// positions of `game` with at most `seeds` seeds in the houses, with an endgame
    /// database of `egdb_seeds` seeds: a quarter of [`Config::default_hash_mb`] where the
    /// database holds at least half of those seeds (the search above it, which skips the
    /// table just above the database, then stores a few million positions at most); for
    /// one solve, half of a 128 MiB default where it holds at least two fifths
    /// (`TABLE_HALF_SHARE`); else that default. A smaller table has fewer pages to zero on
    /// first touch and to translate, and more of it stays in the caches; solves that share
    /// one (`openings`, `batch`) fill more of it.
    pub fn default_hash_mb_with(
        game: &Game,
        seeds: usize,
        solves: usize,
        egdb_seeds: Option<usize>,
    ) -> usize {
        let full = Config::default_hash_mb(game);
        let (num, den) = TABLE_HALF_SHARE;
        match egdb_seeds {
            _ if short_proof(seeds, egdb_seeds) => (full / 4).max(1),
            Some(k) if solves <= 1 && full <= 128 && k * den >= seeds * num => (full / 2).max(1),
            _ => full,
        }
    }

    /// The [`Config::table_min_seeds`] worth using with an endgame database of
    /// `egdb_seeds` seeds: a sixth of them above the database (18 seeds with 16, 28 with
    /// 24), none without one. Just above the database a subtree is a handful of nodes
    /// whose children the database mostly answers, and the table probe and store (each a
    /// cache and TLB miss in a large table) cost more than the transpositions they catch.
    pub fn default_table_min_seeds(egdb_seeds: Option<usize>) -> usize {
        egdb_seeds.map_or(0, |k| k + k / 6)
    }

    /// Where to hold an endgame database file of `egdb_seeds` seeds for solving
    /// positions with at most `seeds` seeds in the houses: mapped where it holds at least
    /// half of those seeds (the proof is short, so loading dominates), else on huge pages
    /// ([`Residence::Huge`]: the search is long, and reads it faster so).
    pub fn default_residence(seeds: usize, egdb_seeds: usize) -> Residence {
        if short_proof(seeds, Some(egdb_seeds)) {
            Residence::Mapped
        } else {
            Residence::Huge
        }
    }

    /// The iterative-deepening depth worth spending for `game` by default: 16 sowings from
    /// 48 seeds up, 12 below (on the smaller boards the deeper guess is as often worse as
    /// better).
    pub fn default_deepening(game: &Game) -> u8 {
        if game.capacity() >= 48 {
            16
        } else {
            12
        }
    }

    /// The deepening worth spending on positions of `game` with at most `seeds` seeds in
    /// the houses, with an endgame database of `egdb_seeds` seeds: none where the database
    /// holds at least half of those seeds (the proof is then so small that the deepening
    /// costs more than its guess saves), else [`Config::default_deepening`].
    pub fn default_deepening_with(game: &Game, seeds: usize, egdb_seeds: Option<usize>) -> u8 {
        if short_proof(seeds, egdb_seeds) {
            0
        } else {
            Config::default_deepening(game)
        }
    }

    /// The in-memory endgame database worth building for `game` by default, for one solve
    /// from the start (see [`Config::default_egdb_seeds_for`]).
    pub fn default_egdb_seeds(game: &Game) -> Option<usize> {
        Config::default_egdb_seeds_for(game, game.capacity(), 1)
    }

    /// The in-memory endgame database worth building for `solves` solves of `game` that
    /// share it (the openings, a batch, an export), the largest of them with `seeds` seeds
    /// in the houses: the budget policy of the database module (see `docs/tuning.md`).
    /// `None` on tiny boards. Under the early stop it is the database that reads the stores
    /// ([`crate::db::stopdb::StopDb`]).
    pub fn default_egdb_seeds_for(game: &Game, seeds: usize, solves: usize) -> Option<usize> {
        egdb_seeds_for(game, seeds, solves)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kalah_core::{Game, Rules};

    #[test]
    fn many_solves_take_one_thread_each() {
        let config = Config {
            threads: 4,
            ..Config::default()
        };
        let (one, workers) = config.one_thread_a_solve();
        assert_eq!((one.threads, workers), (1, 4));
        let none = Config {
            threads: 0,
            ..Config::default()
        };
        assert_eq!(none.one_thread_a_solve().1, 1);
    }

    #[test]
    fn general_kalah_gets_the_larger_table() {
        let general = Game::new(Rules::general(6, 4)).unwrap();
        assert_eq!(Config::default_hash_mb(&general), 512);
    }

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
        use crate::db::egdb::Residence;
        assert_eq!(Config::default_residence(48, 24), Residence::Mapped);
        assert_eq!(Config::default_residence(60, 24), Residence::Huge);
        assert_eq!(Config::default_residence(48, 20), Residence::Huge);
    }

    #[test]
    fn table_shrinks_where_the_database_holds_half_the_seeds() {
        let k64 = Game::new(Rules::kalah(6, 4)).unwrap();
        let k65 = Game::new(Rules::kalah(6, 5)).unwrap();
        assert_eq!(Config::default_hash_mb_with(&k64, 48, 1, Some(24)), 32);
        assert_eq!(Config::default_hash_mb_with(&k64, 48, 1, Some(20)), 64);
        assert_eq!(Config::default_hash_mb_with(&k64, 48, 1, Some(19)), 128);
        assert_eq!(Config::default_hash_mb_with(&k64, 40, 1, Some(16)), 64);
        // Solves that share the table keep the default.
        assert_eq!(Config::default_hash_mb_with(&k64, 48, 10, Some(21)), 128);
        assert_eq!(Config::default_hash_mb_with(&k64, 48, 10, Some(24)), 32);
        assert_eq!(Config::default_hash_mb_with(&k64, 48, 1, None), 128);
        assert_eq!(Config::default_hash_mb_with(&k65, 60, 1, Some(24)), 512);
        assert_eq!(Config::default_hash_mb_with(&k65, 40, 1, Some(24)), 128);
        // Two fifths halve only the 128 MiB default: Kalah(6,5) was not measured so.
        assert_eq!(Config::default_hash_mb_with(&k65, 60, 1, Some(25)), 512);
    }
}
