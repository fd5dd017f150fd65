//! The blunder suite (`data/blunders.txt`): positions where the analysis at a small budget
//! picks a turn that a much deeper look shows to lose seeds, each with the turns that look
//! finds best; and how an analysis scores on it.
//!
//! `cargo run --release -p kalah-solver --features examples --example blunders -- make PRESET HOUSES SEEDS
//! GAMES SEED FAST DEEP EXACT_MAX` plays GAMES games of the analysis at FAST (a node budget
//! such as `200k`, one thread, a fresh solver a move: reproducible) against itself, each
//! from two random turns (generator seeded by SEED), and judges every pick that had a
//! choice:
//!
//! - with at most EXACT_MAX seeds in the houses, exactly: the position is solved, and
//!   where the pick's value falls short of it, every turn is judged by a null-window solve
//!   and the best turns are kept (judge `exact`);
//! - with more, by an analysis of every root turn at DEEP nodes (two threads): where the
//!   pick's evaluation is at least [`MARGIN`] seeds below the best turn's at the same depth,
//!   the turns within one seed of the best are kept (judge `depth=D`, heuristic); where
//!   that analysis has closed the best turn's and the pick's intervals, the values are
//!   exact, and the turns whose interval reaches the best value are kept (judge `exact`).
//!
//! It prints one line a blunder, `PRESET HOUSES SEEDS POSITION GOOD_TURNS JUDGE LOSS`
//! (good turns comma-separated, the loss in seeds for the mover by the judge), after a
//! header that says how it was made.
//!
//! `... -- games PRESET HOUSES SEEDS FILE PLAYER DEEP EXACT_MAX` judges the same way every
//! pick of player PLAYER (1 or 2) in the games of a `kalah match --games FILE` that it did
//! not win (lost or drawn), from the position after the opening: the positions where a
//! match was lost.
//!
//! `... -- score LIMIT [THREADS [FILE]]` (defaults: 2 threads, `data/blunders.txt`) runs
//! the analysis as `kalah analyse --time` does (one line, the default evaluation, a table
//! of 16 MiB a second, a database file only where one is already there, set up before the
//! clock) on every position of the suite, and prints how many picks are good turns, for
//! each judge. LIMIT: seconds, or a node budget (`500k`, `4M`) that does not depend on the
//! machine's load.
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use kalah_core::notation::play_moves;
use kalah_core::{mix, Game, Position, Side};
use kalah_solver::bench;
use kalah_solver::{Analysis, Limits, Overrides, Solver, Turn};

mod judge;
use judge::{after, at_least, parse_limit, value_for};

/// The evaluation gap, in seeds at the same depth, that a deep analysis must show between
/// the best turn and the pick before the pick counts as a blunder.
const MARGIN: i32 = 3;

fn main() {
    let a: Vec<String> = std::env::args().skip(1).collect();
    let run = match a.first().map(String::as_str) {
        Some("make") if a.len() == 9 => make(&a[1..]),
        Some("score") if (2..=4).contains(&a.len()) => score(&a[1..]),
        Some("games") if a.len() == 8 => games(&a[1..]),
        _ => Err(
            "usage: blunders make PRESET HOUSES SEEDS GAMES SEED FAST DEEP EXACT_MAX\n       \
                  blunders games PRESET HOUSES SEEDS FILE PLAYER DEEP EXACT_MAX\n       \
                  blunders score LIMIT [THREADS [FILE]]"
                .to_string(),
        ),
    };
    if let Err(e) = run {
        eprintln!("blunders: {e}");
        std::process::exit(2);
    }
}

/// A number from the command line, or what is wrong with it.
fn number<T: std::str::FromStr>(s: &str, what: &str) -> Result<T, String> {
    s.parse()
        .map_err(|_| format!("{what}: `{s}` is not a number"))
}

