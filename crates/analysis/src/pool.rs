//! The worker pool: `workers` rayon threads take jobs `0..n` strictly in index order
//! from one shared counter, so the early jobs finish first (a batch can write its answers
//! in input order while later ones run) and a cancelled run has done a prefix of the work,
//! give or take the jobs in flight.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::Relaxed};
use std::sync::mpsc;

use crate::AnalysisError;

/// Runs `job(i)` for every `i` in `0..n` on `workers` threads and hands each result to
/// `sink` on the calling thread, in index order. Stops taking new jobs once `cancel` is
/// raised or `sink` returns `false`; results after the first missing one are then dropped.
/// Returns how many results went to `sink`.
pub(crate) fn run_in_order<T, J, S>(
    workers: usize,
    n: usize,
    cancel: &AtomicBool,
    job: J,
    mut sink: S,
) -> Result<usize, AnalysisError>
where
    T: Send,
    J: Fn(usize) -> Option<T> + Sync,
    S: FnMut(usize, T) -> bool,
{
    let workers = workers.clamp(1, n.max(1));
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(workers)
        .thread_name(|i| format!("kalah-analysis-{i}"))
        .build()
        .map_err(|e| AnalysisError::Threads(e.to_string()))?;
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel::<(usize, Option<T>)>();
    let mut delivered = 0;
    std::thread::scope(|s| {
        // The pool's scope blocks until every worker is done, so it runs on its own thread
        // while this one receives.
        s.spawn(|| {
            pool.scope(|scope| {
                for _ in 0..workers {
                    let tx = tx.clone();
                    let (next, stop, job) = (&next, &stop, &job);
                    scope.spawn(move |_| loop {
                        if stop.load(Relaxed) || cancel.load(Relaxed) {
                            break;
                        }
                        let i = next.fetch_add(1, Relaxed);
                        if i >= n {
                            break;
                        }
                        if tx.send((i, job(i))).is_err() {
                            break;
                        }
                    });
                }
            });
            drop(tx);
        });
        // Results that arrived ahead of a slower earlier job wait here.
        let mut waiting = std::collections::BTreeMap::new();
        let mut gap = false;
        for (i, result) in rx.iter() {
            if gap {
                continue;
            }
            waiting.insert(i, result);
            while let Some(result) = waiting.remove(&delivered) {
                let accepted = match result {
                    Some(t) => sink(delivered, t),
                    None => false,
                };
                if !accepted {
                    // Cancelled (no result) or refused by the sink: nothing after it goes out.
                    gap = true;
                    stop.store(true, Relaxed);
                    break;
                }
                delivered += 1;
            }
        }
    });
    Ok(delivered)
}
