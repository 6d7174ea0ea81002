//! `reconcile --adopt <ID>`: record an orphan as an `active` run instead of
//! removing it — for a worktree whose create crashed before recording it, or
//! one made by hand with `git worktree add -b loop/<id> .loop-worktrees/<id>`.
//!
//! Only a worktree git-loop could have made is adopted, checked as
//! `create --reuse` checks a run: a real directory registered with *this*
//! repository, whose `.git` file points back into this repository's
//! `.git/worktrees/`, with `loop/<id>` checked out. Anything else refuses the
//! whole command before anything changes (`not-adoptable`). The entry gets the
//! configured base (`loop.base`) and the pattern `adopted`, and `createdAt`
//! is when it was adopted; an `adopt` event is logged.

use std::path::Path;

use crate::error::{Error, Result};
use crate::git::repo::Worktree;
use crate::manifest::Entry;

/// The pattern an adopted run is recorded with.
pub const PATTERN: &str = "adopted";

/// Refuse `id` unless it is an orphan git-loop could have made.
pub fn check(loop_dir: &Path, id: &str, wt: Option<&Worktree>, removing: bool) -> Result<()> {
    let refuse = |reason: String| Error::NotAdoptable {
        id: id.to_owned(),
        reason,
        help: crate::error::adopt_help(),
    };
    if removing {
        return Err(refuse("it is also named by --remove-orphan".into()));
    }
    let rel = crate::runid::rel_path(id);
    let Some(wt) = wt else {
        return Err(refuse(format!(
            "no worktree is registered with git at {rel}"
        )));
    };
    let abs = loop_dir.join(id);
    match std::fs::symlink_metadata(&abs) {
        Ok(meta) if meta.is_dir() => {}
        Ok(_) => return Err(refuse(format!("{rel} is not a directory"))),
        Err(_) => return Err(refuse(format!("{rel} does not exist"))),
    }
    let dot_git = crate::fsx::read_regular(&abs.join(".git"), 4096)
        .ok()
        .flatten()
        .unwrap_or_default();
    let dot_git = String::from_utf8_lossy(&dot_git);
    let points_here = dot_git
        .strip_prefix("gitdir:")
        .map(|p| crate::git::repo::canonical_best_effort(Path::new(p.trim())))
        == Some(crate::git::repo::canonical_best_effort(&wt.admin_dir));
    if !points_here {
        return Err(refuse(format!(
            "{rel}/.git does not point into this repository"
        )));
    }
    let branch = crate::runid::branch_name(id);
    if wt.branch.as_deref() != Some(branch.as_str()) {
        return Err(refuse(format!(
            "{rel} has {} checked out, not {branch}",
            wt.branch.as_deref().unwrap_or("a detached HEAD")
        )));
    }
    Ok(())
}

/// The entry an adopted orphan gets.
pub fn entry(id: &str, base: &str) -> Entry {
    Entry::new(id, base, PATTERN, crate::time::now())
}
