//! Win/loss/draw values of a finite game graph with cycles by retrograde analysis
//! ([`solve`]), generic over the game ([`WldGame`]): the exact solver of Bao on small
//! boards, tested on toy games.
//!
//! **Values** (docs/bao.md, BAO.md R9.1): a position is *won* if some move ends the game
//! at once or leads to a position lost for the opponent; *lost* if it has no move or every
//! move leads to a position won for the opponent; the won and lost sets are the smallest
//! closed under these two rules, and every other position is a *draw* (play goes on for
//! ever). The value depends only on the position, not on the path to it.
//!
//! **The analysis.** The positions reachable from the root are found breadth first and
//! numbered, with the moves between them. Then, from the positions decided at once (no
//! move: lost in 0; a move that ends the game: won in 1), values are propagated backwards
//! through the predecessors, in order of distance: a predecessor of a lost position is won
//! one ply later; a predecessor all of whose moves lead to won positions is lost one ply
//! after the last of them. Positions never reached this way are draws. The distances are
//! exact: a won position is won in the fewest plies the winner can force, a lost one in
//! the most the loser can delay, so a principal variation ([`Solved::line`]) replays to
//! the end of the game.

use std::collections::HashMap;
use std::hash::Hash;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::time::{Duration, Instant};

/// A game whose positions form a finite graph: the moves of a position, each either
/// ending the game with the mover's win or leading to a position with the other player to
/// move.
pub trait WldGame {
    /// A position, seen from the player to move.
    type State: Copy + Eq + Hash;

    /// Appends to `out` what each legal move of `state` does, in the order of the moves.
    /// A position with no legal move is lost for the player to move.
    fn moves(&self, state: &Self::State, out: &mut Vec<Step<Self::State>>);

    /// [`moves`](Self::moves) that a long generation stops partway where `stop` says so
    /// (a move of Bao can sow tens of millions of times before it is found never-ending):
    /// false then, and `out` holds some of the moves or none. By default, all of them.
    fn moves_until(
        &self,
        state: &Self::State,
        out: &mut Vec<Step<Self::State>>,
        stop: &dyn Fn() -> bool,
    ) -> bool {
        let _ = stop;
        self.moves(state, out);
        true
    }
}

/// What one move does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step<S> {
    /// The move ends the game: the mover wins at once.
    Wins,
    /// The move leads to this position, the other player to move.
    To(S),
}

/// The value of a position for the player to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    /// The player to move wins in this many plies (at least 1) against any defence.
    Win(u32),
    /// The player to move loses in this many plies (0: no legal move) against best play.
    Loss(u32),
    /// Neither player can force a win: best play goes on for ever.
    Draw,
}

impl Value {
    /// The value of a move for its mover, given the value of the position it leads to
    /// for the other player.
    pub fn through(self) -> Value {
        match self {
            Value::Win(d) => Value::Loss(d + 1),
            Value::Loss(d) => Value::Win(d + 1),
            Value::Draw => Value::Draw,
        }
    }

    /// +1, 0 or −1 for the player to move.
    pub fn sign(self) -> i32 {
        match self {
            Value::Win(_) => 1,
            Value::Loss(_) => -1,
            Value::Draw => 0,
        }
    }

    /// A rank for choosing moves, higher is better for the mover: a faster win, then a
    /// draw, then a slower loss.
    pub fn rank(self) -> i64 {
        match self {
            Value::Win(d) => i64::MAX - d as i64,
            Value::Draw => 0,
            Value::Loss(d) => i64::MIN + 1 + d as i64,
        }
    }

    /// The word for the value: `win in 5`, `loss in 0`, `draw`.
    pub fn describe(self) -> String {
        match self {
            Value::Win(d) => format!("win in {d}"),
            Value::Loss(d) => format!("loss in {d}"),
            Value::Draw => "draw".to_string(),
        }
    }
}

