//! What `kalah engine` settles before its session starts: rules given on the command
//! line are refused (they come in the protocol's `rules` line), and the `id`/`option`
//! pairs that `hello` lists.

use super::EvaluationChoice;

/// Why rules given on the command line (`--rules NAME`) are refused: the protocol's
/// `rules` line takes them, Bao's too.
pub fn rules_refused(rules: &str) -> String {
    if rules == "bao" {
        "kalah engine takes Bao through its protocol: start it without --rules and \
         send `rules bao --houses N --seeds S` (docs/engine.md)"
            .to_string()
    } else {
        format!(
            "kalah engine takes its rules through its protocol: start it without --rules \
             and send `rules {rules} ...` (docs/engine.md)"
        )
    }
}

/// The pairs `hello` lists, name first: the engine's name and `version`, its threads
/// (`all` unless a number is given), its evaluation and its book.
pub fn about(
    version: &str,
    threads: Option<u32>,
    evaluation: EvaluationChoice,
    book: String,
) -> Vec<(String, String)> {
    vec![
        ("name".to_string(), format!("kalah {version}")),
        (
            "threads".to_string(),
            threads.map_or("all".into(), |t| t.to_string()),
        ),
        ("evaluation".to_string(), evaluation.name().to_string()),
        ("book".to_string(), book),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bao_on_the_command_line_is_sent_to_the_rules_line() {
        assert!(rules_refused("bao").contains("send `rules bao --houses N --seeds S`"));
        assert_eq!(
            rules_refused("oware"),
            "kalah engine takes its rules through its protocol: start it without --rules \
             and send `rules oware ...` (docs/engine.md)"
        );
    }

    #[test]
    fn hello_names_the_engine_then_threads_evaluation_and_book() {
        let pairs = about("1.0", None, EvaluationChoice::Store, "none".into());
        let keys: Vec<&str> = pairs.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(keys, ["name", "threads", "evaluation", "book"]);
        assert_eq!(pairs[0].1, "kalah 1.0");
        assert_eq!(pairs[1].1, "all");
        assert_eq!(
            about("1.0", Some(3), EvaluationChoice::Store, "x".into())[1].1,
            "3"
        );
    }
}
