//! Helpers shared by the core's integration tests: a small deterministic PRNG, every
//! combination of rule options, random positions, the perft table format, and the
//! simple reference implementation in [`reference`].

pub mod reference;

use std::path::PathBuf;

use kalah_core::{Family, Game, GrandSlam, Position, Rules, Side};
use reference::RefBoard;

/// SplitMix64: tiny, deterministic, good enough to pick moves and boards.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ 0x2545_f491_4f6c_dd1d)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// True with probability `1 / n`.
    pub fn one_in(&mut self, n: usize) -> bool {
        self.below(n) == 0
    }

    pub fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }
}

/// Every rule set of every family for one board: Kalah's 16 combinations of capture x
/// end x leftovers x early stop, then General's and Nigerian's 8 (end x leftovers x early
/// stop), then Ethiopian's 4 (capture x early stop) and Oware's 4 (grand slam x early
/// stop), whose games can go on forever (see [`PLAYOUT_SOWINGS`]).
pub fn all_rules(houses: u8, seeds: u8) -> Vec<Rules> {
    let mut v = Rules::every_variant(houses, seeds);
    v.extend(Rules::every_cyclic_variant(houses, seeds));
    v
}

/// The most sowings a random playout makes: Ethiopian and Oware games can go round
/// forever, and random ones often do. Kalah games of the boards tested end well before.
pub const PLAYOUT_SOWINGS: usize = 300;

/// The start of `game`, settled: Ethiopian Kalah with one seed per house is over before
/// the first move (the mover has no house of two seeds), and `Game::start` does not say
/// so.
pub fn settled_start(game: &Game) -> (Position, RefBoard) {
    let rules = game.rules();
    let pos = game.settle(game.start()).expect("the start fits its game");
    let reference = RefBoard::start(rules.houses as usize, rules.seeds).settled(rules);
    (pos, reference)
}

/// The rule sets of [`all_rules`] of one family.
pub fn family_rules(family: Family, houses: u8, seeds: u8) -> Vec<Rules> {
    all_rules(houses, seeds)
        .into_iter()
        .filter(|r| r.family == family)
        .collect()
}

/// Every board size the differential tests visit: H = 1..8, S = 1..8.
pub fn all_boards() -> Vec<(u8, u8)> {
    let mut v = Vec::new();
    for h in 1..=8u8 {
        for s in 1..=8u8 {
            if 2 * h as usize * s as usize <= kalah_core::MAX_TOTAL_SEEDS {
                v.push((h, s));
            }
        }
    }
    v
}

/// A random board of the game: up to `capacity` seeds scattered over the `2H+2` places
/// in one of several styles (uniform, a few heavy houses, one huge house for laps,
/// an empty row), either side to move. The game may already be over by its rules.
pub fn random_counts(rng: &mut Rng, h: usize, capacity: usize) -> (Vec<u8>, Side) {
    let places = 2 * h + 2;
    let total = if rng.one_in(3) {
        capacity
    } else {
        1 + rng.below(capacity)
    };
    let mut counts = vec![0u8; places];
    match rng.below(4) {
        0 => {
            for _ in 0..total {
                counts[rng.below(places)] += 1;
            }
        }
        1 => {
            let few: Vec<usize> = (0..1 + rng.below(3)).map(|_| rng.below(places)).collect();
            for _ in 0..total {
                let i = if rng.one_in(3) {
                    rng.below(places)
                } else {
                    rng.pick(&few)
                };
                counts[i] += 1;
            }
        }
        2 => {
            // One house gets most of the seeds, so that sowings go round the board.
            let big = rng.below(places);
            for _ in 0..total {
                let i = if rng.below(4) < 3 {
                    big
                } else {
                    rng.below(places)
                };
                counts[i] += 1;
            }
        }
        _ => {
            // One row starts empty.
            let empty_row = rng.below(2);
            for _ in 0..total {
                let mut i = rng.below(places);
                let row = if i < h { 0 } else { 1 };
                if i != h && i != places - 1 && row == empty_row {
                    i = if empty_row == 0 { h } else { places - 1 };
                }
                counts[i] += 1;
            }
        }
    }
    let side = if rng.one_in(2) {
        Side::South
    } else {
        Side::North
    };
    (counts, side)
}

