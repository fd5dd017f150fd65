//! The `kalah` binary seen from outside: exit statuses, error messages, JSON fields, perft
//! counts checked against `kalah_core`, and a piped game of `kalah play`.

use std::io::Write;
use std::process::{Command, Output, Stdio};

use kalah_core::{perft, Game, Preset, Rules};
use serde_json::Value;

/// Runs the binary with `args` and `stdin` as its input.
fn kalah_with_input(args: &[&str], stdin: impl AsRef<[u8]>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_kalah"))
        .env_remove("KALAH_EGDB_PATH")
        .env("KALAH_CACHE", "off")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the kalah binary starts");
    child
        .stdin
        .take()
        .expect("stdin is piped")
        .write_all(stdin.as_ref())
        .expect("stdin accepts the input");
    child.wait_with_output().expect("the kalah binary finishes")
}

fn kalah(args: &[&str]) -> Output {
    kalah_with_input(args, "")
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn json(args: &[&str]) -> Value {
    let out = kalah(args);
    assert!(out.status.success(), "{args:?}: {}", stderr(&out));
    serde_json::from_slice(&out.stdout).expect("the output is JSON")
}

/// Each bad input exits with status 2 and one `error: ...` message naming the problem.
#[test]
fn bad_input_exits_2_with_one_clear_message() {
    let start = "4,4,4,4,4,4,0,4,4,4,4,4,4,0";
    let cases: &[(&[&str], &str)] = &[
        (&["show", "--position", "4,4,4:S"], "has 3 counts"),
        (
            &["show", "--position", "4,4,4,4,x,4,0,4,4,4,4,4,4,0:S"],
            "count 5 of the position, 'x'",
        ),
        (
            &["show", "--position", &format!("{start}:X")],
            "'X' must be S",
        ),
        (&["show", "--position", start], "side to move after a colon"),
        (
            &["show", "--position", "300,4,4,4,4,4,0,4,4,4,4,4,4,0:S"],
            "'300', is not a number of seeds",
        ),
        (
            &["show", "--position", "200,200,4,4,4,4,0,4,4,4,4,4,4,0:S"],
            "holds 440 seeds, more than the 255",
        ),
        (
            &[
                "show",
                "--position",
                "240,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,1:S",
            ],
            "holds at most 240",
        ),
        (
            &["show", "--position", &format!("{start}:S"), "--houses", "4"],
            "--houses says 4",
        ),
        (
            &[
                "show",
                "--position",
                "10,4,4,4,4,4,0,4,4,4,4,4,4,0:S",
                "--seeds",
                "4",
            ],
            "raise --seeds to 5",
        ),
        (
            &["show", "--moves", "7"],
            "bin 7 is not one of South's houses",
        ),
        (&["show", "--moves", "3,x"], "'x' is not a move"),
        (
            &["show", "--moves", "99"],
            "bin 99 is not one of South's houses",
        ),
        (
            &["show", "--moves", "1,1"],
            "bin 1 is not one of North's houses",
        ),
        (
            &["show", "--moves", "1-2"],
            "does not end in the mover's store",
        ),
        (
            &["show", "--moves", "6,13,6"],
            "cannot sow bin 6: it holds no seeds",
        ),
        (
            &[
                "show",
                "--position",
                "0,0,0,0,0,0,24,1,0,0,0,0,0,23:N",
                "--moves",
                "8",
            ],
            "the game is over",
        ),
        (
            &["show", "--houses", "0"],
            "0 houses per side is not supported",
        ),
        (
            &["show", "--houses", "9"],
            "9 houses per side is not supported",
        ),
        (&["show", "--seeds", "0"], "at least 1"),
        (&["show", "--houses", "8", "--seeds", "16"], "256 seeds"),
        (&["show", "--houses", "abc"], "invalid value 'abc'"),
        (
            &["show", "--rules", "foo"],
            "invalid value 'foo' for '--rules",
        ),
        (
            &["show", "--capture", "foo"],
            "invalid value 'foo' for '--capture",
        ),
        (&["show", "--end", "foo"], "invalid value 'foo' for '--end"),
        (
            &["show", "--leftovers", "foo"],
            "invalid value 'foo' for '--leftovers",
        ),
        (&["perft"], "--depth"),
        (&["perft", "--depth", "0"], "invalid value '0'"),
        (&["play", "--as", "east"], "invalid value 'east'"),
        (&["bogus"], "unrecognized subcommand"),
    ];
    for (args, needle) in cases {
        let out = kalah(args);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.starts_with("error: "), "{args:?}: {err}");
        assert_eq!(err.matches("error:").count(), 1, "{args:?}: {err}");
        assert!(
            err.contains(needle),
            "{args:?}: expected '{needle}' in {err}"
        );
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert!(out.stdout.is_empty(), "{args:?}: {}", stdout(&out));
    }
}

