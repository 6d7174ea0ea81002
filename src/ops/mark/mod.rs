//! Mark: record what a run became (`git loop mark <RUN_ID> <STATUS>`, and
//! `claude-hook remove` marking its active run `stale`), or find the runs
//! whose work is in their base (`--detect-merged`: see [`detect`]).
//!
//! Marking never deletes an entry — the manifest is the audit trail; removal
//! happens only in a reclaim. One read-modify-write under the mutex.

pub mod detect;

use crate::cli::RunId;
use crate::ctx::Ctx;
use crate::error::{Error, Result};
use crate::lock::ManifestMutex;
use crate::manifest::{Entry, Status};
use crate::output::Out;

/// A run's status set: its entry as it is now, and the status before.
pub struct Marked {
    pub entry: Entry,
    pub previous: Status,
}

/// Set the status of `run_id` (a mark event logged when it changes), under
/// its run lock and the manifest mutex.
pub fn set_status(ctx: &Ctx, run_id: &RunId, status: Status, out: &mut Out<'_>) -> Result<Marked> {
    let unknown = || Error::UnknownId {
        id: run_id.to_string(),
    };
    // Without .loop-worktrees/ there is nothing to mark; create nothing.
    if !ctx.loop_dir_exists()? {
        return Err(unknown());
    }
    // Validated before any lock is taken: a manifest git-loop does not
    // understand refuses the mark with no trace left (not even a mutex
    // created and removed).
    let (parsed, snapshot) = ctx.manifest.load_snapshot()?.ok_or_else(unknown)?;
    parsed.find(run_id).ok_or_else(unknown)?;
    // The run lock first (see `crate::worktree`): a cleanup that is removing
    // this run's worktree finishes that removal before this mark is applied,
    // and a cleanup that has not started it yet sees this mark.
    let dir = ctx.worktree_path(run_id);
    let _run = crate::lock::RunLock::acquire(
        ctx.repo.common_dir(),
        run_id,
        crate::lock::RUN_LOCK_DEADLINE,
    )?;
    let mutex = ManifestMutex::acquire(&ctx.loop_dir())?;
    // Parsed again only if another command replaced it meanwhile.
    let mut manifest = if snapshot.is_current(ctx.manifest.path()) {
        parsed
    } else {
        ctx.manifest.load()?.ok_or_else(unknown)?
    };
    let entry = manifest.find_mut(run_id).ok_or_else(unknown)?;
    let previous = entry.status;
    entry.status = status;
    let entry = entry.clone();
    if status == Status::Active && dir.symlink_metadata().is_err() {
        out.note(format_args!(
            "warning: {} has no worktree at {} (removed, or never there); `git loop reconcile` drops such entries",
            entry.id,
            entry.path()
        ));
    }
    if previous != status {
        ctx.manifest.write(&manifest, &mutex)?;
        let mut event = crate::events::Event::new(crate::events::EventKind::Mark, &entry.id);
        event.from = Some(previous.into());
        event.to = Some(status.into());
        ctx.log_events(&[event], out);
    }
    Ok(Marked { entry, previous })
}
