//! A deliberately simple reference implementation of the rules of every family (Kalah,
//! General, Nigerian, Ethiopian, Oware), written from docs/rules.md and the rule texts
//! alone: a plain array of places in the absolute layout, one loop step per seed. It is
//! slow on purpose; the fast engine is checked against it.
//!
//! Moves are numbered as the engine numbers them: house `j` (0-based from the mover's
//! left) sown counter-clockwise is `j`, sown clockwise (Ethiopian Kalah) `CLOCKWISE + j`.

use kalah_core::{Capture, End, Family, GrandSlam, Leftovers, Rules, Side, CLOCKWISE};

/// The most places a board has: 2 * 8 houses + 2 stores.
pub const MAX_PLACES: usize = 18;

/// How a reference sowing ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The other player moves next.
    Passed,
    /// The last seed fell in the mover's store: the mover sows again.
    ExtraTurn,
    /// The game is over.
    GameOver,
}

/// A board in the absolute layout of docs/rules.md §1.2, counter-clockwise from South's
/// first house: `0..H` South's houses, `H` South's store, `H+1..=2H` North's houses,
/// `2H+1` North's store. Only the first `2H+2` places are used.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RefBoard {
    pub h: usize,
    pub places: [u8; MAX_PLACES],
    pub to_move: Side,
    pub over: bool,
    /// All seeds of the game (what a majority is measured against).
    pub total: u32,
}

impl RefBoard {
    /// The start: `seeds` in every house, empty stores, South to move.
    pub fn start(h: usize, seeds: u8) -> RefBoard {
        let mut counts = vec![seeds; 2 * h + 2];
        counts[h] = 0;
        counts[2 * h + 1] = 0;
        RefBoard::from_counts(&counts, Side::South)
    }

    /// A board from its `2H+2` absolute counts; the game is taken as still running.
    pub fn from_counts(counts: &[u8], to_move: Side) -> RefBoard {
        assert!(counts.len() % 2 == 0 && counts.len() >= 4 && counts.len() <= MAX_PLACES);
        let mut places = [0u8; MAX_PLACES];
        places[..counts.len()].copy_from_slice(counts);
        RefBoard {
            h: counts.len() / 2 - 1,
            places,
            to_move,
            over: false,
            total: counts.iter().map(|&c| c as u32).sum(),
        }
    }

    /// The `2H+2` counts in the absolute layout.
    pub fn counts(&self) -> &[u8] {
        &self.places[..2 * self.h + 2]
    }

    /// Index of `side`'s store.
    pub fn store_index(&self, side: Side) -> usize {
        match side {
            Side::South => self.h,
            Side::North => 2 * self.h + 1,
        }
    }

    /// Index of `side`'s house `j` (0-based from that player's left).
    pub fn house_index(&self, side: Side, j: usize) -> usize {
        match side {
            Side::South => j,
            Side::North => self.h + 1 + j,
        }
    }

    /// Whose house place `i` is, or `None` for a store.
    pub fn owner(&self, i: usize) -> Option<Side> {
        if i < self.h {
            Some(Side::South)
        } else if i > self.h && i < 2 * self.h + 1 {
            Some(Side::North)
        } else {
            None
        }
    }

    /// Seeds in `side`'s row.
    pub fn row_seeds(&self, side: Side) -> u32 {
        (0..self.h)
            .map(|j| self.places[self.house_index(side, j)] as u32)
            .sum()
    }

    /// Seeds in `side`'s store.
    pub fn store(&self, side: Side) -> u8 {
        self.places[self.store_index(side)]
    }

    /// The mover's non-empty houses (0-based); none once the game is over.
    pub fn legal_houses(&self) -> Vec<usize> {
        if self.over {
            return Vec::new();
        }
        (0..self.h)
            .filter(|&j| self.places[self.house_index(self.to_move, j)] > 0)
            .collect()
    }

