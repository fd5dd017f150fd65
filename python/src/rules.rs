//! `kalah.Rules`: a preset and the options that override it, validated into a game (a
//! sowing game, or Bao la Kujifunza on four rows), and `kalah.Side`.

use std::str::FromStr;
use std::sync::Arc;

use kalah_analysis::game::setup::RuleOptions;
use kalah_analysis::game::Board as GameBoard;
use kalah_core::bao::BaoRules;
use kalah_core::{Family, Game, Preset, Rules, RulesError, Side};
use pyo3::prelude::*;

use crate::errors::{bao_error, error, rules_error, setup_error, Kind};

/// The preset name of Bao la Kujifunza, beside the sowing games' presets.
pub const BAO: &str = "bao";

/// A player: South moves first and owns bins 1..H and the store H+1; North owns bins
/// H+2..2H+1 and the store 2H+2.
#[pyclass(
    name = "Side",
    module = "kalah",
    eq,
    eq_int,
    frozen,
    hash,
    from_py_object
)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PySide {
    /// The first player, at the bottom.
    #[pyo3(name = "SOUTH")]
    South,
    /// The second player, at the top.
    #[pyo3(name = "NORTH")]
    North,
}

impl From<Side> for PySide {
    fn from(side: Side) -> PySide {
        match side {
            Side::South => PySide::South,
            Side::North => PySide::North,
        }
    }
}

impl From<PySide> for Side {
    fn from(side: PySide) -> Side {
        match side {
            PySide::South => Side::South,
            PySide::North => Side::North,
        }
    }
}

#[pymethods]
impl PySide {
    /// The other player.
    #[getter]
    fn other(&self) -> PySide {
        Side::from(*self).other().into()
    }

    /// +1 for South, -1 for North: a value from this side's view times `sign` is from South.
    #[getter]
    fn sign(&self) -> i32 {
        Side::from(*self).sign()
    }

    /// The letter of the notation, `S` or `N`.
    #[getter]
    fn letter(&self) -> String {
        Side::from(*self).letter().to_string()
    }

    fn __str__(&self) -> &'static str {
        match self {
            PySide::South => "south",
            PySide::North => "north",
        }
    }
}

/// What a `Rules` object holds: the library's board of the game at its start
/// ([`GameBoard`]: a sowing game, two rows and two stores, or Bao, four rows) and, for a
/// sowing game, the options as asked for (for setting up positions the way the command
/// line does). Made once per `Rules` and shared behind an `Arc`.
pub struct GameRules {
    /// The preset and options of a sowing game, with the board size filled in; None for
    /// Bao.
    options: Option<RuleOptions>,
    /// The game, at its start.
    board: GameBoard,
}

/// The rules of a game: a preset with options that override it, on a board of `houses`
/// houses per side with `seeds` seeds in each at the start.
#[pyclass(name = "Rules", module = "kalah", frozen, from_py_object)]
#[derive(Clone)]
pub struct PyRules {
    /// Shared by every position of the game.
    pub inner: Arc<GameRules>,
}

/// The error for `what` (a call, a property, an option) asked of Bao, which it does not
/// have.
pub fn not_for_bao(what: &str) -> PyErr {
    error(
        Kind::Rules,
        format!("{what} does not apply to Bao (four rows of pits, no stores; see docs/python.md)"),
    )
}

/// A name as written on the command line: lower case, dashes (`row_empty` is `row-empty`).
fn option_name(value: &str) -> String {
    value.trim().to_ascii_lowercase().replace('_', "-")
}

/// Parses an option value given as a string.
fn parse<T: FromStr<Err = RulesError>>(value: Option<&str>) -> PyResult<Option<T>> {
    value
        .map(|v| option_name(v).parse::<T>())
        .transpose()
        .map_err(|e| rules_error(&e))
}

/// The board size checked before it is narrowed to a byte, with the core's messages.
fn board(houses: i64, seeds: i64) -> PyResult<(u8, u8)> {
    if !(1..=kalah_core::MAX_HOUSES as i64).contains(&houses) {
        return Err(rules_error(&RulesError::Houses(houses.max(0) as usize)));
    }
    if seeds < 1 {
        return Err(rules_error(&RulesError::NoSeeds));
    }
    if seeds > 255 {
        return Err(rules_error(&RulesError::TooManySeeds {
            houses: houses as usize,
            seeds: seeds as usize,
        }));
    }
    Ok((houses as u8, seeds as u8))
}

impl PyRules {
    /// Rules from options already checked and a game made of them.
    pub fn from_parts(options: RuleOptions, game: Game) -> PyRules {
        let start = game.start();
        PyRules {
            inner: Arc::new(GameRules {
                options: Some(options),
                board: GameBoard::Sowing(Arc::new(game), start),
            }),
        }
    }

