//! Where the target is checked out, read with gix: the worktree a landing
//! updates, or what makes it busy.

use std::path::{Path, PathBuf};

use super::{Advance, MISSING, Place, SECOND_CHECKOUT};
use crate::error::{Error, Result};
use crate::git::repo::{Repo, canonical_best_effort};
use crate::safety;

/// The worktree that has `branch` checked out, read with gix: the main
/// checkout or a linked worktree whose `HEAD` names it, or one rebasing or
/// bisecting it (busy). Two holders, an operation in progress in the
/// holder, or a holder whose directory is gone: busy.
pub(super) fn place(repo: &Repo, branch: &str) -> Result<Place> {
    let full = format!("refs/heads/{branch}");
    let main_head = repo
        .gix()
        .head_name()
        .map_err(|e| Error::Repository(e.to_string()))?;
    let mut worktrees = vec![(
        repo.root().to_path_buf(),
        repo.common_dir().to_path_buf(),
        main_head.is_some_and(|name| name.as_bstr() == full.as_str()),
    )];
    // Paths as registered; only the one a verdict names is canonicalized.
    for wt in repo.worktrees_as_registered()? {
        let on_branch = wt.branch.as_deref() == Some(branch);
        worktrees.push((wt.path, wt.admin_dir, on_branch));
    }
    let mut holder: Option<PathBuf> = None;
    for (path, admin_dir, on_branch) in worktrees {
        let busy = |operation: &str| {
            Ok(Place::Busy(Advance::TargetBusy {
                checkout: canonical_best_effort(&path),
                operation: operation.to_owned(),
            }))
        };
        if !on_branch {
            if let Some(operation) = working_on(&admin_dir, branch) {
                return busy(operation);
            }
            continue;
        }
        if let Some((_, operation)) = safety::operation_in_progress(&admin_dir) {
            return busy(operation);
        }
        if !path.is_dir() {
            return busy(MISSING);
        }
        if holder.is_some() {
            return busy(SECOND_CHECKOUT);
        }
        holder = Some(canonical_best_effort(&path));
    }
    Ok(holder.map_or(Place::Nowhere, Place::At))
}

/// The operation in `admin_dir` that has `branch` as its branch while
/// `HEAD` is detached: a rebase of it (`rebase-merge/head-name`,
/// `rebase-apply/head-name`) or a bisect started on it (`BISECT_START`).
fn working_on(admin_dir: &Path, branch: &str) -> Option<&'static str> {
    let full = format!("refs/heads/{branch}");
    [
        ("rebase-merge/head-name", "rebase"),
        ("rebase-apply/head-name", "rebase"),
        ("BISECT_START", "bisect"),
    ]
    .into_iter()
    .find(|(file, _)| {
        crate::fsx::read_regular(&admin_dir.join(file), 4096)
            .ok()
            .flatten()
            .is_some_and(|text| {
                let name = text.trim_ascii();
                name == full.as_bytes() || name == branch.as_bytes()
            })
    })
    .map(|(_, operation)| operation)
}
