//! Step 5 of a create: the run recorded in the manifest, with the ports
//! leased to it ([`crate::ops::ports`]) in the same hold of the mutex, or,
//! when that fails, the lease dropped and the worktree and branch this
//! create made removed again.

use super::add::Added;
use super::{Plan, refuse_active};
use crate::ctx::Ctx;
use crate::error::Result;
use crate::events::{Event, EventKind};
use crate::manifest::Entry;
use crate::ops::create::CreateRequest;
use crate::ops::ports;
use crate::output::Notes;
use crate::signals::RollbackWindow;

/// Record the run; if that fails, undo the worktree and branch (best
/// effort: the worktree is fresh and clean, so a plain remove works) and
/// return the original error. The run's entry, and the ports leased to it.
pub(super) fn record_or_undo(
    ctx: &Ctx,
    args: &CreateRequest,
    plan: &Plan<'_>,
    added: &Added,
    out: &mut Notes<'_>,
) -> Result<(Entry, Vec<u16>)> {
    let pattern = super::pattern(ctx, args)?;
    let entry = Entry::new(&plan.id, &plan.base, &pattern, crate::time::now());
    match record(ctx, &entry, plan, added.adopted, &added.window, out) {
        Ok(ports) => Ok((entry, ports)),
        Err(e) => {
            undo(ctx, plan, added)?;
            Err(e)
        }
    }
}

/// Record the run and lease its ports; `window` closes once the manifest is
/// written, so a signal from then on leaves the recorded run in place (one
/// that comes while the lease and the write run waits for them). A lease
/// whose manifest write fails is dropped again, in the same hold of the
/// mutex; one a `kill -9` leaves between the two is reclaimed by the next
/// create that leases (its run is not in the manifest). The `create` event
/// is made of what was recorded (and the branch adopted, if one was).
fn record(
    ctx: &Ctx,
    entry: &Entry,
    plan: &Plan<'_>,
    adopted: Option<gix::ObjectId>,
    window: &RollbackWindow,
    out: &mut Notes<'_>,
) -> Result<Vec<u16>> {
    let mut tx = ctx.start_transaction()?;
    refuse_active(ctx, tx.manifest()?, &entry.id)?;
    let manifest = tx.manifest_mut()?;
    manifest.worktrees.retain(|e| e.id != entry.id);
    manifest.worktrees.push(entry.clone());
    let ports = window.commit(|| {
        let ports = ports::lease(
            ctx,
            entry,
            &plan.abs,
            plan.ports,
            tx.manifest()?,
            tx.mutex(),
        )?;
        if let Err(e) = tx.write() {
            if !ports.is_empty() {
                let _ = ports::release(ctx, &[entry], tx.mutex());
            }
            return Err(e);
        }
        Ok(ports)
    })?;
    tx.log(create_event(entry, adopted, &ports));
    tx.commit(out)?;
    Ok(ports)
}

pub(super) fn create_event(entry: &Entry, adopted: Option<gix::ObjectId>, ports: &[u16]) -> Event {
    let mut event = Event::new(EventKind::Create, &entry.id);
    let mut detail = format!("pattern {:?}, base {}", entry.pattern, entry.base_branch);
    if let Some(tip) = adopted {
        detail.push_str(&format!(", adopted branch {} at {tip}", entry.branch()));
    }
    if !ports.is_empty() {
        let ports: Vec<String> = ports.iter().map(u16::to_string).collect();
        detail.push_str(&format!(", ports {}", ports.join(" ")));
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
