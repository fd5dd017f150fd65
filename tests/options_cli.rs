//! Which options each command takes for each kind of game, as the binary shows them: every
//! command (found in `kalah --help`, so a new one cannot be left out) takes `--quiet`, for
//! either kind of game, and the options its help puts under `Bao (--rules bao)` are those
//! the table of `kalah_analysis::game::options` gives Bao alone.

use kalah_analysis::game::options::{bao_commands, takes, takes_long, Command, Opt};
use kalah_analysis::game::Kind;

use crate::support::cli::kalah_ok;

/// The help of `kalah WORDS --help`.
fn help(words: &[String]) -> String {
    let mut args: Vec<&str> = words.iter().map(String::as_str).collect();
    args.push("--help");
    String::from_utf8(kalah_ok(&args).stdout).expect("the help is text")
}

/// Every command line of the tree, found by its help: `show`, `egdb build`, `egdb cache`,
/// `egdb cache grow`... (`help` left out), each with its help.
fn every_command() -> Vec<(Vec<String>, String)> {
    let mut all = Vec::new();
    let mut todo = vec![Vec::new()];
    while let Some(words) = todo.pop() {
        let text = help(&words);
        let listed = text
            .lines()
            .skip_while(|l| !l.starts_with("Commands:"))
            .skip(1)
            .take_while(|l| !l.trim().is_empty())
            .filter_map(|l| l.split_whitespace().next())
            .filter(|name| *name != "help");
        for name in listed {
            let mut inner = words.clone();
            inner.push(name.to_string());
            todo.push(inner);
        }
        if !words.is_empty() {
            all.push((words, text));
        }
    }
    all
}

/// The options of a help text by long name, each with the heading it is under.
fn options(help: &str) -> Vec<(String, String)> {
    let mut heading = String::new();
    let mut all = Vec::new();
    for line in help.lines() {
        if !line.starts_with(' ') && line.ends_with(':') {
            heading = line.trim_end_matches(':').to_string();
        }
        let trimmed = line.trim_start();
        let is_option = trimmed.starts_with("--") || trimmed.get(2..3) == Some(",");
        let long = trimmed.split_whitespace().find(|w| w.starts_with("--"));
        if let (true, Some(long)) = (is_option && line.starts_with(' '), long) {
            all.push((long.trim_start_matches('-').to_string(), heading.clone()));
        }
    }
    all
}

#[test]
fn every_command_takes_quiet() {
    let commands = every_command();
    assert!(commands.len() > 20, "{} commands found", commands.len());
    for (words, text) in commands {
        // `kalah egdb` and `kalah book` only run one of their own commands.
        if text.contains("Usage:") && text.contains("<COMMAND>") {
            continue;
        }
        let quiet = options(&text).iter().any(|(long, _)| long == "quiet");
        assert!(quiet, "kalah {} takes no --quiet", words.join(" "));
    }
    for command in bao_commands() {
        assert!(takes(command, Kind::Bao, Opt::Quiet), "{command:?}");
    }
    let words = [
        "analyse", "--rules", "bao", "--houses", "4", "--quiet", "--depth", "1",
    ];
    let out = kalah_ok(&words);
    assert!(String::from_utf8_lossy(&out.stdout).contains("best move"));
}

#[test]
fn the_help_puts_under_bao_what_the_table_gives_bao_alone() {
    let mut under_bao = 0;
    for (words, text) in every_command() {
        let command = Command::named(&words[0]).expect("a row for every command");
        for (long, heading) in options(&text) {
            if long == "help" || long == "version" {
                continue;
            }
            under_bao += usize::from(heading == "Bao (--rules bao)");
            assert_eq!(
                heading == "Bao (--rules bao)",
                !takes_long(command, Kind::Sowing, &long),
                "kalah {} --{long}: its help heading and the options table disagree",
                words.join(" ")
            );
        }
    }
    // --memory-mb of play, solve, openings, batch and export; --nodes, --depth, --exact...
    assert!(
        under_bao >= 14,
        "{under_bao} options found under the Bao heading"
    );
}
