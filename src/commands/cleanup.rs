//! `git loop cleanup [--status <CSV>] [--older-than <AGE>] [--dry-run]`
//!
//! Removes the worktrees of runs whose status is in the set (default
//! `rejected,escalated`) and, with a cutoff, that were created before
//! now − cutoff. `active` is never selected, even when named.
//!
//! Safety: removal is `git worktree remove` without `--force`, so git itself
//! refuses a worktree with uncommitted or untracked files, or a locked one;
//! that refusal is recorded as skipped, with git's reason, and the entry stays.
//! Branches are kept unless `--delete-merged-branches` (or
//! `loop.cleanupDeleteMergedBranches`) asks, and even then only a branch
//! whose work is in the run's base (ancestor, squash or rebase; see
//! `cleanup/branch.rs`), deleted at the exact tip proven merged: an
//! unmerged branch is the only copy of a run's work.
//!
//! Removals run in parallel, one thread per core, each outcome recorded. git
//! 2.47's `worktree remove` can fail when a sibling removal changes
//! `.git/worktrees/` under it; exactly that failure is retried, and the
//! state on disk decides the outcome (see `remove_worktree`).
//!
//! Hooks: `cleanup.pre-command` runs in each selected worktree before any
//! removal, one at a time, under the worktree-operation lock (a slow hook
//! delays concurrent creates; it never races a removal). Its non-zero exit
//! keeps that entry (`hook-refused`). A hook from an untrusted repository
//! file refuses the whole cleanup before anything changes; a dry run runs no
//! hook.
//!
//! Locking: the worktree-operation lock is held for the whole cleanup; the
//! manifest mutex only to select entries and, after git is done, to drop the
//! removed ones — matched by id *and* `createdAt`, so an entry that changed
//! meanwhile is left alone.

use jiff::SignedDuration;

use crate::cli::CleanupArgs;
use crate::ctx::Ctx;
use crate::error::Result;
use crate::git::cmd::Git;
use crate::lock::{ManifestMutex, OpsLock};
use crate::manifest::{Entry, Manifest, Status};
use crate::output::Out;
use crate::worktree::{Removal, Remover, Skip, SkipCode, SkippedEntry};

mod branch;
mod hook;
mod pool;
mod report;

pub use report::{CleanupReport, KeptBranch, KeptCode, RemovedEntry};

/// Flags as typed (clap has parsed and validated them).
pub struct Flags {
    pub statuses: Option<Vec<Status>>,
    pub older_than: Option<SignedDuration>,
    pub dry_run: bool,
    pub delete_merged_branches: bool,
    pub recycle: bool,
    pub salvage: bool,
}

impl From<&CleanupArgs> for Flags {
    fn from(args: &CleanupArgs) -> Flags {
        Flags {
            statuses: args.status.as_ref().map(|s| s.0.clone()),
            older_than: args.older_than.map(|c| c.0),
            dry_run: args.dry_run,
            delete_merged_branches: args.delete_merged_branches,
            recycle: args.recycle,
            salvage: args.salvage,
        }
    }
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

pub fn run(ctx: &Ctx, flags: &Flags, out: &mut Out<'_>) -> Result<CleanupReport> {
    // The whole configuration is read even when flags cover every setting, so
    // a broken layer is reported the same way whatever flags are typed.
    let settings = ctx.settings()?;
    let mut statuses = match &flags.statuses {
        Some(s) => s.clone(),
        None => settings.cleanup_status.value.clone(),
    };
    if statuses.contains(&Status::Active) {
        out.note(format_args!(
            "note: active runs are never cleaned up; ignoring `active` (mark a finished run first)"
        ));
        statuses.retain(|s| *s != Status::Active);
    }
    let older_than = match flags.older_than {
        Some(c) => Some(c),
        None => settings.cleanup_older_than.value,
    };
    let delete_merged =
        flags.delete_merged_branches || settings.cleanup_delete_merged_branches.value;
    let salvage = flags.salvage || settings.cleanup_salvage.value;
    let report = reclaim(
        ctx,
        &statuses,
        Options {
            dry_run: flags.dry_run,
            delete_merged,
            salvage,
            recycle: flags.recycle || settings.cleanup_recycle.value,
        },
        |manifest| Ok(select(manifest, &statuses, older_than)),
        out,
    )?;
    // The trash's entries older than `trash.keep` go (logged).
    if !flags.dry_run {
        super::trash::expire(ctx, out)?;
    }
    Ok(report)
}

/// How [`reclaim`] removes: a dry run, deleting merged branches, salvaging
/// dirty runs first (see [`crate::worktree::salvage`]), recycling into the
/// warm pool.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Options {
    pub dry_run: bool,
    pub delete_merged: bool,
    pub salvage: bool,
    /// Put worktrees that would be removed back into the warm pool.
    pub recycle: bool,
}

