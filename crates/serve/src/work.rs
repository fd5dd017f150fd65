//! The board's work and its limit (`--max-analyses`): the analyses that are live, the
//! endgame database builds they wait for, and the slots that builds and solves take.
//!
//! A slot is work on the processors: a database build in progress takes one, however many
//! analyses wait for it (none included: a build winding down after its cancel keeps its
//! slot until its thread ends), and so does an analysis solving. An analysis waiting for
//! a build or for a slot takes none. At most `max` slots are taken at once, and at most
//! `max` analyses are live (a new one beyond that cancels the oldest). A build is
//! cancelled as soon as no analysis waits for it any more, and two builds of the same
//! key never run at once (they would write the same files).

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// How often a wait looks at its analysis's cancel flag.
const POLL: Duration = Duration::from_millis(50);

/// The work of the board: live analyses, builds, slots. `K` names what a build makes
/// (the rules of a game), `T` is what it gives each analysis waiting for it.
pub struct Work<K, T> {
    max: usize,
    state: Mutex<State<K, T>>,
    changed: Condvar,
}

/// What [`Work`] keeps under its lock.
struct State<K, T> {
    /// The live analyses, oldest first: their ids and cancel flags.
    analyses: VecDeque<(u64, Arc<AtomicBool>)>,
    /// The builds whose thread runs, and the finished ones still waited on.
    builds: Vec<Build<K, T>>,
    /// Slots taken: running builds and solving analyses.
    taken: usize,
    /// Of those, the solving analyses.
    solving: usize,
    next_id: u64,
    stopping: bool,
}

/// One build.
struct Build<K, T> {
    id: u64,
    key: K,
    /// Raised when no analysis waits for it any more, or when the server stops.
    cancel: Arc<AtomicBool>,
    /// Analyses waiting for it.
    waiting: usize,
    /// Its thread has not ended.
    running: bool,
    /// What it made, once made.
    result: Option<T>,
}

/// Why an analysis got no slot or no build.
#[derive(Debug, PartialEq, Eq)]
pub enum Stopped {
    /// The analysis was cancelled while it waited.
    Cancelled,
    /// The build could not run (its thread could not start, or it ended without a result).
    Failed(String),
}

/// A slot an analysis solves in; given back when dropped.
pub struct Slot<'a, K, T> {
    work: &'a Work<K, T>,
}

impl<K, T> Drop for Slot<'_, K, T> {
    fn drop(&mut self) {
        let mut state = self.work.lock();
        state.taken -= 1;
        state.solving -= 1;
        self.work.changed.notify_all();
    }
}

/// The work at one moment, for `/api/work` and the tests.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Snapshot<K> {
    /// The limit.
    pub max: usize,
    /// Live analyses.
    pub analyses: usize,
    /// Slots taken (running builds and solving analyses): never above `max`.
    pub taken: usize,
    /// Analyses solving.
    pub solving: usize,
    /// The builds whose thread runs: what each makes, how many analyses wait for it, and
    /// whether it was cancelled (and is winding down).
    pub builds: Vec<(K, usize, bool)>,
}

impl<K, T> Work<K, T> {
    /// The state, whether or not a thread panicked while holding the lock (every change
    /// under it leaves it consistent).
    fn lock(&self) -> MutexGuard<'_, State<K, T>> {
        self.state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Waits for a change, or for [`POLL`] (a cancel flag is not a change).
    fn wait<'a>(&self, state: MutexGuard<'a, State<K, T>>) -> MutexGuard<'a, State<K, T>> {
        match self.changed.wait_timeout(state, POLL) {
            Ok((state, _)) => state,
            Err(poisoned) => poisoned.into_inner().0,
        }
    }
}

