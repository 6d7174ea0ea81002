//! `git loop remove <ID>... [--dry-run]`: remove the named runs' worktrees
//! with cleanup's rules (see [`super::cleanup::reclaim`]): never forced, a
//! skip with its code whenever something in a worktree would be lost,
//! branches kept, the removed runs' entries dropped. Any status but `active`
//! is accepted; an `active` or unknown id refuses the whole command before
//! anything changes (checked on the manifest as read, and again under the
//! mutex). The same id given twice is removed once. The JSON is cleanup's.

use crate::cli::RemoveArgs;
use crate::commands::cleanup::{CleanupReport, Options, reclaim};
use crate::ctx::Ctx;
use crate::error::{Error, Result};
use crate::manifest::{Entry, Manifest, Status};
use crate::output::Out;

/// Every status but `active`: a run re-marked active meanwhile is skipped.
const REMOVABLE: [Status; 4] = [
    Status::Rejected,
    Status::Escalated,
    Status::Merged,
    Status::Stale,
];

/// The named runs, in the order named, or the refusal.
fn choose(manifest: &Manifest, ids: &[&str]) -> Result<Vec<Entry>> {
    let mut chosen: Vec<Entry> = Vec::new();
    for id in ids {
        let entry = manifest.find(id).ok_or_else(|| Error::UnknownId {
            id: (*id).to_owned(),
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

pub fn run(ctx: &Ctx, args: &RemoveArgs, out: &mut Out<'_>) -> Result<CleanupReport> {
    let ids: Vec<&str> = args.run_ids.iter().map(|id| id.as_str()).collect();
    // No manifest, no runs: every id is unknown (and nothing is created).
    if !ctx.loop_dir_exists()? {
        choose(&Manifest::default(), &ids)?;
    }
    reclaim(
        ctx,
        &REMOVABLE,
        Options {
            dry_run: args.dry_run,
            delete_merged: false,
            salvage: args.salvage,
            recycle: false,
        },
        |manifest| choose(manifest, &ids),
        out,
    )
}
