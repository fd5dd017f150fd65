//! `kalah egdb cache`: list, grow, clear and clean the database cache.

use std::io::Write;

use kalah_analysis::run::egdb_build;
use kalah_analysis::wire::egdb as wire;
use kalah_core::Game;
use kalah_solver::cache::{self, Cache, GrowError};

use super::build::LevelBars;
use crate::analysis_io::interrupt_flag;
use crate::args::{QuietArgs, RulesArgs};
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

    #[allow(dead_code)] // Every command takes --quiet; this one shows no progress.
    #[command(flatten)]
    quiet: QuietArgs,
}

#[derive(clap::Subcommand, Debug)]
enum CacheAction {
    /// List the cached files with their rules, seeds and sizes, and the temporaries and
    /// partial files beside them
    List {
        /// Print one JSON object instead of text
        #[arg(long)]
        json: bool,

        #[allow(dead_code)] // Every command takes --quiet; this one shows no progress.
        #[command(flatten)]
        quiet: QuietArgs,
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
    Clear {
        #[allow(dead_code)] // Every command takes --quiet; this one shows no progress.
        #[command(flatten)]
        quiet: QuietArgs,
    },
    /// Remove only the stale temporaries: those a killed build or write left behind
    Clean {
        #[allow(dead_code)] // Every command takes --quiet; this one shows no progress.
        #[command(flatten)]
        quiet: QuietArgs,
    },
}

/// The user's cache, or an error saying it is off.
fn user_cache() -> Result<Cache, CliError> {
    Cache::from_env()?.ok_or_else(|| CliError::Input(wire::cache_off()))
}

pub(super) fn cache(args: &CacheArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let cache = user_cache()?;
    match &args.action {
        None => list_cache(&cache, false, out),
        Some(CacheAction::List { json, .. }) => list_cache(&cache, *json, out),
        Some(CacheAction::Clear { .. }) => report_cleared(&cache, "cleared", &cache.clear()?, out),
        Some(CacheAction::Clean { .. }) => report_cleared(&cache, "cleaned", &cache.clean()?, out),
        Some(CacheAction::Grow {
            max_seeds,
            quiet,
            rules,
        }) => grow_cache(&cache, *max_seeds, *quiet, rules, out),
    }
}

/// Writes `lines`, one a line.
fn write_lines(lines: Vec<String>, out: &mut dyn Write) -> Result<(), CliError> {
    for line in lines {
        writeln!(out, "{line}")?;
    }
    Ok(())
}

/// What `cache clear` or `cache clean` removed and kept.
fn report_cleared(
    cache: &Cache,
    done: &str,
    cleared: &cache::Cleared,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    write_lines(wire::cleared_lines(cache.dir(), done, cleared), out)
}

/// `cache list`: the cache's files and leftovers, in text or JSON.
fn list_cache(cache: &Cache, json: bool, out: &mut dyn Write) -> Result<(), CliError> {
    let listing = cache.list();
    if json {
        writeln!(
            out,
            "{}",
            wire::cache_json(cache.dir(), cache.max_bytes(), &listing)
        )?;
        return Ok(());
    }
    write_lines(
        wire::cache_lines(cache.dir(), cache.max_bytes(), &listing),
        out,
    )
}

fn grow_cache(
    cache: &Cache,
    k: usize,
    quiet: bool,
    rules: &RulesArgs,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let game = Game::new(rules.board_rules())?;
    let grown = egdb_build::grow_cache(
        cache,
        &game,
        k,
        quiet,
        interrupt_flag(),
        &LevelBars::default(),
    );
    match grown {
        Ok(line) => Ok(writeln!(out, "{line}")?),
        Err(GrowError::Requirements(e)) => Err(CliError::EgdbBuild(e)),
        Err(GrowError::Full(e)) => Err(e.into()),
        Err(e @ (GrowError::CreateDir { .. } | GrowError::Remove { .. })) => {
            Err(CliError::Input(e.to_string()))
        }
        Err(GrowError::Build(e)) => Err(e.into()),
    }
}
