//! The Bao move generator: lifting, sowing, relays, captures and chains (R3..R5), the
//! kinds of move and the legal moves (R6), self-emptying and never-ending moves (R7).

use crate::Side;

use super::position::{step, BaoPosition, LOOP};
use super::{BaoError, BaoMove, Dir, MAX_PITS};

/// The most candidates a position has: 2N pits, two directions each (R3.1).
pub const MAX_CANDIDATES: usize = 4 * MAX_PITS;

/// The never-ending test (Brent's cycle detection) starts at this sowing of a move; the
/// sowings before it are not recorded (R7.3 allows any fixed start). Almost every move
/// ends sooner, so the test costs nothing for them.
const RECORD_FROM: u64 = 64;

/// A legal move and where it leads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BaoChild {
    /// The move.
    pub mv: BaoMove,
    /// The position after it, the opponent to move.
    pub next: BaoPosition,
    /// Whether the move emptied the opponent's front row (R7.1): the mover has won and
    /// `next` is over.
    pub wins: bool,
}

/// The legal moves of a position in the canonical order of R8.1 (front pits 1..N, then
/// back pits 1..N, `+` before `-`), each with its result. A fixed-capacity list: a
/// position has at most [`MAX_CANDIDATES`] candidates.
#[derive(Clone, Debug)]
pub struct BaoLegal {
    children: [Option<BaoChild>; MAX_CANDIDATES],
    len: usize,
}

impl BaoLegal {
    /// The number of legal moves.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there is no legal move (the mover has lost, R7.4).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The legal moves with their results, in canonical order.
    pub fn iter(&self) -> impl Iterator<Item = &BaoChild> + '_ {
        self.children[..self.len].iter().flatten()
    }

    /// The legal moves alone, in canonical order.
    pub fn moves(&self) -> impl Iterator<Item = BaoMove> + '_ {
        self.iter().map(|c| c.mv)
    }

    /// The result of `mv` if it is legal.
    pub fn find(&self, mv: BaoMove) -> Option<&BaoChild> {
        self.iter().find(|c| c.mv == mv)
    }
}

/// How playing a candidate out ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Outcome {
    /// The last seed fell into an empty pit: the turn passes.
    Ends,
    /// A capture emptied the opponent's front row: the mover wins (R7.1).
    Wins,
    /// A relay state came back: the move is never-ending, illegal (R7.3).
    NeverEnding,
    /// The caller's stop test said stop before the move was decided.
    Stopped,
}

/// How many sowings a long move plays between two calls of the caller's stop test: a
/// never-ending test can take tens of millions of sowings, so one expansion can outlast a
/// time limit unless it looks up now and then.
const STOP_EVERY: u64 = 1 << 14;

/// The relay state of R7.3: all counts, the seeds in hand, the next pit, the direction.
#[derive(Clone, Copy, PartialEq, Eq)]
struct RelayState {
    lanes: [u8; 2 * LOOP],
    hand: u8,
    next: u8,
    dir: Dir,
}

/// One player's sowing frame: the board size and the lanes of the mover's loop and of the
/// opponent's loop.
#[derive(Clone, Copy)]
struct Frame {
    n: usize,
    mine: usize,
    theirs: usize,
}

impl Frame {
    fn of(pos: &BaoPosition) -> Frame {
        let (mine, theirs) = match pos.side {
            Side::South => (0, LOOP),
            Side::North => (LOOP, 0),
        };
        Frame {
            n: pos.pits(),
            mine,
            theirs,
        }
    }

    /// The opponent's lane facing the mover's front loop index `i` (R1.3).
    #[inline]
    fn facing(&self, i: usize) -> usize {
        self.theirs + self.n - 1 - i
    }

    /// Whether a sowing of `hand < 2N` seeds from loop index `i` in `dir` ends on a capture
    /// spot of `lanes` (R5.1, R6.1): each pit it passes gets one seed, so the landing pit
    /// was occupied before the last seed exactly when it is occupied now.
    fn first_sowing_captures(&self, lanes: &[u8; 2 * LOOP], i: usize, dir: Dir) -> bool {
        let (len, hand) = (2 * self.n, lanes[self.mine + i] as usize);
        if hand >= len {
            return false;
        }
        let land = match dir {
            Dir::Clockwise => (i + hand) % len,
            Dir::Anticlockwise => (i + len - hand) % len,
        };
        land < self.n && lanes[self.mine + land] > 0 && lanes[self.facing(land)] > 0
    }

    /// Whether lifting loop index `i` in `dir` empties the mover's front row (R7.2): the only
    /// way is a lone non-empty kichwa sown towards the back row.
    fn self_emptying(&self, lanes: &[u8; 2 * LOOP], i: usize, dir: Dir) -> bool {
        let towards_back =
            (i == 0 && dir == Dir::Anticlockwise) || (i == self.n - 1 && dir == Dir::Clockwise);
        towards_back && (0..self.n).all(|k| k == i || lanes[self.mine + k] == 0)
    }

