//! A sowing game's table for [`Board::export`](crate::game::Board::export): the positions
//! within the depth planned within the memory available, the positions just past them
//! solved in parallel by the command's solver (`crate::export`), their values kept in the
//! partial file (`crate::export::resume`) and taken from it on the next run.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use kalah_core::{Game, Position};
use kalah_io::{Checks, Output};
use kalah_solver::egdb::file::available_memory;

use super::resume::{self, Partial};
use super::table::{self, written_line, TableFormat};
use super::{evaluate, max_positions, plan_bounded, PlanError};
use super::{Export, ExportError, ExportProgress};
use crate::game::AnalysisError;
use crate::run::outputs;
use crate::run::solving::{Solving, SolvingError};

/// A sowing game's table: planned within the memory available, its frontier solved in
/// parallel (resuming from the partial file), written to every output.
pub(super) fn export<E: From<ExportError> + From<SolvingError>>(
    game: &Game,
    start: &Position,
    request: &Export,
    solving: &Solving,
    shown: &dyn ExportProgress,
    cancel: &AtomicBool,
) -> Result<String, E> {
    // Every output is checked and locked before any work.
    let checks = Checks::of(outputs::TABLE, request.force)
        .reading(request.inputs.iter().map(PathBuf::as_path));
    let outputs = request
        .outputs
        .iter()
        .map(|p| Output::open_with(p, &checks))
        .collect::<Result<Vec<_>, _>>()
        .map_err(ExportError::from)?;
    let started = Instant::now();
    // Bounded by the memory: a table too large is refused in its first turns, naming the
    // deepest depth that fits, before anything is solved or allocated for it.
    let budget = max_positions(available_memory());
    let plan = plan_bounded(game, start, request.depth, budget, cancel).map_err(|e| match e {
        PlanError::Cancelled => ExportError::Cancelled {
            kept: "nothing solved yet".to_string(),
        },
        e @ PlanError::TooLarge(_) => ExportError::TooLarge(e.to_string()),
    })?;
    // The values solved so far are kept beside the first regular output (none for streams).
    let partial_path = outputs.iter().find_map(|o| o.sibling(".partial"));
    let header = resume::header(game.rules(), start, request.depth);
    let known = match &partial_path {
        Some(path) => {
            let kept = resume::load(path, &header).map_err(ExportError::Partial)?;
            if kept.damaged > 0 {
                shown.warn(&format!(
                    "warning: {} values in {} failed their check and are solved again",
                    kept.damaged,
                    path.display()
                ));
            }
            kept.values
        }
        None => HashMap::new(),
    };
    let todo = plan.to_solve(&known).len();
    let (solver, workers) = solving.parallel(game, start.seeds_in_houses() as usize, todo)?;
    let partial = match &partial_path {
        Some(path) => Some(Partial::start(path, &header, &known).map_err(ExportError::Partial)?),
        None => None,
    };
    shown.bar(todo, "positions past the table solved");
    if let (false, Some(partial)) = (known.is_empty(), &partial) {
        shown.note(&format!(
            "resuming: {} values kept in {}",
            known.len(),
            partial.path().display()
        ));
    }
    // A failed write to the partial file stops the run as a cancel does.
    let result = evaluate(&solver, &plan, &known, workers, cancel, &|p, v| {
        if partial.as_ref().is_some_and(|f| !f.add(p, v)) {
            cancel.store(true, Ordering::Relaxed);
        }
        shown.inc();
    });
    shown.clear();
    if let Some(partial) = &partial {
        partial.failure().map_err(ExportError::Partial)?;
    }
    let table = result.map_err(|error| {
        let kept = match &partial {
            Some(partial) => format!(
                "the values solved so far are kept in {}; run the same command again to go on",
                partial.path().display()
            ),
            None => "nothing kept: the outputs are not regular files".to_string(),
        };
        match error {
            AnalysisError::Cancelled => ExportError::Cancelled { kept },
            error => ExportError::Analysis { error, kept },
        }
    })?;
    for output in &outputs {
        let text = match request.format_of(output.path()) {
            TableFormat::Json => table::write_json(game, start, request.depth, &table),
            TableFormat::Csv => table::write_csv(game, &table),
        };
        output.replace(text.as_bytes()).map_err(ExportError::from)?;
    }
    if let Some(path) = &partial_path {
        let _ = std::fs::remove_file(path);
    }
    let seconds = started.elapsed().as_secs_f64();
    Ok(written_line(
        table.len(),
        request.depth,
        &request.outputs,
        todo,
        seconds,
    ))
}

#[cfg(test)]
mod tests {
    use super::super::tests::{request, solver, Counted};
    use super::*;
    use crate::export::plan;
    use crate::game::Board;
    use crate::run::solving::tests::small_solving;
    use kalah_core::Rules;

    #[test]
    fn a_sowing_table_is_the_plan_evaluated_in_every_format() {
        let dir = tempfile::tempdir().unwrap();
        let (json, csv) = (dir.path().join("t.json"), dir.path().join("t.csv"));
        let game = Game::new(Rules::kalah(3, 2)).unwrap();
        let start = game.start();
        let board = Board::Sowing(std::sync::Arc::new(game.clone()), start);
        let never = AtomicBool::new(false);
        let asked = request(2, vec![json.clone(), csv.clone()]);
        let shown = Counted::default();
        let line = board
            .export::<ExportError>(&asked, &small_solving(), &shown, &never)
            .unwrap();
        let plan = plan(&game, &start, 2);
        let todo = plan.to_solve(&HashMap::new()).len();
        assert_eq!(shown.done.load(Ordering::Relaxed), todo);
        let table = evaluate(
            &solver(&game),
            &plan,
            &HashMap::new(),
            1,
            &never,
            &|_, _| {},
        )
        .unwrap();
        assert_eq!(
            std::fs::read_to_string(&json).unwrap(),
            table::write_json(&game, &start, 2, &table)
        );
        assert_eq!(
            std::fs::read_to_string(&csv).unwrap(),
            table::write_csv(&game, &table)
        );
        let words = format!(
            "{} positions within 2 turns written to {} and {} ({todo} solved, ",
            table.len(),
            json.display(),
            csv.display()
        );
        assert!(line.starts_with(&words), "{line}");
        assert!(!dir.path().join("t.json.partial").exists());
    }

    #[test]
    fn a_cancelled_sowing_export_says_what_it_kept() {
        let dir = tempfile::tempdir().unwrap();
        let game = Game::new(Rules::kalah(3, 2)).unwrap();
        let board = Board::Sowing(std::sync::Arc::new(game.clone()), game.start());
        let cancelled = AtomicBool::new(true);
        let asked = request(2, vec![dir.path().join("t.json")]);
        let r =
            board.export::<ExportError>(&asked, &small_solving(), &Counted::default(), &cancelled);
        assert!(matches!(&r, Err(ExportError::Cancelled { .. })), "{r:?}");
        assert!(!dir.path().join("t.json").exists());
    }
}
