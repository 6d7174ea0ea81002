//! The checkout left to git: `git read-tree -m -u <old> <new>`, its dry
//! run, git's refusal read as an outcome, and what a write that stopped
//! part way leaves.
//!
//! git checks every path before it writes any (a refusal writes nothing),
//! then deletes and writes the files, then the index, last. So a refusal
//! git words ([`refused`]) is undone by moving the target back; a failure
//! it does not word — git killed (`kill` of its pid; a Ctrl-C does not
//! reach it, [`crate::git::plumbing::read_tree_two_way`]), a full disk —
//! may have written some files: the checkout is looked at
//! ([`super::unfinished::untouched`]), and when anything of it changed the
//! target stays where the files are going, and the error says how to
//! finish ([`Wrote::Partly`]), as the next landing does.

use std::path::Path;

use gix::ObjectId;

use super::checkout::Held;
use super::{Advance, UNMERGED, unfinished};
use crate::error::{Error, Result};
use crate::git::error::CommandError;
use crate::git::plumbing;
use crate::git::refusal;
use crate::git::repo::Repo;

/// What git's write of the checkout came to.
pub(super) enum Wrote {
    /// The checkout is at `new`.
    Done,
    /// git wrote nothing: why (a refusal, or git's failure as an error).
    Nothing(Result<Advance>),
    /// git stopped part way: the checkout partly at `new`; the error says
    /// how to finish.
    Partly(Error),
}

/// `read-tree -m -u old new` in `checkout`, for the landing that moved
/// `branch` from `old` to `new`.
pub(super) fn write(
    repo: &Repo,
    branch: &str,
    checkout: &Path,
    old: ObjectId,
    new: ObjectId,
) -> Result<Wrote> {
    let Err(failure) = two_way(checkout, None, old, new, false)? else {
        return Ok(Wrote::Done);
    };
    failed(repo, branch, checkout, (old, new), failure)
}

/// [`write`] with the checkout's index held ([`super::checkout::hold`]),
/// as a sync holds its run's index from before the branch moves: git
/// writes the files and a copy of the index (`GIT_INDEX_FILE`, in the
/// worktree's git directory), which is then renamed over the index while
/// the lock is still held. So no `git commit` there can read the index
/// between the branch's move and the index's: it waits (or fails) on the
/// lock throughout, as with the in-process write. A refusal or failure
/// removes the copy; the index is as it was, and the lock goes.
pub(super) fn write_held(
    repo: &Repo,
    branch: &str,
    held: Held,
    old: ObjectId,
    new: ObjectId,
) -> Result<Wrote> {
    let checkout = held.checkout().to_path_buf();
    let copy = held.copy_index()?;
    let wrote = two_way(&checkout, Some(copy.path()), old, new, false);
    match wrote {
        Ok(Ok(())) => held.replace_with(copy).map(|()| Wrote::Done),
        Ok(Err(failure)) => {
            drop((copy, held));
            failed(repo, branch, &checkout, (old, new), failure)
        }
        Err(e) => Err(e),
    }
}

/// What git's `failure` to write the checkout (its files partly written or
/// not) comes to.
fn failed(
    repo: &Repo,
    branch: &str,
    checkout: &Path,
    (old, new): (ObjectId, ObjectId),
    failure: CommandError,
) -> Result<Wrote> {
    let why = failure.to_string();
    let refusal = refused(checkout, failure);
    if refusal.is_ok() || unfinished::untouched(repo, checkout, old, new)? {
        return Ok(Wrote::Nothing(refusal));
    }
    Ok(Wrote::Partly(Error::PartWay(format!(
        "{why}, part way through the checkout of {branch} at {}: {branch} is at {new} (moved \
         from {old}) and its checkout partly updated; {} there finishes the landing (the next \
         landing onto {branch} says so too)",
        checkout.display(),
        unfinished::finish_partly(old, new)
    ))))
}

/// `read-tree -n -m -u old new` in the checkout: would the two-tree merge
/// go through?
pub(super) fn dry_run(checkout: &Path, old: ObjectId, new: ObjectId) -> Result<Advance> {
    match two_way(checkout, None, old, new, true)? {
        Ok(()) => Ok(Advance::Moved {
            checkout: Some(checkout.to_path_buf()),
        }),
        Err(failure) => refused(checkout, failure),
    }
}

/// `read-tree -m -u old new` in the checkout (`-n` when `dry`; with
/// `GIT_INDEX_FILE=<index>` when given). A refusal
/// that names a path "not uptodate" is asked again once after an index
/// refresh (the file may only have been touched, or put back by the
/// in-process checkout after a failure).
fn two_way(
    checkout: &Path,
    index: Option<&Path>,
    old: ObjectId,
    new: ObjectId,
    dry: bool,
) -> Result<std::result::Result<(), CommandError>> {
    let trees = (&*old.to_string(), &*new.to_string());
    match plumbing::read_tree_two_way(checkout, index, trees, dry)? {
        Err(failure) if refusal::read_tree(&failure.stderr).stale => {
            plumbing::refresh_index(checkout, index)?;
            plumbing::read_tree_two_way(checkout, index, trees, dry)
        }
        done => Ok(done),
    }
}

/// git's refusal of the two-tree merge as an outcome: the paths in the way
/// ([`Advance::TargetDirty`]), an unresolved conflict
/// ([`Advance::TargetBusy`]), or, naming none, git's failure as an error.
fn refused(checkout: &Path, failure: CommandError) -> Result<Advance> {
    let found = refusal::read_tree(&failure.stderr);
    if found.unmerged {
        return Ok(Advance::TargetBusy {
            checkout: checkout.to_path_buf(),
            operation: UNMERGED.to_owned(),
        });
    }
    if found.paths.is_empty() {
        return Err(Error::Git(format!("{failure} (in {})", checkout.display())));
    }
    Ok(Advance::TargetDirty {
        checkout: checkout.to_path_buf(),
        paths: found.paths,
    })
}
