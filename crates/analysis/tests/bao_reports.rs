//! Bao's reports of two tasks over one solved game graph: `kalah openings --rules bao`
//! lists the same moves and the same best move as `kalah solve --rules bao`.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use kalah_analysis::analyse::bao::solve_report;
use kalah_analysis::openings::report::openings_report;
use kalah_core::bao::{BaoPosition, BaoRules};

#[test]
fn the_openings_report_holds_the_solve_report_s_moves() {
    // A small position of Bao(4,2) whose graph solves at once (a draw).
    let rules = BaoRules::new(4, 2).unwrap();
    let pos: BaoPosition = "2,1,0,1/1,0,0,0/0,0,0,1/2,1,1,0:S".parse().unwrap();
    let never = AtomicBool::new(false);
    let graph = kalah_solver::bao::solve_position(&pos, 1 << 20, &never, &mut |_| {}).unwrap();
    let r = solve_report(&rules, &pos, &graph, Duration::from_millis(250));
    let o = openings_report(&rules, &pos, &graph);
    assert_eq!(
        (&o["turns"], &o["best_turn"]),
        (&r["turns"], &r["best_turn"])
    );
}
