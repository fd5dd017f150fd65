//! The board's limits and doors: the
//! database builds count toward `--max-analyses`, stop when their clients leave and leave
//! nothing in the cache; analyses need the page's token and a request of its own site;
//! a wildcard bind says where it listens and warns.

use crate::support::guard;
use crate::support::serve;

use std::io::{BufRead, BufReader, Read};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;
use serve::{Events, Server};

/// Four rule sets of Kalah(6,4) with empty capture: each one's first analysis builds a
/// 19-seed endgame database for the cache (many seconds of both cores), none shared.
const FOUR_RULES: [&str; 4] = [
    "capture=empty",
    "capture=empty&end=mover-stuck",
    "capture=empty&leftovers=discard",
    "capture=empty&end=mover-stuck&leftovers=discard",
];

/// `kalah serve` with its database cache in `cache`.
fn server_with_cache(cache: &Path, extra: &[&str]) -> Server {
    let mut command = Command::new(env!("CARGO_BIN_EXE_kalah"));
    command
        .env("KALAH_CACHE", cache)
        .env_remove("KALAH_CACHE_MAX_MB");
    Server::spawn(command, extra)
}

/// `GET /api/work`.
fn work(server: &Server) -> Value {
    let answer = server.get("/api/work");
    assert_eq!(answer.status, 200);
    answer.json()
}

/// The builds in progress `/api/work` lists.
fn builds(work: &Value) -> &Vec<Value> {
    work["builds"].as_array().expect("builds")
}

