//! Which runs a reclaim takes: `cleanup`'s by status and age (its settings
//! filling what the flags leave out), `remove`'s by id.

use jiff::SignedDuration;

use super::{Options, Reclaimed, Recycling, reclaim};
use crate::ctx::Ctx;
use crate::error::{Error, Result};
use crate::manifest::{Entry, Manifest, Status};
use crate::output::Out;

/// What a cleanup was asked for; `None` and `false` leave it to the settings.
pub struct Cleanup {
    pub statuses: Option<Vec<Status>>,
    pub older_than: Option<SignedDuration>,
    pub dry_run: bool,
    pub delete_merged_branches: bool,
    pub recycle: bool,
    pub salvage: bool,
}

/// Remove the worktrees of runs whose status is in the set and, with a
/// cutoff, that were created before now − cutoff; then (not a dry run)
/// expire the trash's entries older than `trash.keep`. `recycling` makes the
/// warm pool's recycler when `--recycle` (or `cleanup.recycle`) asks.
pub fn cleanup(
    ctx: &Ctx,
    request: &Cleanup,
    recycling: Recycling<'_>,
    out: &mut Out<'_>,
) -> Result<Reclaimed> {
    // The whole configuration is read even when flags cover every setting, so
    // a broken layer is reported the same way whatever flags are typed.
    let settings = ctx.settings()?;
    let mut statuses = match &request.statuses {
        Some(s) => s.clone(),
        None => settings.cleanup_status.value.clone(),
    };
    if statuses.contains(&Status::Active) {
        out.note(format_args!(
            "note: active runs are never cleaned up; ignoring `active` (mark a finished run first)"
        ));
        statuses.retain(|s| *s != Status::Active);
    }
    let older_than = match request.older_than {
        Some(c) => Some(c),
        None => settings.cleanup_older_than.value,
    };
    let options = Options {
        dry_run: request.dry_run,
        delete_merged: request.delete_merged_branches
            || settings.cleanup_delete_merged_branches.value,
        salvage: request.salvage || settings.cleanup_salvage.value,
        recycle: (request.recycle || settings.cleanup_recycle.value).then_some(recycling),
    };
    let reclaimed = reclaim(
        ctx,
        &statuses,
        options,
        |manifest| Ok(select(manifest, &statuses, older_than)),
        out,
    )?;
    if !request.dry_run {
        crate::ops::trash::expire(ctx, out)?;
    }
    Ok(reclaimed)
}

fn select(
    manifest: &Manifest,
    statuses: &[Status],
    older_than: Option<SignedDuration>,
) -> Vec<Entry> {
    let cutoff = older_than.map(|c| crate::time::cutoff_instant(crate::time::now(), c));
    manifest
        .worktrees
        .iter()
        .filter(|e| e.status != Status::Active && statuses.contains(&e.status))
        .filter(|e| cutoff.is_none_or(|c| e.created_at.0 < c))
        .cloned()
        .collect()
}

/// Every status but `active`: a run re-marked active meanwhile is skipped.
const REMOVABLE: [Status; 4] = [
    Status::Rejected,
    Status::Escalated,
    Status::Merged,
    Status::Stale,
];

/// Remove the named runs' worktrees (the same id given twice once), with
/// cleanup's rules; branches are kept. An `active` or unknown id refuses the
/// whole operation before anything changes.
pub fn remove(
    ctx: &Ctx,
    ids: &[&str],
    dry_run: bool,
    salvage: bool,
    out: &mut Out<'_>,
) -> Result<Reclaimed> {
    // No manifest, no runs: every id is unknown (and nothing is created).
    if !ctx.loop_dir_exists()? {
        choose(&Manifest::default(), ids)?;
    }
    let options = Options {
        dry_run,
        salvage,
        ..Options::default()
    };
    reclaim(
        ctx,
        &REMOVABLE,
        options,
        |manifest| choose(manifest, ids),
        out,
    )
}

/// The named runs, in the order named, or the refusal.
fn choose(manifest: &Manifest, ids: &[&str]) -> Result<Vec<Entry>> {
    let mut chosen: Vec<Entry> = Vec::new();
    for id in ids {
        let entry = manifest.find(id).ok_or_else(|| {
            Error::unknown_id(id, manifest.worktrees.iter().map(|e| e.id.as_str()))
        })?;
        if entry.status == Status::Active {
            return Err(Error::RunActive {
                id: entry.id.to_string(),
                path: entry.path(),
            });
        }
        if !chosen.iter().any(|e| e.id == entry.id) {
            chosen.push(entry.clone());
        }
    }
    Ok(chosen)
}
