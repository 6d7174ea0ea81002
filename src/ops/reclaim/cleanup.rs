//! `cleanup`: the runs a reclaim takes by status and age (its settings
//! filling what the flags leave out), what it says it took, and what it
//! leaves to the landing queue.

use jiff::SignedDuration;

use super::{Options, Reclaimed, reclaim};
use crate::config::{Origin, Settings, keys};
use crate::ctx::Ctx;
use crate::error::Result;
use crate::manifest::{Entry, Manifest, Status};
use crate::output::Notes;
use crate::worktree::{Skip, SkipCode, SkippedEntry};

/// What a cleanup was asked for; `None` and `false` leave it to the settings.
pub struct Cleanup {
    pub statuses: Option<Vec<Status>>,
    pub older_than: Option<SignedDuration>,
    pub dry_run: bool,
    pub delete_merged_branches: bool,
    pub recycle: bool,
    pub salvage: bool,
    /// Terminate the processes left working in a worktree first.
    pub reap: bool,
}

/// Remove the worktrees of runs whose status is in the set and, with a
/// cutoff, that were created before now − cutoff; then (not a dry run)
/// expire the trash's entries older than `trash.keep`. With `--recycle` (or
/// `cleanup.recycle`) a worktree that would be removed goes back into the
/// warm pool instead, while it has room.
pub fn cleanup(ctx: &Ctx, request: &Cleanup, out: &mut Notes<'_>) -> Result<Reclaimed> {
    // The whole configuration is read even when flags cover every setting, so
    // a broken layer is reported the same way whatever flags are typed.
    let settings = ctx.settings()?;
    let (statuses, queued) = selected(request, settings, out);
    let older_than = match request.older_than {
        Some(c) => Some(c),
        None => settings.cleanup_older_than.value,
    };
    let options = Options {
        dry_run: request.dry_run,
        delete_merged: request.delete_merged_branches
            || settings.cleanup_delete_merged_branches.value,
        salvage: request.salvage || settings.cleanup_salvage.value,
        reap: request.reap,
        recycle: request.recycle || settings.cleanup_recycle.value,
    };
    let reclaimed = reclaim(
        ctx,
        &statuses,
        options,
        |manifest| Ok(select(manifest, &statuses, older_than)),
        out,
    )?;
    let mut reclaimed = reclaimed;
    if !queued.is_empty() && ctx.loop_dir_exists()? {
        let manifest = ctx.manifest.load_or_default()?;
        let waiting = select(&manifest, &queued, older_than);
        reclaimed
            .skipped
            .extend(waiting.iter().map(left_to_the_queue));
    }
    if reclaimed.removed.is_empty() && reclaimed.skipped.is_empty() && reclaimed.error.is_none() {
        nothing_selected(ctx, &statuses, older_than, out)?;
    }
    if !request.dry_run {
        crate::ops::trash::expire(ctx, out)?;
    }
    Ok(reclaimed)
}

/// The statuses a cleanup removes (`--status`, else `cleanup.status`;
/// never `active`), and, when the set is the built-in default, those left
/// to the landing queue; the choice noted, with where it came from.
fn selected(
    request: &Cleanup,
    settings: &Settings,
    out: &mut Notes<'_>,
) -> (Vec<Status>, Vec<Status>) {
    let (mut statuses, from) = match &request.statuses {
        Some(s) => (s.clone(), "--status".to_owned()),
        None => {
            let setting = &settings.cleanup_status;
            let from = match setting.origin {
                Origin::Default => format!(
                    "the default; --status or {} to change",
                    keys::CLEANUP_STATUS.toml
                ),
                ref origin => format!("from {origin}; --status to override"),
            };
            (setting.value.clone(), from)
        }
    };
    if statuses.contains(&Status::Active) {
        out.note(format_args!(
            "note: active runs are never cleaned up; ignoring `active` (mark a finished run first)"
        ));
        statuses.retain(|s| *s != Status::Active);
    }
    // Nobody asked for the statuses the landing queue lands (`escalated` by
    // default) when the set is the built-in default: those runs wait for a
    // person or `land --queue`, worktree and all.
    let queued: Vec<Status> =
        if request.statuses.is_none() && settings.cleanup_status.origin == Origin::Default {
            let queue = &settings.land_queue_status.value;
            statuses
                .iter()
                .copied()
                .filter(|s| queue.contains(s))
                .collect()
        } else {
            Vec::new()
        };
    statuses.retain(|s| !queued.contains(s));
    let from = if queued.is_empty() {
        from
    } else {
        format!("{from}; {} left to the landing queue", csv(&queued))
    };
    out.note(format_args!("selected {} ({from})", csv(&statuses)));
    (statuses, queued)
}

/// The skip of a run whose status the landing queue lands.
fn left_to_the_queue(entry: &Entry) -> SkippedEntry {
    SkippedEntry::new(
        &entry.id,
        Skip::new(
            format!(
                "{} runs wait for the landing queue (git loop land --queue; {}), worktree and all; to remove it now: git loop cleanup --status {}",
                entry.status,
                keys::LAND_QUEUE_STATUS.toml,
                entry.status
            ),
            SkipCode::Queued,
        ),
    )
}

/// Statuses as `--status` takes them.
fn csv(statuses: &[Status]) -> String {
    if statuses.is_empty() {
        return "no status".to_owned();
    }
    let names: Vec<&str> = statuses.iter().map(|s| s.as_str()).collect();
    names.join(",")
}

/// When a cleanup selected nothing: how many runs are in each status it did
/// not select, and the command that would take them (`--status` widened, or
/// `mark` for active runs); runs of the selected statuses that the age
/// cutoff kept are counted too. Nothing when no run is recorded.
fn nothing_selected(
    ctx: &Ctx,
    statuses: &[Status],
    older_than: Option<SignedDuration>,
    out: &mut Notes<'_>,
) -> Result<()> {
    if !ctx.loop_dir_exists()? {
        return Ok(());
    }
    let manifest = ctx.manifest.load_or_default()?;
    let count = |status: Status| {
        manifest
            .worktrees
            .iter()
            .filter(|e| e.status == status)
            .count()
    };
    let mut parts = Vec::new();
    let mut widen = Vec::new();
    let mut young = 0;
    for status in Status::ALL {
        let n = count(status);
        if n == 0 {
            continue;
        }
        if statuses.contains(&status) {
            young += n;
            continue;
        }
        parts.push(if parts.is_empty() {
            let are = if n == 1 { "run is" } else { "runs are" };
            format!("{n} {are} {status}")
        } else {
            format!("{n} {status}")
        });
        if status != Status::Active {
            widen.push(status);
        }
    }
    if young > 0 && older_than.is_some() {
        parts.push(format!(
            "{young} {} newer than the age cutoff (--older-than, or {})",
            csv(statuses),
            keys::CLEANUP_OLDER_THAN.toml
        ));
    }
    if parts.is_empty() {
        return Ok(());
    }
    let mut line = format!("nothing selected: {}", parts.join(", "));
    if !widen.is_empty() {
        line.push_str(&format!(
            "; to take them: git loop cleanup --status {}",
            csv(&widen)
        ));
    }
    if count(Status::Active) > 0 {
        line.push_str("; to mark a finished run: git loop mark <id> <status>");
    }
    out.note(format_args!("{line}"));
    Ok(())
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
