//! The target advanced by compare-and-swap, and the worktree that has it
//! checked out updated where it is clean.

use std::path::PathBuf;

use gix::ObjectId;

use crate::error::Result;
use crate::git::repo::Repo;

/// The outcome of [`check`] and [`advance`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Advance {
    /// The ref moved (or, from [`check`], would move); `checkout` is the
    /// worktree updated with it, when the target is checked out.
    Moved { checkout: Option<PathBuf> },
    /// The target is no longer at the tip the landing was built on.
    TargetMoved { now: Option<ObjectId> },
    /// The checkout of the target has local changes (or untracked files) in
    /// paths the landing changes: nothing moved.
    TargetDirty { checkout: PathBuf, paths: Vec<String> },
    /// The checkout of the target has an operation in progress (a merge, a
    /// rebase…): nothing moved.
    TargetBusy { checkout: PathBuf, operation: String },
}

/// Whether `branch` could move from `old` to `new` now; changes nothing.
pub fn check(repo: &Repo, branch: &str, old: ObjectId, new: ObjectId) -> Result<Advance> {
    let _ = (repo, branch, old, new);
    todo!("issue 23: check")
}

/// Move `branch` from `old` to `new` by compare-and-swap and update its
/// checkout; `message` is the reflog message.
pub fn advance(
    repo: &Repo,
    branch: &str,
    old: ObjectId,
    new: ObjectId,
    message: &str,
) -> Result<Advance> {
    let _ = (repo, branch, old, new, message);
    todo!("issue 23: advance")
}
