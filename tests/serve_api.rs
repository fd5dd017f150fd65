//! `kalah serve`'s JSON API from outside: every endpoint, the values of the analysis
//! stream against `kalah openings`, `kalah solve` and `kalah pie` (and each line replayed
//! here), bad requests answered with 4xx JSON errors, cancellation and a clean stop.

use crate::support::guard;
use crate::support::serve;

use std::collections::HashMap;
use std::time::Duration;

use kalah_core::{notation, Game, Rules};
use serde_json::{json, Value};
use serve::{encode, kalah_json, Server};

/// The query string of `pairs`.
fn query(pairs: &[(&str, &str)]) -> String {
    pairs
        .iter()
        .map(|(k, v)| format!("{k}={}", encode(v)))
        .collect::<Vec<_>>()
        .join("&")
}

/// The command-line options of the same parameters.
fn cli_args(pairs: &[(&str, &str)]) -> Vec<String> {
    let mut args = Vec::new();
    for (k, v) in pairs {
        match *k {
            "early_stop" => args.push(format!(
                "--{}",
                if *v == "on" {
                    "early-stop"
                } else {
                    "no-early-stop"
                }
            )),
            "grand_slam" => args.extend(["--grand-slam".to_string(), v.to_string()]),
            _ => args.extend([format!("--{k}"), v.to_string()]),
        }
    }
    args
}

/// The game a rules description from the API names.
fn game_of(rules: &Value) -> Game {
    let text = rules["text"].as_str().expect("rules.text");
    Game::new(text.parse::<Rules>().expect("the rules text reads back")).expect("valid rules")
}

/// Checks that `pv` (turns, from `position`) is legal and ends the game with `value`: the
/// game is over, or (where positions repeat) the line returned to one of its positions and
/// the store margin stands (docs/rules.md §5.7).
fn assert_replays(game: &Game, position: &str, pv: &Value, value: i64) {
    let line: Vec<&str> = pv
        .as_array()
        .expect("pv is an array")
        .iter()
        .map(|t| t.as_str().expect("a turn"))
        .collect();
    let mut p = game
        .settle(position.parse().expect("a position"))
        .expect("fits");
    let mut seen = std::collections::HashSet::from([p]);
    let mut repeated = false;
    for sowing in line.iter().flat_map(|t| t.split('-')) {
        assert!(
            !repeated,
            "{position} {line:?}: play goes on after a repetition"
        );
        p = notation::play_moves(game, p, sowing)
            .expect("the pv is legal")
            .0;
        repeated = !seen.insert(p);
    }
    let cycle = repeated && game.rules().family.is_cyclic();
    assert!(
        p.is_over() || cycle,
        "{position} {line:?} does not end the game"
    );
    assert_eq!(p.score() as i64, value, "{position} {line:?}");
}

/// Cases of rules and positions, every family among them.
fn cases() -> Vec<Vec<(&'static str, &'static str)>> {
    vec![
        vec![("houses", "4"), ("seeds", "3")],
        vec![("houses", "4"), ("seeds", "3"), ("moves", "2-3")],
        vec![("houses", "4"), ("seeds", "3"), ("moves", "2")],
        vec![
            ("rules", "kalah-empty"),
            ("houses", "5"),
            ("seeds", "2"),
            ("moves", "1 9"),
        ],
        vec![
            ("houses", "3"),
            ("seeds", "3"),
            ("position", "0,2,5,4,1,3,0,3:S"),
        ],
        vec![("rules", "online"), ("houses", "4"), ("seeds", "3")],
        vec![
            ("houses", "4"),
            ("seeds", "2"),
            ("end", "mover-stuck"),
            ("leftovers", "discard"),
        ],
        vec![("rules", "general"), ("houses", "3"), ("seeds", "3")],
        vec![("rules", "nigerian"), ("houses", "3"), ("seeds", "2")],
        vec![("rules", "ethiopian"), ("houses", "3"), ("seeds", "2")],
        vec![
            ("rules", "oware"),
            ("houses", "3"),
            ("seeds", "2"),
            ("moves", "1"),
        ],
        vec![("houses", "4"), ("seeds", "3"), ("early_stop", "on")],
    ]
}

