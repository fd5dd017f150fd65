//! An analysis stopped during one long expansion: a Bao move whose relay runs for millions
//! of sowings (R7.3's never-ending test) must not keep a cancelled analysis running, and
//! what it returns then claims nothing.

use std::sync::atomic::AtomicBool;

use kalah_core::bao::BaoPosition;
use kalah_solver::bao_search;
use kalah_solver::Limits;

/// A 4×8 position one of whose moves relays for seconds of one thread before it is found
/// to end or to never end.
const LONG: &str = "1,2,3,2,1,2,1,2/2,3,4,1,11,10,9,1/0,1,0,0,0,0,0,1/1,0,1,0,0,2,1,2:N";

#[test]
fn a_cancel_during_the_roots_long_expansion_returns_a_claimless_answer() {
    let pos: BaoPosition = LONG.parse().unwrap();
    // Set before the call: the root's expansion plays the short moves without looking
    // (kalah-core's bao_stop), so the flag is first read inside the long move, which must
    // stop there rather than play on for seconds and give the root's moves.
    let cancel = AtomicBool::new(true);
    let report = bao_search::analyse(&pos, &Limits::default(), &cancel, &mut |_| {});
    assert_eq!(report.depth, 0);
    assert_eq!(report.nodes, 0, "nothing searched");
    assert_eq!(report.proven, None, "nothing searched, nothing proven");
    assert!(report.best_turn().is_none() && report.pv.is_empty() && report.turns.is_empty());
}
