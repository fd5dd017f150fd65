//! The atlas against a deliberately simple reference kept in this file: a plain array
//! board sown by the rule text (docs/rules.md §2, §3.1) and an alpha-beta minimax with no
//! table, on every board of 1 to 3 houses and 1 to 3 seeds under both capture rules;
//! resuming a board from its partial file; and the published values against the atlas
//! committed in data/atlas.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::sync::Mutex;

use kalah_analysis::game::setup::RuleOptions;
use kalah_analysis::openings::atlas::partial::{self, Proved};
use kalah_analysis::openings::atlas::record::{self, BoardRecord};
use kalah_analysis::openings::atlas::{Atlas, Captures, Machine, Made, Plan, Status, Tick};
use kalah_analysis::run::solving::{SolverOptions, Solving, Unshown};
use kalah_core::{Capture, Game};
use kalah_solver::Overrides;

/// A board as the rule text draws it: South's houses `0..h`, South's store `h`, North's
/// houses `h+1..=2h`, North's store `2h+1`, counter-clockwise.
#[derive(Clone)]
struct Board {
    pits: Vec<i32>,
    h: usize,
    empty_capture: bool,
}

impl Board {
    fn start(h: usize, seeds: i32, empty_capture: bool) -> Board {
        let mut pits = vec![seeds; 2 * h + 2];
        pits[h] = 0;
        pits[2 * h + 1] = 0;
        Board {
            pits,
            h,
            empty_capture,
        }
    }

    fn store(&self, side: usize) -> usize {
        side * (self.h + 1) + self.h
    }

    fn row(&self, side: usize) -> std::ops::Range<usize> {
        side * (self.h + 1)..side * (self.h + 1) + self.h
    }

    /// Sows house `i` (0-based) of `side`: (the extra turn, the game over).
    fn sow(&mut self, side: usize, i: usize) -> (bool, bool) {
        let n = 2 * self.h + 2;
        let from = side * (self.h + 1) + i;
        let mut seeds = self.pits[from];
        self.pits[from] = 0;
        let mut at = from;
        while seeds > 0 {
            at = (at + 1) % n;
            if at == self.store(1 - side) {
                continue;
            }
            self.pits[at] += 1;
            seeds -= 1;
        }
        let extra = at == self.store(side);
        if !extra && self.row(side).contains(&at) && self.pits[at] == 1 {
            let opposite = 2 * self.h - at;
            if self.pits[opposite] > 0 || self.empty_capture {
                let store = self.store(side);
                self.pits[store] += self.pits[opposite] + 1;
                self.pits[at] = 0;
                self.pits[opposite] = 0;
            }
        }
        let empty = |s: usize| self.row(s).all(|p| self.pits[p] == 0);
        let over = empty(0) || empty(1);
        if over {
            for s in 0..2 {
                let left: i32 = self.row(s).map(|p| self.pits[p]).sum();
                for p in self.row(s) {
                    self.pits[p] = 0;
                }
                let store = self.store(s);
                self.pits[store] += left;
            }
        }
        (extra, over)
    }

    fn score(&self) -> i32 {
        self.pits[self.store(0)] - self.pits[self.store(1)]
    }
}

/// The value from South of `b` with `side` to move, by alpha-beta over every sowing.
fn minimax(b: &Board, side: usize, mut alpha: i32, mut beta: i32) -> i32 {
    let mut best = if side == 0 { i32::MIN } else { i32::MAX };
    for i in 0..b.h {
        if b.pits[side * (b.h + 1) + i] == 0 {
            continue;
        }
        let mut next = b.clone();
        let (extra, over) = next.sow(side, i);
        let v = match (over, extra) {
            (true, _) => next.score(),
            (false, true) => minimax(&next, side, alpha, beta),
            (false, false) => minimax(&next, 1 - side, alpha, beta),
        };
        if side == 0 {
            best = best.max(v);
            alpha = alpha.max(v);
        } else {
            best = best.min(v);
            beta = beta.min(v);
        }
        if alpha >= beta {
            break;
        }
    }
    best
}

