//! Trains the learned evaluation of Kalah on six houses (`kalah_solver::eval::ntuple`,
//! shipped in `data/kalah6-learned.txt` for standard capture and
//! `data/kalah6-empty-learned.txt` for empty capture):
//! `cargo run --release -p kalah-solver --features examples --example train_ntuple -- [--quick] [--seed N]
//! [--capture standard|empty] [--depth D] [--threads T] [--exact N] [--deep N] [--epochs N]
//! [--out FILE] [--data FILE] [--leaves store|learned] [--players mixed|strong]` (`--players`:
//! who plays the games the fuller boards come from, `eval_data::Players`; `--capture`: the capture rule
//! of the games and of the class trained, standard by default; `--leaves`: the evaluation at the leaves of
//! the analyses that value the fuller boards, the store difference by default; `learned`
//! is the one compiled in, to bootstrap a second round from the first; `--data`: the generated values are kept in FILE and read from it when
//! it exists, to try fits on the same data).
//!
//! It generates its own data (nothing is downloaded; the same seed and threads give the
//! same data and weights): positions of Kalah(6,4), (6,5) and (6,6) games (the sampling of
//! `fit_eval`), valued exactly where they have at most 30 seeds in the houses (the solver
//! with a 16-seed endgame database built in memory) and by a depth-D analysis with the
//! store difference at its leaves above; the target is the value less the store margin.
//! A fifth of the boards is held out (by a hash of the board). The tables are fitted by
//! stochastic gradient descent on the Huber loss, rounded to integers, written with their
//! provenance (to the shipped file unless `--quick`; `--out FILE` anywhere), and judged on
//! the held-out positions against the store difference and the fitted evaluation; the leaf
//! cost of each is timed.
use std::time::Instant;

use kalah_core::{Capture, Position, Rules, Side};
use kalah_solver::eval::fit::mean_absolute_error;
use kalah_solver::eval::ntuple::{indices, ACTIVE, ENTRIES, SCALE};
use kalah_solver::eval::{Evaluation, NTuple};

mod eval_data;
use eval_data::{deep_samples, exact_samples, held_out, leaf_cost, Players, Rng};

/// One training position: the table entries it reads, its target (seeds), and whether
/// its value is exact.
struct Row {
    pos: Position,
    ix: [u32; ACTIVE],
    target: f32,
    exact: bool,
}

/// The options of a run.
struct Options {
    quick: bool,
    seed: u64,
    depth: u8,
    threads: usize,
    exact: usize,
    deep: usize,
    epochs: usize,
    out: Option<String>,
    data: Option<String>,
    leaves: String,
    capture: Capture,
    players: Players,
}

/// The value of option `name`, given as `given`, among `choices` (the first when not
/// given); exits with a message naming the choices otherwise.
fn choice<T: Copy>(name: &str, given: Option<String>, choices: &[(&str, T)]) -> T {
    let Some(given) = given else {
        return choices[0].1;
    };
    match choices.iter().find(|(n, _)| *n == given) {
        Some(&(_, v)) => v,
        None => {
            let names: Vec<&str> = choices.iter().map(|(n, _)| *n).collect();
            eprintln!("{name}: `{given}` is {}", names.join(" or "));
            std::process::exit(2);
        }
    }
}

fn options() -> Options {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let value = |name: &str| {
        let at = args.iter().position(|a| a == name)?;
        args.get(at + 1).cloned()
    };
    let quick = args.iter().any(|a| a == "--quick");
    let num =
        |name: &str, default: usize| value(name).and_then(|v| v.parse().ok()).unwrap_or(default);
    let capture = choice(
        "--capture",
        value("--capture"),
        &[("standard", Capture::Standard), ("empty", Capture::Empty)],
    );
    let players = choice(
        "--players",
        value("--players"),
        &[("mixed", Players::Mixed), ("strong", Players::Strong)],
    );
    let out = value("--out").or_else(|| {
        (!quick).then(|| {
            format!(
                "{}/../../data/{}",
                env!("CARGO_MANIFEST_DIR"),
                shipped_file(capture)
            )
        })
    });
    Options {
        quick,
        seed: num("--seed", 2026) as u64,
        depth: num("--depth", 10) as u8,
        threads: num("--threads", 2),
        exact: num("--exact", if quick { 4000 } else { 16000 }),
        deep: num("--deep", if quick { 1500 } else { 8000 }),
        epochs: num("--epochs", 60),
        out,
        data: value("--data"),
        leaves: value("--leaves").unwrap_or_else(|| "store".to_string()),
        capture,
        players,
    }
}

/// The class of the tables trained under `capture`.
fn class(capture: Capture) -> &'static str {
    match capture {
        Capture::Standard => "kalah-6",
        Capture::Empty => "kalah-6-empty",
    }
}

