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
//! The message also ends with a trailer, `Git-Loop-HEAD: <refs/heads/…>` or
//! `Git-Loop-HEAD: detached`: where `HEAD` was (`W^1` is the commit), so
//! restore brings a detached run back detached (a salvage without the
//! trailer was made on its branch).
//! Then the worktree's `HEAD` (detached) and index are set to `W`, so `git
//! worktree remove`, never forced, is the last check ([`remove`]): it finds
//! the worktree clean unless something changed since the verification, and
//! then refuses (`HEAD` and the index are put back; the files were never
//! touched).
//! Ignored files are not kept: they are listed (count, bytes, paths) in the
//! report and the `salvage` event.
//!
//! # Interrupted
//!
//! Interrupted anywhere, a run is either **intact as it was** (same `git
//! status`, same `HEAD` — on its branch or detached at its commit — same
//! files, ignored ones aside) or **removed and restorable** (registration
//! and directory gone, `W` on the ref: `restore` brings it back). The one
//! state in between is a worktree detached at its own `refs/loop/salvage/<id>`
//! commit (the switch was made, the removal did not finish), its directory
//! complete or part deleted (git killed while deleting files, its `.git` file
//! perhaps among them). It is never left so by a signal, and recognised when
//! a `kill -9` left it:
//! - From the switch until the removal's outcome is handled, SIGINT/SIGTERM
//!   are deferred through a [`crate::signals::RollbackWindow`] (one salvage
//!   removal at a time per process, as the window is one per process): a
//!   signal while git runs waits for it to return — a signal to the process
//!   group kills git too, perhaps part way through deleting files — then the
//!   worktree is put back ([`put_back`]) and the process exits: `HEAD` back on
//!   its branch (or detached at `W^1`), the index back to `I`'s tree and, if
//!   git may have deleted files (it did not refuse the removal for a reason
//!   it checks first: changes, lock, submodules), the files of `W` that are
//!   missing checked out again from `W` (the `.git` file rewritten if gone).
//!   A removal that finished stays finished. Any failure in the window puts
//!   it back the same way. A second signal exits at once.
//! - After a `kill -9` in the window, the next `restore <id>` puts such a
//!   worktree back in place (the same put-back, files included), and the
//!   next `--salvage` removal of it puts it back instead of salvaging it
//!   again (it reports it skipped: run the removal again). A complete
//!   worktree detached at `W` is also clean to git, so a plain removal
//!   removes it: removed and restorable.
//!
//! Never salvaged away: locked worktrees, submodules, nested repositories,
//! operations in progress, worktrees in use: they keep their skip codes.

pub(crate) mod build;
pub mod put_back;
mod remove;
pub(crate) mod verify;

#[cfg(test)]
mod tests;

pub use put_back::{Head, PutBack, interrupted};

use serde::Serialize;

use super::{Removal, Remover, Skip, SkipCode};
use crate::error::{Error, Result};
use crate::manifest::Entry;

/// `refs/loop/salvage/<id>`.
pub fn ref_name(id: &str) -> String {
    format!("refs/loop/salvage/{id}")
}

/// The salvage message's trailer recording where `HEAD` was: a branch's
/// full name, or `detached` (a salvage without it was made on its branch).
pub(crate) const HEAD_TRAILER: &str = "Git-Loop-HEAD: ";

