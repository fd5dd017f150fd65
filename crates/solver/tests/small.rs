//! Progress of the cyclic analysis: it sends progress ticks ([`ReportKind::Tick`]) during
//! long depths, as the acyclic analysis does.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use kalah_core::{Game, Rules};
use kalah_solver::cyclic_search::analyse_cyclic;
use kalah_solver::{Analysis, Evaluation, Limits, ReportKind};

/// Oware(6,4) and Ethiopian(6,4) from the start for 2 s: ticks come between the depths,
/// each repeating the last completed depth's line and interval with the nodes and the
/// time as they stand; the nodes and times never go back, and every interval holds the
/// final one.
#[test]
fn cyclic_analysis_ticks_during_long_depths() {
    for rules in [Rules::oware(6, 4), Rules::ethiopian(6, 4)] {
        let game = Game::new(rules).unwrap();
        let mut reports: Vec<Analysis> = Vec::new();
        let a = analyse_cyclic(
            &game,
            Evaluation::default(),
            &game.start(),
            &Limits::time(Duration::from_secs(2)),
            &AtomicBool::new(false),
            &mut |a| reports.push(a.clone()),
        )
        .unwrap();
        let what = format!("{rules:?}");
        let ticks: Vec<&Analysis> = reports
            .iter()
            .filter(|r| r.report == ReportKind::Tick)
            .collect();
        assert!(!ticks.is_empty(), "{what}: no tick in 2 s");
        for w in reports.windows(2) {
            assert!(w[0].nodes <= w[1].nodes, "{what}: nodes went back");
            assert!(w[0].elapsed <= w[1].elapsed, "{what}: time went back");
            if w[1].report == ReportKind::Tick {
                // A tick repeats what the report before it said, nodes and time aside.
                assert_eq!(w[1].depth, w[0].depth, "{what}");
                assert_eq!(w[1].pv, w[0].pv, "{what}");
                assert_eq!(
                    (w[1].proven.lower, w[1].proven.upper),
                    (w[0].proven.lower, w[0].proven.upper),
                    "{what}"
                );
                assert_eq!(w[1].eval, w[0].eval, "{what}");
            }
        }
        for r in &reports {
            assert!(
                r.proven.lower <= a.proven.lower && a.proven.upper <= r.proven.upper,
                "{what}: interval"
            );
            assert!(r.elapsed <= a.elapsed, "{what}: a report after the answer");
        }
        assert!(
            ticks.iter().all(|t| t.nodes > 0),
            "{what}: a tick without nodes"
        );
    }
}