    /// Sows `hand` seeds from loop index `next` in `dir`, the first into `next` itself;
    /// returns the landing pit's loop index.
    #[inline]
    fn sow(&self, lanes: &mut [u8; 2 * LOOP], next: usize, dir: Dir, hand: usize) -> usize {
        let len = 2 * self.n;
        let (laps, rest) = (hand / len, hand % len);
        if laps > 0 {
            for c in &mut lanes[self.mine..self.mine + len] {
                *c += laps as u8;
            }
        }
        if rest == 0 {
            return step(next, dir.reversed(), len);
        }
        // The remaining seeds fill at most two runs of consecutive lanes.
        let mine = &mut lanes[self.mine..self.mine + len];
        let add = |run: &mut [u8]| run.iter_mut().for_each(|c| *c += 1);
        match dir {
            Dir::Clockwise => {
                let end = next + rest;
                if end <= len {
                    add(&mut mine[next..end]);
                    end - 1
                } else {
                    add(&mut mine[next..]);
                    add(&mut mine[..end - len]);
                    end - len - 1
                }
            }
            Dir::Anticlockwise => {
                if rest <= next + 1 {
                    add(&mut mine[next + 1 - rest..=next]);
                    next + 1 - rest
                } else {
                    let wrapped = rest - (next + 1);
                    add(&mut mine[..=next]);
                    add(&mut mine[len - wrapped..]);
                    len - wrapped
                }
            }
        }
    }

    /// Where the seeds captured by the front pit of loop index `land` are sown, and in which
    /// direction (R5.4).
    fn kichwa(&self, land: usize, dir: Dir) -> (usize, Dir) {
        let (c, n) = (land + 1, self.n);
        if c <= 2 && 2 * c < n + 1 {
            (0, Dir::Clockwise)
        } else if c + 1 >= n && 2 * c > n + 1 {
            (n - 1, Dir::Anticlockwise)
        } else if dir == Dir::Clockwise {
            (0, Dir::Clockwise)
        } else {
            (n - 1, Dir::Anticlockwise)
        }
    }

    /// Plays the candidate (loop index `start`, `dir`) out on `lanes`: relays, and for a
    /// mtaji move captures and chains, until the move ends, wins or is found never-ending.
    /// `stop` is called every [`STOP_EVERY`] sowings; when it says stop the result is
    /// [`Outcome::Stopped`] and `lanes` are left mid-move.
    fn play_out(
        &self,
        lanes: &mut [u8; 2 * LOOP],
        start: usize,
        dir: Dir,
        mtaji: bool,
        stop: &impl Fn() -> bool,
    ) -> Outcome {
        let len = 2 * self.n;
        let mut state = RelayState {
            lanes: [0; 2 * LOOP],
            hand: lanes[self.mine + start],
            next: step(start, dir, len) as u8,
            dir,
        };
        lanes[self.mine + start] = 0;
        let mut cycle = Brent::default();
        let mut sown: u64 = 0;
        loop {
            sown += 1;
            if sown % STOP_EVERY == 0 && stop() {
                return Outcome::Stopped;
            }
            if cycle.sowings >= RECORD_FROM {
                state.lanes = *lanes;
                if cycle.repeats(&state) {
                    return Outcome::NeverEnding;
                }
            } else {
                cycle.sowings += 1;
            }
            let land = self.sow(lanes, state.next as usize, state.dir, state.hand as usize);
            let here = lanes[self.mine + land];
            if here == 1 {
                return Outcome::Ends;
            }
            if mtaji && land < self.n && lanes[self.facing(land)] > 0 {
                state.hand = lanes[self.facing(land)];
                lanes[self.facing(land)] = 0;
                if lanes[self.theirs..self.theirs + self.n]
                    .iter()
                    .all(|&c| c == 0)
                {
                    return Outcome::Wins;
                }
                let (kichwa, d) = self.kichwa(land, state.dir);
                state.next = kichwa as u8;
                state.dir = d;
            } else {
                state.hand = here;
                lanes[self.mine + land] = 0;
                state.next = step(land, state.dir, len) as u8;
            }
        }
    }
}

/// Brent's cycle detection over the relay states of one move: constant memory however long
/// the cycle (R7.3's cycles run to tens of millions of sowings).
#[derive(Default)]
struct Brent {
    sowings: u64,
    saved: Option<RelayState>,
    power: u64,
    since: u64,
}

impl Brent {
    /// Records `state`; true when it equals a state met before in this move.
    fn repeats(&mut self, state: &RelayState) -> bool {
        match self.saved {
            None => {
                self.saved = Some(*state);
                self.power = 1;
                self.since = 0;
                false
            }
            Some(ref saved) => {
                if saved == state {
                    return true;
                }
                self.since += 1;
                if self.since == self.power {
                    self.saved = Some(*state);
                    self.power *= 2;
                    self.since = 0;
                }
                false
            }
        }
    }
}