/// The board notation of absolute counts and a side.
pub fn notation(counts: &[u8], side: Side) -> String {
    let c: Vec<String> = counts.iter().map(|c| c.to_string()).collect();
    format!("{}:{}", c.join(","), side.letter())
}

/// A random board as both a settled fast position and a settled reference board.
pub fn random_position(rng: &mut Rng, game: &Game) -> (Position, RefBoard) {
    let (counts, side) = random_counts(rng, game.houses(), game.capacity());
    let pos: Position = notation(&counts, side)
        .parse()
        .expect("generated notation parses");
    let pos = game.settle(pos).expect("generated board fits the game");
    let reference = RefBoard::from_counts(&counts, side).settled(game.rules());
    (pos, reference)
}

/// Where the perft tables live: `data/perft` at the workspace root.
pub fn perft_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../data/perft")
}

/// One line of a perft table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PerftEntry {
    pub rules: Rules,
    pub position: String,
    pub depth: u32,
    pub count: u64,
}

/// The head of the perft tables of Kalah (see [`perft_header`]).
const KALAH_PERFT_HEAD: &str = "\
# Perft counts of Kalah, computed by the simple reference implementation in
# crates/core/tests/common/reference.rs (regenerate: see data/perft/README.md).
#
# One line per (rules, position, depth, count), fields separated by spaces:
#   houses seeds capture end leftovers early-stop position depth count
# houses, seeds: the board (seeds per house at the start; a position may hold fewer seeds)
# capture:       standard | empty
";

/// The header a perft table of `family` starts with.
pub fn perft_header(family: Family) -> String {
    if family == Family::Kalah {
        return format!("{KALAH_PERFT_HEAD}{PERFT_FIELDS}");
    }
    if family.is_cyclic() {
        return cyclic_perft_header(family);
    }
    format!(
        "\
# Perft counts of {title} Kalah, computed by the simple reference implementation in
# crates/core/tests/common/reference.rs (regenerate: see data/perft/README.md).
#
# One line per (rules, position, depth, count), fields separated by spaces:
#   family houses seeds capture end leftovers early-stop position depth count
# family:        {name}
# houses, seeds: the board (seeds per house at the start; a position may hold fewer seeds)
# capture:       {capture} (what the family captures; it has no capture option)
{rest}",
        title = family.title(),
        name = family.name(),
        capture = family.capture_name(kalah_core::Capture::Standard),
        rest = PERFT_FIELDS
    )
}

/// The lines of the perft headers after the capture field.
const PERFT_FIELDS: &str = "\
# end:           row-empty | mover-stuck
# leftovers:     owner | discard
# early-stop:    on | off
# position:      board notation, absolute counts from South's first house
#                (South's houses, South's store, North's houses, North's store) and the
#                side to move, e.g. 4,4,4,4,4,4,0,4,4,4,4,4,4,0:S
# depth, count:  the number of sequences of exactly `depth` sowings from the position
#                (an extra turn is a further sowing; lines that end the game sooner are
#                not counted)
";

/// The header of the perft tables of Ethiopian Kalah and Oware: their own capture field
/// (Ethiopian's capture option, Oware's grand slam) and their fixed end of game.
fn cyclic_perft_header(family: Family) -> String {
    let (capture, end, leftovers, moves) = match family {
        Family::Ethiopian => (
            "\
# capture:       empty | standard (a last seed in an empty house of the mover's row takes
#                the opposite house, and itself even when that house is empty | only
#                when it holds seeds)",
            "\
# end:           mover-stuck (the family's own end: the game ends when no house of the
#                player to move holds two seeds or more)",
            "# leftovers:     discard (only the stores count)",
            "\
# depth, count:  the number of sequences of exactly `depth` sowings from the position
#                (a sowing is a house of two seeds or more and a direction, so such a
#                house is two sowings; an extra turn is a further sowing; lines that end
#                the game sooner are not counted)",
        ),
        _ => (
            "\
# capture:       no-capture | capture-all (the grand slam rule: what a sowing captures
#                that would take every seed of the opponent's row; Oware always captures
#                the twos and threes of the opponent's row)",
            "\
# end:           mover-stuck (the family's own end: the game ends when the player to move
#                has no seeds, or none of their sowings reaches an opponent without seeds)",
            "# leftovers:     owner (each player then keeps the seeds of their own row)",
            "\
# depth, count:  the number of sequences of exactly `depth` sowings from the position
#                (there are no extra turns; a sowing must feed an opponent without seeds;
#                lines that end the game sooner are not counted)",
        ),
    };
    format!(
        "\
# Perft counts of {title}, computed by the simple reference implementation in
# crates/core/tests/common/reference.rs (regenerate: see data/perft/README.md).
#
# One line per (rules, position, depth, count), fields separated by spaces:
#   family houses seeds capture end leftovers early-stop position depth count
# family:        {name}
# houses, seeds: the board (seeds per house at the start; a position may hold fewer seeds)
{capture}
{end}
{leftovers}
# early-stop:    on | off
# position:      board notation, absolute counts from South's first house
#                (South's houses, South's store, North's houses, North's store) and the
#                side to move, e.g. 4,4,4,4,4,4,0,4,4,4,4,4,4,0:S
{moves}
",
        title = family.long_title(),
        name = family.name(),
    )
}

