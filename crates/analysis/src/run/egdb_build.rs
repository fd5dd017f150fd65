//! An endgame database file built as `kalah egdb build` asks, and the database cache grown
//! by the same build (`kalah egdb cache grow`): the output checked and locked before any
//! work, the levels of a smaller file copied, the build run level by level and its summary
//! in words; the front end draws only the bars ([`BuildShown`]).

use std::fmt;
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use kalah_core::{Game, Rules, RulesError};
use kalah_io::{Checks, Output, OutputError, OutputKind};
use kalah_solver::cache::{Cache, GrowError, Grown};
use kalah_solver::egdb::{EgdbError, FileBuild, PlanError};

use crate::run::levels::{LevelDisplay, LevelProgress};
use crate::run::outputs;
use crate::wire::egdb as wire;

/// The database file to build.
#[derive(Clone, Copy, Debug)]
pub struct FileRequest<'a> {
    /// The rules (the board's; checked already).
    pub rules: Rules,
    /// The most seeds in the houses of a position in the database.
    pub max_seeds: usize,
    /// The file to write.
    pub out: &'a Path,
    /// A finished database of fewer seeds to copy the levels of.
    pub from: Option<&'a Path>,
    /// Replace a file that is no database, a read-only one, or a symbolic link.
    pub force: bool,
    /// Say nothing on the way (no announcement, no bars).
    pub quiet: bool,
}

/// How a build is shown: the lines said on the way (never when quiet) and the display of
/// each seed level's work, reported from the build's threads.
pub trait BuildShown: Sync {
    /// The display of one level.
    type Bar: LevelDisplay + Send;
    /// A line on its own (the announcement, the levels copied).
    fn say(&self, line: &str);
    /// The display of `level`, of `total` positions.
    fn bar(&self, level: usize, total: u64) -> Self::Bar;
}

/// Why no database was built.
#[derive(Debug)]
pub enum BuildError {
    /// The rules make no game.
    Rules(RulesError),
    /// The database cannot be built or read for these rules (or `from` cannot be used).
    Egdb(EgdbError),
    /// The build itself failed or was refused (memory, disk, a file of other rules).
    Build(EgdbError),
    /// The output could not be used.
    Output(OutputError),
    /// The output is not a regular file.
    Stream(String),
    /// Stopped by `cancel`: what of the build was kept, in words.
    Interrupted(String),
}

impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BuildError::Rules(e) => write!(f, "{e}"),
            BuildError::Egdb(e) | BuildError::Build(e) => write!(f, "{e}"),
            BuildError::Output(e) => write!(f, "{e}"),
            BuildError::Stream(why) | BuildError::Interrupted(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for BuildError {}

/// Builds the file `request` asks for (`cancel` stops it, the finished levels kept in
/// the partial file) and returns its summary line.
pub fn build_file(
    request: &FileRequest,
    cancel: &AtomicBool,
    shown: &impl BuildShown,
) -> Result<String, BuildError> {
    let plan = FileBuild::plan(request.rules, request.max_seeds).map_err(|e| match e {
        PlanError::Rules(e) => BuildError::Rules(e),
        PlanError::Unbuildable(e) => BuildError::Egdb(e),
        PlanError::Size(e) => BuildError::Build(e),
    })?;
    // The path checked and locked before any work, like every output: only a database
    // is replaced without --force, never --from, and a second build fails at once.
    let checks = Checks::of(outputs::DATABASE, request.force).reading(request.from);
    let output = Output::open_with(request.out, &checks).map_err(BuildError::Output)?;
    if output.kind() != OutputKind::File {
        return Err(BuildError::Stream(format!(
            "--out {}: a database is a file to map and resume, not a stream: name a file",
            request.out.display()
        )));
    }
    let out_file = output.target().to_path_buf();
    if let Some(from) = request.from {
        // The smaller file is loaded like any database: its own errors name it.
        let levels = plan.start_from(from, &out_file).map_err(|e| match e {
            e @ EgdbError::FromRefused { .. } => BuildError::Build(e),
            e => BuildError::Egdb(e),
        })?;
        if !request.quiet {
            shown.say(&wire::start_from_line(from, levels));
        }
    }
    if !request.quiet {
        let partial = plan.resumes(&out_file);
        shown.say(&wire::build_announcement(
            request.out,
            &plan,
            partial.as_deref(),
        ));
    }
    // The bar of the level being built (none when quiet), replaced when the next level
    // starts; reported from the build's worker threads.
    let bars = LevelProgress::default();
    let start = Instant::now();
    let built = plan
        .run(&out_file, cancel, &|level, done, total| {
            if !request.quiet {
                bars.show(level, done, || shown.bar(level, total))
            }
        })
        .map_err(|e| match e {
            EgdbError::Cancelled => {
                BuildError::Interrupted(wire::build_kept(&out_file, request.max_seeds))
            }
            e => BuildError::Build(e),
        })?;
    drop(output);
    bars.finish();
    let seconds = start.elapsed().as_secs_f64();
    Ok(wire::build_summary(
        request.out,
        &plan,
        built.computed,
        built.resumed,
        seconds,
    ))
}

/// Grows `cache` to hold the database of `max_seeds` seeds for `game`, built as
/// [`build_file`] builds one (from the largest the cache holds): the line to print, if
/// any (what the cache holds already, or the build's summary).
pub fn grow_cache(
    cache: &Cache,
    game: &Game,
    max_seeds: usize,
    quiet: bool,
    cancel: &AtomicBool,
    shown: &impl BuildShown,
) -> Result<String, GrowError<BuildError>> {
    let mut summary = String::new();
    let grown = cache.grow(game, max_seeds, |target, from| {
        let request = FileRequest {
            rules: *game.rules(),
            max_seeds,
            out: target,
            from,
            force: false,
            quiet,
        };
        summary = build_file(&request, cancel, shown)?;
        Ok(())
    })?;
    Ok(match grown {
        Grown::Held(held) => wire::cache_holds(held, game.rules()),
        Grown::Built { .. } => summary,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A build shown nowhere, its lines kept.
    #[derive(Default)]
    struct Said(std::sync::Mutex<Vec<String>>);

    struct NoBar;

    impl LevelDisplay for NoBar {
        fn set(&self, _: u64) {}
        fn finish(self) {}
    }

    impl BuildShown for Said {
        type Bar = NoBar;
        fn say(&self, line: &str) {
            self.0.lock().unwrap().push(line.to_string());
        }
        fn bar(&self, _: usize, _: u64) -> NoBar {
            NoBar
        }
    }

    #[test]
    fn a_small_file_is_built_then_grown_from_in_the_cache() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("k4.egdb");
        let request = FileRequest {
            rules: Rules::kalah(4, 3),
            max_seeds: 4,
            out: &out,
            from: None,
            force: false,
            quiet: false,
        };
        let never = AtomicBool::new(false);
        let said = Said::default();
        let summary = build_file(&request, &never, &said).unwrap();
        assert!(out.is_file(), "{summary}");
        assert_eq!(said.0.lock().unwrap().len(), 1);
        let stream = FileRequest {
            out: Path::new("/dev/null"),
            ..request
        };
        assert!(matches!(
            build_file(&stream, &never, &said),
            Err(BuildError::Stream(_))
        ));
    }

    #[test]
    fn a_cancelled_build_says_what_it_kept() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("k.egdb");
        let request = FileRequest {
            rules: Rules::kalah(4, 3),
            max_seeds: 6,
            out: &out,
            from: None,
            force: false,
            quiet: true,
        };
        let e = build_file(&request, &AtomicBool::new(true), &Said::default()).unwrap_err();
        assert!(matches!(e, BuildError::Interrupted(_)), "{e}");
    }
}
