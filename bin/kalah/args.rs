//! Argument groups shared by the subcommands: the rules of the game and the position to
//! start from, and the one function that turns them into a [`Game`] and a [`Position`].

use clap::builder::{PossibleValuesParser, TypedValueParser};
use kalah_core::{notation, Capture, End, Game, GrandSlam, Leftovers, Position, Preset, Rules};

use crate::error::CliError;

/// Houses per side when neither `--houses` nor `--position` says otherwise.
const DEFAULT_HOUSES: u8 = 6;
/// Seeds per house when `--seeds` is not given.
const DEFAULT_SEEDS: u8 = 4;

/// The rules of the game: a board size, a preset, and options that override the preset.
#[derive(clap::Args, Debug, Clone)]
#[command(next_help_heading = "Rules")]
pub struct RulesArgs {
    /// Houses per side (1 to 8) [default: 6, or inferred from --position]
    #[arg(long, value_name = "H")]
    pub houses: Option<u8>,

    /// Seeds per house at the start [default: 4, or raised to hold --position]
    #[arg(long, value_name = "S")]
    pub seeds: Option<u8>,

    /// Rule preset; the options below override it. `general`, `egyptian`, `nigerian` and
    /// `ethiopian` are the rule families of the text "Este tablero" (docs/rules.md §5, §6): General (no
    /// extra turns, no captures), Egyptian (Kalah with empty capture), Nigerian (relay
    /// sowing through both stores, fours captured), Ethiopian (Egyptian with the direction
    /// chosen each turn: `3<` sows bin 3 clockwise); `oware` is abapa Oware ("Быстрый старт").
    /// Ethiopian and Oware repeat positions and are solved by retrograde analysis
    #[arg(
        long = "rules",
        value_name = "PRESET",
        default_value = "kalah",
        value_parser = PossibleValuesParser::new(Preset::ALL.map(|(_, name)| name))
            .try_map(|s| s.parse::<Preset>())
    )]
    pub preset: Preset,

    /// What a last seed in an empty own house captures: `standard` needs seeds in the
    /// opposite house, `empty` captures the single seed even when the opposite house is empty
    /// (Kalah, Egyptian and Ethiopian only: the other families have their own rules)
    #[arg(
        long,
        value_name = "RULE",
        value_parser = PossibleValuesParser::new(["standard", "empty"])
            .try_map(|s| s.parse::<Capture>())
    )]
    pub capture: Option<Capture>,

    /// When the game ends: `row-empty` as soon as either row is empty, `mover-stuck` when
    /// the player to move has no seeds (Ethiopian and Oware have their own end)
    #[arg(
        long,
        value_name = "RULE",
        value_parser = PossibleValuesParser::new(["row-empty", "mover-stuck"])
            .try_map(|s| s.parse::<End>())
    )]
    pub end: Option<End>,

    /// Where the seeds left in the houses go at the end: to their `owner`'s store, or
    /// `discard`ed
    #[arg(
        long,
        value_name = "RULE",
        value_parser = PossibleValuesParser::new(["owner", "discard"])
            .try_map(|s| s.parse::<Leftovers>())
    )]
    pub leftovers: Option<Leftovers>,

    /// Oware: what a sowing that would capture every seed of the opponent does:
    /// `no-capture` (it is played and captures nothing) or `capture-all`
    #[arg(
        long,
        value_name = "RULE",
        value_parser = PossibleValuesParser::new(["no-capture", "capture-all"])
            .try_map(|s| s.parse::<GrandSlam>())
    )]
    pub grand_slam: Option<GrandSlam>,

    /// End the game as soon as one store holds more than half of all seeds (on in the
    /// online presets)
    #[arg(long, conflicts_with = "no_early_stop")]
    pub early_stop: bool,

    /// Never end the game early at a majority, even under an online preset
    #[arg(long)]
    pub no_early_stop: bool,
}

impl RulesArgs {
    /// True when no rule option was given (the `kalah` preset is the default).
    pub fn is_default(&self) -> bool {
        self.houses.is_none()
            && self.seeds.is_none()
            && self.preset == Preset::Kalah
            && self.capture.is_none()
            && self.end.is_none()
            && self.leftovers.is_none()
            && self.grand_slam.is_none()
            && !self.early_stop
            && !self.no_early_stop
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
        if self.early_stop {
            rules.early_stop = true;
        }
        if self.no_early_stop {
            rules.early_stop = false;
        }
        rules
    }
}

/// The position to start from: the start position, a board, and moves played from it.
#[derive(clap::Args, Debug, Clone)]
#[command(next_help_heading = "Position")]
pub struct PositionArgs {
    /// Start from this board instead of the start position: the counts of South's houses,
    /// South's store, North's houses, North's store, then the side to move, e.g.
    /// `4,4,0,5,5,5,1,4,4,4,4,4,4,0:S`
    #[arg(long, value_name = "BOARD")]
    pub position: Option<String>,

    /// Sowings to play first, as bins separated by commas or spaces; a turn with extra
    /// sowings is written with dashes, e.g. `3-6,9` or `"3-6 9"`
    #[arg(long, value_name = "LIST")]
    pub moves: Option<String>,
}

/// Builds the game from the rule options and the position to start from.
///
/// The board size comes from `--position` when `--houses` is not given. A position holding
/// more seeds than `--seeds` allows raises the seeds per house to the smallest number that
/// holds it, unless `--seeds` was given explicitly. A hand-entered position goes through
/// [`Game::settle`], so one whose game is already over is shown as finished.
pub fn setup(rules: &RulesArgs, position: &PositionArgs) -> Result<(Game, Position), CliError> {
    let (game, start) = match &position.position {
        None => {
            let houses = rules.houses.unwrap_or(DEFAULT_HOUSES);
            let seeds = rules.seeds.unwrap_or(DEFAULT_SEEDS);
            let game = Game::new(rules.rules(houses, seeds))?;
            let start = game.start();
            (game, start)
        }
        Some(text) => {
            let pos: Position = text.parse().map_err(CliError::Position)?;
            let h = pos.houses_per_side();
            if let Some(houses) = rules.houses {
                if houses as usize != h {
                    return Err(CliError::HousesMismatch {
                        position: h,
                        houses: houses as usize,
                    });
                }
            }
            let total = pos.total_seeds() as usize;
            let seeds = match rules.seeds {
                Some(s) if 2 * h * s as usize >= total => s,
                Some(s) => {
                    return Err(CliError::SeedsTooFew {
                        total,
                        houses: h,
                        seeds: s as usize,
                    })
                }
                None => {
                    let needed = total.div_ceil(2 * h).max(DEFAULT_SEEDS as usize);
                    let max = kalah_core::MAX_TOTAL_SEEDS / (2 * h);
                    if needed > max {
                        return Err(CliError::PositionTooLarge {
                            total,
                            houses: h,
                            max: 2 * h * max,
                        });
                    }
                    needed as u8
                }
            };
            let game = Game::new(rules.rules(h as u8, seeds))?;
            let start = game.settle(pos).map_err(CliError::Position)?;
            (game, start)
        }
    };
    let start = match &position.moves {
        None => start,
        Some(list) => {
            notation::play_moves(&game, start, list)
                .map_err(CliError::Moves)?
                .0
        }
    };
    Ok((game, start))
}
