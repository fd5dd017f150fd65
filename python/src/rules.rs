//! `kalah.Rules`: a preset and the options that override it, validated into a game, and
//! `kalah.Side`.

use std::str::FromStr;
use std::sync::Arc;

use kalah_analysis::setup::RuleOptions;
use kalah_core::{Family, Game, Preset, Rules, RulesError, Side};
use pyo3::prelude::*;

use crate::errors::{rules_error, setup_error};
use crate::position::PyPosition;

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

/// What a `Rules` object holds: the options as asked for (for setting up positions the
/// way the command line does) and the validated game.
pub struct RulesInner {
    /// The preset and options, with the board size filled in.
    pub options: RuleOptions,
    /// The game they make.
    pub game: Game,
}

/// The rules of a game: a preset with options that override it, on a board of `houses`
/// houses per side with `seeds` seeds in each at the start.
#[pyclass(name = "Rules", module = "kalah", frozen, from_py_object)]
#[derive(Clone)]
pub struct PyRules {
    /// Shared by every position of the game.
    pub inner: Arc<RulesInner>,
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
        PyRules {
            inner: Arc::new(RulesInner { options, game }),
        }
    }

    /// The validated game.
    pub fn game(&self) -> &Game {
        &self.inner.game
    }

    /// The core's rules.
    pub fn rules(&self) -> &Rules {
        self.inner.game.rules()
    }

    /// The options with the board size given, so that a position set up with them keeps
    /// exactly this game (or is refused).
    pub fn options(&self) -> RuleOptions {
        self.inner.options
    }
}

#[pymethods]
impl PyRules {
    /// Rules from a preset name (`kalah`, `kalah-empty`, `online`, `online-empty`,
    /// `general`, `egyptian`, `nigerian`, `ethiopian`, `oware`) and options that
    /// override it, as the command line's `--rules`, `--capture`, `--end`, `--leftovers`,
    /// `--early-stop` and `--grand-slam`.
    #[new]
    #[pyo3(signature = (preset = "kalah", *, houses = 6, seeds = 4, capture = None, end = None,
                        leftovers = None, early_stop = None, grand_slam = None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        preset: &str,
        houses: i64,
        seeds: i64,
        capture: Option<&str>,
        end: Option<&str>,
        leftovers: Option<&str>,
        early_stop: Option<bool>,
        grand_slam: Option<&str>,
    ) -> PyResult<PyRules> {
        let (houses, seeds) = board(houses, seeds)?;
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
        let (game, _) =
            kalah_analysis::setup::setup(&options, None, None).map_err(|e| setup_error(&e))?;
        Ok(PyRules::from_parts(options, game))
    }

    /// Rules from the one-line description that `str(rules)` writes
    /// (`Kalah(6,4) capture=standard end=row-empty leftovers=owner`).
    #[staticmethod]
    fn parse(description: &str) -> PyResult<PyRules> {
        let rules: Rules = description.parse().map_err(|e| rules_error(&e))?;
        let game = Game::new(rules).map_err(|e| rules_error(&e))?;
        Ok(PyRules::from_parts(exact_options(&rules), game))
    }

    /// The names of the presets.
    #[staticmethod]
    fn presets() -> Vec<&'static str> {
        Preset::ALL.iter().map(|(_, name)| *name).collect()
    }

    /// The start position: every house holds `seeds`, the stores are empty, South to move.
    fn start(&self) -> PyPosition {
        PyPosition::new_in(self.clone(), self.game().start())
    }

    /// A position of this game from the board notation (`4,4,4,4,4,4,0,4,4,4,4,4,4,0:S`);
    /// a finished game is settled (the seeds left go where the rules say).
    fn position(&self, board: &str) -> PyResult<PyPosition> {
        PyPosition::parse_in(self, board)
    }

    /// The family: `kalah`, `general`, `nigerian`, `ethiopian` or `oware`.
    #[getter]
    fn family(&self) -> &'static str {
        self.rules().family.name()
    }

    /// Houses per side.
    #[getter]
    fn houses(&self) -> u8 {
        self.rules().houses
    }

    /// Seeds per house at the start.
    #[getter]
    fn seeds(&self) -> u8 {
        self.rules().seeds
    }

    /// Seeds in the game.
    #[getter]
    fn total_seeds(&self) -> usize {
        self.rules().total_seeds()
    }

    /// The capture rule as the family names it (`standard`, `empty`, `none`, `fours`, ...).
    #[getter]
    fn capture(&self) -> &'static str {
        let r = self.rules();
        r.family.capture_name(r.capture)
    }

    /// When the game ends: `row-empty` or `mover-stuck`.
    #[getter]
    fn end(&self) -> &'static str {
        self.rules().end.name()
    }

    /// Where the seeds left in the houses go at the end: `owner` or `discard`.
    #[getter]
    fn leftovers(&self) -> &'static str {
        self.rules().leftovers.name()
    }

    /// Whether the game ends as soon as one store holds more than half of all seeds.
    #[getter]
    fn early_stop(&self) -> bool {
        self.rules().early_stop
    }

    /// Oware's grand slam rule (`no-capture` or `capture-all`); None for other families.
    #[getter]
    fn grand_slam(&self) -> Option<&'static str> {
        (self.rules().family == Family::Oware).then(|| self.rules().grand_slam.name())
    }

    /// True for the families whose positions repeat (Ethiopian, Oware), solved by
    /// retrograde analysis.
    #[getter]
    fn is_cyclic(&self) -> bool {
        self.rules().family.is_cyclic()
    }

    fn __str__(&self) -> String {
        self.rules().to_string()
    }

    fn __repr__(&self) -> String {
        format!("Rules.parse({:?})", self.rules().to_string())
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<PyRules>()
            .is_ok_and(|o| o.get().rules() == self.rules())
    }

    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.rules().hash(&mut h);
        h.finish()
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        // Unpickled through the module-level helper of kalah/__init__.py.
        let helper = py.import("kalah")?.getattr("_rules_from_description")?;
        Ok((helper, (self.rules().to_string(),)))
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
