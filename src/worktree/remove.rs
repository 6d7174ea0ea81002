//! Removing a run's worktree without ever losing work: `git worktree remove`
//! (never `--force`) after git-loop's own checks (see the parent module's
//! doc), with git's refusals turned into skip codes.

use std::fs;
use std::io::ErrorKind;
use std::path::{Path, PathBuf};

use super::{Removal, Skip, SkipCode};
use crate::error::{Error, Result};

/// Everything a removal needs, shareable across cleanup's worker threads
/// (a `gix::Repository` is not `Sync`: a thread that needs one, for a
/// detached HEAD, opens its own).
pub struct Remover<'a> {
    pub loop_dir: PathBuf,
    pub git: &'a crate::git::cmd::Git,
    /// Worktrees registered under `.loop-worktrees/`, by directory name.
    pub registrations: std::collections::HashMap<String, crate::git::repo::Worktree>,
    /// The safety kernel's checks, with what they read once per command.
    pub checks: crate::safety::worktree::Checks,
}

impl<'a> Remover<'a> {
    pub fn new(
        repo: &crate::git::repo::Repo,
        git: &'a crate::git::cmd::Git,
    ) -> Result<Remover<'a>> {
        Ok(Remover {
            loop_dir: repo.loop_dir(),
            git,
            registrations: repo.loop_worktrees()?.into_iter().collect(),
            checks: crate::safety::worktree::Checks::new(repo.common_dir()),
        })
    }

    /// The run lock of `id` (see [`crate::lock::RunLock`]).
    pub fn run_lock(&self, id: &str) -> Result<crate::lock::RunLock> {
        crate::lock::RunLock::acquire(self.checks.common_dir(), id, crate::lock::RUN_LOCK_DEADLINE)
    }

    pub fn registration(&self, id: &str) -> Option<&crate::git::repo::Worktree> {
        self.registrations.get(id)
    }

    /// What, beyond git's own checks, makes this worktree unsafe to remove
    /// (the safety kernel's checks, see [`crate::safety::risk`]).
    pub fn at_risk(&self, wt: &crate::git::repo::Worktree, abs: &Path) -> Result<super::AtRisk> {
        self.checks.at_risk(wt, abs)
    }
}

/// Remove `.loop-worktrees/<id>` through `git worktree remove` (never forced),
/// after checking it is this repository's own worktree and that nothing in
/// it is lost that git does not check for.
///
/// - a directory that is a symlink, or that is not registered with this
///   repository (e.g. a worktree of another clone), is never touched;
/// - an operation in progress, commits only its detached HEAD holds, or a
///   nested repository keep it (see [`crate::worktree`]) — for a
///   registration whose directory is gone too (its HEAD may be the last
///   reference to commits); so does a running process working in it
///   (`in-use`, the invoking process included);
/// - a registration whose directory is already gone is removed with the same
///   scoped command (never `git worktree prune`, which can unregister other
///   worktrees);
/// - a directory that is gone and unregistered is simply absent.
///
/// With `dry_run`, git is not run; what git would refuse is predicted with gix.
pub fn remove_worktree(r: &Remover<'_>, id: &str, dry_run: bool) -> Result<Removal> {
    let abs = r.loop_dir.join(id);
    let meta = match fs::symlink_metadata(&abs) {
        Ok(meta) => Some(meta),
        Err(e) if e.kind() == ErrorKind::NotFound => None,
        Err(e) => return Err(Error::io("could not read", &abs, e)),
    };
    let registered = r.registration(id);
    if let Some(meta) = &meta {
        if meta.file_type().is_symlink() {
            return Ok(Removal::Skipped(Skip::new(
                "it is a symlink, not a worktree of this repository; left untouched",
                SkipCode::ForeignClone,
            )));
        }
        if registered.is_none()
            && meta.is_dir()
            && let Some(what) = super::leftover::half_removed(r.checks.common_dir(), &abs)
        {
            return Ok(finish_half_removed(r, id, &abs, &what, dry_run));
        }
        if registered.is_none() {
            return Ok(Removal::Skipped(Skip::new(
                "it is not a worktree registered with this repository (another clone's, or a plain directory); left untouched",
                SkipCode::ForeignClone,
            )));
        }
    }
    let Some(wt) = registered else {
        return Ok(Removal::Removed(None));
    };
    let locked = match &wt.locked {
        Some(reason) if reason.is_empty() => Some(Skip::new("locked", SkipCode::Locked)),
        Some(reason) => Some(Skip::new(format!("locked: {reason}"), SkipCode::Locked)),
        None => None,
    };
    if let Some(skip) = locked.filter(|_| dry_run || meta.is_none()) {
        return Ok(Removal::Skipped(skip));
    }
    if dry_run {
        if let Some(skip) = crate::safety::worktree::check(&r.checks, wt, &abs)? {
            return Ok(Removal::Skipped(skip));
        }
        return Ok(match meta {
            None => Removal::Removed(None),
            // Predicted with gix the way git will judge it.
            Some(_) => match predict_refusal(&abs, &wt.admin_dir) {
                Some(skip) => Removal::Skipped(skip),
                None => Removal::Removed(None),
            },
        });
    }
    // The safety kernel's checks, and what dies with the admin dir kept.
    let permit = match crate::safety::worktree::permit(&r.checks, id, wt, &abs)? {
        Ok(permit) => permit,
        Err(skip) => return Ok(Removal::Skipped(skip)),
    };
    git_remove(r, id, &wt.admin_dir, &permit)
}