/// Every first turn of South (the bins of its sowings, `3-6`) with its value from South.
fn first_turns(b: &Board, prefix: &str, out: &mut BTreeMap<String, i32>) {
    for i in 0..b.h {
        if b.pits[i] == 0 {
            continue;
        }
        let name = match prefix.is_empty() {
            true => (i + 1).to_string(),
            false => format!("{prefix}-{}", i + 1),
        };
        let mut next = b.clone();
        match next.sow(0, i) {
            (_, true) => {
                out.insert(name, next.score());
            }
            (true, false) => first_turns(&next, &name, out),
            (false, false) => {
                out.insert(name, minimax(&next, 1, i32::MIN, i32::MAX));
            }
        }
    }
}

fn made() -> Made {
    Made {
        command: "kalah atlas (test)".into(),
        version: "kalah test".into(),
        commit: "unknown".into(),
        machine: Machine::here(),
        threads: 1,
        finished: String::new(),
    }
}

/// A small quiet solver: `threads` first turns at once (with two or more, the start is
/// solved beside the first turns), a small table, no database.
fn solving(threads: usize) -> Solving<'static> {
    Solving {
        options: SolverOptions {
            overrides: Overrides {
                threads: Some(threads),
                hash_mb: Some(8),
                egdb_seeds: Some(0),
                no_cache: true,
                ..Overrides::default()
            },
            quiet: true,
        },
        shown: &Unshown,
        cancel: None,
    }
}

fn plan(houses: &str, seeds: &str) -> Plan {
    Plan {
        houses: houses.parse().unwrap(),
        seeds: seeds.parse().unwrap(),
        rules: RuleOptions::default(),
        captures: Captures::Both,
    }
}

/// Runs the atlas of `plan` in `dir` on `threads` workers, returning the boards it wrote
/// and the boards begun.
fn run(plan: &Plan, dir: &Path, threads: usize) -> (Vec<BoardRecord>, Vec<String>) {
    let mut atlas = Atlas::open(plan, dir, None).unwrap();
    let begun = Mutex::new(Vec::new());
    let tick = |t: Tick| {
        if let Tick::Board(name, _) = t {
            begun.lock().unwrap().push(name);
        }
    };
    let written = atlas
        .run(&solving(threads), &made(), &AtomicBool::new(false), &tick)
        .unwrap();
    (written, begun.into_inner().unwrap())
}

#[test]
fn every_small_board_and_first_turn_matches_the_simple_reference() {
    let dir = tempfile::tempdir().unwrap();
    let (mut written, _) = run(&plan("1..3", "1..3"), dir.path(), 1);
    // Two workers: the start solved beside the first turns.
    let two = tempfile::tempdir().unwrap();
    written.extend(run(&plan("1..3", "1..3"), two.path(), 2).0);
    assert_eq!(written.len(), 36);
    for b in &written {
        let (h, s) = (b.rules.houses as usize, i32::from(b.rules.seeds));
        let empty = b.rules.capture == Capture::Empty;
        let start = Board::start(h, s, empty);
        let name = format!("Kalah({h},{s}) {}", b.capture());
        assert_eq!(b.status(), Status::Exact, "{name}");
        assert_eq!(
            b.value(),
            Some(minimax(&start, 0, i32::MIN, i32::MAX)),
            "{name}"
        );
        let mut want = BTreeMap::new();
        first_turns(&start, "", &mut want);
        let got: BTreeMap<String, i32> = b
            .turns
            .iter()
            .map(|t| (t.turn.clone(), t.value().unwrap()))
            .collect();
        assert_eq!(got, want, "{name}: every first turn");
        let pie = want.values().map(|v| -v.abs()).max().unwrap();
        assert_eq!(b.pie(), (pie, pie), "{name}: the value with the pie rule");
        for t in &b.turns {
            assert_eq!(t.swap(), Some(want[&t.turn] > 0), "{name} {}", t.turn);
        }
    }
}

