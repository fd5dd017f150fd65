//! A deliberately simple reference implementation of Bao la Kujifunza, written from the
//! rule text of BAO.md alone, seed by seed: the board is four rows of pits numbered as
//! R1.2, a seed steps to the next pit by R1.4's description (not by a loop index), every
//! candidate is played out completely and the filters of R6.3 are applied in the order of
//! the text. Never-ending moves are found by Floyd's cycle detection over the relay states
//! (R7.3), a different method from the fast engine's. It is slow on purpose.

/// South is player 0, North player 1; row 0 is the front row, row 1 the back row.
pub type Board = [[[u8; 8]; 2]; 2];

/// A reference position: the board, N, and the player to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RefPos {
    pub n: usize,
    pub board: Board,
    pub mover: usize,
}

/// A pit of the mover: row (0 front, 1 back) and number 1..N.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Pit {
    pub row: usize,
    pub num: usize,
}

/// A candidate: a pit and a direction (`true` = clockwise `+`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RefMove {
    pub pit: Pit,
    pub clockwise: bool,
}

impl RefMove {
    /// The notation of R8.1 for `mover`.
    pub fn name(&self, mover: usize) -> String {
        let letter = match (mover, self.pit.row) {
            (0, 0) => 'A',
            (0, _) => 'B',
            (_, 0) => 'a',
            _ => 'b',
        };
        let sign = if self.clockwise { '+' } else { '-' };
        format!("{letter}{}{sign}", self.pit.num)
    }
}

/// How a played-out candidate ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Played {
    /// The move ended normally (R4.1): the board after it, the opponent to move.
    Ends(RefPos),
    /// A capture emptied the opponent's front row (R7.1): the board at that moment.
    Wins(RefPos),
    /// The mover's front row was empty after a seed drop (R7.2).
    SelfEmptying,
    /// A relay state repeated (R7.3).
    NeverEnding,
}

/// A relay state (R7.3) with the move's kind once it is known.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct State {
    board: Board,
    hand: u32,
    next: Pit,
    clockwise: bool,
    /// None during the first sowing; then Some(true) for mtaji, Some(false) for takasa.
    mtaji: Option<bool>,
}

enum Step {
    Continue(State),
    Done(Played),
}

impl RefPos {
    /// Every pit holds `s` seeds; South to move.
    pub fn start(n: usize, s: u8) -> RefPos {
        let mut board = [[[0u8; 8]; 2]; 2];
        for player in board.iter_mut() {
            for row in player.iter_mut() {
                row[..n].fill(s);
            }
        }
        RefPos { n, board, mover: 0 }
    }

    /// Reads the text of R8.2 by its own simple rules.
    pub fn parse(text: &str) -> RefPos {
        let (rows, side) = text.split_once(':').expect("side");
        let rows: Vec<Vec<u8>> = rows
            .split('/')
            .map(|r| r.split(',').map(|c| c.parse().expect("count")).collect())
            .collect();
        let n = rows[0].len();
        let mut board = [[[0u8; 8]; 2]; 2];
        for c in 1..=n {
            // Text column c holds b(N+1-c), a(N+1-c), Ac, Bc.
            board[1][1][n - c] = rows[0][c - 1];
            board[1][0][n - c] = rows[1][c - 1];
            board[0][0][c - 1] = rows[2][c - 1];
            board[0][1][c - 1] = rows[3][c - 1];
        }
        let mover = if side == "S" { 0 } else { 1 };
        RefPos { n, board, mover }
    }

    /// The text of R8.2.
    pub fn text(&self) -> String {
        let n = self.n;
        let row = |f: &dyn Fn(usize) -> u8| {
            (1..=n)
                .map(|c| f(c).to_string())
                .collect::<Vec<_>>()
                .join(",")
        };
        format!(
            "{}/{}/{}/{}:{}",
            row(&|c| self.board[1][1][n - c]),
            row(&|c| self.board[1][0][n - c]),
            row(&|c| self.board[0][0][c - 1]),
            row(&|c| self.board[0][1][c - 1]),
            if self.mover == 0 { "S" } else { "N" }
        )
    }

