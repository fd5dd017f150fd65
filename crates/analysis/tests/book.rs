//! The opening book: its text read back as written, a book of other rules or a damaged
//! line refused with the reason (never a panic), a small book built without limits whose
//! every entry is the exact solver's value, the partial file a build resumes from, the
//! books compiled in, and the engine answering a `go` from the book.

use std::io::Write;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};

use kalah_analysis::book::build::{self, Partial};
use kalah_analysis::book::{format, Book, BookError, Entry};
use kalah_analysis::protocol::session::{Out, Session, SolverFactory};
use kalah_core::{Capture, Game, Rules};
use kalah_solver::{Config, Limits, Solver};

fn solver(game: &Game) -> Solver {
    let config = Config {
        threads: 1,
        hash_mb: 4,
        ..Config::default()
    };
    Solver::new(game.clone(), config).unwrap()
}

/// The book of `rules` to `turns` turns, every position solved exactly.
fn exact_book(rules: Rules, turns: u32) -> Book {
    let game = Game::new(rules).unwrap();
    let todo = build::positions(&game, &game.start(), turns);
    let entries = build::build::<kalah_analysis::AnalysisError>(
        &solver(&game),
        &todo,
        &Limits::none(),
        &Default::default(),
        &AtomicBool::new(false),
        &mut |_, _| Ok(()),
    )
    .unwrap();
    Book::new(rules, vec![("turns".into(), turns.to_string())], entries)
}

#[test]
fn a_book_built_without_limits_holds_the_exact_solvers_values() {
    for rules in [
        Rules::kalah(4, 3),
        Rules {
            capture: Capture::Empty,
            ..Rules::kalah(3, 3)
        },
    ] {
        let game = Game::new(rules).unwrap();
        let book = exact_book(rules, 3);
        let s = solver(&game);
        assert!(book.len() > 10, "{}", book.len());
        for e in book.entries() {
            assert!(e.is_exact(), "{e:?}");
            let solved = s
                .solve(&e.position, &AtomicBool::new(false), &mut |_| {})
                .unwrap();
            assert_eq!(e.eval, solved.value_from_south(), "{}", e.position);
            // The best turn keeps the value.
            let (after, _) = kalah_core::notation::play_moves(
                &game,
                e.position,
                &e.best_turn.notation(game.houses()),
            )
            .unwrap();
            let after_value = match after.is_over() {
                true => after.score(),
                false => s
                    .solve(&after, &AtomicBool::new(false), &mut |_| {})
                    .unwrap()
                    .value_from_south(),
            };
            assert_eq!(after_value, e.eval, "{}", e.position);
        }
    }
}

#[test]
fn positions_are_those_of_the_first_turns_each_once() {
    let game = Game::new(Rules::kalah(4, 3)).unwrap();
    let start = game.start();
    assert_eq!(build::positions(&game, &start, 1), vec![start]);
    let two = build::positions(&game, &start, 2);
    let firsts = kalah_analysis::first_steps(&game, &start, kalah_analysis::Offer::AfterTurn);
    let mut after: Vec<_> = firsts
        .iter()
        .map(|s| s.after)
        .filter(|p| !p.is_over())
        .collect();
    after.sort_by_key(|p| p.to_string());
    after.dedup();
    assert_eq!(two.len(), 1 + after.len());
    let three = build::positions(&game, &start, 3);
    let mut distinct: Vec<String> = three.iter().map(|p| p.to_string()).collect();
    distinct.sort();
    distinct.dedup();
    assert_eq!(distinct.len(), three.len(), "each position once");
    assert!(three.len() > two.len());
}

#[test]
fn a_book_reads_back_as_written() {
    let rules = Rules::kalah(4, 3);
    let book = exact_book(rules, 2);
    let text = format::write(&book);
    let read = format::read(&text, Some(&rules)).unwrap();
    assert_eq!(read.entries(), book.entries());
    assert_eq!(read.rules(), &rules);
    assert_eq!(read.about("turns"), Some("2"));
    assert_eq!(format::write(&read), text);
    // A heuristic entry too: its interval and its word.
    let game = Game::new(rules).unwrap();
    let mut e = book.entries()[0].clone();
    (e.eval, e.lower, e.upper, e.depth) = (3, -2, 7, 9);
    let line = format::entry_line(game.houses(), &e);
    assert!(line.ends_with(" +3 -2 +7 heuristic 9"), "{line}");
    assert_eq!(format::parse_entry(&game, &line).unwrap(), e);
}

