//! Transposition keys and database indices: the combinatorial rank of the house counts.

use crate::position::Position;
use crate::rules::Rules;

/// `0x01` in each byte of a word.
const ONES64: u64 = 0x0101_0101_0101_0101;

/// Ranks boards of `lanes` houses holding at most `max_seeds` seeds in all, densely.
///
/// With lanes `c_0..c_{n-1}`, the inclusive prefix sums `P_j = c_0 + .. + c_j` give the
/// strictly increasing `b_j = P_j + j`, a subset of `0..T+n` (`T = max_seeds`); its rank
/// in the combinatorial number system, `sum_j C(b_j, j+1)`, is a bijection from the boards
/// onto `0..C(T+n, n)`. The last term, `C(R+n-1, n)` for `R` seeds in all, counts the
/// boards with fewer seeds, so the boards holding exactly `R` seeds fill the contiguous
/// range [`Ranker::level_start`]`(R)..level_start(R+1)`: the layout of an endgame
/// database by seed level. The prefix sums come from one multiplication of the packed
/// board by `0x0101..01`; the binomials from a table indexed `[j][P_j]`.
///
/// The table has a row of 256 entries for each of 16 lanes (rows past `lanes` are zero,
/// and a lane past the board holds the total in its prefix sum, so it adds nothing): a
/// rank is 16 branch-free lookups (12 on six houses a side) whose indices are in bounds
/// by construction.
#[derive(Clone, Debug)]
pub struct Ranker {
    lanes: usize,
    max_seeds: usize,
    /// `table[j << 8 | p] = C(p + j, j + 1)` for `j < lanes`, saturated to `u64::MAX`.
    table: Box<[u64; 16 << 8]>,
    /// True when every rank fits in a `u64`.
    fits: bool,
}

/// `C(n, k)` in 128 bits, saturating.
pub fn binomial(n: u64, k: u64) -> u128 {
    if k > n {
        return 0;
    }
    let k = k.min(n - k);
    let mut r: u128 = 1;
    for i in 0..k {
        r = r.saturating_mul((n - i) as u128) / (i as u128 + 1);
        if r == u128::MAX {
            return r;
        }
    }
    r
}

impl Ranker {
    /// A ranker for `lanes` houses (at most 16) and boards of at most `max_seeds` seeds
    /// (at most 255: a prefix sum is one byte).
    pub fn new(lanes: usize, max_seeds: usize) -> Ranker {
        assert!(
            lanes <= 16 && max_seeds <= 255,
            "{lanes} lanes, {max_seeds} seeds"
        );
        let mut table = Box::new([0u64; 16 << 8]);
        for j in 0..lanes {
            for p in 0..256 {
                table[j << 8 | p] =
                    binomial((p + j) as u64, j as u64 + 1).min(u64::MAX as u128) as u64;
            }
        }
        let fits = Ranker::count_of(lanes, max_seeds) <= u64::MAX as u128;
        Ranker {
            lanes,
            max_seeds,
            table,
            fits,
        }
    }

    fn count_of(lanes: usize, max_seeds: usize) -> u128 {
        binomial((max_seeds + lanes) as u64, lanes as u64)
    }

    /// The number of boards ranked: `C(max_seeds + lanes, lanes)`.
    pub fn count(&self) -> u128 {
        Ranker::count_of(self.lanes, self.max_seeds)
    }

    /// True when every rank fits in a `u64`.
    pub fn fits(&self) -> bool {
        self.fits
    }

    /// The most seeds a ranked board holds.
    pub fn max_seeds(&self) -> usize {
        self.max_seeds
    }

    /// The first rank of the boards holding exactly `seeds` seeds (for `seeds` up to
    /// `max_seeds + 1`, where it is [`Ranker::count`]).
    pub fn level_start(&self, seeds: usize) -> u64 {
        if seeds == 0 {
            0
        } else {
            binomial((seeds - 1 + self.lanes) as u64, self.lanes as u64) as u64
        }
    }

