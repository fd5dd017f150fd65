//! The atlas run on small boards: files written, resumed, and refused when damaged.

use super::*;
use crate::game::setup::RuleOptions;
use crate::run::solving::tests::small_solving;

fn made() -> Made {
    Made {
        command: "kalah atlas".into(),
        version: "kalah test".into(),
        commit: "unknown".into(),
        machine: Machine::here(),
        threads: 1,
        finished: String::new(),
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

#[test]
fn a_finished_board_is_never_solved_again() {
    let dir = tempfile::tempdir().unwrap();
    let stop = AtomicBool::new(false);
    let mut atlas = Atlas::open(&plan("1..2", "1..2"), dir.path(), None).unwrap();
    assert_eq!(atlas.todo().len(), 8);
    let written = atlas
        .run(&small_solving(), &made(), &stop, &|_| {})
        .unwrap();
    assert!(written.iter().all(|b| b.status() == Status::Exact));
    let json = std::fs::read(dir.path().join(JSON)).unwrap();
    drop(atlas);
    let again = Atlas::open(&plan("1..3", "1..2"), dir.path(), None).unwrap();
    assert_eq!(again.todo().len(), 4);
    assert_eq!(again.kept().len(), 8);
    drop(again);
    assert_eq!(std::fs::read(dir.path().join(JSON)).unwrap(), json);
}

#[test]
fn a_damaged_atlas_is_refused_with_what_to_do() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(JSON);
    std::fs::write(
        &path,
        format!("{{\"format\": \"{}\", \"boards\": [\n{{}}", record::FORMAT),
    )
    .unwrap();
    let Err(e) = Atlas::open(&plan("1", "1"), dir.path(), None) else {
        panic!("a damaged atlas is refused")
    };
    assert!(
        e.to_string().contains("move it away to start afresh"),
        "{e}"
    );
    std::fs::write(dir.path().join(BOARDS), "a,b\n1,2\n").unwrap();
    std::fs::remove_file(&path).unwrap();
    let Err(e) = Atlas::open(&plan("1", "1"), dir.path(), None) else {
        panic!("a foreign table is refused")
    };
    assert!(e.to_string().contains("is not a table of boards"), "{e}");
}

#[test]
fn a_board_off_its_family_rules_is_named_and_split_with_them() {
    let kalah = Rules::kalah(6, 5);
    assert_eq!(board_name(&kalah), "Kalah(6,5) standard");
    assert_eq!(
        split_command(&kalah),
        "kalah split --rules kalah --houses 6 --seeds 5 --capture standard --depth 2 --out kalah-6x5"
    );
    let online = kalah_core::Preset::Online.rules(6, 4);
    assert!(
        board_name(&online).contains("end=mover-stuck"),
        "{}",
        board_name(&online)
    );
    let split = split_command(&online);
    assert!(
        split.contains("--end mover-stuck --leftovers owner --early-stop"),
        "{split}"
    );
    let oware = Rules::oware(5, 2);
    assert_eq!(board_name(&oware), "Oware(5,2) twos-threes");
    assert!(!split_command(&oware).contains("--capture"));
}
