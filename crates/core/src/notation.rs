//! The board notation (`4,4,4,4,4,4,0,4,4,4,4,4,4,0:S`) and the move notation
//! (bins `1..H` for South, `H+2..2H+1` for North; a turn with extra sowings is `3-6`),
//! and the board drawn as text with its bins, as published analyses draw it.

use std::fmt;
use std::str::FromStr;

use crate::error::MoveError;
pub use crate::error::PositionError;
use crate::game::{Game, Sowing};
use crate::position::{Position, Side};
use crate::rules::{MAX_HOUSES, MAX_TOTAL_SEEDS};

impl FromStr for Position {
    type Err = PositionError;

    /// Reads the board form. The result is not yet checked against any rules: pass it
    /// through [`Game::settle`].
    fn from_str(s: &str) -> Result<Position, PositionError> {
        let (counts, side) = s
            .trim()
            .rsplit_once(':')
            .ok_or(PositionError::MissingSide)?;
        let side = match side.trim() {
            "S" | "s" => Side::South,
            "N" | "n" => Side::North,
            other => return Err(PositionError::BadSide(other.to_string())),
        };
        let counts: Vec<u8> = counts
            .split(',')
            .enumerate()
            .map(|(i, t)| {
                t.trim().parse::<u8>().map_err(|_| PositionError::BadCount {
                    place: i + 1,
                    text: t.trim().to_string(),
                })
            })
            .collect::<Result<_, _>>()?;
        let n = counts.len();
        if n < 4 || n % 2 != 0 || (n - 2) / 2 > MAX_HOUSES {
            return Err(PositionError::WrongLength(n));
        }
        let h = (n - 2) / 2;
        let seeds: usize = counts.iter().map(|&c| c as usize).sum();
        if seeds > MAX_TOTAL_SEEDS {
            return Err(PositionError::TooManySeeds {
                seeds,
                capacity: MAX_TOTAL_SEEDS,
            });
        }
        Ok(Position::from_rows(
            &counts[..h],
            &counts[h + 1..2 * h + 1],
            [counts[h], counts[2 * h + 1]],
            side,
        ))
    }
}

impl fmt::Display for Position {
    /// Writes the board form.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let counts = self.absolute_counts();
        for (i, c) in counts.iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            write!(f, "{c}")?;
        }
        write!(f, ":{}", self.side.letter())
    }
}

/// The published bin number of house `j` (0-based from that player's left) of `side`.
pub fn bin(houses: usize, side: Side, j: usize) -> usize {
    match side {
        Side::South => j + 1,
        Side::North => houses + 2 + j,
    }
}

/// The house (0-based, of `side`) that bin `b` names, if it is one of `side`'s houses.
pub fn house_of_bin(houses: usize, side: Side, b: usize) -> Option<usize> {
    let first = bin(houses, side, 0);
    (b >= first && b < first + houses).then(|| b - first)
}

/// Writes one sowing: its bin, followed by `<` where it goes clockwise (a move of
/// [`crate::CLOCKWISE`] plus the house, Ethiopian Kalah).
pub fn format_move(houses: usize, side: Side, mv: usize) -> String {
    let b = bin(houses, side, mv % crate::CLOCKWISE);
    match mv >= crate::CLOCKWISE {
        true => format!("{b}<"),
        false => b.to_string(),
    }
}

/// Writes a turn (the sowings of one player in a row) as moves joined by `-`.
pub fn format_turn(houses: usize, side: Side, sowings: &[usize]) -> String {
    sowings
        .iter()
        .map(|&j| format_move(houses, side, j))
        .collect::<Vec<_>>()
        .join("-")
}

