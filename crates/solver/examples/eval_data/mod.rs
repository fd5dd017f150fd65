//! What the examples `fit_eval` and `train_ntuple` share: a seeded generator, the games
//! their positions are sampled from, the held-out split, the targets (exact values of
//! Kalah positions with few seeds, depth-limited analyses of fuller boards) and the timing
//! of a leaf. Not an example itself (a folder without `main.rs`); each example includes it
//! with `mod eval_data;`.
#![allow(dead_code)]

use std::collections::HashSet;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use kalah_core::{Capture, Game, Position, Rules};
use kalah_solver::eval::Evaluation;
use kalah_solver::{Config, Database, Limits, Solver};

/// A small deterministic generator (SplitMix64).
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Depth-limited negamax with `eval` at the leaves, in sowings (an extra turn keeps the
/// sign). Heuristic: no table, no cycle rule (the depths here are far below a cycle).
pub fn search(
    game: &Game,
    pos: &Position,
    depth: u32,
    mut alpha: i32,
    beta: i32,
    eval: Evaluation,
) -> i32 {
    let margin = pos.store_margin();
    if pos.is_over() {
        return margin;
    }
    let moves = game.legal_moves(pos);
    if depth == 0 || moves.is_empty() {
        return eval.score(pos, margin);
    }
    let mut best = i32::MIN + 1;
    for m in moves {
        let child = game.play_unchecked(pos, m);
        let v = if child.side_to_move() == pos.side_to_move() {
            search(game, &child, depth - 1, alpha, beta, eval)
        } else {
            -search(game, &child, depth - 1, -beta, -alpha, eval)
        };
        best = best.max(v);
        alpha = alpha.max(v);
        if alpha >= beta {
            break;
        }
    }
    best
}

/// The move a player picks: at random with probability `random` in 1000, else the best by
/// a `depth`-sowing search with the store difference (ties broken at random).
pub fn pick(
    game: &Game,
    pos: &Position,
    rng: &mut Rng,
    random: usize,
    depth: u32,
) -> Option<usize> {
    let moves: Vec<usize> = game.legal_moves(pos).collect();
    if moves.is_empty() {
        return None;
    }
    let start = rng.below(moves.len());
    if rng.below(1000) < random {
        return Some(moves[start]);
    }
    let sd = Evaluation::StoreDifference;
    let value = |m: usize| {
        let child = game.play_unchecked(pos, m);
        let v = search(game, &child, depth, -1000, 1000, sd);
        if child.side_to_move() == pos.side_to_move() {
            v
        } else {
            -v
        }
    };
    (0..moves.len())
        .map(|i| moves[(start + i) % moves.len()])
        .max_by_key(|&m| value(m))
}

/// Who plays the games positions are sampled from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Players {
    /// Weak to random: a random sowing with a chance of 2%, 15%, 40% or 100% (drawn per
    /// game), else the best of a 1- to 3-sowing search. Every kind of board, most of them
    /// far from what strong players reach.
    Mixed,
    /// Stronger: a random sowing with a chance of 3% or 6% (drawn per game, so that the
    /// games differ), else the best of a 4- or 5-sowing search: boards nearer the ones
    /// an engine's games pass through, the early middle game above all.
    Strong,
}

impl Players {
    /// The name `--players` takes.
    pub fn name(self) -> &'static str {
        match self {
            Players::Mixed => "mixed",
            Players::Strong => "strong",
        }
    }

    /// The chance of a random sowing (in 1000) and the depth of the search, for one game.
    fn draw(self, rng: &mut Rng) -> (usize, u32) {
        match self {
            Players::Mixed => ([20, 150, 400, 1000][rng.below(4)], 1 + rng.below(3) as u32),
            Players::Strong => ([30, 60][rng.below(2)], 4 + rng.below(2) as u32),
        }
    }
}

/// Positions along games played on `rules` from the start, with at most `max_left` seeds
/// in the houses, none twice (by board and mover), about `want` of them, the players
/// [`Players::Mixed`]; every third position is kept.
pub fn sample(rules: Rules, max_left: u32, want: usize, rng: &mut Rng) -> Vec<Position> {
    sample_by(rules, max_left, want, Players::Mixed, rng)
}

