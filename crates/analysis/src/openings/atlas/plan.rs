//! Which boards an atlas covers: a range of houses and of seeds (`1..6`, `4`), the rules
//! of the boards, and the capture rules to take (both by default), in the order they are
//! solved (the smallest boards first).

use std::fmt;
use std::str::FromStr;

use kalah_core::{Capture, Rules, RulesError, MAX_HOUSES};

use crate::game::setup::RuleOptions;

/// A range of sizes, both ends included: `1..6` (or `1..=6`), or one size, `4`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Span {
    /// The first size.
    pub first: u8,
    /// The last size, at least `first`.
    pub last: u8,
}

/// Why a range could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SpanError {
    /// Not a number or a range of two numbers.
    NotARange(String),
    /// A range whose last size is below its first.
    Reversed {
        /// The first size given.
        first: u8,
        /// The last size given.
        last: u8,
    },
}

impl fmt::Display for SpanError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SpanError::NotARange(s) => write!(
                f,
                "'{s}' is not a size or a range of sizes: write one number (4) or two (1..6)"
            ),
            SpanError::Reversed { first, last } => write!(
                f,
                "the range {first}..{last} runs backwards: write {last}..{first}"
            ),
        }
    }
}

impl std::error::Error for SpanError {}

impl FromStr for Span {
    type Err = SpanError;

    fn from_str(s: &str) -> Result<Span, SpanError> {
        let bad = || SpanError::NotARange(s.to_string());
        let number = |t: &str| t.trim().parse::<u8>().map_err(|_| bad());
        let (first, last) = match s.split_once("..") {
            Some((a, b)) => (number(a)?, number(b.strip_prefix('=').unwrap_or(b))?),
            None => (number(s)?, number(s)?),
        };
        if last < first {
            return Err(SpanError::Reversed { first, last });
        }
        Ok(Span { first, last })
    }
}

impl fmt::Display for Span {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.first == self.last {
            true => write!(f, "{}", self.first),
            false => write!(f, "{}..{}", self.first, self.last),
        }
    }
}

impl Span {
    /// Every size of the range, in order.
    pub fn sizes(self) -> impl Iterator<Item = u8> {
        self.first..=self.last
    }
}

/// Which capture rules an atlas takes for each board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Captures {
    /// Standard and empty capture, each board twice (where the family has the choice;
    /// once, by its own rule, where it has not).
    #[default]
    Both,
    /// One capture rule.
    Only(Capture),
}

/// The boards of an atlas: every size of `houses` with every size of `seeds`, under the
/// rules `rules` gives (its preset and the options over it; its board size is ignored)
/// with each capture rule of `captures`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Plan {
    /// The houses a side.
    pub houses: Span,
    /// The seeds a house at the start.
    pub seeds: Span,
    /// The rules of every board, but for its size and capture.
    pub rules: RuleOptions,
    /// The capture rules.
    pub captures: Captures,
}

/// Why the boards of a plan cannot be made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlanError {
    /// Houses outside 1 to 8.
    Houses(Span),
    /// Seeds of 0.
    Seeds(Span),
    /// The rules refuse an option (a capture rule for a family without the choice).
    Rules(RulesError),
}

impl fmt::Display for PlanError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlanError::Houses(s) => write!(
                f,
                "--houses {s}: a board has 1 to {MAX_HOUSES} houses a side"
            ),
            PlanError::Seeds(s) => write!(f, "--seeds {s}: a house starts with at least 1 seed"),
            PlanError::Rules(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for PlanError {}

impl Plan {
    /// The rules of every board, the smallest first (by seeds on the board, then houses,
    /// then standard capture before empty), each once.
    pub fn boards(&self) -> Result<Vec<Rules>, PlanError> {
        if self.houses.first == 0 || usize::from(self.houses.last) > MAX_HOUSES {
            return Err(PlanError::Houses(self.houses));
        }
        if self.seeds.first == 0 {
            return Err(PlanError::Seeds(self.seeds));
        }
        let family = self.rules.preset.rules(1, 1).family;
        let captures: Vec<Option<Capture>> = match self.captures {
            Captures::Only(c) => vec![Some(c)],
            Captures::Both if family.has_capture_option() => {
                vec![Some(Capture::Standard), Some(Capture::Empty)]
            }
            Captures::Both => vec![self.rules.capture],
        };
        let mut boards = Vec::new();
        for capture in captures {
            let options = RuleOptions {
                capture,
                ..self.rules
            };
            options.check().map_err(PlanError::Rules)?;
            for h in self.houses.sizes() {
                for s in self.seeds.sizes() {
                    let rules = options.rules(h, s);
                    rules.validate().map_err(PlanError::Rules)?;
                    boards.push(rules);
                }
            }
        }
        boards.sort_by_key(|r| {
            let seeds = u32::from(r.houses) * u32::from(r.seeds);
            (seeds, r.houses, r.capture != Capture::Standard)
        });
        boards.dedup();
        Ok(boards)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_range_reads_both_ends_and_one_size_is_a_range_of_one() {
        assert_eq!("1..6".parse(), Ok(Span { first: 1, last: 6 }));
        assert_eq!("2..=5".parse(), Ok(Span { first: 2, last: 5 }));
        assert_eq!("4".parse(), Ok(Span { first: 4, last: 4 }));
        assert_eq!(
            "5..2".parse::<Span>(),
            Err(SpanError::Reversed { first: 5, last: 2 })
        );
        let e = "x..2".parse::<Span>().unwrap_err();
        assert!(e.to_string().contains("'x..2'"), "{e}");
    }

    #[test]
    fn the_boards_come_smallest_first_under_both_capture_rules() {
        let plan = Plan {
            houses: "1..2".parse().unwrap(),
            seeds: "1..2".parse().unwrap(),
            rules: RuleOptions::default(),
            captures: Captures::Both,
        };
        let boards = plan.boards().unwrap();
        assert_eq!(boards.len(), 8);
        assert_eq!(boards[0], Rules::kalah(1, 1));
        assert_eq!(boards[1].capture, Capture::Empty);
        assert_eq!((boards[7].houses, boards[7].seeds), (2, 2));
    }

    #[test]
    fn no_house_no_seed_and_a_capture_rule_a_family_lacks_are_refused() {
        let plan = |houses: &str, seeds: &str| Plan {
            houses: houses.parse().unwrap(),
            seeds: seeds.parse().unwrap(),
            rules: RuleOptions::default(),
            captures: Captures::Both,
        };
        let e = plan("0..3", "1").boards().unwrap_err();
        assert!(e.to_string().contains("1 to 8 houses"), "{e}");
        assert!(plan("9", "1").boards().is_err());
        let e = plan("3", "0..2").boards().unwrap_err();
        assert!(e.to_string().contains("at least 1 seed"), "{e}");
        let oware = Plan {
            rules: RuleOptions {
                preset: kalah_core::Preset::Oware,
                ..RuleOptions::default()
            },
            captures: Captures::Only(Capture::Empty),
            ..plan("3", "1")
        };
        assert!(matches!(oware.boards(), Err(PlanError::Rules(_))));
    }
}
