//! Fuzzing the JSON-lines wire formats and the line readers at scale (`KALAH_FUZZ_CASES`
//! cases a property, see `crates/core/tests/fuzz/mod.rs`): work units, answer lines, the
//! manifest of a split, and the readers of `batch`, `play` and `merge`, on arbitrary bytes
//! and on valid lines damaged every way hostile input damages them (truncated, a digit
//! changed, a field removed, duplicated or given a huge, deeply nested or very long value).
//! Every input is read or refused with an error, never a panic; every valid value printed
//! and read again gives itself back; and however an answer file is damaged, what a merge
//! takes in is true: every bound it holds contains the value a direct solve gives.

use crate::fuzz;

use std::sync::atomic::AtomicBool;
use std::sync::OnceLock;

use fuzz::{any_rules, config, mutate, mutation, random_line, Mutation, HUGE};
use kalah_analysis::batch::{self, parse_shard, Item, Lines, Sharded};
use kalah_analysis::distributed::{split, Claim, Merge, Report, Step, Tree, Unit, Window};
use kalah_analysis::game::setup::typed_turn;
use kalah_analysis::play::{next_typed_line, typed};
use kalah_analysis::wire::answer::{write, AnswerLine};
use kalah_core::{Game, Rules};
use kalah_io::LineReader;
use kalah_solver::{Config, Solver};
use proptest::prelude::*;
use proptest::sample::Index;
use serde_json::Value;

/// A split of Kalah(4,3) two turns deep with every answer `kalah batch` gives for it.
struct Fixture {
    tree: Tree,
    solver: Solver,
    /// The manifest as `kalah split` writes it.
    manifest: String,
    /// The unit lines: every unit in the full window, then in the window around the value.
    units: Vec<String>,
    /// The answer line of each unit line.
    answers: Vec<String>,
    /// Each unit's value, from South.
    truth: Vec<i32>,
    /// The root's value.
    value: i32,
}

/// The answer lines `kalah batch` writes for `units`.
fn batch_answers(solver: &Solver, units: &[String]) -> Vec<String> {
    let items: Vec<Item> = units
        .iter()
        .enumerate()
        .map(|(i, u)| Item::from_bytes(i + 1, u.as_bytes()).unwrap())
        .collect();
    let rules = *solver.game().rules();
    let mut out = vec![String::new(); items.len()];
    let never = AtomicBool::new(false);
    batch::solve_in_order(solver, &items, 1, &never, &mut |i, r| {
        let (line, input) = (items[i].line, items[i].input.as_str());
        out[i] = match &r {
            Ok(a) => write(line, input, &rules, Ok(a)),
            Err(e) => write(line, input, &rules, Err(e)),
        }
        .to_string();
        true
    })
    .unwrap();
    out
}

/// The value of every unit, from the answers in the full window.
fn values(answers: &[String]) -> Vec<i32> {
    answers
        .iter()
        .map(|a| {
            let v: Value = serde_json::from_str(a).unwrap();
            v["value"]
                .as_i64()
                .expect("the full window's answers are exact") as i32
        })
        .collect()
}

fn fixture() -> &'static Fixture {
    static FIXTURE: OnceLock<Fixture> = OnceLock::new();
    FIXTURE.get_or_init(|| {
        let rules = Rules::kalah(4, 3);
        let game = Game::new(rules).unwrap();
        let tree = split(&game, &game.start(), Step::Turn, 2).unwrap();
        // A table that holds every unit's proof: a merge proves its answers again
        // (thousands of times a run), and after the first time each proof is a lookup.
        let config = Config {
            threads: 1,
            hash_mb: 64,
            ..Config::default()
        };
        let solver = Solver::new(game.clone(), config).unwrap();
        let never = AtomicBool::new(false);
        let value = solver
            .solve(&game.start(), &never, &mut |_| {})
            .unwrap()
            .value_from_south();
        let lines = |w: Window| -> Vec<String> {
            let units = tree.units_in(w);
            units.iter().map(|u| u.to_json().to_string()).collect()
        };
        let mut units = lines(Window::full(&rules));
        let truth_answers = batch_answers(&solver, &units);
        let truth = values(&truth_answers);
        units.extend(lines(Window {
            alpha: value - 1,
            beta: value + 1,
        }));
        let answers = batch_answers(&solver, &units);
        Fixture {
            manifest: tree.to_json().to_string(),
            tree,
            solver,
            units,
            answers,
            truth,
            value,
        }
    })
}

