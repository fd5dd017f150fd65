//! Why a front end's solver options give no solver or endgame database, in words that
//! name the option to change: the command line's, which the analysis board shares.

use kalah_solver::egdb::EgdbError;
use kalah_solver::SolverError;

/// Why a position whose game is over has nothing to analyse, and the options to check.
pub const GAME_OVER: &str = "the game is over in this position: there is no turn to analyse \
                             (check --position and --moves)";

/// Why a game graph of more than `limit` positions was not solved, and what of the run
/// was `kept`.
pub fn graph_too_large_words(limit: u64, kept: &str) -> String {
    format!("{}: {kept}", kalah_solver::retro::too_large_message(limit))
}

/// Why a database cannot be built, read or used: an early stop names the option that
/// sizes the database, since a database of fewer seeds serves rules that stop early.
pub fn egdb_words(e: &EgdbError) -> String {
    match e {
        EgdbError::EarlyStop => format!("{e} (its size: kalah solve --egdb-seeds)"),
        e => e.to_string(),
    }
}

/// Why a solver could not be made: a table or database too large for the memory names
/// the option that sizes it.
pub fn solver_words(e: &SolverError) -> String {
    match e {
        SolverError::Database(e) => egdb_words(e),
        e @ SolverError::TableTooLarge { .. } => format!("{e} (--hash-mb)"),
        e @ SolverError::DatabaseTooLarge { .. } => format!("{e} (--egdb-seeds)"),
    }
}

/// Why `kalah egdb build` (or the cache's growth) could not build the database: where
/// the reason is a value one of its options sets (the seeds, the file, the level to go
/// on from), the options to change.
pub fn egdb_build_words(e: &EgdbError) -> String {
    let options = match e {
        EgdbError::TooManySeeds { .. } | EgdbError::NotEnoughMemory { .. } => "--max-seeds",
        EgdbError::NotEnoughDisk { .. } => "--max-seeds, --out",
        // A partial file of other rules, or with more levels than asked for.
        EgdbError::WrongGame { .. } => "--out",
        EgdbError::Corrupt { .. } => "--max-seeds, --out",
        EgdbError::FromRefused { .. } => "--from, --max-seeds",
        e => return egdb_words(e),
    };
    format!("{e} ({options})")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_database_too_large_names_its_size_option() {
        let too_large = SolverError::DatabaseTooLarge {
            seeds: 30,
            needed: 1 << 40,
            available: 1 << 30,
            largest: 24,
        };
        assert_eq!(
            solver_words(&too_large),
            format!("{too_large} (--egdb-seeds)")
        );
        let table = SolverError::TableTooLarge {
            megabytes: 1 << 20,
            available: 1 << 30,
            largest: 512,
        };
        assert_eq!(solver_words(&table), format!("{table} (--hash-mb)"));
        let early = SolverError::Database(EgdbError::EarlyStop);
        assert_eq!(
            solver_words(&early),
            format!(
                "{} (its size: kalah solve --egdb-seeds)",
                EgdbError::EarlyStop
            )
        );
        assert_eq!(
            solver_words(&SolverError::Database(EgdbError::Cancelled)),
            EgdbError::Cancelled.to_string()
        );
    }

    #[test]
    fn a_graph_too_large_says_what_was_kept() {
        let words = graph_too_large_words(1000, "nothing printed");
        assert!(words.starts_with("the game graph of this position has more than 1000"));
        assert!(
            words.ends_with("with more memory: nothing printed"),
            "{words}"
        );
        assert!(GAME_OVER.ends_with("no turn to analyse (check --position and --moves)"));
    }

    #[test]
    fn a_build_refused_names_the_build_options() {
        let many = EgdbError::TooManySeeds {
            seeds: 200,
            limit: 127,
        };
        assert_eq!(egdb_build_words(&many), format!("{many} (--max-seeds)"));
        let disk = EgdbError::NotEnoughDisk {
            path: "a.egdb".to_string(),
            needed: 1 << 30,
            available: 1,
        };
        assert_eq!(
            egdb_build_words(&disk),
            format!("{disk} (--max-seeds, --out)")
        );
        let from = EgdbError::FromRefused {
            path: "a.egdb".to_string(),
            why: "no levels".to_string(),
        };
        assert_eq!(
            egdb_build_words(&from),
            format!("{from} (--from, --max-seeds)")
        );
        assert_eq!(
            egdb_build_words(&EgdbError::EarlyStop),
            egdb_words(&EgdbError::EarlyStop)
        );
    }
}
