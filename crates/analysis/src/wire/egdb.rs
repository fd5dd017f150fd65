//! What `kalah egdb` says of endgame database files, in text and JSON: a build announced,
//! done or stopped (`build`), a file's header and check (`info`), a position looked up in
//! one (`probe`), the database cache's
//! listing (`cache list`) and what a clearing removed (`cache clear`, `cache clean`).
//! Each text form is a list of lines; each JSON form one object.

use std::path::Path;

use kalah_core::{Family, Rules};
use kalah_solver::cache::{self, Cached, Cleared, Leftover, LeftoverKind, Listing};
use kalah_solver::egdb::{self, file, FileBuild, Inspection, Probed};
use serde_json::{json, Map, Value};

use super::rules::pick;

/// Bytes in a MiB, for the sizes shown in MiB.
const MIB: f64 = (1u64 << 20) as f64;

/// The fields of the rules a database file depends on (Oware's grand slam too).
const EGDB_RULES: &[&str] = &["family", "houses", "capture", "end", "leftovers"];

/// The rules of a database file as JSON: only the fields its values depend on.
pub fn rules(r: &Rules) -> Map<String, Value> {
    match r.family {
        Family::Oware => pick(r, &[EGDB_RULES, &["grand_slam"]].concat()),
        _ => pick(r, EGDB_RULES),
    }
}

/// What the build of `plan` into `path` will take, said before it starts: positions,
/// memory (for a cyclic family, the more its largest level takes while built), disk, and
/// the partial file it resumes from, if any.
pub fn build_announcement(path: &Path, plan: &FileBuild, partial: Option<&Path>) -> String {
    // A level of a cyclic family is built with two more bytes a board (its upper bound and
    // best exit) and its moves packed within three quarters of the memory free then.
    let rules = plan.game.rules();
    let levels = match rules.family.is_cyclic() {
        true => {
            let lanes = 2 * rules.houses as u64;
            let largest = kalah_core::binomial(plan.max_seeds as u64 + lanes - 1, lanes - 1);
            format!(
                " (and {:.1} MiB more while the largest level is built, its moves packed \
                 within three quarters of the memory then free)",
                (2 * largest) as f64 / MIB
            )
        }
        false => String::new(),
    };
    format!(
        "building {} for {}: {} positions, {:.1} MiB of memory{levels}, {:.1} MiB on disk{}",
        path.display(),
        egdb::describe(rules),
        plan.need.entries,
        plan.need.memory as f64 / MIB,
        plan.need.disk as f64 / MIB,
        partial.map_or(String::new(), |p| format!(
            ", resuming from {}",
            p.display()
        ))
    )
}

/// The build of `plan` written to `path` in `seconds`: its size, and the rate of the
/// `computed` positions (the `resumed` levels read back from a partial file aside).
pub fn build_summary(
    path: &Path,
    plan: &FileBuild,
    computed: u64,
    resumed: usize,
    seconds: f64,
) -> String {
    let (k, houses) = (plan.max_seeds, plan.game.houses());
    format!(
        "wrote {}: {houses} house{}, up to {k} seeds, {} positions ({:.1} MiB) in {seconds:.1} s \
         ({:.1} M positions/s{})",
        path.display(),
        plural(houses),
        plan.need.entries,
        plan.need.disk as f64 / MIB,
        computed as f64 / seconds.max(1e-9) / 1e6,
        if resumed > 0 {
            format!(", {resumed} levels resumed")
        } else {
            String::new()
        },
    )
}

/// Why `kalah egdb cache` has no cache to work on, and how to give it one.
pub fn cache_off() -> String {
    format!(
        "the database cache is off ({}=off, or no home directory): set {} to a directory",
        cache::CACHE_VAR,
        cache::CACHE_VAR
    )
}

/// What `kalah egdb cache grow` says where the cache already holds a database of `held`
/// seeds for `rules`, at least the seeds asked for.
pub fn cache_holds(held: usize, rules: &Rules) -> String {
    format!(
        "the cache already holds {held} seeds for {}",
        egdb::describe(rules)
    )
}