/// A value packed in 32 bits: 0 undecided (a draw once the analysis is over), `2d + 1` a
/// win in `d`, `2d + 2` a loss in `d`.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Packed(u32);

impl Packed {
    const UNDECIDED: Packed = Packed(0);

    fn win(d: u32) -> Packed {
        Packed(2 * d + 1)
    }

    fn loss(d: u32) -> Packed {
        Packed(2 * d + 2)
    }

    fn value(self) -> Value {
        match self.0 {
            0 => Value::Draw,
            v if v % 2 == 1 => Value::Win(v / 2),
            v => Value::Loss(v / 2 - 1),
        }
    }
}

/// A report on a running analysis.
#[derive(Clone, Copy, Debug)]
pub struct GraphProgress {
    /// Positions found so far.
    pub positions: u64,
    /// Positions decided so far, once every position is found (`None` while they are
    /// still being found).
    pub decided: Option<u64>,
    /// Time since the analysis started.
    pub elapsed: Duration,
}

/// Why an analysis stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GraphStop {
    /// Cancelled from another thread.
    Cancelled,
    /// The game graph has more positions than the limit.
    TooLarge {
        /// The limit on positions.
        limit: u64,
    },
}

impl std::fmt::Display for GraphStop {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GraphStop::Cancelled => write!(f, "cancelled"),
            GraphStop::TooLarge { limit } => write!(
                f,
                "the game graph has more than {limit} positions, more than the memory \
                 allowed holds ({BYTES_PER_POSITION} bytes each): choose a smaller board or \
                 fewer seeds, or allow more memory"
            ),
        }
    }
}

/// Memory a position takes during the analysis, beside its state: index entry and slack,
/// the moves out of it and into it, its value and count (an estimate for sizing the
/// limit; the moves a position has on average on small boards).
pub const BYTES_PER_POSITION: u64 = 96;

/// Counts of an analysis.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GraphStats {
    /// Positions reachable from the root (the root included, finished games excluded).
    pub positions: u64,
    /// Moves between them (a move that ends the game included).
    pub moves: u64,
    /// Positions won for the player to move.
    pub won: u64,
    /// Positions lost for the player to move.
    pub lost: u64,
    /// Positions drawn.
    pub drawn: u64,
    /// The longest forced win or loss, in plies.
    pub longest: u32,
}

/// The solved game graph of a root: the value of every position reachable from it.
pub struct Solved<S> {
    index: HashMap<S, u32>,
    values: Vec<Packed>,
    stats: GraphStats,
}

impl<S: Copy + Eq + Hash> Solved<S> {
    /// The value of `state` for the player to move, where it is reachable from the root.
    pub fn value(&self, state: &S) -> Option<Value> {
        self.index
            .get(state)
            .map(|&i| self.values[i as usize].value())
    }

    /// The counts of the analysis.
    pub fn stats(&self) -> GraphStats {
        self.stats
    }

    /// The value of each legal move of `state` for its mover, in the order of the moves
    /// (`None` where `state` is not reachable from the root).
    pub fn move_values<G: WldGame<State = S>>(&self, game: &G, state: &S) -> Option<Vec<Value>> {
        self.index.get(state)?;
        let mut steps = Vec::new();
        game.moves(state, &mut steps);
        steps
            .iter()
            .map(|step| match step {
                Step::Wins => Some(Value::Win(1)),
                Step::To(c) => self.value(c).map(Value::through),
            })
            .collect()
    }

    /// The best move of `state` (its index in the order of the moves), with its value:
    /// the fastest win, else a draw, else the slowest loss; the first of equals. `None`
    /// where it has no move or is not reachable.
    pub fn best_move<G: WldGame<State = S>>(&self, game: &G, state: &S) -> Option<(usize, Value)> {
        let values = self.move_values(game, state)?;
        let best = values.iter().map(|v| v.rank()).max()?;
        values
            .iter()
            .position(|v| v.rank() == best)
            .map(|i| (i, values[i]))
    }