/// A JSON value written as raw text, as hostile input writes them: huge and odd numbers,
/// values of the wrong type, deep nesting, very long strings.
fn raw_value() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(&HUGE[..]).prop_map(str::to_string),
        prop::sample::select(vec![
            "null", "true", "\"7\"", "{}", "[]", "[1,2,3]", "[-3,4]", "\"\""
        ])
        .prop_map(str::to_string),
        (prop::sample::select(&HUGE[..]), -50i32..50, any::<bool>()).prop_map(|(h, n, first)| {
            match first {
                true => format!("[{h},{n}]"),
                false => format!("[{n},{h}]"),
            }
        }),
        (1usize..600).prop_map(|d| format!("{}0{}", "[".repeat(d), "]".repeat(d))),
        (1usize..600).prop_map(|d| format!("{}{}", "{\"a\":".repeat(d), "}".repeat(d))),
        (1usize..100_000).prop_map(|n| format!("\"{}\"", "3,".repeat(n))),
        "-?[0-9]{1,25}",
    ]
}

/// Damage done to one field of a JSON object.
#[derive(Clone, Debug)]
enum FieldDamage {
    /// The field removed.
    Remove,
    /// The field's value replaced by raw text.
    Replace(String),
    /// The field written a second time, with raw text (the later one is read).
    Duplicate(String),
}

fn field_damage() -> impl Strategy<Value = FieldDamage> {
    prop_oneof![
        Just(FieldDamage::Remove),
        raw_value().prop_map(FieldDamage::Replace),
        raw_value().prop_map(FieldDamage::Duplicate),
    ]
}

/// The object `line` with one of its fields (picked by `key`) damaged by `damage`.
fn damage_field(line: &str, key: Index, damage: &FieldDamage) -> String {
    let Ok(Value::Object(mut map)) = serde_json::from_str::<Value>(line) else {
        return line.to_string();
    };
    if map.is_empty() {
        return line.to_string();
    }
    let name = map.keys().nth(key.index(map.len())).unwrap().clone();
    const MARK: &str = "\u{1}raw\u{1}";
    match damage {
        FieldDamage::Remove => {
            map.remove(&name);
            Value::Object(map).to_string()
        }
        FieldDamage::Replace(raw) => {
            map.insert(name, Value::from(MARK));
            Value::Object(map)
                .to_string()
                .replace(&Value::from(MARK).to_string(), raw)
        }
        FieldDamage::Duplicate(raw) => {
            let text = Value::Object(map).to_string();
            let name = Value::from(name).to_string();
            format!("{},{name}:{raw}}}", &text[..text.len() - 1])
        }
    }
}

/// A valid line damaged one way or the other: in its bytes, or in one of its fields.
#[derive(Clone, Debug)]
enum Damage {
    Bytes(Mutation),
    Field(Index, FieldDamage),
}

fn damage() -> impl Strategy<Value = Damage> {
    prop_oneof![
        mutation(200_000).prop_map(Damage::Bytes),
        (any::<Index>(), field_damage()).prop_map(|(k, d)| Damage::Field(k, d)),
    ]
}

fn damaged(line: &str, d: &Damage) -> Vec<u8> {
    match d {
        Damage::Bytes(m) => mutate(line.as_bytes(), m),
        Damage::Field(key, f) => damage_field(line, *key, f).into_bytes(),
    }
}

/// Damage done to a manifest: to the whole of it, or to one field of one of its nodes.
#[derive(Clone, Debug)]
enum ManifestDamage {
    Whole(Damage),
    Node(Index, Index, FieldDamage),
}

fn damaged_manifest(manifest: &str, d: &ManifestDamage) -> Vec<u8> {
    let (node, key, fd) = match d {
        ManifestDamage::Whole(d) => return damaged(manifest, d),
        ManifestDamage::Node(node, key, fd) => (node, key, fd),
    };
    let mut v: Value = serde_json::from_str(manifest).unwrap();
    let nodes = v["nodes"].as_array_mut().unwrap();
    let i = node.index(nodes.len());
    let one = damage_field(&nodes[i].to_string(), *key, fd);
    const MARK: &str = "\u{1}node\u{1}";
    nodes[i] = Value::from(MARK);
    v.to_string()
        .replace(&Value::from(MARK).to_string(), &one)
        .into_bytes()
}