/// Remove the worktrees of the runs `choose` picks from the manifest, with
/// cleanup's rules: `cleanup.pre-command` may veto each, every removal is
/// guarded (run lock, re-check that the run's status is still in
/// `statuses`, never forced), branches are kept unless `delete_merged`, and
/// the removed runs' entries are dropped. `choose` runs once on the manifest
/// as read before any lock (so a refusal leaves no trace) and again under the
/// mutex; an error from it refuses the whole command. `cleanup` and
/// `remove` are this with different choosers.
pub(crate) fn reclaim(
    ctx: &Ctx,
    statuses: &[Status],
    options: Options,
    choose: impl Fn(&Manifest) -> Result<Vec<Entry>>,
    out: &mut Out<'_>,
) -> Result<CleanupReport> {
    let Options {
        dry_run,
        delete_merged,
        salvage,
        recycle,
    } = options;
    let settings = ctx.settings()?;
    // An untrusted hook refuses the cleanup before anything changes (a dry
    // run too: it predicts the real one).
    let pre_command = crate::hooks::hook(
        settings,
        crate::hooks::Hook::CleanupPre,
        ctx.repo.root(),
        ctx.repo.common_dir(),
    )?;
    let mut report = CleanupReport {
        dry_run,
        removed: Vec::new(),
        skipped: Vec::new(),
        error: None,
    };
    if !ctx.loop_dir_exists()? {
        return Ok(report);
    }
    // Validated before any lock is taken: a manifest git-loop does not
    // understand refuses the cleanup with no trace left.
    let (manifest, snapshot) = match ctx.manifest.load_snapshot()? {
        Some((m, snap)) => (m, Some(snap)),
        None => (Manifest::default(), None),
    };
    let git = Git::new(ctx.repo.root());

    let _ops;
    let selected = if dry_run {
        choose(&manifest)?
    } else {
        choose(&manifest)?;
        _ops = OpsLock::acquire(&ctx.loop_dir(), |waiting| {
            out.note(format_args!("{waiting}"))
        })?;
        let _mutex = ManifestMutex::acquire(&ctx.loop_dir())?;
        // Parsed again only if another command replaced it meanwhile.
        if snapshot.is_some_and(|s| s.is_current(ctx.manifest.path())) {
            choose(&manifest)?
        } else {
            choose(&ctx.manifest.load_or_default()?)?
        }
    };
    if selected.is_empty() {
        return Ok(report);
    }

    let remover = Remover::new(&ctx.repo, &git)?;
    let mut refused = Vec::new();
    let selected = match pre_command {
        Some(command) if !dry_run => {
            let (kept, no) = hook::run_pre_command(ctx, &command, selected, &remover, out)?;
            refused = no;
            kept
        }
        Some(_) => {
            out.note(format_args!(
                "note: dry run: cleanup.pre-command is not run, and may still refuse entries"
            ));
            selected
        }
        None => selected,
    };
    // `--recycle`: a worktree that would be removed goes back into the
    // warm pool instead, while it has room (see `commands::pool`).
    let recycler = match recycle && !dry_run {
        true => Some(super::pool::Recycler::new(ctx, &selected)?),
        false => None,
    };
    let outcomes = pool::remove_all(
        ctx,
        &remover,
        &selected,
        statuses,
        &pool::How {
            dry_run,
            salvage,
            recycler: recycler.as_ref(),
        },
        out,
    );
    // Entries removed without git (directory and registration already
    // gone): their `remove` event is logged with the drop below. The others
    // were logged as they were removed.
    let mut unlogged = std::collections::HashSet::new();
    let mut gone = Vec::new();
    let mut first_error = None;
    for (entry, outcome) in selected.into_iter().zip(outcomes) {
        match outcome {
            Ok((Removal::Removed(note), salvaged)) => {
                if remover.registration(&entry.id).is_none() {
                    unlogged.insert(entry.id.to_string());
                }
                report.removed.push(RemovedEntry {
                    id: entry.id.to_string(),
                    path: entry.path(),
                    branch: entry.branch(),
                    branch_deleted: None,
                    branch_merged_by: None,
                    branch_tip: None,
                    branch_trash: None,
                    branch_kept: None,
                    note,
                    salvage: salvaged,
                });
                gone.push(entry);
            }
            Ok((Removal::Skipped(skip), _)) => {
                report.skipped.push(SkippedEntry::new(&entry.id, skip));
            }
            Err(e) => {
                // One worktree that could not be handled does not hide what
                // happened to the others: they are reported, then the error.
                report.skipped.push(SkippedEntry::new(
                    &entry.id,
                    Skip::new(e.to_string(), SkipCode::Error),
                ));
                first_error.get_or_insert(e);
            }
        }
    }
    report.skipped.extend(refused);

    if delete_merged && !dry_run && !gone.is_empty() {
        let ready = crate::git::merged::Detector::new(ctx.repo.gix())
            .and_then(|d| Ok((d, ctx.repo.checked_out_branches()?)));
        match ready {
            Ok((mut detector, checked_out)) => {
                for (removed, entry) in report.removed.iter_mut().zip(&gone) {
                    match branch::delete_if_merged(ctx, &mut detector, &checked_out, entry) {
                        Ok(Ok(deleted)) => {
                            removed.branch_deleted = Some(true);
                            removed.branch_merged_by = Some(deleted.merged_by);
                            removed.branch_tip = Some(deleted.tip);
                            removed.branch_trash = Some(deleted.trash_ref);
                        }
                        Ok(Err(kept)) => {
                            removed.branch_deleted = Some(false);
                            removed.branch_kept = kept;
                        }
                        Err(e) => {
                            first_error.get_or_insert(e);
                        }
                    }
                }
            }
            Err(e) => {
                first_error.get_or_insert(e);
            }
        }
    }

    let changed = !gone.is_empty() || !report.skipped.is_empty();
    if !dry_run
        && changed
        && let Err(e) = drop_removed(ctx, &gone, statuses, &report, &unlogged, out)
    {
        first_error.get_or_insert(e);
    }
    if let Some(e) = first_error {
        report.error = Some(super::Failure::from(&e));
    }
    Ok(report)
}

