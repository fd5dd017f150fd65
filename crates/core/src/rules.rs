//! Rule options of the Kalah family, as one small value type, and the named presets.

use std::fmt;
use std::str::FromStr;

/// The largest number of houses per side the packed encoding holds (16 lanes of 8 bits).
pub const MAX_HOUSES: usize = 8;
/// The largest number of seeds a game may hold in all: a lane is one byte, and a
/// house can in principle gather every seed of the game.
pub const MAX_TOTAL_SEEDS: usize = 255;

/// Which rule family a game follows: how a sowing goes round the board and what it
/// captures (docs/rules.md §5). The end and leftovers options and the early stop apply to
/// every family; the capture option to Kalah only.
///
/// In every family a seed that reaches a store stays there, so a position's value is its
/// store margin plus a value of the houses alone. Ethiopian Kalah and Oware can return to
/// a position already seen ([`Family::is_cyclic`]); they are solved by retrograde analysis,
/// the others by search.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Family {
    /// Kalah (also the "Egyptian" rules of *Este tablero*): extra turns and captures.
    #[default]
    Kalah,
    /// General Kalah (*Este tablero*): Kalah's sowing without extra turns or captures.
    General,
    /// Nigerian Kalah (*Este tablero*): sowing passes both stores, relay sowing from a house
    /// that was not empty, and a house that reaches 4 seeds is captured by its owner.
    Nigerian,
    /// Ethiopian Kalah (*Este tablero*): Egyptian Kalah where the mover chooses the direction of
    /// each sowing, may not sow a single seed, and is stuck (the game ends) when every
    /// house of theirs holds at most one seed; only the stores count.
    Ethiopian,
    /// Oware (abapa, *Быстрый старт*): no stores on the sowing path, captures of 2 and 3 in the
    /// opponent's row, the obligation to feed an opponent without seeds.
    Oware,
}

impl Family {
    /// Every family, for help texts and parsing.
    pub const ALL: [Family; 5] = [
        Family::Kalah,
        Family::General,
        Family::Nigerian,
        Family::Ethiopian,
        Family::Oware,
    ];

    /// The family's name as written in the notation of rules (`kalah`, `general`, ...).
    pub fn name(self) -> &'static str {
        match self {
            Family::Kalah => "kalah",
            Family::General => "general",
            Family::Nigerian => "nigerian",
            Family::Ethiopian => "ethiopian",
            Family::Oware => "oware",
        }
    }

    /// The family's name as a title (`Kalah`, `General`, `Nigerian`), for descriptions.
    pub fn title(self) -> &'static str {
        match self {
            Family::Kalah => "Kalah",
            Family::General => "General",
            Family::Nigerian => "Nigerian",
            Family::Ethiopian => "Ethiopian",
            Family::Oware => "Oware",
        }
    }

    /// The family's full name: `General Kalah`, `Oware`.
    pub fn long_title(self) -> &'static str {
        match self {
            Family::Kalah => "Kalah",
            Family::General => "General Kalah",
            Family::Nigerian => "Nigerian Kalah",
            Family::Ethiopian => "Ethiopian Kalah",
            Family::Oware => "Oware",
        }
    }

    /// True where the capture option ([`Capture`]) applies: Kalah's (and Ethiopian
    /// Kalah's) capture of a last seed in an empty own house. General captures nothing;
    /// Nigerian captures fours, Oware twos and threes.
    pub fn has_capture_option(self) -> bool {
        matches!(self, Family::Kalah | Family::Ethiopian)
    }

    /// True where positions can repeat (Ethiopian, Oware): values come from retrograde
    /// analysis of the whole game graph, play that would go on forever ends with the
    /// store margin standing (docs/rules.md §5.7).
    pub fn is_cyclic(self) -> bool {
        matches!(self, Family::Ethiopian | Family::Oware)
    }

    /// True where the mover chooses the direction of each sowing (Ethiopian): a move is
    /// then a house and a direction ([`crate::CLOCKWISE`]).
    pub fn has_direction(self) -> bool {
        self == Family::Ethiopian
    }

    /// The end and leftovers rules of a family that fixes its own (Ethiopian: the mover
    /// is stuck when no house holds two seeds, only the stores count; Oware: a player who
    /// cannot move or cannot feed ends the game and the owners keep their rows); `None`
    /// where both options apply.
    pub fn fixed_end(self) -> Option<(End, Leftovers)> {
        match self {
            Family::Ethiopian => Some((End::MoverStuck, Leftovers::Discard)),
            Family::Oware => Some((End::MoverStuck, Leftovers::Owner)),
            _ => None,
        }
    }

    /// What the family captures, as written in descriptions and JSON: the capture
    /// option's name for Kalah, `none` for General, `fours` for Nigerian.
    pub fn capture_name(self, capture: Capture) -> &'static str {
        match self {
            Family::Kalah => capture.name(),
            Family::General => "none",
            Family::Nigerian => "fours",
            Family::Ethiopian => capture.name(),
            Family::Oware => "twos-threes",
        }
    }
}