    /// The next pit of the mover's loop in a direction (R1.4, as the text says it).
    fn after(&self, p: Pit, clockwise: bool) -> Pit {
        let n = self.n;
        match (p.row, clockwise) {
            (0, true) if p.num == n => Pit { row: 1, num: n },
            (0, true) => Pit {
                row: 0,
                num: p.num + 1,
            },
            (1, true) if p.num == 1 => Pit { row: 0, num: 1 },
            (_, true) => Pit {
                row: 1,
                num: p.num - 1,
            },
            (0, false) if p.num == 1 => Pit { row: 1, num: 1 },
            (0, false) => Pit {
                row: 0,
                num: p.num - 1,
            },
            (_, false) if p.num == n => Pit { row: 0, num: n },
            (_, false) => Pit {
                row: 1,
                num: p.num + 1,
            },
        }
    }

    /// The candidates (R3.1) in the canonical order of R8.1.
    pub fn candidates(&self) -> Vec<RefMove> {
        let mut out = Vec::new();
        for row in 0..2 {
            for num in 1..=self.n {
                if self.board[self.mover][row][num - 1] >= 2 {
                    for clockwise in [true, false] {
                        out.push(RefMove {
                            pit: Pit { row, num },
                            clockwise,
                        });
                    }
                }
            }
        }
        out
    }

    /// One sowing from a relay state, then R4's decision: end, capture or relay.
    fn sowing(&self, s: State) -> Step {
        let (n, me, opp) = (self.n, self.mover, 1 - self.mover);
        let mut board = s.board;
        let mut at = s.next;
        let mut before_last = 0;
        for seed in 0..s.hand {
            if seed > 0 {
                at = self.after(at, s.clockwise);
            }
            before_last = board[me][at.row][at.num - 1];
            board[me][at.row][at.num - 1] += 1;
            if board[me][0][..n].iter().all(|&c| c == 0) {
                return Step::Done(Played::SelfEmptying);
            }
        }
        let land = at;
        if before_last == 0 {
            return Step::Done(Played::Ends(self.result(board)));
        }
        let facing = if land.row == 0 {
            board[opp][0][n - land.num]
        } else {
            0
        };
        let spot = land.row == 0 && facing > 0;
        let mtaji = s.mtaji.unwrap_or(spot && s.hand < 2 * n as u32);
        if mtaji && spot {
            board[opp][0][n - land.num] = 0;
            if board[opp][0][..n].iter().all(|&c| c == 0) {
                return Step::Done(Played::Wins(self.result(board)));
            }
            let c = land.num;
            let left_kimbi = c <= 2 && 2 * c < n + 1;
            let right_kimbi = c + 1 >= n && 2 * c > n + 1;
            let to_left = left_kimbi || (!right_kimbi && s.clockwise);
            let (num, clockwise) = if to_left { (1, true) } else { (n, false) };
            return Step::Continue(State {
                board,
                hand: facing as u32,
                next: Pit { row: 0, num },
                clockwise,
                mtaji: Some(true),
            });
        }
        let hand = board[me][land.row][land.num - 1] as u32;
        board[me][land.row][land.num - 1] = 0;
        Step::Continue(State {
            board,
            hand,
            next: self.after(land, s.clockwise),
            clockwise: s.clockwise,
            mtaji: Some(mtaji),
        })
    }

    fn result(&self, board: Board) -> RefPos {
        RefPos {
            n: self.n,
            board,
            mover: 1 - self.mover,
        }
    }

    /// The first relay state of a candidate (after the lift) and whether the first sowing
    /// makes it mtaji (R6.1), found by playing the first sowing.
    fn first_state(&self, m: RefMove) -> State {
        let mut board = self.board;
        let hand = board[self.mover][m.pit.row][m.pit.num - 1] as u32;
        board[self.mover][m.pit.row][m.pit.num - 1] = 0;
        State {
            board,
            hand,
            next: self.after(m.pit, m.clockwise),
            clockwise: m.clockwise,
            mtaji: None,
        }
    }