impl PerftEntry {
    /// The entry's line: Kalah's as in [`perft_header`], another family's with its name
    /// first (see [`perft_header`]); Oware's capture field holds its grand slam rule.
    pub fn to_line(&self) -> String {
        let r = &self.rules;
        let family = match r.family {
            Family::Kalah => String::new(),
            other => format!("{other} "),
        };
        let capture = match r.family {
            Family::Oware => r.grand_slam.name(),
            other => other.capture_name(r.capture),
        };
        format!(
            "{family}{} {} {} {} {} {} {} {} {}",
            r.houses,
            r.seeds,
            capture,
            r.end,
            r.leftovers,
            if r.early_stop { "on" } else { "off" },
            self.position,
            self.depth,
            self.count
        )
    }

    pub fn parse(line: &str) -> Result<PerftEntry, String> {
        let mut f: Vec<&str> = line.split_whitespace().collect();
        let family = if f.len() == 10 {
            f.remove(0).parse().map_err(|e| format!("{e}"))?
        } else {
            Family::Kalah
        };
        if f.len() != 9 {
            return Err(format!(
                "expected 9 fields, or 10 with a family first: {line}"
            ));
        }
        let num = |s: &str| s.parse::<u64>().map_err(|e| format!("{s}: {e}"));
        let mut grand_slam = GrandSlam::NoCapture;
        let capture = if family == Family::Oware {
            grand_slam = f[2].parse().map_err(|e| format!("{e}"))?;
            kalah_core::Capture::Standard
        } else if family.has_capture_option() {
            f[2].parse().map_err(|e| format!("{e}"))?
        } else if f[2] == family.capture_name(kalah_core::Capture::Standard) {
            kalah_core::Capture::Standard
        } else {
            return Err(format!("capture '{}' for the {family} family", f[2]));
        };
        let rules = Rules {
            family,
            houses: num(f[0])? as u8,
            seeds: num(f[1])? as u8,
            capture,
            end: f[3].parse().map_err(|e| format!("{e}"))?,
            leftovers: f[4].parse().map_err(|e| format!("{e}"))?,
            early_stop: match f[5] {
                "on" => true,
                "off" => false,
                other => return Err(format!("early-stop '{other}' is not on/off")),
            },
            grand_slam,
        };
        Ok(PerftEntry {
            rules,
            position: f[6].to_string(),
            depth: num(f[7])? as u32,
            count: num(f[8])?,
        })
    }
}

/// Every entry of every table in `data/perft`, with the file each came from.
pub fn read_perft_tables() -> Vec<(String, PerftEntry)> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(perft_dir())
        .expect("data/perft exists")
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        // Bao's table has its own format and test (tests/bao_perft_data.rs).
        .filter(|p| p.file_name().is_some_and(|n| n != "bao.txt"))
        .collect();
    files.sort();
    let mut v = Vec::new();
    for path in files {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let text = std::fs::read_to_string(&path).expect("perft table is readable");
        for (n, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let e = PerftEntry::parse(line).unwrap_or_else(|e| panic!("{name}:{}: {e}", n + 1));
            v.push((format!("{name}:{}", n + 1), e));
        }
    }
    v
}
