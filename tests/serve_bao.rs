//! Bao la Kujifunza on `kalah serve` from outside: `/api/position?rules=bao` against `kalah show`
//! and `kalah perft --rules bao`, bad input answered with a 400 that says what is wrong,
//! `/api/analyse?rules=bao` exact where it can prove (the solver of small positions against
//! `kalah solve --rules bao`, the search's win in 3 of 4×3 with 2 seeds, docs/bao.md),
//! heuristic on the full board within its time budget, and stopped by a newer analysis
//! or a closed stream.

use crate::support::guard;
use crate::support::serve;

use serde_json::Value;
use serve::{encode, kalah, kalah_json, Server};

/// The event stream of every kind of game (Bao's with `rules=bao`).
const ANALYSE: &str = "/api/analyse";

/// A query string for Bao: `rules=bao`, then `query`.
fn bao(query: &str) -> String {
    match query {
        "" => "rules=bao".to_string(),
        q => format!("rules=bao&{q}"),
    }
}

/// The move texts of a list of move objects (`legal`, `history`, `moves`).
fn names(list: &Value) -> Vec<String> {
    list.as_array()
        .unwrap_or_else(|| panic!("a list: {list}"))
        .iter()
        .map(|m| m["move"].as_str().expect("a move text").to_string())
        .collect()
}

