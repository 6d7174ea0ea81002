//! `--delete-merged-branches`: a removed run's branch goes only when the
//! safety kernel proves its work is in its base and keeps its tip in the
//! trash first (see [`crate::safety::branch`]): the strongest proof (an
//! ancestor, or a tree merge that changes nothing), or a branch with no
//! commits of its own whose tip the base contains. It is deleted by a
//! compare-and-swap on the exact tip judged (a branch moved after the check
//! is kept, code `moved`), and only when no worktree has it checked out (as
//! `git branch -d` judges, code `checked-out`). The deletion is logged with
//! the tip, the proof and the trash ref, so `git loop trash restore
//! loop/<id>` brings it back.

use super::{KeptBranch, KeptCode};
use crate::ctx::Ctx;
use crate::error::Result;
use crate::git::merged::Detector;
use crate::manifest::Entry;
use crate::safety::branch::{Deletion, KeepCode};

/// A deleted branch: its tip, how its work is in the base (`None`: the
/// run made no commits), and the trash ref that keeps it.
pub(super) struct Deleted {
    pub tip: gix::ObjectId,
    pub merged_by: Option<crate::git::merged::MergedBy>,
    pub trash_ref: String,
}

/// Delete `loop/<id>` if its work is in the run's base; see the module doc.
/// `Err(None)`: there was no branch.
pub(super) fn delete_if_merged(
    ctx: &Ctx,
    detector: &mut Detector<'_>,
    checked_out: &std::collections::HashSet<String>,
    entry: &Entry,
) -> Result<std::result::Result<Deleted, Option<KeptBranch>>> {
    let branch = entry.branch();
    let Some(tip) = ctx.repo.branch_target(&branch)? else {
        return Ok(Err(None));
    };
    let judged =
        crate::safety::branch::judge(ctx.repo.gix(), detector, &branch, tip, &entry.base_branch)?;
    Ok(
        match crate::safety::branch::delete(&ctx.repo, &branch, tip, &judged, checked_out)? {
            Deletion::Deleted {
                tip,
                merged_by,
                trash_ref,
            } => Ok(Deleted {
                tip,
                merged_by,
                trash_ref,
            }),
            Deletion::Kept(code, reason) => Err(Some(KeptBranch {
                code: match code {
                    KeepCode::NotMerged => KeptCode::NotMerged,
                    KeepCode::CheckedOut => KeptCode::CheckedOut,
                    KeepCode::Moved => KeptCode::Moved,
                },
                reason: match code {
                    KeepCode::NotMerged => format!("{reason} ({})", entry.base_branch),
                    _ => reason,
                },
            })),
        },
    )
}