    /// The rank of a packed board (byte lanes, lane `j` = house `j`). The board must hold
    /// at most `max_seeds` seeds in its first `lanes` lanes and nothing above them.
    #[inline]
    pub fn rank(&self, board: u128) -> u64 {
        debug_assert!(crate::position::lane_sum(board) as usize <= self.max_seeds);
        // Six houses a side (the usual board): the four empty rows are skipped.
        if self.lanes == 12 {
            self.rank_lanes::<12>(board)
        } else {
            self.rank_lanes::<16>(board)
        }
    }

    /// [`Ranker::rank`] of the board whose first `H` lanes are the byte lanes of `low` and
    /// whose next `H` lanes are those of `high` (`2 * H` lanes in all, `H <= 8`), without
    /// packing them into one word: [`Ranker::rank_low`] plus [`Ranker::rank_high`].
    #[inline(always)]
    pub fn rank_rows<const H: usize>(&self, low: u64, high: u64) -> u64 {
        let p = low.wrapping_mul(ONES64);
        // The last prefix sum of the first row is its seeds.
        let below = (p >> (8 * (H - 1))) & 0xff;
        self.row_part::<H>(0, p)
            .wrapping_add(self.rank_high::<H>(high, below))
    }

    /// The part of [`Ranker::rank_rows`] that the first row gives.
    #[inline(always)]
    pub fn rank_low<const H: usize>(&self, low: u64) -> u64 {
        self.row_part::<H>(0, low.wrapping_mul(ONES64))
    }

    /// The part of [`Ranker::rank_rows`] that the second row gives, where the first holds
    /// `below` seeds.
    #[inline(always)]
    pub fn rank_high<const H: usize>(&self, high: u64, below: u64) -> u64 {
        let p = high
            .wrapping_mul(ONES64)
            .wrapping_add(below.wrapping_mul(ONES64));
        self.row_part::<H>(H, p)
    }

    /// The table's terms for lanes `first..first + H`, whose prefix sums are the byte
    /// lanes of `p`.
    #[inline(always)]
    fn row_part<const H: usize>(&self, first: usize, p: u64) -> u64 {
        debug_assert!(2 * H == self.lanes && H <= 8);
        let mut rank = 0u64;
        for j in 0..H {
            rank =
                rank.wrapping_add(self.table[(first + j) << 8 | ((p >> (8 * j)) as usize & 0xff)]);
        }
        rank
    }

    /// [`Ranker::rank`] over the first `N` lanes (`N >= lanes`).
    #[inline(always)]
    fn rank_lanes<const N: usize>(&self, board: u128) -> u64 {
        let prefix = board.wrapping_mul(ONES);
        let mut rank = 0u64;
        for j in 0..N {
            let p = (prefix >> (8 * j)) as usize & 0xff;
            rank = rank.wrapping_add(self.table[(j & 15) << 8 | p]);
        }
        rank
    }

    /// The packed board of a rank (the inverse of [`Ranker::rank`]).
    pub fn unrank(&self, mut rank: u64) -> u128 {
        let mut prefix = [0usize; 16];
        // Greedy from the last lane: the largest P_j with C(P_j + j, j + 1) <= rank.
        for j in (0..self.lanes).rev() {
            let row = &self.table[j << 8..(j + 1) << 8];
            let upper = if j + 1 < self.lanes {
                prefix[j + 1]
            } else {
                self.max_seeds
            };
            let mut p = upper;
            while row[p] > rank {
                p -= 1;
            }
            rank -= row[p];
            prefix[j] = p;
        }
        let mut board = 0u128;
        for j in 0..self.lanes {
            let below = if j == 0 { 0 } else { prefix[j - 1] };
            board |= ((prefix[j] - below) as u128) << (8 * j);
        }
        board
    }
}

/// Turns the houses (and, under the early stop, both stores) into a 64-bit key: the
/// rank of the houses among all boards of the game's capacity, where that fits in 64
/// bits, else a hash.
#[derive(Clone)]
pub(crate) struct KeyCoder {
    ranker: Ranker,
    /// Multiplier of the rank when the stores join the key (early stop), else 0.
    store_radix: u64,
    /// The number of keys where they are exact (every key is below it); `None` where they
    /// would not fit in 64 bits, and keys are hashes.
    count: Option<u64>,
}

