//! What a front end asks for, turned into a game and a position: the rule options (a
//! preset and the options that override it), the board to start from and the moves
//! played from it. The command line and the analysis board read their input into
//! [`RuleOptions`] and call [`setup`], so both accept exactly the same input and refuse
//! it with the same messages (which name the command line's options). Bao, whose board
//! and notation are its own, is set up the same way by [`bao`].

pub mod bao;
pub mod fit;
mod given;
pub mod limits;
pub mod words;

use std::fmt;

use kalah_core::{
    notation, Capture, End, Family, Game, GrandSlam, Leftovers, MoveError, Position, PositionError,
    Preset, Rules, RulesError,
};

/// Houses per side when neither the options nor the position say otherwise.
pub const DEFAULT_HOUSES: u8 = 6;
/// Seeds per house when the options do not say.
pub const DEFAULT_SEEDS: u8 = 4;

/// The rules of the game as asked for: a board size, a preset, and options that override
/// the preset (`None`: the preset's).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RuleOptions {
    /// Houses per side [default: 6, or inferred from the position].
    pub houses: Option<u8>,
    /// Seeds per house at the start [default: 4, or raised to hold the position].
    pub seeds: Option<u8>,
    /// The preset the options below override.
    pub preset: Preset,
    /// What a last seed in an empty own house captures.
    pub capture: Option<Capture>,
    /// When the game ends.
    pub end: Option<End>,
    /// Where the seeds left in the houses go at the end.
    pub leftovers: Option<Leftovers>,
    /// Oware: what a sowing that would capture every seed of the opponent does.
    pub grand_slam: Option<GrandSlam>,
    /// Whether the game ends as soon as one store holds more than half of all seeds.
    pub early_stop: Option<bool>,
}

impl Default for RuleOptions {
    /// The `kalah` preset, nothing overridden.
    fn default() -> Self {
        RuleOptions {
            houses: None,
            seeds: None,
            preset: Preset::Kalah,
            capture: None,
            end: None,
            leftovers: None,
            grand_slam: None,
            early_stop: None,
        }
    }
}

impl RuleOptions {
    /// Refuses an option given that the preset's family does not have, even where its
    /// value is the one the family plays by (`--rules oware --capture standard`): an
    /// option that would change nothing is a mistake to point out, not to ignore.
    pub fn check(&self) -> Result<(), RulesError> {
        let family = self.preset.rules(DEFAULT_HOUSES, DEFAULT_SEEDS).family;
        if self.capture.is_some() && !family.has_capture_option() {
            return Err(RulesError::NoCaptureOption(family));
        }
        if (self.end.is_some() || self.leftovers.is_some()) && family.fixed_end().is_some() {
            return Err(RulesError::FixedEnd(family));
        }
        if self.grand_slam.is_some() && family != Family::Oware {
            return Err(RulesError::NoGrandSlam(family));
        }
        Ok(())
    }

    /// The rules of the board the options name where no position gives one (an endgame
    /// database's): `houses` [default: [`DEFAULT_HOUSES`]], `seeds` [default:
    /// [`DEFAULT_SEEDS`]].
    pub fn board_rules(&self) -> Rules {
        self.rules(
            self.houses.unwrap_or(DEFAULT_HOUSES),
            self.seeds.unwrap_or(DEFAULT_SEEDS),
        )
    }

    /// The rules for a board of `houses` houses with `seeds` seeds per house.
    pub fn rules(&self, houses: u8, seeds: u8) -> Rules {
        let mut rules = self.preset.rules(houses, seeds);
        if let Some(capture) = self.capture {
            rules.capture = capture;
        }
        if let Some(end) = self.end {
            rules.end = end;
        }
        if let Some(leftovers) = self.leftovers {
            rules.leftovers = leftovers;
        }
        if let Some(grand_slam) = self.grand_slam {
            rules.grand_slam = grand_slam;
        }
        if let Some(early_stop) = self.early_stop {
            rules.early_stop = early_stop;
        }
        rules
    }
}

