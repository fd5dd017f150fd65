//! The worker pool: `workers` rayon threads take jobs strictly in input order from one
//! shared source (a counter, or a reader), so the early jobs finish first (a batch can
//! write its answers in input order while later ones run) and a cancelled run has done a
//! prefix of the work, give or take the jobs in flight.

use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::{mpsc, Mutex};

use crate::game::AnalysisError;

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
    let mut count = 0..n;
    run_stream_in_order(
        workers.clamp(1, n.max(1)),
        &mut || count.next(),
        cancel,
        |&i: &usize| job(i),
        |i, _, t| sink(i, t),
    )
}

/// [`run_in_order`] over the inputs that `next` gives (called under a lock by the workers
/// as they become free, until it returns `None`): `job(&input)` runs on a worker and
/// `sink(index, input, result)` on the calling thread, in input order.
pub(crate) fn run_stream_in_order<I, T, J, S>(
    workers: usize,
    next: &mut (dyn FnMut() -> Option<I> + Send),
    cancel: &AtomicBool,
    job: J,
    mut sink: S,
) -> Result<usize, AnalysisError>
where
    I: Send,
    T: Send,
    J: Fn(&I) -> Option<T> + Sync,
    S: FnMut(usize, I, T) -> bool,
{
    let workers = workers.max(1);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(workers)
        .thread_name(|i| format!("kalah-analysis-{i}"))
        .build()
        .map_err(|e| AnalysisError::Threads(e.to_string()))?;
    let source = Mutex::new((0usize, next));
    let stop = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel::<(usize, I, Option<T>)>();
    let delivered = std::thread::scope(|s| {
        // The pool's scope blocks until every worker is done, so it runs on its own thread
        // while this one receives.
        s.spawn(|| {
            pool.scope(|scope| {
                for _ in 0..workers {
                    let tx = tx.clone();
                    let (source, stop, job) = (&source, &stop, &job);
                    scope.spawn(move |_| loop {
                        if stop.load(Relaxed) || cancel.load(Relaxed) {
                            break;
                        }
                        let taken = match source.lock() {
                            Ok(mut guard) => {
                                let (count, next) = &mut *guard;
                                next().map(|input| {
                                    *count += 1;
                                    (*count - 1, input)
                                })
                            }
                            Err(_) => None,
                        };
                        let Some((i, input)) = taken else {
                            break;
                        };
                        let result = job(&input);
                        if tx.send((i, input, result)).is_err() {
                            break;
                        }
                    });
                }
            });
            drop(tx);
        });
        deliver_in_order(rx, &stop, &mut sink)
    });
    Ok(delivered)
}

/// Hands the results coming from `rx` to `sink` in index order, holding back those that
/// arrive ahead of an earlier one; at the first missing result (cancelled) or refused one,
/// raises `stop` and drops everything after it. Returns how many went to `sink`.
fn deliver_in_order<I, T, S>(
    rx: mpsc::Receiver<(usize, I, Option<T>)>,
    stop: &AtomicBool,
    sink: &mut S,
) -> usize
where
    S: FnMut(usize, I, T) -> bool,
{
    let mut delivered = 0;
    // Results that arrived ahead of a slower earlier job wait here.
    let mut waiting = std::collections::BTreeMap::new();
    let mut gap = false;
    for (i, input, result) in rx.iter() {
        if gap {
            continue;
        }
        waiting.insert(i, (input, result));
        while let Some((input, result)) = waiting.remove(&delivered) {
            let accepted = match result {
                Some(t) => sink(delivered, input, t),
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
    delivered
}