/// Every entry of the cache directory (hidden temporaries included).
fn cache_entries(cache: &Path) -> Vec<String> {
    std::fs::read_dir(cache)
        .map(|dir| {
            dir.map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default()
}

/// Asserts that the cache holds no database and no temporary file: at most the levels of
/// builds cut short, kept to resume from (`NAME.egdb.partial`, as an interrupted solve
/// keeps them).
fn assert_nothing_finished(cache: &Path) {
    for name in cache_entries(cache) {
        assert!(name.ends_with(".egdb.partial"), "{name} in the cache");
    }
}

/// Opens an analysis and reads its events up to the `status` that says a database is
/// built for it.
fn building(server: &Server, query: &str) -> Events {
    let mut events = server.analyse(query);
    loop {
        let (name, data) = events.next_event().expect("the analysis goes on");
        assert!(
            name == "turns" || name == "status",
            "{query}: {name} {data}"
        );
        let message = data["message"].as_str().unwrap_or("");
        if message.contains("building the endgame database") {
            return events;
        }
    }
}

/// The rest of an analysis's events, up to its end.
fn rest(events: &mut Events) -> Vec<(String, Value)> {
    std::iter::from_fn(|| events.next_event()).collect()
}

/// Polls `/api/work` for `span`, checking the limit at every look; the most builds seen.
fn watch_limit(server: &Server, max: u64, span: Duration) -> usize {
    let start = Instant::now();
    let mut most = 0;
    while start.elapsed() < span {
        let now = work(server);
        assert!(now["taken"].as_u64().unwrap() <= max, "{now}");
        assert!(now["analyses"].as_u64().unwrap() <= max, "{now}");
        assert!(builds(&now).len() as u64 <= max, "{now}");
        most = most.max(builds(&now).len());
        std::thread::sleep(Duration::from_millis(100));
    }
    most
}

/// Waits until the server has no analysis and no build left.
fn wait_quiet(server: &Server) {
    guard::wait_until("end of every build and analysis", || {
        let now = work(server);
        builds(&now).is_empty() && now["analyses"] == 0 && now["taken"] == 0
    });
}

/// Case 4: four clients with different options that leave after 2 s. With
/// `--max-analyses 2` at most two builds ever run (a build is work), the two oldest
/// clients are told a newer analysis took their place, the builds stop once their
/// clients are gone (no database finished: the cache holds no database and no temporary
/// file, only the levels of the builds cut short, kept to resume from), and a server
/// stopped in a build leaves no more.
#[test]
fn database_builds_count_toward_the_limit_and_stop_with_their_clients() {
    let cache = tempfile::tempdir().expect("a temporary directory");
    let mut server = server_with_cache(cache.path(), &["--max-analyses", "2"]);
    let mut clients: Vec<Events> = FOUR_RULES.iter().map(|q| building(&server, q)).collect();
    let most = watch_limit(&server, 2, Duration::from_secs(2));
    assert!(most >= 1, "no build seen");
    for (i, client) in clients.iter_mut().take(2).enumerate() {
        let events = rest(client);
        let (name, data) = events.last().expect("an end");
        assert_eq!(name, "error", "client {i}: {events:?}");
        assert!(data["error"].as_str().unwrap().contains("newer"), "{data}");
    }
    drop(clients);
    wait_quiet(&server);
    assert_nothing_finished(cache.path());

    // Two clients of the same rules share one build; it goes on while one still waits.
    let a = building(&server, FOUR_RULES[0]);
    let b = building(&server, FOUR_RULES[0]);
    guard::wait_until("one build for two clients", || {
        builds(&work(&server))
            .first()
            .is_some_and(|b| b["waiting"] == 2)
    });
    drop(a);
    guard::wait_until("the first client gone", || work(&server)["analyses"] == 1);
    let now = work(&server);
    assert_eq!(builds(&now).len(), 1, "{now}");
    assert_eq!(builds(&now)[0]["cancelled"], false, "{now}");
    drop(b);
    wait_quiet(&server);

    // Stopped (SIGINT) in the middle of a build: a clean end, no file left.
    #[cfg(unix)]
    {
        let _c = building(&server, FOUR_RULES[1]);
        guard::wait_until("a build", || !builds(&work(&server)).is_empty());
        let kill = Command::new("kill")
            .args(["-INT", &server.child.id().to_string()])
            .status()
            .expect("kill runs");
        assert!(kill.success());
        let mut status = None;
        guard::wait_until("end of the server after SIGINT", || {
            status = server.child.try_wait().expect("wait");
            status.is_some()
        });
        assert!(status.unwrap().success(), "{status:?}");
    }
    assert_nothing_finished(cache.path());
}

/// An `/api/analyse` request: the status and the body (the whole event stream of a
/// quick analysis, or the JSON error).
fn analyse_with(server: &Server, path: &str, headers: &[(&str, &str)]) -> (u16, String) {
    let mut all = vec![("Host", server.addr.as_str())];
    all.extend_from_slice(headers);
    let answer = server.request_with("GET", path, &all, b"");
    (
        answer.status,
        String::from_utf8_lossy(&answer.body).into_owned(),
    )
}

/// Case 8: a request without the page's token (a cross-site form, an `<img>`, a script
/// elsewhere: without an Origin, or with `Origin: null`, a foreign one, or
/// `Sec-Fetch-Site: cross-site`) starts no analysis and gets a 403 that says why; the
/// page carries a token made at start-up, and the page's requests (token in the query
/// or the header, no Origin or its own) are served.
#[test]
fn analyses_need_the_pages_token_and_its_own_site() {
    let server = Server::start(&[]);
    let other = Server::start(&[]);
    assert_eq!(server.token.len(), 32);
    assert_ne!(server.token, other.token, "a token per start");
    let page = String::from_utf8_lossy(&server.get("/").body).into_owned();
    assert!(page.contains(&server.token));
    let script = String::from_utf8_lossy(&server.get("/app.js").body).into_owned();
    assert!(script.contains("X-Kalah-Token") && script.contains("token: TOKEN"));

    let q = "/api/analyse?houses=4&seeds=3";
    let with_token = format!("{q}&token={}", server.token);
    let own = format!("http://{}", server.addr);
    let foreign = format!("{q}&token={}", other.token);
    type Case<'a> = (&'a str, &'a [(&'a str, &'a str)], &'a str);
    let refused: [Case; 7] = [
        (q, &[], "lacks"),
        (q, &[("Origin", &own)], "lacks"),
        (&foreign, &[], "gets wrong"),
        (&with_token, &[("Origin", "null")], "Origin: null"),
        (q, &[("Origin", "null")], "Origin: null"),
        (
            &with_token,
            &[("Origin", "http://evil.example")],
            "other sites",
        ),
        (
            &with_token,
            &[("Sec-Fetch-Site", "cross-site")],
            "another site",
        ),
    ];
    for (path, headers, message) in refused {
        let (status, body) = analyse_with(&server, path, headers);
        assert_eq!(status, 403, "{path} {headers:?}: {body}");
        let error: Value = serde_json::from_str(&body).expect("a JSON error");
        let error = error["error"].as_str().unwrap();
        assert!(error.contains(message), "{headers:?}: {error}");
        assert!(error.contains(&server.url), "{error}");
        assert_eq!(
            work(&server)["analyses"],
            0,
            "{path} {headers:?} started one"
        );
    }
    let token = server.token.clone();
    let served: [(&str, &[(&str, &str)]); 3] = [
        (&with_token, &[]),
        (q, &[("X-Kalah-Token", &token)]),
        (
            &with_token,
            &[("Origin", &own), ("Sec-Fetch-Site", "same-origin")],
        ),
    ];
    for (path, headers) in served {
        let (status, body) = analyse_with(&server, path, headers);
        assert_eq!(status, 200, "{path} {headers:?}: {body}");
        assert!(body.contains("event: done"), "{body}");
    }
}

/// Case 8: `--bind 0.0.0.0` (and `::` where the machine has IPv6) says it listens on
/// every interface, with the port, and warns that other machines can reach it and spend
/// its processors; the default bind warns of nothing.
#[test]
fn a_wildcard_bind_says_where_it_listens_and_warns() {
    for bind in ["0.0.0.0", "::"] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_kalah"))
            .env("KALAH_CACHE", "off")
            .args(["serve", "--port", "0", "--quiet", "--bind", bind])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("kalah serve starts");
        let mut out = BufReader::new(child.stdout.take().unwrap());
        let mut first = String::new();
        out.read_line(&mut first).unwrap();
        if first.is_empty() && bind == "::" {
            // No IPv6 here: the server could not listen (a clear error, checked below).
            let output = guard::finish(child, "kalah serve --bind ::");
            assert_eq!(output.status.code(), Some(2));
            continue;
        }
        let mut second = String::new();
        out.read_line(&mut second).unwrap();
        let port = first
            .rsplit(':')
            .next()
            .and_then(|p| p.split('/').next())
            .unwrap_or_else(|| panic!("{first}"))
            .to_string();
        assert!(first.contains("http://"), "{first}");
        assert!(second.contains("every"), "{second}");
        assert!(second.contains(&format!("port {port}")), "{second}");
        assert!(second.contains(bind), "{second}");
        let mut err = BufReader::new(child.stderr.take().unwrap());
        let mut warning = String::new();
        err.read_line(&mut warning).unwrap();
        assert!(warning.contains("warning"), "{warning}");
        assert!(warning.contains("other machines"), "{warning}");
        assert!(warning.contains("processors"), "{warning}");
        assert!(warning.contains(&format!("port {port}")), "{warning}");
        let _ = child.kill();
        let _ = child.wait();
    }

    let mut server = Server::start(&[]);
    let _ = server.child.kill();
    let _ = server.child.wait();
    let mut err = String::new();
    server
        .child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    assert!(!err.contains("warning"), "{err}");
}

