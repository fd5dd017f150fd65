//! Argument groups shared by the subcommands: the rules of the game and the position to
//! start from (together, [`GameArgs`]), the file to write instead of standard output, and
//! the one function that turns the rules and the position into a [`Game`] and a
//! [`Position`] (or, with `--rules bao`, a Bao board and position); and the check, after
//! parsing, that an option given fits the game the rules name ([`check_game`]).

use std::path::{Path, PathBuf};
use std::time::Duration;

use clap::builder::{PossibleValuesParser, TypedValueParser};
use clap::parser::ValueSource;
use clap::ArgMatches;
use kalah_analysis::game::options;
use kalah_analysis::game::setup::fit;
pub use kalah_analysis::game::setup::limits::parse_seconds;
use kalah_analysis::game::setup::limits::MAX_NODES;
use kalah_analysis::game::setup::RuleOptions;
use kalah_analysis::game::{Board, BoardError, Kind, RulesName};
use kalah_core::{Capture, End, Game, GrandSlam, Leftovers, Position, Preset, Rules};
use kalah_solver::Limits;

use crate::error::CliError;

/// The help heading of the options that only `--rules bao` takes (`Fit::BaoOnly` in the
/// table of `kalah_analysis::game::options`, which a test keeps in step with it).
pub const BAO_HEADING: &str = "Bao (--rules bao)";

/// The rules of the game: a board size, a preset, and options that override the preset.
#[derive(clap::Args, Debug, Clone)]
#[command(next_help_heading = "Rules")]
pub struct RulesArgs {
    /// Houses per side (1 to 8) [default: 6, or inferred from --position]; Bao: pits a
    /// row (3 to 8) [default: 8, or that of --position]
    #[arg(long, value_name = "H")]
    pub houses: Option<u8>,

    /// Seeds per house at the start [default: 4, or raised to hold --position]; Bao: seeds
    /// in each pit at the start [default: 2]
    #[arg(long, value_name = "S")]
    pub seeds: Option<u8>,

    /// Rule preset; the options below override it. `general`, `egyptian`, `nigerian` and
    /// `ethiopian` are the rule families of the text "Este tablero" (docs/rules.md §5, §6): General (no
    /// extra turns, no captures), Egyptian (Kalah with empty capture), Nigerian (relay
    /// sowing through both stores, fours captured), Ethiopian (Egyptian with the direction
    /// chosen each turn: `3<` sows bin 3 clockwise); `oware` is abapa Oware ("Быстрый старт").
    /// Ethiopian and Oware repeat positions and are solved by retrograde analysis. `bao` is
    /// Bao la Kujifunza, four rows of pits (docs/bao.md), in show, perft, solve, openings,
    /// play, analyse, batch, export and match: it takes --houses (pits a row), --seeds,
    /// --position and --moves of its own kind and none of the options below
    #[arg(
        long = "rules",
        value_name = "PRESET",
        default_value = "kalah",
        value_parser = PossibleValuesParser::new(
            Preset::ALL.map(|(_, name)| name).into_iter().chain(["bao"])
        )
        .try_map(|s| s.parse::<RulesName>())
    )]
    // Its id, `preset`, is the one [`check_game`] reads.
    pub preset: RulesName,

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
    /// Whether the rules are Bao's (`--rules bao`).
    pub fn bao(&self) -> bool {
        self.preset.kind() != Kind::Sowing
    }

    /// The preset of the sowing games. A command of Bao asks [`RulesArgs::bao`] before
    /// anything else, and [`check_game`] keeps `--rules bao` from the other commands, so
    /// no sowing game is set up under Bao's rules; `kalah` stands in for it.
    fn sowing_preset(&self) -> Preset {
        self.preset.preset().unwrap_or(Preset::Kalah)
    }

    /// True when no rule option was given (the `kalah` preset is the default).
    pub fn is_default(&self) -> bool {
        !self.bao() && self.options().is_default()
    }

    /// The rule options as the library takes them.
    pub fn options(&self) -> RuleOptions {
        RuleOptions {
            houses: self.houses,
            seeds: self.seeds,
            preset: self.sowing_preset(),
            capture: self.capture,
            end: self.end,
            leftovers: self.leftovers,
            grand_slam: self.grand_slam,
            early_stop: RuleOptions::early_stop_switches(self.early_stop, self.no_early_stop),
        }
    }

    /// The rules of the board the options name, without a position
    /// ([`RuleOptions::board_rules`]).
    pub fn board_rules(&self) -> Rules {
        self.options().board_rules()
    }
}

/// The position to start from: the start position, a board, and moves played from it.
#[derive(clap::Args, Debug, Clone)]
#[command(next_help_heading = "Position")]
pub struct PositionArgs {
    /// Start from this board instead of the start position: the counts of South's houses,
    /// South's store, North's houses, North's store, then the side to move, e.g.
    /// `4,4,0,5,5,5,1,4,4,4,4,4,4,0:S`. Bao: four rows top to bottom as South sees the
    /// board (North's back row b_N..b_1, North's front row a_N..a_1, South's front row
    /// A_1..A_N, South's back row B_1..B_N), then the side to move, e.g.
    /// `0,3,0,0/0,2,0,0/0,1,0,2/0,0,0,0:S`
    #[arg(long, value_name = "BOARD")]
    pub position: Option<String>,

