//! `--delete-merged-branches`: a removed run's branch goes only when its
//! work is already in its base.

use super::{KeptBranch, KeptCode};
use crate::commands::Ctx;
use crate::error::Result;
use crate::git::cmd::Git;
use crate::manifest::Entry;

/// Delete `loop/<id>` only if its tip is contained in the run's base branch
/// (checked with gix), and then only with `git branch -d`, git's own check as
/// a second gate. An unmerged branch is the only copy of a run's work.
pub(super) fn delete_if_merged(
    ctx: &Ctx,
    git: &Git,
    entry: &Entry,
) -> Result<(bool, Option<KeptBranch>)> {
    let branch = entry.branch();
    let Some(tip) = ctx.repo.branch_target(&branch)? else {
        return Ok((false, None));
    };
    let Some(base) = ctx.repo.resolve_commit(&entry.base_branch) else {
        return Ok((
            false,
            Some(KeptBranch {
                code: KeptCode::NotMerged,
                reason: format!("its base {:?} no longer resolves", entry.base_branch),
            }),
        ));
    };
    if !ctx.repo.is_ancestor(tip, base)? {
        return Ok((
            false,
            Some(KeptBranch {
                code: KeptCode::NotMerged,
                reason: format!("not merged into {}", entry.base_branch),
            }),
        ));
    }
    match git.branch_delete(&branch)? {
        Ok(()) => Ok((true, None)),
        Err(refusal) => Ok((
            false,
            Some(KeptBranch {
                code: KeptCode::GitRefused,
                reason: refusal.reason(),
            }),
        )),
    }
}
