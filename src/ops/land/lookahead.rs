//! A queue's runs proved clean ahead of their turn, on a thread of their
//! own, while the runs before them land.
//!
//! The run's worktree check ([`super::refusals::worktree`]: every tracked
//! file's `lstat`, every directory read for untracked names) is more than
//! half of a queued landing's CPU, and the landing around it (the build,
//! the target's compare-and-swap, the checkout, the record) runs on one
//! core. So, when more than one run may land and there is no gate and no
//! `--push`, one reader thread reads the runs' worktrees one after another
//! from the moment the command has its runs (while `conflicts` still
//! orders a queue: the runs in the status set, in id order, until the
//! landing order is known, then in that order), and each run's landing
//! uses its reading. A run whose turn comes before its reading started is
//! read by the landing itself, as without a reader; one being read is
//! waited for.
//!
//! What changes, and why it is safe: a reading may be older than its
//! run's turn, by the landings before it (a fraction of a second for a
//! queue of 20), never older than the command: it is the state of the run
//! when `land` was asked to land it, which is what a user who typed the
//! command means by "a run with uncommitted changes is refused". It was
//! always a reading taken before the build, and what lands is the run's
//! commits, never its worktree's files. A change made after the reading
//! is found by the same rule that finds one made just after the check: the
//! removal after the landing asks the safety kernel again, and keeps a
//! worktree with anything to lose. With a gate (which may run for
//! minutes) or `--push` (which may fetch and retry), nothing is read
//! ahead: each run is read when its turn comes, as before. An error in the
//! reading is the run's own, as if read then; a reading that panicked is
//! taken again by the landing.

use std::cell::RefCell;
use std::collections::{HashMap, VecDeque};
use std::panic::AssertUnwindSafe;
use std::path::PathBuf;
use std::sync::{Condvar, Mutex, MutexGuard};

use crate::error::Result;
use crate::git::repo::Cleanliness;

/// The reading handed to the run it is of (in [`super::one::Env`]).
#[derive(Default)]
pub(super) struct Slot(RefCell<Option<(String, Result<Cleanliness>)>>);

impl Slot {
    pub(super) fn put(&self, id: &str, read: Option<Result<Cleanliness>>) {
        *self.0.borrow_mut() = read.map(|read| (id.to_owned(), read));
    }

    /// The reading of `id`'s worktree, if it was read ahead.
    pub(super) fn take_for(&self, id: &str) -> Option<Result<Cleanliness>> {
        let (read, result) = self.0.borrow_mut().take()?;
        (read == id).then_some(result)
    }
}

/// One run's worktree to read: its id, worktree and administrative
/// directory.
pub(super) type Job = (String, PathBuf, PathBuf);

/// The readings: those still to take, the one being taken, those taken
/// (`None`: it panicked), shared by the reader ([`Readings::serve`]) and
/// the landings ([`Readings::take`]).
#[derive(Default)]
pub(super) struct Readings {
    state: Mutex<State>,
    changed: Condvar,
}

#[derive(Default)]
struct State {
    queue: VecDeque<Job>,
    reading: Option<String>,
    read: HashMap<String, Option<Result<Cleanliness>>>,
    stopped: bool,
}

impl Readings {
    /// Readings of `jobs`, in that order until [`Readings::order`].
    pub(super) fn new(jobs: impl IntoIterator<Item = Job>) -> Self {
        Readings {
            state: Mutex::new(State {
                queue: jobs.into_iter().collect(),
                ..State::default()
            }),
            changed: Condvar::new(),
        }
    }

    fn state(&self) -> MutexGuard<'_, State> {
        // A panic is never raised holding the lock (the reading runs
        // without it), so a poisoned lock still holds whole state.
        self.state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The reader: take the readings one after another until none is left
    /// or [`Readings::stop`].
    pub(super) fn serve(&self) {
        loop {
            let (id, path, admin) = {
                let mut state = self.state();
                if state.stopped {
                    return;
                }
                let Some(job) = state.queue.pop_front() else {
                    return;
                };
                state.reading = Some(job.0.clone());
                job
            };
            let read = if path.is_dir() {
                std::panic::catch_unwind(AssertUnwindSafe(|| {
                    crate::git::repo::cleanliness(&path, &admin)
                }))
                .ok()
            } else {
                // No worktree to read: the landing says what that means.
                None
            };
            let mut state = self.state();
            state.reading = None;
            state.read.insert(id, read);
            self.changed.notify_all();
        }
    }

