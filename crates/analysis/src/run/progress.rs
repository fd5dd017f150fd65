//! A solve's progress in words, as the front ends show it (the command line's spinner,
//! the analysis board's status line), and what a solver's set-up and a stopped database
//! build leave to say.

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

use kalah_core::Game;
use kalah_solver::bao::GraphProgress;
use kalah_solver::egdb::{file, EgdbError};
use kalah_solver::{Config, Database, Phase, Progress, Solver, SolverError};

/// What a solve is doing, in words (`proving`, `retrograde analysis: level of 12 seeds`).
pub fn phase_name(phase: Phase) -> String {
    match phase {
        Phase::Deepening(d) => format!("deepening to {d} sowings"),
        Phase::Proving => "proving".to_string(),
        Phase::PrincipalVariation => "principal variation".to_string(),
        Phase::Retrograde(None) => "retrograde analysis: finding the positions".to_string(),
        Phase::Retrograde(Some(n)) => format!("retrograde analysis: level of {n} seeds"),
    }
}

/// A one-line description of a running solve, for the spinner.
pub fn progress_message(p: &Progress, side_sign: i32) -> String {
    let (lo, hi) = if side_sign > 0 {
        (p.lower, p.upper)
    } else {
        (-p.upper, -p.lower)
    };
    let phase = phase_name(p.phase);
    format!(
        "{phase}: value for South in [{lo:+}, {hi:+}], {} nodes, {:.1} M nodes/s",
        p.nodes,
        p.nodes_per_second() / 1e6
    )
}

/// What the spinner says while a solver with `database` is made (loading a file or
/// building a database), if it says anything.
pub fn setup_message(database: &Database) -> Option<String> {
    match database {
        Database::File(path)
        | Database::BestIn { dir: path, .. }
        | Database::Cached {
            file: Some(path), ..
        } => Some(format!("loading the endgame database {}", path.display())),
        Database::Cached { .. } | Database::Build(_) => {
            Some("building the endgame database".to_string())
        }
        _ => None,
    }
}

/// The word said before a database is built for `game` to be kept in the cache (a
/// cached database with no file yet), once, since the build can take a while.
pub fn cache_build_notice(game: &Game, database: &Database) -> Option<String> {
    let Database::Cached {
        seeds,
        cache,
        file: None,
    } = database
    else {
        return None;
    };
    let resuming = match kept_build(game, database) {
        Some((partial, levels)) => format!(
            ", going on from seed levels 0 to {} of an interrupted build, kept in {}",
            levels - 1,
            partial.display()
        ),
        None => String::new(),
    };
    Some(format!(
        "building the endgame database of {seeds} seeds for {} ({}), to keep in the \
         cache {} for later runs{resuming}",
        kalah_solver::egdb::describe(game.rules()),
        database_size(game, *seeds),
        cache.dir().display()
    ))
}

/// The progress of solving a Bao game graph, in words: the positions found so far, then
/// how many of them are decided.
pub fn bao_graph_message(p: &GraphProgress) -> String {
    match p.decided {
        None => format!("{} positions found", p.positions),
        Some(d) => format!("{d} of {} positions decided", p.positions),
    }
}

/// The partial file in the cache that the build of `database` for `game` goes on from (a
/// cached database with no file yet, whose last build was interrupted:
/// [`kalah_solver::egdb::Egdb::build_resumable`]) and the seed levels it holds, where
/// there is one holding at least one; only a regular file is read.
pub fn kept_build(game: &Game, database: &Database) -> Option<(PathBuf, usize)> {
    let Database::Cached {
        cache,
        seeds,
        file: None,
    } = database
    else {
        return None;
    };
    let partial = file::partial_path(&cache.path_for(game.rules(), *seeds));
    if !std::fs::symlink_metadata(&partial).is_ok_and(|m| m.is_file()) {
        return None;
    }
    // The name says the rules and the seeds (`Cache::path_for`).
    let info = file::read_info(&partial).ok()?;
    (info.max_seeds == *seeds && info.levels > 0).then_some((partial, info.levels))
}

/// What became of the build of `database` for `game` that Ctrl-C (or a signal) stopped,
/// in words: a build for the database cache keeps its finished seed levels there, where
/// the next run goes on from them ([`kept_build`]); any other keeps nothing.
pub fn build_stopped(game: &Game, database: &Database) -> String {
    match (kept_build(game, database), database) {
        (Some((partial, levels)), Database::Cached { seeds, .. }) => format!(
            "the endgame database build stopped; its seed levels 0 to {} of {seeds} are \
             kept in {}, and the next run goes on from them",
            levels - 1,
            partial.display()
        ),
        (None, Database::Cached { .. }) => "the endgame database build stopped before \
             its first seed level was finished; nothing of it was kept"
            .to_string(),
        _ => "the endgame database build stopped; nothing of it was kept (a database \
              built in memory for this run alone; one built for the database cache \
              keeps its finished levels)"
            .to_string(),
    }
}

