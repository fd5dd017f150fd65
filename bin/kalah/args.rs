//! Argument groups shared by the subcommands: the rules of the game and the position to
//! start from (together, [`GameArgs`]), the file to write instead of standard output, and
//! the one function that turns the rules and the position into a [`Game`] and a
//! [`Position`].

use std::path::{Path, PathBuf};

use clap::builder::{PossibleValuesParser, TypedValueParser};
use kalah_analysis::setup::RuleOptions;
use kalah_core::{Capture, End, Game, GrandSlam, Leftovers, Position, Preset, Rules};

use crate::error::CliError;

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

    /// The rule options as the library takes them.
    pub fn options(&self) -> RuleOptions {
        RuleOptions {
            houses: self.houses,
            seeds: self.seeds,
            preset: self.preset,
            capture: self.capture,
            end: self.end,
            leftovers: self.leftovers,
            grand_slam: self.grand_slam,
            // `--no-early-stop` wins, as it did when both could be given.
            early_stop: match (self.early_stop, self.no_early_stop) {
                (_, true) => Some(false),
                (true, false) => Some(true),
                (false, false) => None,
            },
        }
    }

    /// The rules for a board of `houses` houses with `seeds` seeds per house.
    pub fn rules(&self, houses: u8, seeds: u8) -> Rules {
        self.options().rules(houses, seeds)
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

impl PositionArgs {
    /// True when a board or moves were given (the position is not the start).
    pub fn is_given(&self) -> bool {
        self.position.is_some() || self.moves.is_some()
    }
}

/// The game a subcommand works on: the rules and the position to start from.
#[derive(clap::Args, Debug, Clone)]
pub struct GameArgs {
    #[command(flatten)]
    pub rules: RulesArgs,

    #[command(flatten)]
    pub position: PositionArgs,
}

impl GameArgs {
    /// The game and the position to start from ([`setup`]).
    pub fn setup(&self) -> Result<(Game, Position), CliError> {
        setup(&self.rules, &self.position)
    }
}

/// Where an answer goes: standard output, or `--output FILE`.
#[derive(clap::Args, Debug, Clone)]
pub struct OutputArgs {
    /// Write to FILE instead of standard output: checked before any work, written whole
    /// (atomically) at the end, never half a file
    #[arg(long, short, value_name = "FILE")]
    output: Option<PathBuf>,

    /// Replace an existing --output FILE that is no report of kalah openings or pie, a
    /// read-only one, or a symbolic link (the link itself; its target is left alone)
    #[arg(long, requires = "output")]
    force: bool,
}

impl OutputArgs {
    /// The file to write, if one was given.
    pub fn file(&self) -> Option<&Path> {
        self.output.as_deref()
    }

    /// Whether `--force` was given (see `kalah_io::Checks::force`).
    pub fn force(&self) -> bool {
        self.force
    }
}

/// Builds the game from the rule options and the position to start from
/// ([`kalah_analysis::setup::setup`]).
///
/// The board size comes from `--position` when `--houses` is not given. A position holding
/// more seeds than `--seeds` allows raises the seeds per house to the smallest number that
/// holds it, unless `--seeds` was given explicitly. A hand-entered position goes through
/// [`Game::settle`], so one whose game is already over is shown as finished.
pub fn setup(rules: &RulesArgs, position: &PositionArgs) -> Result<(Game, Position), CliError> {
    Ok(kalah_analysis::setup::setup(
        &rules.options(),
        position.position.as_deref(),
        position.moves.as_deref(),
    )?)
}
