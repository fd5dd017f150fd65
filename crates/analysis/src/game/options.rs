//! Which options each command takes for each kind of game, as one typed table
//! ([`BAO_TABLE`]): the commands that play Bao, each with the options it takes under
//! `--rules bao` besides the board's, and which of them only Bao takes. The command line
//! checks what it parsed against it ([`takes`], [`super::setup::fit::check`]); its help
//! puts the options only Bao takes under their own heading, and a test keeps the two in
//! step.

use super::Kind;

/// A command of `kalah`, by its name on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Command {
    /// `kalah show`
    Show,
    /// `kalah perft`
    Perft,
    /// `kalah play`
    Play,
    /// `kalah solve`
    Solve,
    /// `kalah analyse`
    Analyse,
    /// `kalah bench`
    Bench,
    /// `kalah openings`
    Openings,
    /// `kalah pie`
    Pie,
    /// `kalah atlas`
    Atlas,
    /// `kalah batch`
    Batch,
    /// `kalah split`
    Split,
    /// `kalah merge`
    Merge,
    /// `kalah export`
    Export,
    /// `kalah egdb` (and its own commands)
    Egdb,
    /// `kalah serve`
    Serve,
    /// `kalah engine`
    Engine,
    /// `kalah match`
    Match,
    /// `kalah book` (and its own commands)
    Book,
}

impl Command {
    /// Every command, in the order of `kalah --help`.
    pub const ALL: [Command; 18] = [
        Command::Show,
        Command::Perft,
        Command::Play,
        Command::Solve,
        Command::Analyse,
        Command::Bench,
        Command::Openings,
        Command::Pie,
        Command::Atlas,
        Command::Batch,
        Command::Split,
        Command::Merge,
        Command::Export,
        Command::Egdb,
        Command::Serve,
        Command::Engine,
        Command::Match,
        Command::Book,
    ];

    /// The command's name on the command line (`show`).
    pub fn name(self) -> &'static str {
        match self {
            Command::Show => "show",
            Command::Perft => "perft",
            Command::Play => "play",
            Command::Solve => "solve",
            Command::Analyse => "analyse",
            Command::Bench => "bench",
            Command::Openings => "openings",
            Command::Pie => "pie",
            Command::Atlas => "atlas",
            Command::Batch => "batch",
            Command::Split => "split",
            Command::Merge => "merge",
            Command::Export => "export",
            Command::Egdb => "egdb",
            Command::Serve => "serve",
            Command::Engine => "engine",
            Command::Match => "match",
            Command::Book => "book",
        }
    }

    /// The command named `name`, if there is one.
    pub fn named(name: &str) -> Option<Command> {
        Command::ALL.into_iter().find(|c| c.name() == name)
    }

    /// Whether the command plays Bao (`--rules bao`): it has a row in [`BAO_TABLE`].
    pub fn plays_bao(self) -> bool {
        bao_row(self).is_some()
    }
}

/// An option that some command takes under `--rules bao`, by its long name. The options
/// only the sowing games take (`--capture`, `--threads`...) are not named here: no
/// command takes them under Bao.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[allow(missing_docs)] // Each variant is the option of its long name.
pub enum Opt {
    Rules,
    Houses,
    Seeds,
    Position,
    Moves,
    Json,
    Quiet,
    Output,
    Force,
    Format,
    Resume,
    Shard,
    Time,
    Nodes,
    Depth,
    DepthLimit,
    Exact,
    MemoryMb,
    As,
    Divide,
    Count,
    OpeningTurns,
    Seed,
    Engine2,
    Concurrency,
    MoveTimeout,
    Games,
    Time1,
    Nodes1,
    Depth1,
    Time2,
    Nodes2,
    Depth2,
    Openings,
    Clock,
    Clock1,
    Clock2,
}

impl Opt {
    /// Every option named.
    pub const ALL: [Opt; 37] = [
        Opt::Rules,
        Opt::Houses,
        Opt::Seeds,
        Opt::Position,
        Opt::Moves,
        Opt::Json,
        Opt::Quiet,
        Opt::Output,
        Opt::Force,
        Opt::Format,
        Opt::Resume,
        Opt::Shard,
        Opt::Time,
        Opt::Nodes,
        Opt::Depth,
        Opt::DepthLimit,
        Opt::Exact,
        Opt::MemoryMb,
        Opt::As,
        Opt::Divide,
        Opt::Count,
        Opt::OpeningTurns,
        Opt::Seed,
        Opt::Engine2,
        Opt::Concurrency,
        Opt::MoveTimeout,
        Opt::Games,
        Opt::Time1,
        Opt::Nodes1,
        Opt::Depth1,
        Opt::Time2,
        Opt::Nodes2,
        Opt::Depth2,
        Opt::Openings,
        Opt::Clock,
        Opt::Clock1,
        Opt::Clock2,
    ];

