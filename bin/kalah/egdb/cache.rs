//! `kalah egdb cache`: list, grow, clear and clean the database cache.

use std::io::Write;
use std::path::Path;

use kalah_core::Game;
use kalah_solver::cache::{self, Cache, GrowError, Grown, LeftoverKind};
use kalah_solver::egdb::{self, file};
use serde_json::json;

use super::build::{build, BuildArgs};
use super::{egdb_rules, MIB};
use crate::args::RulesArgs;
use crate::error::CliError;

/// The database cache: the databases solves keep for later runs. List its files (the
/// default), grow the database of a rule set, clear it, or clean out the temporaries a
/// killed build left.
///
/// The cache is the directory in KALAH_CACHE, else the platform's cache directory
/// (~/.cache/kalah on Linux); KALAH_CACHE=off turns it off, and KALAH_CACHE_MAX_MB caps its
/// size (default 8192). A solve with the default database loads the cached file for its
/// rules and board where it holds at least the database the work needs; else it builds
/// that database and keeps it here, replacing smaller ones of the same rules.
///
/// Example: `kalah egdb cache grow --houses 6 --max-seeds 24 --capture empty`
#[derive(clap::Args, Debug)]
pub(super) struct CacheArgs {
    #[command(subcommand)]
    action: Option<CacheAction>,
}

#[derive(clap::Subcommand, Debug)]
enum CacheAction {
    /// List the cached files with their rules, seeds and sizes, and the temporaries and
    /// partial files beside them
    List {
        /// Print one JSON object instead of text
        #[arg(long)]
        json: bool,
    },
    /// Build a larger database for a rule set into the cache, from the largest cached one
    /// of the same rules (its levels are verified and copied, not computed again)
    Grow {
        /// The most seeds in the houses of a position in the database
        #[arg(long, value_name = "K")]
        max_seeds: usize,

        /// No progress display on standard error
        #[arg(long, short)]
        quiet: bool,

        #[command(flatten)]
        rules: RulesArgs,
    },
    /// Remove every cached database, the partial files of interrupted builds and stale
    /// temporaries (a file that is not a kalah database is kept, and named)
    Clear,
    /// Remove only the stale temporaries: those a killed build or write left behind
    Clean,
}

/// The user's cache, or an error saying it is off.
fn user_cache() -> Result<Cache, CliError> {
    Cache::from_env()?.ok_or_else(|| {
        CliError::Input(format!(
            "the database cache is off ({}=off, or no home directory): set {} to a directory",
            cache::CACHE_VAR,
            cache::CACHE_VAR
        ))
    })
}

pub(super) fn cache(args: &CacheArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let cache = user_cache()?;
    match &args.action {
        None => list_cache(&cache, false, out),
        Some(CacheAction::List { json }) => list_cache(&cache, *json, out),
        Some(CacheAction::Clear) => report_cleared(&cache, "cleared", &cache.clear()?, out),
        Some(CacheAction::Clean) => report_cleared(&cache, "cleaned", &cache.clean()?, out),
        Some(CacheAction::Grow {
            max_seeds,
            quiet,
            rules,
        }) => grow_cache(&cache, *max_seeds, *quiet, rules, out),
    }
}

/// What `cache clear` or `cache clean` removed and kept.
fn report_cleared(
    cache: &Cache,
    done: &str,
    cleared: &cache::Cleared,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let n = cleared.removed.len();
    writeln!(
        out,
        "{done} {}: {n} file{} removed, {:.1} MiB freed",
        cache.dir().display(),
        if n == 1 { "" } else { "s" },
        cleared.freed as f64 / MIB
    )?;
    for path in &cleared.foreign {
        writeln!(
            out,
            "  kept {}: not a kalah endgame database",
            path.display()
        )?;
    }
    for path in &cleared.in_use {
        writeln!(
            out,
            "  kept {}: a running process is writing it",
            path.display()
        )?;
    }
    Ok(())
}

