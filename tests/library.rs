//! The library and the command line solve the same way: `Config::for_seeds` with
//! `Database::from_env` (here `from_environment`, the same with the environment given as
//! values) gives the settings `kalah solve` uses, so on one thread both
//! search exactly the same tree, and the database one of them keeps in the cache serves
//! the other.

use std::path::Path;
use std::process::Command;
use std::sync::atomic::AtomicBool;

use kalah_core::notation::play_moves;
use kalah_core::{Game, Preset};
use kalah_solver::cache::CACHE_VAR;
use kalah_solver::{Config, Database, Environment, Solver};
use serde_json::Value;

/// `kalah solve --json` on one thread, with the environment of this test (so that both
/// sides see the same `KALAH_EGDB_PATH`, if any) and the cache `cache`.
fn cli_solve(preset: &str, houses: u8, seeds: u8, moves: &str, cache: &Path) -> Value {
    let (houses, seeds) = (houses.to_string(), seeds.to_string());
    let mut args = vec![
        "solve",
        "--rules",
        preset,
        "--houses",
        &houses,
        "--seeds",
        &seeds,
        "--threads",
        "1",
        "--json",
        "--quiet",
    ];
    if !moves.is_empty() {
        args.extend(["--moves", moves]);
    }
    let out = Command::new(env!("CARGO_BIN_EXE_kalah"))
        .args(&args)
        .env(CACHE_VAR, cache)
        .output()
        .expect("the kalah binary runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("one JSON object")
}

#[test]
fn library_solve_with_the_default_settings_searches_what_kalah_solve_searches() {
    // Boards large enough for a database, a deepening and a table of their own sizes;
    // a position after a few turns, whose settings follow its own seeds; the early stop.
    let cases = [
        ("kalah", 5, 4, ""),
        ("kalah-empty", 4, 6, ""),
        ("kalah", 6, 3, "4-1,8"),
        ("online", 5, 3, ""),
    ];
    // A cache of this test's own, for both sides: the library builds each database and
    // keeps it there, the command line loads it. The library is given it as a value; the
    // process environment is left as it is.
    let cache = std::env::temp_dir().join(format!("kalah-library-test-{}", std::process::id()));
    let env = Environment {
        cache: Some(cache.clone().into()),
        ..Environment::read()
    };
    for (preset, houses, seeds, moves) in cases {
        let preset_value: Preset = preset.parse().unwrap();
        let game = Game::new(preset_value.rules(houses, seeds)).unwrap();
        let pos = if moves.is_empty() {
            game.start()
        } else {
            play_moves(&game, game.start(), moves).unwrap().0
        };

        let in_houses = pos.seeds_in_houses() as usize;
        let config = Config {
            threads: 1,
            ..Config::for_seeds(
                &game,
                in_houses,
                1,
                &Database::from_environment(&env).unwrap(),
            )
            .unwrap()
        };
        let solver = Solver::new(game.clone(), config).unwrap();
        let solution = solver
            .solve(&pos, &AtomicBool::new(false), &mut |_| {})
            .unwrap();
        solution.verify(&game, &pos).unwrap();

        let cli = cli_solve(preset, houses, seeds, moves, &cache);
        let case = format!("{preset} {houses} {seeds} {moves}");
        assert_eq!(cli["value"], solution.value_from_south(), "{case}");
        assert_eq!(cli["nodes"], solution.nodes, "{case}");
        assert_eq!(cli["hash_mb"], solver.config().hash_mb, "{case}");
        assert_eq!(
            cli["egdb_seeds"].as_u64().map(|k| k as usize),
            solver.database_seeds_for(&pos),
            "{case}"
        );
        if !game.rules().early_stop {
            assert!(
                cli["egdb_file"]
                    .as_str()
                    .is_some_and(|f| f.starts_with(cache.to_str().unwrap())),
                "{case}: {}",
                cli["egdb_file"]
            );
        }
    }
    let _ = std::fs::remove_dir_all(&cache);
}