/// Why the options, the position or the moves give no game to play.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetupError {
    /// The rule options do not make a playable game.
    Rules(RulesError),
    /// The position could not be read or does not fit the rules.
    Position(PositionError),
    /// The moves could not be read or contain a move that cannot be played.
    Moves(PositionError),
    /// The position has a number of houses other than the one the options ask for.
    HousesMismatch {
        /// Houses per side in the position.
        position: usize,
        /// Houses per side asked for.
        houses: usize,
    },
    /// The position holds more seeds than the seeds per house, given explicitly, allow.
    SeedsTooFew {
        /// Seeds in the position.
        total: usize,
        /// Houses per side.
        houses: usize,
        /// Seeds per house asked for.
        seeds: usize,
    },
    /// The position holds more seeds than any game on its board size can (seeds per house
    /// times `2H` must stay within the packed board's 255).
    PositionTooLarge {
        /// Seeds in the position.
        total: usize,
        /// Houses per side.
        houses: usize,
        /// The most seeds a game on this board can hold.
        max: usize,
    },
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetupError::Rules(e @ RulesError::TooManySeeds { .. }) => {
                write!(f, "{e}: lower --houses or --seeds")
            }
            SetupError::Rules(e) => write!(f, "{e}"),
            // The core suggests raising --seeds, which cannot help past the encoding's limit.
            SetupError::Position(PositionError::TooManySeeds { seeds, capacity }) => write!(
                f,
                "--position holds {seeds} seeds, more than the {capacity} the packed board \
                 holds: remove seeds from the position"
            ),
            SetupError::Position(e) => write!(f, "--position: {e}"),
            SetupError::Moves(e) => write!(f, "--moves: {}", move_message(e)),
            SetupError::HousesMismatch { position, houses } => write!(
                f,
                "--position has {position} houses per side but --houses says {houses}: \
                 drop --houses (it is inferred from the position) or give {} counts",
                2 * houses + 2
            ),
            SetupError::SeedsTooFew {
                total,
                houses,
                seeds,
            } => write!(
                f,
                "--position holds {total} seeds but --seeds {seeds} allows at most {} \
                 (2 x {houses} houses x {seeds}): raise --seeds to {} or leave it out",
                2 * houses * seeds,
                total.div_ceil(2 * houses)
            ),
            SetupError::PositionTooLarge { total, houses, max } => write!(
                f,
                "--position holds {total} seeds, but a game with {houses} houses per side \
                 holds at most {max} (2 x {houses} houses x seeds per house, within 255): \
                 remove seeds from the position"
            ),
        }
    }
}

impl std::error::Error for SetupError {}

/// The message for a move that could not be read or played, naming the bin as the user
/// wrote it (the core's own message for an empty house counts houses from the mover's left,
/// which for North is not the bin number).
pub fn move_message(e: &PositionError) -> String {
    match e {
        PositionError::Illegal {
            bin,
            why: MoveError::EmptyHouse { .. },
        } => format!("cannot sow bin {bin}: it holds no seeds"),
        e => e.to_string(),
    }
}

/// Plays the turn a player typed: a bin, or bins joined by `-` where every sowing but the
/// last gives an extra turn (`3<` sows clockwise where the family allows it), all or
/// nothing; a list of turns (commas, blanks) is refused.
pub fn typed_turn(game: &Game, pos: &Position, text: &str) -> Result<Position, PositionError> {
    if text.contains(|c: char| c == ',' || c.is_whitespace()) {
        return Err(PositionError::BadMove(text.to_string()));
    }
    notation::play_moves(game, *pos, text).map(|(next, _)| next)
}

/// Builds the game from the rule options and the position to start from: the board
/// `position` (else the game's start) with the `moves` played.
///
/// The board size comes from the position when `options.houses` is not given. A
/// position holding more seeds than the seeds per house allow raises them to the
/// smallest number that holds it, unless `options.seeds` was given. A hand-entered
/// position goes through [`Game::settle`], so one whose game is already over is shown as
/// finished.
pub fn setup(
    options: &RuleOptions,
    position: Option<&str>,
    moves: Option<&str>,
) -> Result<(Game, Position), SetupError> {
    options.check().map_err(SetupError::Rules)?;
    let (game, start) = match position {
        None => {
            let houses = options.houses.unwrap_or(DEFAULT_HOUSES);
            let seeds = options.seeds.unwrap_or(DEFAULT_SEEDS);
            let game = Game::new(options.rules(houses, seeds)).map_err(SetupError::Rules)?;
            let start = game.start();
            (game, start)
        }
        Some(text) => {
            let pos: Position = text.parse().map_err(SetupError::Position)?;
            let h = pos.houses_per_side();
            let seeds = seeds_for(options, &pos)?;
            let game = Game::new(options.rules(h as u8, seeds)).map_err(SetupError::Rules)?;
            let start = game.settle(pos).map_err(SetupError::Position)?;
            (game, start)
        }
    };
    let start = match moves {
        None => start,
        Some(list) => {
            notation::play_moves(&game, start, list)
                .map_err(SetupError::Moves)?
                .0
        }
    };
    Ok((game, start))
}

/// The position `text` of `game`, as [`setup`] reads a `--position` with `--houses` and
/// `--seeds` given (the game's): refused where it has another number of houses or more
/// seeds than the game holds, settled where the game is over.
pub fn position_in(game: &Game, text: &str) -> Result<Position, SetupError> {
    let pos: Position = text.parse().map_err(SetupError::Position)?;
    let rules = game.rules();
    let options = RuleOptions {
        houses: Some(rules.houses),
        seeds: Some(rules.seeds),
        ..RuleOptions::default()
    };
    seeds_for(&options, &pos)?;
    game.settle(pos).map_err(SetupError::Position)
}