/// A board started with the search's options (`--hash-mb`,
/// `--egdb-seeds`, `--deepening`) analyses every family: Oware and Ethiopian, solved by
/// retrograde analysis, have none of them and run without them, where the page's user was
/// told to "leave out --hash-mb" of a command line they cannot change; Kalah still gets
/// them.
#[test]
fn search_options_of_the_board_leave_the_retrograde_families_analysable() {
    let server = Server::start(&["--hash-mb", "16", "--egdb-seeds", "4", "--deepening", "2"]);
    for query in [
        "rules=oware&houses=3&seeds=2",
        "rules=ethiopian&houses=3&seeds=2",
        "houses=4&seeds=3",
    ] {
        let events = server.analysis(query);
        let (name, data) = events.last().expect("an end");
        assert_eq!(name, "done", "{query}: {events:?}");
        assert!(data["value"].is_i64(), "{query}: {data}");
        for (name, data) in &events {
            assert!(
                !data.to_string().contains("leave out"),
                "{query}: {name} {data}"
            );
        }
    }
}

/// `kalah serve --bind 0.0.0.0 --port 0` with `extra` options: its address (on
/// 127.0.0.1) and token are read, and the rest of its output is drained.
fn wildcard_server(extra: &[&str]) -> Server {
    let mut child = Command::new(env!("CARGO_BIN_EXE_kalah"))
        .env("KALAH_CACHE", "off")
        .env_remove("KALAH_EGDB_PATH")
        .args(["serve", "--port", "0", "--quiet", "--bind", "0.0.0.0"])
        .args(extra)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("kalah serve starts");
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut first = String::new();
    out.read_line(&mut first).unwrap();
    std::thread::spawn(move || std::io::copy(&mut out, &mut std::io::sink()));
    let url = first
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .unwrap_or_else(|| panic!("no address in {first:?}"))
        .to_string();
    let addr = url
        .trim_start_matches("http://")
        .trim_end_matches('/')
        .to_string();
    let mut server = Server {
        child,
        addr,
        url,
        token: String::new(),
    };
    let page = String::from_utf8_lossy(&server.get("/").body).into_owned();
    server.token = page
        .split_once(r#"<meta name="kalah-token" content=""#)
        .and_then(|(_, rest)| rest.split_once('"'))
        .map(|(token, _)| token.to_string())
        .unwrap_or_else(|| panic!("no token in the page: {page}"));
    server
}

/// Bound to every interface, the board still answers only requests
/// addressed to this machine (localhost, an IP address) or to a name given by
/// `--allow-host`: a page elsewhere that points its own name here (DNS rebinding) gets a
/// 403, never the page or its token. Exactly one `Host` (none or two: 400), a whole
/// address in the request line is held to the same list, and an `Origin` must be
/// `http://` and the `Host` (`https://`, `file://` refused); `--allow-host` takes a name,
/// not an address with a scheme or port.
#[test]
fn a_wildcard_bind_keeps_the_host_allow_list() {
    let server = wildcard_server(&["--allow-host", "Board.lan"]);
    let port = server.addr.rsplit(':').next().unwrap().to_string();
    let at = |name: &str| format!("{name}:{port}");
    for host in [
        at("evil.example"),
        at("board.lan.evil.example"),
        "evil.example".into(),
    ] {
        let answer = server.request_with("GET", "/", &[("Host", &host)], b"");
        assert_eq!(answer.status, 403, "{host}");
        let body = String::from_utf8_lossy(&answer.body).into_owned();
        assert!(!body.contains(&server.token), "{host}: {body}");
        let error = answer.json()["error"].as_str().unwrap().to_string();
        assert!(error.contains("--allow-host"), "{error}");
        assert!(error.contains("an IP address of this machine"), "{error}");
    }
    for host in [
        server.addr.clone(),
        at("localhost"),
        at("board.lan"),
        at("BOARD.LAN"),
        at("192.0.2.7"),
        at("[::1]"),
    ] {
        let answer = server.request_with("GET", "/", &[("Host", &host)], b"");
        assert_eq!(answer.status, 200, "{host}");
        assert!(String::from_utf8_lossy(&answer.body).contains(&server.token));
    }
    let own = server.addr.as_str();
    let absolute = server.request_with("GET", "http://evil.example/", &[("Host", own)], b"");
    assert_eq!(absolute.status, 403);
    type Case<'a> = (&'a [(&'a str, &'a str)], u16, &'a str);
    let origin = format!("http://{own}");
    let secure = format!("https://{own}");
    let cases: [Case; 6] = [
        (&[], 400, "exactly one Host header; this one has 0"),
        (&[("Host", own), ("Host", own)], 400, "has 2"),
        (&[("Host", own), ("Origin", &secure)], 403, "other sites"),
        (&[("Host", own), ("Origin", "file://")], 403, "other sites"),
        (
            &[("Host", own), ("Origin", "http://evil.example")],
            403,
            "other sites",
        ),
        (&[("Host", own), ("Origin", &origin)], 200, ""),
    ];
    for (headers, status, message) in cases {
        let answer = server.request_with("GET", "/api/options", headers, b"");
        assert_eq!(answer.status, status, "{headers:?}");
        if status != 200 {
            let error = answer.json()["error"].as_str().unwrap().to_string();
            assert!(error.contains(message), "{headers:?}: {error}");
        }
    }

    for bad in ["http://board.lan", "board.lan:8080", "board.lan/"] {
        let output = Command::new(env!("CARGO_BIN_EXE_kalah"))
            .args(["serve", "--port", "0", "--allow-host", bad])
            .output()
            .expect("kalah serve runs");
        assert_eq!(output.status.code(), Some(2), "{bad}");
        let err = String::from_utf8_lossy(&output.stderr);
        assert!(
            err.starts_with("error:") && err.contains("host name"),
            "{err}"
        );
    }
}

/// Reads what is left of `stream` and says whether the server closed it (an end or a
/// reset) before the stream's read timeout.
fn closed_by_the_server(stream: &mut std::net::TcpStream) -> bool {
    let mut rest = Vec::new();
    match stream.read_to_end(&mut rest) {
        Ok(_) => true,
        Err(e) => !matches!(
            e.kind(),
            std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
        ),
    }
}

/// A client that sends half a request (or nothing) is disconnected once
/// the deadline for a request's head has passed (here `--header-timeout 1`; 10 s by
/// default), where it held its connection and memory for good; an open event stream is
/// not cut by it; and connections beyond the limit (here `--max-connections 2`) wait
/// until one closes rather than pile up.
#[test]
fn half_sent_requests_are_cut_off_and_connections_are_bounded() {
    use std::io::Write;
    let server = Server::start(&["--header-timeout", "1"]);
    // Each stream's read gives up after 20 s: closed_by_the_server is false then.
    let mut half = server.connect();
    half.set_read_timeout(Some(Duration::from_secs(20)))
        .unwrap();
    half.write_all(b"GET /api/options HTTP/1.1\r\nHo").unwrap();
    let mut silent = server.connect();
    silent
        .set_read_timeout(Some(Duration::from_secs(20)))
        .unwrap();
    assert!(
        closed_by_the_server(&mut half),
        "a half-sent request stays open"
    );
    assert!(
        closed_by_the_server(&mut silent),
        "a silent connection stays open"
    );
    // An analysis of three seconds streams its events past the deadline, to its end.
    let events = server.analysis("houses=6&seeds=6&time=3");
    assert_eq!(events.last().expect("an end").0, "done", "{events:?}");
    assert_eq!(server.get("/api/options").status, 200);

    let server = Server::start(&["--max-connections", "2"]);
    let first = server.connect();
    let _second = server.connect();
    let mut third = server.connect();
    third
        .write_all(b"GET /api/options HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
        .unwrap();
    third
        .set_read_timeout(Some(Duration::from_secs(1)))
        .unwrap();
    let mut byte = [0u8; 1];
    let early = third.read(&mut byte);
    assert!(
        early.as_ref().is_err_and(|e| matches!(
            e.kind(),
            std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
        )),
        "a third connection was served beside two open ones: {early:?}"
    );
    drop(first);
    third
        .set_read_timeout(Some(Duration::from_secs(20)))
        .unwrap();
    let mut answer = Vec::new();
    third.read_to_end(&mut answer).unwrap();
    assert!(answer.starts_with(b"HTTP/1.1 200"), "{answer:?}");
}
