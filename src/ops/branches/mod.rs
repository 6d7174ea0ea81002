//! `git loop branches [--delete-merged] [--dry-run]`'s operation: the
//! `loop/*` branches no run records any more, and their deletion.
//!
//! Cleanup removes worktrees and keeps their branches (an unmerged branch is
//! the only copy of a run's work), and drops the run's entry, so branches
//! pile up. This command lists every `refs/heads/loop/*` that no manifest
//! entry names, with its tip, the age of the tip commit (committer time),
//! how many commits it is ahead of and behind the base, and whether it is
//! merged.
//!
//! - **The base.** A leftover branch has no entry, so the base it was made
//!   from is not known: every branch is compared with the configured base
//!   (`loop.base`, see `git loop config`; default `main`, else the default
//!   branch: [`crate::ops::base::configured`]). When that does not
//!   resolve, ahead, behind and merged are unknown (`null`, `-`) and nothing
//!   is deleted.
//! - **Merged** is [`crate::git::merged`]'s answer: the branch's work is in
//!   the base as an ancestor, squash-merged or rebase-merged (`mergedBy`).
//!   Patch ids alone only make it `probablyMerged` (`rebase`): shown, never
//!   deleted. A branch with no commits of its own since it was created is `empty`,
//!   not merged; it is deletable all the same when the base contains its tip
//!   (it holds nothing the base lacks), or when its tip is proven merged as
//!   the branch that made its commits is (the kernel's `tip_merged`).
//! - **One tip, one line.** Branches at one tip are one row of the table,
//!   named together, with one verdict (a proof any of them has, else
//!   evidence, else `no`, `empty` only when all are) and, since they share
//!   the kernel's verdict, one fate; `--json` still lists each branch.
//! - **Deletion** (`--delete-merged`) happens under the worktree-operation
//!   lock (so no git-loop create is between making `loop/<id>` and recording
//!   it) and the manifest mutex (so the entries read are current), in that
//!   order. Each branch is checked again there: no entry names it, no
//!   worktree has it checked out (HEAD of the main or any linked worktree,
//!   or a rebase or bisect in progress on it, as `git branch -d` judges), and
//!   its work is still in the base (checked again: the base may have been
//!   rewound). Then the ref is deleted by a
//!   compare-and-swap on the exact tip that was checked: a branch moved
//!   meanwhile is kept (`moved`). Each deletion is logged (`branch-delete`,
//!   with the tip, so `git branch <branch> <tip>` brings it back).
//! - `--dry-run` reports what `--delete-merged` would delete (`deleted` then
//!   means "would be deleted", as `removed` does in cleanup's dry run) and
//!   changes nothing; it takes no lock.

//!
//! [`survey`] lists ([`list`]), then decides each branch's [`Fate`]: listed
//! only, would be deleted (`--dry-run`), deleted or kept (in [`delete`],
//! under the locks). The events come from the fates; the command builds
//! its report from the [`BranchesOutcome`].

mod delete;

use serde::Serialize;

use crate::ctx::Ctx;
use crate::error::{Error, Result};
use crate::git::merged::{Detector, Verdict};
use crate::output::Notes;

/// Why a merged-or-not branch was not deleted when deletion was asked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum KeptCode {
    /// Its work is not in the base, or the base does not resolve.
    NotMerged,
    /// Checked out (or being rebased or bisected) in some worktree.
    CheckedOut,
    /// A manifest entry names it now (a run was created meanwhile).
    Recorded,
    /// Its tip changed after it was checked: the compare-and-swap refused.
    Moved,
    /// git refused the deletion (a `reference-transaction` hook, a lock):
    /// kept, as `git branch -d` would keep it.
    Refused,
    /// The deletion failed otherwise (the error is reported).
    Error,
}

impl KeptCode {
    pub fn as_str(self) -> &'static str {
        match self {
            KeptCode::NotMerged => "not-merged",
            KeptCode::CheckedOut => "checked-out",
            KeptCode::Recorded => "recorded",
            KeptCode::Moved => "moved",
            KeptCode::Refused => "refused",
            KeptCode::Error => "error",
        }
    }
}

/// What became of a leftover branch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fate {
    /// Listed; no deletion was asked.
    Listed,
    /// `--dry-run`: `--delete-merged` would delete it.
    WouldDelete,
    /// Deleted at its tip, kept in the trash as `trash_ref`.
    Deleted {
        trash_ref: String,
    },
    Kept(KeptCode),
}