fn list_cache(cache: &Cache, json: bool, out: &mut dyn Write) -> Result<(), CliError> {
    let listing = cache.list();
    if json {
        let rows: Vec<serde_json::Value> = listing.files.iter().map(cached_json).collect();
        let left: Vec<serde_json::Value> = listing.leftovers.iter().map(leftover_json).collect();
        let obj = json!({
            "dir": cache.dir().display().to_string(),
            "bytes": listing.bytes,
            "max_bytes": cache.max_bytes(),
            "files": rows,
            "leftovers": left,
        });
        writeln!(out, "{obj}")?;
        return Ok(());
    }
    let n = listing.files.len();
    writeln!(
        out,
        "cache {}: {n} file{}, {:.1} MiB of at most {:.1} MiB",
        cache.dir().display(),
        if n == 1 { "" } else { "s" },
        listing.bytes as f64 / MIB,
        cache.max_bytes() as f64 / MIB
    )?;
    for f in &listing.files {
        let what = match &f.info {
            Ok(info) => format!(
                "{}, up to {} seeds",
                egdb::describe(&info.rules),
                info.max_seeds
            ),
            Err(e) => format!("unreadable: {e}"),
        };
        writeln!(
            out,
            "  {}  {:.1} MiB  {what}",
            f.path.file_name().unwrap_or_default().to_string_lossy(),
            f.bytes as f64 / MIB
        )?;
    }
    for left in &listing.leftovers {
        writeln!(
            out,
            "  {}  {:.1} MiB  {}",
            left.path.file_name().unwrap_or_default().to_string_lossy(),
            left.bytes as f64 / MIB,
            leftover_words(left)
        )?;
    }
    Ok(())
}

/// What a leftover of the cache is, in words.
fn leftover_words(left: &cache::Leftover) -> String {
    match left.kind {
        LeftoverKind::Temporary { pid, alive: false } => format!(
            "stale temporary of process {pid}, which no longer runs (`kalah egdb cache clean` \
             removes it)"
        ),
        LeftoverKind::Temporary { pid, alive: true } => {
            format!("temporary of process {pid}, being written")
        }
        LeftoverKind::Partial { levels } => format!(
            "unfinished build, {levels} seed level{} done (the same build resumes it; \
             `kalah egdb cache clear` removes it)",
            if levels == 1 { "" } else { "s" }
        ),
    }
}

/// One leftover as a row of `cache list --json`.
fn leftover_json(left: &cache::Leftover) -> serde_json::Value {
    let file = left.path.display().to_string();
    match left.kind {
        LeftoverKind::Temporary { pid, alive } => json!({
            "file": file, "bytes": left.bytes, "kind": "temporary", "pid": pid,
            "stale": !alive,
        }),
        LeftoverKind::Partial { levels } => json!({
            "file": file, "bytes": left.bytes, "kind": "partial", "levels": levels,
            "stale": false,
        }),
    }
}

/// One cached file as a row of `cache list --json`.
fn cached_json(f: &cache::Cached) -> serde_json::Value {
    match &f.info {
        Ok(info) => json!({
            "file": f.path.display().to_string(),
            "bytes": f.bytes,
            "rules": egdb_rules(&info.rules),
            "max_seeds": info.max_seeds,
            "finished": info.is_finished(),
        }),
        Err(e) => json!({
            "file": f.path.display().to_string(),
            "bytes": f.bytes,
            "error": e.to_string(),
        }),
    }
}

fn grow_cache(
    cache: &Cache,
    k: usize,
    quiet: bool,
    rules: &RulesArgs,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let houses = rules.houses.unwrap_or(6);
    let game = Game::new(rules.rules(houses, rules.seeds.unwrap_or(4)))?;
    let grown = cache.grow(&game, k, |target, from| {
        let args = BuildArgs {
            max_seeds: k,
            out: target.to_path_buf(),
            // An interrupted growth resumes from its partial file, not from the smaller one.
            from: from
                .filter(|_| !file::partial_path(target).exists())
                .map(Path::to_path_buf),
            force: false,
            quiet,
            rules: rules.clone(),
        };
        build(&args, out)
    });
    match grown {
        Ok(Grown::Held(held)) => {
            writeln!(
                out,
                "the cache already holds {held} seeds for {}",
                egdb::describe(game.rules())
            )?;
            Ok(())
        }
        Ok(Grown::Built { .. }) => Ok(()),
        Err(GrowError::Requirements(e)) => Err(CliError::EgdbBuild(e)),
        Err(GrowError::Full(e)) => Err(e.into()),
        Err(e @ (GrowError::CreateDir { .. } | GrowError::Remove { .. })) => {
            Err(CliError::Input(e.to_string()))
        }
        Err(GrowError::Build(e)) => Err(e),
    }
}
