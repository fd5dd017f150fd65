//! What a front end's rules option names (`--rules`, the board's `rules=`): a preset of the
//! sowing games, or `bao`. Its text is the preset's name, or `bao`; [`RulesName::kind`]
//! says which kind of game it sets up.

use kalah_core::{Preset, RulesError};

use super::Kind;

/// What `--rules` names: a preset of the sowing games, or Bao la Kujifunza.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RulesName {
    /// A rule preset of the sowing games (Kalah and its families, Oware).
    Sowing(Preset),
    /// `bao`: Bao la Kujifunza, four rows of pits (docs/bao.md).
    Bao,
}

impl RulesName {
    /// The preset of the sowing games named, None for Bao.
    pub fn preset(self) -> Option<Preset> {
        match self {
            RulesName::Sowing(preset) => Some(preset),
            RulesName::Bao => None,
        }
    }

    /// The kind of game the name sets up.
    pub fn kind(self) -> Kind {
        match self {
            RulesName::Sowing(_) => Kind::Sowing,
            RulesName::Bao => Kind::Bao,
        }
    }
}

impl std::str::FromStr for RulesName {
    type Err = RulesError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "bao" => Ok(RulesName::Bao),
            _ => s.parse().map(RulesName::Sowing),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bao_is_its_own_kind_and_every_preset_a_sowing_game() {
        assert_eq!("bao".parse::<RulesName>(), Ok(RulesName::Bao));
        assert_eq!(RulesName::Bao.kind(), Kind::Bao);
        for (preset, name) in Preset::ALL {
            assert_eq!(name.parse::<RulesName>(), Ok(RulesName::Sowing(preset)));
            assert_eq!(RulesName::Sowing(preset).kind(), Kind::Sowing);
        }
        assert!("baobab".parse::<RulesName>().is_err());
        assert_eq!(RulesName::Bao.preset(), None);
        assert_eq!(
            RulesName::Sowing(Preset::Oware).preset(),
            Some(Preset::Oware)
        );
    }
}
