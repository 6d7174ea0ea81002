//! Salvage, then reclaim (`remove --salvage`, `cleanup --salvage`, config
//! `cleanup.salvage`): a run skipped only because it is dirty, holds
//! untracked files, or has a detached HEAD with commits no ref holds is
//! first saved as a commit on `refs/loop/salvage/<id>`, then removed.
//!
//! The salvage commit `W` is stash-like: its tree is the worktree (tracked
//! changes and untracked files that are not ignored: what `git add -A`
//! would stage), its first parent the worktree's `HEAD`, its second `I`, a
//! commit of the index's tree (so restore tells staged from unstaged, and
//! untracked: in `W`, not in `I`). The message holds the manifest entry as
//! JSON, for restore. It is built with git plumbing against a *copy* of the
//! worktree's index ([`build`]), read back with gix and compared with the
//! files — content, executable bit, symlink targets, nothing missing or
//! extra but ignored files ([`verify`]) — and only then is the ref written,
//! compare-and-swap, with a reflog (so an earlier salvage of the same id
//! stays reachable from `refs/loop/salvage/<id>@{1}` until reflogs expire).
//! Then the worktree's index and `HEAD` (detached) are set to `W`, so `git
//! worktree remove`, never forced, is the last check: it finds the worktree
//! clean unless something changed since the verification, and then refuses
//! (`HEAD` and the index are put back; the files were never touched). Ignored files are not kept: they are
//! listed (count, bytes, paths) in the report and the `salvage` event.
//!
//! Never salvaged away: locked worktrees, submodules, nested repositories,
//! operations in progress, worktrees in use: they keep their skip codes.

mod build;
mod verify;

use serde::Serialize;

use super::{Removal, Remover, Skip, SkipCode};
use crate::error::{Error, Result};
use crate::git::plumbing::git_str;
use crate::manifest::Entry;

/// `refs/loop/salvage/<id>`.
pub fn ref_name(id: &str) -> String {
    format!("refs/loop/salvage/{id}")
}

/// Ignored files a salvage does not keep.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct IgnoredFiles {
    pub count: usize,
    pub bytes: u64,
    pub paths: Vec<String>,
}

/// What a salvage saved (`commit` is null in a dry run).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Salvaged {
    #[serde(rename = "ref")]
    pub refname: String,
    pub commit: Option<String>,
    pub ignored: IgnoredFiles,
}

impl Salvaged {
    /// The `salvage` event for the log.
    pub fn event(&self, id: &str) -> crate::events::Event {
        let mut e = crate::events::Event::new(crate::events::EventKind::Salvage, id);
        e.to = self.commit.clone();
        let i = &self.ignored;
        let mut detail = format!(
            "saved to {}; {} ignored file(s), {} bytes, not kept",
            self.refname, i.count, i.bytes
        );
        if !i.paths.is_empty() {
            detail.push_str(": ");
            detail.push_str(&i.paths.join(", "));
        }
        e.detail = Some(detail);
        e
    }
}

/// The skips a salvage resolves.
pub fn resolves(code: SkipCode) -> bool {
    matches!(
        code,
        SkipCode::Dirty | SkipCode::Untracked | SkipCode::UnreachableCommits
    )
}

fn salvage_err(id: &str, reason: impl std::fmt::Display) -> Error {
    Error::Salvage {
        id: id.to_owned(),
        reason: reason.to_string(),
    }
}

