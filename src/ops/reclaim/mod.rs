//! Reclaim: remove the worktrees of finished runs, with cleanup's rules.
//! `cleanup` (by status and age), `remove` (by id), `claude-hook remove`
//! (the hook's own run) are this operation with different choosers.
//!
//! Selection: cleanup takes the runs whose status is in the set (default
//! `rejected,escalated`) and, with a cutoff, that were created before now −
//! cutoff; `remove` the named runs (any status but `active`; an `active` or
//! unknown id refuses the whole command). `active` is never selected, even
//! when named. See `cleanup.rs` and `remove.rs`.
//!
//! Safety: removal is `git worktree remove` without `--force`, so git itself
//! refuses a worktree with uncommitted or untracked files, or a locked one;
//! that refusal is recorded as skipped, with git's reason, and the entry stays.
//! Branches are kept unless `--delete-merged-branches` (or
//! `loop.cleanupDeleteMergedBranches`) asks, and even then only a branch
//! whose work is in the run's base (ancestor, squash or rebase; see
//! `branch.rs`), deleted at the exact tip proven merged: an unmerged branch
//! is the only copy of a run's work.
//!
//! Removals run in parallel, one thread per core, each guarded (its run lock,
//! the re-check that it is still selected) and each outcome recorded (see
//! `guarded.rs`). git 2.47's `worktree remove` can fail when a sibling
//! removal changes `.git/worktrees/` under it; exactly that failure is
//! retried, and the state on disk decides the outcome (see
//! [`crate::worktree::remove_worktree`]).
//!
//! Hooks: `cleanup.pre-command`: see `pre_command.rs`.
//!
//! Locking: the worktree-operation lock is held for the whole reclaim; the
//! manifest mutex only to select entries and, after git is done, to drop the
//! removed ones (and release their port leases) — matched by id *and*
//! `createdAt`, so an entry that changed meanwhile is left alone.
//!
//! Outcomes, not reports: [`reclaim`] returns what became of each run (a
//! [`Removed`] with its branch's [`Fate`], or a skip with its code); the
//! audit log's events are built from those, and the command builds its
//! report from them last.

use crate::ctx::Ctx;
use crate::error::{Error, Result};
use crate::lock::{ManifestMutex, OpsLock};
use crate::manifest::{Entry, Manifest, Status};
use crate::output::Notes;
use crate::worktree::salvage::Salvaged;
use crate::worktree::{Removal, Remover, Skip, SkipCode, SkippedEntry};

mod branch;
mod cleanup;
mod guarded;
mod pre_command;
mod remove;

pub use branch::Fate;
pub use cleanup::{Cleanup, cleanup};
pub use remove::{Remove, remove};

use crate::ops::pool::Recycler;

/// How [`reclaim`] removes: a dry run, deleting merged branches, salvaging
/// dirty runs first (see [`crate::worktree::salvage`]), recycling into the
/// warm pool.
#[derive(Clone, Copy, Default)]
pub struct Options {
    pub dry_run: bool,
    pub delete_merged: bool,
    pub salvage: bool,
    /// Terminate the processes left working in a worktree first (`--reap`,
    /// see [`crate::worktree::reap`]).
    pub reap: bool,
    /// Put worktrees that would be removed back into the warm pool
    /// ([`crate::ops::pool::Recycler`]), while it has room.
    pub recycle: bool,
}

/// What a reclaim did (in a dry run: would do).
pub struct Reclaimed {
    pub dry_run: bool,
    /// In selection order.
    pub removed: Vec<Removed>,
    /// The removals skipped, in selection order, then the runs
    /// `cleanup.pre-command` refused.
    pub skipped: Vec<SkippedEntry>,
    /// What failed part way (the first failure): what was removed before it
    /// is still listed.
    pub error: Option<Error>,
}

/// A run whose worktree is gone (or, recycled, back in the warm pool).
pub struct Removed {
    pub entry: Entry,
    /// What git-loop finished itself (a leftover git refused; see
    /// [`crate::worktree::leftover`]), or that it was recycled.
    pub note: Option<String>,
    /// With `--salvage`: where its uncommitted work was saved first.
    pub salvaged: Option<Salvaged>,
    /// Whether its `remove` event was written (or its failure warned) by the
    /// removal thread, under its run lock; if not (its worktree was already
    /// gone), it is logged with the drop of its entry.
    pub logged: bool,
    /// What became of its branch.
    pub branch: Fate,
}

