//! The learned evaluation of Kalah on six houses (`learned`): a pattern
//! ("n-tuple") evaluation, a sum of integer weights looked up in tables indexed by small
//! groups of houses, trained on exact values and deeper searches by the example
//! `train_ntuple` (`docs/evaluation.md`). The weights ship in `data/kalah6-learned.txt`
//! (standard capture) and `data/kalah6-empty-learned.txt` (empty capture), compiled into
//! the binary.
//!
//! The estimate is of the final margin less the store margin, for the mover, from the
//! houses alone (so a position and the same position with the colours exchanged get the
//! same value for their mover). [`indices`] names the table entries a position reads;
//! its layout is the file's format version: a change of the tables is a new version.
//!
//! Per phase (the seeds in the houses: 1-15, 16-30, 31-45, 46 and more), the tables are
//! - six *opposite pairs*: a house of the mover and the opponent's house opposite it,
//!   each count clipped to 0..=15 (256 entries each);
//! - ten *neighbour pairs*: two neighbouring houses of one row, clipped to 0..=7 (64 each,
//!   five per row);
//!
//! and across phases one *row sums* table: the seeds of the mover's row and of the
//! opponent's, each clipped to 0..=31 (1024 entries). 17 lookups a leaf.

use std::sync::OnceLock;

use kalah_core::{Capture, End, Family, Leftovers, Position, Rules};

/// The houses per side the tables are laid out for.
pub const HOUSES: usize = 6;
/// Phases, by the seeds in the houses.
pub const PHASES: usize = 4;
/// Seeds in the houses per phase: phase `min((left - 1) / PHASE_SPAN, PHASES - 1)`.
pub const PHASE_SPAN: u32 = 15;
/// Counts of an opposite pair are clipped below this.
const PAIR: usize = 16;
/// Counts of a neighbour pair are clipped below this.
const NEIGHBOUR: usize = 8;
/// Row sums are clipped below this.
const ROW: usize = 32;
/// Entries of the opposite pairs of one phase.
const OPPOSITE_ENTRIES: usize = HOUSES * PAIR * PAIR;
/// Entries of one phase.
pub const PHASE_ENTRIES: usize = OPPOSITE_ENTRIES + 2 * (HOUSES - 1) * NEIGHBOUR * NEIGHBOUR;
/// Where the row sums table starts.
const ROWS_AT: usize = PHASES * PHASE_ENTRIES;
/// Entries of all tables: the length of the weights.
pub const ENTRIES: usize = ROWS_AT + ROW * ROW;
/// Table entries one position reads.
pub const ACTIVE: usize = HOUSES + 2 * (HOUSES - 1) + 1;
/// The format version of the weights file, that is of this layout.
pub const FORMAT: u32 = 1;
/// Weights are fixed point: an entry `w` stands for `w / SCALE` seeds.
pub const SCALE: i32 = 256;

/// The weights file shipped with the library for standard Kalah (class `kalah-6`).
pub const SHIPPED: &str = include_str!("../../../../data/kalah6-learned.txt");
/// The weights file shipped for Kalah with empty capture (class `kalah-6-empty`).
pub const SHIPPED_EMPTY: &str = include_str!("../../../../data/kalah6-empty-learned.txt");

/// The table entries `pos` reads (a position of six houses per side; for another size
/// the result means nothing). The estimate is the sum of the weights at these indices.
#[inline(always)]
pub fn indices(pos: &Position) -> [u32; ACTIVE] {
    // Lane k: the mover's house k for k < 6, the opponent's house k - 6 after.
    let bytes = pos.packed_board().to_le_bytes();
    let c: [usize; 2 * HOUSES] = std::array::from_fn(|k| bytes[k] as usize);
    let left = pos.seeds_in_houses();
    let mine = pos.seeds_in_mover_row() as usize;
    let theirs = left as usize - mine;
    let phase = ((left.saturating_sub(1) / PHASE_SPAN) as usize).min(PHASES - 1);
    let base = phase * PHASE_ENTRIES;
    let mut out = [0u32; ACTIVE];
    for j in 0..HOUSES {
        // The mover's house j faces the opponent's house 5 - j, lane 11 - j.
        let a = c[j].min(PAIR - 1);
        let b = c[2 * HOUSES - 1 - j].min(PAIR - 1);
        out[j] = (base + (j * PAIR + a) * PAIR + b) as u32;
    }
    let neighbours = base + OPPOSITE_ENTRIES;
    for r in 0..2 {
        for j in 0..HOUSES - 1 {
            let a = c[r * HOUSES + j].min(NEIGHBOUR - 1);
            let b = c[r * HOUSES + j + 1].min(NEIGHBOUR - 1);
            let t = r * (HOUSES - 1) + j;
            out[HOUSES + t] = (neighbours + (t * NEIGHBOUR + a) * NEIGHBOUR + b) as u32;
        }
    }
    out[ACTIVE - 1] = (ROWS_AT + mine.min(ROW - 1) * ROW + theirs.min(ROW - 1)) as u32;
    out
}

