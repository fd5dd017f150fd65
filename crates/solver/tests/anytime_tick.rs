//! The progress of a long analysis ([`ReportKind::Tick`]): while a depth or an exact test
//! runs for longer than [`Analysis::TICK`], the callback still hears about every tick, with
//! the nodes, the time and the bounds as they stand; every report says why it was made.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use kalah_core::{Game, Rules};
use kalah_solver::{Analysis, Config, Database, Limits, ReportKind, Solver};

/// A board whose deeper depths each take longer than a tick.
fn large() -> (Game, Solver) {
    let game = Game::new(Rules::kalah(6, 6)).unwrap();
    let config = Config {
        threads: 1,
        hash_mb: 16,
        database: Database::None,
        ..Config::default()
    };
    let solver = Solver::new(game.clone(), config).unwrap();
    (game, solver)
}

#[test]
fn a_long_analysis_ticks_between_its_depths() {
    let (game, solver) = large();
    let pos = game.start();
    let mut reports: Vec<Analysis> = Vec::new();
    let limits = Limits::time(Duration::from_millis(2500));
    let a = solver
        .analyse_lines(&pos, &limits, 1, &AtomicBool::new(false), &mut |r| {
            reports.push(r.clone())
        })
        .unwrap();
    assert_eq!(
        a.report,
        ReportKind::Final,
        "the answer says it is the last"
    );
    assert_eq!(reports[0].report, ReportKind::Iteration);
    assert_eq!(
        reports[0].depth, 0,
        "the first report comes before any search"
    );
    let ticks: Vec<&Analysis> = reports
        .iter()
        .filter(|r| r.report == ReportKind::Tick)
        .collect();
    assert!(!ticks.is_empty(), "no tick in 2.5 s of Kalah(6,6)");
    // What the reports carry only moves forward.
    for w in reports.windows(2) {
        assert!(w[0].nodes <= w[1].nodes && w[0].elapsed <= w[1].elapsed);
        assert!(w[0].proven.lower <= w[1].proven.lower && w[1].proven.upper <= w[0].proven.upper);
    }
    // A tick comes only where the caller has heard nothing for a tick: the ticks are at
    // most one a tick of the analysis's own time, however slowly the machine runs it.
    assert!(
        Analysis::TICK * ticks.len() as u32 <= a.elapsed,
        "{} ticks in {:?}",
        ticks.len(),
        a.elapsed
    );
    // A tick repeats the deepest completed depth: its evaluation and best turn are
    // that depth's.
    for t in &ticks {
        let before = reports
            .iter()
            .rev()
            .find(|r| r.report == ReportKind::Iteration && r.elapsed <= t.elapsed)
            .unwrap();
        assert_eq!(t.depth, before.depth);
        assert_eq!(t.best_turn(), before.best_turn());
        assert!(t.proven.lower <= t.eval && t.eval <= t.proven.upper);
    }
    let depths: Vec<u8> = reports
        .iter()
        .filter(|r| r.report == ReportKind::Iteration)
        .map(|r| r.depth)
        .collect();
    assert!(depths.windows(2).all(|w| w[0] < w[1]), "{depths:?}");
}