impl<K, T> Work<K, T>
where
    K: Clone + PartialEq + Send + 'static,
    T: Clone + Send + 'static,
{
    /// No work yet; at most `max` slots and live analyses (at least one).
    pub fn new(max: usize) -> Work<K, T> {
        Work {
            max: max.max(1),
            state: Mutex::new(State {
                analyses: VecDeque::new(),
                builds: Vec::new(),
                taken: 0,
                solving: 0,
                next_id: 0,
                stopping: false,
            }),
            changed: Condvar::new(),
        }
    }

    /// A new live analysis with the cancel flag `cancel`, cancelling the oldest while
    /// `max` are live (and this one at once when the server is stopping); its id.
    pub fn admit(&self, cancel: Arc<AtomicBool>) -> u64 {
        let mut state = self.lock();
        if state.stopping {
            cancel.store(true, Relaxed);
        }
        while state.analyses.len() >= self.max {
            if let Some((_, old)) = state.analyses.pop_front() {
                old.store(true, Relaxed);
            }
        }
        let id = state.next_id;
        state.next_id += 1;
        state.analyses.push_back((id, cancel));
        self.changed.notify_all();
        id
    }

    /// The analysis `id` has ended.
    pub fn leave(&self, id: u64) {
        self.lock().analyses.retain(|(other, _)| *other != id);
        self.changed.notify_all();
    }

    /// Cancels every analysis and build, now and from now on (the server is stopping).
    pub fn stop_all(&self) {
        let mut state = self.lock();
        state.stopping = true;
        for (_, cancel) in &state.analyses {
            cancel.store(true, Relaxed);
        }
        for build in &state.builds {
            build.cancel.store(true, Relaxed);
        }
        self.changed.notify_all();
    }

    /// Waits at most `timeout` for every build's thread to end; true if they all did.
    pub fn wait_builds(&self, timeout: Duration) -> bool {
        let end = Instant::now() + timeout;
        let mut state = self.lock();
        while state.builds.iter().any(|b| b.running) {
            if Instant::now() >= end {
                return false;
            }
            state = self.wait(state);
        }
        true
    }

    /// The work now.
    pub fn snapshot(&self) -> Snapshot<K> {
        let state = self.lock();
        Snapshot {
            max: self.max,
            analyses: state.analyses.len(),
            taken: state.taken,
            solving: state.solving,
            builds: state
                .builds
                .iter()
                .filter(|b| b.running)
                .map(|b| (b.key.clone(), b.waiting, b.cancel.load(Relaxed)))
                .collect(),
        }
    }

    /// What a wait for a slot tells its client.
    fn busy_message(&self, state: &State<K, T>) -> String {
        let builds = state.taken - state.solving;
        format!(
            "waiting for a free slot: {} of {} (--max-analyses) are taken by {builds} \
             endgame database build(s) and {} solve(s)",
            state.taken, self.max, state.solving
        )
    }

    /// A slot to solve in, once one is free; `waiting` is told (once) when none is free
    /// at first. An error when `cancel` is raised first.
    pub fn slot(
        &self,
        cancel: &AtomicBool,
        waiting: &mut dyn FnMut(&str),
    ) -> Result<Slot<'_, K, T>, Stopped> {
        let mut state = self.lock();
        let mut told = false;
        loop {
            if cancel.load(Relaxed) {
                return Err(Stopped::Cancelled);
            }
            if state.taken < self.max {
                state.taken += 1;
                state.solving += 1;
                return Ok(Slot { work: self });
            }
            if !std::mem::replace(&mut told, true) {
                waiting(&self.busy_message(&state));
            }
            state = self.wait(state);
        }
    }

    /// What the build of `key` makes: the build in progress joined, else `make` run on a
    /// thread of its own once a slot is free (and any earlier build of `key` has ended),
    /// with a cancel flag raised when no analysis waits for it any more. Waits while
    /// `cancel` is not raised; leaving (cancelled) cancels the build when no other
    /// analysis waits for it. `waiting` is told (once) when the build cannot start at once.
    pub fn build<F>(
        self: &Arc<Self>,
        key: &K,
        cancel: &AtomicBool,
        waiting: &mut dyn FnMut(&str),
        make: F,
    ) -> Result<T, Stopped>
    where
        F: FnOnce(&AtomicBool) -> T + Send + 'static,
    {
        let mut state = self.lock();
        let mut make = Some(make);
        let mut told = false;
        let id = loop {
            if cancel.load(Relaxed) {
                return Err(Stopped::Cancelled);
            }
            let live = |b: &&mut Build<K, T>| b.key == *key && !b.cancel.load(Relaxed);
            if let Some(build) = state.builds.iter_mut().find(live) {
                build.waiting += 1;
                break build.id;
            }
            let same_running = state.builds.iter().any(|b| b.key == *key && b.running);
            if !same_running && state.taken < self.max {
                if let Some(make) = make.take() {
                    break self.start_build(&mut state, key, make)?;
                }
            }
            if !std::mem::replace(&mut told, true) {
                let message = match same_running {
                    true => "waiting for a cancelled build of these rules to stop".to_string(),
                    false => self.busy_message(&state),
                };
                waiting(&message);
            }
            state = self.wait(state);
        };
        self.wait_for_build(state, id, cancel)
    }

    /// Starts a build of `key` (a slot taken, one analysis waiting) on a thread of its
    /// own; its id.
    fn start_build<F>(
        self: &Arc<Self>,
        state: &mut State<K, T>,
        key: &K,
        make: F,
    ) -> Result<u64, Stopped>
    where
        F: FnOnce(&AtomicBool) -> T + Send + 'static,
    {
        let id = state.next_id;
        let cancel = Arc::new(AtomicBool::new(state.stopping));
        let (work, flag) = (self.clone(), cancel.clone());
        // The thread ends the build (it waits for the lock held here until the build is
        // listed); where it cannot start, nothing was taken.
        std::thread::Builder::new()
            .name(format!("build-{id}"))
            .spawn(move || {
                let mut ended = BuildEnd {
                    work,
                    id,
                    result: None,
                };
                ended.result = Some(make(&flag));
            })
            .map_err(|e| Stopped::Failed(format!("could not start the build's thread: {e}")))?;
        state.next_id += 1;
        state.taken += 1;
        state.builds.push(Build {
            id,
            key: key.clone(),
            cancel,
            waiting: 1,
            running: true,
            result: None,
        });
        Ok(id)
    }

    /// Waits for the result of build `id` (this analysis counted among its waiters).
    fn wait_for_build(
        &self,
        mut state: MutexGuard<'_, State<K, T>>,
        id: u64,
        cancel: &AtomicBool,
    ) -> Result<T, Stopped> {
        loop {
            let Some(build) = state.builds.iter_mut().find(|b| b.id == id) else {
                return Err(Stopped::Failed("the build was lost".to_string()));
            };
            let outcome = match (&build.result, build.running) {
                (Some(result), _) => Some(Ok(result.clone())),
                (None, false) => Some(Err(Stopped::Failed(
                    "the endgame database build ended without a result".to_string(),
                ))),
                (None, true) if cancel.load(Relaxed) => Some(Err(Stopped::Cancelled)),
                (None, true) => None,
            };
            if let Some(outcome) = outcome {
                build.waiting -= 1;
                if build.waiting == 0 {
                    build.cancel.store(true, Relaxed);
                }
                state.builds.retain(|b| b.running || b.waiting > 0);
                self.changed.notify_all();
                return outcome;
            }
            state = self.wait(state);
        }
    }
}

