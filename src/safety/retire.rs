//! Retiring a run's branch: the one kernel operation that land's finish,
//! cleanup's `--delete-merged-branches` and `branches --delete-merged`
//! each call, with one result ([`Retired`]) and one vocabulary of why a
//! branch was kept ([`KeepCode`]); its `branch-delete` event is worded once
//! (`Retired::event`, in `crate::events`, which the kernel does not know).
//!
//! In order, each step keeping the branch when it says no:
//! 1. the branch is still at the tip the caller judged or landed
//!    (`gone`, `moved`);
//! 2. the merged verdict with its guards ([`super::branch::judge`]): only
//!    the strongest proof, or no commits of its own with the tip in the
//!    base (`not-merged`);
//! 3. no worktree has it checked out, through symbolic refs and the files
//!    of a rebase or bisect ([`super::checked_out`]; `checked-out`);
//! 4. its tip kept in the [trash](super::trash) first, then a
//!    compare-and-swap delete at that tip, both through the ref layer
//!    (`crate::git::refs`), so a `reference-transaction` hook runs and may
//!    refuse, as it refuses `git branch -d` (`refused`; a branch that
//!    moved meanwhile: `moved`). A refused deletion leaves its trash entry:
//!    it may not be this process's alone (two deleters of one branch in one
//!    second share one), and an entry the branch also holds costs nothing.

use std::collections::HashMap;
use std::path::PathBuf;

use gix::ObjectId;

use super::{Permit, Target, trash};
use crate::error::Result;
use crate::git::merged::{Detector, MergedBy, Verdict};
use crate::git::repo::Repo;

/// Why a branch asked to be retired was kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum KeepCode {
    /// Not proven merged into its base (or a guard stopped the proof).
    NotMerged,
    /// Checked out (or being rebased or bisected) in some worktree,
    /// directly or through a symbolic ref.
    CheckedOut,
    /// Its tip changed after it was judged: the compare-and-swap refused.
    Moved,
    /// git refused the deletion (a `reference-transaction` hook, a lock
    /// held by another process): kept, as `git branch -d` would keep it.
    Refused,
    /// There is no such branch (any more).
    Gone,
}

/// What [`retire`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Retired {
    /// Deleted at `tip`, its work in `base` (`merged_by`, or `None`: no
    /// commits of its own), kept in the trash as `trash_ref`.
    Deleted {
        branch: String,
        base: String,
        tip: ObjectId,
        merged_by: Option<MergedBy>,
        trash_ref: String,
    },
    /// Kept, with why (naming the base when not merged).
    Kept { code: KeepCode, reason: String },
}

impl Retired {
    fn kept(code: KeepCode, reason: String) -> Result<Retired> {
        Ok(Retired::Kept { code, reason })
    }
}

/// Retire `branch` (short name), judged or landed at `tip`, against `base`
/// (a run's recorded base, a landing's target, `branches`' base); see the
/// module doc. `checked_out`: [`super::checked_out::branches`], read once
/// by a caller that retires many. An error: the verdict or the trash could
/// not be had (nothing was deleted).
pub fn retire(
    repo: &Repo,
    detector: &mut Detector<'_>,
    checked_out: &HashMap<String, PathBuf>,
    branch: &str,
    tip: ObjectId,
    base: &str,
) -> Result<Retired> {
    match repo.branch_target(branch)? {
        None => return Retired::kept(KeepCode::Gone, format!("{branch} no longer exists")),
        Some(now) if now != tip => {
            return Retired::kept(
                KeepCode::Moved,
                format!(
                    "{branch} moved to {} after it was judged at {}",
                    repo.short_id(now),
                    repo.short_id(tip)
                ),
            );
        }
        Some(_) => {}
    }
    let judged = super::branch::judge(repo.gix(), detector, branch, tip, base)?;
    if !judged.deletable {
        let why = match (&judged.guard, judged.verdict) {
            (Some(guard), _) => guard.clone(),
            (None, Some(Verdict::Empty)) => "no commits of its own, and not in its base".to_owned(),
            (None, Some(Verdict::Probable(by))) => format!(
                "not proven merged into its base (patch ids say probably {by}-merged, but merging it would still change the base)"
            ),
            _ => "not proven merged into its base".to_owned(),
        };
        return Retired::kept(KeepCode::NotMerged, format!("{why} ({base})"));
    }
    if let Some(worktree) = checked_out.get(branch) {
        return Retired::kept(
            KeepCode::CheckedOut,
            format!("{branch} is checked out in {}", worktree.display()),
        );
    }
    let merged_by = judged.proof();
    let keep = trash::Keep::branch(branch, tip, trash::Reason::of_merge(merged_by));
    let trash_ref = trash::keep(repo.gix(), &keep)?;
    crate::crash::point("before-branch-delete");
    let permit = Permit {
        what: Target::Branch(branch.to_owned(), tip),
        kept: vec![trash_ref.clone()],
    };
    if let Err(e) = super::exec::delete_branch(repo, branch, tip, &permit) {
        if repo.branch_target(branch)? == Some(tip) {
            return Retired::kept(
                KeepCode::Refused,
                format!("git refused to delete {branch}: {e}"),
            );
        }
        return Retired::kept(
            KeepCode::Moved,
            format!("{branch} moved after it was found merged at {tip}"),
        );
    }
    Ok(Retired::Deleted {
        branch: branch.to_owned(),
        base: base.to_owned(),
        tip,
        merged_by,
        trash_ref,
    })
}