/// Why a position of `houses` houses per side with `seeds` seeds in its houses is not in
/// the database `file` of `db_houses` houses and at most `max_seeds` seeds
/// ([`egdb::ProbeError::NotInDatabase`]).
pub fn not_in_database(
    file: &Path,
    houses: usize,
    seeds: usize,
    db_houses: usize,
    max_seeds: usize,
) -> String {
    format!(
        "{} holds positions of {db_houses} houses per side with at most {max_seeds} seeds in \
         the houses; --position has {houses} houses per side and {seeds} seeds in the houses",
        file.display()
    )
}

/// The line a build started from the smaller file `from` says first: the `levels`
/// (seed levels 0 to `levels - 1`) it copies.
pub fn start_from_line(from: &Path, levels: usize) -> String {
    format!(
        "starting from {}: levels 0 to {}",
        from.display(),
        levels.saturating_sub(1)
    )
}

/// The line of a finished seed level of a build where standard error is no terminal:
/// its `positions`, counted in `seconds`.
pub fn level_line(level: usize, positions: u64, seconds: f64) -> String {
    format!(
        "{level:>3} seeds: {positions} positions in {seconds:.2} s ({:.1} M/s)",
        positions as f64 / seconds.max(1e-9) / 1e6
    )
}

/// What a stopped build of `max_seeds` seeds into `path` kept: the seed levels its partial
/// file holds, and how to go on.
pub fn build_kept(path: &Path, max_seeds: usize) -> String {
    let partial = file::partial_path(path);
    let levels = file::read_info(&partial).map_or(0, |info| info.levels);
    let kept = match levels {
        0 => "no finished seed level".to_string(),
        n => format!("seed levels 0 to {} of {max_seeds}", n - 1),
    };
    format!(
        "{} keeps {kept}; run the same command again to resume from it, or remove it to \
         start over",
        partial.display()
    )
}

/// `kalah egdb info --json`: the header of the file at `path` and whether it is finished.
pub fn info_json(path: &Path, inspection: &Inspection) -> Value {
    let Inspection { info, finished } = inspection;
    json!({
        "file": path.display().to_string(),
        "version": file::VERSION,
        "rules": rules(&info.rules),
        "max_seeds": info.max_seeds,
        "levels": info.levels,
        "entries": info.entries,
        "bytes": info.file_size(),
        "checksum": format!("{:016x}", info.checksum),
        "finished": finished,
    })
}

/// `kalah egdb info`: the header of the file at `path`, one field a line, and its status
/// (verified where finished, else the levels done).
pub fn info_lines(path: &Path, inspection: &Inspection) -> Vec<String> {
    let Inspection { info, finished } = inspection;
    let status = if *finished {
        "verified (checksum and sampled entries)".to_string()
    } else {
        format!(
            "unfinished: {} of {} seed levels (run the build again to resume)",
            info.levels,
            info.max_seeds + 1
        )
    };
    vec![
        format!("file       {}", path.display()),
        format!("format     version {}", file::VERSION),
        format!("rules      {}", egdb::describe(&info.rules)),
        format!("max seeds  {}", info.max_seeds),
        format!("positions  {}", info.entries),
        format!(
            "size       {} bytes ({:.1} MiB)",
            info.file_size(),
            info.file_size() as f64 / MIB
        ),
        format!("checksum   {:016x}", info.checksum),
        format!("status     {status}"),
    ]
}

/// `kalah egdb probe --json`: the position's value (from South and for the mover) and
/// every sowing's, the best marked.
pub fn probe_json(probed: &Probed) -> Value {
    let pos = &probed.position;
    json!({
        "position": pos.to_string(),
        "side_to_move": pos.side_to_move().to_string(),
        "value": probed.value,
        "value_for_mover": probed.value_for_mover(),
        "moves": probed.sowings.iter().map(|s| json!({
            "bin": s.bin, "clockwise": s.clockwise, "sowing": s.name(), "value": s.value,
            "best": probed.is_best(s)
        })).collect::<Vec<_>>(),
    })
}

/// `kalah egdb probe`: the position, its value, then one line a sowing, the best marked.
pub fn probe_lines(probed: &Probed) -> Vec<String> {
    let (pos, value) = (&probed.position, probed.value);
    let mut lines = vec![
        format!("position   {pos}"),
        format!(
            "value      {value:+} (final South store minus North store; {:+} for {})",
            probed.value_for_mover(),
            pos.side_to_move()
        ),
    ];
    for s in &probed.sowings {
        let mark = if probed.is_best(s) { "  best" } else { "" };
        lines.push(format!("sow {:>3}    {:+}{mark}", s.name(), s.value));
    }
    lines
}

