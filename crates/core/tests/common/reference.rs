//! A deliberately simple reference implementation of the rules of every family (Kalah,
//! General, Nigerian), written from docs/rules.md and the rule texts alone: a plain array
//! of places in the absolute layout, one loop step per seed. It is slow on purpose; the
//! fast engine is checked against it.

use kalah_core::{Capture, End, Family, Leftovers, Rules, Side};

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

    /// Sows house `j` of the mover by the rules of `rules.family`, then applies the end
    /// of game.
    pub fn sow(&self, rules: &Rules, j: usize) -> (RefBoard, Outcome) {
        match rules.family {
            Family::Kalah | Family::General => self.sow_kalah(rules, j),
            Family::Nigerian => self.sow_nigerian(rules, j),
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

    /// Nigerian Kalah, from seed 001: sow one seed per place counter-clockwise, into both
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
        b.apply_end(rules);
        let outcome = if b.over {
            Outcome::GameOver
        } else {
            Outcome::Passed
        };
        (b, outcome)
    }

    /// Kalah (and General Kalah, which has no extra turns and no captures): one seed per
    /// step, counter-clockwise, skipping the opponent's store.
    fn sow_kalah(&self, rules: &Rules, j: usize) -> (RefBoard, Outcome) {
        let general = rules.family == Family::General;
        let (mut b, mut at, mut hand) = self.take_up(j);
        let mover = self.to_move;
        let n = 2 * b.h + 2;
        let their_store = b.store_index(mover.other());
        let mut empty_before_last = false;
        while hand > 0 {
            at = (at + 1) % n;
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

    /// The end-of-game rules, with `self.to_move` the player about to move.
    pub fn apply_end(&mut self, rules: &Rules) {
        let ended = match rules.end {
            End::RowEmpty => self.row_seeds(Side::South) == 0 || self.row_seeds(Side::North) == 0,
            End::MoverStuck => self.row_seeds(self.to_move) == 0,
        };
        if ended {
            for side in [Side::South, Side::North] {
                let left = self.row_seeds(side);
                for j in 0..self.h {
                    let i = self.house_index(side, j);
                    self.places[i] = 0;
                }
                if rules.leftovers == Leftovers::Owner {
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
    b.legal_houses()
        .into_iter()
        .map(|j| perft(rules, &b.sow(rules, j).0, depth - 1))
        .sum()
}