/// A unit of any rules at a position reached by play, in the full window or any valid
/// window.
fn any_unit() -> impl Strategy<Value = Unit> {
    (
        any_rules(),
        proptest::collection::vec(any::<Index>(), 0..30),
        any::<u64>(),
        proptest::option::of((-1000i32..1000, 1i32..2000)),
    )
        .prop_map(|(rules, picks, id, window)| {
            let (position, _, _) = random_line(&rules, &picks);
            let window = match window {
                None => Window::full(&rules),
                Some((alpha, width)) => Window {
                    alpha,
                    beta: (alpha + width).min(1000),
                },
            };
            Unit {
                id,
                position,
                window,
                rules,
            }
        })
}

/// Checks what a unit read from `bytes` holds: the line's own id and window, in range,
/// and a line that reads back as itself.
fn check_unit(bytes: &[u8], unit: &Unit) -> Result<(), TestCaseError> {
    let v: Value = serde_json::from_slice(bytes).expect("a unit read is JSON");
    prop_assert_eq!(&v["id"], &Value::from(unit.id));
    if !v["window"].is_null() {
        prop_assert_eq!(&v["window"], &unit.window.to_json());
    }
    let (a, b) = (unit.window.alpha, unit.window.beta);
    prop_assert!(a < b && a >= -1000 && b <= 1000, "{:?}", unit.window);
    let again = Unit::parse(&unit.to_json().to_string());
    prop_assert!(
        again.as_ref().is_ok_and(|a| same_unit(a, unit)),
        "{again:?}"
    );
    Ok(())
}

/// Whether two units are the same as written. A finished game's discarded seeds are not
/// in the board notation (nor needed: nothing is played from it), so a unit at a finished
/// game reads back as the same text, not the same count of discarded seeds.
fn same_unit(a: &Unit, b: &Unit) -> bool {
    match a.position.is_over() {
        true => a.to_json() == b.to_json(),
        false => a == b,
    }
}

/// Merges the answer file `text` (and proves again the bounds it claims), and checks that
/// everything the merge holds is true. A refusal of the file or of a bound is fine.
fn check_merge(text: &[u8]) -> Result<(), TestCaseError> {
    let f = fixture();
    let mut merge = Merge::new(&f.tree);
    if merge.add_answers(text, "answers").is_err() {
        return Ok(());
    }
    if merge
        .verify(&f.solver, 1, &AtomicBool::new(false), &|_, _| {})
        .is_err()
    {
        return Ok(());
    }
    let bounds = merge.bounds();
    for (u, &node) in f.tree.units.iter().enumerate() {
        let (lo, hi) = bounds[node];
        prop_assert!(lo <= f.truth[u] && f.truth[u] <= hi, "unit {u}: {lo}..{hi}");
    }
    prop_assert!(bounds[0].0 <= f.value && f.value <= bounds[0].1);
    let report = Report::new(&merge, &bounds, None);
    if report.exact() {
        prop_assert_eq!(report.root, (f.value, f.value));
    }
    let mut out = Vec::new();
    report.write(true, None, &mut out).unwrap();
    let hypothesis = Report::new(&merge, &bounds, Some(f.value + 2));
    prop_assert_ne!(hypothesis.status(), "confirmed");
    Ok(())
}

/// Checks that an answer line read from `bytes` claims what it says: the number of its
/// `value`, `at_least` or `at_most` as written, not another one.
fn check_claim(bytes: &[u8]) -> Result<(), TestCaseError> {
    let (Ok(line), Ok(v)) = (
        AnswerLine::parse(bytes),
        serde_json::from_slice::<Value>(bytes),
    ) else {
        return Ok(());
    };
    let game = Game::new(fixture().tree.rules).unwrap();
    let Some(pos) = line.position() else {
        return Ok(());
    };
    let (name, n) = match line.claim(&game, &pos) {
        Ok(Claim::Exact { value, .. }) => ("value", value),
        Ok(Claim::AtLeast(n)) => ("at_least", n),
        Ok(Claim::AtMost(n)) => ("at_most", n),
        Err(_) => return Ok(()),
    };
    prop_assert_eq!(v[name].as_i64(), Some(i64::from(n)), "{}", v);
    Ok(())
}