    /// A principal variation from `state`: the indices of the best moves, to the end of
    /// the game where it is won or lost, or up to the first position that would repeat
    /// where it is drawn.
    pub fn line<G: WldGame<State = S>>(&self, game: &G, state: &S) -> Vec<usize> {
        let mut line = Vec::new();
        let mut seen = std::collections::HashSet::new();
        let mut state = *state;
        let mut steps = Vec::new();
        while seen.insert(state) {
            let Some((m, _)) = self.best_move(game, &state) else {
                break;
            };
            line.push(m);
            steps.clear();
            game.moves(&state, &mut steps);
            match steps[m] {
                Step::Wins => break,
                Step::To(c) => state = c,
            }
        }
        line
    }
}

/// The game graph found from a root: positions numbered breadth first, the moves of each
/// as a range of `targets` (moves that end the game are not stored: those positions are
/// won in 1 at once).
struct Found<S> {
    index: HashMap<S, u32>,
    /// `targets[first[i]..first[i + 1]]`: the positions the moves of `i` lead to.
    first: Vec<u64>,
    targets: Vec<u32>,
    values: Vec<Packed>,
    moves: u64,
}

/// Solves every position reachable from `root`, stopping where they pass `limit`
/// positions or `cancel` is set; `progress` hears of the work now and then.
pub fn solve<G: WldGame>(
    game: &G,
    root: &G::State,
    limit: u64,
    cancel: &AtomicBool,
    progress: &mut dyn FnMut(&GraphProgress),
) -> Result<Solved<G::State>, GraphStop> {
    let start = Instant::now();
    let found = discover(game, root, limit, cancel, start, progress)?;
    let Found {
        index,
        first,
        targets,
        mut values,
        moves,
    } = found;
    let (before, into) = predecessors(&first, &targets, cancel)?;
    let mut left: Vec<u32> = first.windows(2).map(|w| (w[1] - w[0]) as u32).collect();
    drop(targets);
    propagate(
        &mut values,
        &mut left,
        &before,
        &into,
        cancel,
        start,
        progress,
    )?;
    let stats = count(&values, moves);
    Ok(Solved {
        index,
        values,
        stats,
    })
}

/// How often the analysis reports its progress: every this many positions. It looks at
/// `cancel` at every position (an atomic load, nothing beside the moves of a position),
/// and a long generation of moves looks at it too ([`WldGame::moves_until`]): on 8 pits
/// a position of Bao can take a second to expand (its never-ending moves are played out
/// until they repeat), so that a poll every this many positions left Ctrl-C unheard for
/// most of a minute.
const REPORT_EVERY: usize = 1 << 16;

/// Finds the positions reachable from `root` breadth first, with their moves.
fn discover<G: WldGame>(
    game: &G,
    root: &G::State,
    limit: u64,
    cancel: &AtomicBool,
    start: Instant,
    progress: &mut dyn FnMut(&GraphProgress),
) -> Result<Found<G::State>, GraphStop> {
    let mut states = vec![*root];
    let mut index = HashMap::from([(*root, 0u32)]);
    let (mut first, mut targets, mut values) = (vec![0u64], Vec::new(), Vec::new());
    let (mut steps, mut moves) = (Vec::new(), 0u64);
    let mut i = 0;
    while i < states.len() {
        if cancel.load(Relaxed) {
            return Err(GraphStop::Cancelled);
        }
        if i % REPORT_EVERY == 0 {
            progress(&GraphProgress {
                positions: states.len() as u64,
                decided: None,
                elapsed: start.elapsed(),
            });
        }
        steps.clear();
        if !game.moves_until(&states[i], &mut steps, &|| cancel.load(Relaxed)) {
            return Err(GraphStop::Cancelled);
        }
        moves += steps.len() as u64;
        let mut wins = false;
        for step in &steps {
            let child = match step {
                Step::Wins => {
                    wins = true;
                    continue;
                }
                Step::To(c) => c,
            };
            let next = states.len() as u32;
            let id = *index.entry(*child).or_insert(next);
            if id == next {
                if states.len() as u64 >= limit {
                    return Err(GraphStop::TooLarge { limit });
                }
                states.push(*child);
            }
            targets.push(id);
        }
        first.push(targets.len() as u64);
        values.push(match (wins, steps.is_empty()) {
            (true, _) => Packed::win(1),
            (false, true) => Packed::loss(0),
            (false, false) => Packed::UNDECIDED,
        });
        i += 1;
    }
    Ok(Found {
        index,
        first,
        targets,
        values,
        moves,
    })
}

