//! The General, Egyptian and Nigerian families through every command of the binary:
//! each names its family, agrees with the library (perft, solve), replays its principal
//! variations, and refuses what the family does not have.

use crate::support::cli;

use cli::{json, kalah, kalah_ok};

use kalah_core::{notation, perft, Game, Position, Preset, Rules};
use serde_json::Value;

/// The presets of *Este tablero* on a board, with the arguments that name them.
fn presets(houses: u8, seeds: u8) -> Vec<(Rules, &'static str)> {
    [Preset::General, Preset::Egyptian, Preset::Nigerian]
        .into_iter()
        .map(|p| (p.rules(houses, seeds), p.name()))
        .collect()
}

/// Plays a principal variation of `kalah solve --json` from `pos` and returns the final
/// score from South: the value printed must be it.
fn replay(game: &Game, pos: &Position, pv: &Value) -> i32 {
    let text: Vec<&str> = pv
        .as_array()
        .expect("pv is a list")
        .iter()
        .map(|t| t.as_str().expect("a turn"))
        .collect();
    let (end, _) = notation::play_moves(game, *pos, &text.join(" ")).expect("the pv plays");
    assert!(end.is_over(), "the pv reaches the end of the game");
    end.score()
}

#[test]
fn every_family_solves_and_replays_and_is_named() {
    for (houses, seeds) in [(3u8, 3u8), (4, 3), (5, 2)] {
        let (h, s) = (houses.to_string(), seeds.to_string());
        for (rules, preset) in presets(houses, seeds) {
            let game = Game::new(rules).unwrap();
            let args = [
                "solve", "--rules", preset, "--houses", &h, "--seeds", &s, "--json", "--quiet",
            ];
            let v = json(&args);
            assert_eq!(v["rules"], rules.to_string(), "{args:?}");
            let value = v["value"].as_i64().unwrap() as i32;
            assert_eq!(replay(&game, &game.start(), &v["pv"]), value, "{args:?}");
            // The openings agree with the solve, and each replays.
            let o = json(&[
                "openings", "--rules", preset, "--houses", &h, "--seeds", &s, "--json", "--quiet",
            ]);
            let turns = o["turns"].as_array().expect("turns");
            assert_eq!(
                turns[0]["value"].as_i64().unwrap() as i32,
                value,
                "{preset}"
            );
            for t in turns {
                assert_eq!(
                    replay(&game, &game.start(), &t["pv"]),
                    t["value"].as_i64().unwrap() as i32,
                    "{preset} {t}"
                );
            }
        }
    }
}

#[test]
fn perft_of_every_family_matches_the_core() {
    for (rules, preset) in presets(6, 4) {
        let game = Game::new(rules).unwrap();
        let v = json(&["perft", "--rules", preset, "--depth", "5", "--json"]);
        let want: Vec<u64> = (1..=5).map(|d| perft(&game, &game.start(), d)).collect();
        let counts: Vec<u64> = serde_json::from_value(v["counts"].clone()).unwrap();
        assert_eq!(counts, want, "{preset}");
        assert_eq!(v["rules"], rules.to_string());
    }
    // The published tables in data/perft (the reference's counts).
    let v = json(&["perft", "--rules", "nigerian", "--depth", "4", "--json"]);
    assert_eq!(v["counts"], serde_json::json!([6, 30, 154, 756]));
    let v = json(&["perft", "--rules", "general", "--depth", "4", "--json"]);
    assert_eq!(v["counts"], serde_json::json!([6, 36, 186, 973]));
}

#[test]
fn show_names_the_family_and_a_nigerian_turn_is_one_sowing() {
    let v = json(&["show", "--rules", "nigerian", "--moves", "1", "--json"]);
    assert_eq!(
        v["rules"],
        "Nigerian(6,4) capture=fours end=mover-stuck leftovers=discard"
    );
    // Bin 1 relays twice, through both stores (docs/rules.md §5.4).
    assert_eq!(v["position"], "1,5,5,5,0,5,1,5,5,0,5,5,5,1:N");
    let v = json(&["show", "--rules", "general", "--moves", "3", "--json"]);
    assert_eq!(v["side"], "North", "no extra turn in General");
}

