//! Where the target is checked out, read with gix: the worktree a landing
//! updates, or what makes it busy.

use std::path::PathBuf;

use super::{Advance, MISSING, Place, SECOND_CHECKOUT};
use crate::error::{Error, Result};
use crate::git::repo::{Repo, canonical_best_effort};
use crate::safety;
use crate::safety::checked_out::{reaches, working_on};

/// The worktree that has `branch` checked out, read with gix: the main
/// checkout or a linked worktree whose `HEAD` reaches it (directly or
/// through symbolic refs: `HEAD → master → main` has `main` checked out),
/// or one rebasing or bisecting it (busy); as the kernel's
/// [`safety::checked_out`] judges. Two holders, an operation in progress in the
/// holder, or a holder whose directory is gone or cannot be read from its
/// registration (named by its administrative directory): busy. (A
/// registration without a `gitdir` file is not listed, by gix as by git.)
pub(super) fn place(repo: &Repo, branch: &str) -> Result<Place> {
    let main_head = crate::git::refs::head_name(repo.gix())?;
    let proxies = repo
        .gix()
        .worktrees()
        .map_err(|e| Error::Repository(e.to_string()))?;
    // (the registration, none for the main checkout; admin dir; on branch).
    // A linked worktree's path (its `gitdir` file) is read only where a
    // verdict needs it, and only that one is canonicalized.
    let mut worktrees = vec![(
        None,
        repo.common_dir().to_path_buf(),
        // A bare repository's `HEAD` names a branch but checks nothing out.
        !repo.is_bare_layout() && main_head.is_some_and(|name| reaches(repo.gix(), &name, branch)),
    )];
    let heads = repo.worktree_heads();
    for proxy in &proxies {
        let on_branch = repo
            .head_of(proxy, &heads)
            .0
            .is_some_and(|head| reaches(repo.gix(), &format!("refs/heads/{head}"), branch));
        worktrees.push((Some(proxy), proxy.git_dir().to_path_buf(), on_branch));
    }
    let mut holder: Option<PathBuf> = None;
    for (proxy, admin_dir, on_branch) in worktrees {
        let path = || match proxy {
            None => Some(repo.root().to_path_buf()),
            Some(proxy) => proxy.base().ok(),
        };
        let busy = |operation: &str| {
            Ok(Place::Busy(Advance::TargetBusy {
                checkout: path().map_or_else(|| admin_dir.clone(), |p| canonical_best_effort(&p)),
                operation: operation.to_owned(),
            }))
        };
        if !on_branch {
            if let Some(operation) = working_on(repo.gix(), &admin_dir, branch) {
                return busy(operation);
            }
            continue;
        }
        if let Some((_, operation)) = safety::operation_in_progress(&admin_dir) {
            return busy(operation);
        }
        let Some(path) = path().filter(|p| p.is_dir()) else {
            return busy(MISSING);
        };
        if holder.is_some() {
            return busy(SECOND_CHECKOUT);
        }
        holder = Some(canonical_best_effort(&path));
    }
    Ok(holder.map_or(Place::Nowhere, Place::At))
}
