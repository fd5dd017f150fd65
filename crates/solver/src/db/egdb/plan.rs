//! A database build to a file, decided before any work: the game it runs in, what it
//! needs, and why it may be refused ([`FileBuild`]); the build itself is
//! [`Egdb::build_file`], resumable from its partial file.

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

use kalah_core::{Game, Rules, RulesError};

use super::file::{partial_path, Requirements};
use super::{Egdb, EgdbError};

/// Why a build to a file is refused before any work.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlanError {
    /// The rules make no game.
    Rules(RulesError),
    /// The rules keep no database files: the early stop ([`EgdbError::EarlyStop`]).
    Unbuildable(EgdbError),
    /// The database asked for is too large for this board ([`Requirements::of`]).
    Size(EgdbError),
}

/// A build of a database of every position with at most `max_seeds` seeds, to a file.
#[derive(Clone)]
pub struct FileBuild {
    /// The game the build runs in.
    pub game: Game,
    /// The most seeds in the houses of a position in the database.
    pub max_seeds: usize,
    /// The memory and disk space it needs.
    pub need: Requirements,
}

/// What a finished [`FileBuild::run`] did.
pub struct Built {
    /// The database built.
    pub db: Egdb,
    /// The levels read back from the partial file of an interrupted build.
    pub resumed: usize,
    /// The entries computed by this run (those resumed left out).
    pub computed: u64,
}

impl FileBuild {
    /// Plans a build for `rules` of `max_seeds` seeds: the seeds per house raised to hold
    /// `max_seeds` seeds (they change no value), refused for the families without database
    /// files, under the early stop, and where the database is too large for the board.
    pub fn plan(rules: Rules, max_seeds: usize) -> Result<FileBuild, PlanError> {
        let houses = rules.houses.max(1) as usize;
        // Refused here, by the flag's own limit, before the seeds per house raised for it
        // could fail as too many seeds per house.
        let most = match rules.family.is_cyclic() {
            true => crate::db::cyclic_db::MAX_SEEDS,
            false => super::MAX_SEEDS,
        };
        let limit = most.min(kalah_core::MAX_TOTAL_SEEDS / (2 * houses) * (2 * houses));
        if max_seeds > limit {
            return Err(PlanError::Size(EgdbError::TooManySeeds {
                seeds: max_seeds,
                limit,
            }));
        }
        let seeds = rules
            .seeds
            .max(max_seeds.div_ceil(2 * houses).min(255) as u8);
        let game = Game::new(Rules { seeds, ..rules }).map_err(PlanError::Rules)?;
        if game.rules().early_stop {
            return Err(PlanError::Unbuildable(EgdbError::EarlyStop));
        }
        let need = Requirements::of(game.houses(), max_seeds).map_err(PlanError::Size)?;
        Ok(FileBuild {
            game,
            max_seeds,
            need,
        })
    }

    /// The partial file of an interrupted build to `path` that this build resumes from,
    /// if there is one.
    pub fn resumes(&self, path: &Path) -> Option<PathBuf> {
        Some(partial_path(path)).filter(|p| p.exists())
    }

    /// Starts the build to `path` from the finished smaller file `from` (see
    /// [`Egdb::start_from`]); the levels copied.
    pub fn start_from(&self, from: &Path, path: &Path) -> Result<usize, EgdbError> {
        Egdb::start_from(&self.game, self.max_seeds, from, path)
    }

    /// Builds the database to `path` (see [`Egdb::build_file_cancellable`]); `progress(level,
    /// done, total)` is called from the worker threads. Raising `cancel` stops the build
    /// with [`EgdbError::Cancelled`], the finished levels kept in the partial file for the
    /// next run to resume from ([`FileBuild::resumes`]).
    pub fn run(
        &self,
        path: &Path,
        cancel: &AtomicBool,
        progress: &(dyn Fn(usize, u64, u64) + Sync),
    ) -> Result<Built, EgdbError> {
        let (db, resumed) =
            Egdb::build_file_cancellable(&self.game, self.max_seeds, path, cancel, progress)?;
        let computed = self.need.entries - db.level_start(resumed);
        Ok(Built {
            db,
            resumed,
            computed,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kalah_core::Rules;

    #[test]
    fn plan_raises_the_seeds_per_house_to_hold_the_database() {
        let plan = FileBuild::plan(Rules::kalah(4, 1), 20).unwrap();
        assert_eq!(plan.game.rules().seeds, 3);
        assert_eq!(plan.need, Requirements::of(4, 20).unwrap());
        let plan = FileBuild::plan(Rules::kalah(4, 6), 20).unwrap();
        assert_eq!(plan.game.rules().seeds, 6, "never lowered");
    }

    #[test]
    fn requirements_say_their_size_in_words() {
        let need = Requirements::of(6, 17).unwrap();
        assert_eq!(need.to_string(), "51.9 M positions, 49.5 MiB");
    }

    #[test]
    fn plan_refuses_the_early_stop_and_oversized_databases_and_takes_the_cyclic_families() {
        let early = Rules {
            early_stop: true,
            ..Rules::kalah(4, 4)
        };
        assert_eq!(
            FileBuild::plan(early, 10).err(),
            Some(PlanError::Unbuildable(EgdbError::EarlyStop))
        );
        assert!(FileBuild::plan(Rules::ethiopian(6, 4), 10).is_ok());
        assert!(matches!(
            FileBuild::plan(Rules::kalah(4, 4), 200),
            Err(PlanError::Size(EgdbError::TooManySeeds { .. }))
        ));
    }

    #[test]
    fn run_builds_the_file_and_counts_what_it_computed() {
        let dir = std::env::temp_dir().join(format!("kalah-plan-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("k3-6.egdb");
        let plan = FileBuild::plan(Rules::kalah(3, 3), 6).unwrap();
        assert_eq!(plan.resumes(&path), None);
        let built = plan
            .run(&path, &AtomicBool::new(false), &|_, _, _| {})
            .unwrap();
        assert_eq!((built.resumed, built.computed), (0, plan.need.entries));
        assert!(path.exists() && !partial_path(&path).exists());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