/// Every turn's value streamed equals `kalah openings`; the position's value equals
/// `kalah solve`; every line replays to its value; every bound holds the value; the pie
/// decision equals `kalah pie`'s.
#[test]
fn analysis_values_equal_the_command_line() {
    let server = Server::start(&[]);
    for pairs in cases() {
        let q = query(&pairs);
        let args = cli_args(&pairs);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let state = server.get(&format!("/api/position?{q}"));
        assert_eq!(
            state.status,
            200,
            "{q}: {}",
            String::from_utf8_lossy(&state.body)
        );
        let state = state.json();
        let game = game_of(&state["rules"]);
        let position = state["position"].as_str().expect("position");

        let events = server.analysis(&q);
        let (first, turns) = &events[0];
        assert_eq!(first, "turns", "{q}");
        assert_eq!(turns["position"], position);
        let turns = turns["turns"].as_array().expect("turns");
        let (last, done) = events.last().expect("events");
        assert_eq!(last, "done", "{q}: {done}");

        let openings = kalah_json(&[&["openings"], &args[..]].concat());
        let expected: HashMap<String, i64> = openings["turns"]
            .as_array()
            .expect("turns")
            .iter()
            .map(|t| {
                (
                    t["turn"].as_str().unwrap().to_string(),
                    t["value"].as_i64().unwrap(),
                )
            })
            .collect();
        assert_eq!(turns.len(), expected.len(), "{q}: the same turns");
        let mut values = HashMap::new();
        for (name, data) in &events {
            if name == "value" {
                let turn = data["turn"].as_str().expect("turn");
                let value = data["value"].as_i64().expect("value");
                assert_eq!(Some(&value), expected.get(turn), "{q}: turn {turn}");
                assert_eq!(
                    turns[data["index"].as_u64().unwrap() as usize]["turn"],
                    turn
                );
                assert_eq!(data["pv"][0], turn, "{q}: the line starts with the turn");
                assert_replays(&game, position, &data["pv"], value);
                values.insert(data["index"].as_u64().unwrap(), value);
            }
        }
        assert_eq!(values.len(), turns.len(), "{q}: every turn has its value");
        for (name, data) in &events {
            if name == "bound" {
                let v = values[&data["index"].as_u64().unwrap()];
                let (lo, hi) = (
                    data["lower"].as_i64().unwrap(),
                    data["upper"].as_i64().unwrap(),
                );
                assert!(lo <= v && v <= hi, "{q}: bound [{lo}, {hi}] misses {v}");
            }
        }

        let solved = kalah_json(&[&["solve"], &args[..]].concat());
        assert_eq!(done["value"], solved["value"], "{q}");
        assert_eq!(done["over"], false);
        // Nodes searched, or (Ethiopian, Oware: each a first analysis of its rules) the
        // positions the retrograde analysis solved.
        assert!(done["nodes"].as_u64().unwrap() > 0, "{q}: {done}");
        assert_eq!(
            expected[done["best_turn"].as_str().expect("best_turn")],
            done["value"].as_i64().unwrap()
        );
        assert_replays(
            &game,
            position,
            &done["pv"],
            done["value"].as_i64().unwrap(),
        );

        if state["at_start"] == true {
            let pie = kalah_json(&[&["pie"], &args[..]].concat());
            assert_eq!(done["pie"]["kind"], "choose", "{q}");
            assert_eq!(done["pie"]["value"], pie["turns"][0]["first_player"], "{q}");
            let best = &done["pie"]["turns"][0];
            assert_eq!(best["first_player"], pie["turns"][0]["first_player"]);
        } else if state["after_first_turn"] == true {
            let pie = kalah_json(&[&["pie"], &args[..]].concat());
            assert_eq!(done["pie"]["kind"], "decide", "{q}");
            assert_eq!(done["pie"]["swap"], pie["swap"], "{q}");
            assert_eq!(done["pie"]["value"], pie["value"], "{q}");
        } else {
            assert_eq!(done["pie"], Value::Null, "{q}");
        }
    }
}

/// A finished game: no turn to analyse, its result as the value.
#[test]
fn a_finished_game_has_its_result_as_value() {
    let server = Server::start(&[]);
    let q = query(&[("position", "0,0,0,5,0,0,0,7:N")]);
    let state = server.get(&format!("/api/position?{q}")).json();
    assert_eq!(state["over"], true);
    assert_eq!(
        state["result"],
        json!({"south": 5, "north": 7, "value": -2})
    );
    assert_eq!(state["legal"], json!([]));
    let events = server.analysis(&q);
    assert_eq!(events[0].1["turns"], json!([]));
    let done = &events.last().unwrap().1;
    assert_eq!(done["over"], true);
    assert_eq!(done["value"], -2);
}