/// Where the salvage with this message found `HEAD`: `None` when it was
/// on a branch (the branch's full name, if recorded), `Some` when detached.
pub fn recorded_head(message: &str) -> Option<&str> {
    message
        .lines()
        .rev()
        .find_map(|l| l.strip_prefix(HEAD_TRAILER))
        .map(str::trim)
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
        e.to = self.commit.clone().map(crate::events::State::Commit);
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
    let Some(wt) = r.registration(id) else {
        return Ok((Removal::Skipped(skip), None));
    };
    // Left detached at its own salvage by an interrupted salvage: put back
    // as it was first (see the module doc), never salvaged again as it is.
    if let Some(put_back) = interrupted(id, wt, &abs)? {
        let skip = put_back_interrupted(id, &put_back, dry_run)?;
        return Ok((Removal::Skipped(skip), None));
    }
    if !resolves(skip.code) || !std::fs::symlink_metadata(&abs).is_ok_and(|m| m.is_dir()) {
        return Ok((Removal::Skipped(skip), None));
    }
    if let Some(other) = kept_for_another_reason(r, wt, &abs)? {
        return Ok((Removal::Skipped(other), None));
    }
    let before = Before::read(id, &abs)?;
    // An earlier salvage of another run of this id (never restored: a
    // restored one is this run) would be left only in the reflog, for gc.
    if before.holds_another_runs_salvage(entry) {
        let why = format!(
            "{} (not salvaged: {} holds an earlier run's salvage; restore or delete it first)",
            skip.reason, before.refname
        );
        return Ok((Removal::Skipped(Skip::new(why, skip.code)), None));
    }
    if dry_run {
        let planned = Salvaged {
            refname: before.refname,
            commit: None,
            ignored: IgnoredFiles::default(),
        };
        return Ok((Removal::Removed(None), Some(planned)));
    }
    let (commit, ignored) = save(id, entry, &abs, wt, &before)?;
    let put_back = put_back_plan(&abs, wt, &commit, before.head, before.on_branch);
    let salvaged = Salvaged {
        refname: before.refname,
        commit: Some(commit),
        ignored,
    };
    let removal = remove::remove_at(r, id, wt, put_back)?;
    Ok((saved_first(removal, &salvaged.refname), Some(salvaged)))
}

/// A removal git refused after the salvage: its reason says the state at
/// the check was saved to `refname` first.
fn saved_first(removal: Removal, refname: &str) -> Removal {
    match removal {
        Removal::Skipped(mut skip) => {
            skip.reason = format!(
                "{} (its state at the check was saved to {refname} first)",
                skip.reason
            );
            Removal::Skipped(skip)
        }
        removed => removed,
    }
}

/// Put back a worktree an interrupted salvage left detached at its own
/// salvage (only say so with `dry_run`); the skip that reports it.
fn put_back_interrupted(id: &str, put_back: &PutBack, dry_run: bool) -> Result<Skip> {
    let reason = if dry_run {
        format!(
            "an interrupted salvage left it detached at {}; it would be put back as it was",
            put_back.w
        )
    } else {
        put_back.apply(true)?;
        format!(
            "an interrupted salvage had left it detached at {} ({}); put back as it was, run the removal again",
            put_back.w,
            ref_name(id)
        )
    };
    Ok(Skip::new(reason, SkipCode::Dirty))
}

/// What keeps the worktree even with a salvage, checked in this order:
/// locked, at risk for a reason other than unreachable commits, submodules.
fn kept_for_another_reason(
    r: &Remover<'_>,
    wt: &crate::git::repo::Worktree,
    abs: &std::path::Path,
) -> Result<Option<Skip>> {
    if let Some(reason) = &wt.locked {
        return Ok(Some(Skip::new(
            format!("locked: {reason}"),
            SkipCode::Locked,
        )));
    }
    let mut risk = r.at_risk(wt, abs)?;
    risk.unreachable_commits = 0;
    if let Some(other) = risk.skip() {
        return Ok(Some(other));
    }
    if crate::git::repo::cleanliness(abs, &wt.admin_dir)?.submodules {
        let why = "it contains submodules: never salvaged away";
        return Ok(Some(Skip::new(why, SkipCode::Submodules)));
    }
    Ok(None)
}

/// The worktree as the salvage finds it, read with gix.
struct Before {
    repo: gix::Repository,
    /// `refs/loop/salvage/<id>`.
    refname: String,
    /// Its `HEAD` commit.
    head: gix::ObjectId,
    /// The branch `HEAD` is on (its full name); `None` when detached.
    on_branch: Option<String>,
    /// What the salvage ref holds now; null when there is none.
    old: gix::ObjectId,
}

