//! `kalah egdb`: build an endgame database file, describe one, look positions up in one.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

use indicatif::{ProgressBar, ProgressStyle};
use kalah_analysis::levels::{LevelDisplay, LevelProgress};
use kalah_analysis::outputs;
use kalah_analysis::wire::rules;
use kalah_core::{Game, Position};
use kalah_io::{Checks, Output, OutputKind};
use kalah_solver::cache::{self, Cache, GrowError, Grown, LeftoverKind};
use kalah_solver::egdb::{self, file, FileBuild, Inspection, PlanError, ProbeError};
use serde_json::json;

use crate::analysis_io::{interrupt_flag, interrupted};
use crate::args::RulesArgs;
use crate::error::CliError;

/// Endgame databases: the exact value of every position with at most K seeds in the houses.
///
/// A database depends on the number of houses and on the capture, end and leftovers rules,
/// not on the seeds per house the game starts with; the early stop is not supported (it
/// reads the stores). Give it to the solver with `kalah solve --egdb FILE`. Oware's
/// (`--rules oware`, each grand slam rule its own) and Ethiopian Kalah's databases are
/// built by the cycle rule of docs/cyclic.md, and their positions are answered from the
/// file by solve, openings, pie, batch, export and analyse (`--egdb FILE`).
///
/// Example: `kalah egdb build --houses 6 --max-seeds 20 --capture empty --out k6-20-empty.egdb`
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(clap::Subcommand, Debug)]
enum Command {
    Build(BuildArgs),
    Info(InfoArgs),
    Probe(ProbeArgs),
    Cache(CacheArgs),
}

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
struct CacheArgs {
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

/// Build a database file, in parallel over all cores, one seed level after the other.
///
/// The memory and disk space needed are stated up front, and the build is refused when
/// they are not available. It writes FILE.partial and renames it to FILE when done; an
/// interrupted build resumes from the levels FILE.partial already holds.
#[derive(clap::Args, Debug)]
struct BuildArgs {
    /// The most seeds in the houses of a position in the database
    #[arg(long, value_name = "K")]
    max_seeds: usize,

    /// The file to write: an existing database is replaced; another file, a read-only
    /// one or a symbolic link only with --force
    #[arg(long, value_name = "FILE")]
    out: PathBuf,

    /// Replace an existing --out FILE that is no database, a read-only one, or a symbolic
    /// link (the link itself; its target is left alone)
    #[arg(long)]
    force: bool,

    /// Start from a finished database file of fewer seeds for the same rules (say a
    /// 24-seed file towards a 28-seed one): its levels are verified and copied, not
    /// computed again
    #[arg(long, value_name = "SMALLER")]
    from: Option<PathBuf>,

    /// No progress display on standard error
    #[arg(long, short)]
    quiet: bool,

    #[command(flatten)]
    rules: RulesArgs,
}

/// Describe a database file and verify it (checksum, and a sample of entries against
/// their children).
#[derive(clap::Args, Debug)]
struct InfoArgs {
    /// The database file
    file: PathBuf,

    /// Print one JSON object instead of text
    #[arg(long)]
    json: bool,
}

/// The exact value of a position from a database file, and of each of its sowings.
#[derive(clap::Args, Debug)]
struct ProbeArgs {
    /// The database file
    file: PathBuf,

    /// The position, e.g. `0,1,0,0,2,1,20,0,0,3,0,1,0,20:S`; its houses must hold at most
    /// the database's K seeds
    #[arg(long, value_name = "BOARD")]
    position: String,

