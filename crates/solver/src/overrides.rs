//! The settings a front end lets its user set over the library's choice: threads, table
//! size, deepening and the endgame database, applied in one place onto a [`Config`].

use std::path::PathBuf;
use std::time::Duration;

use kalah_core::{Family, Game};

use crate::db::cache::CacheMaxError;
use crate::db::egdb::EgdbError;
use crate::db::egdb::Residence;
use crate::{Config, Database, Limits};

/// What a user asked for over the tuned defaults of [`Config::for_seeds`]; `None` (or
/// `false`) leaves the library's choice.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Overrides {
    /// Search threads.
    pub threads: Option<usize>,
    /// Transposition table size in MiB, rounded down to a power of two.
    pub hash_mb: Option<u64>,
    /// Depth of the iterative-deepening phase, in sowings.
    pub deepening: Option<u8>,
    /// An endgame database file or directory; takes precedence over `egdb_seeds`.
    pub egdb: Option<PathBuf>,
    /// An in-memory endgame database of this many seeds (0: none).
    pub egdb_seeds: Option<usize>,
    /// Neither read nor grow the database cache.
    pub no_cache: bool,
    /// An analysis within limits: where neither `egdb` nor `egdb_seeds` is set, no
    /// database is built, and a file already there (in the environment's directory, then
    /// in the cache, unless `no_cache`) of at most this many bytes is read, mapped, where
    /// one serves the rules and board ([`Database::existing_file`]).
    pub existing_only: Option<u64>,
}

/// Why the overrides give no configuration.
#[derive(Debug)]
pub enum OverrideError {
    /// A search option given for a family solved by retrograde analysis, which has no
    /// database, table or deepening: the option's name on the command line.
    Retrograde {
        /// The family of the rules.
        family: Family,
        /// The option given (`--egdb`, `--egdb-seeds`, `--hash-mb`, `--deepening`).
        option: &'static str,
    },
    /// The environment's cache cap means nothing.
    Environment(CacheMaxError),
    /// The database asked for cannot be used.
    Egdb(EgdbError),
}