/// The shipped weights file of the class of `capture`, in `data/`.
fn shipped_file(capture: Capture) -> &'static str {
    match capture {
        Capture::Standard => "kalah6-learned.txt",
        Capture::Empty => "kalah6-empty-learned.txt",
    }
}

/// The rules of Kalah(6, `seeds`) under `capture`.
fn kalah6(capture: Capture, seeds: u8) -> Rules {
    Rules {
        capture,
        ..Rules::kalah(6, seeds)
    }
}

/// Fits the tables to `train` by stochastic gradient descent on the Huber loss (squared
/// within 2 seeds of the target, absolute beyond), the learning rate falling from 0.02 to
/// 0.001 per entry over `epochs` passes in a seeded order; returns the weights in seeds.
fn fit(train: &[&Row], epochs: usize, rng: &mut Rng) -> Vec<f32> {
    let mut w = vec![0f32; ENTRIES];
    let mut order: Vec<usize> = (0..train.len()).collect();
    let (first, last) = (0.02f32, 0.001f32);
    for e in 0..epochs {
        let lr = first * (last / first).powf(e as f32 / (epochs.max(2) - 1) as f32);
        for i in (1..order.len()).rev() {
            order.swap(i, rng.below(i + 1));
        }
        let mut loss = 0f64;
        for &k in &order {
            let r = train[k];
            let guess: f32 = r.ix.iter().map(|&i| w[i as usize]).sum();
            let err = guess - r.target;
            loss += err.abs() as f64;
            let g = err.clamp(-2.0, 2.0) * lr;
            for &i in &r.ix {
                w[i as usize] -= g;
            }
        }
        if e % 10 == 0 || e + 1 == epochs {
            eprintln!(
                "epoch {e}: learning rate {lr:.4}, train MAE before rounding {:.3}",
                loss / train.len() as f64
            );
        }
    }
    w
}

/// The integer tables of the weights `w` in seeds, of the class `class`.
fn to_tables(w: &[f32], class: &str) -> NTuple {
    let weights: Vec<i16> = w
        .iter()
        .map(|&x| {
            (x * SCALE as f32)
                .round()
                .clamp(i16::MIN as f32, i16::MAX as f32) as i16
        })
        .collect();
    NTuple::new(class, &weights).expect("one weight per entry")
}

/// Mean absolute error of `eval` on `rows` against their targets (the value less the
/// store margin: `eval.score` less the margin).
fn mae(eval: Evaluation, rows: &[&Row]) -> f64 {
    let guesses: Vec<i32> = rows
        .iter()
        .map(|r| eval.score(&r.pos, r.pos.store_margin()) - r.pos.store_margin())
        .collect();
    let targets: Vec<i32> = rows.iter().map(|r| r.target as i32).collect();
    mean_absolute_error(&guesses, &targets)
}

/// Samples: positions with their value less the store margin.
type Samples = Vec<(Position, i32)>;

/// Writes the samples to `path` (`--data`, a cache for trying other fits on the same
/// data): a line per position, `exact|deep board stores0 stores1 side value`.
fn save(path: &str, exact: &Samples, deep: &Samples) {
    let mut text = String::new();
    for (kind, set) in [("exact", exact), ("deep", deep)] {
        for (p, v) in set {
            let [a, b] = p.stores();
            let side = if p.side_to_move() == Side::South {
                'S'
            } else {
                'N'
            };
            text += &format!("{kind} {:x} {a} {b} {side} {v}\n", p.packed_board());
        }
    }
    eval_data::write_own_file(path, &["exact ", "deep "], &text);
    eprintln!("data written to {path}");
}

/// The samples of a file [`save`] wrote, `None` where there is none (or it does not read).
fn load(path: &str) -> Option<(Samples, Samples)> {
    let text = std::fs::read_to_string(path).ok()?;
    let (mut exact, mut deep) = (Vec::new(), Vec::new());
    for line in text.lines() {
        let f: Vec<&str> = line.split_whitespace().collect();
        let [kind, board, a, b, side, v] = f[..] else {
            return None;
        };
        let side = if side == "S" {
            Side::South
        } else {
            Side::North
        };
        let stores = [a.parse().ok()?, b.parse().ok()?];
        let p = Position::from_packed(6, u128::from_str_radix(board, 16).ok()?, stores, side);
        let set = if kind == "exact" {
            &mut exact
        } else {
            &mut deep
        };
        set.push((p, v.parse().ok()?));
    }
    eprintln!(
        "data read from {path}: {} exact, {} deep",
        exact.len(),
        deep.len()
    );
    Some((exact, deep))
}