/// Salvage `entry`'s worktree, then remove it, when `skip` is one a salvage
/// resolves and nothing else keeps it; otherwise the skip (the first other
/// reason, if any). With `dry_run` nothing is written.
pub fn salvage_then_remove(
    r: &Remover<'_>,
    entry: &Entry,
    skip: Skip,
    dry_run: bool,
) -> Result<(Removal, Option<Salvaged>)> {
    let id = entry.id.as_str();
    let abs = r.loop_dir.join(id);
    let (Some(wt), true) = (r.registration(id), resolves(skip.code)) else {
        return Ok((Removal::Skipped(skip), None));
    };
    if !std::fs::symlink_metadata(&abs).is_ok_and(|m| m.is_dir()) {
        return Ok((Removal::Skipped(skip), None));
    }
    if let Some(reason) = &wt.locked {
        return Ok((
            Removal::Skipped(Skip::new(format!("locked: {reason}"), SkipCode::Locked)),
            None,
        ));
    }
    let mut risk = r.at_risk(wt, &abs)?;
    risk.unreachable_commits = 0;
    if let Some(other) = risk.skip() {
        return Ok((Removal::Skipped(other), None));
    }
    if crate::git::repo::cleanliness(&abs, &wt.admin_dir)?.submodules {
        let why = "it contains submodules: never salvaged away";
        return Ok((Removal::Skipped(Skip::new(why, SkipCode::Submodules)), None));
    }
    let refname = ref_name(id);
    let repo = gix::open(&abs).map_err(|e| salvage_err(id, e))?;
    let head = repo.head_id().map_err(|e| salvage_err(id, e))?.detach();
    let old = match repo.try_find_reference(refname.as_str()) {
        Ok(Some(mut r)) => r.peel_to_id().map_err(|e| salvage_err(id, e))?.detach(),
        Ok(None) => gix::ObjectId::null(repo.object_hash()),
        Err(e) => return Err(salvage_err(id, e)),
    };
    // An earlier salvage of another run of this id (never restored: a
    // restored one is this run) would be left only in the reflog, for gc.
    if !old.is_null() && !salvage_of(&repo, old).is_some_and(|e| e.same_run(entry)) {
        let why = format!(
            "{} (not salvaged: {refname} holds an earlier run's salvage; restore or delete it first)",
            skip.reason
        );
        return Ok((Removal::Skipped(Skip::new(why, skip.code)), None));
    }
    if dry_run {
        let planned = Salvaged {
            refname,
            commit: None,
            ignored: IgnoredFiles::default(),
        };
        return Ok((Removal::Removed(None), Some(planned)));
    }
    let message = format!(
        "git-loop salvage of {id}\n\n{}\n",
        serde_json::to_string(entry).expect("an entry serializes")
    );
    let commit = build::build(&abs, &wt.admin_dir, &head.to_string(), &message)?;
    let w = gix::ObjectId::from_hex(commit.as_bytes()).map_err(|e| salvage_err(id, e))?;
    let ignored = verify::verify(&abs, w).map_err(|why| {
        salvage_err(
            id,
            format!("the saved tree does not match the worktree: {why}"),
        )
    })?;
    crate::crash::fail_point("salvage-ref-write").map_err(|e| salvage_err(id, e))?;
    // The salvage it replaces (this run's own, salvaged and restored before)
    // is kept in the trash: in the reflog alone it is unreachable, and gc
    // expires it after gc.reflogExpireUnreachable (30 days).
    if !old.is_null() {
        crate::safety::trash::keep(&repo, &crate::safety::trash::Keep::salvage(id, old))?;
    }
    crate::git::plumbing::update_ref(
        &abs,
        &refname,
        &commit,
        &old.to_string(),
        &format!("git-loop salvage of {id}"),
    )?;
    crate::crash::point("after-salvage-ref");
    let salvaged = Salvaged {
        refname,
        commit: Some(commit.clone()),
        ignored,
    };
    let removal = remove_at(r, id, wt, &abs, &head, &commit)?;
    let removal = match removal {
        Removal::Skipped(mut skip) => {
            skip.reason = format!(
                "{} (its state at the check was saved to {} first)",
                skip.reason, salvaged.refname
            );
            Removal::Skipped(skip)
        }
        removed => removed,
    };
    Ok((removal, Some(salvaged)))
}

/// Remove the worktree, with git itself as the last check: its index and
/// `HEAD` (detached) are set to the salvage `w` — whose tree was just
/// verified to be its files — so `git worktree remove`, never forced, finds
/// it clean unless something changed since; then git refuses, and `HEAD`
/// and the index are put back as they were (the files were never touched).
fn remove_at(
    r: &Remover<'_>,
    id: &str,
    wt: &crate::git::repo::Worktree,
    abs: &std::path::Path,
    head: &gix::ObjectId,
    w: &str,
) -> Result<Removal> {
    let on_branch = git_str(abs, None, &["symbolic-ref", "-q", "HEAD"]).ok();
    git_str(abs, None, &["read-tree", w])?;
    let msg = "git-loop salvage: detach at the salvage to remove";
    git_str(
        abs,
        None,
        &["update-ref", "--no-deref", "-m", msg, "HEAD", w],
    )?;
    let permit = match crate::safety::worktree::salvaged_permit(&r.checks, id, wt, w)? {
        Ok(permit) => permit,
        Err(skip) => return Ok(Removal::Skipped(skip)),
    };
    match super::remove::git_remove(r, id, &wt.admin_dir, &permit)? {
        Removal::Removed(note) => {
            crate::crash::point("after-salvage-removal");
            Ok(Removal::Removed(note))
        }
        Removal::Skipped(skip) => {
            match &on_branch {
                Some(name) => git_str(abs, None, &["symbolic-ref", "HEAD", name])?,
                None => git_str(
                    abs,
                    None,
                    &["update-ref", "--no-deref", "HEAD", &head.to_string()],
                )?,
            };
            git_str(abs, None, &["read-tree", &format!("{w}^2^{{tree}}")])?;
            Ok(Removal::Skipped(skip))
        }
    }
}

/// The manifest entry a salvage commit's message records.
fn salvage_of(repo: &gix::Repository, commit: gix::ObjectId) -> Option<Entry> {
    let commit = repo.find_commit(commit).ok()?;
    let message = commit.message_raw().ok()?.to_string();
    message
        .lines()
        .find(|l| l.starts_with('{'))
        .and_then(|l| serde_json::from_str(l).ok())
}