/// Bytes biased towards the characters of positions, units and answers, lines included.
fn noisy_bytes() -> impl Strategy<Value = Vec<u8>> {
    let alphabet = b"0123456789,:-#{}[]\" NSns<>\n\r\t\xff\xc3".to_vec();
    proptest::collection::vec(
        prop_oneof![3 => prop::sample::select(alphabet), 1 => any::<u8>()],
        0..400,
    )
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn a_unit_printed_then_read_is_itself(unit in any_unit()) {
        let line = unit.to_json().to_string();
        let back = Unit::parse(&line);
        prop_assert!(back.as_ref().is_ok_and(|b| same_unit(b, &unit)), "{line}: {back:?}");
        let file = kalah_analysis::wire::unit::to_lines(&[unit.clone(), unit.clone()]);
        prop_assert_eq!(file.lines().count(), 2);
        for l in file.lines() {
            prop_assert!(Unit::parse(l).is_ok_and(|b| same_unit(&b, &unit)), "{l}");
        }
    }

    #[test]
    fn a_damaged_unit_is_read_as_written_or_refused(
        pick in any::<Index>(),
        own in any_unit(),
        d in damage(),
    ) {
        let f = fixture();
        let valid = match pick.index(f.units.len() + 1) {
            k if k < f.units.len() => f.units[k].clone(),
            _ => own.to_json().to_string(),
        };
        let bytes = damaged(&valid, &d);
        let text = String::from_utf8_lossy(&bytes);
        if let Ok(unit) = Unit::parse(&text) {
            check_unit(text.as_bytes(), &unit)?;
        }
    }

    #[test]
    fn any_bytes_as_a_unit_or_an_answer_are_read_or_refused(bytes in noisy_bytes()) {
        let _ = Unit::parse(&String::from_utf8_lossy(&bytes));
        let f = fixture();
        if let Ok(a) = AnswerLine::parse(&bytes) {
            let game = Game::new(f.tree.rules).unwrap();
            let _ = (a.id(), a.position(), a.error(), a.input(), a.line());
            let _ = a.claim(&game, &game.start());
        }
        check_merge(&bytes)?;
    }

    #[test]
    fn a_damaged_manifest_is_read_or_refused_and_what_is_read_merges(
        d in prop_oneof![
            damage().prop_map(ManifestDamage::Whole),
            (any::<Index>(), any::<Index>(), field_damage())
                .prop_map(|(n, k, f)| ManifestDamage::Node(n, k, f)),
        ],
    ) {
        let f = fixture();
        let text = damaged_manifest(&f.manifest, &d);
        let Ok(v) = serde_json::from_slice::<Value>(&text) else { return Ok(()) };
        let Ok(tree) = Tree::from_json(&v) else { return Ok(()) };
        let mut merge = Merge::new(&tree);
        let answers: String = f.answers.iter().map(|a| a.clone() + "\n").collect();
        let _ = merge.add_answers(answers.as_bytes(), "answers");
        let bounds = merge.bounds();
        let _ = merge.needed(&bounds);
        let _ = merge.principal_variation(&bounds);
        for v in [None, Some(f.value), Some(f.value + 1), Some(i32::MAX), Some(i32::MIN)] {
            let report = Report::new(&merge, &bounds, v);
            let mut out = Vec::new();
            report.write(false, None, &mut out).unwrap();
            report.write(true, None, &mut out).unwrap();
        }
    }

    #[test]
    fn the_batch_reads_any_bytes_line_by_line(
        bytes in noisy_bytes(),
        shard in (1usize..4, 1usize..4),
    ) {
        let game = Game::new(Rules::kalah(4, 3)).unwrap();
        let mut last = 0;
        let newlines = bytes.iter().filter(|&&b| b == b'\n').count();
        let items: Vec<Item> = Lines::new(&bytes[..]).map(|i| i.unwrap()).collect();
        for item in &items {
            prop_assert!(item.line > last && item.line <= newlines + 1);
            prop_assert!(!item.input.is_empty() && item.input.trim() == item.input);
            last = item.line;
            let _ = batch::parse(&game, &item.input);
            let _ = Unit::parse(&item.input);
        }
        let (i, n) = (shard.0.min(shard.1), shard.1);
        let some = Sharded::new(Lines::new(&bytes[..]), Some((i, n))).count();
        prop_assert_eq!(some, items.iter().skip(i - 1).step_by(n).count());
        let mut lines = Lines::new(&bytes[..]);
        let (read, _) = batch::first_unit(&mut lines);
        prop_assert!(read.len() <= batch::UNIT_SEARCH);
    }

    #[test]
    fn a_line_reader_gives_the_lines_up_to_the_first_one_too_long(
        bytes in noisy_bytes(),
        limit in 0usize..40,
    ) {
        let mut expected: Vec<&[u8]> = bytes.split(|&b| b == b'\n').collect();
        if expected.last().is_some_and(|l| l.is_empty()) {
            expected.pop();
        }
        let mut reader = LineReader::with_limit(&bytes[..], limit);
        for (k, want) in expected.iter().enumerate() {
            let want = want.strip_suffix(b"\r").unwrap_or(want);
            match reader.next_line() {
                Ok(Some(line)) => {
                    prop_assert!(want.len() <= limit);
                    prop_assert_eq!(line.number, k + 1);
                    prop_assert_eq!(line.bytes, want);
                }
                Ok(None) => prop_assert!(false, "line {} is missing", k + 1),
                Err(e) => {
                    prop_assert!(want.len() > limit, "{e}");
                    let says = format!("line {} ", k + 1);
                    prop_assert!(e.to_string().starts_with(&says), "{e}");
                    prop_assert!(reader.next_line().unwrap().is_none());
                    return Ok(());
                }
            }
        }
        prop_assert!(reader.next_line().unwrap().is_none());
    }

    #[test]
    fn play_reads_any_typed_line_as_a_turn_or_an_error(
        bytes in noisy_bytes(),
        rules in any_rules(),
        picks in proptest::collection::vec(any::<Index>(), 0..20),
    ) {
        let game = Game::new(rules).unwrap();
        let (pos, _, _) = random_line(&rules, &picks);
        let mut reader = LineReader::new(&bytes[..]);
        while let Ok(Some(line)) = next_typed_line(&mut reader) {
            let Ok(line) = line else { continue };
            if let kalah_analysis::play::Typed::Turn(text) = typed(&line) {
                if let Ok(next) = typed_turn(&game, &pos, text) {
                    prop_assert_eq!(next.total_seeds(), pos.total_seeds());
                }
            }
        }
    }

    #[test]
    fn any_shard_is_read_or_refused(text in "\\PC{0,12}|[0-9]{1,22}/[0-9]{1,22}") {
        if let Ok((i, n)) = parse_shard(&text) {
            prop_assert!(1 <= i && i <= n, "{text}");
        }
    }
}

