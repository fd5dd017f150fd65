//! `kalah egdb`: build an endgame database file, describe one, look positions up in one.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Instant;

use indicatif::{ProgressBar, ProgressStyle};
use kalah_analysis::wire::rules;
use kalah_core::{Game, Position, Rules, Side};
use kalah_io::{Output, OutputKind};
use kalah_solver::cache::{self, Cache, GrowError, Grown};
use kalah_solver::egdb::{self, file, Egdb, Requirements};
use serde_json::json;

use crate::args::RulesArgs;
use crate::error::CliError;

/// Endgame databases: the exact value of every position with at most K seeds in the houses.
///
/// A database depends on the number of houses and on the capture, end and leftovers rules,
/// not on the seeds per house the game starts with; the early stop is not supported (it
/// reads the stores). Give it to the solver with `kalah solve --egdb FILE`.
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
/// default), grow the database of a rule set, or clear it.
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
    /// List the cached files with their rules, seeds and sizes
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
    /// Remove every cached file
    Clear,
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

    /// The file to write
    #[arg(long, value_name = "FILE")]
    out: PathBuf,

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
        Some(CacheAction::Clear) => {
            let freed = cache.clear()?;
            writeln!(
                out,
                "cleared {}: {:.1} MiB freed",
                cache.dir().display(),
                freed as f64 / MIB
            )?;
            Ok(())
        }
        Some(CacheAction::Grow {
            max_seeds,
            quiet,
            rules,
        }) => grow_cache(&cache, *max_seeds, *quiet, rules, out),
    }
}

