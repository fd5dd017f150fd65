//! Rule options of the Kalah family, as one small value type, and the named presets.

use std::fmt;
use std::str::FromStr;

/// The largest number of houses per side the packed encoding holds (16 lanes of 8 bits).
pub const MAX_HOUSES: usize = 8;
/// The largest number of seeds a game may hold in all: a lane is one byte, and a
/// house can in principle gather every seed of the game.
pub const MAX_TOTAL_SEEDS: usize = 255;

/// Which rule family a game follows.
///
/// Only the Kalah family (standard Kalah and its options) is implemented. The
/// other families of docs/rules.md §5 (General, Ethiopian, Nigerian, Oware) sow and
/// capture differently; they are meant to come as further variants here with
/// their own position type behind the same move-generation interface, so the
/// Kalah sowing path never has to test for them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Family {
    /// Kalah (the "Egyptian" row of seed 001): extra turns and captures.
    #[default]
    Kalah,
}

/// What a last seed in an empty house of the mover's own row captures.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Capture {
    /// Capture only when the opposite house holds seeds (rule 3, docs/rules.md §2.3).
    #[default]
    Standard,
    /// Capture the single seed even when the opposite house is empty
    /// (the "empty capture" option; the rule of the classic published solves).
    Empty,
}

/// When the game ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum End {
    /// As soon as either row is empty after a sowing (rule 4, docs/rules.md §2.4).
    #[default]
    RowEmpty,
    /// When the player whose turn it is has no seeds in their row (seed 002).
    MoverStuck,
}

/// Where the seeds still in the houses go when the game ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Leftovers {
    /// Each player adds the seeds left in their own row to their own store.
    #[default]
    Owner,
    /// Seeds left in the houses are not counted.
    Discard,
}

/// A complete set of rule options. Small and `Copy`; validated by [`crate::Game::new`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    /// Rule family.
    pub family: Family,
    /// Houses per side (1 to [`MAX_HOUSES`]).
    pub houses: u8,
    /// Seeds per house at the start.
    pub seeds: u8,
    /// Capture rule.
    pub capture: Capture,
    /// End-of-game rule.
    pub end: End,
    /// Where seeds left in the houses go at the end.
    pub leftovers: Leftovers,
    /// End the game as soon as one store holds more than half of all seeds.
    /// The seeds still in the houses are then not counted **(choice)**.
    pub early_stop: bool,
}

impl Default for Rules {
    fn default() -> Self {
        Rules::kalah(6, 4)
    }
}

/// The named rule presets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Preset {
    /// Standard Kalah: standard capture, game ends when a row empties, leftovers to their owner.
    Kalah,
    /// Standard Kalah with empty capture (Irving, Donkers and Uiterwijk, 2000).
    KalahEmpty,
    /// The online rules of seed 002: the game ends when the mover is stuck, or as soon as
    /// a store holds more than half of all seeds.
    Online,
    /// Seed 002's rules with its "empty capture" option.
    OnlineEmpty,
}

impl Preset {
    /// Every preset with its name, for help texts and parsing.
    pub const ALL: [(Preset, &'static str); 4] = [
        (Preset::Kalah, "kalah"),
        (Preset::KalahEmpty, "kalah-empty"),
        (Preset::Online, "online"),
        (Preset::OnlineEmpty, "online-empty"),
    ];

    /// The preset's name as written on the command line.
    pub fn name(self) -> &'static str {
        Preset::ALL
            .iter()
            .find(|(p, _)| *p == self)
            .map(|(_, n)| *n)
            .unwrap_or("kalah")
    }

    /// The rules of this preset for the given board.
    pub fn rules(self, houses: u8, seeds: u8) -> Rules {
        let base = Rules::kalah(houses, seeds);
        match self {
            Preset::Kalah => base,
            Preset::KalahEmpty => Rules {
                capture: Capture::Empty,
                ..base
            },
            Preset::Online => Rules {
                end: End::MoverStuck,
                early_stop: true,
                ..base
            },
            Preset::OnlineEmpty => Rules {
                capture: Capture::Empty,
                end: End::MoverStuck,
                early_stop: true,
                ..base
            },
        }
    }
}

impl Rules {
    /// Standard Kalah on `houses` houses per side with `seeds` seeds in each.
    pub const fn kalah(houses: u8, seeds: u8) -> Rules {
        Rules {
            family: Family::Kalah,
            houses,
            seeds,
            capture: Capture::Standard,
            end: End::RowEmpty,
            leftovers: Leftovers::Owner,
            early_stop: false,
        }
    }