// The defects found while writing the targets above (now fixed), kept as regression
// tests. With its fix taken out, the targets find each of the first two within 20000
// cases (`a_damaged_unit...`, `a_damaged_answer...`); the manifest's only this test finds.

#[test]
fn a_window_end_past_64_bits_of_range_is_refused_not_read_as_zero() {
    // `i64::MIN.abs()` overflowed: a panic in a debug build, and in a release build the
    // window [-9223372036854775808, 5] was read as [0, 5].
    let f = fixture();
    let line = &f.units[0];
    let v: Value = serde_json::from_str(line).unwrap();
    let window = v["window"].to_string();
    for bad in ["[-9223372036854775808,5]", "[-5,-9223372036854775808]"] {
        let damaged = line.replace(&window, bad);
        assert!(Unit::parse(&damaged).is_err(), "{damaged}");
    }
}

#[test]
fn a_value_or_bound_past_32_bits_is_refused_not_cut_to_them() {
    // `4294967302 as i32` is 6: an exact value changed beyond 32 bits, its line kept, was
    // taken as the true value, and a bound likewise as another bound.
    let f = fixture();
    let game = Game::new(f.tree.rules).unwrap();
    for (i, a) in f.answers.iter().enumerate() {
        let mut v: Value = serde_json::from_str(a).unwrap();
        let name = ["value", "at_least", "at_most"]
            .into_iter()
            .find(|n| v.get(*n).is_some())
            .unwrap();
        let n = v[name].as_i64().unwrap();
        v[name] = Value::from(n + (1i64 << 32));
        let line = AnswerLine::parse(v.to_string().as_bytes()).unwrap();
        let pos = line.position().unwrap();
        assert!(line.claim(&game, &pos).is_err(), "{v}");
        let mut merge = Merge::new(&f.tree);
        let text = format!("{}\n{v}\n", f.answers[(i + 1) % f.answers.len()]);
        assert!(merge.add_answers(text.as_bytes(), "forged").is_err(), "{v}");
    }
}