/// [`sample`] with the games played by `players`.
pub fn sample_by(
    rules: Rules,
    max_left: u32,
    want: usize,
    players: Players,
    rng: &mut Rng,
) -> Vec<Position> {
    let game = Game::new(rules).expect("valid rules");
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    let mut games = 0;
    while out.len() < want && games < 50 * want {
        games += 1;
        let (random, depth) = players.draw(rng);
        let mut pos = game.start();
        for _ in 0..300 {
            if pos.is_over() {
                break;
            }
            let left = pos.seeds_in_houses();
            if left <= max_left
                && rng.below(3) == 0
                && seen.insert((pos.packed_board(), pos.stores(), pos.side_to_move()))
            {
                out.push(pos);
            }
            match pick(&game, &pos, rng, random, depth) {
                Some(m) => pos = game.play_unchecked(&pos, m),
                None => break,
            }
        }
    }
    out.truncate(want);
    out
}

/// `pos` with its stores changed so that the game holds `capacity` seeds: the same
/// houses, so the same value less the store margin (no early stop in these classes).
pub fn remap(pos: &Position, capacity: usize) -> Position {
    let left = pos.seeds_in_houses() as usize;
    let stores = capacity - left;
    let a = (stores / 2) as u8;
    Position::from_packed(
        pos.houses_per_side(),
        pos.packed_board(),
        [a, stores as u8 - a],
        pos.side_to_move(),
    )
}

/// Held out: a fifth of the boards, by a hash of the board (a board never in both).
pub fn held_out(pos: &Position) -> bool {
    let b = pos.packed_board() as u64 ^ (pos.packed_board() >> 64) as u64;
    (b.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 32) % 5 == 0
}

/// The CPU time of this thread in nanoseconds (the machine may be shared: the wall time
/// would count the waits), or the wall time where the platform has no such clock.
pub fn cpu_ns() -> u128 {
    #[cfg(target_os = "linux")]
    {
        let mut t = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: clock_gettime writes the timespec it is given and nothing else.
        if unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) } == 0 {
            return t.tv_sec as u128 * 1_000_000_000 + t.tv_nsec as u128;
        }
    }
    static START: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    START.get_or_init(Instant::now).elapsed().as_nanos()
}

/// Nanoseconds of CPU per call of `eval.score` over `positions`: the fastest of five
/// timed rounds.
pub fn leaf_cost(positions: &[Position], eval: Evaluation) -> f64 {
    let rounds = 400_000 / positions.len().max(1) + 1;
    let mut best = f64::INFINITY;
    for _ in 0..5 {
        let start = cpu_ns();
        let mut sink = 0i64;
        for _ in 0..rounds {
            for p in positions {
                let p = std::hint::black_box(p);
                sink += eval.score(p, p.store_margin()) as i64;
            }
        }
        std::hint::black_box(sink);
        let ns = (cpu_ns() - start) as f64 / (rounds * positions.len()) as f64;
        best = best.min(ns);
    }
    best
}

/// Progress lines on standard error: `what: done/total, elapsed, time left`, at most one
/// every two seconds.
pub struct Progress {
    what: String,
    total: usize,
    start: Instant,
    last: Instant,
}

impl Progress {
    pub fn new(what: &str, total: usize) -> Progress {
        let now = Instant::now();
        eprintln!("{what}: 0/{total}");
        Progress {
            what: what.to_string(),
            total,
            start: now,
            last: now,
        }
    }

    pub fn tick(&mut self, done: usize) {
        let now = Instant::now();
        if (now - self.last).as_secs_f64() < 2.0 && done < self.total {
            return;
        }
        self.last = now;
        let spent = (now - self.start).as_secs_f64();
        let left = if done > 0 {
            spent * (self.total - done.min(self.total)) as f64 / done as f64
        } else {
            0.0
        };
        eprintln!(
            "{}: {done}/{} [{spent:.0} s, about {left:.0} s left]",
            self.what, self.total
        );
    }
}

/// Positions with at most `max_left` seeds in the houses sampled from games on each of
/// `boards` (about `want` in all, shared by seeds), each with its exact value less its
/// store margin, solved on the board of the same houses with the most seeds (its stores
/// remapped: the same houses, so the same value less the margin) with an endgame database
/// of `egdb` seeds built in memory. Kalah (acyclic) boards only.
pub fn exact_samples(
    boards: &[Rules],
    max_left: u32,
    egdb: usize,
    want: usize,
    rng: &mut Rng,
) -> Vec<(Position, i32)> {
    let cancel = AtomicBool::new(false);
    let mut positions = Vec::new();
    let per = want / boards.len() + 1;
    for rules in boards {
        positions.extend(sample(*rules, max_left, per, rng));
    }
    let target = *boards.iter().max_by_key(|r| r.seeds).expect("a board");
    let game = Game::new(target).expect("valid rules");
    let database = Database::Build(egdb);
    let config = Config::for_seeds(&game, max_left as usize, positions.len(), &database)
        .expect("a built database");
    let solver = Solver::new(game.clone(), config).expect("a solver");
    let mut progress = Progress::new("exact values", positions.len());
    let mut out = Vec::new();
    for (i, p) in positions.iter().enumerate() {
        let q = remap(p, game.capacity());
        let v = solver.value(&q, &cancel).expect("not cancelled");
        out.push((q, v - q.store_margin()));
        progress.tick(i + 1);
    }
    out
}