impl std::fmt::Display for OverrideError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OverrideError::Retrograde { family, option } => write!(
                f,
                "{} has no endgame database search, transposition table or deepening: its \
                 positions repeat, and the whole game graph of the position is solved by \
                 retrograde analysis, in memory: leave out {option} (a database file of kalah \
                 egdb build for these rules may be given as --egdb FILE)",
                family.long_title()
            ),
            OverrideError::Environment(e) => write!(f, "{e}"),
            OverrideError::Egdb(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for OverrideError {}

impl Overrides {
    /// The endgame database asked for: `egdb`, else `egdb_seeds` (0: none), else the
    /// environment's ([`Database::from_env`]), without the cache where `no_cache`.
    pub fn database(&self) -> Result<Database, CacheMaxError> {
        Ok(match (&self.egdb, self.egdb_seeds) {
            (Some(path), _) => Database::File(path.clone()),
            (None, Some(k)) => Database::Build(k),
            (None, None) if self.no_cache => Database::from_env()?.without_cache(),
            (None, None) => Database::from_env()?,
        })
    }

    /// The database files these overrides read (`egdb`, else the directory of the
    /// environment's `KALAH_EGDB_PATH`): an output of the same run may never replace one.
    pub fn inputs(&self) -> Vec<PathBuf> {
        let from_env = crate::Environment::read().egdb_path.map(PathBuf::from);
        self.egdb.clone().or(from_env).into_iter().collect()
    }

    /// The first search option set (by its command-line name) that a family solved by
    /// retrograde analysis has none of, where `family` is one; refused rather than ignored.
    /// A database file or directory (`--egdb`, files built by the cycle rule) is taken:
    /// the positions its file holds are answered from it (docs/cyclic.md).
    pub fn refused_for(&self, family: Family) -> Option<&'static str> {
        let option = match self {
            o if o.egdb_seeds.is_some_and(|k| k > 0) => "--egdb-seeds",
            o if o.hash_mb.is_some() => "--hash-mb",
            o if o.deepening.is_some() => "--deepening",
            _ => return None,
        };
        family.is_cyclic().then_some(option)
    }

    /// These overrides without the search options `family` has none of, where it is
    /// solved by retrograde analysis ([`Overrides::refused_for`]): for a front end that
    /// serves every family from one set of options, which apply to the families that
    /// search.
    pub fn for_family(&self, family: Family) -> Overrides {
        let mut kept = self.clone();
        if family.is_cyclic() {
            kept.hash_mb = None;
            kept.egdb_seeds = kept.egdb_seeds.filter(|&k| k == 0);
            kept.deepening = None;
        }
        kept
    }

    /// The configuration for `solves` solves of positions of `game` with at most `seeds`
    /// seeds in the houses: [`Config::for_seeds`] with these overrides applied.
    pub fn config(
        &self,
        game: &Game,
        seeds: usize,
        solves: usize,
    ) -> Result<Config, OverrideError> {
        let family = game.rules().family;
        if let Some(option) = self.refused_for(family) {
            return Err(OverrideError::Retrograde { family, option });
        }
        let mut database = self.database().map_err(OverrideError::Environment)?;
        // A database named by a flag is the one named, whatever the analysis's cap.
        let existing_only = self
            .existing_only
            .filter(|_| self.egdb.is_none() && self.egdb_seeds.is_none());
        if let Some(max_bytes) = existing_only {
            database = database
                .existing_file(game, seeds, max_bytes)
                .map_or(Database::Build(0), Database::File);
        }
        let mut config =
            Config::for_seeds(game, seeds, solves, &database).map_err(OverrideError::Egdb)?;
        if existing_only.is_some() {
            // Loaded in a fraction of the analysis's time, never copied.
            config.residence = Residence::Mapped;
        }
        Ok(config.with(self))
    }

    /// These overrides for an analysis within a time of `time` (none: no time limit), or
    /// for the time a move or an answer may take: no endgame database is built unless one
    /// is named (`egdb`, `egdb_seeds`), since a build can take longer than the analysis; a
    /// file already there is read where it is small enough to load in a fraction of the
    /// time ([`Limits::file_bytes_cap`]).
    pub fn for_analysis(&self, time: Option<Duration>) -> Overrides {
        Overrides {
            existing_only: Some(Limits::file_bytes_cap(time)),
            ..self.clone()
        }
    }

    /// The configuration for one analysis to `limits` of positions of `game` with at
    /// most `seeds` seeds in the houses: [`Overrides::for_analysis`]'s one solve, its
    /// table at most [`Limits::table_mb_cap`] under a time limit unless `hash_mb` names
    /// its size (every fresh page of the table costs time the analysis does not have).
    pub fn analysis_config(
        &self,
        game: &Game,
        seeds: usize,
        limits: &Limits,
    ) -> Result<Config, OverrideError> {
        let mut config = self.for_analysis(limits.time).config(game, seeds, 1)?;
        if let (None, Some(cap)) = (self.hash_mb, limits.table_mb_cap()) {
            config.hash_mb = config.hash_mb.min(cap);
        }
        Ok(config)
    }
}