/// Remove the worktrees of the runs `choose` picks from the manifest, with
/// cleanup's rules: `cleanup.pre-command` may veto each, every removal is
/// guarded (run lock, re-check that the run's status is still in
/// `statuses`, never forced), branches are kept unless `delete_merged`, and
/// the removed runs' entries are dropped. `choose` runs once on the manifest
/// as read before any lock (so a refusal leaves no trace) and again under the
/// mutex; an error from it refuses the whole operation.
pub fn reclaim(
    ctx: &Ctx,
    statuses: &[Status],
    options: Options,
    choose: impl Fn(&Manifest) -> Result<Vec<Entry>>,
    out: &mut Notes<'_>,
) -> Result<Reclaimed> {
    let dry_run = options.dry_run;
    // An untrusted hook refuses the cleanup before anything changes (a dry
    // run too: it predicts the real one).
    let pre_command = ctx.configured(crate::configured_command::Kind::CleanupPre)?;
    let mut reclaimed = Reclaimed {
        dry_run,
        removed: Vec::new(),
        skipped: Vec::new(),
        error: None,
    };
    if !ctx.loop_dir_exists()? {
        return Ok(reclaimed);
    }
    let (selected, _ops) = select_locked(ctx, dry_run, &choose, out)?;
    if selected.is_empty() {
        return Ok(reclaimed);
    }
    let git = ctx.repo.git();
    let remover = Remover::new(&ctx.repo, &git)?;
    let (selected, refused) =
        pre_command::screen(ctx, pre_command.as_ref(), selected, &remover, dry_run, out)?;
    remove_selected(
        ctx,
        &remover,
        selected,
        statuses,
        options,
        &mut reclaimed,
        out,
    )?;
    reclaimed.skipped.extend(refused);
    if options.delete_merged && !dry_run && !reclaimed.removed.is_empty() {
        branch::decide(ctx, &mut reclaimed.removed, &mut reclaimed.error);
    }
    let changed = !reclaimed.removed.is_empty() || !reclaimed.skipped.is_empty();
    if !dry_run
        && changed
        && let Err(e) = drop_removed(ctx, &reclaimed, statuses, out)
    {
        reclaimed.error.get_or_insert(e);
    }
    Ok(reclaimed)
}

/// The runs `choose` picks, and (not a dry run) the worktree-operation lock
/// held for the rest of the reclaim. The manifest is validated before any
/// lock is taken (one git-loop does not understand refuses with no trace
/// left), and chosen from again under the mutex.
fn select_locked(
    ctx: &Ctx,
    dry_run: bool,
    choose: &impl Fn(&Manifest) -> Result<Vec<Entry>>,
    out: &mut Notes<'_>,
) -> Result<(Vec<Entry>, Option<OpsLock>)> {
    let (manifest, snapshot) = match ctx.manifest.load_snapshot()? {
        Some((m, snap)) => (m, Some(snap)),
        None => (Manifest::default(), None),
    };
    if dry_run {
        return Ok((choose(&manifest)?, None));
    }
    choose(&manifest)?;
    let ops = OpsLock::acquire(&ctx.loop_dir(), |waiting| {
        out.note(format_args!("{waiting}"))
    })?;
    let _mutex = ManifestMutex::acquire(&ctx.loop_dir())?;
    // Parsed again only if another command replaced it meanwhile.
    let selected = if snapshot.is_some_and(|s| s.is_current(ctx.manifest.path())) {
        choose(&manifest)?
    } else {
        choose(&ctx.manifest.load_or_default()?)?
    };
    Ok((selected, Some(ops)))
}

/// Remove (or recycle) the selected runs' worktrees, guarded, in parallel,
/// and sort what became of each into `reclaimed`. A run that could not be
/// handled is skipped with code `error`; the first such error is kept, and
/// does not hide what happened to the others.
fn remove_selected(
    ctx: &Ctx,
    remover: &Remover<'_>,
    selected: Vec<Entry>,
    statuses: &[Status],
    options: Options,
    reclaimed: &mut Reclaimed,
    out: &mut Notes<'_>,
) -> Result<()> {
    // `--recycle`: a worktree that would be removed goes back into the
    // warm pool instead, while it has room.
    let recycler = match options.recycle && !options.dry_run {
        true => Some(Recycler::new(ctx, &selected)?),
        false => None,
    };
    let how = guarded::How {
        dry_run: options.dry_run,
        salvage: options.salvage,
        reap: options.reap,
        recycler: recycler.as_ref(),
    };
    let done = guarded::remove_all(ctx, remover, &selected, statuses, &how, out);
    for (entry, done) in selected.into_iter().zip(done) {
        match done {
            Ok(guarded::Done {
                removal: Removal::Removed(note),
                salvaged,
                logged,
                ..
            }) => reclaimed.removed.push(Removed {
                entry,
                note,
                salvaged,
                logged,
                branch: Fate::Untouched,
            }),
            Ok(guarded::Done {
                removal: Removal::Skipped(skip),
                ..
            }) => reclaimed.skipped.push(SkippedEntry::new(&entry.id, skip)),
            Err(e) => {
                reclaimed.skipped.push(SkippedEntry::new(
                    &entry.id,
                    Skip::new(e.to_string(), SkipCode::Error),
                ));
                reclaimed.error.get_or_insert(e);
            }
        }
    }
    Ok(())
}