/// One leftover branch: a `loop/*` no manifest entry names.
#[derive(Debug)]
pub struct Leftover {
    /// Short name, `loop/<x>`.
    pub branch: String,
    pub tip: gix::ObjectId,
    pub tip_short: String,
    /// The tip's committer time (`None`: not a readable commit).
    pub committed_at: Option<jiff::Timestamp>,
    pub ahead: Option<usize>,
    pub behind: Option<usize>,
    /// The safety kernel's verdict against the base (`None`: unknown).
    pub verdict: Option<Verdict>,
    /// Empty, its tip not in the base but proven merged as a tip: how
    /// (see [`crate::safety::branch::Judged::tip_merged`]).
    pub tip_merged: Option<crate::git::merged::MergedBy>,
    /// Merged, or empty with its tip in the base: may be deleted.
    pub deletable: bool,
    pub checked_out: bool,
    pub fate: Fate,
}

/// What `branches` found and did.
#[derive(Debug)]
pub struct BranchesOutcome {
    pub dry_run: bool,
    /// Whether a deletion pass ran (or was simulated).
    pub deleting: bool,
    /// The base every branch is compared with.
    pub base: String,
    pub branches: Vec<Leftover>,
    /// The first error that kept a branch (the others were still tried).
    pub error: Option<Error>,
}

pub fn survey(
    ctx: &Ctx,
    delete_merged: bool,
    dry_run: bool,
    out: &mut Notes<'_>,
) -> Result<BranchesOutcome> {
    let configured = crate::ops::base::configured(ctx)?;
    if delete_merged && !dry_run && configured.head_guess {
        // Merged into whatever branch the main checkout is on is no proof a
        // branch may go: refuse before anything is deleted.
        return Err(Error::BaseGuessed {
            name: configured.name,
        });
    }
    let base = configured.name;
    let mut outcome = BranchesOutcome {
        branches: list(ctx, &base, out)?,
        dry_run,
        deleting: delete_merged || dry_run,
        base,
        error: None,
    };
    if dry_run {
        for l in &mut outcome.branches {
            l.fate = match first_reason(l, false, l.checked_out) {
                Some(code) => Fate::Kept(code),
                None => Fate::WouldDelete,
            };
        }
    } else if delete_merged {
        outcome.error = delete::delete_merged(ctx, &outcome.base, &mut outcome.branches, out)?;
    }
    Ok(outcome)
}

/// The branches the manifest names (none without `.loop-worktrees/`).
fn recorded_branches(ctx: &Ctx) -> Result<std::collections::HashSet<String>> {
    if !ctx.loop_dir_exists()? {
        return Ok(Default::default());
    }
    let manifest = ctx.manifest.load_or_default()?;
    Ok(manifest.worktrees.iter().map(|e| e.branch()).collect())
}

/// Every leftover branch, judged against `base_name`.
fn list(ctx: &Ctx, base_name: &str, out: &mut Notes<'_>) -> Result<Vec<Leftover>> {
    let base = ctx.repo.resolve_commit(base_name);
    let recorded = recorded_branches(ctx)?;
    let (found, left_out) = ctx.repo.loop_branches()?;
    for name in left_out {
        out.note(format_args!(
            "warning: {name} is left out: its name is not UTF-8, or it is a symbolic ref"
        ));
    }
    let checked_out = crate::safety::checked_out::branches(&ctx.repo)?;
    let mut leftovers = Vec::new();
    let mut detector = Detector::new(ctx.repo.gix())?;
    for (branch, tip) in found {
        if recorded.contains(&branch) {
            continue;
        }
        let time = ctx.repo.commit_time(tip);
        // The safety kernel's verdict, with its guards (the branch the base
        // names is never merged into itself). Unreadable history: merged
        // unknown (`null`), never deleted.
        let (ahead, behind, judged) = match (time, base) {
            (Some(_), Some(base)) => {
                let (a, b) = ctx.repo.ahead_behind(tip, base)?;
                let judged = crate::safety::branch::judge(
                    ctx.repo.gix(),
                    &mut detector,
                    &branch,
                    tip,
                    base_name,
                )
                .ok();
                (Some(a), Some(b), judged)
            }
            _ => (None, None, None),
        };
        leftovers.push(Leftover {
            checked_out: checked_out.contains_key(&branch),
            branch,
            tip,
            tip_short: ctx.repo.short_id(tip),
            committed_at: time,
            ahead,
            behind,
            verdict: judged
                .as_ref()
                .map(|j| j.verdict.unwrap_or(Verdict::NotMerged)),
            deletable: judged.as_ref().is_some_and(|j| j.deletable),
            tip_merged: judged.as_ref().and_then(|j| j.tip_merged),
            fate: Fate::Listed,
        });
    }
    if base.is_none() && !leftovers.is_empty() {
        out.note(format_args!(
            "warning: the base {base_name:?} does not resolve: merged is unknown, nothing is deleted"
        ));
    }
    Ok(leftovers)
}

/// Why `l` must be kept, if it must.
fn first_reason(l: &Leftover, recorded: bool, checked_out: bool) -> Option<KeptCode> {
    if !l.deletable {
        Some(KeptCode::NotMerged)
    } else if recorded {
        Some(KeptCode::Recorded)
    } else if checked_out {
        Some(KeptCode::CheckedOut)
    } else {
        None
    }
}
