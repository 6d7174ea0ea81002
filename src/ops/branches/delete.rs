//! `branches --delete-merged`: each leftover checked again under the locks
//! and deleted by the safety kernel only at the tip checked.

use super::{Fate, KeptCode, Leftover, first_reason, recorded_branches};
use crate::ctx::Ctx;
use crate::error::{Error, Result};
use crate::events::{Event, EventKind};
use crate::git::merged::{Detector, Verdict};
use crate::lock::{ManifestMutex, OpsLock};
use crate::output::Out;
use crate::safety::branch::{Deletion, KeepCode};

/// Decide every branch's fate, deleting the merged ones; log a
/// `branch-delete` for each deletion. Returns the first error that kept a
/// branch (the others are still tried).
pub(super) fn delete_merged(
    ctx: &Ctx,
    base: &str,
    branches: &mut [Leftover],
    out: &mut Out<'_>,
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
    let mutex = ManifestMutex::acquire(&ctx.loop_dir())?;
    let recorded = recorded_branches(ctx)?;
    let checked_out = ctx.repo.checked_out_branches()?;
    let mut detector = Detector::new(ctx.repo.gix())?;
    let mut first_error = None;
    for i in 0..branches.len() {
        let l = &mut branches[i];
        l.checked_out = checked_out.contains(&l.branch);
        if let Some(code) = first_reason(l, recorded.contains(&l.branch), l.checked_out) {
            l.fate = Fate::Kept(code);
            continue;
        }
        match decide(ctx, base, &mut detector, l, &checked_out, out) {
            Ok(failed) => {
                if let Some(e) = failed {
                    first_error.get_or_insert(e);
                }
            }
            Err(e) => {
                // The deletions made so far are logged.
                ctx.log_events(&events(base, branches), out);
                return Err(e);
            }
        }
    }
    ctx.log_events(&events(base, branches), out);
    drop(mutex);
    Ok(first_error)
}

/// Judge `l` again (the base may have been rewound since the listing) and
/// let the kernel keep its tip in the trash, then delete it; set its fate.
/// A judgement that fails is the error (it stops the command); a deletion
/// that fails keeps the branch (`error`) and is returned.
fn decide(
    ctx: &Ctx,
    base: &str,
    detector: &mut Detector<'_>,
    l: &mut Leftover,
    checked_out: &std::collections::HashSet<String>,
    out: &mut Out<'_>,
) -> Result<Option<Error>> {
    let judged = crate::safety::branch::judge(ctx.repo.gix(), detector, &l.branch, l.tip, base)?;
    match crate::safety::branch::delete(&ctx.repo, &l.branch, l.tip, &judged, checked_out) {
        Ok(deletion) => l.fate = fate(l, deletion),
        Err(e) => {
            l.fate = Fate::Kept(KeptCode::Error);
            return Ok(Some(e));
        }
    }
    if l.fate == Fate::Kept(KeptCode::Moved) {
        out.note(format_args!(
            "{} moved after it was checked; it is kept",
            l.branch
        ));
    }
    Ok(None)
}

/// The fate the kernel's answer gives `l`.
fn fate(l: &mut Leftover, deletion: Deletion) -> Fate {
    match deletion {
        Deletion::Deleted { trash_ref, .. } => Fate::Deleted { trash_ref },
        Deletion::Kept(KeepCode::NotMerged, _) => {
            // Not merged after all: no longer shown as merged.
            if let Some(Verdict::Merged(_)) = l.verdict {
                l.verdict = Some(Verdict::NotMerged);
            }
            l.deletable = false;
            Fate::Kept(KeptCode::NotMerged)
        }
        Deletion::Kept(KeepCode::CheckedOut, _) => Fate::Kept(KeptCode::CheckedOut),
        Deletion::Kept(KeepCode::Moved, _) => Fate::Kept(KeptCode::Moved),
    }
}

/// One `branch-delete` per branch deleted, with its tip and where it is
/// kept (`git branch <branch> <tip>` brings it back).
fn events(base: &str, branches: &[Leftover]) -> Vec<Event> {
    let mut events = Vec::new();
    for l in branches {
        let Fate::Deleted { trash_ref } = &l.fate else {
            continue;
        };
        let id = l
            .branch
            .strip_prefix(crate::runid::BRANCH_PREFIX)
            .and_then(|rest| rest.strip_prefix('/'))
            .unwrap_or(&l.branch);
        let mut e = Event::new(EventKind::BranchDelete, id);
        e.detail = Some(match l.merged_by() {
            Some(by) => format!(
                "leftover branch {} deleted at {} (merged into {base}: {by}); kept as {trash_ref}",
                l.branch, l.tip
            ),
            None => format!(
                "leftover branch {} deleted at {} (no commits of its own; in {base}); kept as {trash_ref}",
                l.branch, l.tip
            ),
        });
        events.push(e);
    }
    events
}