/// A solver of `config` for `game`, its database build stopped by `cancel` where one is
/// given (a command that watches Ctrl-C): `Ok(Err(kept))` for a build stopped, with what
/// of it was kept in words ([`build_stopped`]).
pub fn new_solver(
    game: &Game,
    config: Config,
    cancel: Option<&AtomicBool>,
) -> Result<Result<Solver, String>, SolverError> {
    let Some(cancel) = cancel else {
        return Solver::new(game.clone(), config).map(Ok);
    };
    match Solver::new_cancellable(game.clone(), config.clone(), cancel) {
        Err(SolverError::Database(EgdbError::Cancelled)) => {
            Ok(Err(build_stopped(game, &config.database)))
        }
        made => made.map(Ok),
    }
}

/// What a front end tells its user once `solver` is set up, `seconds` after it began: the
/// database files passed over and why, a damaged cached file removed, and the database
/// built and kept in the cache (or why it was not kept).
pub fn setup_notes(solver: &Solver, seconds: f64) -> Vec<String> {
    let mut notes: Vec<String> = solver
        .skipped_files()
        .iter()
        .map(|(path, why)| {
            format!(
                "warning: passed over the endgame database {} ({why})",
                path.display()
            )
        })
        .collect();
    let Some(report) = solver.cache_report() else {
        return notes;
    };
    if let Some((path, why)) = &report.removed {
        notes.push(format!(
            "warning: removed the damaged cached database {} ({why}); built again",
            path.display()
        ));
    }
    match &report.kept {
        Some(Ok(path)) => notes.push(format!(
            "built in {seconds:.1} s{} and kept as {}",
            match report.resumed {
                0 => String::new(),
                n => format!(" ({n} seed levels resumed)"),
            },
            path.display()
        )),
        Some(Err(why)) => notes.push(format!(
            "warning: the endgame database was built but not kept in the cache: {why}"
        )),
        None => {}
    }
    notes
}

/// Makes the solver of `config` for `game` as every front end does, saying so as it goes:
/// `show` gets what a spinner shows while the database is loaded or built
/// ([`setup_message`]), `say` the notice of a build for the cache first
/// ([`cache_build_notice`]); `cancel` stops a build ([`new_solver`]: `Ok(Err(kept))`).
/// Made for an analysis `within_limits`, the solver's table is mapped here, so that the
/// analysis's clock starts on a solver set up rather than on its first search. Returns
/// the solver with the notes of its setup ([`setup_notes`]), for the front end to say
/// once its spinner is gone.
pub fn make_solver(
    game: &Game,
    config: Config,
    cancel: Option<&AtomicBool>,
    within_limits: bool,
    show: &mut dyn FnMut(String),
    say: &mut dyn FnMut(String),
) -> Result<Result<(Solver, Vec<String>), String>, SolverError> {
    let timer = std::time::Instant::now();
    if let Some(message) = setup_message(&config.database) {
        show(message);
    }
    if let Some(notice) = cache_build_notice(game, &config.database) {
        say(notice);
    }
    let solver = match new_solver(game, config, cancel)? {
        Ok(solver) => solver,
        Err(kept) => return Ok(Err(kept)),
    };
    if within_limits {
        solver.warm_up();
    }
    let notes = setup_notes(&solver, timer.elapsed().as_secs_f64());
    Ok(Ok((solver, notes)))
}