    /// Sowings to play first, as bins separated by commas or spaces; a turn with extra
    /// sowings is written with dashes, e.g. `3-6,9` or `"3-6 9"`. Bao: moves separated by
    /// spaces or commas, e.g. `"A3+ b8-"`
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
    /// The game and the position to start from
    /// ([`kalah_analysis::game::setup::setup`]).
    ///
    /// The board size comes from `--position` when `--houses` is not given. A position
    /// holding more seeds than `--seeds` allows raises the seeds per house to the smallest
    /// number that holds it, unless `--seeds` was given explicitly. A hand-entered position
    /// goes through [`Game::settle`], so one whose game is already over is shown as
    /// finished.
    pub fn setup(&self) -> Result<(Game, Position), CliError> {
        let (position, moves) = (&self.position.position, &self.position.moves);
        let options = self.rules.options();
        Ok(kalah_analysis::game::setup::setup(
            &options,
            position.as_deref(),
            moves.as_deref(),
        )?)
    }

    /// The game and position of either kind the options ask for (`--rules bao`: Bao's).
    pub fn board(&self) -> Result<Board, CliError> {
        let (position, moves) = (&self.position.position, &self.position.moves);
        let options = self.rules.options();
        Board::set_up(
            self.rules.preset,
            &options,
            position.as_deref(),
            moves.as_deref(),
        )
        .map_err(CliError::from)
    }
}

/// Why the options give no board: a sowing game's setup says which option, Bao's its
/// message as it is.
impl From<BoardError> for CliError {
    fn from(e: BoardError) -> CliError {
        match e {
            BoardError::Sowing(e) => CliError::Setup(e),
            e => CliError::Input(e.to_string()),
        }
    }
}

/// `--quiet`, which every command takes for every kind of game (`tests/options_cli.rs` keeps a
/// new command from forgetting it): no progress bar, spinner or progress line on standard
/// error. It never hides the answer, and a command that shows no progress takes it too,
/// so that a script may pass it to every command.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct QuietArgs {
    /// No progress display on standard error
    #[arg(long, short)]
    pub quiet: bool,
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

/// Checks, after parsing, that the options given to the command `name` (`command` as clap
/// defines it, `matches` as parsed) fit the game its rules name: the table of
/// `kalah_analysis::game::options`, checked by [`fit::check`] (under `--rules bao`, a
/// command that plays Bao and none of the options of the sowing games; under theirs, none
/// of the options only Bao takes, which the help shows under [`BAO_HEADING`]).
pub fn check_game(
    name: &str,
    command: &clap::Command,
    matches: &ArgMatches,
) -> Result<(), CliError> {
    let Some(named) = options::Command::named(name) else {
        return Err(CliError::Internal(format!(
            "kalah {name} has no row in the options table"
        )));
    };
    // The id of `RulesArgs::preset`, absent from the commands without rules.
    let kind = matches
        .try_get_raw("preset")
        .ok()
        .flatten()
        .and_then(|mut v| v.find_map(|v| v.to_str()?.parse::<RulesName>().ok()))
        .map_or(Kind::Sowing, RulesName::kind);
    // In the order given (`index_of`).
    let mut given: Vec<(Option<usize>, &str)> = command
        .get_arguments()
        .filter(|a| matches.value_source(a.get_id().as_str()) == Some(ValueSource::CommandLine))
        .filter_map(|a| Some((matches.index_of(a.get_id().as_str()), a.get_long()?)))
        .collect();
    given.sort_by_key(|(index, _)| *index);
    let given: Vec<&str> = given.into_iter().map(|(_, g)| g).collect();
    let longs: Vec<&str> = command
        .get_arguments()
        .filter_map(|a| a.get_long())
        .collect();
    fit::check(named, kind, &given, &longs).map_err(CliError::Input)
}

/// The limits of an analysis, shared by `kalah analyse` and `kalah solve`.
#[derive(clap::Args, Debug, Clone, Default)]
#[command(next_help_heading = "Limits")]
pub struct LimitArgs {
    /// Stop after SECONDS of search (decimals allowed, more than 0)
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds, allow_negative_numbers = true)]
    pub time: Option<Duration>,

    /// Stop after about N nodes (at least 1)
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = clap::value_parser!(u64).range(1..=MAX_NODES))]
    pub nodes: Option<u64>,

    /// Stop after the depth-limited search of D sowings (1 to 120)
    #[arg(long, value_name = "D", allow_negative_numbers = true, value_parser = clap::value_parser!(u8).range(1..=Limits::MAX_DEPTH as i64))]
    pub depth: Option<u8>,
}

impl LimitArgs {
    /// The limits given, if any.
    pub fn given(&self) -> Option<Limits> {
        Limits {
            time: self.time,
            nodes: self.nodes,
            depth: self.depth,
        }
        .bounded()
    }
}
