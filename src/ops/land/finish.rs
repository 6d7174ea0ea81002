//! After the target moved: the landing recorded (the run marked `merged`,
//! the `land` and `mark` events), the run's worktree removed with
//! `remove`'s rules, its branch deleted through the safety kernel. None of
//! this returns an error to the landing, which stands: a step that fails is
//! reported with it.

use gix::ObjectId;

use super::outcome::{BranchFate, Landed, WorktreeFate};
use crate::config::LandStrategy;
use crate::ctx::Ctx;
use crate::error::Result;
use crate::events::{Event, EventKind, State};
use crate::lock::ManifestMutex;
use crate::manifest::{Entry, Status};
use crate::output::Out;

/// Under the run lock (the caller's): the run marked `merged`, if it is
/// still the run that landed, and the `land` and `mark` events logged,
/// under the mutex.
pub(super) fn record(
    ctx: &Ctx,
    strategy: LandStrategy,
    entry: &Entry,
    landed: &Landed,
    out: &mut Out<'_>,
) -> Result<()> {
    let mut land = Event::new(EventKind::Land, &entry.id);
    land.from = Some(State::Commit(landed.from.to_string()));
    land.to = Some(State::Commit(landed.to.to_string()));
    land.detail = Some(format!(
        "landed {} into {} ({}, {} commit{})",
        entry.branch(),
        landed.into,
        strategy,
        landed.commits,
        if landed.commits == 1 { "" } else { "s" }
    ));
    if let Some(detail) = land.detail.as_mut() {
        if landed.pushed {
            detail.push_str(", pushed");
        } else if let Some(reason) = &landed.not_pushed {
            detail.push_str(&format!("; not pushed: {reason}"));
        }
    }
    let mutex = ManifestMutex::acquire(&ctx.loop_dir())?;
    let mut manifest = ctx.manifest.load_or_default()?;
    let mut events = vec![land];
    if let Some(current) = manifest.find_mut(&entry.id).filter(|e| e.same_run(entry))
        && current.status != Status::Merged
    {
        let mut mark = Event::new(EventKind::Mark, &entry.id);
        mark.from = Some(current.status.into());
        mark.to = Some(Status::Merged.into());
        mark.detail = Some(format!("landed into {} at {}", landed.into, landed.to));
        current.status = Status::Merged;
        ctx.manifest.write(&manifest, &mutex)?;
        events.push(mark);
    }
    ctx.log_events(&events, out);
    drop(mutex);
    Ok(())
}

/// The landed run's worktree removed with `remove`'s rules (never forced;
/// a worktree with anything to lose is kept, with the code).
pub(super) fn remove_worktree(ctx: &Ctx, id: &str, out: &mut Out<'_>) -> WorktreeFate {
    let kept = |e: crate::error::Error| WorktreeFate::Skipped {
        code: e.code().to_owned(),
        reason: e.to_string(),
    };
    match ctx.repo.loop_worktrees() {
        Ok(wts) if !wts.iter().any(|(n, _)| n == id) => return WorktreeFate::None,
        Ok(_) => {}
        Err(e) => return kept(e),
    }
    match crate::ops::reclaim::remove(ctx, &[id], false, false, false, out) {
        Ok(reclaimed) if !reclaimed.removed.is_empty() => WorktreeFate::Removed,
        Ok(reclaimed) => match (reclaimed.skipped.first(), reclaimed.error) {
            (Some(skip), _) => WorktreeFate::Skipped {
                code: skip.code.as_str().to_owned(),
                reason: skip.reason.clone(),
            },
            (None, Some(e)) => kept(e),
            (None, None) => WorktreeFate::None,
        },
        Err(e) => kept(e),
    }
}

/// The landed run's branch retired by the safety kernel
/// ([`crate::safety::retire`]): judged against the target it landed in, at
/// the tip that landed, its tip kept in the trash first; logged as
/// `branch-delete`. Kept, with the reason, otherwise.
pub(super) fn delete_branch(
    ctx: &Ctx,
    entry: &Entry,
    landed_tip: ObjectId,
    into: &str,
    out: &mut Out<'_>,
) -> BranchFate {
    match try_delete_branch(ctx, entry, landed_tip, into, out) {
        Ok(fate) => fate,
        Err(e) => BranchFate::Kept {
            reason: e.to_string(),
        },
    }
}

fn try_delete_branch(
    ctx: &Ctx,
    entry: &Entry,
    landed_tip: ObjectId,
    into: &str,
    out: &mut Out<'_>,
) -> Result<BranchFate> {
    use crate::safety::retire::{Retired, retire};
    let mut detector = crate::git::merged::Detector::new(ctx.repo.gix())?;
    let checked_out = crate::safety::checked_out::branches(&ctx.repo)?;
    let branch = entry.branch();
    let retired = retire(
        &ctx.repo,
        &mut detector,
        &checked_out,
        &branch,
        landed_tip,
        into,
    )?;
    if let Some(event) = retired.event() {
        let mutex = ManifestMutex::acquire(&ctx.loop_dir())?;
        ctx.log_events(&[event], out);
        drop(mutex);
    }
    Ok(match retired {
        Retired::Deleted {
            merged_by,
            trash_ref,
            ..
        } => BranchFate::Deleted {
            merged_by,
            trash_ref,
        },
        Retired::Kept { reason, .. } => BranchFate::Kept { reason },
    })
}