/// A solver for analyses within `limits` on `threads` threads: `kalah analyse`'s settings.
fn analyser(game: &Game, limits: &Limits, threads: usize) -> Solver {
    let overrides = Overrides {
        threads: Some(threads),
        existing_only: Some(Limits::file_bytes_cap(limits.time)),
        ..Overrides::default()
    };
    let mut config = overrides
        .config(game, game.capacity(), 1)
        .expect("a configuration for these rules");
    // A node budget gets the table of a one-second analysis.
    let table = limits
        .time
        .map_or(Limits::time(Duration::from_secs(1)), |_| *limits);
    config.hash_mb = config
        .hash_mb
        .min(table.table_mb_cap().expect("a time limit"));
    let solver = Solver::new(game.clone(), config).expect("a solver");
    solver.warm_up();
    solver
}

/// The analysis of `pos` within `limits` with `lines` full lines.
fn analyse(solver: &Solver, pos: &Position, limits: &Limits, lines: usize) -> Analysis {
    solver
        .analyse_lines(pos, limits, lines, &AtomicBool::new(false), &mut |_| {})
        .expect("an analysis")
}

fn make(a: &[String]) -> Result<(), String> {
    let preset = &a[0];
    let houses: u8 = number(&a[1], "HOUSES")?;
    let seeds: u8 = number(&a[2], "SEEDS")?;
    let games: u32 = number(&a[3], "GAMES")?;
    let mut rng: u64 = number(&a[4], "SEED")?;
    let (fast, fast_label) = parse_limit(&a[5])?;
    let (deep, deep_label) = parse_limit(&a[6])?;
    let exact_max: u32 = number(&a[7], "EXACT_MAX")?;
    let p: kalah_core::Preset = preset.parse().map_err(|e| format!("PRESET: {e}"))?;
    let game = Game::new(p.rules(houses, seeds)).map_err(|e| format!("{e}"))?;
    let mut next = move || {
        rng = mix(rng.wrapping_add(0x9e37_79b9_7f4a_7c15));
        rng
    };
    println!(
        "# Blunders of the analysis at {fast_label} (one thread) in {games} games against \
         itself from two random turns, judged exactly up to {exact_max} seeds in the houses, \
         else by every root turn at {deep_label} (two threads; at least {MARGIN} seeds worse)."
    );
    println!("# Made by: blunders make {}", a.join(" "));
    println!("# PRESET HOUSES SEEDS POSITION GOOD_TURNS JUDGE LOSS");
    let judges = Judges::new(&game, deep, exact_max);
    for g in 0..games {
        let mut pos = game.start();
        for _ in 0..2 {
            let turns = analyse(&analyser(&game, &fast, 1), &pos, &Limits::depth(1), 1).turns;
            pos = after(
                &game,
                &pos,
                &turns[(next() % turns.len() as u64) as usize].turn,
            );
        }
        let mut found = 0;
        while !pos.is_over() {
            let a = analyse(&analyser(&game, &fast, 1), &pos, &fast, 1);
            let pick = a.best_turn().expect("a game not over has a turn").clone();
            if a.turns.len() > 1 {
                let turns: Vec<Turn> = a.turns.iter().map(|t| t.turn.clone()).collect();
                let verdict = judges.verdict(&pos, &pick, &turns);
                if let Some((good, judge, loss)) = verdict {
                    println!(
                        "{preset} {houses} {seeds} {pos} {} {judge} {loss}",
                        good.join(",")
                    );
                    found += 1;
                }
            }
            pos = after(&game, &pos, &pick);
        }
        eprintln!("game {} of {games}: {found} blunders", g + 1);
    }
    Ok(())
}

