//! Whether the options given to a command fit the game its rules name: Bao la Kujifunza
//! (`--rules bao`) takes the options of its board and those a command lists for it, and
//! none of the sowing games'; the sowing games take none of Bao's own. Which is which is
//! the table of [`crate::game::options`]; a front end names the options given, in the
//! order given, and [`check`] says which does not fit, and what would.

use crate::game::options::{bao_commands, takes_long, Command, Opt};
use crate::game::Kind;

/// Checks the options `given` to `command` (by their long names, in the order given)
/// against the kind of game its rules name ([`takes_long`]); `longs` is every option the
/// command has, in its order. The error names the first option given that does not fit,
/// and under Bao the options that would.
pub fn check(command: Command, kind: Kind, given: &[&str], longs: &[&str]) -> Result<(), String> {
    let name = command.name();
    if kind == Kind::Bao && !command.plays_bao() {
        let names: Vec<&str> = bao_commands().map(Command::name).collect();
        return Err(format!(
            "kalah {name} does not play --rules bao: the commands of Bao are {}",
            names.join(", ")
        ));
    }
    let Some(long) = given.iter().find(|g| !takes_long(command, kind, g)) else {
        return Ok(());
    };
    if kind == Kind::Sowing {
        return Err(format!(
            "--{long} applies to --rules bao only (see kalah {name} --help)"
        ));
    }
    let board = |long: &&&str| Opt::of_long(long).is_some_and(|o| Opt::BOARD.contains(&o));
    let takes = |long: &&&str| takes_long(command, Kind::Bao, long);
    let own = longs.iter().filter(|l| !board(l) && takes(l));
    let options: Vec<String> = longs
        .iter()
        .filter(board)
        .chain(own)
        .filter(|long| **long != "rules")
        .map(|long| match *long {
            "houses" => "--houses N (pits a row, 3 to 8)".to_string(),
            "seeds" => "--seeds S".to_string(),
            _ => format!("--{long}"),
        })
        .collect();
    Err(format!(
        "--{long} does not apply to --rules bao: kalah {name} takes with it {} (see kalah \
         {name} --help)",
        options.join(", ")
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    const LONGS: &[&str] = &[
        "json",
        "capture",
        "time",
        "rules",
        "houses",
        "seeds",
        "position",
        "memory-mb",
        "quiet",
        "nodes",
        "depth",
    ];

    #[test]
    fn bao_takes_its_board_and_the_options_the_command_lists() {
        let ok = ["rules", "houses", "json"];
        assert_eq!(check(Command::Solve, Kind::Bao, &ok, LONGS), Ok(()));
        let capture = ["json", "capture", "x"];
        assert_eq!(
            check(Command::Solve, Kind::Bao, &capture, LONGS).unwrap_err(),
            "--capture does not apply to --rules bao: kalah solve takes with it --houses N \
             (pits a row, 3 to 8), --seeds S, --position, --json, --time, --memory-mb, \
             --quiet, --nodes, --depth (see kalah solve --help)"
        );
    }

    #[test]
    fn the_sowing_games_refuse_baos_own_options_and_bao_the_other_commands() {
        let memory = ["capture", "memory-mb"];
        assert_eq!(
            check(Command::Solve, Kind::Sowing, &memory, LONGS).unwrap_err(),
            "--memory-mb applies to --rules bao only (see kalah solve --help)"
        );
        assert_eq!(
            check(Command::Solve, Kind::Sowing, &memory[..1], LONGS),
            Ok(())
        );
        assert!(check(Command::Pie, Kind::Bao, &[], LONGS)
            .unwrap_err()
            .starts_with("kalah pie does not play --rules bao: the commands of Bao are show, "));
    }
}