/// Positions of Kalah(6,4), (6,5) and (6,6) games of `players` under `capture` with more
/// than `min_left` and at most `max_left` seeds in the houses (about `want`, shared in
/// proportion to the seeds), each valued by a `depth`-sowing analysis (one thread, a 64
/// MiB table, `eval` at its leaves) less its store margin. `threads` workers analyse
/// disjoint shares of the positions with a solver each: the same positions and values for
/// the same `threads`.
pub fn deep_samples(
    capture: Capture,
    (min_left, max_left): (u32, u32),
    depth: u8,
    want: usize,
    eval: Evaluation,
    (threads, players): (usize, Players),
    rng: &mut Rng,
) -> Vec<(Position, i32)> {
    let mut jobs: Vec<(Rules, Position)> = Vec::new();
    for seeds in [4, 5, 6] {
        let rules = Rules {
            capture,
            ..Rules::kalah(6, seeds)
        };
        let per = want * seeds as usize / 15 + 1;
        let positions = sample_by(rules, 6 * 2 * seeds as u32, 4 * per, players, rng);
        let kept = positions.into_iter().filter(|p| {
            let left = p.seeds_in_houses();
            left > min_left && left <= max_left
        });
        jobs.extend(kept.take(per).map(|p| (rules, p)));
    }
    let threads = threads.max(1);
    let done = std::sync::atomic::AtomicUsize::new(0);
    let progress = std::sync::Mutex::new(Progress::new(
        &format!("depth-{depth} analyses ({})", eval.name()),
        jobs.len(),
    ));
    let chunk = jobs.len().div_ceil(threads).max(1);
    let results: Vec<Vec<(Position, i32)>> = std::thread::scope(|s| {
        let handles: Vec<_> = jobs
            .chunks(chunk)
            .map(|share| {
                let (done, progress) = (&done, &progress);
                s.spawn(move || {
                    let cancel = AtomicBool::new(false);
                    let mut solvers: Vec<(Rules, Solver)> = Vec::new();
                    let mut out = Vec::new();
                    for (rules, p) in share {
                        if !solvers.iter().any(|(r, _)| r == rules) {
                            let game = Game::new(*rules).expect("valid rules");
                            let config = Config {
                                threads: 1,
                                hash_mb: 64,
                                evaluation: eval,
                                ..Config::default()
                            };
                            solvers.push((*rules, Solver::new(game, config).expect("a solver")));
                        }
                        let solver = &solvers.iter().find(|(r, _)| r == rules).expect("made").1;
                        let a = solver
                            .analyse_lines(p, &Limits::depth(depth), 1, &cancel, &mut |_| {})
                            .expect("an analysis");
                        out.push((*p, a.eval - p.store_margin()));
                        let n = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
                        progress.lock().expect("no panic").tick(n);
                    }
                    out
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a worker"))
            .collect()
    });
    results.into_iter().flatten().collect()
}

/// Writes `text` to `path` atomically (a temporary file beside it, then renamed over it),
/// replacing only an empty file or one that begins with one of `headers` (one this
/// example wrote); exits with a message naming the path otherwise.
pub fn write_own_file(path: &str, headers: &[&str], text: &str) {
    if let Ok(old) = std::fs::read_to_string(path) {
        if !old.is_empty() && !headers.iter().any(|h| old.starts_with(h)) {
            eprintln!(
                "error: {path} exists and was not written by this example: choose another path"
            );
            std::process::exit(2);
        }
    } else if std::path::Path::new(path).exists() {
        eprintln!("error: {path} exists and is not a text file this example wrote");
        std::process::exit(2);
    }
    let tmp = format!("{path}.partial");
    if let Err(e) = std::fs::write(&tmp, text).and_then(|()| std::fs::rename(&tmp, path)) {
        eprintln!("error: cannot write {path}: {e}");
        std::process::exit(2);
    }
}
