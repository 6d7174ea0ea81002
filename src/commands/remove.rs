//! `git loop remove <ID>... [--dry-run]`: remove the named runs' worktrees
//! with cleanup's rules (see [`crate::ops::reclaim`]): never forced, a
//! skip with its code whenever something in a worktree would be lost,
//! branches kept, the removed runs' entries dropped. Any status but `active`
//! is accepted; an `active` or unknown id refuses the whole command before
//! anything changes (checked on the manifest as read, and again under the
//! mutex). The same id given twice is removed once. The JSON is cleanup's.

use crate::cli::RemoveArgs;
use crate::ctx::Ctx;
use crate::error::Result;
use crate::output::Out;

pub use super::shared::reclaim::CleanupReport;

pub fn run(ctx: &Ctx, args: &RemoveArgs, out: &mut Out<'_>) -> Result<CleanupReport> {
    let ids: Vec<&str> = args.run_ids.iter().map(|id| id.as_str()).collect();
    let reclaimed = crate::ops::reclaim::remove(ctx, &ids, args.dry_run, args.salvage, out)?;
    Ok(CleanupReport::from(reclaimed))
}
