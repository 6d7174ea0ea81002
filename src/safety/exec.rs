//! The destroying primitives, each behind a [`Permit`]: the only callers of
//! `git worktree remove`, of the compare-and-swap branch delete, and of a
//! branch's move back (a landing undone). A test
//! (`tests/integration/kernel.rs`) fails when anything outside
//! `src/safety/` calls the unguarded functions beneath them.

use super::Permit;
use crate::error::{Error, Result};
use crate::git::cmd::Git;
use crate::git::error::CommandError;
use crate::git::repo::Repo;

/// `git worktree remove -- <rel_path>`, never forced (see
/// [`Git::worktree_remove_unguarded`]), with a permit for that worktree.
pub fn worktree_remove(
    git: &Git,
    rel_path: &str,
    permit: &Permit,
) -> Result<std::result::Result<(), CommandError>> {
    if !permit.covers_worktree(rel_path) {
        return Err(Error::Internal(format!("no permit to remove {rel_path}")));
    }
    git.worktree_remove_unguarded(rel_path)
}

/// Delete `refs/heads/<branch>` if it still points at `expected`, with a
/// permit for that branch at that tip.
pub fn delete_branch(
    repo: &Repo,
    branch: &str,
    expected: gix::ObjectId,
    permit: &Permit,
) -> Result<()> {
    if !permit.covers_branch(branch, expected) {
        return Err(Error::Internal(format!(
            "no permit to delete {branch} at {expected}"
        )));
    }
    crate::git::refs::delete_branch_unguarded(repo.gix(), branch, expected)
}

/// Move `refs/heads/<branch>` from `from` to `to` by compare-and-swap
/// (`message` the reflog's, the reflog made if missing), through the ref
/// layer (a `reference-transaction` hook runs), with a permit for that
/// very move: `from` kept in the trash (see [`super::rewrite_branch`]).
/// `Err` when the branch is not at `from` (moved meanwhile): nothing moved.
pub fn rewrite_branch(
    repo: &Repo,
    branch: &str,
    from: gix::ObjectId,
    to: gix::ObjectId,
    message: &str,
    permit: &Permit,
) -> Result<()> {
    if !permit.covers_rewrite(branch, from, to) {
        return Err(Error::Internal(format!(
            "no permit to move {branch} from {from} to {to}"
        )));
    }
    let full = format!("refs/heads/{branch}");
    let update = crate::git::refs::Edit::Update {
        name: full.clone(),
        old: from,
        new: to,
    };
    crate::git::refs::apply(repo.gix(), message, true, &[update])
        .map_err(|e| Error::RefWrite(format!("could not move {full}: {e}")))
}

/// Move `refs/heads/<branch>` back from `from` to `to` by compare-and-swap
/// (`message` the reflog's), with a permit for that very move (see
/// [`super::undo_advance`]).
pub fn rewind_branch(
    repo: &Repo,
    branch: &str,
    from: gix::ObjectId,
    to: gix::ObjectId,
    message: &str,
    permit: &Permit,
) -> Result<()> {
    if !permit.covers_rewind(branch, from, to) {
        return Err(Error::Internal(format!(
            "no permit to move {branch} back from {from} to {to}"
        )));
    }
    crate::git::plumbing::update_ref(
        repo.root(),
        &format!("refs/heads/{branch}"),
        &to.to_string(),
        &from.to_string(),
        message,
    )
}

/// Send `signal` (`SIGTERM`, then `SIGKILL`) to the process `pid`, with a
/// permit for it (see [`super::reap`]), only while it is still the process
/// the permit was made for (its start time unchanged: a reused pid is
/// never signalled). `false`: it is gone.
pub fn signal_process(pid: u32, kill: bool, permit: &Permit) -> Result<bool> {
    let Some(start) = permit.process_start(pid) else {
        return Err(Error::Internal(format!("no permit to signal pid {pid}")));
    };
    if super::reap::stat(pid).is_none_or(|s| s.start != start || s.state == 'Z') {
        return Ok(false);
    }
    let Some(target) = rustix::process::Pid::from_raw(pid as i32) else {
        return Ok(false);
    };
    let signal = if kill {
        rustix::process::Signal::KILL
    } else {
        rustix::process::Signal::TERM
    };
    match rustix::process::kill_process(target, signal) {
        Ok(()) => Ok(true),
        Err(rustix::io::Errno::SRCH) => Ok(false),
        Err(e) => Err(Error::Repository(format!(
            "could not signal pid {pid}: {e}"
        ))),
    }
}

/// The checkout at `checkout` (its repository `wt`, its `index` read under
/// `lock`) moved from `old` to `new` along `steps`, with a permit for that
/// ([`super::checkout::permit`]); see [`super::checkout::write`].
/// `Ok(false)`: nothing changed.
#[allow(clippy::too_many_arguments)]
pub fn update_checkout(
    permit: &Permit,
    repo: &gix::Repository,
    wt: &gix::Repository,
    (checkout, old, new): (&std::path::Path, gix::ObjectId, gix::ObjectId),
    index: gix::index::File,
    lock: gix::lock::File,
    steps: &[super::checkout::Step],
) -> Result<bool> {
    if !permit.covers_checkout(checkout, old, new) {
        return Err(Error::Internal(format!(
            "no permit to update the checkout at {}",
            checkout.display()
        )));
    }
    super::checkout::write::update(permit, repo, wt, checkout, index, lock, steps)
}
