//! One position of either kind of game, as a command that serves both sets it up: what is
//! asked of a single position (its drawing, where a perft counts from) is
//! answered here once, each kind by its own code.

use std::sync::Arc;
use std::time::Duration;

use kalah_core::bao::{BaoPosition, BaoRules};
use kalah_core::{notation, Game, Position};
use kalah_solver::Limits;

use super::bao_solve::BAO_DEFAULT_SECONDS;
use super::perft::Start;
use super::setup::bao::{self as bao_setup, BaoSetupError};
use super::setup::SetupError;

/// The analysis time of a sowing game's position when no limit is given, in seconds.
pub const ANALYSE_DEFAULT_SECONDS: f64 = 3.0;

/// A game and a position of it: a sowing game, or Bao. Cheap to clone, so that a front
/// end holds one per position (Python's `Position`): the sowing game's tables are large
/// and shared behind an `Arc`, Bao's rules and either position are small `Copy` values.
/// Two boards are equal when they hold the same game ([`Board::same_game`]) and the same
/// position.
#[derive(Clone)]
pub enum Board {
    /// A sowing game (Kalah and its family, shared: its tables are large) and a position
    /// of it.
    Sowing(Arc<Game>, Position),
    /// Bao's rules and a position under them.
    Bao(BaoRules, BaoPosition),
}

/// Why the options give no board: the sowing game's setup, or Bao's, refused them.
#[derive(Debug)]
pub enum BoardError {
    /// The rule options, the position or the moves of a sowing game.
    Sowing(SetupError),
    /// Bao's board, position or moves.
    Bao(BaoSetupError),
}