#[test]
fn a_book_of_other_rules_or_a_bad_line_is_refused_with_the_reason() {
    let rules = Rules::kalah(4, 3);
    let text = format::write(&exact_book(rules, 2));
    let empty = Rules {
        capture: Capture::Empty,
        ..rules
    };
    match format::read(&text, Some(&empty)) {
        Err(e @ BookError::OtherRules { .. }) => {
            let msg = e.to_string();
            assert!(
                msg.contains("capture=standard") && msg.contains("capture=empty"),
                "{msg}"
            );
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(
        format::read("hello\n", None).unwrap_err(),
        BookError::NotABook
    );
    assert_eq!(format::read("", None).unwrap_err(), BookError::NotABook);
    let first_entry = text.lines().position(|l| !l.starts_with('#')).unwrap();
    let bad = |replace: &dyn Fn(&str) -> String| -> String {
        let lines: Vec<String> = text
            .lines()
            .enumerate()
            .map(|(k, l)| {
                if k == first_entry {
                    replace(l)
                } else {
                    l.to_string()
                }
            })
            .collect();
        let err = format::read(&(lines.join("\n") + "\n"), Some(&rules)).unwrap_err();
        assert!(
            matches!(err, BookError::Line { line, .. } if line == first_entry + 1),
            "{err:?}"
        );
        err.to_string()
    };
    let fields = |l: &str| l.split(' ').map(str::to_string).collect::<Vec<_>>();
    let with = |k: usize, v: &'static str| {
        move |l: &str| {
            let mut f = fields(l);
            f[k] = v.to_string();
            f.join(" ")
        }
    };
    assert!(bad(&with(1, "9")).contains("best turn"));
    assert!(bad(&with(0, "1,2,3:S")).contains("position"));
    assert!(bad(&with(2, "x")).contains("eval"));
    assert!(bad(&with(2, "+99")).contains("outside the proven interval"));
    assert!(bad(&with(5, "heuristic")).contains("does not fit the interval"));
    assert!(bad(&with(5, "maybe")).contains("`exact` or `heuristic`"));
    assert!(bad(&with(6, "999")).contains("depth"));
    assert!(bad(&|l: &str| l.rsplit_once(' ').unwrap().0.to_string()).contains("7 fields"));
    // The same position twice.
    let line = text.lines().nth(first_entry).unwrap();
    let twice = text.replacen(line, &format!("{line}\n{line}"), 1);
    let err = format::read(&twice, Some(&rules)).unwrap_err().to_string();
    assert!(err.contains("twice"), "{err}");
    // No rules line.
    let headless: String = text
        .lines()
        .filter(|l| !l.starts_with("# rules"))
        .map(|l| format!("{l}\n"))
        .collect();
    assert!(matches!(
        format::read(&headless, None),
        Err(BookError::Rules(_))
    ));
    // A turn cut short (its last sowing earns another) is not a whole turn.
    let game = Game::new(rules).unwrap();
    let start = game.start();
    let line = format!("{start} 2 0 -24 +24 heuristic 1");
    let err = format::parse_entry(&game, &line).unwrap_err();
    assert!(err.contains("not a whole turn"), "{err}");
}

#[test]
fn a_partial_file_keeps_whole_entries_and_refuses_another_build() {
    let rules = Rules::kalah(4, 3);
    let game = Game::new(rules).unwrap();
    let book = exact_book(rules, 2);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("book.txt.partial");
    let header = build::partial_header(&rules, &game.start(), 2, "none");
    let kept: Vec<&Entry> = book.entries().iter().take(3).collect();
    let mut partial = Partial::start(&path, &header, game.houses(), &kept[..2]).unwrap();
    partial.add(kept[2]).unwrap();
    drop(partial);
    // A kill in the middle of a record: the cut line is left out.
    let mut f = std::fs::OpenOptions::new()
        .append(true)
        .open(&path)
        .unwrap();
    f.write_all(b"4,4,4").unwrap();
    drop(f);
    let loaded = build::load_partial(&game, &path, &header).unwrap();
    assert_eq!(loaded.entries.len(), 3);
    assert_eq!(loaded.damaged, 0);
    for e in &kept {
        assert_eq!(loaded.entries.get(&e.position), Some(*e));
    }
    // A damaged record is counted, not trusted.
    let text = std::fs::read_to_string(&path).unwrap();
    let damaged = text.replacen("exact", "exakt", 1);
    std::fs::write(&path, damaged).unwrap();
    let loaded = build::load_partial(&game, &path, &header).unwrap();
    assert_eq!((loaded.entries.len(), loaded.damaged), (2, 1));
    // Another build's file is refused, saying what differs.
    let other = build::partial_header(&rules, &game.start(), 3, "none");
    let err = build::load_partial(&game, &path, &other)
        .unwrap_err()
        .to_string();
    assert!(err.contains("turns: 3 here, 2 in the file"), "{err}");
    // Not a partial file at all.
    std::fs::write(&path, "something else\n").unwrap();
    assert!(build::load_partial(&game, &path, &header).is_err());
    // A build that goes on skips what was kept.
    let todo = build::positions(&game, &game.start(), 2);
    let kept_map = std::collections::HashMap::from([(kept[0].position, kept[0].clone())]);
    let mut fresh = 0;
    let entries = build::build::<kalah_analysis::AnalysisError>(
        &solver(&game),
        &todo,
        &Limits::none(),
        &kept_map,
        &AtomicBool::new(false),
        &mut |_, was_kept| {
            fresh += usize::from(!was_kept);
            Ok(())
        },
    )
    .unwrap();
    assert_eq!(entries.len(), todo.len());
    assert_eq!(fresh, todo.len() - 1);
}

#[test]
fn a_build_stopped_by_its_cancel_flag_keeps_nothing_half_done() {
    let game = Game::new(Rules::kalah(4, 3)).unwrap();
    let todo = build::positions(&game, &game.start(), 2);
    let result = build::build::<kalah_analysis::AnalysisError>(
        &solver(&game),
        &todo,
        &Limits::none(),
        &Default::default(),
        &AtomicBool::new(true),
        &mut |_, _| panic!("no entry from a cancelled analysis"),
    );
    assert!(matches!(
        result,
        Err(kalah_analysis::AnalysisError::Cancelled)
    ));
}

#[test]
fn the_compiled_in_books_read_and_are_of_their_rules() {
    for (houses, seeds) in [(6, 6), (6, 5)] {
        for capture in [Capture::Standard, Capture::Empty] {
            let rules = Rules {
                capture,
                ..Rules::kalah(houses, seeds)
            };
            let book = Book::shipped(&rules)
                .unwrap()
                .expect("a book for these rules");
            assert_eq!(book.rules(), &rules);
            let game = Game::new(rules).unwrap();
            for e in book.entries() {
                assert!(e.lower <= e.eval && e.eval <= e.upper, "{e:?}");
                // Every position is one of the first turns of the game.
                assert!(e.position.total_seeds() as usize == game.capacity());
            }
        }
    }
    assert!(Book::shipped(&Rules::kalah(4, 3)).unwrap().is_none());
}

/// A session writing into a buffer, with `book` as its book.
fn session(book: Option<Book>) -> (Session, Arc<Mutex<Vec<u8>>>) {
    let factory: SolverFactory = Box::new(|game: &Game| Ok(solver(game)));
    let buffer = Arc::new(Mutex::new(Vec::new()));
    let out: Out = buffer.clone();
    let mut s = Session::new(factory, out, Vec::new());
    if let Some(book) = book {
        let book = Arc::new(book);
        s = s.with_books(Box::new(move |rules: &Rules| {
            (book.rules() == rules).then(|| book.clone())
        }));
    }
    (s, buffer)
}

/// The lines written since the last call.
fn take(buffer: &Arc<Mutex<Vec<u8>>>) -> Vec<String> {
    let bytes = std::mem::take(&mut *buffer.lock().unwrap());
    String::from_utf8(bytes)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

#[test]
fn the_engine_answers_a_go_from_the_book_and_says_so() {
    let rules = Rules::kalah(4, 3);
    let book = exact_book(rules, 2);
    let game = Game::new(rules).unwrap();
    let start = book.lookup(&game.start()).unwrap().clone();
    let (mut s, out) = session(Some(book));
    s.handle_line("rules --houses 4 --seeds 3").unwrap();
    s.handle_line("go time 5").unwrap();
    s.finish();
    let lines = take(&out);
    assert_eq!(
        lines,
        vec![
            start.info_line(4),
            format!("bestmove {}", start.best_turn.notation(4))
        ]
    );
    assert!(lines[0].starts_with("info book depth "), "{lines:?}");
    assert!(lines[0].contains(" exact yes "), "{lines:?}");
    // A go without limits asks for the exact value: searched, not looked up.
    s.handle_line("go").unwrap();
    s.finish();
    let lines = take(&out);
    assert!(lines[0].starts_with("info depth 0 "), "{lines:?}");
    // Out of the book: searched.
    s.handle_line("position start moves 1 6 2").unwrap();
    s.handle_line("go depth 3").unwrap();
    s.finish();
    let lines = take(&out);
    assert!(
        lines.iter().all(|l| !l.starts_with("info book")),
        "{lines:?}"
    );
    // Without a book: searched.
    let (mut s, out) = session(None);
    s.handle_line("rules --houses 4 --seeds 3").unwrap();
    s.handle_line("go depth 3").unwrap();
    s.finish();
    let lines = take(&out);
    assert!(lines[0].starts_with("info depth 0 "), "{lines:?}");
    assert!(lines.last().unwrap().starts_with("bestmove "), "{lines:?}");
}

#[test]
fn the_pie_decision_is_proven_only_where_the_interval_lies_on_one_side_of_zero() {
    let game = Game::new(Rules::kalah(4, 3)).unwrap();
    let start = game.start();
    let step =
        kalah_analysis::first_steps(&game, &start, kalah_analysis::Offer::AfterTurn).remove(0);
    let turn = |eval, lower, upper| kalah_analysis::book::BookTurn {
        step: step.clone(),
        eval,
        lower,
        upper,
        depth: 9,
        claim: None,
    };
    // South made the turn: North swaps when it is worth more than 0 to South.
    let (d, proven) = turn(3, 1, 8).pie();
    assert!(d.swap && proven);
    assert_eq!(d.first_player, -3);
    let (d, proven) = turn(3, -2, 8).pie();
    assert!(d.swap && !proven, "heuristic: the value may be 0 or less");
    let (d, proven) = turn(-1, -5, 0).pie();
    assert!(!d.swap && proven, "a tie keeps the sides");
    let (d, proven) = turn(0, 0, 0).pie();
    assert!(!d.swap && proven);
}

#[test]
fn every_first_turn_from_the_book_best_first_or_none_where_one_is_missing() {
    let rules = Rules::kalah(4, 3);
    let game = Game::new(rules).unwrap();
    let book = exact_book(rules, 2);
    let turns = book.first_turns(&game, &game.start()).unwrap();
    let steps = kalah_analysis::first_steps(&game, &game.start(), kalah_analysis::Offer::AfterTurn);
    assert_eq!(turns.len(), steps.len());
    assert!(
        turns.windows(2).all(|w| w[0].eval >= w[1].eval),
        "South: best first"
    );
    assert_eq!(turns[0].eval, book.lookup(&game.start()).unwrap().eval);
    // A book of the start alone holds none of the positions after it.
    let start_only = exact_book(rules, 1);
    assert!(start_only.first_turns(&game, &game.start()).is_none());
}

#[test]
fn the_reader_refuses_a_doubled_sign_a_finished_game_and_values_beyond_the_seeds() {
    let game = Game::new(Rules::kalah(4, 3)).unwrap();
    let start = game.start();
    let err = format::parse_entry(&game, &format!("{start} 2-3 ++6 +6 +6 exact 0")).unwrap_err();
    assert!(err.contains("`++6` is not a whole number"), "{err}");
    let err = format::parse_entry(&game, &format!("{start} 2-3 +6 +-6 +6 heuristic 0"));
    assert!(err.unwrap_err().contains("not a whole number"));
    let err =
        format::parse_entry(&game, &format!("{start} 2-3 +999 +999 +999 exact 0")).unwrap_err();
    assert!(err.contains("beyond what the seeds"), "{err}");
    let err =
        format::parse_entry(&game, &format!("{start} 2-3 +6 -25 +6 heuristic 0")).unwrap_err();
    assert!(err.contains("-24..+24"), "{err}");
    // South's row is empty: over under end=row-empty though seeds are left in North's.
    let err = format::parse_entry(&game, "0,0,0,0,9,3,3,3,3,3:S 1 +6 +6 +6 exact 0").unwrap_err();
    assert!(err.contains("is over under the book's rules"), "{err}");
    assert_eq!(
        format::parse_entry(&game, &format!("{start} 2-3 +6 +6 +6 exact 0"))
            .unwrap()
            .eval,
        6
    );
}

#[test]
fn the_header_must_fit_the_entries() {
    let rules = Rules::kalah(4, 3);
    let game = Game::new(rules).unwrap();
    let book = exact_book(rules, 2);
    let entries: String = book
        .entries()
        .iter()
        .map(|e| format::entry_line(4, e) + "\n")
        .collect();
    let n = book.len();
    let text = |start: &str, turns: &str, positions: &str| {
        format!(
            "{}\n# rules {rules}\n# start {start}\n# turns {turns}\n# positions {positions}\n{entries}",
            format::MAGIC
        )
    };
    let start = game.start().to_string();
    let good = text(&start, "2", &format!("{n} ({n} exact)"));
    assert_eq!(format::read(&good, Some(&rules)).unwrap().len(), n);
    let refused = |t: String| format::read(&t, Some(&rules)).unwrap_err().to_string();
    let err = refused(text(&start, "2", &format!("{} ({n} exact)", n + 1)));
    assert!(err.contains(&format!("holds {n} entries")), "{err}");
    let err = refused(text(&start, "2", &format!("{n} (0 exact)")));
    assert!(
        err.contains(&format!("{n} of its entries are exact")),
        "{err}"
    );
    let err = refused(text(&start, "9", &format!("{n} ({n} exact)")));
    assert!(err.contains("`turns 9`"), "{err}");
    // Entries after the first turn lie beyond a book of one turn.
    let err = format::read(
        &text(&start, "1", &format!("{n} ({n} exact)")),
        Some(&rules),
    )
    .unwrap_err();
    assert!(
        matches!(&err, BookError::Line { why, .. } if why.contains("not reached from the book's start")),
        "{err}"
    );
    let other = book.entries()[1].position.to_string();
    let err = refused(text(&other, "2", &format!("{n} ({n} exact)")));
    assert!(
        err.contains("not reached") || err.contains("not one of"),
        "{err}"
    );
    let err = refused(text(
        "3,3,3,3,0,3,3,3,3,0:N",
        "2",
        &format!("{n} ({n} exact)"),
    ));
    assert!(err.contains("not one of the book's positions"), "{err}");
    let err = refused(text(
        "0,0,0,0,9,3,3,3,3,3:S",
        "2",
        &format!("{n} ({n} exact)"),
    ));
    assert!(err.contains("is over"), "{err}");
}

#[test]
fn a_book_file_proves_small_claims_again_and_keeps_large_ones_as_claims() {
    let dir = tempfile::tempdir().unwrap();
    // Kalah(4,3): every entry is proved again; a wrong one is refused naming its line.
    let rules = Rules::kalah(4, 3);
    let text = format::write(&exact_book(rules, 2));
    let path = dir.path().join("small.txt");
    std::fs::write(&path, &text).unwrap();
    let book = Book::read_file(&path, Some(&rules)).unwrap();
    assert!(book
        .entries()
        .iter()
        .all(|e| e.claim.is_none() && e.is_exact()));
    let start_line = text
        .lines()
        .position(|l| l.starts_with("3,3,3,3,0,3,3,3,3,0:S"))
        .unwrap();
    let forged = text.replace(
        text.lines().nth(start_line).unwrap(),
        "3,3,3,3,0,3,3,3,3,0:S 1 -4 -4 -4 exact 0",
    );
    std::fs::write(&path, &forged).unwrap();
    let err = Book::read_file(&path, Some(&rules)).unwrap_err();
    assert!(
        err.contains(&format!("line {}", start_line + 1))
            && err.contains("claims the exact value -4")
            && err.contains("its value is +6"),
        "{err}"
    );
    // Kalah(6,6): too large to prove on reading; a claim, never exact.
    let rules = Rules::kalah(6, 6);
    let game = Game::new(rules).unwrap();
    let start = game.start();
    let claimed = format!(
        "{}\n# rules {rules}\n{start} 1-2 +4 +4 +4 exact 21\n",
        format::MAGIC
    );
    let path = dir.path().join("large.txt");
    std::fs::write(&path, claimed).unwrap();
    let book = Book::read_file(&path, Some(&rules)).unwrap();
    let e = book.lookup(&start).unwrap();
    assert!(!e.is_exact() && e.book_exact());
    assert_eq!(e.claim, Some((4, 4)));
    assert_eq!((e.lower, e.upper), (-72, 72), "what the seeds allow");
    assert!(e.info_line(6).contains(" exact no "), "{}", e.info_line(6));
    assert!(e
        .describe()
        .contains("exact +4 from South per the book, not proven here"));
    assert!(format::entry_line(6, e).ends_with(" +4 +4 +4 exact 21"));
    // The compiled-in books keep their labels.
    let shipped = Book::shipped(&rules).unwrap().unwrap();
    assert!(shipped.entries().iter().all(|e| e.claim.is_none()));
}