    /// The options of the board and the position, which every command of Bao takes
    /// (where the command has them).
    pub const BOARD: [Opt; 5] = [
        Opt::Rules,
        Opt::Houses,
        Opt::Seeds,
        Opt::Position,
        Opt::Moves,
    ];

    /// The long name, without its dashes (`memory-mb`).
    pub fn long(self) -> &'static str {
        match self {
            Opt::Rules => "rules",
            Opt::Houses => "houses",
            Opt::Seeds => "seeds",
            Opt::Position => "position",
            Opt::Moves => "moves",
            Opt::Json => "json",
            Opt::Quiet => "quiet",
            Opt::Output => "output",
            Opt::Force => "force",
            Opt::Format => "format",
            Opt::Resume => "resume",
            Opt::Shard => "shard",
            Opt::Time => "time",
            Opt::Nodes => "nodes",
            Opt::Depth => "depth",
            Opt::DepthLimit => "depth-limit",
            Opt::Exact => "exact",
            Opt::MemoryMb => "memory-mb",
            Opt::As => "as",
            Opt::Divide => "divide",
            Opt::Count => "count",
            Opt::OpeningTurns => "opening-turns",
            Opt::Seed => "seed",
            Opt::Engine2 => "engine2",
            Opt::Concurrency => "concurrency",
            Opt::MoveTimeout => "move-timeout",
            Opt::Games => "games",
            Opt::Time1 => "time1",
            Opt::Nodes1 => "nodes1",
            Opt::Depth1 => "depth1",
            Opt::Time2 => "time2",
            Opt::Nodes2 => "nodes2",
            Opt::Depth2 => "depth2",
            Opt::Openings => "openings",
            Opt::Clock => "clock",
            Opt::Clock1 => "clock1",
            Opt::Clock2 => "clock2",
        }
    }

    /// The option of long name `long`, if it is one named here.
    pub fn of_long(long: &str) -> Option<Opt> {
        Opt::ALL.into_iter().find(|o| o.long() == long)
    }
}

/// Which kinds of game take an option a command lists under Bao.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fit {
    /// Both kinds: the sowing games and Bao.
    Both,
    /// Bao alone (`--memory-mb`, the graph's memory): the sowing games refuse it.
    BaoOnly,
}

use Fit::{BaoOnly, Both};

/// The commands that play Bao, in the order their refusal lists them, each with the
/// options it takes under `--rules bao` besides the board's ([`Opt::BOARD`]) and the
/// kinds that take each. An option of a command not listed here is the sowing games'
/// alone.
pub const BAO_TABLE: &[(Command, &[(Opt, Fit)])] = &[
    (Command::Show, &[(Opt::Json, Both), (Opt::Quiet, Both)]),
    (
        Command::Perft,
        &[
            (Opt::Depth, Both),
            (Opt::Divide, Both),
            (Opt::Json, Both),
            (Opt::Quiet, Both),
        ],
    ),
    (
        Command::Solve,
        &[
            (Opt::Json, Both),
            (Opt::Time, Both),
            (Opt::Nodes, Both),
            (Opt::Depth, Both),
            (Opt::MemoryMb, BaoOnly),
            (Opt::Quiet, Both),
        ],
    ),
    (
        Command::Openings,
        &[
            (Opt::Json, Both),
            (Opt::Time, Both),
            (Opt::Nodes, BaoOnly),
            (Opt::Depth, BaoOnly),
            (Opt::MemoryMb, BaoOnly),
            (Opt::Quiet, Both),
        ],
    ),
    (
        Command::Play,
        &[
            (Opt::As, Both),
            (Opt::Time, Both),
            (Opt::MemoryMb, BaoOnly),
            (Opt::Quiet, Both),
        ],
    ),
    (
        Command::Analyse,
        &[
            (Opt::Json, Both),
            (Opt::Time, Both),
            (Opt::Nodes, Both),
            (Opt::Depth, Both),
            (Opt::Quiet, Both),
        ],
    ),
    (
        Command::Batch,
        &[
            (Opt::Output, Both),
            (Opt::Resume, Both),
            (Opt::Force, Both),
            (Opt::Shard, Both),
            (Opt::Time, Both),
            (Opt::Nodes, BaoOnly),
            (Opt::Depth, BaoOnly),
            (Opt::Exact, BaoOnly),
            (Opt::MemoryMb, BaoOnly),
            (Opt::Quiet, Both),
        ],
    ),
    (
        Command::Export,
        &[
            (Opt::Depth, Both),
            (Opt::Output, Both),
            (Opt::Force, Both),
            (Opt::Format, Both),
            (Opt::Exact, BaoOnly),
            (Opt::Time, BaoOnly),
            (Opt::Nodes, BaoOnly),
            (Opt::DepthLimit, BaoOnly),
            (Opt::MemoryMb, BaoOnly),
            (Opt::Quiet, Both),
        ],
    ),
    (
        Command::Match,
        &[
            (Opt::Count, Both),
            (Opt::OpeningTurns, Both),
            (Opt::Seed, Both),
            (Opt::Engine2, Both),
            (Opt::Concurrency, Both),
            (Opt::MoveTimeout, Both),
            (Opt::Games, Both),
            (Opt::Force, Both),
            (Opt::Json, Both),
            (Opt::Time1, Both),
            (Opt::Nodes1, Both),
            (Opt::Depth1, Both),
            (Opt::Time2, Both),
            (Opt::Nodes2, Both),
            (Opt::Depth2, Both),
            (Opt::Openings, Both),
            (Opt::Clock, Both),
            (Opt::Clock1, Both),
            (Opt::Clock2, Both),
            (Opt::Quiet, Both),
        ],
    ),
];

