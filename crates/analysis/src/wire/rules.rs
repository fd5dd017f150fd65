//! The rules as JSON: one description, field by field, for every output that states the
//! rules it was made under (the board's API, exported tables, database headers). Each
//! output prints the fields it has always printed ([`pick`]); the rules' text (`text`)
//! is the one field a reader needs ([`from_json`]).

use kalah_core::{Family, Rules};
use serde_json::{json, Map, Value};

use super::{text_field, FormatError};

/// The full description: `text` (the rules as written on the command line), `family`,
/// `houses`, `seeds`, `capture`, `end`, `leftovers`, `grand_slam` (Oware's, else null),
/// `early_stop`, `cyclic` (positions can repeat) and `choose_direction` (a sowing may go
/// either way).
pub fn to_json(rules: &Rules) -> Value {
    json!({
        "text": rules.to_string(),
        "family": rules.family.name(),
        "houses": rules.houses,
        "seeds": rules.seeds,
        "capture": rules.family.capture_name(rules.capture),
        "end": rules.end.to_string(),
        "leftovers": rules.leftovers.to_string(),
        "grand_slam": (rules.family == Family::Oware).then(|| rules.grand_slam.to_string()),
        "early_stop": rules.early_stop,
        "cyclic": rules.family.is_cyclic(),
        "choose_direction": rules.family.has_direction(),
    })
}

/// The fields `names` of the full description ([`to_json`]), for an output that prints
/// only those; a name that is not a field is left out.
pub fn pick(rules: &Rules, names: &[&str]) -> Map<String, Value> {
    let Value::Object(mut all) = to_json(rules) else {
        unreachable!("the description is an object")
    };
    names
        .iter()
        .filter_map(|&n| all.remove(n).map(|v| (n.to_string(), v)))
        .collect()
}

/// Reads the rules from a description written by [`to_json`]: its `text`, checked against
/// the other fields it has.
pub fn from_json(v: &Value) -> Result<Rules, FormatError> {
    let what = "the rules";
    let text = text_field(v, "text", what)?;
    let rules: Rules = text
        .parse()
        .map_err(|e| FormatError(format!("{what}: bad rules '{text}': {e}")))?;
    let Value::Object(expected) = to_json(&rules) else {
        unreachable!("the description is an object")
    };
    for (name, value) in v.as_object().into_iter().flatten() {
        if expected.get(name).is_some_and(|e| e != value) {
            return Err(FormatError(format!(
                "{what}: \"{name}\" is {value}, but the rules '{text}' have {}",
                expected[name]
            )));
        }
    }
    Ok(rules)
}

#[cfg(test)]
mod tests {
    use super::*;
    use kalah_core::Preset;

    fn presets() -> Vec<Rules> {
        let names =
            "kalah kalah-empty online online-empty general egyptian nigerian ethiopian oware";
        names
            .split(' ')
            .map(|n| n.parse::<Preset>().unwrap().rules(6, 4))
            .collect()
    }

    #[test]
    fn the_rules_round_trip_through_their_description() {
        for rules in presets() {
            let text = to_json(&rules).to_string();
            let back: Value = serde_json::from_str(&text).unwrap();
            assert_eq!(from_json(&back).unwrap(), rules, "{text}");
        }
    }

    #[test]
    fn a_description_that_contradicts_its_text_is_refused() {
        let mut v = to_json(&Rules::kalah(6, 4));
        v["houses"] = json!(5);
        assert!(from_json(&v).is_err());
    }

    #[test]
    fn a_pick_keeps_the_fields_named_and_their_values() {
        let rules = Rules::kalah(6, 4);
        let picked = pick(&rules, &["houses", "end", "no-such-field"]);
        assert_eq!(
            Value::Object(picked),
            json!({"houses": 6, "end": "row-empty"})
        );
    }
}
