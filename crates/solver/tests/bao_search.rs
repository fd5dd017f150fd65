//! The Bao anytime search (`kalah_solver::bao_search`): every proven win or loss agrees with
//! a deliberately simple depth-limited minimax over `legal()`, the best move is legal, the
//! limits are honoured and the cancel flag stops it.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use kalah_core::bao::{BaoMove, BaoPosition, BaoRules};
use kalah_core::Side;
use kalah_solver::bao_search::{analyse, Outcome};
use kalah_solver::Analysis;
use kalah_solver::Limits;

/// The reference: `Some(true)` if the mover can force a win within `depth` moves,
/// `Some(false)` if the opponent can, `None` if neither is decided within `depth`. A
/// position whose front row is empty is lost; one with no legal move is lost when at least
/// one move may still be searched (as in the engine).
fn reference(pos: &BaoPosition, depth: u32) -> Option<bool> {
    if pos.is_over() {
        return Some(false);
    }
    if depth == 0 {
        return None;
    }
    let legal = pos.legal();
    let mut all_lost = true;
    for child in legal.iter() {
        if child.wins {
            return Some(true);
        }
        match reference(&child.next, depth - 1) {
            Some(false) => return Some(true),
            Some(true) => {}
            None => all_lost = false,
        }
    }
    if all_lost {
        Some(false)
    } else {
        None
    }
}

/// A small deterministic generator (xorshift) for random playouts.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// Random positions of a board: its start, positions reached from it by random moves, and
/// random deals of its 4NS seeds (boards with one seed a pit have no move at the start).
fn positions(rules: BaoRules, count: usize, seed: u64) -> Vec<BaoPosition> {
    let mut rng = Rng(seed);
    let mut out = vec![rules.start()];
    while out.len() < count {
        let mut pos = if out.len() % 2 == 0 {
            rules.start()
        } else {
            deal(rules, &mut rng)
        };
        for _ in 0..rng.below(10) {
            let legal = pos.legal();
            if legal.is_empty() {
                break;
            }
            pos = legal.iter().nth(rng.below(legal.len())).unwrap().next;
        }
        if !pos.is_over() {
            out.push(pos);
        }
    }
    out
}

/// The board's seeds dealt into random pits, a random side to move.
fn deal(rules: BaoRules, rng: &mut Rng) -> BaoPosition {
    let n = rules.pits();
    let mut rows = vec![vec![0u8; n]; 4];
    for _ in 0..4 * n * rules.seeds() {
        rows[rng.below(4)][rng.below(n)] += 1;
    }
    let side = [Side::South, Side::North][rng.below(2)];
    BaoPosition::from_rows([&rows[0], &rows[1], &rows[2], &rows[3]], side).unwrap()
}

fn run(pos: &BaoPosition, limits: Limits) -> Analysis<BaoMove> {
    analyse(pos, &limits, &AtomicBool::new(false), &mut |_| {})
}

/// Checks one analysis to `depth` of `pos` against the reference, both ways, and every
/// proven root move. A claim of K moves counts the moves to a position that is lost for
/// its mover, which the reference sees when one more move may be searched there (it
/// looks for legal moves only where it may play one).
fn check_against_reference(pos: &BaoPosition, depth: u32) -> bool {
    let a = run(pos, Limits::depth(depth as u8));
    assert!(
        a.depth as u32 <= depth,
        "{pos}: depth {} over {depth}",
        a.depth
    );
    match a.proven {
        Some(Outcome::Won { moves }) => {
            assert_eq!(reference(pos, moves + 1), Some(true), "{pos}")
        }
        Some(Outcome::Lost { moves }) => {
            assert_eq!(reference(pos, moves + 1), Some(false), "{pos}")
        }
        None => {}
    }
    let want = reference(pos, depth);
    let got = a.proven.map(|o| matches!(o, Outcome::Won { .. }));
    assert_eq!(got, want, "{pos} to depth {depth}: {:?}", a.proven);
    for t in &a.turns {
        let (next, wins) = pos.try_play(t.turn).expect("root move legal");
        match t.proven {
            Some(Outcome::Won { moves }) => {
                assert!(
                    wins || reference(&next, moves) == Some(false),
                    "{pos} {}",
                    t.turn
                )
            }
            Some(Outcome::Lost { moves }) => {
                assert_eq!(reference(&next, moves), Some(true), "{pos} {}", t.turn)
            }
            None => {}
        }
    }
    a.proven.is_some()
}

#[test]
fn proven_wins_and_losses_agree_with_plain_minimax_on_small_boards() {
    let mut proofs = 0;
    for (n, s, depth, count) in [(3, 1, 7, 120), (3, 2, 5, 120), (4, 1, 6, 120)] {
        let rules = BaoRules::new(n, s).unwrap();
        for (i, pos) in positions(rules, count, 0x9e37 + n as u64 * 31 + s as u64)
            .iter()
            .enumerate()
        {
            let d = 1 + i as u32 % depth;
            proofs += check_against_reference(pos, d) as u32;
        }
    }
    // The comparison must have seen proofs, not only undecided positions.
    assert!(proofs >= 30, "only {proofs} proofs");
}

