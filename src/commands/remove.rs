//! `git loop remove <ID>... [--dry-run]`: remove the named runs' worktrees
//! with cleanup's rules (see [`crate::ops::reclaim`]): never forced, a
//! skip with its code whenever something in a worktree would be lost,
//! branches kept, the removed runs' entries dropped. Any status but `active`
//! is accepted; an `active` or unknown id refuses the whole command before
//! anything changes (checked on the manifest as read, and again under the
//! mutex). The same id given twice is removed once. The JSON is cleanup's.
//! When none of the named runs is removed (each skipped), it fails (exit 1,
//! `error` `nothing-removed` in the document), as `git worktree remove`
//! does; a dry run predicts that too.

use crate::cli::RemoveArgs;
use crate::ctx::Ctx;
use crate::error::{Error, Result};
use crate::ops::reclaim::Remove;
use crate::output::Out;

pub use super::shared::reclaim::{Again, CleanupReport};

impl From<&RemoveArgs> for Remove {
    fn from(args: &RemoveArgs) -> Remove {
        Remove {
            dry_run: args.dry_run,
            salvage: args.salvage,
            reap: args.reap,
        }
    }
}

pub fn exec(ctx: &Ctx, args: &RemoveArgs, out: &mut Out<'_>) -> Result<CleanupReport> {
    let ids: Vec<&str> = args.run_ids.iter().map(|id| id.as_str()).collect();
    let mut reclaimed =
        crate::ops::reclaim::remove(ctx, &ids, Remove::from(args), &mut out.notes())?;
    // Named runs of which none was removed: a failure, as `git worktree
    // remove` is (the report still lists each skip and its reason).
    if reclaimed.removed.is_empty() && reclaimed.error.is_none() {
        let skipped: Vec<String> = reclaimed
            .skipped
            .iter()
            .map(|s| format!("{} skipped ({})", s.id, s.code.as_str()))
            .collect();
        reclaimed.error = Some(Error::NothingRemoved {
            dry_run: reclaimed.dry_run,
            skipped: skipped.join(", "),
        });
    }
    super::shared::fleet::publish_after(ctx, out);
    let mut report = CleanupReport::from(reclaimed);
    report.again = Again::Remove;
    Ok(report)
}