/// A half-removed run (see [`super::leftover::half_removed`]; `what` says
/// why it is one): finished when nobody works in it and every file left is
/// in git, else skipped `half-removed`, saying why.
fn finish_half_removed(
    r: &Remover<'_>,
    id: &str,
    abs: &Path,
    what: &str,
    dry_run: bool,
) -> Removal {
    let why = match crate::safety::worktree::half_removed_permit(&r.checks, id, abs) {
        Ok(permit) => match super::leftover::finish_half_removed(&r.loop_dir, id, dry_run, &permit)
        {
            super::leftover::Finish::Removed(note) => return Removal::Removed(Some(note)),
            super::leftover::Finish::Refused(why) => why,
        },
        Err(why) => why,
    };
    Removal::Skipped(Skip::new(
        format!(
            "{what}; git-loop left what is left: {why}; check it and delete the directory by hand"
        ),
        SkipCode::HalfRemoved,
    ))
}

/// `git worktree remove` of `.loop-worktrees/<id>` (never forced), after the
/// checks: git's refusals become skips, a transient failure is retried, and a
/// leftover holding only git's files is finished (see [`super::leftover`]).
pub(super) fn git_remove(
    r: &Remover<'_>,
    id: &str,
    admin_dir: &Path,
    permit: &crate::safety::Permit,
) -> Result<Removal> {
    let abs = r.loop_dir.join(id);
    let rel = crate::runid::rel_path(id);
    let admin = admin_dir.to_path_buf();
    let mut attempt = 0;
    loop {
        match crate::safety::exec::worktree_remove(r.git, &rel, permit)? {
            Ok(()) => return Ok(Removal::Removed(kept_note(permit, None))),
            Err(failure) if attempt < 5 && crate::git::refusal::is_transient(&failure.stderr) => {
                // Another removal changed .git/worktrees/ under this one. The
                // state decides: gone and unregistered means done; otherwise
                // try again (git re-checks cleanliness every time).
                attempt += 1;
                if fs::symlink_metadata(&abs).is_err() && !admin.exists() {
                    return Ok(Removal::Removed(kept_note(permit, None)));
                }
                std::thread::sleep(std::time::Duration::from_millis(5 * attempt));
            }
            Err(refusal) => {
                let mut reason = refusal.reason();
                use crate::git::refusal::{Refusal, classify, may_be_leftover};
                let kind = classify(&reason);
                if may_be_leftover(kind, &reason) {
                    match super::leftover::finish(&r.loop_dir, r.git, id, &admin, permit) {
                        super::leftover::Finish::Removed(note) => {
                            return Ok(Removal::Removed(kept_note(permit, Some(note))));
                        }
                        super::leftover::Finish::Refused(why) => {
                            reason = format!("{reason} (git-loop left it: {why})");
                        }
                    }
                }
                let code = match kind {
                    // git says "modified or untracked" for both; gix tells.
                    Refusal::ModifiedOrUntracked => {
                        match crate::git::repo::cleanliness(&abs, &admin) {
                            Ok(c) if !c.modified && c.untracked => SkipCode::Untracked,
                            _ => SkipCode::Dirty,
                        }
                    }
                    Refusal::Locked => SkipCode::Locked,
                    Refusal::Submodules => SkipCode::Submodules,
                    Refusal::Other => SkipCode::GitRefused,
                };
                return Ok(Removal::Skipped(Skip::new(reason, code)));
            }
        }
    }
}

/// `note`, with the trash refs the kernel kept for this removal (a
/// worktree's own refs: `refs/worktree/*`, `refs/bisect/*`).
fn kept_note(permit: &crate::safety::Permit, note: Option<String>) -> Option<String> {
    if permit.kept().is_empty() {
        return note;
    }
    let kept = format!(
        "kept its own refs in the trash: {} (`git loop trash` lists them)",
        permit.kept().join(", ")
    );
    Some(match note {
        Some(n) => format!("{n}; {kept}"),
        None => kept,
    })
}

/// What `git worktree remove` would refuse in the worktree at `abs`, read
/// with gix (for dry runs); `None` when it looks removable or cannot be read
/// (the real run then asks git).
fn predict_refusal(abs: &Path, admin_dir: &Path) -> Option<Skip> {
    let c = crate::git::repo::cleanliness(abs, admin_dir).ok()?;
    if c.submodules {
        Some(Skip::new(
            "it contains submodules: git would refuse to remove it without --force",
            SkipCode::Submodules,
        ))
    } else if c.modified {
        Some(Skip::new(
            "it has modified tracked files: git would refuse to remove it without --force",
            SkipCode::Dirty,
        ))
    } else if c.untracked {
        Some(Skip::new(
            "it has untracked files: git would refuse to remove it without --force",
            SkipCode::Untracked,
        ))
    } else {
        None
    }
}
