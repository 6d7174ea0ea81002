//! May this worktree be removed? The at-risk checks (see [`super::risk`]:
//! an operation in progress, commits only its detached HEAD holds, nested
//! repositories, changes git does not see, processes working in it), then
//! the refs that die with its admin dir kept in the trash, then a
//! [`Permit`] for `git worktree remove` (which still refuses modified and
//! untracked files, locks and submodules itself).
//!
//! # Refs that die with a worktree
//!
//! A linked worktree's admin dir (`.git/worktrees/<name>/`) holds its own
//! refs: `HEAD`, `refs/worktree/*` and `refs/bisect/*` (git keeps them per
//! worktree, never in `packed-refs`). `git worktree remove` deletes them with
//! the admin dir, and with them the last reference to any commit they alone
//! held (a commit kept only in `refs/worktree/experiment`). Before the
//! removal, each such ref whose commits some ref outside the trash does not
//! already hold is kept under `refs/loop/trash/<stamp>/worktree-removed/
//! runs/<id>/<ref>`. A detached HEAD holding such commits never gets here:
//! it keeps the worktree (`unreachable-commits`).

use std::path::Path;

use super::risk::{AtRisk, Processes, RefTips};
use super::skip::Skip;
use super::{Permit, Target, trash};
use crate::error::{Error, Result};

/// What the checks read once per command and share across cleanup's worker
/// threads (a `gix::Repository` is not `Sync`: a thread that needs one
/// opens its own from the common dir).
pub struct Checks {
    common_dir: std::path::PathBuf,
    /// Read on first need (a detached HEAD, a worktree's own refs): every
    /// holding ref's tip.
    tips: std::sync::OnceLock<std::result::Result<RefTips, String>>,
    /// Read on first need, once per command: every process's working
    /// directory (after cleanup's pre-command hooks have run and exited).
    processes: std::sync::OnceLock<Processes>,
    /// Processes `--reap` terminated since that read (see
    /// [`crate::worktree::reap`]): no longer working anywhere.
    reaped: std::sync::Mutex<Vec<u32>>,
}

impl Checks {
    pub fn new(common_dir: &Path) -> Checks {
        Checks {
            common_dir: common_dir.to_path_buf(),
            tips: std::sync::OnceLock::new(),
            processes: std::sync::OnceLock::new(),
            reaped: std::sync::Mutex::new(Vec::new()),
        }
    }

    /// The git common dir.
    pub fn common_dir(&self) -> &Path {
        &self.common_dir
    }

    /// Processes that are gone since the one read of them (terminated by
    /// `--reap`, and seen gone).
    pub fn forget_processes(&self, pids: &[u32]) {
        let mut reaped = self.reaped.lock().unwrap_or_else(|e| e.into_inner());
        reaped.extend_from_slice(pids);
    }

    /// Every holding ref's tip, read once per command.
    pub fn tips(&self, repo: &gix::Repository) -> Result<&RefTips> {
        let tips = self
            .tips
            .get_or_init(|| RefTips::read(repo).map_err(|e| e.to_string()));
        tips.as_ref().map_err(|e| Error::Repository(e.clone()))
    }

    /// What, beyond git's own checks, makes this worktree unsafe to remove.
    pub fn at_risk(&self, wt: &crate::git::repo::Worktree, abs: &Path) -> Result<AtRisk> {
        let mut risk = AtRisk::read_files(wt, abs);
        risk.in_use = self.processes.get_or_init(Processes::scan).inside(abs);
        let reaped = self.reaped.lock().unwrap_or_else(|e| e.into_inner());
        risk.in_use.retain(|pid| !reaped.contains(pid));
        drop(reaped);
        risk.head_unknown = wt.branch.is_none() && wt.detached_head.is_none();
        if let Some(head) = wt.detached_head {
            let repo = gix::open(&self.common_dir).map_err(|e| Error::Repository(e.to_string()))?;
            let tips = self.tips(&repo)?;
            risk.unreachable_commits = tips.unreachable_from(&repo, head, 1000)?;
        }
        Ok(risk)
    }
}

/// The refs in `admin_dir`'s own `refs/` (full names, `refs/worktree/x`)
/// that point at an object, and where. Symbolic refs and files that are
/// not refs are left out.
pub fn own_refs(admin_dir: &Path) -> Result<Vec<(String, gix::ObjectId)>> {
    crate::git::refs::own_refs(admin_dir)
}

/// Keep in the trash every own ref of the worktree `id` (admin dir
/// `admin_dir`) holding commits no other ref holds; returns the trash refs
/// written. `unreachable` counts, for a tip, the commits outside every
/// holding ref (see [`crate::worktree::RefTips`]).
pub fn keep_refs(
    repo: &gix::Repository,
    id: &str,
    admin_dir: &Path,
    unreachable: &dyn Fn(gix::ObjectId) -> Result<usize>,
) -> Result<Vec<String>> {
    let mut kept = Vec::new();
    for (name, tip) in own_refs(admin_dir)? {
        // A ref at a non-commit (a tag object, a blob) is kept as it is.
        let is_commit = repo
            .find_header(tip)
            .is_ok_and(|h| h.kind() == gix::object::Kind::Commit);
        if is_commit && unreachable(tip)? == 0 {
            continue;
        }
        if !is_commit && repo.find_header(tip).is_err() {
            continue;
        }
        kept.push(trash::keep(
            repo,
            &trash::Keep::worktree_ref(id, &name, tip),
        )?);
    }
    Ok(kept)
}