/// The JSON `kalah` prints with `args` and `--json` (`show` and `perft` of Bao take no
/// `--quiet`).
fn cli_json(args: &[&str]) -> Value {
    let out = kalah(&[args, &["--json"]].concat());
    assert!(
        out.status.success(),
        "kalah {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("the output is JSON")
}

/// The position endpoint's answer for a query string of Bao (`rules=bao` added).
fn position(server: &Server, query: &str) -> Value {
    let answer = server.get(&format!("/api/position?{}", bao(query)));
    assert_eq!(answer.status, 200, "{query}: {}", answer.json());
    answer.json()
}

/// The standard start and the positions along a line agree with `kalah show` and `kalah
/// perft --rules bao` (depth 1: the legal moves); GET and POST answer alike.
#[test]
fn position_describes_the_start_and_the_line_as_the_command_line_does() {
    let server = Server::start(&[]);
    let start = position(&server, "");
    assert_eq!(start["rules"]["pits"], 8);
    assert_eq!(start["rules"]["seeds"], 2);
    assert_eq!(start["side_to_move"], "S");
    assert_eq!(start["at_start"], true);
    assert_eq!(start["over"], false);
    assert_eq!(start["winner"], Value::Null);
    assert_eq!(start["rows"], serde_json::to_value([[2u8; 8]; 4]).unwrap());
    let perft = cli_json(&["perft", "--rules", "bao", "--depth", "1"]);
    assert_eq!(
        start["legal"].as_array().unwrap().len() as u64,
        perft["counts"][0]
    );
    assert_eq!(perft["counts"][0], 16);

    // Six moves, each the last legal move of the position before it.
    let mut line: Vec<String> = Vec::new();
    for _ in 0..6 {
        let moves = line.join(" ");
        let here = position(&server, &format!("moves={}", encode(&moves)));
        let mut cli = vec!["--rules", "bao"];
        if !moves.is_empty() {
            cli.extend(["--moves", &moves]);
        }
        let show = cli_json(&[&["show"], &cli[..]].concat());
        let perft = cli_json(&[&["perft", "--depth", "1"], &cli[..]].concat());
        assert_eq!(here["position"], show["position"], "{moves}");
        assert_eq!(here["rows"], show["rows"], "{moves}");
        let legal = names(&here["legal"]);
        assert_eq!(serde_json::json!(legal), show["moves"], "{moves}");
        assert_eq!(legal.len() as u64, perft["counts"][0], "{moves}");
        assert_eq!(names(&here["history"]), line);
        assert_eq!(
            here["side_to_move"],
            if line.len() % 2 == 0 { "S" } else { "N" }
        );
        for m in here["legal"].as_array().unwrap() {
            let text = m["move"].as_str().unwrap();
            let sign = m["dir"].as_str().unwrap();
            assert_eq!(
                text,
                format!("{}{}{sign}", m["row"].as_str().unwrap(), m["pit"])
            );
            assert_eq!(m["side"], here["side_to_move"]);
        }
        line.push(legal.last().expect("a legal move").clone());
    }
    let query = format!("houses=8&seeds=2&moves={}", encode(&line.join(",")));
    let by_get = position(&server, &query);
    let body =
        serde_json::json!({ "rules": "bao", "houses": 8, "seeds": "2", "moves": line.join(" ") });
    let by_post = server.post_json("/api/position", &body.to_string()).json();
    assert_eq!(by_get, by_post);
    assert_eq!(by_get["at_start"], false);
    assert_eq!(
        by_get["history"][5]["after"], by_get["position"],
        "the last move leads to the position shown"
    );

    // A smaller board, and a position given as text (its board read from it).
    let small = position(&server, "pits=3&seeds=2&moves=A1%2B");
    assert_eq!(small["position"], "2,2,2/2,0,0/2,1,1/4,4,4:N");
    assert_eq!(names(&small["legal"]), ["b2-"]);
    let given = position(
        &server,
        &format!("position={}", encode("0,1,0/1,2,1/2,0,2/0,1,0:S")),
    );
    assert_eq!(given["rules"]["pits"], 3);
    assert_eq!(given["start"], "0,1,0/1,2,1/2,0,2/0,1,0:S");
    assert_eq!(names(&given["legal"]), ["A1+", "A3-"]);
}

/// A finished game: the winner and why, no legal move; its analysis says so at once.
#[test]
fn a_finished_game_names_its_winner() {
    let server = Server::start(&[]);
    // North to move has only single seeds: no legal move, North has lost (R7.4).
    let stuck = encode("1,1,1/1,1,1/1,2,1/1,1,1:N");
    let over = position(&server, &format!("position={stuck}"));
    assert_eq!(over["over"], true);
    assert_eq!(over["winner"], "S");
    assert!(
        over["end"].as_str().unwrap().contains("no legal move"),
        "{over}"
    );
    assert_eq!(over["legal"], serde_json::json!([]));
    let events = server.analysis_at(ANALYSE, &bao(&format!("position={stuck}")));
    let (name, done) = events.last().unwrap();
    assert_eq!(name, "done", "{events:?}");
    assert_eq!(done["over"], true);
    assert_eq!(done["exact"], true);
    assert_eq!(done["value"], 1);
    assert_eq!(done["outcome"]["winner"], "S");
}

/// Bad rules, positions and moves are refused with a 400 and a message that says what
/// is wrong, by both endpoints (the analysis before its stream starts).
#[test]
fn bad_input_gets_a_400_that_says_what_is_wrong() {
    let server = Server::start(&[]);
    let cases = [
        ("houses=9", "pits"),
        ("houses=two", "whole number"),
        ("seeds=0", "seed"),
        ("houses=8&seeds=9", "seed"),
        ("houses=3&pits=3", "not both"),
        ("capture=empty", "unknown parameter `capture`"),
        ("position=1,2,3:S", "row"),
        ("position=2,2,2/2,2,2/2,2,2/2,2,2", ":S"),
        ("houses=4&position=2,2,2/2,2,2/2,2,2/2,2,2:S", "houses is 4"),
        ("moves=A2-", "the legal moves are A1+ A2+"),
        ("moves=a1%2B", "A and B"),
        ("moves=X1%2B", "X1+"),
        ("moves=A9%2B", "1 to 8"),
        ("houses=3&moves=A1%2B%20b2-%20B3%2B%20a1%2B", "game is over"),
    ];
    for (query, says) in cases {
        let token = format!("token={}", server.token);
        for path in [
            format!("/api/position?{}", bao(query)),
            format!("{ANALYSE}?{}&{token}", bao(query)),
        ] {
            let answer = server.get(&path);
            let body = answer.json();
            assert_eq!(answer.status, 400, "{path}: {body}");
            let error = body["error"].as_str().expect("an error message");
            assert!(error.contains(says), "{path}: {error}");
        }
    }
    // Another game's rules make the request that game's: Bao's `pits` is not its parameter.
    let sowing = server.get("/api/position?rules=kalah&pits=3");
    assert_eq!(sowing.status, 400);
    let error = sowing.json()["error"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    assert!(error.contains("unknown parameter `pits`"), "{error}");
    let post = server.post_json("/api/position", r#"{"rules": "bao", "moves": "B9+"}"#);
    assert_eq!(post.status, 400);
    let time = server.get(&format!(
        "{ANALYSE}?rules=bao&time=0&token={}",
        server.token
    ));
    assert_eq!(time.status, 400, "{}", time.json());
    let host = server.addr.clone();
    let no_token = server.request_with(
        "GET",
        &format!("{ANALYSE}?rules=bao"),
        &[("Host", &host)],
        b"",
    );
    assert_eq!(no_token.status, 403, "{}", no_token.json());
}

/// The start of 4×3 with 2 seeds is a win for South in 3 (docs/bao.md): proven by the
/// analysis, best first move `A1+` or `A3-`, its line replays to South's win; every move
/// it proves is won by the side docs/bao.md says.
#[test]
fn four_by_three_with_two_seeds_is_a_proven_win_for_south() {
    let server = Server::start(&[]);
    let events = server.analysis_at(ANALYSE, &bao("houses=3&seeds=2&time=30"));
    assert_eq!(events[0].0, "moves");
    assert_eq!(
        events[0].1["moves"],
        serde_json::json!(["A1+", "A3-", "B1+", "B2+", "B2-", "B3-"])
    );
    let (name, done) = events.last().unwrap();
    assert_eq!(name, "done", "{events:?}");
    assert_eq!(done["exact"], true, "{done}");
    assert_eq!(done["value"], 1);
    assert_eq!(done["outcome"]["winner"], "S");
    assert_eq!(done["outcome"]["moves"], 3);
    let best = done["best_turn"].as_str().unwrap();
    assert!(["A1+", "A3-"].contains(&best), "{done}");
    for m in done["moves"].as_array().unwrap() {
        if m["outcome"].is_null() {
            assert_eq!(m["exact"], false, "{m}");
            continue;
        }
        let winner = match m["move"].as_str().unwrap() {
            "A1+" | "A3-" => "S",
            _ => "N",
        };
        assert_eq!(m["outcome"]["winner"], winner, "{m}");
    }
    let pv: Vec<&str> = done["pv"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    assert_eq!(pv.len(), 3, "{done}");
    let end = position(
        &server,
        &format!("houses=3&moves={}", encode(&pv.join(" "))),
    );
    assert_eq!(end["over"], true, "{end}");
    assert_eq!(end["winner"], "S");
    for (name, data) in &events {
        if name == "depth" && data["exact"] == false {
            assert_eq!(data["outcome"], Value::Null, "{data}");
            assert_eq!(data["value"], Value::Null, "{data}");
        }
    }
}

/// A small position is solved exactly by the solver, with the values of `kalah solve
/// --rules bao`.
#[test]
fn a_small_position_is_solved_as_kalah_solve_solves_it() {
    let server = Server::start(&[]);
    let text = "0,1,0/1,2,1/2,0,2/0,1,0:S";
    let events = server.analysis_at(ANALYSE, &bao(&format!("position={}", encode(text))));
    let (name, done) = events.last().unwrap();
    assert_eq!(name, "done", "{events:?}");
    let cli = kalah_json(&["solve", "--rules", "bao", "--position", text]);
    assert_eq!(done["method"], "solver");
    assert_eq!(done["exact"], true);
    assert_eq!(done["value"], cli["value"]);
    assert_eq!(cli["result"], "win", "{cli}");
    assert_eq!(done["outcome"]["moves"], cli["plies"]);
    assert_eq!(done["best_turn"], cli["best_turn"]);
    assert_eq!(done["pv"], cli["pv"]);
    assert_eq!(done["positions"], cli["positions"]);
    let mut ours: Vec<(String, String)> = done["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            let r = &m["outcome"];
            let word = if r["winner"] == "S" { "win" } else { "loss" };
            (
                m["move"].as_str().unwrap().to_string(),
                format!("{word} in {}", r["moves"]),
            )
        })
        .collect();
    let mut theirs: Vec<(String, String)> = cli["turns"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            (
                m["turn"].as_str().unwrap().to_string(),
                format!("{} in {}", m["result"].as_str().unwrap(), m["plies"]),
            )
        })
        .collect();
    ours.sort();
    theirs.sort();
    assert_eq!(ours, theirs);
}

/// The full board is analysed by the search within the time budget: completed depths,
/// heuristic (not exact) evaluations, a legal best move.
#[test]
fn the_full_board_gets_a_heuristic_analysis_within_its_budget() {
    let server = Server::start(&[]);
    let events = server.analysis_at(ANALYSE, &bao("time=0.3"));
    let (name, done) = events.last().unwrap();
    assert_eq!(name, "done", "{events:?}");
    assert_eq!(done["method"], "search");
    assert_eq!(done["exact"], false, "{done}");
    assert_eq!(done["outcome"], Value::Null);
    assert_eq!(done["value"], Value::Null);
    assert!(done["depth"].as_u64().unwrap() >= 1, "{done}");
    assert_eq!(done["budget"], 0.3);
    let legal = names(&position(&server, "")["legal"]);
    assert!(
        legal.contains(&done["best_turn"].as_str().unwrap().to_string()),
        "{done}"
    );
    let mut scored = names(&done["moves"]);
    scored.sort();
    let mut all = legal.clone();
    all.sort();
    assert_eq!(scored, all);
    assert_eq!(done["pv"][0], done["best_turn"]);
    let depths: Vec<u64> = events
        .iter()
        .filter(|(n, _)| n == "depth")
        .map(|(_, d)| d["depth"].as_u64().unwrap())
        .collect();
    assert!(
        !depths.is_empty() && depths.windows(2).all(|w| w[0] < w[1]),
        "{depths:?}"
    );
    assert_eq!(*depths.last().unwrap(), done["depth"].as_u64().unwrap());
}

/// A Bao analysis counts toward `--max-analyses`: a newer one (Bao or a sowing game)
/// cancels it and it is told so; a closed stream stops it, and the work ends.
#[test]
fn a_bao_analysis_is_cancelled_by_a_newer_one_and_by_closing_it() {
    let server = Server::start(&["--max-analyses", "1", "--egdb-seeds", "0", "--threads", "1"]);
    let work = || server.get("/api/work").json();
    let mut slow = server.analyse_at(ANALYSE, &bao("time=600"));
    let first_depth = loop {
        let (name, data) = slow.next_event().expect("the analysis goes on");
        if name == "depth" {
            break data;
        }
    };
    assert_eq!(first_depth["exact"], false);
    assert_eq!(work()["analyses"], 1);
    let quick = server.analysis_at(ANALYSE, &bao("houses=3"));
    assert_eq!(quick.last().unwrap().0, "done");
    let cancelled = loop {
        let (name, data) = slow
            .next_event()
            .expect("the stream goes on until cancelled");
        if name == "error" {
            break data;
        }
        assert!(
            ["depth", "status"].contains(&name.as_str()),
            "{name}: {data}"
        );
    };
    assert!(
        cancelled["error"].as_str().unwrap().contains("newer"),
        "{cancelled}"
    );

    let mut closing = server.analyse_at(ANALYSE, &bao("time=600"));
    while closing.next_event().expect("an event").0 != "depth" {}
    drop(closing);
    guard::wait_until("the end of the closed Bao analysis", || {
        let now = work();
        now["analyses"] == 0 && now["taken"] == 0
    });
    // A sowing game's analysis runs as before beside the Bao endpoints.
    let kalah = server.analysis("houses=3&seeds=2");
    assert_eq!(kalah.last().unwrap().0, "done");
}

/// The page loads the Bao board's script, which talks to the endpoints of every game with
/// `rules=bao`, through the requests of the sowing board's script (`app.js`); no
/// `/api/bao/` route is left.
#[test]
fn the_page_carries_the_bao_board() {
    let server = Server::start(&[]);
    let page = String::from_utf8_lossy(&server.get("/").body).into_owned();
    assert!(
        page.contains("bao.js") && page.contains("bao-board"),
        "{page}"
    );
    let script = server.get("/bao.js");
    assert_eq!(script.status, 200);
    assert!(script
        .header("content-type")
        .unwrap()
        .starts_with("text/javascript"));
    let text = String::from_utf8_lossy(&script.body);
    assert!(text.contains("window.kalahBoard"), "{text}");
    assert!(!text.contains("api/bao/"), "{text}");
    let app = String::from_utf8_lossy(&server.get("/app.js").body).into_owned();
    assert!(app.contains("'api/analyse?'") && app.contains("'api/position'"));
    assert!(app.contains("window.kalahBoard = {") && !app.contains("api/bao/"));
    for old in ["/api/bao/position", "/api/bao/analyse"] {
        assert_eq!(server.get(old).status, 404, "{old}");
    }
}
