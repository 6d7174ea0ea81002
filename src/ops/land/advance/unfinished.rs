//! A checkout a landing left behind: the process stopped (`kill -9`, a
//! crash, the machine) after the target's ref moved and before
//! `read-tree -m -u` updated the worktree that has it checked out
//! (`land-after-ref`). The user's files are untouched, but the index is
//! still at the old tip while `HEAD` is at the new one, so `git status`
//! shows the landing reversed, as staged changes.
//!
//! Recognised, on the next landing, from what git keeps: the branch's
//! newest reflog entry is a landing's (its message starts with
//! [`REFLOG_PREFIX`]), from `before` to the tip, and every path that entry
//! changed still has, in the checkout's index, the blob it had at `before`.
//! Such a checkout is refused ([`Advance::TargetBusy`]) with the command
//! that finishes it: landing on top would carry the reversal along. When
//! the stop came while the in-process checkout was writing
//! (`land-after-files`), the files the landing changes are (some or all)
//! at the tip and the index, still at `before`, is locked: the message
//! says to remove the lock and record the landing with
//! `git read-tree -m -i` (which, unlike `-m -u`, does not refuse the files
//! already written). When git's own `read-tree` stopped part way (killed:
//! no lock left, but some files of the landing written, deleted or added
//! since the index cached them), the message gives [`finish_partly`]'s
//! command, which sets exactly the landing's paths to the tip.

use std::path::Path;

use gix::ObjectId;
use gix::bstr::BStr;

use super::Advance;
use crate::error::{Error, Result};
use crate::git::repo::Repo;
use crate::safety::checkout::clean::tree_of;

/// How every reflog message of a landing begins ([`super::advance`] adds
/// it when the caller's message lacks it), so a landing's move can be told
/// from the user's own.
pub const REFLOG_PREFIX: &str = "git-loop land";

/// How every reflog message of a sync's move of a run's branch begins
/// (`git loop sync`, through [`super::rewrite`]): recognised as a
/// landing's is, its checkout left behind named an unfinished sync.
pub const SYNC_PREFIX: &str = "git-loop sync";

fn err(e: impl std::fmt::Display) -> Error {
    Error::Repository(e.to_string())
}

/// [`Advance::TargetBusy`] when the checkout at `checkout` is still at the
/// tip before the landing that moved `branch` to `tip`.
pub(super) fn landing(
    repo: &Repo,
    branch: &str,
    tip: ObjectId,
    checkout: &Path,
    index: &gix::index::File,
) -> Result<Option<Advance>> {
    let Some((before, what)) = landed_from(repo.gix(), branch, tip)? else {
        return Ok(None);
    };
    if !index_still_at(repo.gix(), index, before, tip)? {
        return Ok(None);
    }
    let git_dir = crate::git::repo::open_worktree(checkout)?
        .git_dir()
        .to_path_buf();
    let lock = git_dir.join("index.lock");
    let operation = if lock.exists() {
        // Stopped while the in-process checkout wrote the files (all, some
        // or none of them): the index, still at `before`, is locked.
        format!(
            "unfinished {what}: {branch} moved from {before} to {tip} and its checkout was \
             being updated when the {what} stopped; if no git command is running there, \
             remove {} (and any loop-land-*.tmp beside it), then \
             `git read-tree -m -i {before} {tip}` there records the landing in the index; a \
             file it had not written yet then shows in `git status` as changed back to \
             {before}, and `git restore <path>` finishes it",
            lock.display()
        )
    } else if partly_written(repo.gix(), checkout, index, before, tip)? {
        // git's read-tree stopped part way (killed): some files at the tip.
        format!(
            "unfinished {what}: {branch} moved from {before} to {tip}, its checkout only \
             partly updated; {} there finishes it",
            finish_partly(before, tip)
        )
    } else {
        format!(
            "unfinished {what}: {branch} moved from {before} to {tip}, its checkout did not \
             follow; `git read-tree -m -u {before} {tip}` there finishes it"
        )
    };
    Ok(Some(Advance::TargetBusy {
        checkout: checkout.to_path_buf(),
        operation,
    }))
}

/// The tip `branch` had before it was moved to `tip`, when its newest
/// reflog entry is that move and a landing's (or a sync's: the word says).
pub(super) fn landed_from(
    gix: &gix::Repository,
    branch: &str,
    tip: ObjectId,
) -> Result<Option<(ObjectId, &'static str)>> {
    let name = format!("refs/heads/{branch}");
    let Some(newest) = crate::git::refs::reflog(gix, &name).into_iter().next() else {
        return Ok(None);
    };
    let Some(before) = newest.old else {
        return Ok(None);
    };
    let what = if newest.message.starts_with(REFLOG_PREFIX.as_bytes()) {
        "landing"
    } else if newest.message.starts_with(SYNC_PREFIX.as_bytes()) {
        "sync"
    } else {
        return Ok(None);
    };
    let moved = newest.new == tip && !before.is_null() && before != tip;
    Ok(moved.then_some((before, what)))
}