/// Plays a list of moves: items separated by commas or spaces, each a bin (`3`) or a
/// turn of several sowings (`3-6`, every sowing but the last must give an extra turn).
/// Where the mover chooses the direction (Ethiopian Kalah), `3<` sows bin 3 clockwise
/// and `3` (or `3>`) counter-clockwise. Returns the position reached and the sowings
/// played (0-based houses, [`crate::CLOCKWISE`] added for a clockwise one).
pub fn play_moves(
    game: &Game,
    start: Position,
    moves: &str,
) -> Result<(Position, Vec<usize>), PositionError> {
    let mut pos = start;
    let mut played = Vec::new();
    for item in moves
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|t| !t.is_empty())
    {
        let parts: Vec<&str> = item.split('-').collect();
        for (k, part) in parts.iter().enumerate() {
            let part = part.trim();
            let (digits, clockwise) = match part.strip_suffix('<') {
                Some(d) => (d, true),
                None => (part.strip_suffix('>').unwrap_or(part), false),
            };
            let b: usize = digits
                .parse()
                .map_err(|_| PositionError::BadMove(item.to_string()))?;
            let (next, how) = play_sowing(game, &pos, b, clockwise)?;
            played.push(
                house_of_bin(game.houses(), pos.side_to_move(), b).unwrap_or(0)
                    + clockwise as usize * crate::CLOCKWISE,
            );
            if k + 1 < parts.len() && how != Sowing::ExtraTurn {
                return Err(PositionError::NoExtraTurn { bin: b });
            }
            pos = next;
        }
    }
    Ok((pos, played))
}

/// Sows bin `b` for the player to move (counter-clockwise), checking everything.
pub fn play_bin(
    game: &Game,
    pos: &Position,
    b: usize,
) -> Result<(Position, Sowing), PositionError> {
    play_sowing(game, pos, b, false)
}

/// Sows bin `b` for the player to move, clockwise if `clockwise`, checking everything.
pub fn play_sowing(
    game: &Game,
    pos: &Position,
    b: usize,
    clockwise: bool,
) -> Result<(Position, Sowing), PositionError> {
    let side = pos.side_to_move();
    if pos.is_over() {
        return Err(PositionError::Illegal {
            bin: b,
            why: MoveError::GameOver,
        });
    }
    let h = game.houses();
    let j = house_of_bin(h, side, b).ok_or(PositionError::NotMoversHouse {
        bin: b,
        side,
        range: (bin(h, side, 0), bin(h, side, h - 1)),
    })?;
    game.try_play(pos, j + clockwise as usize * crate::CLOCKWISE)
        .map_err(|why| PositionError::Illegal { bin: b, why })
}

/// The bins the player to move may sow, in increasing order (in Ethiopian Kalah each in
/// either direction).
pub fn move_bins(game: &Game, pos: &Position) -> Vec<usize> {
    let h = pos.houses_per_side();
    let side = pos.side_to_move();
    let mut bins: Vec<usize> = game
        .legal_moves(pos)
        .map(|j| bin(h, side, j % crate::CLOCKWISE))
        .collect();
    bins.sort_unstable();
    bins.dedup();
    bins
}

/// The legal moves of the player to move in the notation (`3`, and `3<` for a clockwise
/// sowing where the family has them), counter-clockwise ones first.
pub fn move_names(game: &Game, pos: &Position) -> Vec<String> {
    let (h, side) = (pos.houses_per_side(), pos.side_to_move());
    game.legal_moves(pos)
        .map(|j| format_move(h, side, j))
        .collect()
}

/// The drawing followed by the side to move, the moves, the score and the notation.
pub fn describe(game: &Game, pos: &Position) -> String {
    let moves = move_names(game, pos);
    let moves = if moves.is_empty() {
        "none".to_string()
    } else {
        moves.join(" ")
    };
    let state = if pos.is_over() {
        format!("game over, final score {:+} (South - North)", pos.score())
    } else {
        format!(
            "{} to move, score so far {:+} (South - North)",
            pos.side_to_move(),
            pos.score()
        )
    };
    format!(
        "{}\nrules:    {}\nstate:    {state}\nmoves:    {moves}\nposition: {pos}\n",
        board(pos),
        game.rules()
    )
}

