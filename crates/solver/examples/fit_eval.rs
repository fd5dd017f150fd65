//! Fits the evaluation's coefficients (`kalah_solver::eval::weights`) to exact values:
//! `cargo run --release -p kalah-solver --features examples --example fit_eval -- [--quick] [--seed N] [CLASS ...]`
//! (or `-- --bench [FILE]`: the node count of `kalah bench` with each evaluation in the
//! exact solve's deepening; `-- --deep DEPTH [--min-left N] [--max-left N] [--quick]`: the
//! coefficients of `kalah-6` as shipped, fitted to the values of DEPTH-sowing searches of
//! positions of Kalah(6,4..6) with more than N seeds in the houses; `-- --depths NODES`:
//! the mean depth a NODES-node analysis of Kalah(6,6) positions reaches with each
//! evaluation).
//!
//! For each family and board size class it plays games from the start of a few boards
//! (random, greedy and shallow-search players), keeps positions along them, values them
//! exactly (the solver with an in-memory database; the retrograde solver for the cyclic
//! families), fits the coefficients by least squares on four fifths of them, and prints
//! the coefficients as Rust source and the mean absolute error on the held-out fifth of
//! depth-0, 2 and 4 searches with the store difference and with the fitted evaluation at
//! their leaves. Nothing is downloaded; the same seed gives the same data.
use std::sync::atomic::AtomicBool;
use std::time::Instant;

mod eval_data;
use eval_data::{deep_samples, held_out, leaf_cost, remap, sample, search, Players, Rng};

use kalah_core::{Game, Position, Rules};
use kalah_solver::eval::fit::{least_absolute, mean_absolute_error, to_weights};
use kalah_solver::eval::{features, Evaluation, Weights, FEATURES, FEATURE_NAMES};
use kalah_solver::retro::Retro;
use kalah_solver::{bench, Config, Database, Limits, Solver};

/// One family and board size class: the boards its games are played on, the most seeds in the houses of a kept position, and the database's seeds.
struct Class {
    name: &'static str,
    boards: Vec<Rules>,
    max_left: u32,
    egdb: usize,
    positions: usize,
}

fn classes(quick: bool) -> Vec<Class> {
    let n = |full: usize| if quick { full / 4 } else { full };
    let k = Rules::kalah;
    vec![
        Class {
            name: "kalah-6",
            boards: vec![k(6, 4), k(6, 5), k(6, 6)],
            max_left: 30,
            egdb: 16,
            positions: n(6000),
        },
        Class {
            name: "kalah-small",
            boards: vec![k(4, 3), k(4, 4), k(4, 5), k(5, 3), k(5, 4), k(5, 5)],
            max_left: 30,
            egdb: 16,
            positions: n(5000),
        },
        Class {
            name: "general",
            boards: vec![
                Rules::general(4, 3),
                Rules::general(5, 3),
                Rules::general(6, 3),
            ],
            max_left: 24,
            egdb: 12,
            positions: n(3000),
        },
        Class {
            name: "nigerian",
            boards: vec![
                Rules::nigerian(4, 3),
                Rules::nigerian(5, 3),
                Rules::nigerian(6, 3),
            ],
            max_left: 24,
            egdb: 12,
            positions: n(3000),
        },
        Class {
            name: "ethiopian",
            boards: vec![Rules::ethiopian(4, 2), Rules::ethiopian(4, 3)],
            max_left: 24,
            egdb: 0,
            positions: n(3000),
        },
        Class {
            name: "oware",
            boards: vec![Rules::oware(4, 2), Rules::oware(4, 3)],
            max_left: 24,
            egdb: 0,
            positions: n(3000),
        },
    ]
}

/// A position with its exact value less its store margin (what the houses are worth).
struct Sample {
    /// The position as solved (for searches from it).
    pos: Position,
    /// Exact value minus store margin, for the mover.
    rel: i32,
    /// The game it was solved on (an index in the class's games).
    game: usize,
}

/// The rules each board's positions are solved on: for a cyclic family the board's own
/// (the retrograde solver values the whole graph from its start); else, for every board,
/// the board of the same houses with the most seeds (one solver for each house count, the
/// stores remapped).
fn solve_rules(class: &Class, board: &Rules) -> Rules {
    if board.family.is_cyclic() {
        return *board;
    }
    let same = class.boards.iter().filter(|r| r.houses == board.houses);
    *same.max_by_key(|r| r.seeds).expect("the board itself")
}