impl BaoPosition {
    /// Calls `emit` with each legal move, its board after the move and whether it wins, in
    /// canonical order; returns how many there were. R6.3: illegal candidates are removed
    /// first, then capture is compulsory, then a takasa starts in the front row if it can.
    pub(crate) fn generate(&self, emit: impl FnMut(BaoMove, &[u8; 2 * LOOP], bool)) -> usize {
        self.generate_until(&|| false, emit)
            .expect("a generation that never stops finishes")
    }

    /// [`generate`](Self::generate), asking `stop` now and then during a long move (see
    /// [`STOP_EVERY`]): `None` when it said stop, after emitting some of the moves or none.
    pub(crate) fn generate_until(
        &self,
        stop: &impl Fn() -> bool,
        mut emit: impl FnMut(BaoMove, &[u8; 2 * LOOP], bool),
    ) -> Option<usize> {
        if self.is_over() {
            return Some(0);
        }
        let f = Frame::of(self);
        let n = f.n;
        // The candidates (R3.1) in canonical order (R8.1: front pits 1..N, back pits 1..N,
        // `+` before `-`), each with its kind (R6.1).
        let mut cands = [(0u8, Dir::Clockwise, false); MAX_CANDIDATES];
        let mut count = 0;
        let mut consider = |i: usize| {
            if self.lanes[f.mine + i] < 2 {
                return;
            }
            for dir in [Dir::Clockwise, Dir::Anticlockwise] {
                if !f.self_emptying(&self.lanes, i, dir) {
                    cands[count] = (i as u8, dir, f.first_sowing_captures(&self.lanes, i, dir));
                    count += 1;
                }
            }
        };
        (0..n).for_each(&mut consider);
        (n..2 * n).rev().for_each(&mut consider);
        let cands = &cands[..count];
        let mut found = 0;
        // Phases: mtaji moves; front-row takasas; back-row takasas.
        for phase in 0..3 {
            for &(i, dir, mtaji) in cands {
                let i = i as usize;
                let wanted = match phase {
                    0 => mtaji,
                    1 => !mtaji && i < n,
                    _ => !mtaji && i >= n,
                };
                if !wanted {
                    continue;
                }
                let mut lanes = self.lanes;
                let outcome = f.play_out(&mut lanes, i, dir, mtaji, stop);
                if outcome == Outcome::Stopped {
                    return None;
                }
                if outcome != Outcome::NeverEnding {
                    found += 1;
                    let mv = BaoMove::from_loop_index(self.side, n, i, dir);
                    emit(mv, &lanes, outcome == Outcome::Wins);
                }
            }
            if found > 0 {
                break;
            }
        }
        Some(found)
    }

    /// Calls `visit` with each legal move's result (the position after it, the opponent to
    /// move), in canonical order; returns how many there were. No list is built.
    pub fn for_each_child(&self, visit: impl FnMut(BaoMove, &BaoPosition, bool)) -> usize {
        self.for_each_child_until(&|| false, visit)
            .expect("a generation that never stops finishes")
    }

    /// [`for_each_child`](Self::for_each_child) that a search under a time limit can stop
    /// partway: `stop` is asked every few thousand sowings of a long move (the
    /// never-ending test of R7.3 can play tens of millions), and `None` says it stopped
    /// (some children may have been visited: the caller drops them).
    pub fn for_each_child_until(
        &self,
        stop: &impl Fn() -> bool,
        mut visit: impl FnMut(BaoMove, &BaoPosition, bool),
    ) -> Option<usize> {
        let side = self.side.other();
        self.generate_until(stop, |mv, lanes, wins| {
            let next = BaoPosition {
                lanes: *lanes,
                n: self.n,
                side,
            };
            visit(mv, &next, wins)
        })
    }

    /// The legal moves (R6.3) with the positions they lead to, in canonical order. Empty when
    /// the game is over or the mover has no legal move (lost, R7.4).
    pub fn legal(&self) -> BaoLegal {
        let mut out = BaoLegal {
            children: [None; MAX_CANDIDATES],
            len: 0,
        };
        let side = self.side.other();
        self.generate(|mv, lanes, wins| {
            out.children[out.len] = Some(BaoChild {
                mv,
                next: BaoPosition {
                    lanes: *lanes,
                    n: self.n,
                    side,
                },
                wins,
            });
            out.len += 1;
        });
        out
    }

    /// The number of legal moves, without building their positions.
    pub fn legal_count(&self) -> usize {
        self.generate(|_, _, _| {})
    }

    /// Plays `mv` if it is legal: the position after it and whether it won the game (R7.1).
    pub fn try_play(&self, mv: BaoMove) -> Result<(BaoPosition, bool), BaoError> {
        self.legal()
            .find(mv)
            .map(|c| (c.next, c.wins))
            .ok_or(BaoError::Illegal(mv))
    }
}