/// The options `command` lists under Bao, or `None` where it does not play Bao.
fn bao_row(command: Command) -> Option<&'static [(Opt, Fit)]> {
    BAO_TABLE
        .iter()
        .find(|(c, _)| *c == command)
        .map(|(_, row)| *row)
}

/// Whether `command` takes the option `option` for the kind of game `kind` (where the
/// command has the option at all): under Bao, the board's options and those its row of
/// [`BAO_TABLE`] lists; under the sowing games, every option but those only Bao takes.
pub fn takes(command: Command, kind: Kind, option: Opt) -> bool {
    let fit = bao_row(command).and_then(|row| row.iter().find(|(o, _)| *o == option));
    match kind {
        Kind::Bao => bao_row(command).is_some() && (Opt::BOARD.contains(&option) || fit.is_some()),
        Kind::Sowing => !matches!(fit, Some((_, BaoOnly))),
    }
}

/// [`takes`] for an option by its long name: one not named by [`Opt`] is the sowing
/// games' alone.
pub fn takes_long(command: Command, kind: Kind, long: &str) -> bool {
    match Opt::of_long(long) {
        Some(option) => takes(command, kind, option),
        None => kind == Kind::Sowing,
    }
}

/// The commands that play Bao, in the order of [`BAO_TABLE`].
pub fn bao_commands() -> impl Iterator<Item = Command> {
    BAO_TABLE.iter().map(|(c, _)| *c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_command_and_option_is_named_once() {
        for c in Command::ALL {
            assert_eq!(Command::named(c.name()), Some(c));
        }
        for o in Opt::ALL {
            assert_eq!(Opt::of_long(o.long()), Some(o));
        }
        assert_eq!(Command::named("frobnicate"), None);
    }

    #[test]
    fn bao_takes_its_board_and_its_row_and_the_sowing_games_all_but_baos_own() {
        assert!(takes(Command::Solve, Kind::Bao, Opt::Houses));
        assert!(takes(Command::Solve, Kind::Bao, Opt::MemoryMb));
        assert!(!takes(Command::Solve, Kind::Sowing, Opt::MemoryMb));
        assert!(takes(Command::Solve, Kind::Sowing, Opt::Time));
        assert!(!takes_long(Command::Solve, Kind::Bao, "capture"));
        assert!(takes_long(Command::Solve, Kind::Sowing, "capture"));
        assert!(!takes(Command::Pie, Kind::Bao, Opt::Houses));
        assert!(takes(Command::Pie, Kind::Sowing, Opt::Houses));
        let names: Vec<&str> = bao_commands().map(Command::name).collect();
        assert_eq!(
            names,
            ["show", "perft", "solve", "openings", "play", "analyse", "batch", "export", "match"]
        );
    }
}
