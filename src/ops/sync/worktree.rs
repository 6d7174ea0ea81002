//! Whether a run's worktree accepts its sync, read before anything is
//! written (the sync still in the merger's memory, so a run refused here
//! leaves no object behind): what [`crate::ops::land::advance::check`]
//! asks of a checkout, answered for trees git cannot see yet.
//!
//! Busy (an operation in progress, an unresolved conflict, the directory
//! gone, a second checkout, a sync left unfinished) as the advance finds
//! it. Then the kernel's in-process proof
//! ([`crate::safety::checkout::certainly_clean`]) says yes when every path
//! the sync changes is certainly up to date; when it is unsure, each such
//! path is read as `git read-tree -m -u` judges it: its index entry must
//! hold the old blob (nothing staged there) and its file must be that blob
//! (hashed); a path only the new tree has must have no index entry (and no
//! untracked file: [`crate::safety::checkout::untracked::in_the_way`]).
//! What is not so is `dirty` (or `untracked`), with the paths. The
//! advance asks git again before anything moves, so this reading is a
//! prediction that never lets more through than git would.

use std::path::Path;

use gix::ObjectId;
use gix::bstr::ByteSlice;

use super::outcome::{Code, Skipped};
use crate::error::{Error, Result};
use crate::git::repo::Repo;
use crate::ops::land::advance::{self, Advance};
use crate::safety::checkout::{certainly_clean, clean, untracked};

fn err(e: impl std::fmt::Display) -> Error {
    Error::Repository(e.to_string())
}

/// `Ok(())` when the checkout of `branch` (at `old`; none at all is fine)
/// would follow a move to `new` (`new` may be in `gix`'s object memory
/// only); else the skip.
pub(super) fn accepts(
    repo: &Repo,
    gix: &gix::Repository,
    branch: &str,
    (old, new): (ObjectId, ObjectId),
) -> Result<std::result::Result<(), Skipped>> {
    let (checkout, index) = match advance::checked_out(repo, branch, old)? {
        Ok(None) => return Ok(Ok(())),
        Ok(Some(found)) => found,
        Err(busy) => return Ok(Err(refused(branch, busy))),
    };
    if index.entries().iter().any(|e| e.stage_raw() != 0) {
        let busy = Advance::TargetBusy {
            checkout,
            operation: advance::UNMERGED.to_owned(),
        };
        return Ok(Err(refused(branch, busy)));
    }
    if certainly_clean(gix, &checkout, &index, old, new).unwrap_or(false) {
        return Ok(Ok(()));
    }
    let dirty = changed_here(gix, &checkout, &index, old, new)?;
    if !dirty.is_empty() {
        let paths = dirty;
        return Ok(Err(refused(
            branch,
            Advance::TargetDirty { checkout, paths },
        )));
    }
    let paths = untracked::in_the_way(gix, &checkout, &index, old, new)?;
    if !paths.is_empty() {
        return Ok(Err(refused(
            branch,
            Advance::TargetIgnored { checkout, paths },
        )));
    }
    Ok(Ok(()))
}

/// The paths the move from `old` to `new` changes that the checkout holds
/// otherwise than `old` has them: staged, or changed in the file.
fn changed_here(
    gix: &gix::Repository,
    checkout: &Path,
    index: &gix::index::File,
    old: ObjectId,
    new: ObjectId,
) -> Result<Vec<String>> {
    let (old_tree, new_tree) = (clean::tree_of(gix, old)?, clean::tree_of(gix, new)?);
    let mut found = Vec::new();
    for change in clean::changes(gix, &old_tree, &new_tree)? {
        let path = change.location().to_owned();
        let was = old_tree
            .lookup_entry_by_path(gix::path::from_bstr(path.as_bstr()).map_err(err)?)
            .map_err(err)?
            .filter(|e| !e.mode().is_tree());
        let entry = index.entry_by_path(path.as_bstr());
        let fine = match (&was, entry) {
            // A directory's own change: its files are listed on their own.
            (None, None) if change.entry_mode().is_tree() => true,
            (None, entry) => entry.is_none(),
            (Some(was), Some(entry)) => {
                entry.id == was.object_id() && on_disk(gix, checkout, path.as_bstr(), entry.id)
            }
            (Some(_), None) => false,
        };
        if !fine {
            found.push(path.to_str_lossy().into_owned());
        }
    }
    found.sort();
    found.dedup();
    Ok(found)
}

/// Whether the file at `path` in `checkout` is the blob `id` (a symlink:
/// its target).
fn on_disk(gix: &gix::Repository, checkout: &Path, path: &gix::bstr::BStr, id: ObjectId) -> bool {
    let Ok(rel) = gix::path::from_bstr(path) else {
        return false;
    };
    let full = checkout.join(rel);
    let bytes = match full.symlink_metadata() {
        Ok(meta) if meta.file_type().is_symlink() => std::fs::read_link(&full)
            .ok()
            .map(|t| t.into_os_string().into_encoded_bytes()),
        Ok(meta) if meta.is_file() => std::fs::read(&full).ok(),
        _ => None,
    };
    bytes.is_some_and(|b: Vec<u8>| {
        gix::objs::compute_hash(gix.object_hash(), gix::objs::Kind::Blob, &b).is_ok_and(|h| h == id)
    })
}

/// What the advance's refusal `busy` (or dirty, ignored, moved) is for a
/// sync of `branch`: its code and words.
pub(super) fn refused(branch: &str, refusal: Advance) -> Skipped {
    match refusal {
        Advance::TargetMoved { now } => Skipped::new(
            Code::BranchMoved,
            match now {
                Some(now) => format!(
                    "{branch} moved to {now} meanwhile (a commit of its own?): kept, nothing lost; the next sync brings the base in"
                ),
                None => format!("{branch} was deleted meanwhile"),
            },
        ),
        Advance::TargetDirty { checkout, paths } => {
            let mut s = Skipped::new(
                Code::Dirty,
                format!(
                    "uncommitted changes in {} at {}, which the sync changes: commit or stash them, then sync again",
                    paths.join(", "),
                    checkout.display()
                ),
            );
            s.paths = paths;
            s
        }
        Advance::TargetIgnored { checkout, paths } => {
            let mut s = Skipped::new(
                Code::Untracked,
                format!(
                    "untracked files where the sync writes: {} at {}",
                    paths.join(", "),
                    checkout.display()
                ),
            );
            s.paths = paths;
            s
        }
        Advance::TargetBusy {
            checkout,
            operation,
        } => {
            let code = if operation == advance::MISSING {
                Code::WorktreeMissing
            } else {
                Code::OperationInProgress
            };
            Skipped::new(code, format!("{operation} at {}", checkout.display()))
        }
        Advance::Moved { .. } => Skipped::new(Code::NotAttempted, "moved"),
    }
}
