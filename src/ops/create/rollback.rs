//! Undoing an interrupted create: what a signal runs between
//! `git worktree add` and the manifest write.

use crate::error::Result;
use crate::git::repo::Repo;
use crate::lock::OpsLock;
use crate::runid;

/// What a signal runs between `git worktree add` and the manifest write:
/// undo this create, say what was done on stderr. Runs on the signal thread
/// or at a checkpoint of the main thread, never under a running git child,
/// and never while this process holds the worktree-operation lock.
pub(super) fn rollback(
    root: &std::path::Path,
    id: &str,
    made_branch: Option<gix::ObjectId>,
) -> impl FnOnce() + Send + 'static {
    let (root, id) = (root.to_path_buf(), id.to_owned());
    move || {
        let (_, said) = undo(&root, &id, made_branch);
        crate::signals::say(&format!("git-loop: interrupted: {said}"));
    }
}

/// Undo the create of `id` now (see [`undo_create`]): whether everything it
/// made is gone, and the line that says what was done.
pub(super) fn undo(
    root: &std::path::Path,
    id: &str,
    made_branch: Option<gix::ObjectId>,
) -> (bool, String) {
    undo_create(root, id, made_branch).unwrap_or_else(|e| {
        (
            false,
            format!(
                "could not roll back the create of {id} ({e}); see `git loop reconcile --remove-orphan {id}`"
            ),
        )
    })
}

/// Remove `.loop-worktrees/<id>` — with `git worktree remove`, or, when git
/// refuses (never checked out, or a checkout cut short), with the verified
/// removal of [`crate::worktree::leftover`] — then `loop/<id>` if it still points at
/// `base_commit`. Anything that is not provably this create's is left
/// (then `false`).
fn undo_create(
    root: &std::path::Path,
    id: &str,
    made_branch: Option<gix::ObjectId>,
) -> Result<(bool, String)> {
    let repo = crate::git::repo::Repo::discover(root)?;
    let _ops = OpsLock::acquire(&repo.loop_dir(), |_| ())?;
    let mut done = Vec::new();
    match undo_worktree(&repo, id)? {
        Undone::Removed => done.push(format!("removed {}", runid::rel_path(id))),
        Undone::Left(why) => return Ok((false, why)),
        Undone::Nothing => {}
    }
    if let Some(said) = undo_branch(&repo, id, made_branch)? {
        done.push(said);
    }
    if done.is_empty() {
        done.push("nothing had been made yet".to_owned());
    }
    Ok((
        true,
        format!("rolled back the create of {id}: {}", done.join(", ")),
    ))
}

/// What [`undo_worktree`] did.
enum Undone {
    Removed,
    /// Left in place, with the line that says why (the branch is left too).
    Left(String),
    /// There was no worktree yet.
    Nothing,
}

/// The worktree half of [`undo_create`], under the worktree-operation lock.
fn undo_worktree(repo: &Repo, id: &str) -> Result<Undone> {
    let loop_dir = repo.loop_dir();
    let git = repo.git();
    let rel = runid::rel_path(id);
    let branch = runid::branch_name(id);
    let registered = repo
        .loop_worktrees()?
        .into_iter()
        .find(|(name, _)| name == id)
        .map(|(_, wt)| wt);
    let Some(wt) = registered else {
        if loop_dir.join(id).symlink_metadata().is_ok() {
            return Ok(Undone::Left(format!(
                "left {rel} and branch {branch} in place: it is not registered with git"
            )));
        }
        return Ok(Undone::Nothing);
    };
    let permit = crate::safety::worktree::rollback_permit(repo.gix(), id, &wt.admin_dir)?;
    if let Err(refusal) = crate::safety::exec::worktree_remove(&git, &rel, &permit)? {
        let finished = crate::worktree::leftover::finish_if_only_git(
            repo.gix(),
            &git,
            &loop_dir,
            id,
            &wt.admin_dir,
            &permit,
        )?;
        if let crate::worktree::leftover::Finish::Refused(why) = finished {
            return Ok(Undone::Left(format!(
                "left {rel} and branch {branch} in place: git refused to remove it ({}) and it holds more than git's files ({why}); see `git loop reconcile`",
                refusal.reason()
            )));
        }
    }
    Ok(Undone::Removed)
}

/// The branch half: `loop/<id>` deleted if this create made it and it has
/// not moved since (and its reflog shows it made here). What was done, if
/// there is a branch.
fn undo_branch(
    repo: &Repo,
    id: &str,
    made_branch: Option<gix::ObjectId>,
) -> Result<Option<String>> {
    let branch = runid::branch_name(id);
    Ok(match (repo.branch_target(&branch)?, made_branch) {
        (Some(at), Some(made)) if at == made => {
            match crate::safety::rollback_branch(repo.gix(), &branch, made) {
                Some(permit) => {
                    crate::safety::exec::delete_branch(repo, &branch, made, &permit)?;
                    Some(format!("deleted branch {branch}"))
                }
                None => Some(format!(
                    "kept branch {branch}: its reflog does not show it made here"
                )),
            }
        }
        (Some(_), None) => Some(format!("kept branch {branch}: it was there before")),
        (Some(_), Some(_)) => Some(format!("kept branch {branch}: it has moved")),
        (None, _) => None,
    })
}
