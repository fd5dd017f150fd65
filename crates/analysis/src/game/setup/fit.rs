//! Whether the options given to a command fit the game its rules name: Bao la Kujifunza
//! (`--rules bao`) takes the options of its board and those a command lists for it, and
//! none of the sowing games'; the sowing games take none of Bao's own. A front end names
//! the options given, in the order given; [`check`] says which does not fit, and what
//! would.

/// The commands that play Bao (`--rules bao`).
pub const BAO_COMMANDS: [&str; 9] = [
    "show", "perft", "solve", "openings", "play", "analyse", "batch", "export", "match",
];

/// The options of the board and the position, which every command of Bao takes (where
/// the command has them).
pub const BAO_BOARD: [&str; 5] = ["rules", "houses", "seeds", "position", "moves"];

/// An option given, by its long name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Given<'a> {
    /// The long name, without its dashes.
    pub long: &'a str,
    /// Whether only `--rules bao` takes it (an option of Bao's own).
    pub bao_only: bool,
}

/// Checks the options `given` to the command `name` (in the order given) against the
/// game its rules name (`rules_bao`: `--rules bao`). `bao` lists the options the command
/// takes under `--rules bao` besides the board's (`None`: it does not play Bao), and
/// `longs` every option the command has, in its order. The error names the first option
/// given that does not fit, and under Bao the options that would.
pub fn check(
    name: &str,
    rules_bao: bool,
    bao: Option<&[&str]>,
    given: &[Given],
    longs: &[&str],
) -> Result<(), String> {
    if rules_bao && bao.is_none() {
        return Err(format!(
            "kalah {name} does not play --rules bao: the commands of Bao are {}",
            BAO_COMMANDS.join(", ")
        ));
    }
    let takes = |long: &str| BAO_BOARD.contains(&long) || bao.unwrap_or(&[]).contains(&long);
    let fits = |g: &Given| match rules_bao {
        true => takes(g.long),
        false => !g.bao_only,
    };
    let Some(misfit) = given.iter().find(|g| !fits(g)) else {
        return Ok(());
    };
    let long = misfit.long;
    if !rules_bao {
        return Err(format!(
            "--{long} applies to --rules bao only (see kalah {name} --help)"
        ));
    }
    let board = longs.iter().filter(|l| BAO_BOARD.contains(l));
    let own = longs.iter().filter(|l| !BAO_BOARD.contains(l) && takes(l));
    let options: Vec<String> = board
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
        "json", "capture", "time", "rules", "houses", "seeds", "position",
    ];

    fn given(long: &str, bao_only: bool) -> Given<'_> {
        Given { long, bao_only }
    }

    #[test]
    fn bao_takes_its_board_and_the_options_the_command_lists() {
        let bao: Option<&[&str]> = Some(&["json", "time"]);
        let ok = [
            given("rules", false),
            given("houses", false),
            given("json", false),
        ];
        assert_eq!(check("solve", true, bao, &ok, LONGS), Ok(()));
        let capture = [
            given("json", false),
            given("capture", false),
            given("x", false),
        ];
        assert_eq!(
            check("solve", true, bao, &capture, LONGS).unwrap_err(),
            "--capture does not apply to --rules bao: kalah solve takes with it --houses N \
             (pits a row, 3 to 8), --seeds S, --position, --json, --time (see kalah solve \
             --help)"
        );
    }

    #[test]
    fn the_sowing_games_refuse_baos_own_options_and_bao_the_other_commands() {
        let memory = [given("capture", false), given("memory-mb", true)];
        assert_eq!(
            check("solve", false, None, &memory, LONGS).unwrap_err(),
            "--memory-mb applies to --rules bao only (see kalah solve --help)"
        );
        assert_eq!(check("solve", false, None, &memory[..1], LONGS), Ok(()));
        assert!(check("pie", true, None, &[], LONGS)
            .unwrap_err()
            .starts_with("kalah pie does not play --rules bao: the commands of Bao are show, "));
    }
}