#[test]
fn show_json_describes_the_start_position() {
    let v = json(&["show", "--json"]);
    assert_eq!(v["position"], "4,4,4,4,4,4,0,4,4,4,4,4,4,0:S");
    assert_eq!(v["side"], "South");
    assert_eq!(v["houses"], serde_json::json!(vec![4; 12]));
    assert_eq!(v["stores"], serde_json::json!([0, 0]));
    assert_eq!(v["moves"], serde_json::json!([1, 2, 3, 4, 5, 6]));
    assert_eq!(v["over"], false);
    assert_eq!(v["score"], 0);
}

#[test]
fn show_json_after_an_extra_turn_has_north_to_move() {
    let v = json(&["show", "--moves", "3-6", "--json"]);
    assert_eq!(v["position"], "4,4,0,5,5,0,2,5,5,5,5,4,4,0:N");
    assert_eq!(v["side"], "North");
    assert_eq!(
        v["houses"],
        serde_json::json!([4, 4, 0, 5, 5, 0, 5, 5, 5, 5, 4, 4])
    );
    assert_eq!(v["stores"], serde_json::json!([2, 0]));
    assert_eq!(v["moves"], serde_json::json!([8, 9, 10, 11, 12, 13]));
    assert_eq!(v["score"], 2);
}

#[test]
fn show_settles_a_position_whose_row_is_empty() {
    let v = json(&[
        "show",
        "--position",
        "0,0,0,0,0,0,24,1,0,0,0,0,0,23:N",
        "--json",
    ]);
    assert_eq!(v["over"], true);
    assert_eq!(v["stores"], serde_json::json!([24, 24]));
    assert_eq!(v["moves"], serde_json::json!([]));
    assert_eq!(v["score"], 0);
}

#[test]
fn show_infers_houses_and_seeds_from_the_position() {
    let v = json(&["show", "--position", "9,9,0,9,9,0:S", "--json"]);
    assert_eq!(v["houses"], serde_json::json!([9, 9, 9, 9]));
    assert!(v["rules"].as_str().unwrap_or("").starts_with("Kalah(2,9)"));
}

#[test]
fn show_draws_north_right_to_left_above_south() {
    let out = kalah(&["show", "--moves", "3"]);
    assert!(out.status.success());
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0]
        .trim_start()
        .starts_with("13   12   11   10    9    8"));
    assert!(lines[2].starts_with("14 [ 0]") && lines[2].ends_with("[ 1] 7"));
    assert!(lines[3].contains("[ 4] [ 4] [ 0] [ 5] [ 5] [ 5]"));
    assert!(text.contains("position: 4,4,0,5,5,5,1,4,4,4,4,4,4,0:S"));
}

/// perft through the binary agrees with `kalah_core::perft` at every depth.
fn assert_perft_matches_core(rules: Rules, extra: &[&str], depth: u32) {
    let game = Game::new(rules).expect("valid rules");
    let start = game.start();
    let want: Vec<u64> = (1..=depth).map(|d| perft(&game, &start, d)).collect();
    let depth_arg = depth.to_string();
    let mut args = vec!["perft", "--depth", &depth_arg, "--json", "--divide"];
    args.extend_from_slice(extra);
    let v = json(&args);
    let counts: Vec<u64> = serde_json::from_value(v["counts"].clone()).expect("counts");
    assert_eq!(counts, want, "{args:?}");
    let divided: u64 = v["divide"]
        .as_array()
        .expect("divide")
        .iter()
        .map(|e| e["count"].as_u64().unwrap_or(0))
        .sum();
    assert_eq!(divided, want[depth as usize - 1], "{args:?}");
}

#[test]
fn perft_json_counts_match_the_core() {
    let game = Game::new(Rules::kalah(6, 4)).expect("valid rules");
    assert_eq!(
        &[
            perft(&game, &game.start(), 1),
            perft(&game, &game.start(), 2)
        ],
        &[6, 35]
    );
    assert_perft_matches_core(Rules::kalah(6, 4), &[], 3);
    assert_perft_matches_core(Rules::kalah(6, 4), &[], 6);
}

#[test]
fn perft_json_counts_match_the_core_under_options() {
    assert_perft_matches_core(
        Preset::OnlineEmpty.rules(4, 3),
        &["--houses", "4", "--seeds", "3", "--rules", "online-empty"],
        8,
    );
    let mut rules = Rules::kalah(3, 5);
    rules.leftovers = kalah_core::Leftovers::Discard;
    rules.capture = kalah_core::Capture::Empty;
    assert_perft_matches_core(
        rules,
        &[
            "--houses",
            "3",
            "--seeds",
            "5",
            "--capture",
            "empty",
            "--leftovers",
            "discard",
        ],
        8,
    );
}

#[test]
fn perft_text_prints_a_line_per_depth() {
    let out = kalah(&["perft", "--depth", "2"]);
    assert!(out.status.success());
    let text = stdout(&out);
    assert!(text.contains("perft(1) = 6\n"));
    assert!(text.contains("perft(2) = 35\n"));
}

#[test]
fn play_rejects_illegal_input_then_ends_cleanly_at_eof() {
    let out = kalah_with_input(&["play", "--engine", "greedy"], "9\nfoo\n3-4\n");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("not played: bin 9 is not one of South's houses"));
    assert!(text.contains("not played: 'foo' is not a move"));
    assert!(text.contains("North plays"));
    assert!(text.contains("end of input"));
}