/// The fixture's manifest with the moves of node `i` replaced by `children`.
fn with_children(i: usize, children: Value) -> Value {
    let mut v: Value = serde_json::from_str(&fixture().manifest).unwrap();
    v["nodes"][i]["children"] = children;
    v
}

#[test]
fn a_manifest_node_must_list_every_move_of_its_position_once() {
    // A node in play written with no moves made the merge panic ("an inner node has
    // moves"); one with some of its moves left out took its value from the others, so a
    // forged manifest could make a wrong value exact.
    let f = fixture();
    let n = f.tree.units.len();
    let mut v: Value = serde_json::from_str(&f.manifest).unwrap();
    let last = f.tree.units[n - 1];
    let position = v["nodes"][last]["position"].clone();
    v["nodes"][last] = serde_json::json!({"position": position, "children": []});
    v["units"] = Value::from(n - 1);
    let err = Tree::from_json(&v).unwrap_err();
    assert!(err.0.contains("not the moves of its position"), "{err}");
    // The root without one of its moves, with another twice, with one more than it has.
    let children = v["nodes"][0]["children"].as_array().unwrap().clone();
    let mut fewer = children.clone();
    fewer.remove(0);
    let mut twice = children.clone();
    twice[0] = twice[1].clone();
    let mut more = children.clone();
    more.push(children[0].clone());
    for bad in [fewer, twice, more] {
        let err = Tree::from_json(&with_children(0, Value::Array(bad))).unwrap_err();
        assert!(err.0.contains("node 0 of the manifest"), "{err}");
    }
    // The manifest as written reads.
    let tree = Tree::from_json(&with_children(0, Value::Array(children))).unwrap();
    assert_eq!(tree, f.tree);
}

/// The cases of the properties that merge whole answer files: each proves every answer
/// again (tens of solves a case), so a tenth of the others' cases.
fn merge_config() -> ProptestConfig {
    ProptestConfig {
        cases: (fuzz::cases() / 10).max(16),
        ..config()
    }
}

proptest! {
    #![proptest_config(merge_config())]

    #[test]
    fn the_answers_of_a_batch_merge_into_the_value_whatever_their_order(
        order in Just(()).prop_perturb(|_, mut rng| {
            let n = fixture().answers.len();
            let mut order: Vec<usize> = (0..n).collect();
            for i in (1..n).rev() {
                order.swap(i, rng.random_range(0..=i));
            }
            order
        }),
    ) {
        let f = fixture();
        let text: String = order.iter().map(|&i| f.answers[i].clone() + "\n").collect();
        let mut merge = Merge::new(&f.tree);
        merge.add_answers(text.as_bytes(), "answers").unwrap();
        merge.verify(&f.solver, 1, &AtomicBool::new(false), &|_, _| {}).unwrap();
        let bounds = merge.bounds();
        prop_assert_eq!(bounds[0], (f.value, f.value));
    }

    #[test]
    fn a_damaged_answer_never_makes_a_merge_hold_a_wrong_bound(
        keep in proptest::collection::vec(any::<bool>(), 64),
        pick in any::<Index>(),
        d in damage(),
        ended in any::<bool>(),
    ) {
        let f = fixture();
        let k = pick.index(f.answers.len());
        let mut text = Vec::new();
        for (i, a) in f.answers.iter().enumerate() {
            if i == k {
                text.extend(damaged(a, &d));
                text.push(b'\n');
            } else if keep[i % keep.len()] {
                text.extend(a.as_bytes());
                text.push(b'\n');
            }
        }
        if !ended {
            text.pop();
        }
        check_claim(&damaged(&f.answers[k], &d))?;
        check_merge(&text)?;
    }
}