/// `/api/position` by GET and POST: the same answer, the line played, the legal sowings
/// and the flags of the pie rule.
#[test]
fn position_describes_the_line_and_the_legal_sowings() {
    let server = Server::start(&[]);
    let by_get = server
        .get("/api/position?houses=4&seeds=3&moves=2%203")
        .json();
    let by_post = server
        .post_json(
            "/api/position",
            r#"{"houses": 4, "seeds": "3", "moves": "2-3"}"#,
        )
        .json();
    assert_eq!(by_get, by_post);
    assert_eq!(by_get["start"], "3,3,3,3,0,3,3,3,3,0:S");
    assert_eq!(by_get["position"], "3,0,0,5,2,4,4,3,3,0:N");
    assert_eq!(by_get["south"], json!([3, 0, 0, 5]));
    assert_eq!(by_get["north"], json!([4, 4, 3, 3]));
    assert_eq!(by_get["south_store"], 2);
    assert_eq!(by_get["side_to_move"], "N");
    assert_eq!(by_get["after_first_turn"], true);
    assert_eq!(by_get["at_start"], false);
    let history = by_get["history"].as_array().unwrap();
    assert_eq!(history.len(), 2);
    assert_eq!(history[0]["move"], "2");
    assert_eq!(history[0]["extra_turn"], true);
    assert_eq!(history[1]["after"], by_get["position"]);
    let legal: Vec<&str> = by_get["legal"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["move"].as_str().unwrap())
        .collect();
    assert_eq!(legal, ["6", "7", "8", "9"]);

    let start = server.get("/api/position").json();
    assert_eq!(
        start["rules"]["text"],
        "Kalah(6,4) capture=standard end=row-empty leftovers=owner"
    );
    assert_eq!(start["at_start"], true);
    assert_eq!(start["legal"].as_array().unwrap().len(), 6);

    // Ethiopian: both directions of every house, the clockwise ones written `3<`.
    let eth = server
        .get("/api/position?rules=ethiopian&houses=3&seeds=2")
        .json();
    assert_eq!(eth["rules"]["choose_direction"], true);
    assert_eq!(eth["rules"]["cyclic"], true);
    let moves: Vec<&str> = eth["legal"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["move"].as_str().unwrap())
        .collect();
    assert_eq!(moves.len(), 6);
    assert!(moves.contains(&"2<") && moves.contains(&"2"), "{moves:?}");
    let played = server
        .get("/api/position?rules=ethiopian&houses=3&seeds=2&moves=2%3C")
        .json();
    assert_eq!(played["history"][0]["clockwise"], true);

    let options = server.get("/api/options").json();
    assert_eq!(options["presets"].as_array().unwrap().len(), 9);
    assert_eq!(options["presets"][8]["name"], "oware");
    assert_eq!(options["presets"][8]["rules"]["grand_slam"], "no-capture");
}

/// A bad request: method, path, content type, body, the status and a part of the error.
type BadCase<'a> = (&'a str, &'a str, Option<&'a str>, &'a [u8], u16, &'a str);

