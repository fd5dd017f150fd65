//! Helpers of the Bao tests: the simple reference implementation and a small generator of
//! pseudo-random numbers.

pub mod reference;

/// SplitMix64: reproducible pseudo-random numbers for the tests.
pub struct Rng(pub u64);

impl Rng {
    /// The next 64 random bits.
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..n`.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// The boards of the perft table and the random tests: (pits a row, seeds a pit).
pub const BOARDS: &[(usize, usize)] = &[
    (3, 1),
    (3, 2),
    (3, 3),
    (4, 1),
    (4, 2),
    (4, 3),
    (5, 1),
    (5, 2),
    (6, 1),
    (6, 2),
    (7, 2),
    (8, 1),
    (8, 2),
    (8, 3),
];