/// `games`: every pick of player PLAYER (1 or 2) in the games of a `kalah match --games`
/// FILE that it did not win, from the first position after the opening, judged as `make`
/// judges its own picks.
fn games(a: &[String]) -> Result<(), String> {
    let preset = &a[0];
    let houses: u8 = number(&a[1], "HOUSES")?;
    let seeds: u8 = number(&a[2], "SEEDS")?;
    let path = &a[3];
    let player: u8 = number(&a[4], "PLAYER")?;
    if !(1..=2).contains(&player) {
        return Err(format!("PLAYER: `{player}` is 1 or 2"));
    }
    let (deep, deep_label) = parse_limit(&a[5])?;
    let exact_max: u32 = number(&a[6], "EXACT_MAX")?;
    let p: kalah_core::Preset = preset.parse().map_err(|e| format!("PRESET: {e}"))?;
    let game = Game::new(p.rules(houses, seeds)).map_err(|e| format!("{e}"))?;
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    println!(
        "# Blunders of player {player} in the games of {path} it did not win, judged exactly \
         up to {exact_max} seeds in the houses, else by every root turn at {deep_label} (two \
         threads; at least {MARGIN} seeds worse)."
    );
    println!("# Made by: blunders games {}", a.join(" "));
    println!("# PRESET HOUSES SEEDS POSITION GOOD_TURNS JUDGE LOSS");
    let judges = Judges::new(&game, deep, exact_max);
    let h = game.houses();
    for (n, line) in text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
    {
        let bad = |what: &str| format!("{path}:{}: {what}", n + 1);
        let v: serde_json::Value = serde_json::from_str(line).map_err(|e| bad(&e.to_string()))?;
        let strings = |key: &str| -> Result<Vec<String>, String> {
            v[key]
                .as_array()
                .ok_or_else(|| bad(&format!("no \"{key}\"")))?
                .iter()
                .map(|m| m.as_str().map(str::to_string).ok_or_else(|| bad(key)))
                .collect()
        };
        let points = v["player1_points"]
            .as_f64()
            .ok_or_else(|| bad("no points"))?;
        let points = if player == 1 { points } else { 1.0 - points };
        if points >= 1.0 {
            continue;
        }
        let mut pos = match v["opening_position"].as_str() {
            Some(board) => {
                let p: Position = board.parse().map_err(|e| bad(&format!("{e}")))?;
                game.settle(p).map_err(|e| bad(&format!("{e}")))?
            }
            None => game.start(),
        };
        let opening = strings("opening_moves")?.join(",");
        if !opening.is_empty() {
            pos = play_moves(&game, pos, &opening)
                .map_err(|e| bad(&format!("{e}")))?
                .0;
        }
        let player1_south = v["player1_is"] == "south";
        let side = if player1_south == (player == 1) {
            Side::South
        } else {
            Side::North
        };
        let mut found = 0;
        for played in strings("moves")? {
            if pos.is_over() {
                return Err(bad("a move after the end of the game"));
            }
            if pos.side_to_move() == side {
                let turns = analyse(
                    &analyser(&game, &Limits::depth(1), 1),
                    &pos,
                    &Limits::depth(1),
                    1,
                )
                .turns;
                let turns: Vec<Turn> = turns.into_iter().map(|t| t.turn).collect();
                let pick = turns
                    .iter()
                    .find(|t| t.notation(h) == played)
                    .ok_or_else(|| bad(&format!("`{played}` is not a turn of {pos}")))?;
                if turns.len() > 1 {
                    if let Some((good, judge, loss)) = judges.verdict(&pos, pick, &turns) {
                        println!(
                            "{preset} {houses} {seeds} {pos} {} {judge} {loss}",
                            good.join(",")
                        );
                        found += 1;
                    }
                }
            }
            pos = play_moves(&game, pos, &played)
                .map_err(|e| bad(&format!("{e}")))?
                .0;
        }
        eprintln!("game {}: {found} blunders", v["game"]);
    }
    Ok(())
}

/// The judges of a pick: an exact solver up to `exact_max` seeds in the houses, else an
/// analysis of every root turn at `deep` on two threads (see the module's notes).
struct Judges {
    game: Game,
    exact: Solver,
    exact_max: u32,
    deep_solver: Solver,
    deep: Limits,
}

impl Judges {
    fn new(game: &Game, deep: Limits, exact_max: u32) -> Judges {
        let config = Overrides {
            threads: Some(2),
            ..Overrides::default()
        }
        .config(game, exact_max as usize, 1)
        .expect("a configuration for these rules");
        Judges {
            game: game.clone(),
            exact: Solver::new(game.clone(), config).expect("a solver"),
            exact_max,
            deep_solver: analyser(game, &Limits::time(Duration::from_secs(4)), 2),
            deep,
        }
    }

