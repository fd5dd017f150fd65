//! The process environment, read in one place ([`Environment::read`]): the variables
//! that choose the command line's database, taken as values by [`crate::Database`] and
//! [`crate::db::cache::Cache`], so that no default of the library depends on the environment
//! and a test can give any environment without setting a variable.

use std::ffi::OsString;
use std::path::PathBuf;

/// The environment variable naming a directory of endgame database files (or one file),
/// searched first by the [`crate::Database::from_env`] of the command line.
pub const EGDB_PATH_VAR: &str = "KALAH_EGDB_PATH";

/// The environment variable that moves the cache to another directory, or turns it off
/// with `off` (also `0`, `no` or `false`).
pub const CACHE_VAR: &str = "KALAH_CACHE";

/// The environment variable that sets the most the cache may hold, in MiB.
pub const CACHE_MAX_VAR: &str = "KALAH_CACHE_MAX_MB";

/// What the environment says about the databases, as read once.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Environment {
    /// [`EGDB_PATH_VAR`]: a database file or a directory of them.
    pub egdb_path: Option<OsString>,
    /// [`CACHE_VAR`]: the cache's directory, or `off`.
    pub cache: Option<OsString>,
    /// [`CACHE_MAX_VAR`]: the cache's cap in MiB.
    pub cache_max_mb: Option<OsString>,
    /// The platform's cache directory for kalah (`$XDG_CACHE_HOME/kalah` or
    /// `~/.cache/kalah` on Linux), where there is a home directory.
    pub platform_cache: Option<PathBuf>,
}

impl Environment {
    /// Reads the process environment: the one function of this crate that does.
    pub fn read() -> Environment {
        Environment {
            egdb_path: std::env::var_os(EGDB_PATH_VAR),
            cache: std::env::var_os(CACHE_VAR),
            cache_max_mb: std::env::var_os(CACHE_MAX_VAR),
            platform_cache: directories::ProjectDirs::from("", "", "kalah")
                .map(|dirs| dirs.cache_dir().to_path_buf()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::cache::{Cache, DEFAULT_MAX_BYTES};
    use crate::Database;

    fn home() -> Environment {
        Environment {
            platform_cache: Some(PathBuf::from("/home/u/.cache/kalah")),
            ..Environment::default()
        }
    }

    #[test]
    fn the_cache_follows_its_variables_given_as_values() {
        let default = Cache::from_environment(&home()).unwrap().unwrap();
        assert_eq!(default.dir(), PathBuf::from("/home/u/.cache/kalah"));
        assert_eq!(default.max_bytes(), DEFAULT_MAX_BYTES);

        let moved = Environment {
            cache: Some("/tmp/c".into()),
            cache_max_mb: Some("64".into()),
            ..home()
        };
        let cache = Cache::from_environment(&moved).unwrap().unwrap();
        assert_eq!(
            (cache.dir(), cache.max_bytes()),
            (PathBuf::from("/tmp/c").as_path(), 64 << 20)
        );

        for off in ["off", "0", "no", "false"] {
            let env = Environment {
                cache: Some(off.into()),
                ..home()
            };
            assert_eq!(Cache::from_environment(&env).unwrap(), None, "{off}");
        }
        assert_eq!(
            Cache::from_environment(&Environment::default()).unwrap(),
            None
        );
        let bad = Environment {
            cache_max_mb: Some("0.1".into()),
            ..home()
        };
        assert!(Cache::from_environment(&bad).is_err());
    }

    #[test]
    fn the_database_path_is_taken_where_set_and_not_empty() {
        let with = |path: &str| Environment {
            egdb_path: Some(path.into()),
            ..Environment::default()
        };
        let path_of = |env: &Environment| match Database::from_environment(env).unwrap() {
            Database::Auto { path, .. } => path,
            other => panic!("{other:?}"),
        };
        assert_eq!(
            path_of(&with("/data/egdb")),
            Some(PathBuf::from("/data/egdb"))
        );
        assert_eq!(path_of(&with("")), None);
        assert_eq!(path_of(&Environment::default()), None);
    }
}