/// Marks its build ended when the build's thread ends, with its result (none if `make`
/// panicked), giving back its slot.
struct BuildEnd<K, T> {
    work: Arc<Work<K, T>>,
    id: u64,
    result: Option<T>,
}

impl<K, T> Drop for BuildEnd<K, T> {
    fn drop(&mut self) {
        let mut state = self.work.lock();
        state.taken -= 1;
        if let Some(build) = state.builds.iter_mut().find(|b| b.id == self.id) {
            build.running = false;
            build.result = self.result.take();
        }
        state.builds.retain(|b| b.running || b.waiting > 0);
        self.work.changed.notify_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicUsize;

    /// A build that runs until cancelled (counting the builds running at once and the
    /// most seen), or for `ms` milliseconds; its result is its key.
    fn builder(
        running: &Arc<AtomicUsize>,
        most: &Arc<AtomicUsize>,
        key: u32,
        ms: u64,
    ) -> impl FnOnce(&AtomicBool) -> Result<u32, String> + Send + 'static {
        let (running, most) = (running.clone(), most.clone());
        move |cancel: &AtomicBool| {
            let now = running.fetch_add(1, Relaxed) + 1;
            most.fetch_max(now, Relaxed);
            let start = Instant::now();
            let result = loop {
                if cancel.load(Relaxed) {
                    break Err("cancelled".to_string());
                }
                if start.elapsed() >= Duration::from_millis(ms) {
                    break Ok(key);
                }
                std::thread::sleep(Duration::from_millis(5));
            };
            running.fetch_sub(1, Relaxed);
            result
        }
    }

    type TestWork = Arc<Work<u32, Result<u32, String>>>;

    /// A test analysis: its cancel flag and its thread, whose result is the build's.
    type Client = (
        Arc<AtomicBool>,
        std::thread::JoinHandle<Result<Result<u32, String>, Stopped>>,
    );

    /// Starts an analysis that waits for the build of `key` on a thread; its cancel flag
    /// and the thread (its result: the build's).
    fn analysis(
        work: &TestWork,
        key: u32,
        make: impl FnOnce(&AtomicBool) -> Result<u32, String> + Send + 'static,
    ) -> Client {
        let cancel = Arc::new(AtomicBool::new(false));
        let id = work.admit(cancel.clone());
        let (w, c) = (work.clone(), cancel.clone());
        let thread = std::thread::spawn(move || {
            let out = w.build(&key, &c, &mut |_| {}, make);
            w.leave(id);
            out
        });
        (cancel, thread)
    }

