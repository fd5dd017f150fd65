//! The level-by-level build shared by the endgame databases ([`crate::db::egdb`] and
//! [`crate::db::stopdb`]): which boards are computed when, how their children are found and
//! ranked, and how the work is shared out between the threads. What differs between the
//! databases (where a board's entries lie, how they are valued from its children's) is an
//! [`Entries`], which the build is monomorphised over.
//!
//! **Order of computation.** A sowing never adds seeds to the houses, so every child holds
//! at most as many seeds as its parent: levels (the boards holding exactly `n` seeds) are
//! computed in increasing order, and a child on a lower level is always ready. A child on
//! the *same* level comes from a sowing that banked nothing: it stayed inside the mover's
//! own row without reaching the store and captured nothing, so its seeds only moved
//! towards the mover's store. The *distance sum* of a board (over all seeds, the distance
//! of each from the start of its row: lane `j` of a row counts `j` per seed) then strictly
//! grows, and a flip of the board does not change it. So a level is computed in decreasing
//! distance sum, one sum at a time: every child on the same level has a larger sum and is
//! ready, and the boards of one sum are independent of each other, so they are shared out
//! between the threads freely.
//!
//! **Speed.** A board is one row for each player. The rows of a level are grouped by seeds
//! and distance sum; the boards of one distance sum are the pairs of a mover's group and an
//! opponent's group whose sums add up to it. One task takes one mover's row and walks the
//! opponent's rows of its group in rank order. Most sowings leave the opponent's row
//! unchanged, and then the mover's row after the sowing is the same for the whole task:
//! its part of the child's rank is computed once ([`Kin`]), the opponent's row's part is
//! known from the group, and the children of consecutive boards of a task lie close
//! together in memory. A board whose game is already over is valued by its row sums
//! without sowing. The children of a batch of boards are sown and ranked, and their
//! entries prefetched ([`Entries::child`]), before any of their entries is read
//! ([`Entries::store`]), so the random reads into hundreds of MiB overlap; the entries
//! live on transparent huge pages to spare the TLB. The sowings work on the two rows as
//! 64-bit words (no shifts of 128-bit words).

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};

use kalah_core::{Game, Ranker, RowSowing, MAX_HOUSES};
use rayon::prelude::*;

/// What a database does with the boards of a build: it notes each child's entries (found
/// from the child's rank) in a record of the board, then values and stores the board's
/// entries from its children's.
pub(crate) trait Entries: Sync {
    /// What a board keeps of its children between [`Entries::child`] and
    /// [`Entries::store`], or its value where its own game is over.
    type Board: Copy;

    /// A board of no children, for the batch's initial contents.
    const EMPTY: Self::Board;

    /// The ranks of the database's boards.
    fn ranker(&self) -> &Ranker;

    /// Starts the record `board` of a board again, with no children.
    fn start(board: &mut Self::Board);

    /// Records in `board` a board whose game is already over, without children: `value`
    /// is the seeds the end-of-game rule gives the mover less those it gives the opponent.
    fn over(board: &mut Self::Board, value: i8);

    /// Adds to `board` (on `level`) the child that sowing `sown` leaves: `rank` is its
    /// rank (mover-first; the empty board's, 0, where the sowing ended the game).
    /// Prefetches the child's entries, which [`Entries::store`] reads next.
    fn child(&self, board: &mut Self::Board, level: usize, rank: u64, sown: &RowSowing);

    /// Values and stores the entries of the board of `rank` on `level` from its record
    /// (its children's entries are all finished, see the module's notes on the order).
    fn store(&self, level: usize, rank: u64, board: &Self::Board);
}

/// Computes level `level` of `db` (all lower levels must be complete), `BATCH` boards at
/// a time, on the rayon threads: [`Entries::store`] is called once for every board of the
/// level, in decreasing distance sum (see the module's notes). `progress(level, done,
/// total)` is called from the worker threads about a hundred times a level, and once at
/// its end.
///
/// `cancel` is polled before each task (one mover's row against a group of opponent's
/// rows): once it is raised the remaining tasks are skipped and the build returns
/// [`Cancelled`], the level left unfinished (its entries partly written, to be computed
/// again by the next build of the level).
pub(crate) fn build_level<D: Entries, const BATCH: usize>(
    db: &D,
    game: &Game,
    level: usize,
    cancel: &AtomicBool,
    progress: &(dyn Fn(usize, u64, u64) + Sync),
) -> Result<(), Cancelled> {
    let build = match game.houses() {
        6 => build_level_rows::<D, 6, BATCH>,
        1 => build_level_rows::<D, 1, BATCH>,
        2 => build_level_rows::<D, 2, BATCH>,
        3 => build_level_rows::<D, 3, BATCH>,
        4 => build_level_rows::<D, 4, BATCH>,
        5 => build_level_rows::<D, 5, BATCH>,
        7 => build_level_rows::<D, 7, BATCH>,
        _ => build_level_rows::<D, 8, BATCH>,
    };
    build(db, game, level, cancel, progress)
}

/// A level build stopped by its cancel flag before the level was finished.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Cancelled;

