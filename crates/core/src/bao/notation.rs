//! Bao notation (R8): moves `A3+`, `b8-`; positions as four rows and the side to move.

use std::fmt;
use std::str::FromStr;

use crate::Side;

use super::{BaoError, BaoMove, BaoPosition, BaoRules, Dir, Row};

impl fmt::Display for BaoRules {
    /// `Bao(N,S)`: N pits a row and S seeds a pit at the start, as [`Rules`](crate::Rules)
    /// writes `Kalah(6,4)`; the standard board is `Bao(8,2)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Bao({},{})", self.pits(), self.seeds())
    }
}

impl FromStr for BaoRules {
    type Err = BaoError;

    /// Reads what [`BaoRules`]'s `Display` writes, `Bao(N,S)` (the name in any case,
    /// spaces allowed around the numbers), and validates it ([`BaoRules::new`]).
    fn from_str(s: &str) -> Result<BaoRules, BaoError> {
        let bad = || BaoError::RulesSyntax(s.to_string());
        let (title, board) = s.trim().split_once('(').ok_or_else(bad)?;
        let board = board.strip_suffix(')').ok_or_else(bad)?;
        let (pits, seeds) = board.split_once(',').ok_or_else(bad)?;
        if !title.trim().eq_ignore_ascii_case("bao") {
            return Err(bad());
        }
        match (pits.trim().parse(), seeds.trim().parse()) {
            (Ok(pits), Ok(seeds)) => BaoRules::new(pits, seeds),
            _ => Err(bad()),
        }
    }
}

impl fmt::Display for BaoMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let letter = match (self.side, self.row) {
            (Side::South, Row::Front) => 'A',
            (Side::South, Row::Back) => 'B',
            (Side::North, Row::Front) => 'a',
            (Side::North, Row::Back) => 'b',
        };
        write!(f, "{letter}{}{}", self.pit, self.dir.sign())
    }
}

impl BaoMove {
    /// Reads a move of R8.1 (`A3+`, `b8-`; `−` is accepted for `-`) on a board of `n` pits a
    /// row, the side given by the letter's case. Legality is not checked here.
    pub fn parse(text: &str, n: usize) -> Result<BaoMove, BaoError> {
        let syntax = || BaoError::MoveSyntax(text.to_string());
        let t = text.trim();
        let mut chars = t.chars();
        let (side, row) = match chars.next().ok_or_else(syntax)? {
            'A' => (Side::South, Row::Front),
            'B' => (Side::South, Row::Back),
            'a' => (Side::North, Row::Front),
            'b' => (Side::North, Row::Back),
            _ => return Err(syntax()),
        };
        let rest = chars.as_str();
        let (digits, dir) = if let Some(d) = rest.strip_suffix('+') {
            (d, Dir::Clockwise)
        } else if let Some(d) = rest.strip_suffix('-').or_else(|| rest.strip_suffix('−')) {
            (d, Dir::Anticlockwise)
        } else {
            return Err(syntax());
        };
        if digits.is_empty() || digits.len() > 2 || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(syntax());
        }
        let pit: usize = digits.parse().map_err(|_| syntax())?;
        if !(1..=n).contains(&pit) {
            return Err(BaoError::PitRange {
                text: t.to_string(),
                pits: n,
            });
        }
        Ok(BaoMove {
            side,
            row,
            pit: pit as u8,
            dir,
        })
    }
}

impl BaoPosition {
    /// Reads a move of the player to move (R8.1); refuses a move written for the other
    /// player or a pit beyond N. Legality is checked by [`BaoPosition::try_play`].
    pub fn parse_move(&self, text: &str) -> Result<BaoMove, BaoError> {
        let mv = BaoMove::parse(text, self.pits())?;
        if mv.side != self.side {
            return Err(BaoError::WrongSide {
                text: text.trim().to_string(),
                expected: match self.side {
                    Side::South => "A and B",
                    Side::North => "a and b",
                },
            });
        }
        Ok(mv)
    }