/// Every bad request gets a 4xx answer with a JSON error that says what is wrong.
#[test]
fn bad_requests_get_json_errors() {
    let server = Server::start(&[]);
    let long = format!("/api/position?moves={}", "1".repeat(9000));
    let big = format!(r#"{{"moves": "{}"}}"#, "1 ".repeat(10_000));
    let cases: Vec<BadCase> = vec![
        (
            "GET",
            "/api/position?rules=chess",
            None,
            b"",
            400,
            "rules is one of kalah",
        ),
        (
            "GET",
            "/api/position?houses=9",
            None,
            b"",
            400,
            "9 houses per side is not supported",
        ),
        (
            "GET",
            "/api/position?houses=x",
            None,
            b"",
            400,
            "houses is a whole number",
        ),
        (
            "GET",
            "/api/position?seeds=0",
            None,
            b"",
            400,
            "seeds per house must be at least 1",
        ),
        (
            "GET",
            "/api/position?colour=red",
            None,
            b"",
            400,
            "unknown parameter `colour`",
        ),
        (
            "GET",
            "/api/position?houses=4&houses=5",
            None,
            b"",
            400,
            "given twice",
        ),
        (
            "GET",
            "/api/position?rules=nigerian&capture=empty",
            None,
            b"",
            400,
            "no capture option",
        ),
        (
            "GET",
            "/api/position?capture=fours",
            None,
            b"",
            400,
            "capture is one of standard, empty",
        ),
        (
            "GET",
            "/api/position?early_stop=maybe",
            None,
            b"",
            400,
            "early_stop is `on` or `off`",
        ),
        (
            "GET",
            "/api/position?position=4,4,4:S",
            None,
            b"",
            400,
            "has 3 counts",
        ),
        ("GET", "/api/position?moves=7", None, b"", 400, "bin 7"),
        (
            "GET",
            "/api/position?moves=1-2",
            None,
            b"",
            400,
            "cannot continue",
        ),
        ("GET", "/api/position?moves=x", None, b"", 400, "x"),
        ("GET", "/api/analyse?moves=13", None, b"", 400, "13"),
        (
            "GET",
            "/api/analyse?seeds=many",
            None,
            b"",
            400,
            "seeds is a whole number",
        ),
        ("GET", &long, None, b"", 414, "at most 8192"),
        (
            "POST",
            "/api/position",
            Some("application/json"),
            big.as_bytes(),
            413,
            "larger than 16384",
        ),
        (
            "POST",
            "/api/position",
            Some("text/plain"),
            b"houses=4",
            415,
            "must be JSON",
        ),
        ("POST", "/api/position", None, b"{}", 415, "must be JSON"),
        (
            "POST",
            "/api/position",
            Some("application/json"),
            b"{houses",
            400,
            "not valid JSON",
        ),
        (
            "POST",
            "/api/position",
            Some("application/json"),
            b"[4]",
            400,
            "a JSON object",
        ),
        (
            "POST",
            "/api/position",
            Some("application/json"),
            br#"{"houses": [4]}"#,
            400,
            "`houses` must be",
        ),
        (
            "POST",
            "/api/options",
            Some("application/json"),
            b"{}",
            405,
            "method not allowed",
        ),
        (
            "DELETE",
            "/api/position",
            None,
            b"",
            405,
            "method not allowed",
        ),
        ("POST", "/api/analyse", None, b"", 405, "method not allowed"),
        (
            "GET",
            "/api/nothing",
            None,
            b"",
            404,
            "no such page: GET /api/nothing",
        ),
        ("GET", "/../../etc/passwd", None, b"", 404, "no such page"),
    ];
    for (method, path, kind, body, status, message) in cases {
        let answer = server.request(method, path, kind, body);
        let shown = &path[..path.len().min(60)];
        assert_eq!(
            answer.status,
            status,
            "{method} {shown}: {}",
            String::from_utf8_lossy(&answer.body)
        );
        assert!(
            answer
                .header("content-type")
                .is_some_and(|t| t.starts_with("application/json")),
            "{method} {shown}: {}",
            answer.headers
        );
        let error = answer.json()["error"]
            .as_str()
            .expect("an error message")
            .to_string();
        assert!(
            error.contains(message),
            "{method} {shown}: {error:?} lacks {message:?}"
        );
    }
    // Other sites: a name rebound to 127.0.0.1, a page elsewhere; this server's own names
    // and origin pass.
    let port = server.addr.rsplit(':').next().unwrap().to_string();
    let evil = format!("evil.example:{port}");
    let own = format!("http://{}", server.addr);
    let local = format!("localhost:{port}");
    type Case<'a> = (&'a [(&'a str, &'a str)], u16, &'a str);
    let headers: [Case; 5] = [
        (&[("Host", &evil)], 403, "localhost or 127.0.0.1 only"),
        (
            &[("Host", &server.addr), ("Origin", "http://evil.example")],
            403,
            "other sites",
        ),
        (&[("Host", &server.addr), ("Origin", &own)], 200, ""),
        (&[("Host", &local)], 200, ""),
        (&[("Host", "[::1]")], 200, ""),
    ];
    for (headers, status, message) in headers {
        let answer = server.request_with("GET", "/api/options", headers, b"");
        assert_eq!(answer.status, status, "{headers:?}");
        if status != 200 {
            let error = answer.json()["error"].as_str().unwrap().to_string();
            assert!(error.contains(message), "{headers:?}: {error}");
        }
    }
    // Still serving after all that.
    assert_eq!(server.get("/api/options").status, 200);
}

/// A port in use is a clear error (status 2), not a panic.
#[test]
fn a_port_in_use_is_a_clear_error() {
    let server = Server::start(&[]);
    let port = server.addr.rsplit(':').next().unwrap();
    let out = serve::kalah(&["serve", "--port", port, "--quiet"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(&format!("cannot listen on 127.0.0.1:{port}")),
        "{err}"
    );
    assert!(err.contains("choose another --port"), "{err}");
}

/// The page and its assets are served from the binary.
#[test]
fn the_page_and_its_assets_are_served() {
    let server = Server::start(&[]);
    for (path, kind, needle) in [
        ("/", "text/html", "app.js"),
        ("/app.js", "text/javascript", "EventSource"),
        ("/app.css", "text/css", "{"),
    ] {
        let answer = server.get(path);
        assert_eq!(answer.status, 200, "{path}");
        assert!(
            answer.header("content-type").unwrap().starts_with(kind),
            "{path}"
        );
        assert!(
            String::from_utf8_lossy(&answer.body).contains(needle),
            "{path}"
        );
    }
}

/// A position slow enough to be still solving when the test moves on: Kalah(6,6) from
/// the start without an endgame database.
const SLOW: &str = "houses=6&seeds=6";

/// Beyond `--max-analyses` the oldest analysis is cancelled and told so; the newer runs
/// to its end. A stream the client closes stops using the processor.
#[test]
fn a_new_analysis_cancels_the_oldest_and_a_closed_one_stops() {
    let server = Server::start(&["--max-analyses", "1", "--egdb-seeds", "0", "--threads", "1"]);
    let mut slow = server.analyse(SLOW);
    assert_eq!(slow.next_event().expect("turns").0, "turns");
    let quick = server.analysis("houses=4&seeds=3");
    assert_eq!(quick.last().unwrap().0, "done");
    let cancelled = loop {
        let (name, data) = slow
            .next_event()
            .expect("the slow stream goes on until cancelled");
        if name == "error" {
            break data;
        }
        // Kalah(6,6) is analysed within a time budget: its reports are estimates.
        assert!(
            ["bound", "status", "book", "estimate"].contains(&name.as_str()),
            "{name}: {data}"
        );
    };
    assert!(
        cancelled["error"].as_str().unwrap().contains("newer"),
        "{cancelled}"
    );

    #[cfg(target_os = "linux")]
    {
        // Close a slow stream: the server goes idle, its CPU time stops growing.
        let mut closing = server.analyse(SLOW);
        assert_eq!(closing.next_event().expect("turns").0, "turns");
        drop(closing);
        wait_idle(server.child.id());
    }
}

/// The CPU time process `pid` has used (clock ticks) and whether any of its threads is
/// running or waiting to run (state `R`: a solve is, however loaded the machine).
#[cfg(target_os = "linux")]
fn cpu(pid: u32) -> (u64, bool) {
    let (_, ticks) = guard::processor(pid).expect("the server's stat");
    let running = std::fs::read_dir(format!("/proc/{pid}/task"))
        .expect("the server's threads")
        .filter_map(|task| std::fs::read_to_string(task.ok()?.path().join("stat")).ok())
        .any(|stat| stat.rsplit(')').next().unwrap().split_whitespace().next() == Some("R"));
    (ticks, running)
}

/// Waits until process `pid` is idle: successive samples in a row with no thread running
/// and no clock tick used between them (a solve still running never gives one).
#[cfg(target_os = "linux")]
fn wait_idle(pid: u32) {
    const QUIET_SAMPLES: usize = 10;
    let mut last = cpu(pid).0;
    let mut quiet = 0;
    guard::wait_until("idle server after the stream closed", || {
        std::thread::sleep(Duration::from_millis(100));
        let (ticks, running) = cpu(pid);
        quiet = if ticks == last && !running {
            quiet + 1
        } else {
            0
        };
        last = ticks;
        quiet == QUIET_SAMPLES
    });
}

/// Ctrl-C (SIGINT) stops the server with status 0, an analysis running.
#[cfg(unix)]
#[test]
fn ctrl_c_stops_the_server_cleanly() {
    let mut server = Server::start(&["--egdb-seeds", "0", "--threads", "1"]);
    let mut slow = server.analyse(SLOW);
    assert_eq!(slow.next_event().expect("turns").0, "turns");
    let kill = std::process::Command::new("kill")
        .args(["-INT", &server.child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(kill.success());
    // A server that did not stop would serve on forever: the hang guard.
    let mut status = None;
    guard::wait_until("end of the server after SIGINT", || {
        status = server.child.try_wait().expect("wait");
        status.is_some()
    });
    let status = status.unwrap();
    assert!(status.success(), "{status}");
    // The stream was told, or simply ended.
    while let Some((name, data)) = slow.next_event() {
        if name == "error" {
            assert!(
                data["error"].as_str().unwrap().contains("stopping"),
                "{data}"
            );
        }
    }
}