impl fmt::Display for Family {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Family {
    type Err = RulesError;
    fn from_str(s: &str) -> Result<Self, RulesError> {
        let s = s.trim().to_ascii_lowercase();
        Family::ALL
            .into_iter()
            .find(|f| f.name() == s)
            .ok_or(RulesError::UnknownValue {
                option: "rule family",
                given: s,
                expected: "kalah general nigerian ethiopian oware",
            })
    }
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
    /// When the player whose turn it is has no seeds in their row (*Гамехелпкалах*).
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

/// What an Oware sowing that would capture every seed of the opponent's row does (a
/// "grand slam").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum GrandSlam {
    /// The sowing is played and captures nothing **(choice)**, the common tournament rule.
    #[default]
    NoCapture,
    /// The sowing captures every seed it reached, leaving the opponent without seeds.
    CaptureAll,
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
    /// Oware's grand slam; the other families ignore it and keep the default.
    pub grand_slam: GrandSlam,
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
    /// The online rules of *Гамехелпкалах*: the game ends when the mover is stuck, or as soon as
    /// a store holds more than half of all seeds.
    Online,
    /// The rules of *Гамехелпкалах* with its "empty capture" option.
    OnlineEmpty,
    /// General Kalah (*Este tablero*): no extra turns, no captures, the game ends when a row is
    /// empty and only the stores count.
    General,
    /// Egyptian Kalah (*Este tablero*): Kalah, reading its capture as empty capture **(choice)**.
    Egyptian,
    /// Nigerian Kalah (*Este tablero*): relay sowing through both stores, fours captured, the
    /// game ends when the mover has no seeds and the other row is not counted.
    Nigerian,
    /// Ethiopian Kalah (*Este tablero*): Egyptian Kalah with the direction chosen each turn.
    Ethiopian,
    /// Oware (abapa) with the grand slam capturing nothing.
    Oware,
}

impl Preset {
    /// Every preset with its name, for help texts and parsing.
    pub const ALL: [(Preset, &'static str); 9] = [
        (Preset::Kalah, "kalah"),
        (Preset::KalahEmpty, "kalah-empty"),
        (Preset::Online, "online"),
        (Preset::OnlineEmpty, "online-empty"),
        (Preset::General, "general"),
        (Preset::Egyptian, "egyptian"),
        (Preset::Nigerian, "nigerian"),
        (Preset::Ethiopian, "ethiopian"),
        (Preset::Oware, "oware"),
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
            Preset::General => Rules::general(houses, seeds),
            Preset::Egyptian => Rules {
                capture: Capture::Empty,
                ..base
            },
            Preset::Nigerian => Rules::nigerian(houses, seeds),
            Preset::Ethiopian => Rules::ethiopian(houses, seeds),
            Preset::Oware => Rules::oware(houses, seeds),
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
            grand_slam: GrandSlam::NoCapture,
        }
    }

    /// General Kalah (*Este tablero*) on `houses` houses per side with `seeds` seeds in each:
    /// no extra turns and no captures; the game ends as soon as either row is empty, and
    /// the seeds left in the houses are not counted.
    pub const fn general(houses: u8, seeds: u8) -> Rules {
        Rules {
            family: Family::General,
            leftovers: Leftovers::Discard,
            ..Rules::kalah(houses, seeds)
        }
    }

