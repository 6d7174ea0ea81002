//! `git loop mark <RUN_ID> <STATUS>`: record what a run became
//! (`--detect-merged`: see [`detect`]).
//!
//! Marking never deletes an entry — the manifest is the audit trail; removal
//! happens only in cleanup. One read-modify-write under the mutex.

use serde::Serialize;

pub mod detect;

use crate::cli::RunId;
use crate::ctx::Ctx;
use crate::error::{Error, Result};
use crate::lock::ManifestMutex;
use crate::manifest::{Entry, Status};
use crate::output::{Out, Report};

#[derive(Debug, Serialize, schemars::JsonSchema)]
#[serde(transparent)]
pub struct MarkReport {
    pub entry: Entry,
    #[serde(skip)]
    pub previous: Status,
}

impl Report for MarkReport {
    fn human(&self, out: &mut Out<'_>) -> std::io::Result<()> {
        out.note(format_args!(
            "{}: {} -> {}",
            self.entry.id, self.previous, self.entry.status
        ));
        out.stdout.flush()
    }
}

pub fn run(ctx: &Ctx, run_id: &RunId, status: Status, out: &mut Out<'_>) -> Result<MarkReport> {
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
    let _run = crate::worktree::RunLock::acquire(
        ctx.repo.common_dir(),
        run_id,
        crate::worktree::RUN_LOCK_DEADLINE,
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
    Ok(MarkReport { entry, previous })
}