/// The moves into each position: `into[before[i]..before[i + 1]]` are the positions with a
/// move to `i` (once for each such move); stopped where `cancel` is raised (looked at
/// every [`REPORT_EVERY`] positions: a pass over the moves of that many takes
/// milliseconds).
fn predecessors(
    first: &[u64],
    targets: &[u32],
    cancel: &AtomicBool,
) -> Result<(Vec<u64>, Vec<u32>), GraphStop> {
    let n = first.len() - 1;
    let mut before = vec![0u64; n + 1];
    for &t in targets {
        before[t as usize + 1] += 1;
    }
    for i in 0..n {
        before[i + 1] += before[i];
    }
    let mut fill = before.clone();
    let mut into = vec![0u32; targets.len()];
    for from in 0..n {
        if from % REPORT_EVERY == 0 && cancel.load(Relaxed) {
            return Err(GraphStop::Cancelled);
        }
        for &t in &targets[first[from] as usize..first[from + 1] as usize] {
            into[fill[t as usize] as usize] = from as u32;
            fill[t as usize] += 1;
        }
    }
    Ok((before, into))
}

/// Propagates the values of the positions decided at once back through their
/// predecessors, nearest first (see the module's doc). `left[i]` counts the moves of `i`
/// not yet known to lead to a position won for the opponent.
fn propagate(
    values: &mut [Packed],
    left: &mut [u32],
    before: &[u64],
    into: &[u32],
    cancel: &AtomicBool,
    start: Instant,
    progress: &mut dyn FnMut(&GraphProgress),
) -> Result<(), GraphStop> {
    // Losses in 0 first, then wins in 1: the queue stays in order of distance.
    let mut queue: Vec<u32> = (0..values.len() as u32)
        .filter(|&i| values[i as usize] == Packed::loss(0))
        .collect();
    queue.extend((0..values.len() as u32).filter(|&i| values[i as usize] == Packed::win(1)));
    let mut head = 0;
    while head < queue.len() {
        if cancel.load(Relaxed) {
            return Err(GraphStop::Cancelled);
        }
        if head % REPORT_EVERY == 0 {
            progress(&GraphProgress {
                positions: values.len() as u64,
                decided: Some(queue.len() as u64),
                elapsed: start.elapsed(),
            });
        }
        let node = queue[head] as usize;
        head += 1;
        let value = values[node].value();
        for &p in &into[before[node] as usize..before[node + 1] as usize] {
            let p = p as usize;
            if values[p] != Packed::UNDECIDED {
                continue;
            }
            match value {
                Value::Loss(d) => values[p] = Packed::win(d + 1),
                Value::Win(d) => {
                    left[p] -= 1;
                    if left[p] > 0 {
                        continue;
                    }
                    values[p] = Packed::loss(d + 1);
                }
                Value::Draw => unreachable!("only decided positions are queued"),
            }
            queue.push(p as u32);
        }
    }
    Ok(())
}