#[test]
fn play_answers_a_line_that_is_not_utf8_and_goes_on() {
    let out = kalah_with_input(&["play", "--engine", "greedy"], b"\xff\xfe 3\n3-4\n");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("not played: line 1 is not UTF-8"), "{text}");
    // The game went on: the next line was played and the engine answered it.
    assert!(text.contains("North plays"), "{text}");
    assert!(text.contains("end of input"), "{text}");
}

#[test]
fn play_quits_on_request() {
    let out = kalah_with_input(&["play", "--as", "north", "--engine", "greedy"], "quit\n");
    assert_eq!(out.status.code(), Some(0));
    let text = stdout(&out);
    assert!(text.contains("South plays"));
    assert!(text.contains("game abandoned"));
}

#[test]
fn play_reaches_the_end_of_a_game() {
    let input = "1\n2\n3\n4\n5\n6\n".repeat(60);
    let out = kalah_with_input(&["play", "--seed", "7", "--engine", "greedy"], &input);
    assert_eq!(out.status.code(), Some(0));
    assert!(stdout(&out).contains("game over: South"));
}

/// The perfect engine never lets the human (playing anything) beat the value of the game:
/// on Kalah(4,2) South, moving first, wins by 6 with perfect play, so a perfect North
/// keeps South's final margin at most 6 whatever South plays.
#[test]
fn perfect_engine_holds_the_value_of_the_game() {
    let input = "1\n2\n3\n4\n".repeat(40);
    let out = kalah_with_input(
        &["play", "--houses", "4", "--seeds", "2", "--threads", "1"],
        &input,
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    let score: i32 = text
        .split("score ")
        .nth(1)
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|v| v.parse().ok())
        .expect("the final score is printed");
    assert!(
        score <= 6,
        "South got {score:+} against perfect play:\n{text}"
    );
    let solved = kalah(&[
        "solve", "--houses", "4", "--seeds", "2", "--json", "--quiet",
    ]);
    let value: serde_json::Value = serde_json::from_slice(&solved.stdout).unwrap();
    assert_eq!(value["value"], 6);
}

#[test]
fn every_subcommand_has_help() {
    for cmd in ["show", "perft", "play"] {
        let out = kalah(&[cmd, "--help"]);
        assert!(out.status.success(), "{cmd}");
        assert!(stdout(&out).contains("--position"), "{cmd}");
    }
}

/// The depth of the iterative deepening changes the work, never the value: Kalah(5,3)
/// with empty capture is +8 for the first player (Irving, Donkers and Uiterwijk, 2000).
#[test]
fn solve_value_does_not_depend_on_the_deepening() {
    for depth in ["0", "1", "5", "20"] {
        let v = json(&[
            "solve",
            "--houses",
            "5",
            "--seeds",
            "3",
            "--capture",
            "empty",
            "--deepening",
            depth,
            "--threads",
            "2",
            "--json",
            "--quiet",
        ]);
        assert_eq!(v["value"], 8, "--deepening {depth}");
    }
    let out = kalah(&[
        "solve",
        "--houses",
        "4",
        "--seeds",
        "2",
        "--deepening",
        "65",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--deepening"), "{}", stderr(&out));
}

/// Under the online rules `solve` builds the early stop's database by default and reports
/// it; the value is the same with it, without it and with a larger one, and the principal
/// variation replays to it.
#[test]
fn online_solve_uses_the_early_stop_database() {
    let game = Game::new(Rules {
        early_stop: true,
        end: kalah_core::End::MoverStuck,
        ..Rules::kalah(5, 3)
    })
    .unwrap();
    let mut values = Vec::new();
    for egdb in [None, Some("0"), Some("12")] {
        let mut args = vec![
            "solve", "--houses", "5", "--seeds", "3", "--rules", "online", "--json", "--quiet",
        ];
        if let Some(k) = egdb {
            args.extend(["--egdb-seeds", k]);
        }
        let v = json(&args);
        match egdb {
            Some("0") => assert!(v["egdb_seeds"].is_null(), "{v}"),
            Some(k) => assert_eq!(v["egdb_seeds"].to_string(), k, "{v}"),
            None => assert!(v["egdb_seeds"].as_u64().is_some_and(|k| k > 0), "{v}"),
        }
        assert!(
            v["egdb_hits"]
                .as_u64()
                .is_some_and(|h| egdb == Some("0") || h > 0),
            "{v}"
        );
        // Replay the principal variation to the end of the game.
        let mut pos = game.start();
        for turn in v["pv"].as_array().unwrap() {
            for bin in turn.as_str().unwrap().split('-') {
                let bin: usize = bin.parse().unwrap();
                let house = if bin <= 5 { bin - 1 } else { bin - 7 };
                pos = game.try_play(&pos, house).unwrap().0;
            }
        }
        assert!(pos.is_over());
        assert_eq!(v["value"], pos.score(), "{v}");
        values.push(v["value"].clone());
    }
    assert!(values.windows(2).all(|w| w[0] == w[1]), "{values:?}");
}