fn list_cache(cache: &Cache, json: bool, out: &mut dyn Write) -> Result<(), CliError> {
    let files = cache.files();
    let total: u64 = files.iter().map(|f| f.bytes).sum();
    if json {
        let rows: Vec<serde_json::Value> = files
            .iter()
            .map(|f| match &f.info {
                Ok(info) => json!({
                    "file": f.path.display().to_string(),
                    "bytes": f.bytes,
                    "rules": rules::pick(&info.rules, EGDB_RULES),
                    "max_seeds": info.max_seeds,
                    "finished": info.levels == info.max_seeds + 1,
                }),
                Err(e) => json!({
                    "file": f.path.display().to_string(),
                    "bytes": f.bytes,
                    "error": e.to_string(),
                }),
            })
            .collect();
        let obj = json!({
            "dir": cache.dir().display().to_string(),
            "bytes": total,
            "max_bytes": cache.max_bytes(),
            "files": rows,
        });
        writeln!(out, "{obj}")?;
        return Ok(());
    }
    writeln!(
        out,
        "cache {}: {} file{}, {:.1} MiB of at most {:.1} MiB",
        cache.dir().display(),
        files.len(),
        if files.len() == 1 { "" } else { "s" },
        total as f64 / MIB,
        cache.max_bytes() as f64 / MIB
    )?;
    for f in &files {
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
    Ok(())
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
    refuse_cyclic(game.rules())?;
    let grown = cache.grow(&game, k, |target, from| {
        let args = BuildArgs {
            max_seeds: k,
            out: target.to_path_buf(),
            from: from.map(Path::to_path_buf),
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
        Err(GrowError::CreateDir { dir, error }) => Err(CliError::Input(format!(
            "cannot create {}: {error}",
            dir.display()
        ))),
        Err(GrowError::Remove { path, error }) => Err(CliError::Input(format!(
            "cannot remove {}: {error}",
            path.display()
        ))),
        Err(GrowError::Build(e)) => Err(e),
    }
}

const MIB: f64 = (1u64 << 20) as f64;

/// Ethiopian Kalah and Oware keep no database files: `kalah solve` analyses the whole game
/// graph of the position (docs/rules.md §5.7, docs/cyclic.md).
fn refuse_cyclic(rules: &kalah_core::Rules) -> Result<(), CliError> {
    match rules.family.is_cyclic() {
        true => Err(crate::analysis_io::invalid(format!(
            "{} has no endgame database files: its positions repeat, and `kalah solve` (or \
             openings, pie, batch, export) solves the whole game graph of the position by \
             retrograde analysis, in memory",
            rules.family.long_title()
        ))),
        false => Ok(()),
    }
}

fn build(args: &BuildArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let k = args.max_seeds;
    let game = build_game(args)?;
    let need = Requirements::of(game.houses(), k).map_err(CliError::EgdbBuild)?;
    // The path checked and locked before any work, like every output: a symlink is
    // followed, a directory refused, and a second build of the same file fails at once.
    let output = Output::open(&args.out)?;
    if output.kind() != OutputKind::File {
        return Err(CliError::Input(format!(
            "--out {}: a database is a file to map and resume, not a stream: name a file",
            args.out.display()
        )));
    }
    let out_file = output.target().to_path_buf();
    if let Some(from) = &args.from {
        start_from(&game, args, from, &out_file)?;
    }
    if !args.quiet {
        announce(args, game.rules(), &need, &file::partial_path(&out_file));
    }
    let bars = LevelBars::new(args.quiet);
    let start = Instant::now();
    let (db, resumed) = Egdb::build_file(&game, k, &out_file, &|level, done, total| {
        bars.show(level, done, total)
    })
    .map_err(CliError::EgdbBuild)?;
    drop(output);
    bars.finish();
    let seconds = start.elapsed().as_secs_f64();
    let built = need.entries - db.level_start(resumed);
    writeln!(
        out,
        "wrote {}: {houses} house{}, up to {k} seeds, {} positions ({:.1} MiB) in {seconds:.1} s \
         ({:.1} M positions/s{})",
        args.out.display(),
        if game.houses() == 1 { "" } else { "s" },
        need.entries,
        need.disk as f64 / MIB,
        built as f64 / seconds.max(1e-9) / 1e6,
        if resumed > 0 {
            format!(", {resumed} levels resumed")
        } else {
            String::new()
        },
        houses = game.houses(),
    )?;
    Ok(())
}

/// The game of a build: its rules, with the seeds per house raised to hold K seeds (they do
/// not change any value); refused for the families without database files and under the
/// early stop.
fn build_game(args: &BuildArgs) -> Result<Game, CliError> {
    args.rules.options().check()?;
    let houses = args.rules.houses.unwrap_or(6);
    // Named by the flag given: the seeds per house are raised from --max-seeds.
    let lanes = 2 * houses as usize;
    let limit = egdb::MAX_SEEDS.min(kalah_core::MAX_TOTAL_SEEDS / lanes.max(1) * lanes);
    if lanes > 0 && args.max_seeds > limit {
        let e = egdb::EgdbError::TooManySeeds {
            seeds: args.max_seeds,
            limit,
        };
        return Err(CliError::EgdbBuild(e));
    }
    let seeds = args
        .rules
        .seeds
        .unwrap_or(4)
        .max(args.max_seeds.div_ceil(2 * houses.max(1) as usize).min(255) as u8);
    let rules = args.rules.rules(houses, seeds);
    let game = Game::new(rules)?;
    refuse_cyclic(&rules)?;
    if rules.early_stop {
        return Err(egdb::EgdbError::EarlyStop.into());
    }
    Ok(game)
}

/// Copies the levels of the smaller file `from` to the build of `out_file` (`--from`).
fn start_from(game: &Game, args: &BuildArgs, from: &Path, out_file: &Path) -> Result<(), CliError> {
    // The smaller file is loaded like any database: its own errors name it.
    let levels = Egdb::start_from(game, args.max_seeds, from, out_file).map_err(|e| match e {
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

/// Says on standard error what the build will make and what it needs.
fn announce(args: &BuildArgs, rules: &Rules, need: &Requirements, partial: &Path) {
    eprintln!(
        "building {} for {}: {} positions, {:.1} MiB of memory, {:.1} MiB on disk{}",
        args.out.display(),
        egdb::describe(rules),
        need.entries,
        need.memory as f64 / MIB,
        need.disk as f64 / MIB,
        if partial.exists() {
            format!(", resuming from {}", partial.display())
        } else {
            String::new()
        }
    );
}

/// The progress display of a build: the bar of the level being built (none when quiet),
/// replaced when the next level starts; called from the build's worker threads.
struct LevelBars {
    quiet: bool,
    terminal: bool,
    current: Mutex<Option<LevelBar>>,
}

impl LevelBars {
    fn new(quiet: bool) -> LevelBars {
        LevelBars {
            quiet,
            terminal: std::io::stderr().is_terminal(),
            current: Mutex::new(None),
        }
    }

    /// Shows `done` of the `total` positions of `level` built.
    fn show(&self, level: usize, done: u64, total: u64) {
        if self.quiet {
            return;
        }
        let Ok(mut guard) = self.current.lock() else {
            return;
        };
        if guard.as_ref().is_none_or(|b| b.level != level) {
            if let Some(old) = guard.take() {
                old.finish(self.terminal);
            }
            *guard = Some(LevelBar::new(level, total, self.terminal));
        }
        if let Some(b) = guard.as_ref() {
            if done > b.bar.position() {
                b.bar.set_position(done);
            }
        }
    }

    /// Finishes the bar of the last level.
    fn finish(&self) {
        if let Ok(mut guard) = self.current.lock() {
            if let Some(old) = guard.take() {
                old.finish(self.terminal);
            }
        }
    }
}

/// The progress display of one seed level.
struct LevelBar {
    level: usize,
    bar: ProgressBar,
    start: Instant,
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
        }
    }

    /// Leaves the bar on screen, or prints one line where standard error is no terminal.
    fn finish(self, terminal: bool) {
        if terminal {
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

fn info(args: &InfoArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let header = file::read_info(&args.file)?;
    let finished = header.levels == header.max_seeds + 1;
    if finished {
        // Full verification: checksum and sampled entries.
        Egdb::open(&args.file)?;
    }
    let status = if finished {
        "verified (checksum and sampled entries)".to_string()
    } else {
        format!(
            "unfinished: {} of {} seed levels (run the build again to resume)",
            header.levels,
            header.max_seeds + 1
        )
    };
    if args.json {
        let obj = json!({
            "file": args.file.display().to_string(),
            "version": file::VERSION,
            "rules": rules::pick(&header.rules, EGDB_RULES),
            "max_seeds": header.max_seeds,
            "levels": header.levels,
            "entries": header.entries,
            "bytes": header.file_size(),
            "checksum": format!("{:016x}", header.checksum),
            "finished": finished,
        });
        writeln!(out, "{obj}")?;
    } else {
        writeln!(out, "file       {}", args.file.display())?;
        writeln!(out, "format     version {}", file::VERSION)?;
        writeln!(out, "rules      {}", egdb::describe(&header.rules))?;
        writeln!(out, "max seeds  {}", header.max_seeds)?;
        writeln!(out, "positions  {}", header.entries)?;
        writeln!(
            out,
            "size       {} bytes ({:.1} MiB)",
            header.file_size(),
            header.file_size() as f64 / MIB
        )?;
        writeln!(out, "checksum   {:016x}", header.checksum)?;
        writeln!(out, "status     {status}")?;
    }
    Ok(())
}

fn probe(args: &ProbeArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let pos: Position = args.position.parse().map_err(CliError::Position)?;
    let header = file::read_info(&args.file)?;
    let h = header.rules.houses as usize;
    if pos.houses_per_side() != h || pos.seeds_in_houses() as usize > header.max_seeds {
        return Err(CliError::NotInDatabase {
            file: args.file.display().to_string(),
            houses: pos.houses_per_side(),
            seeds: pos.seeds_in_houses() as usize,
            db_houses: h,
            max_seeds: header.max_seeds,
        });
    }
    let db = Egdb::open(&args.file)?;
    let game = egdb::widest_game(&header.rules)?;
    let pos = game.settle(pos).map_err(CliError::Position)?;
    let from_south = |p: &Position| db.probe(p).map(|v| v * p.side_to_move().sign());
    let value = from_south(&pos).unwrap_or(pos.score());
    let mut moves = Vec::new();
    for j in pos.moves() {
        let child = game.play_unchecked(&pos, j);
        let bin = match pos.side_to_move() {
            Side::South => j + 1,
            Side::North => h + 2 + j,
        };
        moves.push((bin, from_south(&child).unwrap_or(child.score())));
    }
    let mover = pos.side_to_move().sign();
    let best = moves.iter().map(|&(_, v)| v * mover).max();
    if args.json {
        let obj = json!({
            "position": pos.to_string(),
            "side_to_move": pos.side_to_move().to_string(),
            "value": value,
            "value_for_mover": value * mover,
            "moves": moves.iter().map(|&(bin, v)| json!({
                "bin": bin, "value": v, "best": Some(v * mover) == best
            })).collect::<Vec<_>>(),
        });
        writeln!(out, "{obj}")?;
    } else {
        writeln!(out, "position   {pos}")?;
        writeln!(
            out,
            "value      {value:+} (final South store minus North store; {:+} for {})",
            value * mover,
            pos.side_to_move()
        )?;
        for (bin, v) in &moves {
            let mark = if Some(v * mover) == best {
                "  best"
            } else {
                ""
            };
            writeln!(out, "sow {bin:>2}     {v:+}{mark}")?;
        }
    }
    Ok(())
}
