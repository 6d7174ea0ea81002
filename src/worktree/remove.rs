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
    common_dir: PathBuf,
    /// Read on first need (a detached HEAD): every ref tip.
    tips: std::sync::OnceLock<std::result::Result<super::RefTips, String>>,
    /// Read on first need, once per command: every process's working
    /// directory (after cleanup's pre-command hooks have run and exited).
    processes: std::sync::OnceLock<super::Processes>,
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
            common_dir: repo.common_dir().to_path_buf(),
            tips: std::sync::OnceLock::new(),
            processes: std::sync::OnceLock::new(),
        })
    }

    /// The run lock of `id` (see [`super::RunLock`]).
    pub fn run_lock(&self, id: &str) -> Result<super::RunLock> {
        super::RunLock::acquire(&self.common_dir, id, super::RUN_LOCK_DEADLINE)
    }

    pub fn registration(&self, id: &str) -> Option<&crate::git::repo::Worktree> {
        self.registrations.get(id)
    }

    /// What, beyond git's own checks, makes this worktree unsafe to remove
    /// (see [`crate::worktree`]).
    pub fn at_risk(&self, wt: &crate::git::repo::Worktree, abs: &Path) -> Result<super::AtRisk> {
        let mut risk = super::AtRisk::read_files(wt, abs);
        risk.in_use = self
            .processes
            .get_or_init(super::Processes::scan)
            .inside(abs);
        if let Some(head) = wt.detached_head {
            let repo = gix::open(&self.common_dir).map_err(|e| Error::Repository(e.to_string()))?;
            let tips = self
                .tips
                .get_or_init(|| super::RefTips::read(&repo).map_err(|e| e.to_string()));
            let tips = tips.as_ref().map_err(|e| Error::Repository(e.clone()))?;
            risk.unreachable_commits = tips.unreachable_from(&repo, head, 1000)?;
        }
        Ok(risk)
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
            && let Some(what) = crate::leftover::half_removed(&r.common_dir, &abs)
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
    if let Some(skip) = r.at_risk(wt, &abs)?.skip() {
        return Ok(Removal::Skipped(skip));
    }
    if dry_run {
        return Ok(match meta {
            None => Removal::Removed(None),
            // Predicted with gix the way git will judge it.
            Some(_) => match predict_refusal(&abs, &wt.admin_dir) {
                Some(skip) => Removal::Skipped(skip),
                None => Removal::Removed(None),
            },
        });
    }
    git_remove(r, id, &wt.admin_dir)
}

/// A half-removed run (see [`crate::leftover::half_removed`]; `what` says
/// why it is one): finished when nobody works in it and every file left is
/// in git, else skipped `half-removed`, saying why.
fn finish_half_removed(
    r: &Remover<'_>,
    id: &str,
    abs: &Path,
    what: &str,
    dry_run: bool,
) -> Removal {
    let in_use = r.processes.get_or_init(super::Processes::scan).inside(abs);
    let why = if in_use.is_empty() {
        match crate::leftover::finish_half_removed(&r.loop_dir, id, dry_run) {
            crate::leftover::Finish::Removed(note) => return Removal::Removed(Some(note)),
            crate::leftover::Finish::Refused(why) => why,
        }
    } else {
        format!("a process is working in it (pid {})", in_use[0])
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
/// leftover holding only git's files is finished (see [`crate::leftover`]).
pub(super) fn git_remove(r: &Remover<'_>, id: &str, admin_dir: &Path) -> Result<Removal> {
    let abs = r.loop_dir.join(id);
    let rel = crate::runid::rel_path(id);
    let admin = admin_dir.to_path_buf();
    let mut attempt = 0;
    loop {
        match r.git.worktree_remove(&rel)? {
            Ok(()) => return Ok(Removal::Removed(None)),
            Err(failure) if attempt < 5 && crate::git::refusal::is_transient(&failure.stderr) => {
                // Another removal changed .git/worktrees/ under this one. The
                // state decides: gone and unregistered means done; otherwise
                // try again (git re-checks cleanliness every time).
                attempt += 1;
                if fs::symlink_metadata(&abs).is_err() && !admin.exists() {
                    return Ok(Removal::Removed(None));
                }
                std::thread::sleep(std::time::Duration::from_millis(5 * attempt));
            }
            Err(refusal) => {
                let mut reason = refusal.reason();
                use crate::git::refusal::{Refusal, classify, may_be_leftover};
                let kind = classify(&reason);
                if may_be_leftover(kind, &reason) {
                    match crate::leftover::finish(&r.loop_dir, r.git, id, &admin) {
                        crate::leftover::Finish::Removed(note) => {
                            return Ok(Removal::Removed(Some(note)));
                        }
                        crate::leftover::Finish::Refused(why) => {
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