    /// Every combination of the rule options (capture, end, leftovers, early stop: 16 in
    /// all) of Kalah on `houses` houses with `seeds` seeds, in that nesting order, the
    /// standard options first.
    pub fn every_option(houses: u8, seeds: u8) -> Vec<Rules> {
        let mut v = Vec::with_capacity(16);
        for capture in [Capture::Standard, Capture::Empty] {
            for end in [End::RowEmpty, End::MoverStuck] {
                for leftovers in [Leftovers::Owner, Leftovers::Discard] {
                    for early_stop in [false, true] {
                        v.push(Rules {
                            capture,
                            end,
                            leftovers,
                            early_stop,
                            ..Rules::kalah(houses, seeds)
                        });
                    }
                }
            }
        }
        v
    }

    /// The number of seeds in the game at the start (both rows).
    pub fn total_seeds(&self) -> usize {
        2 * self.houses as usize * self.seeds as usize
    }

    /// Checks that the packed encoding can hold this game.
    pub fn validate(&self) -> Result<(), RulesError> {
        let h = self.houses as usize;
        if h == 0 || h > MAX_HOUSES {
            return Err(RulesError::Houses(self.houses as usize));
        }
        if self.seeds == 0 {
            return Err(RulesError::NoSeeds);
        }
        if self.total_seeds() > MAX_TOTAL_SEEDS {
            return Err(RulesError::TooManySeeds {
                houses: h,
                seeds: self.seeds as usize,
            });
        }
        Ok(())
    }
}

impl fmt::Display for Rules {
    /// A one-line description such as `Kalah(6,4) capture=standard end=row-empty leftovers=owner`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Kalah({},{}) capture={} end={} leftovers={}{}",
            self.houses,
            self.seeds,
            self.capture,
            self.end,
            self.leftovers,
            if self.early_stop { " early-stop" } else { "" }
        )
    }
}

/// Why a set of rules was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RulesError {
    /// The number of houses is outside 1..=MAX_HOUSES.
    Houses(usize),
    /// Zero seeds per house.
    NoSeeds,
    /// More seeds in the game than a one-byte lane can hold.
    TooManySeeds {
        /// Houses per side.
        houses: usize,
        /// Seeds per house.
        seeds: usize,
    },
    /// An option value that is not one of the known names.
    UnknownValue {
        /// The option.
        option: &'static str,
        /// What was given.
        given: String,
        /// The accepted names.
        expected: &'static str,
    },
}

impl fmt::Display for RulesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RulesError::Houses(h) => write!(
                f,
                "{h} houses per side is not supported: use 1 to {MAX_HOUSES} houses"
            ),
            RulesError::NoSeeds => write!(f, "seeds per house must be at least 1"),
            RulesError::TooManySeeds { houses, seeds } => write!(
                f,
                "{houses} houses with {seeds} seeds each make {} seeds, more than the {MAX_TOTAL_SEEDS} the packed board holds",
                2 * houses * seeds
            ),
            RulesError::UnknownValue { option, given, expected } => {
                write!(f, "unknown {option} '{given}': expected one of {expected}")
            }
        }
    }
}

impl std::error::Error for RulesError {}

macro_rules! named_enum {
    ($ty:ident, $option:literal, $($variant:ident => $name:literal),+) => {
        impl $ty {
            /// The option's value as written on the command line.
            pub fn name(self) -> &'static str {
                match self { $($ty::$variant => $name),+ }
            }
        }
        impl fmt::Display for $ty {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.name())
            }
        }
        impl FromStr for $ty {
            type Err = RulesError;
            fn from_str(s: &str) -> Result<Self, RulesError> {
                match s.trim().to_ascii_lowercase().as_str() {
                    $($name => Ok($ty::$variant),)+
                    _ => Err(RulesError::UnknownValue {
                        option: $option,
                        given: s.to_string(),
                        expected: concat!($($name, " "),+),
                    }),
                }
            }
        }
    };
}

named_enum!(Capture, "capture rule", Standard => "standard", Empty => "empty");
named_enum!(End, "end rule", RowEmpty => "row-empty", MoverStuck => "mover-stuck");
named_enum!(Leftovers, "leftovers rule", Owner => "owner", Discard => "discard");

impl FromStr for Preset {
    type Err = RulesError;
    fn from_str(s: &str) -> Result<Self, RulesError> {
        let s = s.trim().to_ascii_lowercase();
        Preset::ALL
            .iter()
            .find(|(_, n)| *n == s)
            .map(|(p, _)| *p)
            .ok_or(RulesError::UnknownValue {
                option: "rules preset",
                given: s,
                expected: "kalah kalah-empty online online-empty",
            })
    }
}