    /// The mover's legal moves under `rules`, in increasing order of the engine's move
    /// numbers; none once the game is over.
    ///
    /// - Kalah, General, Nigerian: every non-empty house.
    /// - Ethiopian (*Este tablero*: "they may not start from houses that hold only 1 seed"):
    ///   every house of 2 seeds or more, counter-clockwise, then every such house
    ///   clockwise.
    /// - Oware: every non-empty house, but when the opponent has no seeds only those whose
    ///   sowing drops a seed in the opponent's row (found by sowing it).
    pub fn legal_moves(&self, rules: &Rules) -> Vec<usize> {
        let houses = self.legal_houses();
        match rules.family {
            Family::Kalah | Family::General | Family::Nigerian => houses,
            Family::Ethiopian => {
                let two: Vec<usize> = houses
                    .into_iter()
                    .filter(|&j| self.places[self.house_index(self.to_move, j)] >= 2)
                    .collect();
                let clockwise = two.iter().map(|&j| CLOCKWISE + j);
                two.iter().copied().chain(clockwise).collect()
            }
            Family::Oware => {
                if self.row_seeds(self.to_move.other()) > 0 {
                    return houses;
                }
                houses
                    .into_iter()
                    .filter(|&j| self.oware_feeds(j))
                    .collect()
            }
        }
    }

    /// Sows move `mv` of the mover (a house, plus [`CLOCKWISE`] for a clockwise sowing in
    /// Ethiopian Kalah) by the rules of `rules.family`, then applies the end of game. The
    /// move must be one of [`RefBoard::legal_moves`].
    pub fn sow(&self, rules: &Rules, mv: usize) -> (RefBoard, Outcome) {
        match rules.family {
            Family::Kalah | Family::General => self.sow_kalah(rules, mv, false),
            Family::Nigerian => self.sow_nigerian(rules, mv),
            Family::Ethiopian => {
                let clockwise = mv >= CLOCKWISE;
                let j = mv % CLOCKWISE;
                assert!(
                    self.places[self.house_index(self.to_move, j)] >= 2,
                    "Ethiopian Kalah does not sow a single seed"
                );
                self.sow_kalah(rules, j, clockwise)
            }
            Family::Oware => self.sow_oware(rules, mv),
        }
    }

    /// The board with house `j` of the mover emptied, where that house is, and its seeds.
    fn take_up(&self, j: usize) -> (RefBoard, usize, u8) {
        assert!(!self.over, "sowing in a finished game");
        let mut b = *self;
        let at = b.house_index(self.to_move, j);
        let hand = b.places[at];
        assert!(hand > 0, "sowing an empty house");
        b.places[at] = 0;
        (b, at, hand)
    }

    /// Nigerian Kalah, from *Este tablero*: sow one seed per place counter-clockwise, into both
    /// stores. Whenever a house reaches 4 seeds its owner takes them at once. If the last
    /// seed lands in a house (either side) that was not empty and does not now hold 4,
    /// take up all its seeds and go on sowing; the turn ends in a store, in an empty
    /// house, or on a four. There are no extra turns.
    fn sow_nigerian(&self, rules: &Rules, j: usize) -> (RefBoard, Outcome) {
        let (mut b, mut at, mut hand) = self.take_up(j);
        let mover = self.to_move;
        let n = 2 * b.h + 2;
        let mut steps = 0;
        loop {
            let mut was_empty = false;
            let mut four = false;
            while hand > 0 {
                at = (at + 1) % n;
                was_empty = b.places[at] == 0;
                b.places[at] += 1;
                hand -= 1;
                four = false;
                if let Some(owner) = b.owner(at) {
                    if b.places[at] == 4 {
                        let store = b.store_index(owner);
                        b.places[store] += 4;
                        b.places[at] = 0;
                        four = true;
                    }
                }
            }
            if b.owner(at).is_none() || was_empty || four {
                break;
            }
            // Relay: the house that took the last seed is taken up and sown on.
            hand = b.places[at];
            b.places[at] = 0;
            steps += 1;
            assert!(
                steps < 100_000,
                "a relay that does not end: {}",
                self.notation()
            );
        }
        b.to_move = mover.other();
        b.pass_turn(rules)
    }