impl std::fmt::Display for BoardError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BoardError::Sowing(e) => e.fmt(f),
            BoardError::Bao(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for BoardError {}

impl Board {
    /// The position drawn, with the side to move, the legal moves and the score, as
    /// `kalah show` prints it (several lines, each ended).
    pub fn describe(&self) -> String {
        match self {
            Board::Sowing(game, pos) => notation::describe(game, pos),
            Board::Bao(rules, pos) => bao_setup::describe(rules, pos),
        }
    }

    /// The rules in their one-line description: `Kalah(6,4) capture=...` for a sowing
    /// game, `Bao(8,2)` for Bao (each kind's `Display`, which its `FromStr` reads back).
    pub fn rules_text(&self) -> String {
        match self {
            Board::Sowing(game, _) => game.rules().to_string(),
            Board::Bao(rules, _) => rules.to_string(),
        }
    }

    /// The board's size: houses a side and seeds a house at the start (Bao: pits a row
    /// and seeds a pit).
    pub fn size(&self) -> (usize, usize) {
        match self {
            Board::Sowing(game, _) => {
                let rules = game.rules();
                (rules.houses as usize, rules.seeds as usize)
            }
            Board::Bao(rules, _) => (rules.pits(), rules.seeds()),
        }
    }

    /// The seeds of the game's start (every house or pit times its seeds).
    pub fn total_seeds(&self) -> usize {
        match self {
            Board::Sowing(game, _) => game.rules().total_seeds(),
            Board::Bao(rules, _) => 4 * rules.pits() * rules.seeds(),
        }
    }

    /// The sowing game, None for Bao.
    pub fn game(&self) -> Option<&Game> {
        match self {
            Board::Sowing(game, _) => Some(game),
            Board::Bao(..) => None,
        }
    }

    /// Bao's rules, None for a sowing game.
    pub fn bao_rules(&self) -> Option<BaoRules> {
        match self {
            Board::Sowing(..) => None,
            Board::Bao(rules, _) => Some(*rules),
        }
    }

    /// True when both are boards of the same game (the same rules and size; the
    /// positions may differ).
    pub fn same_game(&self, other: &Board) -> bool {
        match (self, other) {
            (Board::Sowing(a, _), Board::Sowing(b, _)) => a.rules() == b.rules(),
            (Board::Bao(a, _), Board::Bao(b, _)) => a == b,
            _ => false,
        }
    }

    /// Feeds the game (not the position) to `state`: boards of the [`same_game`]
    /// hash alike.
    ///
    /// [`same_game`]: Board::same_game
    pub fn hash_game<H: std::hash::Hasher>(&self, state: &mut H) {
        use std::hash::Hash;
        match self {
            Board::Sowing(game, _) => game.rules().hash(state),
            Board::Bao(rules, _) => rules.hash(state),
        }
    }

    /// The limits of an analysis of this position: those given, else a time that suits
    /// the kind ([`ANALYSE_DEFAULT_SECONDS`], Bao's [`BAO_DEFAULT_SECONDS`]).
    pub fn analysis_limits(&self, given: Option<Limits>) -> Limits {
        let seconds = match self {
            Board::Sowing(..) => ANALYSE_DEFAULT_SECONDS,
            Board::Bao(..) => BAO_DEFAULT_SECONDS,
        };
        given.unwrap_or_else(|| Limits::time(Duration::from_secs_f64(seconds)))
    }

    /// Where a perft of this position counts from: sowings, or Bao's whole moves.
    pub fn perft_start(&self) -> Start<'_> {
        match self {
            Board::Sowing(game, pos) => Start::Sowing(game, pos),
            Board::Bao(rules, pos) => Start::Bao(rules, pos),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::setup::RuleOptions;
    use super::super::RulesName;
    use super::*;
    use kalah_core::{Preset, Rules};

    #[test]
    fn each_kind_is_shown_by_its_own_drawing() {
        let game = Game::new(Rules::kalah(3, 2)).unwrap();
        let start = game.start();
        let sowing = Board::Sowing(Arc::new(game.clone()), start);
        assert_eq!(sowing.describe(), notation::describe(&game, &start));
        assert!(matches!(sowing.perft_start(), Start::Sowing(..)));
        let setup = bao_setup::setup(&bao_setup::BaoOptions {
            pits: Some(4),
            seeds: Some(2),
            position: None,
            moves: None,
        })
        .unwrap();
        let bao = Board::Bao(setup.rules, setup.pos);
        assert_eq!(
            bao.describe(),
            bao_setup::describe(&setup.rules, &setup.pos)
        );
        assert!(matches!(bao.perft_start(), Start::Bao(..)));
    }

    #[test]
    fn the_game_of_either_kind_is_described_sized_and_compared() {
        let game = Game::new(Rules::kalah(3, 2)).unwrap();
        let sowing = Board::Sowing(Arc::new(game.clone()), game.start());
        let rules = BaoRules::new(4, 2).unwrap();
        let bao = Board::Bao(rules, rules.start());
        assert_eq!(sowing.rules_text(), game.rules().to_string());
        assert_eq!(bao.rules_text(), "Bao(4,2)");
        assert_eq!((sowing.size(), bao.size()), ((3, 2), (4, 2)));
        assert_eq!((sowing.total_seeds(), bao.total_seeds()), (12, 32));
        assert!(sowing.game().is_some() && bao.game().is_none());
        assert_eq!((sowing.bao_rules(), bao.bao_rules()), (None, Some(rules)));
        let next = rules.start().legal().iter().next().unwrap().next;
        let played = Board::Bao(rules, next);
        assert!(bao.same_game(&played) && !bao.same_game(&sowing));
        let hash = |b: &Board| {
            let mut h = std::collections::hash_map::DefaultHasher::new();
            b.hash_game(&mut h);
            std::hash::Hasher::finish(&h)
        };
        assert_eq!(hash(&bao), hash(&played));
    }

    #[test]
    fn each_kind_has_its_default_time_and_a_given_limit_wins() {
        let game = Game::new(Rules::kalah(3, 2)).unwrap();
        let sowing = Board::Sowing(std::sync::Arc::new(game.clone()), game.start());
        let secs = |l: Limits| l.time.map(|t| t.as_secs_f64());
        assert_eq!(secs(sowing.analysis_limits(None)), Some(3.0));
        assert_eq!(
            sowing.analysis_limits(Some(Limits::depth(2))).depth,
            Some(2)
        );
        let s = bao_setup::setup(&bao_setup::BaoOptions {
            pits: Some(4),
            seeds: Some(2),
            position: None,
            moves: None,
        })
        .unwrap();
        let bao = Board::Bao(s.rules, s.pos);
        assert_eq!(secs(bao.analysis_limits(None)), Some(BAO_DEFAULT_SECONDS));
    }

    #[test]
    fn the_options_set_up_the_board_of_their_kind() {
        let options = RuleOptions {
            houses: Some(4),
            seeds: Some(2),
            ..RuleOptions::default()
        };
        let Ok(Board::Sowing(game, pos)) =
            Board::set_up(RulesName::Sowing(Preset::Kalah), &options, None, Some("1"))
        else {
            panic!("no sowing game");
        };
        let (played, after) = super::super::setup::setup(&options, None, Some("1")).unwrap();
        assert_eq!(game.rules(), &Rules::kalah(4, 2));
        assert_eq!((game.rules(), pos), (played.rules(), after));
        let Ok(Board::Bao(rules, pos)) = Board::set_up(RulesName::Bao, &options, None, None) else {
            panic!("no Bao board");
        };
        let bao = bao_setup::setup(&bao_setup::BaoOptions {
            pits: Some(4),
            seeds: Some(2),
            position: None,
            moves: None,
        })
        .unwrap();
        assert_eq!((rules, pos), (bao.rules, bao.pos));
        assert!(matches!(
            Board::set_up(
                RulesName::Sowing(Preset::Kalah),
                &options,
                Some("1,2:S"),
                None
            ),
            Err(BoardError::Sowing(_))
        ));
        assert!(matches!(
            Board::set_up(RulesName::Bao, &options, None, Some("Z9")),
            Err(BoardError::Bao(_))
        ));
    }
}