/// Draws the board with its bin numbers:
///
/// ```text
///          13   12   11   10    9    8    North
///         [ 4] [ 4] [ 4] [ 4] [ 4] [ 4]
/// 14 [ 0]                               [ 0] 7
///         [ 4] [ 4] [ 4] [ 4] [ 4] [ 4]
///           1    2    3    4    5    6    South
/// ```
pub fn board(pos: &Position) -> String {
    let h = pos.houses_per_side();
    let counts = pos.absolute_counts();
    // Width of a count inside its brackets, and of a bin label.
    let w = counts
        .iter()
        .map(|c| c.to_string().len())
        .max()
        .unwrap_or(1)
        .max(2)
        .max((2 * h + 1).to_string().len());
    let bw = (2 * h + 2).to_string().len();
    let cell = |c: u8| format!("[{c:>w$}]");
    let label = |b: usize| format!(" {b:>w$} ");
    let north_bins = (0..h).rev().map(|j| bin(h, Side::North, j));
    let south_bins = (0..h).map(|j| bin(h, Side::South, j));
    let row = |side: Side, rev: bool| {
        let mut cells: Vec<String> = (0..h).map(|j| cell(pos.house(side, j))).collect();
        if rev {
            cells.reverse();
        }
        cells.join(" ")
    };
    let margin = " ".repeat(bw + 1 + w + 2 + 1);
    let row_width = h * (w + 2) + (h - 1);
    let mut s = String::new();
    let labels = |bins: Vec<usize>| bins.into_iter().map(label).collect::<Vec<_>>().join(" ");
    s += &format!("{margin}{}   North\n", labels(north_bins.collect()));
    s += &format!("{margin}{}\n", row(Side::North, true));
    s += &format!(
        "{:>bw$} {}{}{} {}\n",
        2 * h + 2,
        cell(pos.store(Side::North)),
        " ".repeat(row_width + 2),
        cell(pos.store(Side::South)),
        h + 1
    );
    s += &format!("{margin}{}\n", row(Side::South, false));
    s += &format!("{margin}{}   South\n", labels(south_bins.collect()));
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Preset, Rules};

    #[test]
    fn the_start_is_drawn_with_its_bins_north_on_top() {
        let game = Game::new(Rules::kalah(6, 4)).unwrap();
        let drawn = "         13   12   11   10    9    8    North\n\
                     \x20       [ 4] [ 4] [ 4] [ 4] [ 4] [ 4]\n\
                     14 [ 0]                               [ 0] 7\n\
                     \x20       [ 4] [ 4] [ 4] [ 4] [ 4] [ 4]\n\
                     \x20         1    2    3    4    5    6    South\n";
        assert_eq!(board(&game.start()), drawn);
        let text = describe(&game, &game.start());
        assert!(text.starts_with(drawn));
        assert!(text.contains("\nstate:    South to move, score so far +0 (South - North)\n"));
        assert!(
            text.ends_with("\nmoves:    1 2 3 4 5 6\nposition: 4,4,4,4,4,4,0,4,4,4,4,4,4,0:S\n")
        );
    }

    #[test]
    fn a_clockwise_sowing_is_named_apart_but_shares_its_bin() {
        let game = Game::new(Preset::Ethiopian.rules(3, 3)).unwrap();
        let start = game.start();
        assert_eq!(move_names(&game, &start), ["1", "2", "3", "1<", "2<", "3<"]);
        assert_eq!(move_bins(&game, &start), [1, 2, 3]);
    }

    #[test]
    fn a_finished_game_has_no_moves_and_its_final_score() {
        let game = Game::new(Rules::kalah(3, 1)).unwrap();
        let over = game.settle("0,0,0,4,0,0,0,2:S".parse().unwrap()).unwrap();
        assert!(move_names(&game, &over).is_empty());
        let text = describe(&game, &over);
        assert!(
            text.contains("state:    game over, final score +2 (South - North)"),
            "{text}"
        );
        assert!(text.contains("moves:    none"), "{text}");
    }
}