    /// Kalah (and General Kalah, which has no extra turns and no captures; and Ethiopian
    /// Kalah, which is Egyptian Kalah, that is Kalah with its capture option, sown in the
    /// direction the mover chose): one seed per step, counter-clockwise (increasing place
    /// numbers) or `clockwise` (decreasing), skipping the opponent's store, never the
    /// emptied starting house.
    fn sow_kalah(&self, rules: &Rules, j: usize, clockwise: bool) -> (RefBoard, Outcome) {
        let general = rules.family == Family::General;
        let (mut b, mut at, mut hand) = self.take_up(j);
        let mover = self.to_move;
        let n = 2 * b.h + 2;
        let their_store = b.store_index(mover.other());
        let mut empty_before_last = false;
        while hand > 0 {
            at = if clockwise {
                (at + n - 1) % n
            } else {
                (at + 1) % n
            };
            if at == their_store {
                continue;
            }
            empty_before_last = b.places[at] == 0;
            b.places[at] += 1;
            hand -= 1;
        }
        let my_store = b.store_index(mover);
        let extra = at == my_store && !general;
        if !general && !extra && b.owner(at) == Some(mover) && empty_before_last {
            // Opposite places add up to 2H (house 0 faces house 2H, as 0 faces 12 on 6 houses).
            let opposite = 2 * b.h - at;
            if b.places[opposite] > 0 || rules.capture == Capture::Empty {
                b.places[my_store] += b.places[at] + b.places[opposite];
                b.places[at] = 0;
                b.places[opposite] = 0;
            }
        }
        b.to_move = if extra { mover } else { mover.other() };
        b.apply_end(rules);
        let outcome = if b.over {
            Outcome::GameOver
        } else if extra {
            Outcome::ExtraTurn
        } else {
            Outcome::Passed
        };
        (b, outcome)
    }

    /// The places an Oware sowing of house `j` of the mover drops its seeds in, one per
    /// seed, in order: counter-clockwise over both rows, past both stores (they are not on
    /// the path), and past the emptied starting house on every lap.
    fn oware_path(&self, j: usize) -> Vec<usize> {
        let n = 2 * self.h + 2;
        let start = self.house_index(self.to_move, j);
        let mut at = start;
        let mut path = Vec::new();
        while path.len() < self.places[start] as usize {
            at = (at + 1) % n;
            if self.owner(at).is_some() && at != start {
                path.push(at);
            }
        }
        path
    }

    /// True when the Oware sowing of house `j` gives the opponent at least one seed.
    fn oware_feeds(&self, j: usize) -> bool {
        let opponent = self.to_move.other();
        self.oware_path(j)
            .into_iter()
            .any(|i| self.owner(i) == Some(opponent))
    }

    /// Oware (abapa): sow the seeds along [`RefBoard::oware_path`]. If the last seed makes
    /// an opponent's house hold 2 or 3, take it, and the opponent's houses before it
    /// (back towards the opponent's first house) while they hold 2 or 3, stopping at the
    /// first that does not. Where that would take every seed of the opponent's row (a
    /// grand slam), `GrandSlam::NoCapture` takes nothing, `CaptureAll` takes them all.
    /// No extra turns.
    fn sow_oware(&self, rules: &Rules, j: usize) -> (RefBoard, Outcome) {
        assert!(j < self.h, "Oware sows counter-clockwise only");
        let path = self.oware_path(j);
        let (mut b, _, _) = self.take_up(j);
        let mover = self.to_move;
        let opponent = mover.other();
        for &i in &path {
            b.places[i] += 1;
        }
        let last = *path.last().expect("a sowing drops at least one seed");
        let mut taken = Vec::new();
        let mut k = last;
        while b.owner(k) == Some(opponent) && matches!(b.places[k], 2 | 3) {
            taken.push(k);
            if k == b.house_index(opponent, 0) {
                break;
            }
            k -= 1;
        }
        let seeds: u32 = taken.iter().map(|&k| b.places[k] as u32).sum();
        let grand_slam = !taken.is_empty() && seeds == b.row_seeds(opponent);
        if !grand_slam || rules.grand_slam == GrandSlam::CaptureAll {
            let store = b.store_index(mover);
            for k in taken {
                b.places[store] += b.places[k];
                b.places[k] = 0;
            }
        }
        b.to_move = opponent;
        b.pass_turn(rules)
    }

