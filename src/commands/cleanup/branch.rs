//! `--delete-merged-branches`: a removed run's branch goes only when its
//! work is already in its base.
//!
//! "In its base" is [`crate::git::merged`]'s proof (`ancestor`, `squash`
//! or `rebase`: [`Verdict::Merged`] and nothing weaker — a branch patch ids
//! only call probably rebase-merged is kept, `not-merged`), or a branch with no commits of its own whose tip the base
//! contains (it holds nothing the base lacks). A squash- or rebase-merged
//! branch is not an ancestor of its base, so `git branch -d` would refuse
//! it: the ref is deleted with gix instead, by a compare-and-swap on the
//! exact tip that was proven merged (a branch moved after the check is kept,
//! code `moved`), and only when no worktree has it checked out (as `git
//! branch -d` judges, code `checked-out`). The deletion is logged with the
//! tip and the proof, so `git branch <branch> <tip>` brings it back.

use super::{KeptBranch, KeptCode};
use crate::commands::Ctx;
use crate::error::Result;
use crate::git::merged::{Detector, Verdict, branch_start};
use crate::manifest::Entry;

/// A deleted branch: its tip and how its work is in the base (`None`: the
/// run made no commits).
pub(super) struct Deleted {
    pub tip: gix::ObjectId,
    pub merged_by: Option<crate::git::merged::MergedBy>,
}

fn kept(
    code: KeptCode,
    reason: String,
) -> Result<std::result::Result<Deleted, Option<KeptBranch>>> {
    Ok(Err(Some(KeptBranch { code, reason })))
}

/// Delete `loop/<id>` if its work is in the run's base branch; see the
/// module doc. `Err(None)`: there was no branch.
pub(super) fn delete_if_merged(
    ctx: &Ctx,
    detector: &mut Detector<'_>,
    entry: &Entry,
) -> Result<std::result::Result<Deleted, Option<KeptBranch>>> {
    let branch = entry.branch();
    let Some(tip) = ctx.repo.branch_target(&branch)? else {
        return Ok(Err(None));
    };
    let Some(base) = ctx.repo.resolve_commit(&entry.base_branch) else {
        return kept(
            KeptCode::NotMerged,
            format!("its base {:?} no longer resolves", entry.base_branch),
        );
    };
    if crate::git::merged::base_reads_branch(ctx.repo.gix(), &entry.base_branch, &branch) {
        return kept(
            KeptCode::NotMerged,
            format!("its base {:?} is {branch} itself", entry.base_branch),
        );
    }
    let verdict = detector.check(tip, base, branch_start(ctx.repo.gix(), &branch))?;
    let merged_by = match verdict {
        Verdict::Merged(by) => Some(by),
        Verdict::Empty if ctx.repo.is_ancestor(tip, base)? => None,
        Verdict::Probable(by) => {
            return kept(
                KeptCode::NotMerged,
                format!(
                    "not proven merged into {} (patch ids say probably {by}-merged, but merging it would still change {0})",
                    entry.base_branch
                ),
            );
        }
        Verdict::Empty | Verdict::NotMerged => {
            return kept(
                KeptCode::NotMerged,
                format!("not merged into {}", entry.base_branch),
            );
        }
    };
    if ctx.repo.checked_out_branches()?.contains(&branch) {
        return kept(
            KeptCode::CheckedOut,
            format!("{branch} is checked out in a worktree"),
        );
    }
    crate::crash::point("before-branch-delete");
    if let Err(e) = ctx.repo.delete_branch_if_at(&branch, tip) {
        if ctx.repo.branch_target(&branch)? == Some(tip) {
            return Err(e);
        }
        return kept(
            KeptCode::Moved,
            format!("{branch} moved after it was found merged at {tip}"),
        );
    }
    Ok(Ok(Deleted { tip, merged_by }))
}