/// [`build_level`] on a board of `H` houses a side.
fn build_level_rows<D: Entries, const H: usize, const BATCH: usize>(
    db: &D,
    game: &Game,
    level: usize,
    cancel: &AtomicBool,
    progress: &(dyn Fn(usize, u64, u64) + Sync),
) -> Result<(), Cancelled> {
    let ranker = db.ranker();
    let groups = RowGroups::new::<H>(ranker, level);
    let total = ranker.level_start(level + 1) - ranker.level_start(level);
    let done = AtomicU64::new(0);
    for sum in (0..=2 * groups.max_sum).rev() {
        if cancel.load(Relaxed) {
            return Err(Cancelled);
        }
        // The pairs of a mover's group and an opponent's group of this distance sum,
        // with the mover's seeds.
        let mut pairs = Vec::new();
        for mine_seeds in 0..=level {
            let theirs_seeds = level - mine_seeds;
            for mine_sum in 0..=sum.min((H - 1) * mine_seeds) {
                let theirs_sum = sum - mine_sum;
                if theirs_sum > (H - 1) * theirs_seeds {
                    continue;
                }
                let mine = groups.group(mine_seeds, mine_sum);
                let theirs = groups.group(theirs_seeds, theirs_sum);
                if !mine.is_empty() && !theirs.is_empty() {
                    pairs.push((mine, theirs, mine_seeds as u64));
                }
            }
        }
        pairs.par_iter().for_each(|&(mine, theirs, mine_seeds)| {
            let theirs_seeds = level as u64 - mine_seeds;
            mine.par_iter().with_min_len(4).for_each_init(
                || [D::EMPTY; BATCH],
                |batch, mine| {
                    if cancel.load(Relaxed) {
                        return;
                    }
                    let mut kin = Kin::new(theirs_seeds);
                    for rows in theirs.chunks(BATCH) {
                        for (e, theirs) in batch.iter_mut().zip(rows) {
                            expand::<D, H>(db, game, level, mine.row, theirs, e, &mut kin);
                        }
                        for (e, theirs) in batch.iter().zip(rows) {
                            let rank = mine.low.wrapping_add(theirs.high);
                            db.store(level, rank, e);
                        }
                    }
                    let n = theirs.len() as u64;
                    let d = done.fetch_add(n, Relaxed) + n;
                    // About a hundred reports a level.
                    if (d - n) * 128 / total.max(1) != d * 128 / total.max(1) {
                        progress(level, d, total);
                    }
                },
            );
        });
    }
    if cancel.load(Relaxed) {
        return Err(Cancelled);
    }
    progress(level, total, total);
    Ok(())
}

/// Expands the board of rows `mine` (the mover's) and `their` on `level`, `H` houses
/// each, into `e` (written in place, see [`Entries::start`]): its children by
/// [`Entries::child`], given their ranks; a board whose game is already over (an empty
/// row, a stuck mover) is valued at once by the end-of-game rule
/// ([`kalah_core::Game::settle_rows`], as `Game::settle` values it). `their` comes
/// with its parts of the ranks ([`Row`]); `kin` is kept by the caller while `mine`
/// stays the same.
#[inline(always)]
fn expand<D: Entries, const H: usize>(
    db: &D,
    game: &Game,
    level: usize,
    mine: u64,
    their: &Row,
    e: &mut D::Board,
    kin: &mut Kin,
) {
    let theirs = their.row;
    if let Some((left_mine, left_theirs)) = game.settle_rows(mine, theirs) {
        D::over(e, left_mine as i8 - left_theirs as i8);
        return;
    }
    D::start(e);
    for j in 0..H {
        if (mine >> (8 * j)) as u8 == 0 {
            continue;
        }
        let sown = game.sow_rows(mine, theirs, j);
        let extra = sown.extra;
        // Where the opponent's row came through unchanged, its part of the child's
        // rank is known (its first row after a passed turn, its second after an extra
        // turn), and the mover's row's part is usually the same as for the last board.
        let rank = if !sown.theirs_kept {
            // The child seen from its mover (a sowing that ended the game leaves the
            // empty board).
            if extra {
                db.ranker().rank_rows::<H>(sown.mine, sown.theirs)
            } else {
                db.ranker().rank_rows::<H>(sown.theirs, sown.mine)
            }
        } else if extra {
            let (row, low) = &mut kin.extra[j];
            if *row != sown.mine {
                *row = sown.mine;
                *low = db.ranker().rank_low::<H>(sown.mine);
            }
            low.wrapping_add(their.extra_high)
        } else {
            let (row, high) = &mut kin.passed[j];
            if *row != sown.mine {
                *row = sown.mine;
                *high = db.ranker().rank_high::<H>(sown.mine, kin.theirs_seeds);
            }
            their.low.wrapping_add(*high)
        };
        debug_assert_eq!(rank, {
            let (a, b) = if extra {
                (sown.mine, sown.theirs)
            } else {
                (sown.theirs, sown.mine)
            };
            db.ranker().rank_rows::<H>(a, b)
        });
        db.child(e, level, rank, &sown);
    }
}