#[test]
fn a_move_that_empties_the_front_row_is_a_win_in_one() {
    let rules = BaoRules::new(3, 1).unwrap();
    for pos in positions(rules, 200, 7) {
        if pos.legal().iter().any(|c| c.wins) {
            let a = run(&pos, Limits::depth(3));
            assert_eq!(a.proven, Some(Outcome::Won { moves: 1 }), "{pos}");
            let (_, wins) = pos.try_play(a.best_turn().copied().unwrap()).unwrap();
            assert!(wins, "{pos}");
            return;
        }
    }
    panic!("no position with a winning move found");
}

#[test]
fn game_over_and_no_move_are_proven_losses() {
    // North's front row is empty: North, to move, has lost.
    let over: BaoPosition = "1,1,1/0,0,0/1,1,1/1,1,1:N".parse().unwrap();
    let a = run(&over, Limits::depth(5));
    assert_eq!(a.proven, Some(Outcome::Lost { moves: 0 }));
    assert_eq!(a.best_turn(), None);
    // Only singletons: South has no legal move (R7.4).
    let stuck: BaoPosition = "1,1,1/1,1,1/1,1,1/1,1,1:S".parse().unwrap();
    assert!(stuck.legal().is_empty());
    assert_eq!(
        run(&stuck, Limits::depth(5)).proven,
        Some(Outcome::Lost { moves: 0 })
    );
}

#[test]
fn best_move_and_line_are_legal_on_the_full_board() {
    let start = BaoRules::standard().start();
    let a = run(&start, Limits::depth(4));
    assert_eq!(a.depth, 4);
    let best = a.best_turn().copied().expect("a best move");
    assert!(start.legal().moves().any(|m| m == best));
    assert_eq!(a.pv.first(), Some(&best));
    let mut pos = start;
    for mv in &a.pv {
        pos = pos.try_play(*mv).expect("the line replays").0;
    }
    assert_eq!(a.turns.len(), start.legal().len());
    assert_eq!(a.proven, None, "nothing is decided 4 moves from the start");
}

#[test]
fn depth_node_and_time_limits_are_honoured() {
    let start = BaoRules::standard().start();
    let mut depths = Vec::new();
    let a = analyse(
        &start,
        &Limits::depth(3),
        &AtomicBool::new(false),
        &mut |p| depths.push(p.depth),
    );
    assert_eq!(depths, vec![1, 2, 3]);
    assert_eq!(a.depth, 3);
    let a = run(&start, Limits::nodes(500));
    assert!(a.nodes <= 500, "{} nodes", a.nodes);
    assert!(a.best_turn().is_some());
    // The time limit beside a node cap and a depth cap that 200 ms cannot reach (seconds
    // of search): an analysis that ignored its time would stop at one of those instead.
    const NODE_CAP: u64 = 50_000_000;
    let a = run(
        &start,
        Limits {
            nodes: Some(NODE_CAP),
            ..Limits::time(Duration::from_millis(200))
        },
    );
    assert!(
        a.nodes < NODE_CAP,
        "stopped by its nodes, not its time: {a:?}"
    );
    assert!(
        a.depth >= 1 && a.depth < Limits::MAX_DEPTH,
        "depth {}",
        a.depth
    );
}

#[test]
fn cancel_stops_the_analysis() {
    let start = BaoRules::standard().start();
    let cancel = AtomicBool::new(true);
    let a = analyse(&start, &Limits::none(), &cancel, &mut |_| {});
    assert_eq!(a.depth, 0);
    assert!(start.legal().moves().any(|m| Some(&m) == a.best_turn()));
    let cancel = AtomicBool::new(false);
    let a = analyse(&start, &Limits::none(), &cancel, &mut |p| {
        if p.depth == 2 {
            cancel.store(true, Ordering::Relaxed);
        }
    });
    assert_eq!(a.depth, 2);
}

/// Plays one game on the standard board: the search (to `depth` moves) against a player
/// that moves at random; `Some(true)` if the search won, `None` if `max_moves` passed.
fn game_against_random(search_side: Side, depth: u8, seed: u64, max_moves: usize) -> Option<bool> {
    let mut rng = Rng(seed);
    let mut pos = BaoRules::standard().start();
    for _ in 0..max_moves {
        let legal = pos.legal();
        if pos.is_over() || legal.is_empty() {
            return Some(pos.side() != search_side);
        }
        let mv = if pos.side() == search_side {
            *run(&pos, Limits::depth(depth)).best_turn().unwrap()
        } else {
            legal.iter().nth(rng.below(legal.len())).unwrap().mv
        };
        pos = pos.try_play(mv).unwrap().0;
    }
    None
}

#[test]
fn search_beats_random_play() {
    let mut wins = 0;
    for game in 0..6u64 {
        let side = [Side::South, Side::North][game as usize % 2];
        wins += (game_against_random(side, 3, 0x5eed + game, 400) == Some(true)) as u32;
    }
    assert_eq!(
        wins, 6,
        "the depth-3 search won {wins} of 6 games against random moves"
    );
}