/// The size of a database of `seeds` seeds for `game`, in words (`52.0 M positions, 49.6
/// MiB`).
fn database_size(game: &Game, seeds: usize) -> String {
    kalah_solver::egdb::file::Requirements::of(game.houses(), seeds)
        .map_or_else(|_| "size unknown".to_string(), |r| r.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use kalah_core::Rules;
    use kalah_solver::cache::Cache;

    /// Kalah(4,3) with a solver that builds a database of 8 seeds.
    fn small_build() -> (Game, Config) {
        let config = Config {
            threads: 1,
            hash_mb: 1,
            database: Database::Build(8),
            ..Config::default()
        };
        (Game::new(Rules::kalah(4, 3)).unwrap(), config)
    }

    #[test]
    fn a_database_build_stopped_says_what_it_kept() {
        let (game, config) = small_build();
        let raised = AtomicBool::new(true);
        let stopped = new_solver(&game, config.clone(), Some(&raised)).unwrap();
        assert_eq!(stopped.err(), Some(build_stopped(&game, &config.database)));
        let lowered = AtomicBool::new(false);
        assert!(new_solver(&game, config.clone(), Some(&lowered))
            .unwrap()
            .is_ok());
        assert!(new_solver(&game, config, None).unwrap().is_ok());
    }

    #[test]
    fn a_solver_made_shows_its_build_and_says_nothing_more() {
        let (game, config) = small_build();
        for within_limits in [false, true] {
            let (mut shown, mut said) = (Vec::new(), Vec::new());
            let made = make_solver(
                &game,
                config.clone(),
                None,
                within_limits,
                &mut |m| shown.push(m),
                &mut |m| said.push(m),
            );
            let (_, notes) = made.unwrap().unwrap();
            assert_eq!(shown, ["building the endgame database"]);
            assert!(said.is_empty() && notes.is_empty(), "{said:?} {notes:?}");
        }
        let raised = AtomicBool::new(true);
        let stopped = make_solver(
            &game,
            config.clone(),
            Some(&raised),
            false,
            &mut |_| {},
            &mut |_| {},
        );
        assert_eq!(
            stopped.unwrap().err(),
            Some(build_stopped(&game, &config.database))
        );
    }

    #[test]
    fn the_spinner_says_what_is_loaded_or_built() {
        let (file, dir) = ("db.egdb".into(), "dbs".into());
        let loading = Some("loading the endgame database db.egdb".to_string());
        assert_eq!(setup_message(&Database::File(file)), loading);
        let best = Database::BestIn { dir, seeds: 8 };
        assert_eq!(
            setup_message(&best).unwrap(),
            "loading the endgame database dbs"
        );
        let building = Some("building the endgame database".to_string());
        assert_eq!(setup_message(&Database::Build(6)), building);
        let cache = Cache::at("cache", 1 << 30);
        let fresh = Database::Cached {
            cache: cache.clone(),
            seeds: 6,
            file: None,
        };
        assert_eq!(setup_message(&fresh), building);
        let kept = Database::Cached {
            cache,
            seeds: 6,
            file: Some("cache/k.egdb".into()),
        };
        let loading_kept = "loading the endgame database cache/k.egdb";
        assert_eq!(setup_message(&kept).unwrap(), loading_kept);
        assert_eq!(setup_message(&Database::Memory), None);
        assert_eq!(setup_message(&Database::None), None);
    }

    #[test]
    fn only_a_database_built_for_the_cache_is_announced() {
        let game = Game::new(Rules::kalah(4, 3)).unwrap();
        let cache = Cache::at("cache", 1 << 30);
        let fresh = Database::Cached {
            cache: cache.clone(),
            seeds: 6,
            file: None,
        };
        let notice = cache_build_notice(&game, &fresh).unwrap();
        assert!(notice.starts_with("building the endgame database of 6 seeds for "));
        assert!(notice.ends_with(", to keep in the cache cache for later runs"));
        let kept = Database::Cached {
            cache,
            seeds: 6,
            file: Some("cache/k.egdb".into()),
        };
        assert_eq!(cache_build_notice(&game, &kept), None);
        assert_eq!(cache_build_notice(&game, &Database::Build(6)), None);
    }

    #[test]
    fn a_stopped_build_keeps_levels_only_for_the_cache() {
        let game = Game::new(Rules::kalah(4, 3)).unwrap();
        let memory = build_stopped(&game, &Database::Build(6));
        assert!(memory.contains("nothing of it was kept (a database built in memory"));
        let fresh = Database::Cached {
            cache: Cache::at("no-such-cache", 1 << 30),
            seeds: 6,
            file: None,
        };
        assert!(build_stopped(&game, &fresh).contains("before its first seed level"));
    }

    #[test]
    fn a_solver_without_a_database_has_nothing_to_say() {
        let game = Game::new(Rules::kalah(3, 2)).unwrap();
        let config = kalah_solver::Config {
            threads: 1,
            hash_mb: 1,
            database: Database::None,
            ..kalah_solver::Config::default()
        };
        let solver = Solver::new(game, config).unwrap();
        assert!(setup_notes(&solver, 1.0).is_empty());
    }

    #[test]
    fn a_bao_graph_is_first_found_then_decided() {
        let mut p = GraphProgress {
            positions: 12,
            decided: None,
            elapsed: std::time::Duration::ZERO,
        };
        assert_eq!(bao_graph_message(&p), "12 positions found");
        p.decided = Some(5);
        assert_eq!(bao_graph_message(&p), "5 of 12 positions decided");
    }
}
