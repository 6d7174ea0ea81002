//! Undoing an interrupted create: what a signal runs between
//! `git worktree add` and the manifest write.

use crate::error::Result;
use crate::git::cmd::Git;
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
        let said = undo_create(&root, &id, made_branch).unwrap_or_else(|e| {
            format!(
                "could not roll back the create of {id} ({e}); see `git loop reconcile --remove-orphan {id}`"
            )
        });
        crate::signals::say(&format!("git-loop: interrupted: {said}"));
    }
}

/// Remove `.loop-worktrees/<id>` — with `git worktree remove`, or, when git
/// refuses (never checked out, or a checkout cut short), with the verified
/// removal of [`crate::leftover`] — then `loop/<id>` if it still points at
/// `base_commit`. Anything that is not provably this create's is left.
fn undo_create(
    root: &std::path::Path,
    id: &str,
    made_branch: Option<gix::ObjectId>,
) -> Result<String> {
    let repo = crate::git::repo::Repo::discover(root)?;
    let loop_dir = repo.loop_dir();
    let _ops = OpsLock::acquire(&loop_dir, |_| ())?;
    let git = Git::new(repo.root());
    let rel = runid::rel_path(id);
    let branch = runid::branch_name(id);
    let registered = repo
        .loop_worktrees()?
        .into_iter()
        .find(|(name, _)| name == id)
        .map(|(_, wt)| wt);
    let mut done = Vec::new();
    match registered {
        Some(wt) => {
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
                    return Ok(format!(
                        "left {rel} and branch {branch} in place: git refused to remove it ({}) and it holds more than git's files ({why}); see `git loop reconcile`",
                        refusal.reason()
                    ));
                }
            }
            done.push(format!("removed {rel}"));
        }
        None if loop_dir.join(id).symlink_metadata().is_ok() => {
            return Ok(format!(
                "left {rel} and branch {branch} in place: it is not registered with git"
            ));
        }
        None => {}
    }
    match (repo.branch_target(&branch)?, made_branch) {
        (Some(at), Some(made)) if at == made => {
            match crate::safety::rollback_branch(repo.gix(), &branch, made) {
                Some(permit) => {
                    crate::safety::exec::delete_branch(&repo, &branch, made, &permit)?;
                    done.push(format!("deleted branch {branch}"));
                }
                None => done.push(format!(
                    "kept branch {branch}: its reflog does not show it made here"
                )),
            }
        }
        (Some(_), None) => done.push(format!("kept branch {branch}: it was there before")),
        (Some(_), Some(_)) => done.push(format!("kept branch {branch}: it has moved")),
        (None, _) => {}
    }
    if done.is_empty() {
        done.push("nothing had been made yet".to_owned());
    }
    Ok(format!(
        "rolled back the create of {id}: {}",
        done.join(", ")
    ))
}