impl Config {
    /// This configuration with the threads, table size and deepening of `overrides` (the
    /// table size rounded down to a power of two: what the table allocates, and so what
    /// is reported).
    pub fn with(mut self, overrides: &Overrides) -> Config {
        if let Some(threads) = overrides.threads {
            self.threads = threads;
        }
        if let Some(mb) = overrides.hash_mb {
            self.hash_mb = 1 << mb.max(1).ilog2();
        }
        if let Some(depth) = overrides.deepening {
            self.deepening = depth;
        }
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kalah_core::Rules;

    #[test]
    fn a_search_option_for_a_family_solved_whole_says_to_leave_it_out() {
        let e = OverrideError::Retrograde {
            family: Family::Oware,
            option: "--hash-mb",
        };
        let words = e.to_string();
        assert!(words.starts_with(Family::Oware.long_title()), "{words}");
        assert!(
            words.contains(
                "solved by retrograde analysis, in memory: leave out --hash-mb (a database"
            ),
            "{words}"
        );
    }

    #[test]
    fn a_database_named_is_the_input_whatever_the_environment() {
        let given = Overrides {
            egdb: Some(PathBuf::from("a.egdb")),
            ..Overrides::default()
        };
        assert_eq!(given.inputs(), vec![PathBuf::from("a.egdb")]);
    }

    #[test]
    fn a_family_that_does_not_search_drops_the_search_options() {
        let given = Overrides {
            hash_mb: Some(64),
            egdb_seeds: Some(12),
            deepening: Some(8),
            threads: Some(2),
            ..Overrides::default()
        };
        assert_eq!(given.for_family(Family::General), given);
        let oware = given.for_family(Family::Oware);
        assert_eq!(oware.refused_for(Family::Oware), None);
        assert_eq!(oware.threads, Some(2));
        let none = Overrides {
            egdb_seeds: Some(0),
            ..Overrides::default()
        };
        assert_eq!(none.for_family(Family::Oware).egdb_seeds, Some(0));
    }

    #[test]
    fn with_applies_each_override_and_rounds_the_table_down() {
        let overrides = Overrides {
            threads: Some(3),
            hash_mb: Some(100),
            deepening: Some(5),
            ..Overrides::default()
        };
        let config = Config::default().with(&overrides);
        assert_eq!(
            (config.threads, config.hash_mb, config.deepening),
            (3, 64, 5)
        );
        assert_eq!(
            Config::default().with(&Overrides::default()),
            Config::default()
        );
    }

    #[test]
    fn the_database_follows_precedence() {
        let file = Overrides {
            egdb: Some("x.egdb".into()),
            egdb_seeds: Some(3),
            ..Overrides::default()
        };
        assert_eq!(file.database().unwrap(), Database::File("x.egdb".into()));
        let build = Overrides {
            egdb_seeds: Some(3),
            ..Overrides::default()
        };
        assert_eq!(build.database().unwrap(), Database::Build(3));
    }

    #[test]
    fn search_options_are_refused_only_for_cyclic_families() {
        let deep = Overrides {
            deepening: Some(4),
            egdb_seeds: Some(0),
            ..Overrides::default()
        };
        assert_eq!(deep.refused_for(Family::Oware), Some("--deepening"));
        assert_eq!(deep.refused_for(Family::Kalah), None);
        assert_eq!(Overrides::default().refused_for(Family::Oware), None);
        let game = Game::new(Rules::kalah(4, 2)).unwrap();
        let config = build_config(&game);
        assert_eq!(config.threads, 2);
    }

    #[test]
    fn an_analysis_caps_the_table_by_its_time_unless_one_is_named() {
        let game = Game::new(Rules::kalah(4, 2)).unwrap();
        let none = Overrides {
            egdb_seeds: Some(0),
            ..Overrides::default()
        };
        let plain = none.config(&game, 8, 1).unwrap();
        let second = Limits::time(Duration::from_secs(1));
        let cap = second.table_mb_cap().unwrap();
        let timed = none.analysis_config(&game, 8, &second).unwrap();
        assert_eq!(timed.hash_mb, plain.hash_mb.min(cap));
        let untimed = none.analysis_config(&game, 8, &Limits::default()).unwrap();
        assert_eq!(untimed.hash_mb, plain.hash_mb);
        let named = Overrides {
            hash_mb: Some(1024),
            ..none.clone()
        };
        assert_eq!(
            named.analysis_config(&game, 8, &second).unwrap().hash_mb,
            1024
        );
        assert_eq!(
            none.for_analysis(None).existing_only,
            Some(Limits::file_bytes_cap(None))
        );
    }

    fn build_config(game: &Game) -> Config {
        Overrides {
            threads: Some(2),
            egdb_seeds: Some(0),
            ..Overrides::default()
        }
        .config(game, 10, 1)
        .unwrap()
    }
}