    /// Where `pick` (one of `turns`, the legal turns of `pos`) is a blunder: the good
    /// turns, the judge (`exact` or `depth=D`) and the loss in seeds for the mover.
    fn verdict(
        &self,
        pos: &Position,
        pick: &Turn,
        turns: &[Turn],
    ) -> Option<(Vec<String>, String, i32)> {
        let (game, exact, cancel) = (&self.game, &self.exact, &AtomicBool::new(false));
        let h = game.houses();
        let side = pos.side_to_move();
        if pos.seeds_in_houses() <= self.exact_max {
            let v = exact.value(pos, cancel).expect("solve");
            let child = after(game, pos, pick);
            return (!at_least(exact, &child, side, v, cancel)).then(|| {
                let good = turns
                    .iter()
                    .filter(|t| at_least(exact, &after(game, pos, t), side, v, cancel));
                let loss = v - value_for(exact, &child, side, cancel);
                (
                    good.map(|t| t.notation(h)).collect(),
                    "exact".to_string(),
                    loss,
                )
            });
        }
        let d = analyse(&self.deep_solver, pos, &self.deep, usize::MAX);
        let best = &d.turns[0];
        let mine = d.turns.iter().find(|t| t.turn == *pick);
        mine.filter(|m| {
            let closed = best.is_exact() && m.is_exact();
            (closed || m.depth == best.depth) && best.eval - m.eval >= MARGIN
        })
        .map(|m| {
            // Both intervals closed: the values are exact, and a best turn is one whose
            // interval holds the best value.
            if best.is_exact() && m.is_exact() {
                let good = d.turns.iter().filter(|t| t.proven.upper >= best.eval);
                let good = good.map(|t| t.turn.notation(h)).collect();
                return (good, "exact".to_string(), best.eval - m.eval);
            }
            let good = d
                .turns
                .iter()
                .filter(|t| t.depth == best.depth && t.eval >= best.eval - 1);
            (
                good.map(|t| t.turn.notation(h)).collect(),
                format!("depth={}", best.depth),
                best.eval - m.eval,
            )
        })
    }
}

/// One position of the suite.
struct Entry {
    game: Game,
    pos: Position,
    good: Vec<String>,
    exact: bool,
}

fn read(text: &str) -> Result<Vec<Entry>, String> {
    let mut entries = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let f: Vec<&str> = line.split_whitespace().collect();
        if f.len() != 7 {
            return Err(format!(
                "line {}: expected 7 fields, found {}",
                n + 1,
                f.len()
            ));
        }
        let case = bench::read(&f[..4].join(" "))
            .map_err(|e| format!("line {}: {e}", n + 1))?
            .pop()
            .ok_or(format!("line {}: no position", n + 1))?;
        entries.push(Entry {
            game: case.game,
            pos: case.pos,
            good: f[4].split(',').map(str::to_string).collect(),
            exact: f[5] == "exact",
        });
    }
    Ok(entries)
}

fn score(a: &[String]) -> Result<(), String> {
    let (limits, label) = parse_limit(&a[0])?;
    let threads: usize = a.get(1).map_or(Ok(2), |s| number(s, "THREADS"))?;
    let path = a.get(2).cloned().unwrap_or_else(|| {
        concat!(env!("CARGO_MANIFEST_DIR"), "/../../data/blunders.txt").to_string()
    });
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{path}: {e}"))?;
    let entries = read(&text).map_err(|e| format!("{path}: {e}"))?;
    // [exact, deep] × [good picks, positions]
    let mut tally = [[0usize; 2]; 2];
    for e in &entries {
        let solver = analyser(&e.game, &limits, threads);
        let a = analyse(&solver, &e.pos, &limits, 1);
        let pick = a.best_turn().expect("a suite position is not over");
        let good = e.good.contains(&pick.notation(e.game.houses()));
        let row = &mut tally[usize::from(!e.exact)];
        row[0] += usize::from(good);
        row[1] += 1;
    }
    let share = |r: [usize; 2]| 100.0 * r[0] as f64 / r[1].max(1) as f64;
    let all = [tally[0][0] + tally[1][0], tally[0][1] + tally[1][1]];
    println!(
        "good turns at {label}, {threads} threads: {} of {} ({:.0}%); judged exactly {} of {} \
         ({:.0}%), by a deep analysis {} of {} ({:.0}%)",
        all[0],
        all[1],
        share(all),
        tally[0][0],
        tally[0][1],
        share(tally[0]),
        tally[1][0],
        tally[1][1],
        share(tally[1]),
    );
    Ok(())
}
