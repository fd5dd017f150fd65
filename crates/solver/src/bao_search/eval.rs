//! The Bao search's heuristic evaluation, for the side to move, in points (100 points a
//! seed of material). It is a guess, never a proof: the search labels what it proves.
//!
//! Terms (each the mover's minus the opponent's unless said):
//! - material: the seeds in one's own 16 pits (seeds only change sides by capture, and a
//!   player with no seed in the front row has lost);
//! - occupied front pits: a front row with few occupied pits is close to being emptied;
//! - mobility: pits with 2 or more seeds (only those can be lifted, R3.1);
//! - the mover's capture threats: a lifted pit whose first sowing would end, counting
//!   seeds along the loop, in an occupied front pit facing an occupied one (the mover
//!   plays first, so only the mover's threats count).

use kalah_core::bao::BaoPosition;

use super::score::EVAL_LIMIT;

/// Points for one seed of material.
const SEED: i32 = 100;
/// Points for one occupied front pit.
const FRONT_PIT: i32 = 30;
/// Points for one pit that can be lifted.
const MOBILE_PIT: i32 = 10;
/// Points for one capture threat of the mover.
const THREAT: i32 = 25;

/// The evaluation of `pos` for its side to move.
pub(crate) fn evaluate(pos: &BaoPosition) -> i32 {
    let n = pos.pits();
    let me = pos.loop_counts(pos.side());
    let them = pos.loop_counts(pos.side().other());
    let material = sum(me) - sum(them);
    let front = occupied(&me[..n]) - occupied(&them[..n]);
    let mobile = liftable(me) - liftable(them);
    let score =
        SEED * material + FRONT_PIT * front + MOBILE_PIT * mobile + THREAT * threats(me, them, n);
    score.clamp(-EVAL_LIMIT, EVAL_LIMIT)
}

fn sum(pits: &[u8]) -> i32 {
    pits.iter().map(|&c| c as i32).sum()
}

fn occupied(pits: &[u8]) -> i32 {
    pits.iter().filter(|&&c| c > 0).count() as i32
}

fn liftable(pits: &[u8]) -> i32 {
    pits.iter().filter(|&&c| c >= 2).count() as i32
}

/// The mover's lifts (pit and direction) whose seeds, counted along the loop, end in an
/// occupied front pit facing an occupied front pit of the opponent (front pit k faces
/// the opponent's pit N+1-k, R1.3).
fn threats(me: &[u8], them: &[u8], n: usize) -> i32 {
    let len = 2 * n;
    let mut count = 0;
    for (from, &c) in me.iter().enumerate() {
        if c < 2 {
            continue;
        }
        let c = c as usize % len;
        for to in [(from + c) % len, (from + len - c) % len] {
            if to < n && to != from && me[to] > 0 && them[n - 1 - to] > 0 {
                count += 1;
            }
        }
    }
    count
}

#[cfg(test)]
mod tests {
    use super::*;
    use kalah_core::bao::BaoRules;

    #[test]
    fn start_is_level_but_for_the_movers_threats() {
        let start = BaoRules::standard().start();
        let e = evaluate(&start);
        assert_eq!(e % THREAT, 0);
        assert!(e >= 0);
    }

    #[test]
    fn material_counts_for_the_mover() {
        let pos: BaoPosition = "0,0,0/1,1,1/1,1,1/3,3,3:S".parse().unwrap();
        assert!(evaluate(&pos) > 0);
        assert!(evaluate(&pos.with_side(kalah_core::Side::North)) < 0);
    }
}
