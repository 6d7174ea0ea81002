//! The fate of a removed run's branch. It is kept unless
//! `--delete-merged-branches` asks, and even then goes only when the safety
//! kernel proves its work is in its base and keeps its tip in the trash
//! first (see [`crate::safety::branch`]): the strongest proof (an ancestor,
//! or a tree merge that changes nothing), or a branch with no commits of its
//! own whose tip the base contains. It is deleted by a compare-and-swap on
//! the exact tip judged (a branch moved after the check is kept, code
//! `moved`), and only when no worktree has it checked out (as `git branch
//! -d` judges, through symbolic refs, code `checked-out`), and a
//! `reference-transaction` hook may refuse it (code `refused`): the one
//! retirement of the kernel, [`crate::safety::retire`]. The deletion is
//! logged with the tip, the proof and the trash ref, so `git loop trash
//! restore loop/<id>` brings it back.

use super::Removed;
use crate::ctx::Ctx;
use crate::error::{Error, Result};
use crate::git::merged::Detector;
use crate::manifest::Entry;
use crate::safety::retire::{KeepCode, Retired, retire};

/// What became of a removed run's branch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fate {
    /// Not looked at: deleting merged branches was not asked for, or
    /// judging it failed.
    Untouched,
    /// The kernel's answer: deleted (kept in the trash), or kept and why.
    Retired(Retired),
}

/// Decide the fate of each removed run's branch (`--delete-merged-branches`).
/// A failure for one run leaves its branch untouched and is kept as the
/// first error (if none is yet); the others are still decided.
pub(super) fn decide(ctx: &Ctx, removed: &mut [Removed], error: &mut Option<Error>) {
    let ready = Detector::new(ctx.repo.gix())
        .and_then(|d| Ok((d, crate::safety::checked_out::branches(&ctx.repo)?)));
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

/// Retire `loop/<id>` at its tip against the run's base; see the module doc.
fn fate(
    ctx: &Ctx,
    detector: &mut Detector<'_>,
    checked_out: &std::collections::HashMap<String, std::path::PathBuf>,
    entry: &Entry,
) -> Result<Fate> {
    let branch = entry.branch();
    let Some(tip) = ctx.repo.branch_target(&branch)? else {
        return Ok(Fate::Retired(Retired::Kept {
            code: KeepCode::Gone,
            reason: format!("{branch} does not exist"),
        }));
    };
    let base = &entry.base_branch;
    let retired = retire(&ctx.repo, detector, checked_out, &branch, tip, base)?;
    Ok(Fate::Retired(retired))
}