    /// The rules of a Bao board.
    pub fn from_bao(rules: BaoRules) -> PyRules {
        PyRules {
            inner: Arc::new(GameRules {
                options: None,
                board: GameBoard::bao_start(rules),
            }),
        }
    }

    /// The game at its start: every position of the game is a board made from it, sharing
    /// the game.
    pub fn board(&self) -> &GameBoard {
        &self.inner.board
    }

    /// The Bao board, if these are Bao's rules.
    pub fn bao(&self) -> Option<BaoRules> {
        self.inner.board.bao_rules()
    }

    /// The validated sowing game. Only for rules known to be a sowing game's (a position of
    /// a sowing game has them): Bao's rules have none.
    pub fn game(&self) -> &Game {
        self.inner
            .board
            .game()
            .expect("a sowing game's rules, not Bao's")
    }

    /// The core's rules of a sowing game (see [`PyRules::game`]).
    pub fn rules(&self) -> &Rules {
        self.game().rules()
    }

    /// The options with the board size given, so that a position set up with them keeps
    /// exactly this game (or is refused); see [`PyRules::game`].
    pub fn options(&self) -> RuleOptions {
        self.inner
            .options
            .expect("a sowing game's rules, not Bao's")
    }

    /// The one-line description, `Kalah(6,4) capture=...` or `Bao(8,2)`.
    pub fn description(&self) -> String {
        self.inner.board.rules_text()
    }

    /// The sowing game's property `get`, None for Bao.
    fn sowing_property<T>(&self, get: impl FnOnce(&Rules) -> T) -> Option<T> {
        self.inner.board.game().map(|game| get(game.rules()))
    }
}

/// Bao's rules from `Rules("bao", ...)`: the board alone; a sowing option given is refused.
fn bao_rules(
    houses: Option<i64>,
    seeds: Option<i64>,
    options: &[(&str, bool)],
) -> PyResult<PyRules> {
    if let Some((name, _)) = options.iter().find(|(_, given)| *given) {
        return Err(not_for_bao(&format!("the option {name}")));
    }
    // Narrowed without wrapping: any count past a byte is refused by the core all the same.
    let count = |v: Option<i64>| v.map(|v| v.clamp(0, 1 << 16) as usize);
    let rules = kalah_analysis::game::setup::bao::rules(count(houses), count(seeds))
        .map_err(|e| bao_error(&e))?;
    Ok(PyRules::from_bao(rules))
}