/// `kalah egdb cache list --json`: the cache in `dir` (at most `max_bytes`), its files
/// with their headers and the leftovers beside them.
pub fn cache_json(dir: &Path, max_bytes: u64, listing: &Listing) -> Value {
    let rows: Vec<Value> = listing.files.iter().map(cached_json).collect();
    let left: Vec<Value> = listing.leftovers.iter().map(leftover_json).collect();
    json!({
        "dir": dir.display().to_string(),
        "bytes": listing.bytes,
        "max_bytes": max_bytes,
        "files": rows,
        "leftovers": left,
    })
}

/// `kalah egdb cache list`: the cache in `dir` (at most `max_bytes`), a line of totals,
/// then a line a file and a line a leftover.
pub fn cache_lines(dir: &Path, max_bytes: u64, listing: &Listing) -> Vec<String> {
    let n = listing.files.len();
    let mut lines = vec![format!(
        "cache {}: {n} file{}, {:.1} MiB of at most {:.1} MiB",
        dir.display(),
        plural(n),
        listing.bytes as f64 / MIB,
        max_bytes as f64 / MIB
    )];
    for f in &listing.files {
        let what = match &f.info {
            Ok(info) => format!(
                "{}, up to {} seeds",
                egdb::describe(&info.rules),
                info.max_seeds
            ),
            Err(e) => format!("unreadable: {e}"),
        };
        lines.push(format!(
            "  {}  {:.1} MiB  {what}",
            file_name(&f.path),
            f.bytes as f64 / MIB
        ));
    }
    for left in &listing.leftovers {
        lines.push(format!(
            "  {}  {:.1} MiB  {}",
            file_name(&left.path),
            left.bytes as f64 / MIB,
            leftover_words(left)
        ));
    }
    lines
}

/// `kalah egdb cache clear` and `clean`: what was `done` (`cleared`, `cleaned`) in `dir`,
/// then a line for each file kept.
pub fn cleared_lines(dir: &Path, done: &str, cleared: &Cleared) -> Vec<String> {
    let n = cleared.removed.len();
    let mut lines = vec![format!(
        "{done} {}: {n} file{} removed, {:.1} MiB freed",
        dir.display(),
        plural(n),
        cleared.freed as f64 / MIB
    )];
    for path in &cleared.foreign {
        lines.push(format!(
            "  kept {}: not a kalah endgame database",
            path.display()
        ));
    }
    for path in &cleared.in_use {
        lines.push(format!(
            "  kept {}: a running process is writing it",
            path.display()
        ));
    }
    lines
}

/// The `s` of a plural, for `n` things.
fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// The last part of `path`, for a listing of one directory.
fn file_name(path: &Path) -> std::borrow::Cow<'_, str> {
    path.file_name().unwrap_or_default().to_string_lossy()
}

/// What a leftover is, in words, with the command that removes it.
fn leftover_words(left: &Leftover) -> String {
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
            plural(levels)
        ),
    }
}