/// What keeps `.loop-worktrees/<id>` from being removed, beyond git's own
/// refusals; `None` when nothing does. Changes nothing (dry runs ask this).
pub fn check(r: &Checks, wt: &crate::git::repo::Worktree, abs: &Path) -> Result<Option<Skip>> {
    Ok(r.at_risk(wt, abs)?.skip())
}

/// Leave to remove `.loop-worktrees/<id>`: [`check`], then its own refs kept
/// in the trash (see the module doc). `Err(skip)`: it must stay.
pub fn permit(
    r: &Checks,
    id: &str,
    wt: &crate::git::repo::Worktree,
    abs: &Path,
) -> Result<std::result::Result<Permit, Skip>> {
    if let Some(skip) = check(r, wt, abs)? {
        return Ok(Err(skip));
    }
    let kept = keep_own_refs(r, id, &wt.admin_dir)?;
    Ok(Ok(Permit {
        what: Target::Worktree(crate::runid::rel_path(id)),
        kept,
    }))
}

fn keep_own_refs(r: &Checks, id: &str, admin_dir: &Path) -> Result<Vec<String>> {
    if own_refs(admin_dir)?.is_empty() {
        return Ok(Vec::new());
    }
    let repo = gix::open(r.common_dir()).map_err(|e| Error::Repository(e.to_string()))?;
    let tips = r.tips(&repo)?;
    keep_refs(&repo, id, admin_dir, &|tip| {
        tips.unreachable_from(&repo, tip, 1)
    })
}

/// Leave to remove the worktree a `create` made a moment ago and is
/// undoing (its rollback, see `ops::create::rollback`): its own refs
/// are kept in the trash first (a post-command hook may have made some);
/// `git worktree remove` still refuses anything changed in it.
pub fn rollback_permit(repo: &gix::Repository, id: &str, admin_dir: &Path) -> Result<Permit> {
    let mut kept = Vec::new();
    if !own_refs(admin_dir)?.is_empty() {
        let tips = RefTips::read(repo)?;
        kept = keep_refs(repo, id, admin_dir, &|tip| {
            tips.unreachable_from(repo, tip, 1)
        })?;
    }
    Ok(Permit {
        what: Target::Worktree(crate::runid::rel_path(id)),
        kept,
    })
}

/// Leave to remove `.loop-worktrees/<id>` once its state was saved as the
/// salvage `w` (see [`crate::worktree::salvage`]): `refs/loop/salvage/<id>`
/// must point at `w` (whose tree was verified to be the worktree's files);
/// its own refs are kept in the trash first.
pub fn salvaged_permit(
    r: &Checks,
    id: &str,
    wt: &crate::git::repo::Worktree,
    w: &str,
) -> Result<std::result::Result<Permit, Skip>> {
    let repo = gix::open(r.common_dir()).map_err(|e| Error::Repository(e.to_string()))?;
    let refname = format!("refs/loop/salvage/{id}");
    let at = crate::git::refs::id(&repo, &refname).map(|id| id.to_string());
    if at.as_deref() != Some(w) {
        return Ok(Err(Skip::new(
            format!("{refname} does not hold the salvage {w}: not removed"),
            super::skip::SkipCode::Error,
        )));
    }
    let kept = keep_own_refs(r, id, &wt.admin_dir)?;
    Ok(Ok(Permit {
        what: Target::Worktree(crate::runid::rel_path(id)),
        kept,
    }))
}

/// Leave to finish a half-removed run (its registration already gone, see
/// `crate::worktree::leftover`): no process may be working in it; the leftover's own
/// walk then deletes only files whose content the repository holds.
/// `Err`: why not.
pub fn half_removed_permit(
    checks: &Checks,
    id: &str,
    abs: &Path,
) -> std::result::Result<Permit, String> {
    let in_use = checks.processes.get_or_init(Processes::scan).inside(abs);
    if let Some(pid) = in_use.first() {
        return Err(format!("a process is working in it (pid {pid})"));
    }
    Ok(Permit {
        what: Target::Worktree(crate::runid::rel_path(id)),
        kept: Vec::new(),
    })
}

/// Leave to delete the ignored files of `.loop-worktrees/<id>` that a
/// recycled worktree does not keep (`pool.keep`, see
/// `ops::pool::recycle`): the same at-risk checks as a removal (nothing
/// in progress, no nested repository, nobody working in it, …). `None`:
/// something is at risk, and the worktree is removed (or kept) the usual way.
pub fn prune_permit(
    checks: &Checks,
    id: &str,
    wt: &crate::git::repo::Worktree,
    abs: &Path,
) -> Result<Option<Permit>> {
    if check(checks, wt, abs)?.is_some() {
        return Ok(None);
    }
    Ok(Some(Permit {
        what: Target::Worktree(crate::runid::rel_path(id)),
        kept: Vec::new(),
    }))
}