    /// Print one JSON object instead of text
    #[arg(long)]
    json: bool,
}

/// Runs `kalah egdb`.
pub fn run(args: &Args, out: &mut dyn Write) -> Result<(), CliError> {
    match &args.command {
        Command::Build(a) => build(a, out),
        Command::Info(a) => info(a, out),
        Command::Probe(a) => probe(a, out),
        Command::Cache(a) => cache(a, out),
    }
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

fn cache(args: &CacheArgs, out: &mut dyn Write) -> Result<(), CliError> {
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

const MIB: f64 = (1u64 << 20) as f64;

fn build(args: &BuildArgs, out: &mut dyn Write) -> Result<(), CliError> {
    args.rules.options().check()?;
    let houses = args.rules.houses.unwrap_or(6);
    let rules = args.rules.rules(houses, args.rules.seeds.unwrap_or(4));
    let plan = FileBuild::plan(rules, args.max_seeds).map_err(|e| match e {
        PlanError::Rules(e) => CliError::Rules(e),
        PlanError::Unbuildable(e) => CliError::Egdb(e),
        PlanError::Size(e) => CliError::EgdbBuild(e),
    })?;
    // The path checked and locked before any work, like every output: only a database
    // is replaced without --force, never --from, and a second build fails at once.
    let checks = Checks::of(outputs::DATABASE, args.force).reading(args.from.as_deref());
    let output = Output::open_with(&args.out, &checks)?;
    if output.kind() != OutputKind::File {
        return Err(CliError::Input(format!(
            "--out {}: a database is a file to map and resume, not a stream: name a file",
            args.out.display()
        )));
    }
    let out_file = output.target().to_path_buf();
    if let Some(from) = &args.from {
        start_from(&plan, args, from, &out_file)?;
    }
    if !args.quiet {
        announce(args, &plan, plan.resumes(&out_file).as_deref());
    }
    // The bar of the level being built (none when quiet), replaced when the next level
    // starts; reported from the build's worker threads.
    let (bars, terminal) = (LevelProgress::default(), std::io::stderr().is_terminal());
    let start = Instant::now();
    let built = plan
        .run(&out_file, interrupt_flag(), &|level, done, total| {
            if !args.quiet {
                bars.show(level, done, || LevelBar::new(level, total, terminal))
            }
        })
        .map_err(|e| match e {
            egdb::EgdbError::Cancelled => interrupted(&kept_partial(&out_file, args)),
            e => CliError::EgdbBuild(e),
        })?;
    drop(output);
    bars.finish();
    let seconds = start.elapsed().as_secs_f64();
    let (k, houses, resumed) = (args.max_seeds, plan.game.houses(), built.resumed);
    writeln!(
        out,
        "wrote {}: {houses} house{}, up to {k} seeds, {} positions ({:.1} MiB) in {seconds:.1} s \
         ({:.1} M positions/s{})",
        args.out.display(),
        if houses == 1 { "" } else { "s" },
        plan.need.entries,
        plan.need.disk as f64 / MIB,
        built.computed as f64 / seconds.max(1e-9) / 1e6,
        if resumed > 0 {
            format!(", {resumed} levels resumed")
        } else {
            String::new()
        },
    )?;
    Ok(())
}

/// What an interrupted build to `out_file` kept, and how to resume it.
fn kept_partial(out_file: &Path, args: &BuildArgs) -> String {
    let partial = file::partial_path(out_file);
    let levels = file::read_info(&partial).map_or(0, |info| info.levels);
    let kept = match levels {
        0 => "no finished seed level".to_string(),
        n => format!("seed levels 0 to {} of {}", n - 1, args.max_seeds),
    };
    format!(
        "{} keeps {kept}; run the same command again to resume from it, or remove it to \
         start over",
        partial.display()
    )
}

/// Copies the levels of the smaller file `from` to the build of `out_file` (`--from`).
fn start_from(
    plan: &FileBuild,
    args: &BuildArgs,
    from: &Path,
    out_file: &Path,
) -> Result<(), CliError> {
    // The smaller file is loaded like any database: its own errors name it.
    let levels = plan.start_from(from, out_file).map_err(|e| match e {
        e @ egdb::EgdbError::FromRefused { .. } => CliError::EgdbBuild(e),
        e => CliError::Egdb(e),
    })?;
    if !args.quiet {
        eprintln!(
            "starting from {}: levels 0 to {}",
            from.display(),
            levels - 1
        );
    }
    Ok(())
}

/// Says on standard error what the build will make and what it needs, and the partial
/// file it resumes from.
fn announce(args: &BuildArgs, plan: &FileBuild, partial: Option<&Path>) {
    // A level of a cyclic family is built with two more bytes a board (its upper bound and
    // best exit) and its moves packed within three quarters of the memory free then.
    let rules = plan.game.rules();
    let levels = match rules.family.is_cyclic() {
        true => {
            let lanes = 2 * rules.houses as u64;
            let largest = kalah_core::binomial(args.max_seeds as u64 + lanes - 1, lanes - 1);
            format!(
                " (and {:.1} MiB more while the largest level is built, its moves packed \
                 within three quarters of the memory then free)",
                (2 * largest) as f64 / MIB
            )
        }
        false => String::new(),
    };
    eprintln!(
        "building {} for {}: {} positions, {:.1} MiB of memory{levels}, {:.1} MiB on disk{}",
        args.out.display(),
        egdb::describe(rules),
        plan.need.entries,
        plan.need.memory as f64 / MIB,
        plan.need.disk as f64 / MIB,
        partial.map_or(String::new(), |p| format!(
            ", resuming from {}",
            p.display()
        ))
    );
}

/// The progress display of one seed level.
struct LevelBar {
    level: usize,
    bar: ProgressBar,
    start: Instant,
    terminal: bool,
}

impl LevelBar {
    fn new(level: usize, total: u64, terminal: bool) -> LevelBar {
        let bar = if terminal {
            let bar = ProgressBar::new(total).with_style(
                ProgressStyle::with_template(
                    "{prefix:>9} [{elapsed_precise}] {bar:30} {human_pos}/{human_len} {rate} eta {eta}",
                )
                .map(|style| {
                    style.with_key(
                        "rate",
                        |state: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                            let _ = write!(w, "{:.1} M/s", state.per_sec() / 1e6);
                        },
                    )
                })
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
            );
            bar.set_prefix(format!("{level} seeds"));
            bar
        } else {
            let bar = ProgressBar::hidden();
            bar.set_length(total);
            bar
        };
        LevelBar {
            level,
            bar,
            start: Instant::now(),
            terminal,
        }
    }
}

impl LevelDisplay for LevelBar {
    fn set(&self, done: u64) {
        self.bar.set_position(done);
    }

    /// Leaves the bar on screen, or prints one line where standard error is no terminal.
    fn finish(self) {
        if self.terminal {
            self.bar.finish();
        } else {
            let s = self.start.elapsed().as_secs_f64();
            let n = self.bar.length().unwrap_or(0);
            eprintln!(
                "{:>3} seeds: {n} positions in {s:.2} s ({:.1} M/s)",
                self.level,
                n as f64 / s.max(1e-9) / 1e6
            );
        }
    }
}

/// The fields of the rules that a database's JSON states: those its positions depend on.
const EGDB_RULES: &[&str] = &["family", "houses", "capture", "end", "leftovers"];

/// The rules a database's JSON states ([`EGDB_RULES`], and Oware's grand slam rule).
fn egdb_rules(r: &kalah_core::Rules) -> serde_json::Map<String, serde_json::Value> {
    match r.family {
        kalah_core::Family::Oware => rules::pick(r, &[EGDB_RULES, &["grand_slam"]].concat()),
        _ => rules::pick(r, EGDB_RULES),
    }
}

fn info(args: &InfoArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let Inspection { info, finished } = egdb::inspect(&args.file)?;
    if args.json {
        let obj = json!({
            "file": args.file.display().to_string(),
            "version": file::VERSION,
            "rules": egdb_rules(&info.rules),
            "max_seeds": info.max_seeds,
            "levels": info.levels,
            "entries": info.entries,
            "bytes": info.file_size(),
            "checksum": format!("{:016x}", info.checksum),
            "finished": finished,
        });
        writeln!(out, "{obj}")?;
        return Ok(());
    }
    let status = if finished {
        "verified (checksum and sampled entries)".to_string()
    } else {
        format!(
            "unfinished: {} of {} seed levels (run the build again to resume)",
            info.levels,
            info.max_seeds + 1
        )
    };
    writeln!(out, "file       {}", args.file.display())?;
    writeln!(out, "format     version {}", file::VERSION)?;
    writeln!(out, "rules      {}", egdb::describe(&info.rules))?;
    writeln!(out, "max seeds  {}", info.max_seeds)?;
    writeln!(out, "positions  {}", info.entries)?;
    writeln!(
        out,
        "size       {} bytes ({:.1} MiB)",
        info.file_size(),
        info.file_size() as f64 / MIB
    )?;
    writeln!(out, "checksum   {:016x}", info.checksum)?;
    writeln!(out, "status     {status}")?;
    Ok(())
}

fn probe(args: &ProbeArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let pos: Position = args.position.parse().map_err(CliError::Position)?;
    let probed = egdb::probe_file(&args.file, pos).map_err(|e| match e {
        ProbeError::Egdb(e) => CliError::Egdb(e),
        ProbeError::Rules(e) => CliError::Rules(e),
        ProbeError::Position(e) => CliError::Position(e),
        ProbeError::NotInDatabase {
            houses,
            seeds,
            db_houses,
            max_seeds,
        } => CliError::NotInDatabase {
            file: args.file.display().to_string(),
            houses,
            seeds,
            db_houses,
            max_seeds,
        },
    })?;
    let (pos, value) = (probed.position, probed.value);
    if args.json {
        let obj = json!({
            "position": pos.to_string(),
            "side_to_move": pos.side_to_move().to_string(),
            "value": value,
            "value_for_mover": probed.value_for_mover(),
            "moves": probed.sowings.iter().map(|s| json!({
                "bin": s.bin, "clockwise": s.clockwise, "sowing": s.name(), "value": s.value,
                "best": probed.is_best(s)
            })).collect::<Vec<_>>(),
        });
        writeln!(out, "{obj}")?;
        return Ok(());
    }
    writeln!(out, "position   {pos}")?;
    writeln!(
        out,
        "value      {value:+} (final South store minus North store; {:+} for {})",
        probed.value_for_mover(),
        pos.side_to_move()
    )?;
    for s in &probed.sowings {
        let mark = if probed.is_best(s) { "  best" } else { "" };
        writeln!(out, "sow {:>3}    {:+}{mark}", s.name(), s.value)?;
    }
    Ok(())
}
