//! Step 5 of a create: the run recorded in the manifest, or, when that
//! fails, the worktree and branch this create made removed again.

use super::add::Added;
use super::{Plan, refuse_active};
use crate::cli::CreateArgs;
use crate::ctx::Ctx;
use crate::error::Result;
use crate::events::{Event, EventKind};
use crate::lock::ManifestMutex;
use crate::manifest::Entry;
use crate::output::Out;
use crate::signals::RollbackWindow;

/// Record the run; if that fails, undo the worktree and branch (best
/// effort: the worktree is fresh and clean, so a plain remove works) and
/// return the original error.
pub(super) fn record_or_undo(
    ctx: &Ctx,
    args: &CreateArgs,
    plan: &Plan<'_>,
    added: &Added,
    out: &mut Out<'_>,
) -> Result<Entry> {
    let entry = Entry::new(&plan.id, &plan.base, &args.pattern, crate::time::now());
    match record(ctx, &entry, added.adopted, &added.window, out) {
        Ok(()) => Ok(entry),
        Err(e) => {
            undo(ctx, plan, added)?;
            Err(e)
        }
    }
}

/// Record the run; `window` closes once the manifest is written, so a signal
/// from then on leaves the recorded run in place. The `create` event is made
/// of what was recorded (and the branch adopted, if one was).
fn record(
    ctx: &Ctx,
    entry: &Entry,
    adopted: Option<gix::ObjectId>,
    window: &RollbackWindow,
    out: &mut Out<'_>,
) -> Result<()> {
    let mutex = ManifestMutex::acquire(&ctx.loop_dir())?;
    let mut manifest = ctx.manifest.load_or_default()?;
    refuse_active(ctx, &manifest, &entry.id)?;
    manifest.worktrees.retain(|e| e.id != entry.id);
    manifest.worktrees.push(entry.clone());
    window.commit(|| ctx.manifest.write(&manifest, &mutex))?;
    ctx.log_events(&[create_event(entry, adopted)], out);
    Ok(())
}

pub(super) fn create_event(entry: &Entry, adopted: Option<gix::ObjectId>) -> Event {
    let mut event = Event::new(EventKind::Create, &entry.id);
    let mut detail = format!("pattern {:?}, base {}", entry.pattern, entry.base_branch);
    if let Some(tip) = adopted {
        detail.push_str(&format!(", adopted branch {} at {tip}", entry.branch()));
    }
    event.detail = Some(detail);
    event
}

/// Remove the worktree this create added, and the branch it made if that
/// still points where it was made, each under the kernel's permit.
fn undo(ctx: &Ctx, plan: &Plan<'_>, added: &Added) -> Result<()> {
    let admin = ctx
        .repo
        .loop_worktrees()?
        .into_iter()
        .find(|(name, _)| *name == plan.id)
        .map(|(_, wt)| wt.admin_dir);
    if let Some(admin) = admin
        && let Ok(permit) =
            crate::safety::worktree::rollback_permit(ctx.repo.gix(), &plan.id, &admin)
    {
        let _ = crate::safety::exec::worktree_remove(&added.git, &plan.rel, &permit);
    }
    if let Some(at) = added.made_branch
        && let Some(permit) = crate::safety::rollback_branch(ctx.repo.gix(), &plan.branch, at)
    {
        let _ = crate::safety::exec::delete_branch(&ctx.repo, &plan.branch, at, &permit);
    }
    Ok(())
}