/// Whether every path that differs between `before` and `tip` has, in the
/// checkout's `index`, the blob it had at `before` (and at least one such
/// path decides: a change of mode alone does not).
fn index_still_at(
    gix: &gix::Repository,
    index: &gix::index::File,
    before: ObjectId,
    tip: ObjectId,
) -> Result<bool> {
    let (old_tree, new_tree) = (tree_of(gix, before)?, tree_of(gix, tip)?);
    let changes = gix
        .diff_tree_to_tree(
            Some(&old_tree),
            Some(&new_tree),
            gix::diff::Options::default(),
        )
        .map_err(err)?;
    let blob = |tree: &gix::Tree<'_>, path: &BStr| -> Option<ObjectId> {
        let path = gix::path::from_bstr(path).ok()?;
        let entry = tree.lookup_entry_by_path(path).ok()??;
        (!entry.mode().is_tree()).then(|| entry.object_id())
    };
    let mut decisive = false;
    for change in changes.iter().filter(|c| !c.entry_mode().is_tree()) {
        let path = change.location();
        let (was, is) = (blob(&old_tree, path), blob(&new_tree, path));
        if was == is {
            continue;
        }
        if index.entry_by_path(path).map(|e| e.id) != was {
            return Ok(false);
        }
        decisive = true;
    }
    Ok(decisive)
}

/// The command that finishes a landing whose checkout git's `read-tree`
/// left partly written (the index at `before`, some files at `tip`): every
/// path the landing changes, and only those, set to `tip` in the index and
/// the files (each was clean at `before` when the landing began).
pub(super) fn finish_partly(before: ObjectId, tip: ObjectId) -> String {
    format!(
        "`git diff-tree -r -z --name-only {before} {tip} | git --literal-pathspecs restore \
         --source={tip} --staged --worktree --pathspec-from-file=- --pathspec-file-nul`"
    )
}

/// Whether the checkout at `checkout` is still wholly at `before` in the
/// paths the landing to `tip` changes: its index holds their `before`
/// blobs and no file of them was written, deleted or added since the index
/// cached it.
pub(super) fn untouched(
    repo: &Repo,
    checkout: &Path,
    before: ObjectId,
    tip: ObjectId,
) -> Result<bool> {
    let wt = crate::git::repo::open_worktree(checkout)?;
    let index = crate::git::repo::read_index(&wt)?;
    Ok(!wt.git_dir().join("index.lock").exists()
        && index_still_at(repo.gix(), &index, before, tip)?
        && !partly_written(repo.gix(), checkout, &index, before, tip)?)
}

/// Whether any path that differs between `before` and `tip` is not, on
/// disk, what the index (at `before`) cached: a file of `before` gone or
/// with another stat, a file only `tip` has present. (A stat git had not
/// cached counts too: the answer errs towards "written".)
fn partly_written(
    gix: &gix::Repository,
    checkout: &Path,
    index: &gix::index::File,
    before: ObjectId,
    tip: ObjectId,
) -> Result<bool> {
    let (old_tree, new_tree) = (tree_of(gix, before)?, tree_of(gix, tip)?);
    let changes = crate::safety::checkout::clean::changes(gix, &old_tree, &new_tree)?;
    for change in changes.iter().filter(|c| !c.entry_mode().is_tree()) {
        let path = change.location();
        let Ok(rel) = gix::path::from_bstr(path) else {
            return Ok(true);
        };
        let on_disk = checkout.join(rel).symlink_metadata();
        let was = old_tree
            .lookup_entry_by_path(gix::path::from_bstr(path).map_err(err)?)
            .map_err(err)?
            .filter(|e| !e.mode().is_tree());
        let written = match (was, index.entry_by_path(path), on_disk) {
            (Some(_), Some(entry), Ok(meta)) => !crate::git::repo::stat_matches(&entry.stat, &meta),
            (Some(_), _, _) => true,
            (None, _, on_disk) => on_disk.is_ok(),
        };
        if written {
            return Ok(true);
        }
    }
    Ok(false)
}

/// `message`, beginning with [`REFLOG_PREFIX`] (or [`SYNC_PREFIX`]).
pub(super) fn stamped(message: &str) -> String {
    if message.starts_with(REFLOG_PREFIX) || message.starts_with(SYNC_PREFIX) {
        message.to_owned()
    } else {
        format!("{REFLOG_PREFIX}: {message}")
    }
}