    /// Plays a candidate out completely; Floyd's tortoise and hare find a repeated state.
    pub fn play(&self, m: RefMove) -> Played {
        let first = self.first_state(m);
        let advance = |s: State| self.sowing(s);
        let (mut tortoise, mut hare) = (first, first);
        loop {
            for _ in 0..2 {
                match advance(hare) {
                    Step::Done(p) => return p,
                    Step::Continue(s) => hare = s,
                }
            }
            match advance(tortoise) {
                Step::Continue(s) => tortoise = s,
                Step::Done(_) => unreachable!("the tortoise follows the hare"),
            }
            if tortoise == hare {
                return Played::NeverEnding;
            }
        }
    }

    /// Whether a candidate is mtaji (R6.1): its first sowing ends on a capture spot and
    /// its pit held fewer than 2N seeds.
    pub fn is_mtaji(&self, m: RefMove) -> bool {
        let first = self.first_state(m);
        match self.sowing(first) {
            Step::Continue(s) => s.mtaji == Some(true),
            Step::Done(Played::Wins(_)) => true,
            Step::Done(_) => false,
        }
    }

    /// Whether the game is over: the mover's front row is empty (R7.1).
    pub fn over(&self) -> bool {
        self.board[self.mover][0][..self.n].iter().all(|&c| c == 0)
    }

    /// The legal moves with their results (R6.3, in the order of the text).
    pub fn legal(&self) -> Vec<(RefMove, Played)> {
        if self.over() {
            return Vec::new();
        }
        // Step 2: play every candidate out; remove the illegal ones.
        let remaining: Vec<(RefMove, Played, bool)> = self
            .candidates()
            .into_iter()
            .map(|m| (m, self.play(m), self.is_mtaji(m)))
            .filter(|(_, p, _)| matches!(p, Played::Ends(_) | Played::Wins(_)))
            .collect();
        // Step 3: capture is compulsory.
        if remaining.iter().any(|r| r.2) {
            return remaining
                .into_iter()
                .filter(|r| r.2)
                .map(|r| (r.0, r.1))
                .collect();
        }
        // Step 4: a takasa starts in the front row if it can.
        let front: Vec<(RefMove, Played)> = remaining
            .iter()
            .filter(|r| r.0.pit.row == 0)
            .map(|r| (r.0, r.1))
            .collect();
        if !front.is_empty() {
            return front;
        }
        remaining.into_iter().map(|r| (r.0, r.1)).collect()
    }

    /// perft (R8.3).
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        self.legal()
            .into_iter()
            .map(|(_, p)| match p {
                Played::Ends(q) | Played::Wins(q) => q.perft(depth - 1),
                _ => unreachable!(),
            })
            .sum()
    }
}

impl RefPos {
    /// The number of sowings after which a candidate's first relay state (board, hand, next
    /// pit, direction) comes back, if it does within `limit` sowings (E11, E14).
    pub fn first_return(&self, m: RefMove, limit: u64) -> Option<u64> {
        let first = self.first_state(m);
        let same = |a: &State| {
            a.board == first.board
                && a.hand == first.hand
                && a.next == first.next
                && a.clockwise == first.clockwise
        };
        let mut s = first;
        for k in 1..=limit {
            match self.sowing(s) {
                Step::Continue(t) => s = t,
                Step::Done(_) => return None,
            }
            if same(&s) {
                return Some(k);
            }
        }
        None
    }

    /// The candidate named `name` (R8.1) of the mover.
    pub fn candidate(&self, name: &str) -> RefMove {
        *self
            .candidates()
            .iter()
            .find(|m| m.name(self.mover) == name)
            .unwrap_or_else(|| panic!("{name} is not a candidate of {}", self.text()))
    }
}
