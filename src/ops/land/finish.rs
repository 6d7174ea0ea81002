//! After the target moved: the landing recorded (the run marked `merged`,
//! the `land` and `mark` events), the run's worktree removed with
//! `remove`'s rules, its branch deleted through the safety kernel (right
//! after the landing, or behind a queue: [`super::tidy`]). None of this
//! returns an error to the landing, which stands: a step that fails is
//! reported with it.

use gix::ObjectId;

use super::outcome::{BranchFate, Landed, WorktreeFate};
use crate::config::LandStrategy;
use crate::ctx::Ctx;
use crate::error::Result;
use crate::events::{Event, EventKind, State};
use crate::manifest::{Entry, Status};
use crate::output::Notes;

/// Under the run lock (the caller's): the run marked `merged`, if it is
/// still the run that landed, and the `land` and `mark` events logged,
/// under the mutex.
pub(super) fn record(
    ctx: &Ctx,
    strategy: LandStrategy,
    entry: &Entry,
    landed: &Landed,
    out: &mut Notes<'_>,
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
    let mut tx = ctx.start_transaction()?;
    tx.log(land);
    let current = tx.manifest()?.find(&entry.id).filter(|e| e.same_run(entry));
    if let Some(previous) = current.map(|e| e.status).filter(|s| *s != Status::Merged) {
        let mut mark = Event::new(EventKind::Mark, &entry.id);
        mark.from = Some(previous.into());
        mark.to = Some(Status::Merged.into());
        mark.detail = Some(format!("landed into {} at {}", landed.into, landed.to));
        let current = tx.manifest_mut()?.find_mut(&entry.id).expect("found above");
        current.status = Status::Merged;
        tx.log(mark);
    }
    tx.commit(out)
}

/// The landed runs' worktrees removed with `remove`'s rules (never forced;
/// a worktree with anything to lose is kept, with the code), in parallel
/// as `cleanup` removes them when there are several: each run's fate, in
/// the order of `ids`, as removing it alone would have it.
pub(super) fn remove_worktrees(ctx: &Ctx, ids: &[&str], out: &mut Notes<'_>) -> Vec<WorktreeFate> {
    let kept = |e: crate::error::Error| WorktreeFate::Skipped {
        code: e.code().to_owned(),
        reason: e.to_string(),
    };
    let registered = match ctx.repo.loop_worktrees() {
        Ok(wts) => wts,
        Err(e) => return vec![kept(e); ids.len()],
    };
    let present: Vec<&str> = ids
        .iter()
        .copied()
        .filter(|id| registered.iter().any(|(n, _)| n == id))
        .collect();
    if present.is_empty() {
        return vec![WorktreeFate::None; ids.len()];
    }
    let reclaimed = match crate::ops::reclaim::remove(ctx, &present, Default::default(), out) {
        Ok(reclaimed) => reclaimed,
        Err(e) if present.len() == 1 => {
            let fate = kept(e);
            return ids
                .iter()
                .map(|id| match present.contains(id) {
                    true => fate.clone(),
                    false => WorktreeFate::None,
                })
                .collect();
        }
        // Refused as a whole (an entry gone or re-marked active meanwhile,
        // an untrusted hook, a lock not had): nothing was removed, so each
        // is removed alone, to have its own answer.
        Err(_) => {
            return ids
                .iter()
                .map(|id| remove_worktrees(ctx, &[id], out).remove(0))
                .collect();
        }
    };
    let error = reclaimed.error.map(kept);
    ids.iter()
        .map(|id| {
            if !present.contains(id) {
                return WorktreeFate::None;
            }
            if reclaimed.removed.iter().any(|r| r.entry.id.as_str() == *id) {
                return WorktreeFate::Removed;
            }
            match (reclaimed.skipped.iter().find(|s| s.id == *id), &error) {
                (Some(skip), _) => WorktreeFate::Skipped {
                    code: skip.code.as_str().to_owned(),
                    reason: skip.reason.clone(),
                },
                (None, Some(error)) => error.clone(),
                (None, None) => WorktreeFate::None,
            }
        })
        .collect()
}

/// What finishes a landed run whose worktree was kept: for one in use (the
/// landing ran from inside it, or a shell is there), `cd` out to the root,
/// then remove it; for untracked files (they are not what lands), remove it
/// saving them first (`--salvage`: `refs/loop/salvage/<id>`), in use or
/// not. Then its branch, unrecorded, goes when proven merged.
pub(super) fn next_step(ctx: &Ctx, id: &str, worktree: &WorktreeFate) -> Option<String> {
    let WorktreeFate::Skipped { code, .. } = worktree else {
        return None;
    };
    let in_use = code == "in-use";
    let untracked = match code.as_str() {
        "untracked" => true,
        // Kept in use, it may hold untracked files too (read now: the
        // removal stopped at the processes).
        "in-use" => ctx.repo.loop_worktree(id).ok().flatten().is_some_and(|wt| {
            crate::git::repo::cleanliness(&wt.path, &wt.admin_dir).is_ok_and(|c| c.untracked)
        }),
        _ => return None,
    };
    let mut why = Vec::new();
    if in_use {
        why.push("out of the worktree, once nothing works in it, remove it");
    }
    if untracked {
        why.push(
            "its untracked files did not land (only commits do): move out what you want, then remove it, saving the rest",
        );
    }
    let salvage = if untracked { " --salvage" } else { "" };
    let root = crate::git::repo::shell_word(ctx.repo.root());
    Some(format!(
        "{}: cd {root} && git loop remove {id}{salvage} && git loop branches --delete-merged",
        why.join("; ")
    ))
}

/// What a landed run's branch is judged against, and the target it is
/// reported and logged in: the target itself (`base` is `into`), or,
/// for a branch retired after later runs landed ([`super::tidy`]), the
/// commit its landing moved the target to.
#[derive(Clone, Copy)]
pub(super) struct Against<'a> {
    pub base: &'a str,
    pub into: &'a str,
}

impl<'a> Against<'a> {
    /// The target as it is now.
    pub fn target(into: &'a str) -> Self {
        Against { base: into, into }
    }
}

/// The landed run's branch retired by the safety kernel
/// ([`crate::safety::retire`]): judged against `against.base`, at the tip
/// that landed, its tip kept in the trash first; logged as
/// `branch-delete`, naming the target. Kept, with the reason, otherwise.
pub(super) fn delete_branch(
    ctx: &Ctx,
    entry: &Entry,
    landed_tip: ObjectId,
    against: Against<'_>,
    out: &mut Notes<'_>,
) -> BranchFate {
    match try_delete_branch(ctx, entry, landed_tip, against, out) {
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
    against: Against<'_>,
    out: &mut Notes<'_>,
) -> Result<BranchFate> {
    use crate::safety::retire::{Retired, retire};
    let mut detector = crate::git::merged::Detector::new(ctx.repo.gix())?;
    let checked_out = crate::safety::checked_out::branches(&ctx.repo)?;
    let branch = entry.branch();
    let mut retired = retire(
        &ctx.repo,
        &mut detector,
        &checked_out,
        &branch,
        landed_tip,
        against.base,
    )?;
    // Judged against the commit the run landed at: said of the target.
    match &mut retired {
        Retired::Deleted { base, .. } => *base = against.into.to_owned(),
        Retired::Kept { reason, .. } => {
            if let Some(judged) = reason.strip_suffix(&format!(" ({})", against.base)) {
                *reason = format!("{judged} ({})", against.into);
            }
        }
    }
    if let Some(event) = retired.event() {
        let mut tx = ctx.start_transaction()?;
        tx.log(event);
        tx.commit(out)?;
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