/// A leftover as JSON: its file, size, kind and whether it is stale.
fn leftover_json(left: &Leftover) -> Value {
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

/// A cached file as JSON: its header's rules and size, or why it cannot be read.
fn cached_json(f: &Cached) -> Value {
    match &f.info {
        Ok(info) => json!({
            "file": f.path.display().to_string(),
            "bytes": f.bytes,
            "rules": rules(&info.rules),
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    #[test]
    fn the_cache_says_it_is_off_and_what_it_holds() {
        assert_eq!(
            cache_off(),
            "the database cache is off (KALAH_CACHE=off, or no home directory): set \
             KALAH_CACHE to a directory"
        );
        let rules = Rules::kalah(3, 2);
        assert_eq!(
            cache_holds(6, &rules),
            format!(
                "the cache already holds 6 seeds for {}",
                egdb::describe(&rules)
            )
        );
    }

    #[test]
    fn a_position_not_in_the_database_is_told_both_boards() {
        assert_eq!(
            not_in_database(Path::new("k.egdb"), 6, 30, 6, 20),
            "k.egdb holds positions of 6 houses per side with at most 20 seeds in the houses; \
             --position has 6 houses per side and 30 seeds in the houses"
        );
    }

    #[test]
    fn a_build_says_where_it_starts_and_each_level_it_finishes() {
        assert_eq!(
            start_from_line(Path::new("k6-20.egdb"), 21),
            "starting from k6-20.egdb: levels 0 to 20"
        );
        assert_eq!(
            level_line(7, 2_000_000, 0.5),
            "  7 seeds: 2000000 positions in 0.50 s (4.0 M/s)"
        );
    }

    #[test]
    fn oware_files_name_their_grand_slam_rule_and_kalah_files_do_not() {
        let kalah = rules(&Rules::kalah(6, 4));
        assert!(kalah.contains_key("capture") && !kalah.contains_key("grand_slam"));
        assert!(
            !kalah.contains_key("seeds"),
            "a database serves every seed count"
        );
        assert!(rules(&Rules::oware(6, 4)).contains_key("grand_slam"));
    }

    #[test]
    fn a_clearing_counts_its_files_in_the_singular_and_names_those_kept() {
        let cleared = Cleared {
            removed: vec![PathBuf::from("a.egdb")],
            freed: 3 << 20,
            foreign: vec![PathBuf::from("mine.egdb")],
            in_use: vec![],
        };
        let lines = cleared_lines(Path::new("/c"), "cleared", &cleared);
        assert_eq!(
            lines,
            [
                "cleared /c: 1 file removed, 3.0 MiB freed",
                "  kept mine.egdb: not a kalah endgame database",
            ]
        );
    }

    #[test]
    fn a_listing_says_which_leftovers_are_stale() {
        let listing = Listing {
            files: vec![],
            bytes: 0,
            leftovers: vec![
                Leftover {
                    path: PathBuf::from("/c/.x.egdb.7.tmp"),
                    bytes: 0,
                    kind: LeftoverKind::Temporary {
                        pid: 7,
                        alive: false,
                    },
                },
                Leftover {
                    path: PathBuf::from("/c/x.egdb.partial"),
                    bytes: 0,
                    kind: LeftoverKind::Partial { levels: 1 },
                },
            ],
        };
        let lines = cache_lines(Path::new("/c"), 1 << 20, &listing);
        assert_eq!(lines[0], "cache /c: 0 files, 0.0 MiB of at most 1.0 MiB");
        assert!(lines[1].contains(".x.egdb.7.tmp") && lines[1].contains("stale"));
        assert!(lines[2].contains("1 seed level done"), "{}", lines[2]);
        let json = cache_json(Path::new("/c"), 1 << 20, &listing);
        assert_eq!(json["leftovers"][0]["stale"], true);
        assert_eq!(json["leftovers"][1]["kind"], "partial");
    }

    #[test]
    fn a_cyclic_build_announces_the_memory_of_its_largest_level() {
        let kalah = FileBuild::plan(Rules::kalah(4, 3), 8).unwrap();
        let said = build_announcement(Path::new("k.egdb"), &kalah, None);
        assert!(said.starts_with("building k.egdb for "), "{said}");
        assert!(!said.contains("largest level") && !said.contains("resuming"));
        let oware = FileBuild::plan(Rules::oware(4, 3), 8).unwrap();
        let said = build_announcement(Path::new("o.egdb"), &oware, Some(Path::new("p")));
        assert!(
            said.contains("MiB more while the largest level is built"),
            "{said}"
        );
        assert!(said.ends_with(", resuming from p"), "{said}");
        let done = build_summary(Path::new("k.egdb"), &kalah, 0, 2, 1.0);
        assert!(
            done.starts_with("wrote k.egdb: 4 houses, up to 8 seeds, "),
            "{done}"
        );
        assert!(
            done.ends_with("(0.0 M positions/s, 2 levels resumed)"),
            "{done}"
        );
    }

    #[test]
    fn a_build_stopped_before_its_first_level_keeps_none() {
        let said = build_kept(Path::new("/no/such/dir/k.egdb"), 9);
        assert!(said.contains(" keeps no finished seed level; run the same command again"));
    }
}
