//! `remove`: the runs a reclaim takes by id, with cleanup's rules.

use super::{Options, Reclaimed, reclaim};
use crate::ctx::Ctx;
use crate::error::{Error, Result};
use crate::manifest::{Entry, Manifest, Status};
use crate::output::Notes;

/// Every status but `active`: a run re-marked active meanwhile is skipped.
const REMOVABLE: [Status; 4] = [
    Status::Rejected,
    Status::Escalated,
    Status::Merged,
    Status::Stale,
];

/// What a `remove` was asked for, beside the ids.
#[derive(Debug, Clone, Copy, Default)]
pub struct Remove {
    pub dry_run: bool,
    /// Save a dirty run to `refs/loop/salvage/<id>` first.
    pub salvage: bool,
    /// Terminate the processes left working in a worktree first.
    pub reap: bool,
}

/// Remove the named runs' worktrees (the same id given twice once), with
/// cleanup's rules; branches are kept. An `active` or unknown id refuses the
/// whole operation before anything changes.
pub fn remove(ctx: &Ctx, ids: &[&str], request: Remove, out: &mut Notes<'_>) -> Result<Reclaimed> {
    // No manifest, no runs: every id is unknown (and nothing is created).
    if !ctx.loop_dir_exists()? {
        choose(&Manifest::default(), ids)?;
    }
    let options = Options {
        dry_run: request.dry_run,
        salvage: request.salvage,
        reap: request.reap,
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
        let entry = manifest.get(id)?;
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