/// The exact values of `positions`, played on `boards`, each less its store margin, with
/// the index in `games` of the game it was solved on.
fn solve_all(
    class: &Class,
    positions: &[Position],
    boards: &[Rules],
    games: &mut Vec<Game>,
) -> Vec<Sample> {
    let cancel = AtomicBool::new(false);
    let mut out = Vec::new();
    let mut targets: Vec<Rules> = boards.iter().map(|b| solve_rules(class, b)).collect();
    targets.dedup();
    for target in targets {
        let game = Game::new(target).expect("valid rules");
        let mine: Vec<&Position> = positions
            .iter()
            .zip(boards)
            .filter(|(_, b)| solve_rules(class, b) == target)
            .map(|(p, _)| p)
            .collect();
        let index = games.len();
        if target.family.is_cyclic() {
            // Every sampled position is on the way from the start, so its value is known
            // once the start is solved.
            let retro = Retro::new(&game, 4 << 30);
            retro
                .solve(&game, &game.start(), &cancel, &mut |_| {})
                .expect("a small graph");
            for p in mine {
                let v = retro.known_value(&game, p).expect("reached from the start");
                out.push(Sample {
                    pos: *p,
                    rel: v - p.store_margin(),
                    game: index,
                });
            }
        } else {
            let database = Database::Build(class.egdb);
            let config = Config::for_seeds(&game, class.max_left as usize, mine.len(), &database)
                .expect("a built database");
            let solver = Solver::new(game.clone(), config).expect("a solver");
            for p in mine {
                let q = remap(p, game.capacity());
                let v = solver.value(&q, &cancel).expect("not cancelled");
                out.push(Sample {
                    pos: q,
                    rel: v - q.store_margin(),
                    game: index,
                });
            }
        }
        games.push(game);
    }
    out
}

/// Mean absolute error of depth-`depth` searches with `eval` against the exact values.
fn search_mae(games: &[Game], test: &[&Sample], depth: u32, eval: Evaluation) -> f64 {
    let guesses: Vec<i32> = test
        .iter()
        .map(|s| search(&games[s.game], &s.pos, depth, -1000, 1000, eval) - s.pos.store_margin())
        .collect();
    let exact: Vec<i32> = test.iter().map(|s| s.rel).collect();
    mean_absolute_error(&guesses, &exact)
}

fn run_class(class: &Class, rng: &mut Rng) {
    let t0 = Instant::now();
    let per = class.positions / class.boards.len() + 1;
    let mut positions = Vec::new();
    let mut rules_of = Vec::new();
    for rules in &class.boards {
        let got = sample(*rules, class.max_left, per, rng);
        rules_of.extend(std::iter::repeat_n(*rules, got.len()));
        positions.extend(got);
    }
    let t1 = Instant::now();
    let mut games = Vec::new();
    let samples = solve_all(class, &positions, &rules_of, &mut games);
    let t2 = Instant::now();
    let (test, train): (Vec<&Sample>, Vec<&Sample>) =
        samples.iter().partition(|s| held_out(&s.pos));
    let xs: Vec<Vec<f64>> = train
        .iter()
        .map(|s| features(&s.pos).iter().map(|&f| f as f64).collect())
        .collect();
    let ys: Vec<f64> = train.iter().map(|s| s.rel as f64).collect();
    let w = least_absolute(&xs, &ys, 1.0, 20, 0.25).expect("a regular system");
    let weights: &'static Weights = Box::leak(Box::new(
        to_weights(class.name, &w).expect("one per feature"),
    ));
    print_weights(weights);
    let sd = Evaluation::StoreDifference;
    let fitted = Evaluation::Fitted(weights);
    let shipped = Evaluation::fitted(&class.boards[0]);
    let mut row = format!("| {} | {} | {} |", class.name, train.len(), test.len());
    for d in [0, 2, 4] {
        row += &format!(
            " {:.2} / {:.2} / {:.2} |",
            search_mae(&games, &test, d, sd),
            search_mae(&games, &test, d, fitted),
            search_mae(&games, &test, d, shipped)
        );
    }
    println!("// MAE on held-out (store difference / this fit / shipped), depths 0, 2, 4:");
    let test_positions: Vec<Position> = test.iter().map(|s| s.pos).collect();
    println!("// {row}");
    println!(
        "// leaf cost: store difference {:.1} ns, fitted {:.1} ns; sampling {:.1} s, solving {:.1} s, fit and report {:.1} s",
        leaf_cost(&test_positions, sd),
        leaf_cost(&test_positions, fitted),
        (t1 - t0).as_secs_f64(),
        (t2 - t1).as_secs_f64(),
        t2.elapsed().as_secs_f64()
    );
}

fn print_weights(w: &Weights) {
    println!("// {}: {}", w.class, FEATURE_NAMES.join(", "));
    let list: Vec<String> = w.w.iter().map(|c| c.to_string()).collect();
    println!("w: [{}], // {} features", list.join(", "), FEATURES);
}

/// The node count of the search fingerprint (the cases of `data/bench.txt`, one thread,
/// a 64 MiB table, as `kalah bench` runs them) with each evaluation in the deepening
/// before the proofs: `kalah bench` prints the first.
fn bench_nodes(path: &str) {
    let text = std::fs::read_to_string(path).expect("a bench file");
    let cases = bench::read(&text).expect("bench cases");
    for fitted in [false, true] {
        let mut totals = bench::Totals::default();
        for case in &cases {
            let mut config = case
                .fingerprint_config(1, 64)
                .expect("a database in memory");
            if fitted {
                config.evaluation = Evaluation::fitted(case.game.rules());
            }
            totals.add(&case.run(config).expect("a checked solve"));
        }
        let name = if fitted { "fitted" } else { "store difference" };
        println!(
            "// bench nodes with the {name} in the deepening: {}",
            totals.nodes
        );
    }
}