#[pymethods]
impl PyRules {
    /// Rules from a preset name (`kalah`, `kalah-empty`, `online`, `online-empty`,
    /// `general`, `egyptian`, `nigerian`, `ethiopian`, `oware`) and options that
    /// override it, as the command line's `--rules`, `--capture`, `--end`, `--leftovers`,
    /// `--early-stop` and `--grand-slam`; or `bao`, Bao la Kujifunza on four rows of
    /// `houses` pits (3 to 8, default 8) with `seeds` a pit (default 2), which takes no
    /// option. The sowing games' board defaults to 6 houses of 4 seeds.
    #[new]
    #[pyo3(signature = (preset = "kalah", *, houses = None, seeds = None, capture = None,
                        end = None, leftovers = None, early_stop = None, grand_slam = None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        preset: &str,
        houses: Option<i64>,
        seeds: Option<i64>,
        capture: Option<&str>,
        end: Option<&str>,
        leftovers: Option<&str>,
        early_stop: Option<bool>,
        grand_slam: Option<&str>,
    ) -> PyResult<PyRules> {
        if option_name(preset) == BAO {
            let given = [
                ("capture", capture.is_some()),
                ("end", end.is_some()),
                ("leftovers", leftovers.is_some()),
                ("early_stop", early_stop.is_some()),
                ("grand_slam", grand_slam.is_some()),
            ];
            return bao_rules(houses, seeds, &given);
        }
        let (houses, seeds) = board(houses.unwrap_or(6), seeds.unwrap_or(4))?;
        let options = RuleOptions {
            houses: Some(houses),
            seeds: Some(seeds),
            preset: option_name(preset).parse().map_err(|e| rules_error(&e))?,
            capture: parse(capture)?,
            end: parse(end)?,
            leftovers: parse(leftovers)?,
            grand_slam: parse(grand_slam)?,
            early_stop,
        };
        let (game, _) = kalah_analysis::game::setup::setup(&options, None, None)
            .map_err(|e| setup_error(&e))?;
        Ok(PyRules::from_parts(options, game))
    }

    /// Rules from the one-line description that `str(rules)` writes
    /// (`Kalah(6,4) capture=standard end=row-empty leftovers=owner`, `Bao(8,2)`).
    #[staticmethod]
    fn parse(description: &str) -> PyResult<PyRules> {
        if description.trim().to_ascii_lowercase().starts_with(BAO) {
            let rules: BaoRules = description.parse().map_err(|e| bao_error(&e))?;
            return Ok(PyRules::from_bao(rules));
        }
        let rules: Rules = description.parse().map_err(|e| rules_error(&e))?;
        let game = Game::new(rules).map_err(|e| rules_error(&e))?;
        Ok(PyRules::from_parts(exact_options(&rules), game))
    }

    /// The names of the presets, `bao` last.
    #[staticmethod]
    fn presets() -> Vec<&'static str> {
        let sowing = Preset::ALL.iter().map(|(_, name)| *name);
        sowing.chain([BAO]).collect()
    }

    /// The family: `kalah`, `general`, `nigerian`, `ethiopian`, `oware` or `bao`.
    #[getter]
    fn family(&self) -> &'static str {
        self.sowing_property(|r| r.family.name()).unwrap_or(BAO)
    }

    /// Houses per side (Bao: pits a row).
    #[getter]
    fn houses(&self) -> u8 {
        self.inner.board.size().0 as u8
    }

    /// Seeds per house (Bao: per pit) at the start.
    #[getter]
    fn seeds(&self) -> u8 {
        self.inner.board.size().1 as u8
    }

    /// Seeds in the game.
    #[getter]
    fn total_seeds(&self) -> usize {
        self.inner.board.total_seeds()
    }

    /// The capture rule as the family names it (`standard`, `empty`, `none`, `fours`,
    /// ...); None for Bao, which has only its own.
    #[getter]
    fn capture(&self) -> Option<&'static str> {
        self.sowing_property(|r| r.family.capture_name(r.capture))
    }

    /// When the game ends: `row-empty` or `mover-stuck`; None for Bao.
    #[getter]
    fn end(&self) -> Option<&'static str> {
        self.sowing_property(|r| r.end.name())
    }

    /// Where the seeds left in the houses go at the end: `owner` or `discard`; None for
    /// Bao.
    #[getter]
    fn leftovers(&self) -> Option<&'static str> {
        self.sowing_property(|r| r.leftovers.name())
    }

    /// Whether the game ends as soon as one store holds more than half of all seeds; None
    /// for Bao.
    #[getter]
    fn early_stop(&self) -> Option<bool> {
        self.sowing_property(|r| r.early_stop)
    }

    /// Oware's grand slam rule (`no-capture` or `capture-all`); None for other families.
    #[getter]
    fn grand_slam(&self) -> Option<&'static str> {
        self.sowing_property(|r| (r.family == Family::Oware).then(|| r.grand_slam.name()))
            .flatten()
    }

    /// True for the games whose positions repeat (Ethiopian, Oware, Bao), solved by
    /// retrograde analysis.
    #[getter]
    fn is_cyclic(&self) -> bool {
        self.sowing_property(|r| r.family.is_cyclic())
            .unwrap_or(true)
    }

    fn __str__(&self) -> String {
        self.description()
    }

    fn __repr__(&self) -> String {
        format!("Rules.parse({:?})", self.description())
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<PyRules>().is_ok_and(|o| o.get().same(self))
    }

    fn __hash__(&self) -> u64 {
        use std::hash::Hasher;
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.inner.board.hash_game(&mut h);
        h.finish()
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        // Unpickled through the module-level helper of kalah/__init__.py.
        let helper = py.import("kalah")?.getattr("_rules_from_description")?;
        Ok((helper, (self.description(),)))
    }
}

impl PyRules {
    /// Whether both play the same game (the same rules and board).
    pub fn same(&self, other: &PyRules) -> bool {
        self.inner.board.same_game(&other.inner.board)
    }
}

/// Options that give exactly `rules` (read from a description, not from a preset).
fn exact_options(rules: &Rules) -> RuleOptions {
    let preset = match rules.family {
        Family::Kalah => Preset::Kalah,
        Family::General => Preset::General,
        Family::Nigerian => Preset::Nigerian,
        Family::Ethiopian => Preset::Ethiopian,
        Family::Oware => Preset::Oware,
    };
    let base = preset.rules(rules.houses, rules.seeds);
    RuleOptions {
        houses: Some(rules.houses),
        seeds: Some(rules.seeds),
        preset,
        capture: changed(rules.capture, base.capture),
        end: changed(rules.end, base.end),
        leftovers: changed(rules.leftovers, base.leftovers),
        grand_slam: changed(rules.grand_slam, base.grand_slam),
        early_stop: changed(rules.early_stop, base.early_stop),
    }
}

/// `value` where it differs from the preset's `base`, else None (the preset's).
fn changed<T: PartialEq>(value: T, base: T) -> Option<T> {
    (value != base).then_some(value)
}
