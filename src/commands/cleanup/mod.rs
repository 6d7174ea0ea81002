//! `git loop cleanup [--status <CSV>] [--older-than <AGE>] [--dry-run]`:
//! the adapter from cleanup's flags to [`crate::ops::reclaim::cleanup`]
//! (whose module doc has the rules: selection, safety, hooks, locking) and
//! its report, [`CleanupReport`].

use crate::cli::CleanupArgs;
// The warm pool's recycling; it moves below the commands with the pool
// (then this is `crate::ops::pool::…`, and the pool may implement
// `Recycle` itself).
use crate::ctx::Ctx;
use crate::error::Result;
use crate::manifest::Entry;
use crate::ops::pool::{Recycler, recycle};
use crate::ops::reclaim::{Cleanup, Recycle};
use crate::output::Out;
use crate::worktree::{Removal, Remover};

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

pub fn run(ctx: &Ctx, args: &CleanupArgs, out: &mut Out<'_>) -> Result<CleanupReport> {
    let recycling = |ctx: &Ctx, selected: &[Entry]| -> Result<Box<dyn Recycle>> {
        Ok(Box::new(Pool(Recycler::new(ctx, selected)?)))
    };
    let reclaimed = crate::ops::reclaim::cleanup(ctx, &Cleanup::from(args), &recycling, out)?;
    Ok(CleanupReport::from(reclaimed))
}

/// The warm pool's recycler (`--recycle`), as the reclaim takes it.
struct Pool(Recycler);

impl Recycle for Pool {
    fn recycle(&self, remover: &Remover<'_>, id: &str) -> Result<Removal> {
        recycle(remover, &self.0, id)
    }
}
