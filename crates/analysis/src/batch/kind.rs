//! The game a batch answers, chosen once from its options as a [`Board`] at its start: a
//! sowing game (its rules from the options or from the first work unit of the input) or
//! Bao's board; what a run needs of that choice (the rules its answers name, the positions it reads ahead,
//! the endgame database files it reads, how large its solver is made); and the [`Front`]
//! that answers it. `kalah batch` parses its options, asks here and renders: it never
//! tells the two kinds apart itself.

use std::fmt;
use std::io;
use std::path::PathBuf;
use std::sync::Arc;

use kalah_core::{Game, RulesError};
use kalah_solver::Limits;

use super::{Bao, BaoHow, Front, Sowing};
use crate::batch::{batch_rules, first_unit, Item, RulesDisagree};
use crate::game::setup::RuleOptions;
use crate::game::{Board, BoardError, Kind, RulesName};
use crate::run::solving::{Solving, SolvingError};

/// Positions a sowing game's batch reads before its solver is made: enough to size its
/// database for several solves, few enough not to wait long on a slow pipe.
pub const SOWING_READ_AHEAD: usize = 4;

/// The options of a batch that choose its game, as a front end parsed them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BatchOptions {
    /// The rules named (`--rules`; under Bao's, `rules.houses` is pits a row and
    /// `rules.seeds` seeds a pit).
    pub name: RulesName,
    /// The rule options (a sowing game's, or Bao's board size and seeds).
    pub rules: RuleOptions,
    /// Whether any rule option was given: a sowing game's batch without one takes the
    /// rules of the input's work units.
    pub rules_given: bool,
}

/// Why a batch's game could not be chosen.
#[derive(Debug)]
pub enum BatchGameError {
    /// The rule options make no game (a sowing game's, or Bao's board size and seeds).
    Board(BoardError),
    /// The rule options disagree with the rules of the input's work units.
    Disagree(RulesDisagree),
    /// The rules the work units carry make no game.
    Rules(RulesError),
}