impl Before {
    /// Open the worktree's repository and read its `HEAD` and salvage ref.
    fn read(id: &str, abs: &std::path::Path) -> Result<Before> {
        let refname = ref_name(id);
        let repo = gix::open(abs).map_err(|e| salvage_err(id, e))?;
        let head = crate::git::refs::head_commit(&repo)
            .ok_or_else(|| salvage_err(id, "its HEAD does not name a commit"))?;
        let on_branch = crate::git::refs::head_name(&repo).map_err(|e| salvage_err(id, e))?;
        let old = match crate::git::refs::find(&repo, &refname) {
            Ok(Some(value)) => crate::git::refs::peel(&repo, &value)
                .ok_or_else(|| salvage_err(id, format!("{refname} does not resolve")))?,
            Ok(None) => gix::ObjectId::null(repo.object_hash()),
            Err(e) => return Err(salvage_err(id, e)),
        };
        Ok(Before {
            repo,
            refname,
            head,
            on_branch,
            old,
        })
    }

    /// The salvage ref holds a salvage that is not of this run of the id.
    fn holds_another_runs_salvage(&self, entry: &Entry) -> bool {
        !self.old.is_null() && !salvage_of(&self.repo, self.old).is_some_and(|e| e.same_run(entry))
    }
}

/// Build the salvage commit `W`, verify its tree against the files, keep
/// the salvage it replaces in the trash, then write the ref (compare-and-swap
/// against `before.old`); `W` and the ignored files it does not keep.
fn save(
    id: &str,
    entry: &Entry,
    abs: &std::path::Path,
    wt: &crate::git::repo::Worktree,
    before: &Before,
) -> Result<(String, IgnoredFiles)> {
    let message = format!(
        "git-loop salvage of {id}\n\n{}\n\n{HEAD_TRAILER}{}\n",
        serde_json::to_string(entry).expect("an entry serializes"),
        before.on_branch.as_deref().unwrap_or("detached")
    );
    let commit = build::build(abs, &wt.admin_dir, &before.head.to_string(), &message, &[])?;
    let w = gix::ObjectId::from_hex(commit.as_bytes()).map_err(|e| salvage_err(id, e))?;
    let ignored = verify::verify(abs, w).map_err(|why| {
        salvage_err(
            id,
            format!("the saved tree does not match the worktree: {why}"),
        )
    })?;
    crate::crash::fail_point("salvage-ref-write").map_err(|e| salvage_err(id, e))?;
    // The salvage it replaces (this run's own, salvaged and restored before)
    // is kept in the trash: in the reflog alone it is unreachable, and gc
    // expires it after gc.reflogExpireUnreachable (30 days).
    if !before.old.is_null() {
        crate::safety::trash::keep(
            &before.repo,
            &crate::safety::trash::Keep::salvage(id, before.old),
        )?;
    }
    crate::git::plumbing::update_ref(
        abs,
        &before.refname,
        &commit,
        &before.old.to_string(),
        &format!("git-loop salvage of {id}"),
    )?;
    crate::crash::point("after-salvage-ref");
    Ok((commit, ignored))
}

/// How to put the worktree back as it was before the switch to `W`
/// (`commit`): `HEAD` on its branch or detached at `head`, the index `W^2`'s.
fn put_back_plan(
    abs: &std::path::Path,
    wt: &crate::git::repo::Worktree,
    commit: &str,
    head: gix::ObjectId,
    on_branch: Option<String>,
) -> PutBack {
    PutBack {
        abs: abs.to_path_buf(),
        admin_dir: wt.admin_dir.clone(),
        w: commit.to_owned(),
        index_tree: format!("{commit}^2^{{tree}}"),
        head: match on_branch {
            Some(name) => Head::Branch(name),
            None => Head::Detached(head.to_string()),
        },
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