#[test]
fn an_interrupted_board_keeps_its_proved_turns_and_ends_as_an_uninterrupted_one() {
    let (whole, cut) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let plan = plan("2..3", "2..3");
    let (straight, _) = run(&plan, whole.path(), 1);
    run(&plan, cut.path(), 2);
    // The board Kalah(3,3) standard as an interrupted run leaves it: not in the atlas,
    // its partial file holding one first turn (with a cost no solve would give it).
    let board = straight
        .iter()
        .find(|b| (b.rules.houses, b.rules.seeds, b.capture()) == (3, 3, "standard"))
        .unwrap();
    let others: Vec<BoardRecord> = straight
        .iter()
        .filter(|b| b.key() != board.key())
        .cloned()
        .collect();
    std::fs::write(cut.path().join("atlas.json"), record::atlas_json(&others)).unwrap();
    let game = Game::new(board.rules).unwrap();
    let kept = &board.turns[board.turns.len() - 1];
    let file = partial::start(
        &partial::path(cut.path(), &board.rules),
        &board.rules,
        &game.start(),
        &partial::Kept::default(),
    )
    .unwrap();
    let sentinel = Proved {
        value: kept.value().unwrap(),
        pv: kept.pv.clone(),
        nodes: 987_654_321,
        seconds: 0.0,
    };
    assert!(file.add_record(&partial::turn_record(&kept.turn, &sentinel)));
    drop(file);
    let (resumed, begun) = run(&plan, cut.path(), 2);
    assert_eq!(
        begun,
        ["Kalah(3,3) standard"],
        "finished boards are not solved again"
    );
    let again = &resumed[0];
    let turn = again.turns.iter().find(|t| t.turn == kept.turn).unwrap();
    assert_eq!(turn.nodes, 987_654_321, "the kept turn is not solved again");
    assert!(!partial::path(cut.path(), &board.rules).exists());
    // The values written are those of the run never interrupted.
    let values = |dir: &Path| {
        let text = std::fs::read_to_string(dir.join("atlas.json")).unwrap();
        record::read_atlas_json(&text)
            .unwrap()
            .into_iter()
            .map(|b| {
                let turns: Vec<_> = b
                    .turns
                    .iter()
                    .map(|t| (t.turn.clone(), t.value()))
                    .collect();
                (b.key(), b.value(), turns, b.pie(), b.status())
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(values(cut.path()), values(whole.path()));
}

/// The published values: Irving, Donkers and Uiterwijk, "Solving Kalah" (2000), empty
/// capture, as this project cites them (crates/solver/tests/exact.rs; (6,4) and (6,5)
/// as the paper's abstract and later accounts give them), and Rawlings (2015): Kalah(6,4)
/// +8 and (6,5) +10 with standard capture, (6,6) +2 with empty capture.
const PUBLISHED: &[(u8, u8, &str, i32)] = &[
    (4, 1, "empty", 2),
    (4, 2, "empty", 6),
    (4, 3, "empty", 8),
    (4, 4, "empty", 2),
    (4, 5, "empty", 2),
    (4, 6, "empty", 0),
    (5, 1, "empty", 0),
    (5, 2, "empty", 0),
    (5, 3, "empty", 8),
    (5, 4, "empty", 12),
    (6, 1, "empty", 2),
    (6, 2, "empty", 10),
    (6, 3, "empty", 2),
    (6, 4, "empty", 10),
    (6, 5, "empty", 12),
    (6, 6, "empty", 2),
    (6, 4, "standard", 8),
    (6, 5, "standard", 10),
];

#[test]
fn the_committed_atlas_agrees_with_every_published_value_it_holds() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/atlas/atlas.json");
    let text = std::fs::read_to_string(&path).expect("the atlas is committed in data/atlas");
    let boards = record::read_atlas_json(&text).unwrap();
    let mut met = 0;
    for &(h, s, capture, want) in PUBLISHED {
        let Some(b) = boards.iter().find(|b| {
            (b.rules.houses, b.rules.seeds, b.capture()) == (h, s, capture)
                && b.rules.family == kalah_core::Family::Kalah
                && b.rules
                    .to_string()
                    .contains("end=row-empty leftovers=owner")
        }) else {
            continue;
        };
        met += 1;
        // Open or exact, the value proved must hold the published one.
        assert!(
            b.lower <= want && want <= b.upper,
            "Kalah({h},{s}) {capture}: published {want}, atlas {}..{}",
            b.lower,
            b.upper
        );
        if let Some(v) = b.value() {
            assert_eq!(v, want, "Kalah({h},{s}) {capture}");
        }
    }
    assert!(met >= 10, "the atlas meets {met} published values");
}