impl fmt::Display for BatchGameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BatchGameError::Board(e) => e.fmt(f),
            BatchGameError::Disagree(e) => e.fmt(f),
            BatchGameError::Rules(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for BatchGameError {}

impl BatchOptions {
    /// The endgame database files a run reads of `given` (those the options and the
    /// environment name): a sowing game's, none for Bao. The output is checked against
    /// them before any work.
    pub fn databases(&self, given: Vec<PathBuf>) -> Vec<PathBuf> {
        match self.name.kind() {
            Kind::Sowing => given,
            Kind::Bao => Vec::new(),
        }
    }

    /// The game of the batch (at its start), and the items of `lines` read to choose it
    /// (answered first, before the rest of `lines`). A sowing game's rules are the
    /// options', or, where no rule option was given, those of the first work unit the
    /// input holds (rule options given must agree with them); Bao's board is the
    /// options' (8 pits a row and 2 seeds a pit by default), and no line is read.
    pub fn game(
        &self,
        lines: &mut dyn Iterator<Item = io::Result<Item>>,
    ) -> Result<(Vec<io::Result<Item>>, Board), BatchGameError> {
        // The rules and board of the options (the defaults of every subcommand).
        let board =
            Board::set_up(self.name, &self.rules, None, None).map_err(BatchGameError::Board)?;
        let Some(game) = board.game() else {
            return Ok((Vec::new(), board));
        };
        let (read, unit) = first_unit(lines);
        let chosen = batch_rules(game.rules(), self.rules_given, unit.as_ref())
            .map_err(BatchGameError::Disagree)?;
        let game = Game::new(chosen).map_err(BatchGameError::Rules)?;
        let start = game.start();
        Ok((read, Board::Sowing(Arc::new(game), start)))
    }
}

/// How a batch answers its positions, of either kind: a sowing game's limits (none: each
/// position is solved), and how Bao's positions are answered.
#[derive(Clone, Debug)]
pub struct BatchHow {
    /// The limits of a sowing game's analysis of each position (`--time`), if any.
    pub sowing: Option<Limits>,
    /// How Bao's positions are answered.
    pub bao: BaoHow,
}

impl BatchHow {
    /// How `kalah batch` answers, of either kind: a sowing game's positions solved, or
    /// analysed within the time of `limits`; Bao's analysed within `limits` (1 second a
    /// position where none is given) or, with `exact`, by their graphs within `memory_mb`
    /// ([`BaoHow::of`]).
    pub fn of(limits: Limits, exact: bool, memory_mb: u64) -> BatchHow {
        BatchHow {
            sowing: limits.time.map(Limits::time),
            bao: BaoHow::of(exact, memory_mb, limits.bounded()),
        }
    }
}

impl Board {
    /// How many positions a batch reads before its front is made: a few to size a sowing
    /// game's solver ([`SOWING_READ_AHEAD`]); one for Bao, whose front needs no sizing
    /// (a position at all means there is work to do).
    pub fn batch_read_ahead(&self) -> usize {
        match self.kind() {
            Kind::Sowing => SOWING_READ_AHEAD,
            Kind::Bao => 1,
        }
    }

    /// The front that answers a batch of this game as `how` says: a sowing game's
    /// parallel solver, made by `solving` for `solves` positions (for an analysis within
    /// `how`'s time: [`Solving::within`]), or Bao's analyses or graphs.
    pub fn batch_front(
        &self,
        how: BatchHow,
        solves: usize,
        solving: &Solving,
    ) -> Result<Box<dyn Front>, SolvingError> {
        Ok(match self {
            Board::Sowing(game, _) => {
                let solving = match how.sowing.and_then(|l| l.time) {
                    Some(time) => solving.within(Some(time)),
                    None => solving.clone(),
                };
                let (solver, workers) = solving.parallel(game, game.capacity(), solves)?;
                Box::new(Sowing::new(solver, how.sowing, workers))
            }
            Board::Bao(rules, _) => Box::new(Bao::new(*rules, how.bao)),
        })
    }
}

/// How many positions a batch's solver is sized for: those left to answer of an input
/// whose positions were counted (`count`, of which `answered` were answered by an
/// interrupted run), else the positions read ahead (`ahead`).
pub fn solves_to_size(count: Option<usize>, answered: usize, ahead: usize) -> usize {
    count.map_or(ahead, |n| n.saturating_sub(answered))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::batch::items;
    use crate::run::solving::tests::small_solving;
    use kalah_core::Rules;

    fn sowing(rules: RuleOptions, given: bool) -> BatchOptions {
        BatchOptions {
            name: RulesName::Sowing(rules.preset),
            rules,
            rules_given: given,
        }
    }

    fn lines(text: &str) -> impl Iterator<Item = io::Result<Item>> {
        items(text).into_iter().map(Ok)
    }

    #[test]
    fn bao_reads_no_line_and_no_database() {
        let bao = BatchOptions {
            name: RulesName::Bao,
            rules: RuleOptions {
                houses: Some(4),
                ..RuleOptions::default()
            },
            rules_given: true,
        };
        let (read, game) = bao.game(&mut lines("1\n2\n")).unwrap();
        assert!(read.is_empty());
        assert_eq!(game.rules_text(), "Bao(4,2)");
        assert_eq!(game.batch_read_ahead(), 1);
        assert!(bao.databases(vec![PathBuf::from("db")]).is_empty());
        let too_small = BatchOptions {
            rules: RuleOptions {
                houses: Some(2),
                ..RuleOptions::default()
            },
            ..bao
        };
        assert!(matches!(
            too_small.game(&mut lines("")),
            Err(BatchGameError::Board(BoardError::Bao(_)))
        ));
    }

    #[test]
    fn a_sowing_game_takes_the_options_rules_and_reads_ahead_to_size_its_solver() {
        let options = RuleOptions {
            houses: Some(3),
            seeds: Some(2),
            ..RuleOptions::default()
        };
        let batch = sowing(options, true);
        let (read, game) = batch.game(&mut lines("1\n2\n")).unwrap();
        assert_eq!(read.len(), 1, "the first position, read looking for a unit");
        assert_eq!(game.rules_text(), Rules::kalah(3, 2).to_string());
        assert_eq!(game.batch_read_ahead(), SOWING_READ_AHEAD);
        assert_eq!(batch.databases(vec![PathBuf::from("db")]).len(), 1);
    }

    #[test]
    fn without_rule_options_the_first_work_unit_names_the_rules() {
        let rules = Rules::kalah(4, 3);
        let unit = format!(
            r#"{{"id":7,"position":"0,4,4,4,0,0,4,4,4,0:S","rules":"{rules}","window":[-25,25]}}"#
        );
        let (read, game) = sowing(RuleOptions::default(), false)
            .game(&mut lines(&format!("{unit}\n")))
            .unwrap();
        assert_eq!(read.len(), 1);
        assert_eq!(game.rules_text(), rules.to_string());
        // Rule options given must agree with the units'.
        let other = RuleOptions {
            houses: Some(4),
            ..RuleOptions::default()
        };
        assert!(matches!(
            sowing(other, true).game(&mut lines(&format!("{unit}\n"))),
            Err(BatchGameError::Disagree(_))
        ));
    }

    #[test]
    fn a_batch_solves_the_sowing_games_without_a_time_and_analyses_bao_for_a_second() {
        let none = BatchHow::of(Limits::default(), false, 64);
        assert_eq!(none.sowing, None);
        assert!(
            matches!(none.bao, BaoHow::Analyse(l) if l == Limits::time(std::time::Duration::from_secs(1)))
        );
        let nodes = Limits::nodes(100);
        let how = BatchHow::of(nodes, false, 64);
        assert_eq!(how.sowing, None);
        assert!(matches!(how.bao, BaoHow::Analyse(l) if l == nodes));
        let second = Limits::time(std::time::Duration::from_millis(500));
        assert_eq!(BatchHow::of(second, false, 64).sowing, Some(second));
        assert!(matches!(
            BatchHow::of(second, true, 64).bao,
            BaoHow::Exact { memory_mb: 64 }
        ));
    }

    #[test]
    fn the_front_is_the_kind_of_the_game() {
        let how = BatchHow {
            sowing: None,
            bao: BaoHow::analyse(Some(Limits::nodes(100))),
        };
        let bao = Board::bao_start(kalah_core::bao::BaoRules::new(4, 2).unwrap());
        let front = bao.batch_front(how.clone(), 3, &small_solving()).unwrap();
        assert_eq!(front.rules_text(), "Bao(4,2)");
        assert_eq!(front.workers(), 1);
        let game = Game::new(Rules::kalah(3, 2)).unwrap();
        let mut two = small_solving();
        two.options.overrides.threads = Some(2);
        let start = game.start();
        let front = Board::Sowing(Arc::new(game), start)
            .batch_front(how, 3, &two)
            .unwrap();
        assert_eq!(front.workers(), 2);
        assert_eq!(front.rules_text(), Rules::kalah(3, 2).to_string());
    }

    #[test]
    fn the_solver_is_sized_for_the_positions_left_else_those_read_ahead() {
        assert_eq!(solves_to_size(Some(10), 0, 4), 10);
        assert_eq!(solves_to_size(Some(10), 7, 3), 3);
        assert_eq!(solves_to_size(Some(2), 5, 0), 0);
        assert_eq!(solves_to_size(None, 7, 4), 4);
    }
}
