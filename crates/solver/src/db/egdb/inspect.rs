//! What a database file says of itself and of a position: its header, verified in full
//! where it is finished ([`inspect`]), and the exact value of a position and of each of its
//! sowings ([`probe_file`]).

use std::path::Path;

use kalah_core::{Position, PositionError, RulesError, Side};

use super::file::{read_info, FileInfo};
use super::{widest_game, Egdb, EgdbError};

/// A database file's header and whether the file is finished (then verified in full).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Inspection {
    /// The header.
    pub info: FileInfo,
    /// True where every level is in the file; the checksum and a sample of entries
    /// against their children were then verified.
    pub finished: bool,
}

/// Reads the header of the database file `path`, and verifies the file where it is
/// finished (an unfinished one, left by an interrupted build, is only described).
pub fn inspect(path: &Path) -> Result<Inspection, EgdbError> {
    let info = read_info(path)?;
    let finished = info.is_finished();
    if finished {
        Egdb::open(path)?;
    }
    Ok(Inspection { info, finished })
}

/// Why a position cannot be probed in a database file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProbeError {
    /// The file cannot be read, or fails its verification.
    Egdb(EgdbError),
    /// The position is not in the database: another board, or too many seeds.
    NotInDatabase {
        /// Houses per side of the position.
        houses: usize,
        /// Seeds in its houses.
        seeds: usize,
        /// Houses per side of the database.
        db_houses: usize,
        /// The most seeds in the houses of a position in the database.
        max_seeds: usize,
    },
    /// The database's rules make no game to probe in.
    Rules(RulesError),
    /// The position does not fit the database's rules.
    Position(PositionError),
}

impl From<EgdbError> for ProbeError {
    fn from(e: EgdbError) -> Self {
        ProbeError::Egdb(e)
    }
}

/// One sowing of a probed position and the exact value after it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sowing {
    /// The bin sown, in the board's numbering: South's houses `1..=H`, North's `H+2..`.
    pub bin: usize,
    /// Sown clockwise (Ethiopian Kalah, written `3<`).
    pub clockwise: bool,
    /// The final South store minus North store after it, with best play.
    pub value: i32,
}

impl Sowing {
    /// The sowing in the notation: the bin, and `<` where it is sown clockwise.
    pub fn name(&self) -> String {
        match self.clockwise {
            true => format!("{}<", self.bin),
            false => self.bin.to_string(),
        }
    }
}

/// The exact value of a position and of each of its sowings, from South's side.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Probed {
    /// The position, settled (a game over is scored).
    pub position: Position,
    /// The final South store minus North store, with best play.
    pub value: i32,
    /// Each sowing of the mover, in bin order.
    pub sowings: Vec<Sowing>,
}

impl Probed {
    /// The value for the side to move.
    pub fn value_for_mover(&self) -> i32 {
        self.value * self.position.side_to_move().sign()
    }

    /// True where `sowing` is one of the mover's best.
    pub fn is_best(&self, sowing: &Sowing) -> bool {
        let mover = self.position.side_to_move().sign();
        let best = self.sowings.iter().map(|s| s.value * mover).max();
        Some(sowing.value * mover) == best
    }
}

/// The exact value of `pos` and of each of its sowings, from the database file `path`;
/// refused where the position is not in the database (checked on the header, before the
/// file is verified and mapped).
pub fn probe_file(path: &Path, pos: Position) -> Result<Probed, ProbeError> {
    let header = read_info(path)?;
    let h = header.rules.houses as usize;
    if pos.houses_per_side() != h || pos.seeds_in_houses() as usize > header.max_seeds {
        return Err(ProbeError::NotInDatabase {
            houses: pos.houses_per_side(),
            seeds: pos.seeds_in_houses() as usize,
            db_houses: h,
            max_seeds: header.max_seeds,
        });
    }
    let db = Egdb::open(path)?;
    let game = widest_game(&header.rules).map_err(ProbeError::Rules)?;
    let pos = game.settle(pos).map_err(ProbeError::Position)?;
    let from_south = |p: &Position| {
        db.probe(p)
            .map_or(p.score(), |v| v * p.side_to_move().sign())
    };
    let sowings = game
        .legal_moves(&pos)
        .map(|j| Sowing {
            bin: match pos.side_to_move() {
                Side::South => j % kalah_core::CLOCKWISE + 1,
                Side::North => h + 2 + j % kalah_core::CLOCKWISE,
            },
            clockwise: j >= kalah_core::CLOCKWISE,
            value: from_south(&game.play_unchecked(&pos, j)),
        })
        .collect();
    Ok(Probed {
        position: pos,
        value: from_south(&pos),
        sowings,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use kalah_core::{Game, Rules};

    /// A finished 3-house database of 6 seeds in a fresh directory, and the directory.
    fn database(name: &str) -> (std::path::PathBuf, std::path::PathBuf) {
        let dir = std::env::temp_dir().join(format!("kalah-inspect-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("k3-6.egdb");
        let game = Game::new(Rules::kalah(3, 3)).unwrap();
        Egdb::build(&game, 6, &|_, _, _| {})
            .unwrap()
            .save(&path)
            .unwrap();
        (dir, path)
    }

    #[test]
    fn a_finished_file_is_verified_and_described() {
        let (dir, path) = database("info");
        let seen = inspect(&path).unwrap();
        assert!(seen.finished);
        assert_eq!((seen.info.max_seeds, seen.info.levels), (6, 7));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn probe_values_each_sowing_from_south_and_marks_the_best() {
        let (dir, path) = database("probe");
        let pos: Position = "0,0,1,0,0,0,1,0:S".parse().unwrap();
        let probed = probe_file(&path, pos).unwrap();
        // South's one sowing reaches the store and ends the row: South 1, North 1.
        assert_eq!(
            probed.sowings,
            vec![Sowing {
                bin: 3,
                clockwise: false,
                value: 0
            }]
        );
        assert_eq!((probed.value, probed.value_for_mover()), (0, 0));
        assert!(probed.is_best(&probed.sowings[0]));
        let big: Position = "4,4,4,0,0,0,0,0:S".parse().unwrap();
        assert!(matches!(
            probe_file(&path, big),
            Err(ProbeError::NotInDatabase {
                seeds: 12,
                max_seeds: 6,
                ..
            })
        ));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