    /// The four rows of the text (R8.2), top to bottom, each from the board's left as
    /// South sees it: `b_N..b_1`, `a_N..a_1`, `A_1..A_N`, `B_1..B_N`.
    pub fn text_rows(&self) -> [Vec<u8>; 4] {
        let n = self.pits();
        let row = |owner: Side, r: Row, rev: bool| -> Vec<u8> {
            (1..=n)
                .map(|c| self.count(owner, r, if rev { n + 1 - c } else { c }))
                .collect()
        };
        [
            row(Side::North, Row::Back, true),
            row(Side::North, Row::Front, true),
            row(Side::South, Row::Front, false),
            row(Side::South, Row::Back, false),
        ]
    }
}

impl fmt::Display for BaoPosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (k, row) in self.text_rows().iter().enumerate() {
            if k > 0 {
                f.write_str("/")?;
            }
            for (c, count) in row.iter().enumerate() {
                if c > 0 {
                    f.write_str(",")?;
                }
                write!(f, "{count}")?;
            }
        }
        write!(f, ":{}", self.side.letter())
    }
}

impl fmt::Debug for BaoPosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl FromStr for BaoPosition {
    type Err = BaoError;

    /// Reads a position of R8.2, e.g.
    /// `2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2:S`.
    fn from_str(text: &str) -> Result<BaoPosition, BaoError> {
        let t = text.trim();
        let (board, side) = t.rsplit_once(':').ok_or(BaoError::MissingSide)?;
        let side = match side {
            "S" => Side::South,
            "N" => Side::North,
            other => return Err(BaoError::BadSide(other.to_string())),
        };
        let texts: Vec<&str> = board.split('/').collect();
        if texts.len() != 4 {
            return Err(BaoError::Rows(texts.len()));
        }
        let mut rows: Vec<Vec<u8>> = Vec::with_capacity(4);
        for (r, line) in texts.iter().enumerate() {
            let counts = line
                .split(',')
                .enumerate()
                .map(|(c, s)| {
                    s.parse::<u8>().map_err(|_| BaoError::BadCount {
                        row: r + 1,
                        column: c + 1,
                        text: s.to_string(),
                    })
                })
                .collect::<Result<Vec<u8>, BaoError>>()?;
            rows.push(counts);
        }
        let reversed = |v: &Vec<u8>| v.iter().rev().copied().collect::<Vec<u8>>();
        let (b, a) = (reversed(&rows[0]), reversed(&rows[1]));
        BaoPosition::from_rows([&rows[2], &rows[3], &a, &b], side).map_err(|e| match e {
            // Report the row as numbered in the text.
            BaoError::RowLength { row, found } => BaoError::RowLength {
                row: [3, 4, 2, 1][row - 1],
                found,
            },
            other => other,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bao::MAX_PITS;

    #[test]
    fn bao_rules_round_trip_through_their_notation() {
        assert_eq!(BaoRules::standard().to_string(), "Bao(8,2)");
        for pits in 3..=MAX_PITS {
            for seeds in 1..=8 {
                let Ok(rules) = BaoRules::new(pits, seeds) else {
                    continue;
                };
                assert_eq!(rules.to_string().parse::<BaoRules>(), Ok(rules));
            }
        }
        assert_eq!(" bao( 4 , 3 ) ".parse(), BaoRules::new(4, 3));
    }

    #[test]
    fn bao_rules_notation_refuses_other_text_and_boards() {
        for bad in [
            "",
            "Bao",
            "Bao(8)",
            "Bao(8,2",
            "Kalah(8,2)",
            "Bao(x,2)",
            "bao 4x8",
        ] {
            assert_eq!(
                bad.parse::<BaoRules>(),
                Err(BaoError::RulesSyntax(bad.to_string())),
                "{bad}"
            );
        }
        assert_eq!("Bao(9,2)".parse::<BaoRules>(), Err(BaoError::Pits(9)));
        assert!(matches!(
            "Bao(8,0)".parse::<BaoRules>(),
            Err(BaoError::Seeds { .. })
        ));
    }
}
