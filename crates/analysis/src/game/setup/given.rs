//! What the rule options a front end was given come to: its two early-stop switches as
//! one option, and whether any option was given at all.

use super::RuleOptions;

impl RuleOptions {
    /// The early stop asked for by a front end's two switches, one to turn it on and one
    /// to turn it off: the one that turns it off wins where both are given; neither leaves
    /// the preset's.
    pub fn early_stop_switches(on: bool, off: bool) -> Option<bool> {
        match (on, off) {
            (_, true) => Some(false),
            (true, false) => Some(true),
            (false, false) => None,
        }
    }

    /// True when no option was given: the `kalah` preset, nothing overridden.
    pub fn is_default(&self) -> bool {
        *self == RuleOptions::default()
    }
}

#[cfg(test)]
mod tests {
    use kalah_core::{Capture, Preset};

    use super::*;

    #[test]
    fn the_switch_that_turns_early_stop_off_wins() {
        assert_eq!(RuleOptions::early_stop_switches(false, false), None);
        assert_eq!(RuleOptions::early_stop_switches(true, false), Some(true));
        assert_eq!(RuleOptions::early_stop_switches(false, true), Some(false));
        assert_eq!(RuleOptions::early_stop_switches(true, true), Some(false));
    }

    #[test]
    fn any_option_given_is_not_the_default() {
        assert!(RuleOptions::default().is_default());
        let given = [
            RuleOptions {
                houses: Some(6),
                ..RuleOptions::default()
            },
            RuleOptions {
                seeds: Some(4),
                ..RuleOptions::default()
            },
            RuleOptions {
                preset: Preset::Oware,
                ..RuleOptions::default()
            },
            RuleOptions {
                capture: Some(Capture::Standard),
                ..RuleOptions::default()
            },
            RuleOptions {
                early_stop: Some(false),
                ..RuleOptions::default()
            },
        ];
        for options in given {
            assert!(!options.is_default(), "{options:?}");
        }
    }
}
