//! The fate of a removed run's branch. It is kept unless
//! `--delete-merged-branches` asks, and even then goes only when the safety
//! kernel proves its work is in its base and keeps its tip in the trash
//! first (see [`crate::safety::branch`]): the strongest proof (an ancestor,
//! or a tree merge that changes nothing), or a branch with no commits of its
//! own whose tip the base contains. It is deleted by a compare-and-swap on
//! the exact tip judged (a branch moved after the check is kept, code
//! `moved`), and only when no worktree has it checked out (as `git branch
//! -d` judges, code `checked-out`). The deletion is logged with the tip, the
//! proof and the trash ref, so `git loop trash restore loop/<id>` brings it
//! back.

use super::Removed;
use crate::ctx::Ctx;
use crate::error::{Error, Result};
use crate::git::merged::{Detector, MergedBy};
use crate::manifest::Entry;
use crate::safety::branch::{Deletion, KeepCode};

/// What became of a removed run's branch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fate {
    /// Not looked at: deleting merged branches was not asked for, or
    /// judging it failed.
    Untouched,
    /// Deleted at `tip` (its work is in the base: `merged_by`, or `None`
    /// when the run made no commits), kept in the trash as `trash_ref`.
    Deleted {
        tip: gix::ObjectId,
        merged_by: Option<MergedBy>,
        trash_ref: String,
    },
    /// Kept.
    Kept(Kept),
}

/// Why a branch asked to be deleted was kept.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Kept {
    /// There was no branch.
    NoBranch,
    /// The kernel refused, with why (naming the base when not merged).
    Refused { code: KeepCode, reason: String },
}

/// Decide the fate of each removed run's branch (`--delete-merged-branches`).
/// A failure for one run leaves its branch untouched and is kept as the
/// first error (if none is yet); the others are still decided.
pub(super) fn decide(ctx: &Ctx, removed: &mut [Removed], error: &mut Option<Error>) {
    let ready =
        Detector::new(ctx.repo.gix()).and_then(|d| Ok((d, ctx.repo.checked_out_branches()?)));
    let (mut detector, checked_out) = match ready {
        Ok(ready) => ready,
        Err(e) => {
            error.get_or_insert(e);
            return;
        }
    };
    for r in removed {
        match fate(ctx, &mut detector, &checked_out, &r.entry) {
            Ok(fate) => r.branch = fate,
            Err(e) => {
                error.get_or_insert(e);
            }
        }
    }
}

/// Delete `loop/<id>` if its work is in the run's base; see the module doc.
fn fate(
    ctx: &Ctx,
    detector: &mut Detector<'_>,
    checked_out: &std::collections::HashSet<String>,
    entry: &Entry,
) -> Result<Fate> {
    let branch = entry.branch();
    let Some(tip) = ctx.repo.branch_target(&branch)? else {
        return Ok(Fate::Kept(Kept::NoBranch));
    };
    let judged =
        crate::safety::branch::judge(ctx.repo.gix(), detector, &branch, tip, &entry.base_branch)?;
    Ok(
        match crate::safety::branch::delete(&ctx.repo, &branch, tip, &judged, checked_out)? {
            Deletion::Deleted {
                tip,
                merged_by,
                trash_ref,
            } => Fate::Deleted {
                tip,
                merged_by,
                trash_ref,
            },
            Deletion::Kept(code, reason) => Fate::Kept(Kept::Refused {
                code,
                reason: match code {
                    KeepCode::NotMerged => format!("{reason} ({})", entry.base_branch),
                    _ => reason,
                },
            }),
        },
    )
}
