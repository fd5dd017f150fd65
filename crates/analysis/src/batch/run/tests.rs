//! The batch run from end to end: its files, its resume and what it says.

use super::*;
use crate::batch::BaoHow;
use crate::game::setup::RuleOptions;
use kalah_solver::Limits;

fn bao_run<'a>(paths: BatchPaths<'a>) -> BatchRun<'a> {
    BatchRun {
        paths,
        options: BatchOptions {
            name: crate::game::RulesName::Bao,
            rules: RuleOptions {
                houses: Some(4),
                ..RuleOptions::default()
            },
            rules_given: true,
        },
        databases: Vec::new(),
        how: BatchHow {
            sowing: None,
            bao: BaoHow::analyse(Some(Limits::nodes(100))),
        },
    }
}

fn run(batch: BatchRun<'_>, ticks: &mut Vec<BatchTick>) -> Result<BatchEnd, BatchError> {
    batch.run(
        &AtomicBool::new(false),
        &crate::run::solving::tests::small_solving(),
        &mut io::sink(),
        &mut |t| ticks.push(t),
    )
}

#[test]
fn standard_input_is_named_and_a_file_counted_in_its_shard() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.txt");
    std::fs::write(&input, "1\n# comment\n2\n3\n").unwrap();
    assert_eq!(BatchPaths::default().input_name(), "standard input");
    let dash = BatchPaths {
        input: Some(Path::new("-")),
        ..BatchPaths::default()
    };
    assert_eq!(dash.input_name(), "standard input");
    let file = BatchPaths {
        input: Some(&input),
        shard: Some((1, 2)),
        ..BatchPaths::default()
    };
    assert_eq!(file.input_name(), input.display().to_string());
    assert_eq!(file.open_input().unwrap().1, Some(2));
    let missing = dir.path().join("missing");
    let gone = BatchPaths {
        input: Some(&missing),
        ..BatchPaths::default()
    };
    assert!(matches!(
        gone.open_input(),
        Err(BatchError::OpenInput { .. })
    ));
}

#[test]
fn answers_are_written_then_resumed_after_and_never_twice() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.txt");
    let output = dir.path().join("out.jsonl");
    std::fs::write(&input, "0,3,0,0/0,2,0,0/0,1,0,2/0,0,0,0:S\n").unwrap();
    let paths = BatchPaths {
        input: Some(&input),
        output: Some(&output),
        ..BatchPaths::default()
    };
    let mut ticks = Vec::new();
    let end = run(bao_run(paths), &mut ticks).unwrap();
    assert!(matches!(end, BatchEnd::Answered(s) if s.answered == 1));
    assert_eq!(ticks[0], BatchTick::Start { len: Some(1) });
    assert!(matches!(ticks[1], BatchTick::Answered(_)));
    let written = std::fs::read_to_string(&output).unwrap();
    assert_eq!(written.lines().count(), 1);
    // Without --resume the answers are never overwritten.
    let again = run(bao_run(paths), &mut Vec::new());
    assert!(matches!(
        again,
        Err(BatchError::Resume(ResumeError::Exists(_)))
    ));
    // Resumed: nothing is left, a half-written line after the answers is cut off.
    std::fs::write(&output, format!("{written}{{\"line\":2")).unwrap();
    let resumed = BatchPaths {
        resume: true,
        ..paths
    };
    let end = run(bao_run(resumed), &mut Vec::new()).unwrap();
    assert_eq!(end, BatchEnd::NothingLeft { answered: 1 });
    assert_eq!(
        end.summary().as_deref(),
        Some("all 1 positions were already answered")
    );
    assert_eq!(std::fs::read_to_string(&output).unwrap(), written);
}

#[test]
fn an_empty_input_needs_nothing_said_and_errors_name_the_input() {
    let end = BatchEnd::NothingLeft { answered: 0 };
    assert_eq!(end.summary(), None);
    let read = BatchError::Read {
        input: "in.txt".to_string(),
        error: io::Error::other("too long"),
    };
    assert_eq!(read.to_string(), "cannot read in.txt: too long");
}
