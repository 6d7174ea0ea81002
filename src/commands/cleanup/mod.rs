//! `git loop cleanup [--status <CSV>] [--older-than <AGE>] [--dry-run]`:
//! the adapter from cleanup's flags to [`crate::ops::reclaim::cleanup`]
//! (whose module doc has the rules: selection, safety, hooks, locking) and
//! its report, [`CleanupReport`].

use crate::cli::CleanupArgs;
use crate::ctx::Ctx;
use crate::error::Result;
use crate::ops::reclaim::Cleanup;
use crate::output::Out;

pub use super::shared::reclaim::CleanupReport;

impl From<&CleanupArgs> for Cleanup {
    fn from(args: &CleanupArgs) -> Cleanup {
        Cleanup {
            statuses: args.status.as_ref().map(|s| s.0.clone()),
            older_than: args.older_than.map(|c| c.0),
            dry_run: args.dry_run,
            delete_merged_branches: args.delete_merged_branches,
            recycle: args.recycle,
            salvage: args.salvage,
            reap: args.reap,
        }
    }
}

pub fn exec(ctx: &Ctx, args: &CleanupArgs, out: &mut Out<'_>) -> Result<CleanupReport> {
    let reclaimed = crate::ops::reclaim::cleanup(ctx, &Cleanup::from(args), &mut out.notes())?;
    super::shared::fleet::publish_after(ctx, out);
    Ok(CleanupReport::from(reclaimed))
}
