//! The analysis board in a real browser: `kalah serve` on a free port, headless Chromium
//! driven through WebDriver (chromedriver). The test plays sowings by clicking houses,
//! undoes and redoes, goes back through the move list, pastes a position, edits one,
//! picks a direction in Ethiopian Kalah, and checks every value the page shows against
//! `kalah openings`, `kalah solve` and `kalah pie`; then watches a long solve show its
//! bounds and stops it. A second test plays Bao la Kujifunza on its four-row board (a
//! direction chosen for a pit, the engine's reply, the proven win of 4×3 with 2 seeds, the
//! heuristic analysis of the full board). Screenshots of the boards are kept in
//! `target/test-artifacts/serve-board.png` and `serve-bao-board.png`.
//!
//! Needs Debian's `chromium` and `chromium-driver` (`.ci/run` installs them; `CHROMIUM`
//! and `CHROMEDRIVER` name other binaries). Without them the test says so and passes,
//! unless `KALAH_BROWSER_TEST=required` (as in `.ci/run`), when it fails.

use crate::support::guard;
use crate::support::serve;
use crate::support::webdriver;

use std::collections::HashMap;
use std::net::TcpStream;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use guard::HANG_GUARD;
use serde_json::json;
use serve::{kalah_json, Server};
use webdriver::Session;