    /// Read the runs in the landing order `ids` from now on; a run not in
    /// it will not land, and is not read.
    pub(super) fn order(&self, ids: &[&str]) {
        let mut state = self.state();
        let mut queued: HashMap<String, Job> = state
            .queue
            .drain(..)
            .map(|job| (job.0.clone(), job))
            .collect();
        state.queue = ids.iter().filter_map(|id| queued.remove(*id)).collect();
    }

    /// The reading of `id`'s worktree: taken, or waited for while it is
    /// being taken; `None` when it was not (or panicked), so the landing
    /// reads it itself.
    pub(super) fn take(&self, id: &str) -> Option<Result<Cleanliness>> {
        let mut state = self.state();
        loop {
            if let Some(read) = state.read.remove(id) {
                return read;
            }
            if state.reading.as_deref() != Some(id) {
                // Not started: not the reader's any more.
                state.queue.retain(|job| job.0 != id);
                return None;
            }
            state = self
                .changed
                .wait(state)
                .unwrap_or_else(std::sync::PoisonError::into_inner);
        }
    }

    /// No reading started from now on (the one being taken finishes).
    pub(super) fn stop(&self) {
        let mut state = self.state();
        state.stopped = true;
        state.queue.clear();
    }
}

/// Stops the readings when dropped: however the landing ends, the reader
/// is not left reading runs that will not land.
pub(super) struct StopOnDrop<'a>(pub(super) &'a Readings);

impl Drop for StopOnDrop<'_> {
    fn drop(&mut self) {
        self.0.stop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn job(id: &str, path: &str) -> Job {
        (id.to_owned(), PathBuf::from(path), PathBuf::from(path))
    }

    fn queued(readings: &Readings) -> Vec<String> {
        readings.state().queue.iter().map(|j| j.0.clone()).collect()
    }

    #[test]
    fn the_landing_order_reorders_the_readings_and_drops_the_runs_that_will_not_land() {
        let readings = Readings::new(["a", "b", "c", "d"].map(|id| job(id, "/nonexistent")));
        readings.order(&["c", "a", "x"]);
        assert_eq!(queued(&readings), ["c", "a"]);
    }

    #[test]
    fn a_run_whose_reading_has_not_started_is_the_landings_to_read() {
        let readings = Readings::new(["a", "b"].map(|id| job(id, "/nonexistent")));
        assert!(readings.take("b").is_none());
        assert_eq!(queued(&readings), ["a"], "b is no longer the reader's");
    }

    #[test]
    fn a_run_without_a_worktree_directory_is_not_read_and_its_take_does_not_wait() {
        let readings = Readings::new([job("a", "/nonexistent/worktree")]);
        readings.serve();
        assert!(queued(&readings).is_empty());
        assert!(readings.take("a").is_none());
    }

    #[test]
    fn once_stopped_the_reader_starts_nothing() {
        let readings = Readings::new(["a", "b"].map(|id| job(id, "/nonexistent")));
        {
            let _stop = StopOnDrop(&readings);
        }
        readings.serve();
        assert!(readings.state().read.is_empty());
        assert!(queued(&readings).is_empty());
    }

    #[test]
    fn a_reading_being_taken_is_waited_for() {
        let readings = Readings::new([job("a", "/nonexistent")]);
        readings.state().queue.clear();
        readings.state().reading = Some("a".into());
        std::thread::scope(|scope| {
            scope.spawn(|| {
                std::thread::sleep(std::time::Duration::from_millis(50));
                let mut state = readings.state();
                state.reading = None;
                state.read.insert(
                    "a".into(),
                    Some(Ok(Cleanliness {
                        modified: true,
                        ..Default::default()
                    })),
                );
                readings.changed.notify_all();
            });
            let read = readings.take("a").expect("waited for").expect("read");
            assert!(read.modified);
        });
    }
}
