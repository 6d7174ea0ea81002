//! A queue's next run proved clean while this one lands.
//!
//! The run's worktree check ([`super::refusals::worktree`]: every tracked
//! file's `lstat`, every directory read for untracked names) is about half
//! of a queued landing's CPU, and the landing around it (the build, the
//! target's compare-and-swap, the checkout, the record) runs on one core.
//! So, in a queue without a gate and without `--push`, the next run's
//! worktree is read on its own thread while the run before it lands, and
//! its landing uses that reading.
//!
//! What changes, and why it is safe: the reading is older by one landing
//! (tens of milliseconds) than it would have been, which is no weaker than
//! the check itself: it was always a reading taken before the build, and
//! what lands is the run's commits, never its worktree's files. A change
//! made in that moment is found by the same rule that finds one made just
//! after the check: the removal after the landing asks the safety kernel
//! again, and keeps a worktree with anything to lose. With a gate (which
//! may run for minutes) or `--push` (which may fetch and retry), nothing is
//! read ahead: each run is read when its turn comes, as before. An error
//! in the reading is the run's own, as if read then; a reading that
//! panicked is taken again.

use std::cell::RefCell;
use std::collections::HashMap;
use std::path::PathBuf;
use std::thread::{Scope, ScopedJoinHandle};

use crate::error::Result;
use crate::git::repo::Cleanliness;

/// The reading handed to the run it is of (in [`super::run::Env`]).
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

/// Where each run's worktree is, to read it ahead.
pub(super) struct Ahead<'scope> {
    worktrees: HashMap<String, (PathBuf, PathBuf)>,
    reading: Option<(String, ScopedJoinHandle<'scope, Result<Cleanliness>>)>,
}

impl<'scope> Ahead<'scope> {
    /// `worktrees`: each run's id, worktree and administrative directory.
    pub(super) fn new(worktrees: impl IntoIterator<Item = (String, PathBuf, PathBuf)>) -> Self {
        Ahead {
            worktrees: worktrees
                .into_iter()
                .map(|(id, path, admin)| (id, (path, admin)))
                .collect(),
            reading: None,
        }
    }

    /// Start reading the worktree of `id` on a thread of `scope` (nothing
    /// when it has none that is a directory).
    pub(super) fn start<'env>(&mut self, scope: &'scope Scope<'scope, 'env>, id: &str) {
        let Some((path, admin)) = self.worktrees.get(id).cloned() else {
            return;
        };
        if !path.is_dir() {
            return;
        }
        let handle = scope.spawn(move || crate::git::repo::cleanliness(&path, &admin));
        self.reading = Some((id.to_owned(), handle));
    }

    /// The reading of `id`'s worktree started before, if one was.
    pub(super) fn take(&mut self, id: &str) -> Option<Result<Cleanliness>> {
        let (read, handle) = self.reading.take()?;
        if read != id {
            // Not this run's: let it finish, unused.
            let _ = handle.join();
            return None;
        }
        handle.join().ok()
    }
}
