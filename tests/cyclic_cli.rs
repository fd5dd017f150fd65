//! Ethiopian Kalah and Oware through every command of the binary: each names its family,
//! agrees with the library (perft, solve), prints principal variations that replay under
//! the cycle rule (to the end of the game, or back to a position of the line with the
//! store margin standing), takes the notation `3<`, and refuses what the family lacks.

use crate::support::cli;

use cli::{json, kalah, kalah_ok};

use std::collections::HashSet;

use kalah_core::{notation, perft, Game, Position, Rules};
use serde_json::Value;

/// Plays the turns of `pv` (notation) from `pos` and returns the final score from South:
/// the game must end, or the last turn must reach a position of the line again (every
/// position after each sowing counts), where the store margin stands.
fn replay(game: &Game, pos: &Position, pv: &Value) -> i32 {
    let mut p = *pos;
    let mut seen = HashSet::from([p]);
    let turns = pv.as_array().expect("pv is a list");
    for (t, turn) in turns.iter().enumerate() {
        for (k, sowing) in turn.as_str().unwrap().split('-').enumerate() {
            let (next, _) = notation::play_moves(game, p, sowing).expect("the pv plays");
            p = next;
            let again = !seen.insert(p);
            let last = t + 1 == turns.len() && k + 1 == turn.as_str().unwrap().split('-').count();
            assert!(!again || last, "the line goes on after a repetition");
            if again {
                return p.score();
            }
        }
    }
    assert!(p.is_over(), "the pv ends the game or repeats a position");
    p.score()
}

#[test]
fn both_families_solve_replay_and_are_named() {
    for (preset, title, h, s) in [
        ("oware", "Oware", 3, 2),
        ("oware", "Oware", 4, 2),
        ("ethiopian", "Ethiopian", 3, 2),
        ("ethiopian", "Ethiopian", 4, 2),
    ] {
        let (hs, ss) = (h.to_string(), s.to_string());
        let v = json(&[
            "solve", "--rules", preset, "--houses", &hs, "--seeds", &ss, "--json", "-q",
        ]);
        assert!(v["rules"]
            .as_str()
            .unwrap()
            .starts_with(&format!("{title}({h},{s})")));
        let rules = match preset {
            "oware" => Rules::oware(h, s),
            _ => Rules::ethiopian(h, s),
        };
        let game = Game::new(rules).unwrap();
        let value = v["value"].as_i64().unwrap() as i32;
        assert_eq!(
            replay(&game, &game.start(), &v["pv"]),
            value,
            "{preset} {h} {s}"
        );
        // The value is the best of the first turns that `openings` lists.
        let o = json(&[
            "openings", "--rules", preset, "--houses", &hs, "--seeds", &ss, "--json", "-q",
        ]);
        let best = o["turns"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["value"].as_i64().unwrap() as i32)
            .max()
            .unwrap();
        assert_eq!(best, value, "{preset} {h} {s}: {o}");
    }
}

#[test]
fn perft_and_show_follow_the_library() {
    for (preset, rules) in [
        ("oware", Rules::oware(6, 4)),
        ("ethiopian", Rules::ethiopian(6, 4)),
    ] {
        let game = Game::new(rules).unwrap();
        let v = json(&["perft", "--rules", preset, "--depth", "4", "--json"]);
        let counts: Vec<u64> = (1..=4).map(|d| perft(&game, &game.start(), d)).collect();
        assert_eq!(v["counts"], serde_json::json!(counts));
    }
    let show = kalah_ok(&[
        "show",
        "--rules",
        "ethiopian",
        "--houses",
        "3",
        "--seeds",
        "2",
    ]);
    let text = String::from_utf8_lossy(&show.stdout);
    assert!(text.contains("moves:    1 2 3 1< 2< 3<"), "{text}");
    let divide = json(&[
        "perft",
        "--rules",
        "ethiopian",
        "--houses",
        "3",
        "--seeds",
        "2",
        "--depth",
        "2",
        "--divide",
        "--json",
    ]);
    let clockwise = divide["divide"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["clockwise"] == true)
        .count();
    assert_eq!(clockwise, 3);
}

#[test]
fn clockwise_moves_play_and_the_wrong_ones_are_refused() {
    // Bin 1 clockwise on Ethiopian(3,2): South's house 1 has two seeds, sown into North's
    // last two houses.
    let v = json(&[
        "show",
        "--rules",
        "ethiopian",
        "--houses",
        "3",
        "--seeds",
        "2",
        "--moves",
        "1<",
        "--json",
    ]);
    assert_eq!(v["position"], "0,2,2,0,2,3,3,0:N");
    let bad = kalah(&[
        "show", "--rules", "oware", "--houses", "3", "--seeds", "2", "--moves", "1<",
    ]);
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("counter-clockwise only"));
    let single = kalah(&[
        "show",
        "--rules",
        "ethiopian",
        "--position",
        "1,2,2,0,2,2,2,0:S",
        "--moves",
        "1",
    ]);
    assert!(String::from_utf8_lossy(&single.stderr).contains("single seed"));
    let feed = kalah(&[
        "show",
        "--rules",
        "oware",
        "--position",
        "1,3,0,0,0,0,0,4:S",
        "--moves",
        "1",
    ]);
    assert!(
        String::from_utf8_lossy(&feed.stderr).contains("must feed"),
        "{}",
        String::from_utf8_lossy(&feed.stderr)
    );
}