    /// The end of a sowing that passed the turn (`to_move` already the opponent): the
    /// end-of-game rules, and how the sowing ended.
    fn pass_turn(mut self, rules: &Rules) -> (RefBoard, Outcome) {
        self.apply_end(rules);
        let outcome = if self.over {
            Outcome::GameOver
        } else {
            Outcome::Passed
        };
        (self, outcome)
    }

    /// The end-of-game rules, with `self.to_move` the player about to move.
    ///
    /// Kalah, General, Nigerian: the `end` and `leftovers` options. Ethiopian (*Este tablero*):
    /// the game ends when the mover cannot move (each of their houses is empty or holds
    /// one seed), and only the stores count. Oware: the game ends when the mover has no
    /// seeds (the other player keeps the seeds of their row), or when the opponent has
    /// none and no sowing of the mover reaches them (the mover keeps their row): either
    /// way each row goes to its owner. Then the early stop.
    pub fn apply_end(&mut self, rules: &Rules) {
        let (ended, leftovers) = match rules.family {
            Family::Kalah | Family::General | Family::Nigerian => (
                match rules.end {
                    End::RowEmpty => {
                        self.row_seeds(Side::South) == 0 || self.row_seeds(Side::North) == 0
                    }
                    End::MoverStuck => self.row_seeds(self.to_move) == 0,
                },
                rules.leftovers,
            ),
            Family::Ethiopian => {
                let stuck =
                    (0..self.h).all(|j| self.places[self.house_index(self.to_move, j)] <= 1);
                (stuck, Leftovers::Discard)
            }
            Family::Oware => {
                let no_seeds = self.row_seeds(self.to_move) == 0;
                let cannot_feed = self.row_seeds(self.to_move.other()) == 0
                    && !(0..self.h).any(|j| {
                        self.places[self.house_index(self.to_move, j)] > 0 && self.oware_feeds(j)
                    });
                (no_seeds || cannot_feed, Leftovers::Owner)
            }
        };
        if ended {
            for side in [Side::South, Side::North] {
                let left = self.row_seeds(side);
                for j in 0..self.h {
                    let i = self.house_index(side, j);
                    self.places[i] = 0;
                }
                if leftovers == Leftovers::Owner {
                    let s = self.store_index(side);
                    self.places[s] += left as u8;
                }
            }
            self.over = true;
        } else if rules.early_stop
            && 2 * (self.store(Side::South).max(self.store(Side::North)) as u32) > self.total
        {
            for side in [Side::South, Side::North] {
                for j in 0..self.h {
                    let i = self.house_index(side, j);
                    self.places[i] = 0;
                }
            }
            self.over = true;
        }
    }

    /// A hand-entered board whose game may already be over: the end rules are applied as
    /// if the previous sowing had just passed the turn to the player to move.
    pub fn settled(&self, rules: &Rules) -> RefBoard {
        let mut b = *self;
        let houses_empty = b.row_seeds(Side::South) + b.row_seeds(Side::North) == 0;
        if houses_empty {
            b.over = true;
        } else {
            b.apply_end(rules);
        }
        b
    }

    /// The board in the notation `counts:S` / `counts:N`.
    pub fn notation(&self) -> String {
        let counts: Vec<String> = self.counts().iter().map(|c| c.to_string()).collect();
        format!("{}:{}", counts.join(","), self.to_move.letter())
    }
}

/// The number of sequences of exactly `depth` sowings from `b`.
pub fn perft(rules: &Rules, b: &RefBoard, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    b.legal_moves(rules)
        .into_iter()
        .map(|mv| perft(rules, &b.sow(rules, mv).0, depth - 1))
        .sum()
}
