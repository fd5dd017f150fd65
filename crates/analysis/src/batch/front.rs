//! One batch over the two kinds of game: what a batch needs of a game, as the trait
//! [`Front`], with the sowing games ([`Sowing`](super::Sowing)) and Bao
//! ([`Bao`](super::Bao)) as its two implementations, so that the batch is written once
//! over it: the answer of one position ([`Front::answer`]), driven in input order by
//! [`answer_stream`], the one loop of `kalah batch`, written as the answer line every
//! output of that kind shares ([`crate::wire::answer`], [`crate::wire::answer::bao`]). What differs
//! between the kinds (a parallel solver with its database, or Bao's analysis and game
//! graphs) stays behind the trait; what the command does with the answers (the output
//! file, resuming, the progress shown: [`BatchRun`](super::BatchRun)) is written once
//! above it.

use std::sync::atomic::AtomicBool;
use std::sync::Mutex;

use serde_json::Value;

use super::{Item, Streamed};
use crate::game::AnalysisError;
use crate::run::pool;

/// What a front end needs of one kind of game. `Sync`: a batch answers its positions on
/// several threads at once.
pub trait Front: Sync {
    /// The rules as every answer names them (`Kalah(6,4)`, `Bao(8,2)`): a resumed output
    /// is checked against them.
    fn rules_text(&self) -> String;

    /// The answer of one position of a batch (the position, or the error that kept the
    /// line from one, as an answer line), or why no answer was given: the run was
    /// cancelled ([`AnalysisError::Cancelled`]: the position is answered again when the
    /// run is resumed) or a solve met its graph limit ([`AnalysisError::GraphTooLarge`]).
    fn answer(&self, item: &Item, cancel: &AtomicBool) -> Result<Answered, AnalysisError>;

    /// How many threads answer the positions of a batch at once.
    fn workers(&self) -> usize {
        1
    }
}

/// One position of a batch answered: its answer line and the few words a progress
/// display shows of it.
#[derive(Clone, Debug, PartialEq)]
pub struct Answered {
    /// The answer line (docs/outputs.md).
    pub line: Value,
    /// What the progress shows of the answer (`line 3: +2`).
    pub note: String,
}

/// Answers the items `next` gives (called under a lock as workers become free, until it
/// returns `None`) on the front's [`Front::workers`] threads, handing each answer to
/// `sink` on the calling thread in input order. Stops when `cancel` is raised, a position
/// is not answered, or `sink` returns `false`: the items handed to the sink are a prefix
/// of the input.
pub fn answer_stream(
    front: &dyn Front,
    next: &mut (dyn FnMut() -> Option<Item> + Send),
    cancel: &AtomicBool,
    sink: &mut dyn FnMut(&Item, Answered) -> bool,
) -> Result<Streamed, AnalysisError> {
    let too_large = Mutex::new(None);
    let answered = pool::run_stream_in_order(
        front.workers(),
        next,
        cancel,
        |item: &Item| {
            front
                .answer(item, cancel)
                .map_err(|e| {
                    if let (AnalysisError::GraphTooLarge { limit }, Ok(mut t)) =
                        (e, too_large.lock())
                    {
                        t.get_or_insert(limit);
                    }
                })
                .ok()
        },
        |_, item, answered| sink(&item, answered),
    )?;
    let too_large = too_large.into_inner().ok().flatten();
    Ok(Streamed {
        answered,
        too_large,
    })
}