#[test]
fn options_the_families_lack_are_refused_with_a_reason() {
    for (args, says) in [
        (
            vec!["--rules", "oware", "--end", "row-empty"],
            "own end of game",
        ),
        (
            vec!["--rules", "ethiopian", "--leftovers", "owner"],
            "own end of game",
        ),
        (
            vec!["--rules", "oware", "--capture", "empty"],
            "no capture option",
        ),
        (
            vec!["--rules", "kalah", "--grand-slam", "capture-all"],
            "grand slam",
        ),
    ] {
        let mut a = vec!["show"];
        a.extend(args.iter().copied());
        let out = kalah(&a);
        assert!(!out.status.success(), "{a:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(says), "{a:?}: {err}");
    }
    // Ethiopian Kalah keeps database files (built by the cycle rule): its probe names the
    // clockwise sowings, and `solve --egdb` answers from the file what the graph solve does.
    let dir = std::env::temp_dir().join(format!("kalah-cyclic-eth-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("e3-12.egdb");
    let f = file.to_str().unwrap();
    let rules = ["--rules", "ethiopian", "--houses", "3"];
    kalah_ok(
        &[
            &["egdb", "build", "--max-seeds", "12", "--out", f, "-q"][..],
            &rules,
        ]
        .concat(),
    );
    let probe = json(&[
        "egdb",
        "probe",
        f,
        "--position",
        "2,2,2,0,2,2,2,0:S",
        "--json",
    ]);
    let names: Vec<&str> = probe["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["sowing"].as_str().unwrap())
        .collect();
    assert!(names.contains(&"1") && names.contains(&"1<"), "{names:?}");
    let start = ["solve", "--seeds", "2", "--json"];
    let solved = json(&[&start[..], &rules].concat());
    let from_file = json(&[&start[..], &rules, &["--egdb", f]].concat());
    assert_eq!(solved["value"], from_file["value"]);
    assert_eq!(from_file["egdb_hits"], 1);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn grand_slam_option_changes_the_rules_and_is_named() {
    let v = json(&[
        "show",
        "--rules",
        "oware",
        "--grand-slam",
        "capture-all",
        "--json",
    ]);
    assert!(v["rules"]
        .as_str()
        .unwrap()
        .contains("grand-slam=capture-all"));
}

#[test]
fn batch_export_and_pie_give_replayed_values() {
    let dir = std::env::temp_dir().join(format!("kalah-cyclic-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let input = dir.join("in.txt");
    std::fs::write(&input, "2,2,2,0,2,2,2,0:S\n1<\n").unwrap();
    let out = kalah_ok(&[
        "batch",
        "--rules",
        "ethiopian",
        "--houses",
        "3",
        "--seeds",
        "2",
        input.to_str().unwrap(),
    ]);
    let game = Game::new(Rules::ethiopian(3, 2)).unwrap();
    let solved = json(&[
        "solve",
        "--rules",
        "ethiopian",
        "--houses",
        "3",
        "--seeds",
        "2",
        "--json",
        "-q",
    ]);
    let lines: Vec<Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["value"], solved["value"]);
    for l in &lines {
        let pos: Position = l["position"].as_str().unwrap().parse().unwrap();
        assert_eq!(
            replay(&game, &pos, &l["pv"]),
            l["value"].as_i64().unwrap() as i32
        );
    }
    // Export: every listed move's value is that of the position it leads to.
    let table = dir.join("t.json");
    kalah_ok(&[
        "export",
        "--rules",
        "ethiopian",
        "--houses",
        "3",
        "--seeds",
        "2",
        "--depth",
        "1",
        "-o",
        table.to_str().unwrap(),
        "-q",
    ]);
    let t: Value = serde_json::from_str(&std::fs::read_to_string(&table).unwrap()).unwrap();
    let first = &t["positions"][0];
    assert_eq!(first["value"], solved["value"]);
    let best = first["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["value"].as_i64().unwrap())
        .max()
        .unwrap();
    assert_eq!(Some(best), solved["value"].as_i64());
    assert!(first["moves"]
        .as_array()
        .unwrap()
        .iter()
        .any(|m| m["clockwise"] == true));
    // Pie: North swaps exactly when the first turn leaves South ahead.
    let p = json(&[
        "pie", "--rules", "oware", "--houses", "3", "--seeds", "2", "--json", "-q",
    ]);
    assert!(p.to_string().contains("swap"), "{p}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn committed_values_replay() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data/cyclic");
    let mut checked = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "json") {
            continue;
        }
        let v: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let name = v["rules"].as_str().unwrap().to_string();
        // `Oware(6,2) capture=...`: the family and the board.
        let (family, rest) = name.split_once('(').unwrap();
        let (h, s) = rest.split_once(')').unwrap().0.split_once(',').unwrap();
        let (h, s): (u8, u8) = (h.parse().unwrap(), s.parse().unwrap());
        let rules = match family {
            "Oware" => Rules::oware(h, s),
            _ => Rules::ethiopian(h, s),
        };
        assert_eq!(rules.to_string(), name, "{}", path.display());
        let game = Game::new(rules).unwrap();
        let mut best = i32::MIN;
        for t in v["turns"].as_array().unwrap() {
            let value = t["value"].as_i64().unwrap() as i32;
            assert_eq!(
                replay(&game, &game.start(), &t["pv"]),
                value,
                "{}: {}",
                path.display(),
                t["turn"]
            );
            best = best.max(value);
            checked += 1;
        }
        assert_eq!(best, v["value_without_pie"].as_i64().unwrap() as i32);
    }
    assert!(checked >= 20, "{checked} first turns replayed");
}