    /// Nigerian Kalah (*Este tablero*) on `houses` houses per side with `seeds` seeds in each:
    /// the game ends when the player to move has no seeds, and the seeds on the other side
    /// are not counted.
    pub const fn nigerian(houses: u8, seeds: u8) -> Rules {
        Rules {
            family: Family::Nigerian,
            end: End::MoverStuck,
            leftovers: Leftovers::Discard,
            ..Rules::kalah(houses, seeds)
        }
    }

    /// Ethiopian Kalah (*Este tablero*) on `houses` houses per side with `seeds` seeds in each,
    /// with the empty capture of the Egyptian reading **(choice)**.
    pub const fn ethiopian(houses: u8, seeds: u8) -> Rules {
        Rules {
            family: Family::Ethiopian,
            capture: Capture::Empty,
            end: End::MoverStuck,
            leftovers: Leftovers::Discard,
            ..Rules::kalah(houses, seeds)
        }
    }

    /// Oware (abapa, *Быстрый старт*) on `houses` houses per side with `seeds` seeds in each,
    /// the grand slam capturing nothing **(choice)**.
    pub const fn oware(houses: u8, seeds: u8) -> Rules {
        Rules {
            family: Family::Oware,
            end: End::MoverStuck,
            ..Rules::kalah(houses, seeds)
        }
    }

    /// Every combination of the options of the families whose positions can repeat:
    /// Ethiopian's capture and early stop (4), then Oware's grand slam and early stop (4).
    pub fn every_cyclic_variant(houses: u8, seeds: u8) -> Vec<Rules> {
        let mut v = Vec::with_capacity(8);
        for capture in [Capture::Empty, Capture::Standard] {
            for early_stop in [false, true] {
                v.push(Rules {
                    capture,
                    early_stop,
                    ..Rules::ethiopian(houses, seeds)
                });
            }
        }
        for grand_slam in [GrandSlam::NoCapture, GrandSlam::CaptureAll] {
            for early_stop in [false, true] {
                v.push(Rules {
                    grand_slam,
                    early_stop,
                    ..Rules::oware(houses, seeds)
                });
            }
        }
        v
    }

    /// Every combination of the rule options of every family on `houses` houses with
    /// `seeds` seeds: Kalah's 16 ([`Rules::every_option`]), then General's and
    /// Nigerian's 8 each (end, leftovers, early stop; they have no capture option).
    pub fn every_variant(houses: u8, seeds: u8) -> Vec<Rules> {
        let mut v = Rules::every_option(houses, seeds);
        for family in [Family::General, Family::Nigerian] {
            v.extend(
                Rules::every_option(houses, seeds)
                    .into_iter()
                    .filter(|r| r.capture == Capture::Standard)
                    .map(|r| Rules { family, ..r }),
            );
        }
        v
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
        if self.capture != Capture::Standard && !self.family.has_capture_option() {
            return Err(RulesError::NoCaptureOption(self.family));
        }
        if let Some((end, leftovers)) = self.family.fixed_end() {
            if (self.end, self.leftovers) != (end, leftovers) {
                return Err(RulesError::FixedEnd(self.family));
            }
        }
        if self.grand_slam != GrandSlam::NoCapture && self.family != Family::Oware {
            return Err(RulesError::NoGrandSlam(self.family));
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
    /// A one-line description such as `Kalah(6,4) capture=standard end=row-empty
    /// leftovers=owner`, or `Nigerian(6,4) capture=fours end=mover-stuck leftovers=discard`.
    /// Oware adds its grand slam: `Oware(6,4) capture=twos-threes grand-slam=no-capture
    /// end=mover-stuck leftovers=owner`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}({},{}) capture={}{} end={} leftovers={}{}",
            self.family.title(),
            self.houses,
            self.seeds,
            self.family.capture_name(self.capture),
            match self.family {
                Family::Oware => format!(" grand-slam={}", self.grand_slam),
                _ => String::new(),
            },
            self.end,
            self.leftovers,
            if self.early_stop { " early-stop" } else { "" }
        )
    }
}

impl FromStr for Rules {
    type Err = RulesError;