    fn wait_until(what: &str, mut f: impl FnMut() -> bool) {
        let start = Instant::now();
        while !f() {
            assert!(start.elapsed() < Duration::from_secs(20), "no {what}");
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    /// Four analyses of four keys with a limit of two: never more than two builds run,
    /// the cancelled analyses' builds stop, and once every client has left nothing runs.
    #[test]
    fn builds_count_toward_the_limit_and_stop_with_their_clients() {
        let work: TestWork = Arc::new(Work::new(2));
        let (running, most) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
        let mut clients = Vec::new();
        for key in 0..4 {
            clients.push(analysis(&work, key, builder(&running, &most, key, 60_000)));
            let snap = work.snapshot();
            assert!(snap.taken <= 2 && snap.analyses <= 2, "{snap:?}");
        }
        // The two newest start their builds once the two cancelled ones have stopped.
        // (Until the two oldest clients see their cancel, their builds may still show as
        // live: wait for the state itself, not for any two live builds.)
        wait_until("two builds of the newest", || {
            let snap = work.snapshot();
            let live: Vec<u32> = snap.builds.iter().filter(|b| !b.2).map(|b| b.0).collect();
            live.len() == 2 && live.contains(&2) && live.contains(&3) && snap.taken == 2
        });
        let keys: Vec<u32> = work.snapshot().builds.iter().map(|b| b.0).collect();
        assert_eq!(keys.len(), 2);
        assert!(keys.contains(&2) && keys.contains(&3), "{keys:?}");
        for (cancel, _) in &clients {
            cancel.store(true, Relaxed);
        }
        for (i, (_, thread)) in clients.into_iter().enumerate() {
            assert_eq!(
                thread.join().unwrap(),
                Err(Stopped::Cancelled),
                "client {i}"
            );
        }
        assert!(work.wait_builds(Duration::from_secs(20)));
        let snap = work.snapshot();
        assert_eq!((snap.taken, snap.analyses, snap.builds.len()), (0, 0, 0));
        assert_eq!(running.load(Relaxed), 0);
        assert!(
            most.load(Relaxed) <= 2,
            "{} builds at once",
            most.load(Relaxed)
        );
    }

    /// Analyses of the same key share one build, which goes on while one of them still
    /// waits for it, and each gets its result.
    #[test]
    fn a_build_is_shared_and_outlives_only_its_last_client() {
        let work: TestWork = Arc::new(Work::new(3));
        let (running, most) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
        let (first, a) = analysis(&work, 7, builder(&running, &most, 7, 300));
        let (_second, b) = analysis(&work, 7, builder(&running, &most, 7, 300));
        wait_until("both waiting", || {
            work.snapshot().builds.first().is_some_and(|b| b.1 == 2)
        });
        first.store(true, Relaxed);
        assert_eq!(a.join().unwrap(), Err(Stopped::Cancelled));
        assert_eq!(b.join().unwrap(), Ok(Ok(7)));
        assert_eq!(most.load(Relaxed), 1, "one build for both");
        assert!(work.wait_builds(Duration::from_secs(5)));
        assert_eq!(work.snapshot().taken, 0);
    }

    /// A slot waits while builds hold every slot, and is given back when dropped.
    #[test]
    fn solves_wait_for_a_slot_that_builds_hold() {
        let work: TestWork = Arc::new(Work::new(1));
        let (running, most) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
        let (cancel, build) = analysis(&work, 1, builder(&running, &most, 1, 60_000));
        wait_until("the build", || work.snapshot().taken == 1);
        let mut told = String::new();
        let never = Arc::new(AtomicBool::new(false));
        let waiter = {
            let (work, never) = (work.clone(), never.clone());
            std::thread::spawn(move || {
                let slot = work.slot(&never, &mut |m| told = m.to_string());
                (slot.is_ok(), told)
            })
        };
        std::thread::sleep(Duration::from_millis(200));
        assert!(
            !waiter.is_finished(),
            "a slot while the build holds the only one"
        );
        cancel.store(true, Relaxed);
        assert_eq!(build.join().unwrap(), Err(Stopped::Cancelled));
        let (got, told) = waiter.join().unwrap();
        assert!(got);
        assert!(told.contains("1 of 1") && told.contains("build"), "{told}");
        assert_eq!(work.snapshot().taken, 0, "the slot is given back");
    }

    /// Stopping cancels the builds, and the wait for them ends.
    #[test]
    fn stopping_cancels_every_build() {
        let work: TestWork = Arc::new(Work::new(2));
        let (running, most) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
        let (_c, a) = analysis(&work, 1, builder(&running, &most, 1, 60_000));
        wait_until("the build", || work.snapshot().taken == 1);
        work.stop_all();
        assert!(work.wait_builds(Duration::from_secs(20)));
        assert_ne!(a.join().unwrap(), Ok(Ok(1)), "the build was cancelled");
        let late = Arc::new(AtomicBool::new(false));
        work.admit(late.clone());
        assert!(
            late.load(Relaxed),
            "an analysis after the stop is cancelled at once"
        );
    }
}