/// Drop the removed runs from the manifest in one linear pass, each only if
/// the manifest still holds that run with a selected status (a run marked
/// active after its worktree was removed keeps its entry), and log what is
/// not logged yet.
fn drop_removed(
    ctx: &Ctx,
    gone: &[Entry],
    statuses: &[Status],
    report: &CleanupReport,
    unlogged: &std::collections::HashSet<String>,
    out: &mut Out<'_>,
) -> Result<()> {
    let mutex = ManifestMutex::acquire(&ctx.loop_dir())?;
    let mut manifest = ctx.manifest.load_or_default()?;
    let gone: std::collections::HashMap<&str, &Entry> =
        gone.iter().map(|e| (e.id.as_str(), e)).collect();
    let before = manifest.worktrees.len();
    let mut kept_active = Vec::new();
    manifest
        .worktrees
        .retain(|e| match gone.get(e.id.as_str()) {
            Some(g) if g.same_run(e) => {
                let still = e.status != Status::Active && statuses.contains(&e.status);
                if !still {
                    kept_active.push(e.id.clone());
                }
                !still
            }
            _ => true,
        });
    for id in &kept_active {
        out.note(format_args!(
            "note: {id} was marked again after its worktree was removed; its entry is kept (reconcile drops it)"
        ));
    }
    if manifest.worktrees.len() != before {
        ctx.manifest.write(&manifest, &mutex)?;
    }
    drop(manifest);
    let mut events = Vec::new();
    for r in &report.removed {
        if unlogged.contains(&r.id) {
            events.push(crate::events::Event::new(
                crate::events::EventKind::Remove,
                &r.id,
            ));
        }
        if r.branch_deleted == Some(true) {
            let mut e = crate::events::Event::new(crate::events::EventKind::BranchDelete, &r.id);
            let kept = match &r.branch_trash {
                Some(t) => format!("; kept as {t}"),
                None => String::new(),
            };
            e.detail = Some(match (r.branch_tip, r.branch_merged_by) {
                (Some(tip), Some(Some(by))) => {
                    format!("branch {} deleted at {tip} (merged: {by}){kept}", r.branch)
                }
                (Some(tip), _) => {
                    format!(
                        "branch {} deleted at {tip} (no commits of its own){kept}",
                        r.branch
                    )
                }
                _ => format!("branch {} deleted{kept}", r.branch),
            });
            events.push(e);
        }
    }
    events.extend(report.skipped.iter().map(SkippedEntry::event));
    ctx.log_events(&events, out);
    drop(mutex);
    Ok(())
}