    /// Reads the one-line description that [`Rules`]'s `Display` writes (`Kalah(6,4)
    /// capture=standard end=row-empty leftovers=owner`, with `grand-slam=...` for Oware and
    /// `early-stop` when on), so that files can name their rules and be read back. Options
    /// left out keep the family's defaults; the rules are validated.
    fn from_str(s: &str) -> Result<Rules, RulesError> {
        let bad = |given: &str| RulesError::UnknownValue {
            option: "rules",
            given: given.to_string(),
            expected: "a description such as Kalah(6,4) capture=standard end=row-empty \
                       leftovers=owner",
        };
        let mut words = s.split_whitespace();
        let head = words.next().ok_or_else(|| bad(s))?;
        let (title, board) = head.split_once('(').ok_or_else(|| bad(s))?;
        let board = board.strip_suffix(')').ok_or_else(|| bad(s))?;
        let (houses, seeds) = board.split_once(',').ok_or_else(|| bad(s))?;
        let (houses, seeds): (u8, u8) = match (houses.trim().parse(), seeds.trim().parse()) {
            (Ok(h), Ok(n)) => (h, n),
            _ => return Err(bad(s)),
        };
        let family: Family = title.parse()?;
        let mut rules = match family {
            Family::Kalah => Rules::kalah(houses, seeds),
            Family::General => Rules::general(houses, seeds),
            Family::Nigerian => Rules::nigerian(houses, seeds),
            Family::Ethiopian => Rules::ethiopian(houses, seeds),
            Family::Oware => Rules::oware(houses, seeds),
        };
        for word in words {
            match word.split_once('=') {
                None if word == "early-stop" => rules.early_stop = true,
                None => return Err(bad(word)),
                Some(("capture", v)) if family.has_capture_option() => rules.capture = v.parse()?,
                Some(("capture", v)) if v == family.capture_name(rules.capture) => {}
                Some(("end", v)) => rules.end = v.parse()?,
                Some(("leftovers", v)) => rules.leftovers = v.parse()?,
                Some(("grand-slam", v)) => rules.grand_slam = v.parse()?,
                Some(_) => return Err(bad(word)),
            }
        }
        rules.validate()?;
        Ok(rules)
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
    /// A capture option other than the default for a family without one.
    NoCaptureOption(Family),
    /// End or leftovers options other than those of a family that fixes its own.
    FixedEnd(Family),
    /// A grand slam option for a family other than Oware.
    NoGrandSlam(Family),
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
            RulesError::NoCaptureOption(family) => write!(
                f,
                "{} has no capture option (it captures {}; standard and empty capture are Kalah's)",
                family.long_title(),
                family.capture_name(Capture::Standard)
            ),
            RulesError::FixedEnd(family) => {
                let (end, leftovers) = family.fixed_end().unwrap_or_default();
                write!(
                    f,
                    "{} has its own end of game (end={end} leftovers={leftovers}): leave out --end and --leftovers",
                    family.long_title()
                )
            }
            RulesError::NoGrandSlam(family) => write!(
                f,
                "the grand slam is Oware's option; {} has none",
                family.title()
            ),
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
named_enum!(GrandSlam, "grand slam rule", NoCapture => "no-capture", CaptureAll => "capture-all");

/// The presets' names, for the error of an unknown one.
const PRESET_NAMES: &str =
    "kalah kalah-empty online online-empty general egyptian nigerian ethiopian oware";

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
                expected: PRESET_NAMES,
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_description_reads_back_as_its_rules() {
        for (h, s) in [(1, 1), (4, 3), (6, 4), (6, 6)] {
            let mut all = Rules::every_variant(h, s);
            all.extend(Rules::every_cyclic_variant(h, s));
            for rules in all {
                let text = rules.to_string();
                assert_eq!(text.parse::<Rules>(), Ok(rules), "{text}");
            }
        }
    }

    #[test]
    fn a_bad_description_is_refused() {
        for text in [
            "",
            "Kalah",
            "Kalah(6,x)",
            "Mancala(6,4)",
            "Kalah(6,4) capture=fours",
            "General(6,4) capture=empty",
            "Kalah(6,4) colour=red",
            "Kalah(6,4) grand-slam=capture-all",
            "Kalah(9,4)",
        ] {
            assert!(text.parse::<Rules>().is_err(), "{text}");
        }
    }
}