/// Each byte of `x` clipped to at most `2^bits - 1` (`bits` 3 or 4), all at once: a byte
/// with any bit from `bits` up set becomes `2^bits - 1`; no carry crosses a byte.
#[inline(always)]
fn clip(x: u64, bits: u32) -> u64 {
    const LANES: u64 = 0x0101_0101_0101_0101;
    let top = (1u64 << bits) - 1;
    let high = LANES * ((1u64 << (8 - bits)) - 1);
    // Per byte, its bits from `bits` up (at most 31), plus as much: bit 8 - bits set
    // exactly when any of them is.
    let t = (x >> bits) & high;
    let over = ((t + high) >> (8 - bits)) & LANES;
    (x & (LANES * top)) | (over * top)
}

/// The table's length in memory: [`ENTRIES`] rounded up to a power of two, so that an
/// index masked to it needs no bounds check (the entries past [`ENTRIES`] are 0).
const TABLE: usize = ENTRIES.next_power_of_two();

/// A learned evaluation: its class and its weights, [`ENTRIES`] of them in units of
/// `1 / SCALE` seeds, in the layout of [`indices`].
#[derive(Clone, PartialEq, Eq)]
pub struct NTuple {
    /// The class's name (`kalah-6`, `kalah-6-empty`).
    pub class: String,
    /// The weights, padded with zeros to [`TABLE`].
    table: Box<[i16; TABLE]>,
}

impl std::fmt::Debug for NTuple {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "NTuple({}, {ENTRIES} weights)", self.class)
    }
}

impl NTuple {
    /// The tables of `weights`, [`ENTRIES`] of them in the layout of [`indices`];
    /// an error for any other number.
    pub fn new(class: &str, weights: &[i16]) -> Result<NTuple, String> {
        if weights.len() != ENTRIES {
            return Err(format!(
                "{} weights, the layout has {ENTRIES}",
                weights.len()
            ));
        }
        let mut table = Box::new([0i16; TABLE]);
        table[..ENTRIES].copy_from_slice(weights);
        Ok(NTuple {
            class: class.to_string(),
            table,
        })
    }

    /// The weights, [`ENTRIES`] of them.
    pub fn weights(&self) -> &[i16] {
        &self.table[..ENTRIES]
    }