/// A chromedriver on a free port, stopped when dropped.
struct Driver {
    child: Child,
    url: String,
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The binary `var` names, else the first of `names` on the PATH.
fn find(var: &str, names: &[&str]) -> Option<PathBuf> {
    if let Some(path) = std::env::var_os(var) {
        return Some(PathBuf::from(path));
    }
    let path = std::env::var_os("PATH")?;
    names.iter().find_map(|name| {
        std::env::split_paths(&path)
            .map(|dir| dir.join(name))
            .find(|p| p.is_file())
    })
}

/// Starts chromedriver, or says why not.
fn start_driver() -> Result<(Driver, PathBuf), String> {
    let chromium = find(
        "CHROMIUM",
        &["chromium", "chromium-browser", "google-chrome"],
    )
    .ok_or("no Chromium found (Debian: apt-get install chromium chromium-driver)")?;
    let driver = find("CHROMEDRIVER", &["chromedriver"])
        .ok_or("no chromedriver found (Debian: apt-get install chromium-driver)")?;
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map_err(|e| e.to_string())?
        .port();
    let child = Command::new(&driver)
        .arg(format!("--port={port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("{}: {e}", driver.display()))?;
    let driver = Driver {
        child,
        url: format!("http://127.0.0.1:{port}"),
    };
    guard::wait_until("chromedriver listening", || {
        TcpStream::connect(("127.0.0.1", port)).is_ok()
    });
    Ok((driver, chromium))
}

/// Headless Chromium as this machine allows it: no sandbox (root), no GPU, no network
/// beyond the page (the closed network refuses Chromium's own connections), a fresh
/// profile.
fn browser(driver: &Driver, chromium: &std::path::Path, profile: &std::path::Path) -> Session {
    let mut caps = serde_json::Map::new();
    caps.insert(
        "goog:chromeOptions".to_string(),
        json!({
            "binary": chromium,
            "args": [
                "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                "--no-first-run", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage",
                "--window-size=1280,960",
                format!("--user-data-dir={}", profile.display()),
            ],
        }),
    );
    Session::start(&driver.url, caps.into()).expect("a WebDriver session with headless Chromium")
}

/// The query of `url` (after its `?`; empty if it has none).
fn query(url: &str) -> &str {
    url.split_once('?').map_or("", |(_, query)| query)
}

/// Waits until the element `css` has attribute `name` equal to `value`.
fn wait_attr(c: &Session, css: &str, name: &str, value: &str) {
    let start = Instant::now();
    loop {
        if let Ok(e) = c.find(css) {
            if e.attr(name).ok().flatten().as_deref() == Some(value) {
                return;
            }
        }
        if start.elapsed() > HANG_GUARD {
            let shown = match c.find(css) {
                Ok(e) => format!("{:?}", e.attr(name)),
                Err(e) => e.to_string(),
            };
            let error = text(c, "#error");
            panic!("{css} [{name}] is {shown}, not {value:?} (page error: {error:?})");
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// Checks `check` until it gives a value; none after the hang guard fails the test, saying
/// what was awaited.
fn poll<T>(what: &str, mut check: impl FnMut() -> Option<T>) -> T {
    let start = Instant::now();
    loop {
        if let Some(value) = check() {
            return value;
        }
        assert!(start.elapsed() < HANG_GUARD, "hung: no {what}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// The text of the element `css` (empty if there is none).
fn text(c: &Session, css: &str) -> String {
    match c.find(css) {
        Ok(e) => e.text().unwrap_or_default(),
        Err(_) => String::new(),
    }
}

/// Waits until the board shows `position` and its analysis is complete.
fn wait_analysed(c: &Session, position: &str) {
    wait_attr(c, "#board", "data-position", position);
    wait_attr(c, "body", "data-busy", "false");
    wait_attr(c, "#turns", "data-complete", "true");
}

/// Clicks the element `css`.
fn click(c: &Session, css: &str) {
    c.find(css)
        .unwrap_or_else(|e| panic!("{css}: {e}"))
        .click()
        .unwrap_or_else(|e| panic!("click {css}: {e}"));
}

/// Checks the values the page shows for its position against the command line run with
/// `args`: every turn's (data-value of each row) against `kalah openings`, the position's
/// against `kalah solve`.
fn assert_values(c: &Session, args: &[&str]) {
    let openings = kalah_json(&[&["openings"], args].concat());
    let expected: HashMap<String, String> = openings["turns"]
        .as_array()
        .expect("turns")
        .iter()
        .map(|t| {
            (
                t["turn"].as_str().unwrap().to_string(),
                t["value"].to_string(),
            )
        })
        .collect();
    let rows = c.find_all("#turns .turn").expect("rows");
    let mut shown = HashMap::new();
    for row in rows {
        let turn = row.attr("data-turn").unwrap().expect("data-turn");
        assert_eq!(
            row.attr("data-state").unwrap().as_deref(),
            Some("exact"),
            "{args:?} turn {turn}"
        );
        let value = row.attr("data-value").unwrap().expect("data-value");
        shown.insert(turn, value);
    }
    assert_eq!(shown, expected, "{args:?}: the turns' values shown");
    let solved = kalah_json(&[&["solve"], args].concat());
    let value = c.find("#value").expect("#value");
    assert_eq!(
        value.attr("data-value").unwrap(),
        Some(solved["value"].to_string()),
        "{args:?}: the position's value shown"
    );
    // The best turn is listed first.
    let first = c.find("#turns .turn").expect("a row");
    assert_eq!(
        first.attr("data-value").unwrap(),
        Some(solved["value"].to_string())
    );
}

/// The browser tests run one at a time (each drives a Chromium and a server).
static ONE_BROWSER: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Starts chromedriver for a test, or says why not: `None` (the test passes, skipped)
/// unless `KALAH_BROWSER_TEST=required`.
fn driver_or_skip() -> Option<(Driver, PathBuf)> {
    let required = std::env::var("KALAH_BROWSER_TEST").is_ok_and(|v| v == "required");
    match start_driver() {
        Ok(found) => Some(found),
        Err(why) if !required => {
            eprintln!("browser test skipped: {why}");
            None
        }
        Err(why) => panic!("KALAH_BROWSER_TEST=required, but {why}"),
    }
}

#[test]
fn the_board_in_chromium_plays_undoes_pastes_and_shows_exact_values() {
    // A test that failed holding the lock leaves it poisoned; the next still runs.
    let _one = ONE_BROWSER.lock().unwrap_or_else(|e| e.into_inner());
    let Some((driver, chromium)) = driver_or_skip() else {
        return;
    };
    // No endgame database: the long solve at the end starts at once.
    let server = Server::start(&["--egdb-seeds", "0"]);
    let profile = tempfile::tempdir().expect("a profile directory");
    let c = browser(&driver, &chromium, profile.path());
    let board = ["--houses", "4", "--seeds", "3"];

    // The start of Kalah(4,3): every first turn's value, the position's, the pie choice.
    c.goto(&format!("{}?houses=4&seeds=3", server.url))
        .expect("the page loads");
    wait_analysed(&c, "3,3,3,3,0,3,3,3,3,0:S");
    assert_eq!(text(&c, "#side-to-move"), "South");
    assert_values(&c, &board);
    let pie = kalah_json(&[&["pie"][..], &board].concat());
    let pie_text = text(&c, "#pie");
    assert!(
        pie_text.contains(pie["best_turn"].as_str().unwrap()),
        "{pie_text:?} names {}",
        pie["best_turn"]
    );

    // Sow bin 2 (an extra sowing: South again), then bin 3.
    click(&c, ".house[data-bin='2']");
    wait_analysed(&c, "3,0,4,4,1,3,3,3,3,0:S");
    assert_eq!(text(&c, "#side-to-move"), "South");
    assert_values(&c, &[&board[..], &["--moves", "2"]].concat());
    click(&c, ".house[data-bin='3']");
    wait_analysed(&c, "3,0,0,5,2,4,4,3,3,0:N");
    assert_eq!(text(&c, "#side-to-move"), "North");
    let after = [&board[..], &["--moves", "2-3"]].concat();
    assert_values(&c, &after);
    // South's first turn is over: North's pie decision.
    let decision = kalah_json(&[&["pie"][..], &after].concat());
    let pie_text = text(&c, "#pie").to_lowercase();
    let says_swap = !pie_text.contains("not swap") && pie_text.contains("swap");
    assert_eq!(says_swap, decision["swap"] == true, "{pie_text:?}");
    // The address bar carries the line.
    let url = c.current_url().expect("the url");
    assert!(query(&url).contains("moves="), "{url} has the moves");

    // Undo, redo, and back to the start through the move list.
    click(&c, "#undo");
    wait_analysed(&c, "3,0,4,4,1,3,3,3,3,0:S");
    click(&c, "#redo");
    wait_analysed(&c, "3,0,0,5,2,4,4,3,3,0:N");
    click(&c, "#moves .ply[data-ply='0']");
    wait_analysed(&c, "3,3,3,3,0,3,3,3,3,0:S");
    click(&c, "#moves .ply[data-ply='2']");
    wait_analysed(&c, "3,0,0,5,2,4,4,3,3,0:N");

    // A reload of the shared link shows the same position.
    c.goto(url.as_str()).expect("the link loads");
    wait_analysed(&c, "3,0,0,5,2,4,4,3,3,0:N");

    // Paste a position of a game in progress, North to move.
    let pasted = "2,0,5,1,3,4,4,0,2,3:N";
    let paste = c.find("#paste").expect("#paste");
    paste.clear().expect("clear");
    paste.send_keys(pasted).expect("typing");
    click(&c, "#paste-go");
    wait_analysed(&c, pasted);
    let position_text = c
        .find("#position-text")
        .expect("#position-text")
        .prop("value")
        .expect("its value");
    assert_eq!(position_text.as_deref(), Some(pasted));
    assert_values(&c, &[&board[..], &["--position", pasted]].concat());

    // The position editor: bin 1's two seeds moved to bin 4, North to move.
    click(&c, "#edit");
    for (bin, count) in [(1, "0"), (4, "3")] {
        let input = c
            .find(&format!("#edit-house-{bin}"))
            .expect("an editor field");
        input.clear().expect("clear");
        input.send_keys(count).expect("typing");
    }
    c.find("#edit-side")
        .expect("#edit-side")
        .select_by_value("N")
        .expect("North");
    click(&c, "#edit-apply");
    let edited = "0,0,5,3,3,4,4,0,2,3:N";
    wait_analysed(&c, edited);
    assert_values(&c, &[&board[..], &["--position", edited]].concat());

    // Keep a picture of the board as the test saw it.
    let png = c.screenshot().expect("a screenshot");
    assert!(png.starts_with(b"\x89PNG"), "a PNG");
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/test-artifacts");
    std::fs::create_dir_all(&dir).expect("the artifact directory");
    std::fs::write(dir.join("serve-board.png"), &png).expect("the screenshot is written");

    // Ethiopian Kalah: a click offers both directions; the clockwise one is played.
    c.goto(&format!("{}?rules=ethiopian&houses=3&seeds=2", server.url))
        .expect("the page loads");
    let start = "2,2,2,0,2,2,2,0:S";
    wait_analysed(&c, start);
    let state = server
        .get("/api/position?rules=ethiopian&houses=3&seeds=2&moves=2%3C")
        .json();
    click(&c, ".house[data-bin='2']");
    click(&c, ".dir[data-move='2<']");
    let after = state["position"].as_str().unwrap();
    wait_analysed(&c, after);
    assert_values(
        &c,
        &[
            "--rules",
            "ethiopian",
            "--houses",
            "3",
            "--seeds",
            "2",
            "--moves",
            "2<",
        ],
    );

    // A long solve (Kalah(6,4), no database): bounds shown as bounds while it runs, then
    // Stop ends it, leaving the unsolved turns marked as stopped. (Kalah(6,6) is analysed
    // within the time budget instead: below.)
    c.goto(&format!("{}?houses=6&seeds=4", server.url))
        .expect("the page loads");
    wait_attr(
        &c,
        "#board",
        "data-position",
        "4,4,4,4,4,4,0,4,4,4,4,4,4,0:S",
    );
    let bound = ".turn[data-state='bound'] .turn-value";
    let shown = poll("bound shown", || {
        let t = text(&c, bound);
        (!t.is_empty()).then_some(t)
    });
    assert!(
        ["≥", "≤", "…"].iter().any(|mark| shown.contains(mark)),
        "{shown:?} is marked as a bound"
    );
    click(&c, "#stop");
    // Rows that Stop did not end would run for hours: the hang guard.
    poll("end of the running rows after Stop", || {
        let running = ".turn[data-state='bound'], .turn[data-state='pending']";
        let rows = c.find_all(running).expect("rows");
        rows.is_empty().then_some(())
    });
    assert!(!c
        .find_all(".turn[data-state='stopped']")
        .expect("rows")
        .is_empty());

    // Kalah(6,6): too large to solve at once, each turn shows its heuristic evaluation
    // (marked ≈) as the analysis within the time budget improves it; Stop ends it.
    c.goto(&format!("{}?houses=6&seeds=6", server.url))
        .expect("the page loads");
    wait_attr(
        &c,
        "#board",
        "data-position",
        "6,6,6,6,6,6,0,6,6,6,6,6,6,0:S",
    );
    let estimate = ".turn[data-state='estimate'] .turn-value";
    let shown = poll("estimate shown", || {
        let t = text(&c, estimate);
        (!t.is_empty()).then_some(t)
    });
    assert!(shown.contains('≈'), "{shown:?} is marked as an estimate");
    click(&c, "#stop");
    poll("end of the estimates after Stop", || {
        let running = ".turn[data-state='estimate'], .turn[data-state='pending']";
        let rows = c.find_all(running).expect("rows");
        rows.is_empty().then_some(())
    });

    c.close().expect("the session closes");
}

/// Waits until the Bao board shows `position` and its analysis has ended.
fn wait_bao(c: &Session, position: &str) {
    wait_attr(c, "#bao-board", "data-position", position);
    wait_attr(c, "#bao-turns", "data-complete", "true");
}

/// Bao la Kujifunza on the page: a link to 4×3 with 2 seeds shows the four rows and the
/// proven win of South (docs/bao.md); a pit offers its legal directions, a move is played
/// by its direction button and the engine replies; undo; the rules panel goes to a sowing
/// game and back to the full Bao board, whose analysis is heuristic and stops on Stop.
#[test]
fn the_bao_board_in_chromium_plays_moves_by_direction_and_shows_the_analysis() {
    // A test that failed holding the lock leaves it poisoned; the next still runs.
    let _one = ONE_BROWSER.lock().unwrap_or_else(|e| e.into_inner());
    let Some((driver, chromium)) = driver_or_skip() else {
        return;
    };
    let server = Server::start(&["--egdb-seeds", "0"]);
    let profile = tempfile::tempdir().expect("a profile directory");
    let c = browser(&driver, &chromium, profile.path());
    c.goto(&format!("{}?rules=bao&houses=3&seeds=2", server.url))
        .expect("the page loads");
    wait_bao(&c, "2,2,2/2,2,2/2,2,2/2,2,2:S");
    assert_eq!(text(&c, "#bao-side"), "South");
    assert!(text(&c, "#board").is_empty(), "the sowing board is hidden");
    let pits = c.find_all("#bao-board .bao-pit").expect("pits");
    assert_eq!(pits.len(), 12);
    wait_attr(&c, "#bao-value", "data-exact", "true");
    let value = text(&c, "#bao-value");
    assert!(value.contains("South wins within 3 moves"), "{value:?}");
    let best = c.find("#bao-turns .turn").expect("a move");
    let first = best.attr("data-turn").unwrap().unwrap_or_default();
    assert!(["A1+", "A3-"].contains(&first.as_str()), "{first}");

    // B2 may be sown either way; A1 only clockwise.
    click(&c, ".bao-pit[data-row='B'][data-pit='2']");
    let dirs = c.find_all("#bao-board .dirs .dir").expect("dirs");
    let mut moves = Vec::new();
    for d in dirs {
        moves.push(d.attr("data-move").unwrap().unwrap_or_default());
    }
    moves.sort();
    assert_eq!(moves, ["B2+", "B2-"]);
    click(&c, ".bao-pit[data-row='A'][data-pit='1']");
    click(&c, "#bao-board .dir[data-move='A1+']");
    wait_bao(&c, "2,2,2/2,0,0/2,1,1/4,4,4:N");
    assert_eq!(text(&c, "#bao-side"), "North");
    // North's only move, played by the engine.
    click(&c, "#bao-engine");
    wait_bao(&c, "3,0,2/4,1,0/0,1,1/4,4,4:S");
    let url = c.current_url().expect("the url");
    assert!(query(&url).contains("rules=bao"), "{url}");
    click(&c, "#bao-undo");
    wait_bao(&c, "2,2,2/2,0,0/2,1,1/4,4,4:N");

    // Back to a sowing game through the rules panel, then to the full Bao board.
    let preset = c.find("#preset").expect("#preset");
    preset.select_by_value("kalah").expect("kalah");
    for (id, v) in [("#houses", "4"), ("#seeds", "3")] {
        let input = c.find(id).expect("a rules field");
        input.clear().expect("clear");
        input.send_keys(v).expect("typing");
    }
    click(&c, "#rules-apply");
    wait_analysed(&c, "3,3,3,3,0,3,3,3,3,0:S");
    assert_values(&c, &["--houses", "4", "--seeds", "3"]);
    let preset = c.find("#preset").expect("#preset");
    preset.select_by_value("bao").expect("bao");
    click(&c, "#rules-apply");
    let start = "2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2:S";
    wait_attr(&c, "#bao-board", "data-position", start);
    poll("a completed depth of the full board", || {
        let t = text(&c, "#bao-status");
        t.contains("depth").then_some(())
    });
    let png = c.screenshot().expect("a screenshot");
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/test-artifacts");
    std::fs::create_dir_all(&dir).expect("the artifact directory");
    std::fs::write(dir.join("serve-bao-board.png"), &png).expect("the screenshot is written");
    click(&c, "#bao-stop");
    wait_attr(&c, "#bao-value", "data-exact", "false");
    let value = text(&c, "#bao-value");
    assert!(
        value.contains("Heuristic") && value.contains("not proven"),
        "{value:?}"
    );
    let status = text(&c, "#bao-status");
    assert!(status.starts_with("Stopped"), "{status:?}");

    c.close().expect("the session closes");
}