#[test]
fn families_without_the_capture_option_refuse_it() {
    for preset in ["general", "nigerian"] {
        let out = kalah(&["solve", "--rules", preset, "--capture", "empty"]);
        assert_eq!(out.status.code(), Some(2), "{preset}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("no capture option"), "{preset}: {err}");
    }
    // A turn with extra sowings where the family has none.
    let out = kalah(&["show", "--rules", "nigerian", "--moves", "3-6"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn pie_batch_and_export_work_under_a_family() {
    let dir = tempfile::tempdir().unwrap();
    let game = Game::new(Rules::nigerian(4, 3)).unwrap();
    let board = ["--rules", "nigerian", "--houses", "4", "--seeds", "3"];
    let mut args = vec!["pie", "--json", "--quiet"];
    args.extend_from_slice(&board);
    let pie = json(&args);
    assert_eq!(pie["rules"], game.rules().to_string());
    // batch: the start by moves, and the same by its board.
    let input = dir.path().join("in.txt");
    std::fs::write(&input, "2\n0,0,4,4,1,4,3,3,3,0:N\n").unwrap();
    let mut args = vec!["batch", input.to_str().unwrap(), "--quiet"];
    args.extend_from_slice(&board);
    let out = kalah_ok(&args);
    let lines: Vec<Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    for l in &lines {
        assert_eq!(l["rules"], game.rules().to_string(), "{l}");
        let pos: Position = l["position"].as_str().unwrap().parse().unwrap();
        let pos = game.settle(pos).unwrap();
        assert_eq!(
            replay(&game, &pos, &l["pv"]),
            l["value"].as_i64().unwrap() as i32
        );
    }
    // export: the table's header names the family.
    let book = dir.path().join("book.json");
    let mut args = vec![
        "export",
        "--depth",
        "1",
        "-o",
        book.to_str().unwrap(),
        "--quiet",
    ];
    args.extend_from_slice(&board);
    kalah_ok(&args);
    let table: Value = serde_json::from_str(&std::fs::read_to_string(&book).unwrap()).unwrap();
    assert_eq!(table["family"], "nigerian");
    assert_eq!(table["capture"], "fours");
}

#[test]
fn egdb_files_of_a_family_name_it_and_serve_only_it() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("g4.egdb");
    let path = file.to_str().unwrap();
    kalah_ok(&[
        "egdb",
        "build",
        "--rules",
        "general",
        "--houses",
        "4",
        "--max-seeds",
        "8",
        "--out",
        path,
        "--quiet",
    ]);
    let info = json(&["egdb", "info", path, "--json"]);
    assert_eq!(info["rules"]["family"], "general");
    assert_eq!(info["rules"]["capture"], "none");
    // It serves General Kalah ...
    let v = json(&[
        "solve", "--rules", "general", "--houses", "4", "--seeds", "2", "--egdb", path, "--json",
        "--quiet",
    ]);
    assert!(v["egdb_hits"].as_u64().unwrap() > 0, "{v}");
    // ... and is refused for Kalah of the same options.
    let out = kalah(&[
        "solve",
        "--houses",
        "4",
        "--seeds",
        "2",
        "--leftovers",
        "discard",
        "--egdb",
        path,
    ]);
    assert_eq!(out.status.code(), Some(2));
}

/// The committed values of data/families (docs/families.md): every principal variation
/// replays from the start to the value written beside it, North swaps exactly after the
/// turns worth more than 0 to South, and the values with the pie rule follow from them.
#[test]
fn committed_family_values_replay() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data/families");
    let mut files = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_stem().unwrap().to_string_lossy().to_string();
        let parts: Vec<&str> = name.split('-').collect();
        let preset: Preset = parts[0].parse().unwrap();
        let (houses, seeds): (u8, u8) = (parts[1].parse().unwrap(), parts[2].parse().unwrap());
        let game = Game::new(preset.rules(houses, seeds)).unwrap();
        let v: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        assert_eq!(v["rules"], game.rules().to_string(), "{name}");
        let start = game.start();
        if parts[3] == "solve" {
            assert_eq!(
                replay(&game, &start, &v["pv"]),
                v["value"].as_i64().unwrap() as i32
            );
        } else {
            let turns = v["turns"].as_array().unwrap();
            let mut outcomes = Vec::new();
            for t in turns {
                let value = t["value"].as_i64().unwrap() as i32;
                assert_eq!(replay(&game, &start, &t["pv"]), value, "{name} {t}");
                assert_eq!(t["swap"].as_bool().unwrap(), value > 0, "{name} {t}");
                assert_eq!(t["first_player"].as_i64().unwrap() as i32, -value.abs());
                outcomes.push(-value.abs());
            }
            assert_eq!(
                v["value"].as_i64().unwrap() as i32,
                *outcomes.iter().max().unwrap()
            );
        }
        files += 1;
    }
    assert!(files >= 7, "only {files} files in data/families");
}