/// The opening weights of the class `kalah-6`: fitted to [`deep_samples`] (the
/// `--deep DEPTH` run), with the mean absolute error on the held-out fifth.
fn run_deep(depth: u8, range: (u32, u32), quick: bool, rng: &mut Rng) {
    let t0 = Instant::now();
    let want = if quick { 500 } else { 2000 };
    let sd = Evaluation::StoreDifference;
    let samples = deep_samples(
        kalah_core::Capture::Standard,
        range,
        depth,
        want,
        sd,
        (1, Players::Mixed),
        rng,
    );
    let t1 = Instant::now();
    let (test, train): (Vec<&(Position, i32)>, Vec<_>) =
        samples.iter().partition(|(p, _)| held_out(p));
    let xs: Vec<Vec<f64>> = train
        .iter()
        .map(|(p, _)| features(p).iter().map(|&f| f as f64).collect())
        .collect();
    let ys: Vec<f64> = train.iter().map(|&&(_, y)| y as f64).collect();
    let w = least_absolute(&xs, &ys, 1.0, 20, 0.25).expect("a regular system");
    let weights = to_weights("kalah-6", &w).expect("one per feature");
    print_weights(&weights);
    let exact: Vec<i32> = test.iter().map(|&&(_, y)| y).collect();
    let zero = vec![0; exact.len()];
    let fitted: Vec<i32> = test.iter().map(|(p, _)| weights.estimate(p)).collect();
    println!(
        "// opening ({} train, {} held out, depth {depth}): MAE store difference {:.2}, fitted {:.2}; sampling and searching {:.1} s",
        train.len(),
        test.len(),
        mean_absolute_error(&zero, &exact),
        mean_absolute_error(&fitted, &exact),
        (t1 - t0).as_secs_f64()
    );
}

/// The mean depth that `nodes`-node analyses of positions of Kalah(6,6) games reach with
/// each evaluation (the `--depths NODES` run).
fn run_depths(nodes: u64, rng: &mut Rng) {
    let cancel = AtomicBool::new(false);
    let rules = Rules::kalah(6, 6);
    let game = Game::new(rules).expect("valid rules");
    let positions: Vec<Position> = sample(rules, 72, 300, rng)
        .into_iter()
        .filter(|p| p.seeds_in_houses() > 30)
        .take(100)
        .collect();
    for eval in [Evaluation::StoreDifference, Evaluation::fitted(&rules)] {
        let config = Config {
            threads: 1,
            hash_mb: 64,
            evaluation: eval,
            ..Config::default()
        };
        let solver = Solver::new(game.clone(), config).expect("a solver");
        let t = Instant::now();
        let mut depth = 0u64;
        for p in &positions {
            let a = solver
                .analyse_lines(p, &Limits::nodes(nodes), 1, &cancel, &mut |_| {})
                .expect("an analysis");
            depth += a.depth as u64;
        }
        println!(
            "// {}: mean depth {:.2} at {nodes} nodes over {} positions, {:.2} s",
            eval.name(),
            depth as f64 / positions.len() as f64,
            positions.len(),
            t.elapsed().as_secs_f64()
        );
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let Some(i) = args.iter().position(|a| a == "--depths") {
        let nodes = args
            .get(i + 1)
            .and_then(|s| s.parse().ok())
            .unwrap_or(20000);
        run_depths(nodes, &mut Rng(7));
        return;
    }
    if let Some(i) = args.iter().position(|a| a == "--deep") {
        let depth = args.get(i + 1).and_then(|s| s.parse().ok()).unwrap_or(10);
        let quick = args.iter().any(|a| a == "--quick");
        let num = |name: &str, default: u32| {
            let at = args.iter().position(|a| a == name);
            at.and_then(|i| args.get(i + 1)?.parse().ok())
                .unwrap_or(default)
        };
        let range = (num("--min-left", 30), num("--max-left", 72));
        run_deep(depth, range, quick, &mut Rng(2026));
        return;
    }
    if let Some(i) = args.iter().position(|a| a == "--bench") {
        bench_nodes(args.get(i + 1).map_or("data/bench.txt", |s| s));
        return;
    }
    let quick = args.iter().any(|a| a == "--quick");
    let seed = args
        .iter()
        .position(|a| a == "--seed")
        .and_then(|i| args.get(i + 1)?.parse().ok())
        .unwrap_or(2026u64);
    let wanted: Vec<&String> = args
        .iter()
        .filter(|a| !a.starts_with("--") && a.parse::<u64>().is_err())
        .collect();
    for class in classes(quick) {
        if wanted.is_empty() || wanted.iter().any(|w| *w == class.name) {
            // Each class its own stream, so that a class alone gets the same data.
            let salt = class
                .name
                .bytes()
                .fold(0u64, |h, b| h.wrapping_mul(31) ^ b as u64);
            run_class(&class, &mut Rng(seed ^ salt));
        }
    }
}