/// Drop the removed runs from the manifest in one linear pass, each only if
/// the manifest still holds that run with a selected status (a run marked
/// active after its worktree was removed keeps its entry), release their
/// port leases ([`crate::ops::ports`]), and log what is not logged yet (see
/// [`events`]), under the mutex.
fn drop_removed(
    ctx: &Ctx,
    reclaimed: &Reclaimed,
    statuses: &[Status],
    out: &mut Notes<'_>,
) -> Result<()> {
    let mut tx = ctx.start_transaction()?;
    let gone: std::collections::HashMap<&str, &Entry> = reclaimed
        .removed
        .iter()
        .map(|r| (r.entry.id.as_str(), &r.entry))
        .collect();
    let dropped = |e: &Entry| match gone.get(e.id.as_str()) {
        Some(g) if g.same_run(e) => e.status != Status::Active && statuses.contains(&e.status),
        _ => false,
    };
    let manifest = tx.manifest()?;
    for e in &manifest.worktrees {
        if gone.get(e.id.as_str()).is_some_and(|g| g.same_run(e)) && !dropped(e) {
            out.note(format_args!(
                "note: {} was marked again after its worktree was removed; its entry is kept (reconcile drops it)",
                e.id
            ));
        }
    }
    if manifest.worktrees.iter().any(dropped) {
        tx.manifest_mut()?.worktrees.retain(|e| !dropped(e));
    }
    // Their worktrees are gone: so are their port leases (a lease left by a
    // failure here is reclaimed by the next create that leases).
    let released: Vec<&Entry> = reclaimed.removed.iter().map(|r| &r.entry).collect();
    if let Err(e) = crate::ops::ports::release(ctx, &released, tx.mutex()) {
        out.note(format_args!(
            "warning: could not release the removed runs' ports: {e}"
        ));
    }
    tx.log_all(events(reclaimed));
    tx.commit(out)
}

/// The events a reclaim logs once its entries are dropped: each removal the
/// removal thread did not log, each branch deleted (with its tip, its proof
/// and the trash ref that keeps it), and each skip.
fn events(reclaimed: &Reclaimed) -> Vec<crate::events::Event> {
    use crate::events::{Event, EventKind};
    let mut events = Vec::new();
    for r in &reclaimed.removed {
        if !r.logged {
            events.push(Event::new(EventKind::Remove, &r.entry.id));
        }
        if let Fate::Retired(retired) = &r.branch {
            events.extend(retired.event());
        }
    }
    events.extend(reclaimed.skipped.iter().map(SkippedEntry::event));
    events
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::safety::retire::{KeepCode, Retired};

    fn removed(id: &str, logged: bool, branch: Fate) -> Removed {
        let json = format!(
            r#"{{"version":1,"worktrees":[{{"id":"{id}","path":".loop-worktrees/{id}","branch":"loop/{id}","baseBranch":"main","pattern":"p","createdAt":"2026-11-30T14:44:32Z","status":"rejected"}}]}}"#
        );
        let entry = Manifest::parse(&json).unwrap().worktrees.remove(0);
        Removed {
            entry,
            note: None,
            salvaged: None,
            logged,
            branch,
        }
    }

    /// The events come from the outcomes: a removal its thread did not log,
    /// each deleted branch with its tip and proof, then the skips.
    #[test]
    fn events_are_built_from_the_outcomes() {
        let tip = gix::ObjectId::null(gix::hash::Kind::Sha1);
        let deleted = Fate::Retired(Retired::Deleted {
            branch: "loop/b".into(),
            base: "main".into(),
            tip,
            merged_by: None,
            trash_ref: "refs/loop/trash/t/branch/loop/b".into(),
        });
        let gone = Fate::Retired(Retired::Kept {
            code: KeepCode::Gone,
            reason: "loop/a does not exist".into(),
        });
        let reclaimed = Reclaimed {
            dry_run: false,
            removed: vec![removed("a", true, gone), removed("b", false, deleted)],
            skipped: vec![SkippedEntry::new("c", Skip::new("dirty", SkipCode::Dirty))],
            error: None,
        };
        let events = events(&reclaimed);
        let ids: Vec<&str> = events.iter().map(|e| e.id.as_str()).collect();
        assert_eq!(ids, ["b", "b", "c"]);
        assert_eq!(
            events[1].detail.as_deref(),
            Some(format!(
                "branch loop/b deleted at {tip} (no commits of its own; in main); kept as refs/loop/trash/t/branch/loop/b"
            ))
            .as_deref()
        );
    }
}