    /// The shipped weights of standard Kalah on six houses (parsed from
    /// `data/kalah6-learned.txt` once).
    pub fn kalah6() -> &'static NTuple {
        static SHIPPED_TABLES: OnceLock<NTuple> = OnceLock::new();
        SHIPPED_TABLES.get_or_init(|| NTuple::parse(SHIPPED).expect("the shipped weights parse"))
    }

    /// The shipped weights of Kalah with empty capture on six houses (parsed from
    /// `data/kalah6-empty-learned.txt` once).
    pub fn kalah6_empty() -> &'static NTuple {
        static SHIPPED_TABLES: OnceLock<NTuple> = OnceLock::new();
        SHIPPED_TABLES
            .get_or_init(|| NTuple::parse(SHIPPED_EMPTY).expect("the shipped weights parse"))
    }

    /// The learned tables made for a game of `rules`, if any: Kalah on six houses (the
    /// end when a row is empty, leftovers to their owner, no early stop) of any seeds,
    /// [`NTuple::kalah6`] with standard capture and [`NTuple::kalah6_empty`] with empty
    /// capture.
    pub fn for_rules(rules: &Rules) -> Option<&'static NTuple> {
        let kalah6 = rules.family == Family::Kalah
            && rules.houses as usize == HOUSES
            && rules.end == End::RowEmpty
            && rules.leftovers == Leftovers::Owner
            && !rules.early_stop;
        match rules.capture {
            _ if !kalah6 => None,
            Capture::Standard => Some(NTuple::kalah6()),
            Capture::Empty => Some(NTuple::kalah6_empty()),
        }
    }

    /// Whether the learned evaluation is made for a game of `rules` ([`NTuple::for_rules`]).
    pub fn applies_to(rules: &Rules) -> bool {
        NTuple::for_rules(rules).is_some()
    }

    /// The estimate of the final margin less the store margin, for the mover of `pos`,
    /// rounded to the nearest seed, halves away from zero (not yet clamped to the seeds in
    /// the houses: [`super::Evaluation::score`] does). 0 for a board not of six houses.
    #[inline]
    pub fn estimate(&self, pos: &Position) -> i32 {
        if pos.houses_per_side() != HOUSES {
            return 0;
        }
        let sum = self.sum(pos);
        let half = SCALE / 2;
        if sum >= 0 {
            (sum + half) / SCALE
        } else {
            -((-sum + half) / SCALE)
        }
    }

    /// The sum of the weights at [`indices`] of `pos`, in units of `1 / SCALE` seeds,
    /// computed as [`indices`] describes but eight lanes at a time (SWAR on `u64`): the
    /// clipped counts of a row in one word, the opposite pairs' and neighbour pairs'
    /// indices a byte each.
    #[inline(always)]
    fn sum(&self, pos: &Position) -> i32 {
        const ROW6: u64 = 0xFFFF_FFFF_FFFF;
        const MASK: usize = TABLE - 1;
        let board = pos.packed_board();
        let mine = board as u64 & ROW6;
        let theirs = (board >> 48) as u64 & ROW6;
        // Byte j: the opponent's house 5 - j, the one opposite the mover's house j.
        let facing = theirs.swap_bytes() >> 16;
        let pairs = (clip(mine, 4) << 4) | clip(facing, 4);
        let (m7, o7) = (clip(mine, 3), clip(theirs, 3));
        let mine_next = (m7 << 3) | (m7 >> 8);
        let theirs_next = (o7 << 3) | (o7 >> 8);
        let byte = |x: u64, j: usize| (x >> (8 * j)) as u8 as usize;

        let left = pos.seeds_in_houses();
        let in_mine = pos.seeds_in_mover_row() as usize;
        let phase = ((left.saturating_sub(1) / PHASE_SPAN) as usize).min(PHASES - 1);
        let base = phase * PHASE_ENTRIES;
        let w = &*self.table;
        let mut sum = 0i32;
        for j in 0..HOUSES {
            sum += w[(base + j * PAIR * PAIR + byte(pairs, j)) & MASK] as i32;
        }
        let neighbours = base + OPPOSITE_ENTRIES;
        let square = NEIGHBOUR * NEIGHBOUR;
        for j in 0..HOUSES - 1 {
            sum += w[(neighbours + j * square + byte(mine_next, j)) & MASK] as i32;
            sum += w[(neighbours + (HOUSES - 1 + j) * square + byte(theirs_next, j)) & MASK] as i32;
        }
        let in_theirs = left as usize - in_mine;
        sum + w[(ROWS_AT + in_mine.min(ROW - 1) * ROW + in_theirs.min(ROW - 1)) & MASK] as i32
    }

    /// Reads a weights file: lines starting with `#` are comments (the provenance); then
    /// `format 1`, `class NAME`, `scale 256`, `weights N` (N = [`ENTRIES`]), and the N
    /// weights, integers separated by white space, in the order of the tables.
    pub fn parse(text: &str) -> Result<NTuple, String> {
        let mut words = text
            .lines()
            .filter(|l| !l.trim_start().starts_with('#'))
            .flat_map(str::split_whitespace);
        let mut key = |want: &str| -> Result<String, String> {
            match (words.next(), words.next()) {
                (Some(k), Some(v)) if k == want => Ok(v.to_string()),
                (k, _) => Err(format!("expected `{want}`, found {k:?}")),
            }
        };
        let format: u32 = key("format")?.parse().map_err(|e| format!("format: {e}"))?;
        if format != FORMAT {
            return Err(format!("format {format}, this build reads {FORMAT}"));
        }
        let class = key("class")?;
        let scale: i32 = key("scale")?.parse().map_err(|e| format!("scale: {e}"))?;
        if scale != SCALE {
            return Err(format!("scale {scale}, this build reads {SCALE}"));
        }
        let n: usize = key("weights")?
            .parse()
            .map_err(|e| format!("weights: {e}"))?;
        if n != ENTRIES {
            return Err(format!("{n} weights, the layout has {ENTRIES}"));
        }
        let weights = words
            .map(|w| w.parse::<i16>().map_err(|e| format!("weight `{w}`: {e}")))
            .collect::<Result<Vec<i16>, String>>()?;
        if weights.len() != ENTRIES {
            return Err(format!(
                "{} weights, `weights` said {ENTRIES}",
                weights.len()
            ));
        }
        NTuple::new(&class, &weights)
    }

    /// The weights file of these weights, `provenance` first (each line written as a
    /// comment), read back by [`NTuple::parse`].
    pub fn to_text(&self, provenance: &str) -> String {
        let mut out = String::new();
        for line in provenance.lines() {
            out += "# ";
            out += line;
            out += "\n";
        }
        out += &format!(
            "format {FORMAT}\nclass {}\nscale {SCALE}\nweights {}\n",
            self.class, ENTRIES
        );
        for chunk in self.weights().chunks(16) {
            let line: Vec<String> = chunk.iter().map(|w| w.to_string()).collect();
            out += &line.join(" ");
            out += "\n";
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::Evaluation;
    use kalah_core::{Game, Side};

    /// A small deterministic generator (SplitMix64).
    struct Rng(u64);

    impl Rng {
        fn below(&mut self, n: usize) -> usize {
            self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            ((z ^ (z >> 31)) % n as u64) as usize
        }
    }

    /// Positions along random games of Kalah(6, seeds), every third one.
    fn positions(seeds: u8, games: usize, rng: &mut Rng) -> Vec<Position> {
        let game = Game::new(Rules::kalah(6, seeds)).unwrap();
        let mut out = Vec::new();
        for _ in 0..games {
            let mut pos = game.start();
            while !pos.is_over() {
                let moves: Vec<usize> = game.legal_moves(&pos).collect();
                if rng.below(3) == 0 {
                    out.push(pos);
                }
                pos = game.play_unchecked(&pos, moves[rng.below(moves.len())]);
            }
        }
        out
    }

    #[test]
    fn the_shipped_weights_load_and_round_trip() {
        let t = NTuple::kalah6();
        assert_eq!(t.class, "kalah-6");
        assert_eq!(t.weights().len(), ENTRIES);
        assert!(t.weights().iter().any(|&w| w != 0), "trained, not empty");
        let again = NTuple::parse(&t.to_text("provenance\nsecond line")).unwrap();
        assert_eq!(&again, t);
    }

    #[test]
    fn malformed_files_are_refused() {
        let t = NTuple::new("x", &[1; ENTRIES]).unwrap();
        assert!(NTuple::new("x", &[1; ENTRIES - 1]).is_err());
        let text = t.to_text("");
        assert!(NTuple::parse(&text).is_ok());
        assert!(NTuple::parse(&text.replace("format 1", "format 2")).is_err());
        assert!(NTuple::parse(&text.replace("scale 256", "scale 128")).is_err());
        let short = text.rsplit_once(' ').unwrap().0;
        assert!(NTuple::parse(short).is_err());
        assert!(NTuple::parse(&(text.clone() + "7\n")).is_err());
        assert!(NTuple::parse(&text.replacen(" 1 ", " 40000 ", 1)).is_err());
        assert!(NTuple::parse("").is_err());
    }

    #[test]
    fn the_fast_sum_reads_the_entries_indices_names() {
        // Distinct weights, so that a wrong entry shows.
        let weights: Vec<i16> = (0..ENTRIES).map(|i| (i % 251) as i16 - 125).collect();
        let t = NTuple::new("test", &weights).unwrap();
        let mut rng = Rng(17);
        let mut ps: Vec<Position> = [4, 5, 6]
            .iter()
            .flat_map(|&s| positions(s, 10, &mut rng))
            .collect();
        // Counts on either side of the clips (7 and 8, 15 and 16; rows past 31).
        for k in 0..40 {
            let board: u128 = (0..12)
                .map(|j| (((k * 7 + j * 13) % 20) as u128) << (8 * j))
                .sum();
            ps.push(Position::from_packed(6, board, [0, 0], Side::South));
        }
        for p in ps {
            let want: i32 = indices(&p)
                .iter()
                .map(|&i| weights[i as usize] as i32)
                .sum();
            assert_eq!(t.sum(&p), want, "{p}");
        }
    }

    #[test]
    fn clip_clips_every_byte_alone() {
        for b in 0..=255u64 {
            for bits in [3, 4] {
                let x = b << 16 | 0xff << 8 | 3;
                let top = (1 << bits) - 1;
                let want = b.min(top) << 16 | top << 8 | 3;
                assert_eq!(clip(x, bits), want, "{b} {bits}");
            }
        }
    }

    #[test]
    fn indices_stay_in_the_table_and_each_table_is_read_once() {
        let mut rng = Rng(3);
        let mut extreme = Vec::new();
        // Every seed of the game in one house, of either row.
        for k in 0..2 * HOUSES {
            extreme.push(Position::from_packed(
                6,
                72u128 << (8 * k),
                [0, 0],
                Side::South,
            ));
        }
        for p in positions(6, 20, &mut rng).into_iter().chain(extreme) {
            let ix = indices(&p);
            assert!(ix.iter().all(|&i| (i as usize) < ENTRIES), "{p}");
            let mut sorted = ix;
            sorted.sort_unstable();
            assert!(sorted.windows(2).all(|w| w[0] < w[1]), "{p}: {ix:?}");
        }
    }

    #[test]
    fn the_learned_evaluation_stays_within_what_the_seeds_allow() {
        let mut rng = Rng(11);
        for seeds in [4, 5, 6] {
            let rules = Rules::kalah(6, seeds);
            let eval = Evaluation::learned(&rules);
            assert_eq!(eval.name(), "learned:kalah-6");
            let mut ps = positions(seeds, 30, &mut rng);
            for k in 0..2 * HOUSES {
                let all = 6 * 2 * seeds as u128;
                ps.push(Position::from_packed(
                    6,
                    all << (8 * k),
                    [0, 0],
                    Side::North,
                ));
            }
            for p in &ps {
                let (margin, left) = (p.store_margin(), p.seeds_in_houses() as i32);
                let v = eval.score(p, margin);
                assert!((margin - left..=margin + left).contains(&v), "{p}: {v}");
            }
        }
    }

    #[test]
    fn the_learned_evaluation_is_found_by_name_for_six_house_kalah_only() {
        let rules = Rules::kalah(6, 6);
        let learned = Evaluation::from_name("Learned", &rules).unwrap();
        assert_eq!(learned, Evaluation::Learned(NTuple::kalah6()));
        // Empty capture has tables of its own, not used by default until they win their
        // matches (DEFAULT_LEARNED).
        let empty = Rules {
            capture: Capture::Empty,
            ..Rules::kalah(6, 5)
        };
        let tables = NTuple::kalah6_empty();
        assert_eq!(tables.class, "kalah-6-empty");
        assert_eq!(
            Evaluation::from_name("learned", &empty),
            Some(Evaluation::Learned(tables))
        );
        assert_eq!(Evaluation::learned(&empty).name(), "learned:kalah-6-empty");
        assert_eq!(
            Evaluation::for_analysis(&empty) == Evaluation::Learned(tables),
            crate::eval::DEFAULT_LEARNED.contains(&"kalah-6-empty")
        );
        assert_eq!(
            Evaluation::for_analysis(&rules),
            Evaluation::Learned(NTuple::kalah6())
        );
        // Elsewhere no tables apply: the fitted evaluation of the class.
        for other in [Rules::kalah(4, 4), Rules::oware(6, 4), {
            let mut r = Rules::kalah(6, 4);
            r.early_stop = true;
            r
        }] {
            assert_eq!(
                Evaluation::learned(&other),
                Evaluation::fitted(&other),
                "{other:?}"
            );
        }
        // The exact solve never uses it.
        let config = crate::Config {
            evaluation: learned,
            ..crate::Config::default()
        };
        assert_eq!(config.for_proof().evaluation, Evaluation::StoreDifference);
    }
}