/// What a build task keeps of its children's ranks while the mover's row stays the same
/// and the opponent's row runs through a group (see [`expand`]): for each
/// house, the mover's row after its sowing and that row's part of the child's rank, where
/// the opponent's row came through unchanged.
#[derive(Clone, Copy)]
struct Kin {
    /// The opponent's seeds (the same for the whole group).
    theirs_seeds: u64,
    /// After a passed turn: the mover's row, now the child's second row, and
    /// [`Ranker::rank_high`] of it below the opponent's seeds.
    passed: [(u64, u64); MAX_HOUSES],
    /// After an extra turn: the mover's row, still the child's first row, and
    /// [`Ranker::rank_low`] of it.
    extra: [(u64, u64); MAX_HOUSES],
}

impl Kin {
    fn new(theirs_seeds: u64) -> Kin {
        Kin {
            theirs_seeds,
            passed: [(u64::MAX, 0); MAX_HOUSES],
            extra: [(u64::MAX, 0); MAX_HOUSES],
        }
    }
}

/// The rows of one player (`H` byte lanes) with at most a level's seeds, grouped by seeds
/// and distance sum (see the module's notes), each with its parts of the ranks a build
/// needs ([`Row`]), in increasing order of [`Row::low`].
struct RowGroups {
    /// `groups[seeds * (max_sum + 1) + sum]`.
    groups: Vec<Vec<Row>>,
    /// The largest distance sum of a row: every seed in the last lane.
    max_sum: usize,
}

/// A row of a [`RowGroups`] and its parts of the ranks of the level's boards.
#[derive(Clone, Copy)]
struct Row {
    row: u64,
    /// [`Ranker::rank_low`]: its part as the mover's row.
    low: u64,
    /// [`Ranker::rank_high`] below the rest of the level's seeds: its part as the
    /// opponent's row.
    high: u64,
    /// The same below one seed fewer: its part of the child after an extra turn that left
    /// it unchanged.
    extra_high: u64,
}

impl RowGroups {
    fn new<const H: usize>(ranker: &Ranker, level: usize) -> RowGroups {
        let max_sum = (H - 1) * level;
        let mut groups = vec![Vec::new(); (level + 1) * (max_sum + 1)];
        // Every row, lane by lane: the seeds given to the lanes so far, and their sum.
        let mut stack = vec![(0u64, 0usize, 0usize)];
        while let Some((row, lane, seeds)) = stack.pop() {
            if lane == H {
                let sum = (0..H)
                    .map(|j| (row >> (8 * j) & 0xff) as usize * j)
                    .sum::<usize>();
                // As the opponent's row, the mover's row holds the rest of the level.
                let below = (level - seeds) as u64;
                groups[seeds * (max_sum + 1) + sum].push(Row {
                    row,
                    low: ranker.rank_low::<H>(row),
                    high: ranker.rank_high::<H>(row, below),
                    extra_high: ranker.rank_high::<H>(row, below.saturating_sub(1)),
                });
                continue;
            }
            for s in 0..=level - seeds {
                stack.push((row | (s as u64) << (8 * lane), lane + 1, seeds + s));
            }
        }
        for g in &mut groups {
            g.sort_unstable_by_key(|r| r.low);
        }
        RowGroups { groups, max_sum }
    }

    /// The rows of `seeds` seeds and distance sum `sum`.
    fn group(&self, seeds: usize, sum: usize) -> &[Row] {
        &self.groups[seeds * (self.max_sum + 1) + sum]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The pairs of row groups of a level hold every board of it once, at its rank.
    fn groups_cover_the_level<const H: usize>(max_seeds: usize) {
        let r = Ranker::new(2 * H, max_seeds);
        for level in 0..=max_seeds {
            let g = RowGroups::new::<H>(&r, level);
            let mut ranks = Vec::new();
            for mine_seeds in 0..=level {
                for mine_sum in 0..=g.max_sum {
                    for theirs_sum in 0..=g.max_sum {
                        for m in g.group(mine_seeds, mine_sum) {
                            for t in g.group(level - mine_seeds, theirs_sum) {
                                let rank = m.low + t.high;
                                assert_eq!(t.high, r.rank_high::<H>(t.row, mine_seeds as u64));
                                assert_eq!(
                                    t.extra_high,
                                    r.rank_high::<H>(t.row, (mine_seeds as u64).saturating_sub(1))
                                );
                                let board = m.row as u128 | (t.row as u128) << (8 * H);
                                assert_eq!(r.rank(board), rank, "H {H} level {level}");
                                ranks.push(rank);
                            }
                        }
                    }
                }
            }
            ranks.sort_unstable();
            let all: Vec<u64> = (r.level_start(level)..r.level_start(level + 1)).collect();
            assert_eq!(ranks, all, "H {H} level {level}");
        }
    }

    #[test]
    fn row_groups_cover_every_level_once() {
        groups_cover_the_level::<1>(6);
        groups_cover_the_level::<2>(6);
        groups_cover_the_level::<3>(6);
        groups_cover_the_level::<6>(5);
    }
}
