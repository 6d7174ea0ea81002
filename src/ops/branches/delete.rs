//! `branches --delete-merged`: each leftover checked again under the locks
//! and deleted by the safety kernel only at the tip checked.

use super::{Fate, KeptCode, Leftover, first_reason};
use crate::ctx::Ctx;
use crate::error::{Error, Result};
use crate::git::merged::{Detector, Verdict};
use crate::lock::OpsLock;
use crate::output::Notes;
use crate::safety::retire::{KeepCode, Retired, retire};

/// Decide every branch's fate, each judged again (the base may have been
/// rewound since the listing) and retired by the kernel
/// ([`crate::safety::retire`]) at the tip listed; log a `branch-delete`
/// for each deletion. Returns the first error that kept a branch (the
/// others are still tried).
pub(super) fn delete_merged(
    ctx: &Ctx,
    base: &str,
    branches: &mut [Leftover],
    out: &mut Notes<'_>,
) -> Result<Option<Error>> {
    if !branches.iter().any(|l| l.deletable) {
        for l in branches.iter_mut() {
            l.fate = Fate::Kept(KeptCode::NotMerged);
        }
        return Ok(None);
    }
    ctx.ensure_loop_dir()?;
    let _ops = OpsLock::acquire(&ctx.loop_dir(), |waiting| {
        out.note(format_args!("{waiting}"))
    })?;
    let mut tx = ctx.start_transaction()?;
    let recorded: std::collections::HashSet<String> = tx
        .manifest()?
        .worktrees
        .iter()
        .map(|e| e.branch())
        .collect();
    let checked_out = crate::safety::checked_out::branches(&ctx.repo)?;
    let mut detector = Detector::new(ctx.repo.gix())?;
    let mut first_error = None;
    let mut events = Vec::new();
    for l in branches.iter_mut() {
        l.checked_out = checked_out.contains_key(&l.branch);
        if let Some(code) = first_reason(l, recorded.contains(&l.branch), l.checked_out) {
            l.fate = Fate::Kept(code);
            continue;
        }
        match retire(
            &ctx.repo,
            &mut detector,
            &checked_out,
            &l.branch,
            l.tip,
            base,
        ) {
            Ok(retired) => {
                events.extend(retired.event());
                l.fate = fate(l, retired);
                if l.fate == Fate::Kept(KeptCode::Moved) {
                    out.note(format_args!(
                        "{} moved after it was checked; it is kept",
                        l.branch
                    ));
                }
            }
            // Its verdict or its trash entry could not be had: kept.
            Err(e) => {
                l.fate = Fate::Kept(KeptCode::Error);
                first_error.get_or_insert(e);
            }
        }
    }
    tx.log_all(events);
    tx.commit(out)?;
    Ok(first_error)
}

/// The fate the kernel's answer gives `l`.
fn fate(l: &mut Leftover, retired: Retired) -> Fate {
    match retired {
        Retired::Deleted { trash_ref, .. } => Fate::Deleted { trash_ref },
        Retired::Kept {
            code: KeepCode::NotMerged,
            ..
        } => {
            // Not merged after all: no longer shown as merged.
            if let Some(Verdict::Merged(_)) = l.verdict {
                l.verdict = Some(Verdict::NotMerged);
            }
            l.deletable = false;
            Fate::Kept(KeptCode::NotMerged)
        }
        Retired::Kept { code, .. } => Fate::Kept(match code {
            KeepCode::CheckedOut => KeptCode::CheckedOut,
            KeepCode::Refused => KeptCode::Refused,
            KeepCode::NotMerged | KeepCode::Moved | KeepCode::Gone => KeptCode::Moved,
        }),
    }
}