/// The seeds per house of the game of a hand-entered position: as asked if it holds the
/// position, else the fewest that do (at least the default).
fn seeds_for(options: &RuleOptions, pos: &Position) -> Result<u8, SetupError> {
    let h = pos.houses_per_side();
    if let Some(houses) = options.houses {
        if houses as usize != h {
            return Err(SetupError::HousesMismatch {
                position: h,
                houses: houses as usize,
            });
        }
    }
    let total = pos.total_seeds() as usize;
    match options.seeds {
        Some(s) if 2 * h * s as usize >= total => Ok(s),
        Some(s) => Err(SetupError::SeedsTooFew {
            total,
            houses: h,
            seeds: s as usize,
        }),
        None => {
            let needed = total.div_ceil(2 * h).max(DEFAULT_SEEDS as usize);
            let max = kalah_core::MAX_TOTAL_SEEDS / (2 * h);
            if needed > max {
                return Err(SetupError::PositionTooLarge {
                    total,
                    houses: h,
                    max: 2 * h * max,
                });
            }
            Ok(needed as u8)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_board_without_a_position_takes_the_default_size() {
        let options = RuleOptions {
            capture: Some(Capture::Empty),
            ..RuleOptions::default()
        };
        let mut empty = Rules::kalah(6, 4);
        empty.capture = Capture::Empty;
        assert_eq!(options.board_rules(), empty);
        let options = RuleOptions {
            houses: Some(4),
            seeds: Some(3),
            ..RuleOptions::default()
        };
        assert_eq!(options.board_rules(), Rules::kalah(4, 3));
    }

    #[test]
    fn a_typed_turn_is_one_turn_played_whole() {
        let game = Game::new(Rules::kalah(6, 4)).unwrap();
        let start = game.start();
        // Bin 3 of Kalah(6,4) ends in the store: an extra turn, then bin 6.
        let after = typed_turn(&game, &start, "3-6").unwrap();
        assert_eq!(after.side_to_move(), kalah_core::Side::North);
        for refused in ["3,6", "3 6", "3-", "x"] {
            assert!(typed_turn(&game, &start, refused).is_err(), "{refused}");
        }
    }

    #[test]
    fn no_options_give_kalah_six_by_four_from_its_start() {
        let (game, pos) = setup(&RuleOptions::default(), None, None).unwrap();
        assert_eq!(*game.rules(), Preset::Kalah.rules(6, 4));
        assert_eq!(pos, game.start());
    }

    #[test]
    fn a_position_sets_the_board_and_raises_the_seeds_to_hold_it() {
        let (game, _) = setup(&RuleOptions::default(), Some("9,0,0,0,0,0:S"), None).unwrap();
        assert_eq!((game.houses(), game.rules().seeds), (2, 4));
        let options = RuleOptions {
            seeds: Some(1),
            ..RuleOptions::default()
        };
        let e = setup(&options, Some("9,0,0,0,0,0:S"), None).err().unwrap();
        assert!(matches!(e, SetupError::SeedsTooFew { total: 9, .. }), "{e}");
    }

    #[test]
    fn an_option_the_family_lacks_is_refused_even_at_its_own_value() {
        let oware = |o: RuleOptions| RuleOptions {
            preset: Preset::Oware,
            ..o
        };
        for options in [
            oware(RuleOptions {
                capture: Some(Capture::Standard),
                ..RuleOptions::default()
            }),
            RuleOptions {
                preset: Preset::General,
                capture: Some(Capture::Standard),
                ..RuleOptions::default()
            },
            oware(RuleOptions {
                end: Some(End::MoverStuck),
                ..RuleOptions::default()
            }),
            RuleOptions {
                grand_slam: Some(GrandSlam::NoCapture),
                ..RuleOptions::default()
            },
        ] {
            let e = setup(&options, None, None).err().unwrap();
            assert!(matches!(e, SetupError::Rules(_)), "{options:?}: {e}");
        }
        let kalah = RuleOptions {
            capture: Some(Capture::Standard),
            end: Some(End::RowEmpty),
            ..RuleOptions::default()
        };
        assert!(setup(&kalah, None, None).is_ok());
    }

    #[test]
    fn a_move_from_an_empty_house_names_its_bin() {
        let e = setup(&RuleOptions::default(), None, Some("3,3"))
            .err()
            .unwrap();
        assert!(matches!(e, SetupError::Moves(_)));
        assert!(e.to_string().starts_with("--moves: "), "{e}");
    }
}
