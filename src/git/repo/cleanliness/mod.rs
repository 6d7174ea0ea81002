//! What `git worktree remove` (without `--force`) would object to in a
//! worktree, read with gix: by one walk when it proves the worktree clean,
//! else in one status pass.
//!
//! First the walk ([`walk`]): most worktrees asked about are clean (a run
//! right after its last commit, before it lands or is removed), and a clean
//! one is proved without the status pass: `HEAD`'s tree zipped with the
//! index, each tracked file's stat (by name in its directory, on every
//! core) against the index's cached one, the racy ones read and hashed, and
//! no name that is neither tracked nor ignored. It answers only "certainly
//! clean"; anything it cannot prove goes to the pass, which decides (10,000
//! files: 33 ms for the pass, 17 ms for the walk, in `land`'s benchmark
//! fixture).
//!
//! The pass, through git's own status when the refs are a reftable
//! ([`porcelain`]: gix's cannot read its `HEAD`), else as `git status` makes it: the `HEAD`-tree-to-index comparison,
//! the index-to-worktree comparison (the index's cached stats reused, the
//! entries split among the cores) and the directory walk for untracked files
//! run at once, and the pass stops as soon as there is nothing more to learn
//! (a change and an untracked file both found).
//!
//! What counts is exactly what it always was:
//! - *modified*: the index differs from `HEAD`'s tree (staged), or a file
//!   differs from its index entry: changed, deleted, its type changed, an
//!   intent-to-add entry, an unresolved conflict, a submodule whose commit
//!   moved or whose worktree is dirty (as the submodule is configured). A
//!   file whose stats changed but whose content did not is not modified;
//! - *untracked*: a file git neither tracks nor ignores (a directory of them
//!   counts once; an empty directory, or one holding only ignored files, is
//!   not untracked), whatever `status.showUntrackedFiles` says;
//! - *submodules*: a populated submodule (a gitlink in the index whose
//!   directory holds a `.git`, or the worktree's `<admin_dir>/modules`).

use std::path::Path;

use gix::status::index_worktree::Item as Change;
use gix::status::{Item, Submodule};

use super::{open_worktree, repo_err};
use crate::error::Result;

mod head;
mod porcelain;
mod walk;

/// What `git worktree remove` (without `--force`) would object to in a
/// worktree, read with gix.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Cleanliness {
    /// Changes to tracked files, staged or not (git's "modified").
    pub modified: bool,
    /// Files git does not track and does not ignore.
    pub untracked: bool,
    /// A populated submodule (git refuses to remove such a worktree at all).
    pub submodules: bool,
}

/// Read the state of the worktree at `path` (whose administrative directory
/// is `admin_dir`) the way `git worktree remove` judges it: tracked changes,
/// untracked files (not ignored ones), and populated submodules (a gitlink in
/// its index whose directory holds a `.git`, or `<admin_dir>/modules`). See
/// the module doc.
pub fn cleanliness(path: &Path, admin_dir: &Path) -> Result<Cleanliness> {
    let repo = open_worktree(path)?;
    let index = super::read_index(&repo)?;
    let submodules = admin_dir.join("modules").is_dir()
        || index.entries().iter().any(|e| {
            e.mode == gix::index::entry::Mode::COMMIT
                && gix::path::from_bstr(e.path(&index))
                    .is_ok_and(|rel| path.join(rel).join(".git").exists())
        });
    // A clean worktree, proved without the pass (see `walk`).
    if !submodules && walk::certainly_clean(&repo, path, &index) {
        return Ok(Cleanliness::default());
    }
    if crate::git::refs::reftable(&repo) {
        let (modified, untracked) = porcelain::status(path, true)?;
        return Ok(Cleanliness {
            modified,
            untracked,
            submodules,
        });
    }
    // The walk's options set here, not through `status.showUntrackedFiles`:
    // untracked files count whatever the user's `git status` shows.
    let untracked_walk = repo
        .dirwalk_options()
        .map_err(repo_err)?
        .emit_untracked(gix::dir::walk::EmissionMode::CollapseDirectory)
        .emit_ignored(None)
        .emit_tracked(false)
        .emit_pruned(false);
    let status = repo
        .status(gix::progress::Discard)
        .map_err(repo_err)?
        .index(gix::worktree::IndexPersistedOrInMemory::InMemory(index))
        .head_tree(crate::git::refs::head_tree(&repo))
        .tree_index_track_renames(gix::status::tree_index::TrackRenames::Disabled)
        .index_worktree_rewrites(None)
        .index_worktree_submodules(Submodule::AsConfigured { check_dirty: true })
        .index_worktree_options_mut(|options| {
            options.dirwalk_options = Some(untracked_walk);
        })
        .into_iter(None)
        .map_err(repo_err)?;
    let mut found = Cleanliness {
        submodules,
        ..Cleanliness::default()
    };
    for item in status {
        match item.map_err(repo_err)? {
            Item::TreeIndex(_) | Item::IndexWorktree(Change::Modification { .. }) => {
                found.modified = true;
            }
            Item::IndexWorktree(Change::DirectoryContents { entry, .. }) => {
                found.untracked |= entry.status == gix::dir::entry::Status::Untracked;
            }
            // Not asked for (no rename tracking), but a rename is a change.
            Item::IndexWorktree(Change::Rewrite { .. }) => found.modified = true,
        }
        if found.modified && found.untracked {
            break;
        }
    }
    Ok(found)
}

/// Whether `repo`'s worktree has tracked changes, staged or not (gix's
/// `is_dirty`, with `HEAD`'s tree read through the ref layer; git's status
/// when the refs are a reftable, see [`porcelain`]).
pub fn tracked_changes(repo: &gix::Repository) -> Result<bool> {
    if crate::git::refs::reftable(repo)
        && let Some(dir) = repo.workdir()
    {
        return Ok(porcelain::status(dir, false)?.0);
    }
    let mut status = repo
        .status(gix::progress::Discard)
        .map_err(repo_err)?
        .head_tree(crate::git::refs::head_tree(repo))
        .untracked_files(gix::status::UntrackedFiles::None)
        .tree_index_track_renames(gix::status::tree_index::TrackRenames::Disabled)
        .index_worktree_rewrites(None)
        .index_worktree_submodules(Submodule::AsConfigured { check_dirty: true })
        .into_iter(None)
        .map_err(repo_err)?;
    match status.next() {
        Some(item) => item.map(|_| true).map_err(repo_err),
        None => Ok(false),
    }
}

#[cfg(test)]
mod tests;