/// The counts of a finished analysis.
fn count(values: &[Packed], moves: u64) -> GraphStats {
    let mut stats = GraphStats {
        positions: values.len() as u64,
        moves,
        ..GraphStats::default()
    };
    for v in values {
        match v.value() {
            Value::Win(d) => (stats.won, stats.longest) = (stats.won + 1, stats.longest.max(d)),
            Value::Loss(d) => (stats.lost, stats.longest) = (stats.lost + 1, stats.longest.max(d)),
            Value::Draw => stats.drawn += 1,
        }
    }
    stats
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A game given by its moves: position `i` has the moves `graph[i]`.
    struct Table(Vec<Vec<Step<u32>>>);

    impl WldGame for Table {
        type State = u32;
        fn moves(&self, state: &u32, out: &mut Vec<Step<u32>>) {
            out.extend_from_slice(&self.0[*state as usize]);
        }
    }

    fn solved(table: &Table) -> Solved<u32> {
        solve(table, &0, 1000, &AtomicBool::new(false), &mut |_| {}).unwrap()
    }

    #[test]
    fn a_cycle_with_no_exit_is_a_draw() {
        let t = Table(vec![vec![Step::To(1)], vec![Step::To(0)]]);
        let s = solved(&t);
        assert_eq!(s.value(&0), Some(Value::Draw));
        assert_eq!(s.value(&1), Some(Value::Draw));
        assert_eq!(s.line(&t, &0), vec![0, 0]);
    }

    #[test]
    fn the_loser_delays_and_the_winner_hurries() {
        // 0: a move into the cycle-free chain 1 -> 2 -> (no move), or to 3 which wins at once.
        let t = Table(vec![
            vec![Step::To(3), Step::To(1)],
            vec![Step::To(2)],
            vec![],
            vec![Step::Wins, Step::To(2)],
        ]);
        let s = solved(&t);
        assert_eq!(s.value(&2), Some(Value::Loss(0)));
        assert_eq!(s.value(&1), Some(Value::Win(1)));
        assert_eq!(s.value(&3), Some(Value::Win(1)));
        // Both moves of 0 lead to positions won for the opponent: it delays the longest.
        assert_eq!(s.value(&0), Some(Value::Loss(2)));
        assert_eq!(s.best_move(&t, &0), Some((0, Value::Loss(2))));
        assert_eq!(s.line(&t, &0), vec![0, 0]);
        let stats = s.stats();
        assert_eq!((stats.won, stats.lost, stats.drawn), (2, 2, 0));
        assert_eq!(stats.moves, 5);
    }

    /// A chain `0 -> 1 -> ... -> len` whose expansion raises `cancel` at position `at`.
    struct Raising<'a> {
        len: u32,
        at: u32,
        cancel: &'a AtomicBool,
        expanded: std::sync::atomic::AtomicU32,
    }

    impl WldGame for Raising<'_> {
        type State = u32;
        fn moves(&self, state: &u32, out: &mut Vec<Step<u32>>) {
            self.expanded.fetch_add(1, Relaxed);
            if *state == self.at {
                self.cancel.store(true, Relaxed);
            }
            if *state < self.len {
                out.push(Step::To(state + 1));
            }
        }
    }

    #[test]
    fn a_cancel_is_heard_at_the_next_position() {
        // Once, the flag was looked at every 65,536 positions, most of a
        // minute of Bao on 8 pits.
        let cancel = AtomicBool::new(false);
        let game = Raising {
            len: 200_000,
            at: 10,
            cancel: &cancel,
            expanded: Default::default(),
        };
        let stop = solve(&game, &0, u64::MAX, &cancel, &mut |_| {}).err();
        assert_eq!(stop, Some(GraphStop::Cancelled));
        assert_eq!(game.expanded.load(Relaxed), 11);
    }

    #[test]
    fn a_limit_on_positions_stops_the_analysis() {
        let t = Table(vec![vec![Step::To(1)], vec![Step::To(2)], vec![]]);
        let stop = solve(&t, &0, 2, &AtomicBool::new(false), &mut |_| {}).err();
        assert_eq!(stop, Some(GraphStop::TooLarge { limit: 2 }));
        let stop = solve(&t, &0, 9, &AtomicBool::new(true), &mut |_| {}).err();
        assert_eq!(stop, Some(GraphStop::Cancelled));
    }
}
