//! Transposition keys: the combinatorial rank of the house counts where it fits in 64 bits.

use crate::position::Position;
use crate::rules::Rules;

/// Turns the houses (and, under the early stop, the mover's store) into a 64-bit key.
///
/// With `n = 2H` lanes holding `c_0..c_{n-1}` seeds, the inclusive prefix sums
/// `P_j = c_0 + .. + c_j` give the strictly increasing `b_j = P_j + j`, a subset of
/// `0..T+n` (`T` the capacity); its rank in the combinatorial number system,
/// `sum_j C(b_j, j+1)`, is a bijection onto `0..C(T+n, n)`. The prefix sums come from one
/// multiplication of the packed board by `0x0101..01`; the binomials from a table
/// indexed `[j][P_j]`.
#[derive(Clone)]
pub(crate) struct KeyCoder {
    lanes: usize,
    stride: usize,
    /// `table[j * stride + p] = C(p + j, j + 1)`.
    table: Vec<u64>,
    exact: bool,
    /// Multiplier of the rank when the mover's store joins the key (early stop), else 0.
    store_radix: u64,
}

/// `C(n, k)` in 128 bits, saturating.
fn binomial(n: u64, k: u64) -> u128 {
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

impl KeyCoder {
    pub(crate) fn new(rules: &Rules) -> KeyCoder {
        let lanes = 2 * rules.houses as usize;
        let cap = rules.total_seeds();
        let stride = cap + 1;
        let mut count = binomial((cap + lanes) as u64, lanes as u64);
        let store_radix = if rules.early_stop {
            (cap + 1) as u64
        } else {
            0
        };
        if rules.early_stop {
            count = count.saturating_mul(cap as u128 + 1);
        }
        let exact = count <= u64::MAX as u128;
        let mut table = vec![0u64; lanes * stride];
        if exact {
            for j in 0..lanes {
                for p in 0..=cap {
                    table[j * stride + p] = binomial((p + j) as u64, j as u64 + 1) as u64;
                }
            }
        }
        KeyCoder {
            lanes,
            stride,
            table,
            exact,
            store_radix,
        }
    }

    pub(crate) fn exact(&self) -> bool {
        self.exact
    }

    #[inline]
    pub(crate) fn key(&self, pos: &Position) -> u64 {
        if self.exact {
            let prefix = pos.board.wrapping_mul(ONES);
            let mut rank = 0u64;
            for j in 0..self.lanes {
                let p = (prefix >> (8 * j)) as u8 as usize;
                // SAFETY-free indexing: p <= capacity because positions of this game hold
                // at most `capacity` seeds (checked by `Game::settle`).
                rank += self.table[j * self.stride + p];
            }
            if self.store_radix != 0 {
                rank = (rank * self.store_radix + pos.stores[0] as u64) * self.store_radix
                    + pos.stores[1] as u64;
            }
            rank
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
}