impl KeyCoder {
    pub(crate) fn new(rules: &Rules) -> KeyCoder {
        let lanes = 2 * rules.houses as usize;
        let cap = rules.total_seeds();
        let ranker = Ranker::new(lanes, cap);
        let mut count = ranker.count();
        // Under the early stop both stores join the key (positions of one game may hold
        // different totals when they were entered by hand).
        let store_radix = if rules.early_stop {
            (cap + 1) as u64
        } else {
            0
        };
        if rules.early_stop {
            count = count.saturating_mul((cap as u128 + 1) * (cap as u128 + 1));
        }
        KeyCoder {
            ranker,
            store_radix,
            count: u64::try_from(count).ok(),
        }
    }

    pub(crate) fn exact(&self) -> bool {
        self.count.is_some()
    }

    /// The number of keys (every key is below it), where keys are exact.
    pub(crate) fn count(&self) -> Option<u64> {
        self.count
    }

    /// True when the key is the bare rank of the houses ([`Ranker::rank`]).
    pub(crate) fn is_rank(&self) -> bool {
        self.exact() && self.store_radix == 0
    }

    #[inline]
    pub(crate) fn key(&self, pos: &Position) -> u64 {
        if self.exact() {
            let rank = self.ranker.rank(pos.board);
            if self.store_radix == 0 {
                rank
            } else {
                (rank * self.store_radix + pos.stores[0] as u64) * self.store_radix
                    + pos.stores[1] as u64
            }
        } else {
            let lo = pos.board as u64;
            let hi = (pos.board >> 64) as u64;
            let s = (pos.stores[0] as u64) << 8 | pos.stores[1] as u64;
            let s = s * (self.store_radix != 0) as u64;
            mix(lo ^ mix(hi ^ (s << 48)).rotate_left(17))
        }
    }
}

const ONES: u128 = 0x0101_0101_0101_0101_0101_0101_0101_0101;

/// A bijective 64-bit finaliser (the one of SplitMix64).
#[inline]
pub fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binomials_match_pascal() {
        assert_eq!(binomial(5, 2), 10);
        assert_eq!(binomial(60, 12), 1_399_358_844_975);
        assert_eq!(binomial(3, 5), 0);
    }

    #[test]
    fn exact_for_the_common_boards() {
        for (h, s) in [(6, 4), (6, 5), (6, 6), (6, 8), (8, 6), (4, 8)] {
            assert!(KeyCoder::new(&Rules::kalah(h, s)).exact(), "Kalah({h},{s})");
        }
        assert!(!KeyCoder::new(&Rules::kalah(8, 8)).exact());
    }

    /// The rank from two row words agrees with the rank of the packed board.
    fn check_rank_rows<const H: usize>(max_seeds: usize) {
        let r = Ranker::new(2 * H, max_seeds);
        let count = r.count() as u64;
        let step = (count / 5000).max(1);
        for rank in (0..count).step_by(step as usize) {
            let board = r.unrank(rank);
            let low = (board & ((1u128 << (8 * H)) - 1)) as u64;
            let high = (board >> (8 * H)) as u64;
            assert_eq!(r.rank_rows::<H>(low, high), rank, "{H} houses, {board:#x}");
            let below = (0..H).map(|j| (low >> (8 * j)) & 0xff).sum();
            assert_eq!(
                r.rank_low::<H>(low)
                    .wrapping_add(r.rank_high::<H>(high, below)),
                rank
            );
        }
    }

    #[test]
    fn rank_of_rows_matches_the_packed_rank() {
        check_rank_rows::<1>(9);
        check_rank_rows::<3>(12);
        check_rank_rows::<6>(30);
        check_rank_rows::<8>(20);
    }

    #[test]
    fn rank_is_a_bijection_by_seed_level() {
        let r = Ranker::new(4, 5);
        assert_eq!(r.count(), 126);
        let mut seen = [false; 126];
        for rank in 0..126u64 {
            let board = r.unrank(rank);
            assert_eq!(r.rank(board), rank);
            let seeds: u32 = (0..4).map(|j| (board >> (8 * j)) as u8 as u32).sum();
            assert!(
                rank >= r.level_start(seeds as usize) && rank < r.level_start(seeds as usize + 1)
            );
            assert!(!seen[rank as usize]);
            seen[rank as usize] = true;
        }
    }
}