fn main() {
    let o = options();
    let t0 = Instant::now();
    let boards = [4, 5, 6].map(|seeds| kalah6(o.capture, seeds));
    let mut rng = Rng(o.seed);
    let sd = Evaluation::StoreDifference;
    let cached = o.data.as_deref().and_then(load);
    let exact = match &cached {
        Some((e, _)) => e.clone(),
        None => exact_samples(&boards, 30, 16, o.exact, &mut rng),
    };
    let t1 = Instant::now();
    let deep = match &cached {
        Some((_, d)) => d.clone(),
        None => {
            let leaves = Evaluation::from_name(&o.leaves, &boards[2])
                .expect("--leaves: store, fitted or learned");
            deep_samples(
                o.capture,
                (30, 72),
                o.depth,
                o.deep,
                leaves,
                (o.threads, o.players),
                &mut rng,
            )
        }
    };
    let t2 = Instant::now();
    if let (Some(path), None) = (&o.data, &cached) {
        save(path, &exact, &deep);
    }
    let rows: Vec<Row> = exact
        .iter()
        .map(|&(p, v)| (p, v, true))
        .chain(deep.iter().map(|&(p, v)| (p, v, false)))
        .map(|(pos, v, exact)| Row {
            pos,
            ix: indices(&pos),
            target: v as f32,
            exact,
        })
        .collect();
    let (test, train): (Vec<&Row>, Vec<&Row>) = rows.iter().partition(|r| held_out(&r.pos));
    eprintln!(
        "{} exact and {} deep values; {} train, {} held out",
        exact.len(),
        deep.len(),
        train.len(),
        test.len()
    );
    // The fit's own stream: the same order whether the data were generated or read.
    let w = fit(&train, o.epochs, &mut Rng(o.seed ^ 0x05ee_df17));
    let tables: &'static NTuple = Box::leak(Box::new(to_tables(&w, class(o.capture))));
    let t3 = Instant::now();

    let learned = Evaluation::Learned(tables);
    let fitted = Evaluation::fitted(&boards[2]);
    let shipped = Evaluation::learned(&boards[2]);
    let part =
        |exact: bool| -> Vec<&Row> { test.iter().copied().filter(|r| r.exact == exact).collect() };
    let train_part =
        |exact: bool| -> Vec<&Row> { train.iter().copied().filter(|r| r.exact == exact).collect() };
    let mut report = Vec::new();
    report.push(format!(
        "cargo run --release -p kalah-solver --features examples --example train_ntuple --{} --capture {} --seed {} --depth {} --threads {} --exact {} --deep {} --epochs {} --leaves {}{}",
        if o.quick { " --quick" } else { "" },
        match o.capture {
            Capture::Standard => "standard",
            Capture::Empty => "empty",
        },
        o.seed,
        o.depth,
        o.threads,
        o.exact,
        o.deep,
        o.epochs,
        o.leaves,
        match o.players {
            Players::Mixed => String::new(),
            p => format!(" --players {}", p.name()),
        }
    ));
    report.push(format!(
        "data: {} exact values (at most 30 seeds in the houses), {} depth-{} values ({} at the leaves; 31 to 72 seeds; {} players), Kalah(6,4..6), class {}; {} train, {} held out by board",
        exact.len(),
        deep.len(),
        o.depth,
        o.leaves,
        o.players.name(),
        class(o.capture),
        train.len(),
        test.len()
    ));
    report.push(
        "held-out MAE in seeds (store difference / fitted / learned [/ shipped before]):"
            .to_string(),
    );
    for (name, ex) in [("exact values", true), ("deep values", false)] {
        let t = part(ex);
        report.push(format!(
            "  {name}: {} positions: {:.2} / {:.2} / {:.2} / {:.2}; train {:.2}",
            t.len(),
            mae(sd, &t),
            mae(fitted, &t),
            mae(learned, &t),
            mae(shipped, &t),
            mae(learned, &train_part(ex)),
        ));
    }
    let timed: Vec<Position> = test.iter().map(|r| r.pos).collect();
    report.push(format!(
        "leaf cost (ns of CPU a call): store difference {:.1}, fitted {:.1}, learned {:.1}",
        leaf_cost(&timed, sd),
        leaf_cost(&timed, fitted),
        leaf_cost(&timed, learned)
    ));
    report.push(format!(
        "time: exact values {:.0} s, analyses {:.0} s, fit {:.0} s",
        (t1 - t0).as_secs_f64(),
        (t2 - t1).as_secs_f64(),
        (t3 - t2).as_secs_f64()
    ));
    for line in &report {
        println!("{line}");
    }
    if let Some(path) = &o.out {
        let text = tables.to_text(&format!(
            "The learned evaluation of Kalah on six houses, class {} (kalah_solver::eval::ntuple).\n\
             Layout: docs/evaluation.md; written by the example train_ntuple:\n{}",
            class(o.capture),
            report.join("\n")
        ));
        eval_data::write_own_file(path, &["# The learned evaluation"], &text);
        println!("written: {path}");
    }
}
