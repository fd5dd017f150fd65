//! The kinds of file the commands write (`run::outputs`): each task's own file is taken
//! by its kind and no other, and a file of none of them by none.

use std::sync::atomic::AtomicBool;

use kalah_analysis::distributed::{split, Step, Window};
use kalah_analysis::export::table;
use kalah_analysis::export::{evaluate, plan_until};
use kalah_analysis::game::turns::Offer;
use kalah_analysis::openings::openings;
use kalah_analysis::openings::report;
use kalah_analysis::run::outputs::{ANSWERS, DATABASE, GAMES, MANIFEST, REPORT, TABLE, UNITS};
use kalah_analysis::wire::answer;
use kalah_analysis::wire::unit;
use kalah_core::{Game, Rules};
use kalah_io::Kind;
use kalah_solver::{Config, Solver};

const ALL: [Kind; 7] = [TABLE, ANSWERS, UNITS, MANIFEST, REPORT, DATABASE, GAMES];

/// The kinds that take `text`, by name.
fn takers(text: &[u8]) -> Vec<&'static str> {
    ALL.iter()
        .filter(|k| (k.test)(text))
        .map(|k| k.name)
        .collect()
}

#[test]
fn each_writer_s_file_is_taken_by_its_own_kind_only() {
    let game = Game::new(Rules::kalah(3, 2)).unwrap();
    let start = game.start();
    let solver = Solver::new(
        game.clone(),
        Config {
            threads: 1,
            hash_mb: 4,
            ..Config::default()
        },
    )
    .unwrap();
    let never = AtomicBool::new(false);
    let plan = plan_until(&game, &start, 1, &never).unwrap();
    let entries = evaluate(&solver, &plan, &Default::default(), 1, &never, &|_, _| {}).unwrap();
    let list = openings(&solver, &start, Offer::AfterTurn, 1, &never, &|_| {}).unwrap();
    let tree = split(&game, &start, Step::Turn, 1).unwrap();
    let units = unit::to_lines(&tree.units_in(Window::full(game.rules())));
    let answer = answer::write(
        1,
        "1",
        game.rules(),
        Err(&"not a position" as &dyn std::fmt::Display),
    );
    let mut database = kalah_solver::egdb::file::MAGIC.to_vec();
    database.extend([1, 0, 0, 0]);
    let own: [(Vec<u8>, Kind); 8] = [
        (table::write_json(&game, &start, 1, &entries).into(), TABLE),
        (table::write_csv(&game, &entries).into(), TABLE),
        (format!("{answer}\n").into(), ANSWERS),
        (b"{\"line\":4,\"inp".to_vec(), ANSWERS),
        (units.into(), UNITS),
        (format!("{}\n", tree.to_json()).into(), MANIFEST),
        (report::openings_csv(3, &list).into(), REPORT),
        (database, DATABASE),
    ];
    for (text, kind) in own {
        assert_eq!(
            takers(&text),
            [kind.name],
            "{}",
            String::from_utf8_lossy(&text)
        );
    }
    let json = format!("{}\n", report::openings_json(&game, &start, &list, 0.0));
    assert_eq!(takers(json.as_bytes()), [REPORT.name]);
    let mut text = Vec::new();
    kalah_analysis::openings::write_text(&game, &start, &list, 0.0, &mut text).unwrap();
    assert_eq!(takers(&text), [REPORT.name]);
}

#[test]
fn a_match_s_games_are_taken_by_their_kind_only() {
    // The keys `kalah match --games` writes for each game (bin/kalah/match.rs).
    let line = br#"{"adjudicated":false,"game":0,"moves":["3-6","9"],"north":"store","opening":"4,4,4,4,4,4,0,4,4,4,4,4,4,0:S","opening_moves":[],"player1_is":"south","player1_points":1.0,"rules":"Kalah(6,4)","score":8,"south":"fitted","values":[null]}
"#;
    assert_eq!(takers(line), [GAMES.name]);
}

#[test]
fn a_file_of_none_of_the_kinds_is_taken_by_none() {
    for text in [
        &b"precious\n"[..],
        b"{}\n",
        b"[1,2]\n",
        b"\x00\x01",
        b"rules\n",
    ] {
        assert!(takers(text).is_empty(), "{}", String::from_utf8_lossy(text));
    }
}
