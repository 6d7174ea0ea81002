//! Mark: record what runs became (`git loop mark <RUN_ID>... <STATUS>`, and
//! `claude-hook remove` marking its active run `stale`), or find the runs
//! whose work is in their base (`--detect-merged`: see [`detect`]).
//!
//! Marking never deletes an entry — the manifest is the audit trail; removal
//! happens only in a reclaim. One read-modify-write under the mutex, for
//! every run named: all are marked, or (an unknown id) none.

pub mod detect;

use crate::ctx::{Ctx, Transaction};
use crate::error::{Error, Result};
use crate::events::{Event, EventKind};
use crate::manifest::{Entry, Manifest, Status};
use crate::output::Notes;
use crate::runid::RunId;

/// A run's status set: its entry as it is now, and the status before.
pub struct Marked {
    pub entry: Entry,
    pub previous: Status,
}

/// Set the status of `run_id` (see [`set_statuses`]).
pub fn set_status(
    ctx: &Ctx,
    run_id: &RunId,
    status: Status,
    out: &mut Notes<'_>,
) -> Result<Marked> {
    let mut marked = set_statuses(ctx, std::slice::from_ref(run_id), status, out)?;
    Ok(marked.remove(0))
}

/// Set the status of each of `run_ids` (the same id twice once), all or
/// nothing: an unknown id refuses them all, checked on the manifest as read
/// before any lock is taken and again under the mutex. Each run's lock is
/// taken, in id order (see [`crate::lock`]), then the mutex; one manifest
/// write; a mark event for each run whose status changed. The runs come
/// back in the order named.
pub fn set_statuses(
    ctx: &Ctx,
    run_ids: &[RunId],
    status: Status,
    out: &mut Notes<'_>,
) -> Result<Vec<Marked>> {
    let mut ids: Vec<&RunId> = Vec::with_capacity(run_ids.len());
    for id in run_ids {
        if !ids.contains(&id) {
            ids.push(id);
        }
    }
    let first = *ids.first().expect("clap requires a run id");
    let unknown = |id: &RunId| Error::unknown_id(id, []);
    // Without .loop-worktrees/ there is nothing to mark; create nothing.
    if !ctx.loop_dir_exists()? {
        return Err(unknown(first));
    }
    // Validated before any lock is taken: a manifest git-loop does not
    // understand, or an unknown id, refuses the mark with no trace left
    // (not even a mutex created and removed).
    let (parsed, snapshot) = ctx
        .manifest
        .load_snapshot()?
        .ok_or_else(|| unknown(first))?;
    refuse_unknown(&parsed, &ids)?;
    // The run locks first (see `crate::worktree`): a cleanup that is removing
    // one of these runs' worktrees finishes that removal before this mark is
    // applied, and a cleanup that has not started it yet sees this mark. In
    // id order, so two marks of the same runs take them in the same order.
    let _runs = lock_runs(ctx, ids.iter().copied())?;
    let mut tx = ctx.start_transaction_from(Some((parsed, snapshot)))?;
    refuse_unknown(tx.manifest()?, &ids)?;
    let mut marked = Vec::with_capacity(ids.len());
    for id in &ids {
        let previous = tx
            .manifest()?
            .find(id)
            .expect("checked under the mutex")
            .status;
        marked.push(set(&mut tx, id, previous, status)?);
    }
    for m in &marked {
        if status == Status::Active && ctx.worktree_path(&m.entry.id).symlink_metadata().is_err() {
            out.note(format_args!(
                "warning: {} has no worktree at {} (removed, or never there); `git loop reconcile` drops such entries",
                m.entry.id,
                m.entry.path()
            ));
        }
    }
    tx.log_all(events(&marked));
    tx.commit(out)?;
    Ok(marked)
}

/// Each run's lock, in id order (the same id once), so two marks of the
/// same runs take them in the same order (see [`crate::lock`]).
fn lock_runs<'i>(
    ctx: &Ctx,
    ids: impl IntoIterator<Item = &'i RunId>,
) -> Result<Vec<crate::lock::RunLock>> {
    let mut in_order: Vec<&RunId> = ids.into_iter().collect();
    in_order.sort();
    in_order.dedup();
    in_order
        .iter()
        .map(|id| {
            crate::lock::RunLock::acquire(ctx.repo.common_dir(), id, crate::lock::RUN_LOCK_DEADLINE)
        })
        .collect()
}

/// Run `id` (held by the manifest) set to `status` from `previous`: the
/// manifest changed only when the status does.
fn set(tx: &mut Transaction<'_>, id: &str, previous: Status, status: Status) -> Result<Marked> {
    if previous != status {
        let entry = tx
            .manifest_mut()?
            .find_mut(id)
            .expect("held by the manifest");
        entry.status = status;
    }
    let entry = tx
        .manifest()?
        .find(id)
        .expect("held by the manifest")
        .clone();
    Ok(Marked { entry, previous })
}

/// A mark event for each run whose status changed.
fn events(marked: &[Marked]) -> impl Iterator<Item = Event> + '_ {
    marked
        .iter()
        .filter(|m| m.previous != m.entry.status)
        .map(|m| {
            let mut event = Event::new(EventKind::Mark, &m.entry.id);
            event.from = Some(m.previous.into());
            event.to = Some(m.entry.status.into());
            event
        })
}

/// What [`set_statuses_from`] needs to go on: each change stands alone, or
/// the first must be made for any to be (`pick`'s winner).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Needs {
    Nothing,
    First,
}

/// A run [`set_statuses_from`] left as it is now: its id, and its status
/// now (`None`: gone from the manifest).
pub type LeftAsIs = (RunId, Option<Status>);

/// Set each run of `changes` to its status when it is, under the mutex,
/// still that run (the same entry: [`Entry::same_run`]) with the status it
/// had when it was read: a compare-and-swap of each run's status. A run
/// marked, removed or replaced by someone else since is left as it is now,
/// and comes back in the second list with its status now (`None`: gone).
/// With [`Needs::First`], a first run left as it is leaves every run so:
/// nothing is written. Each run's lock, then the mutex, as
/// [`set_statuses`]; one manifest write, a mark event for each change.
pub fn set_statuses_from(
    ctx: &Ctx,
    changes: &[(&Entry, Status)],
    needs: Needs,
    out: &mut Notes<'_>,
) -> Result<(Vec<Marked>, Vec<LeftAsIs>)> {
    if changes.is_empty() || !ctx.loop_dir_exists()? {
        let gone = changes.iter().map(|(e, _)| (e.id.clone(), None)).collect();
        return Ok((Vec::new(), gone));
    }
    let _runs = lock_runs(ctx, changes.iter().map(|(e, _)| &e.id))?;
    let mut tx = ctx.start_transaction()?;
    let (mut marked, mut left) = (Vec::new(), Vec::new());
    for (n, (want, status)) in changes.iter().enumerate() {
        if marked.iter().any(|m: &Marked| m.entry.id == want.id) {
            continue;
        }
        match tx.manifest()?.find(&want.id) {
            Some(entry) if entry.same_run(want) && entry.status == want.status => {
                let previous = entry.status;
                marked.push(set(&mut tx, &want.id, previous, *status)?);
            }
            now => {
                left.push((want.id.clone(), now.map(|e| e.status)));
                if n == 0 && needs == Needs::First {
                    return Ok((Vec::new(), left));
                }
            }
        }
    }
    tx.log_all(events(&marked));
    tx.commit(out)?;
    Ok((marked, left))
}

/// The first of `ids` the manifest does not hold, refused.
fn refuse_unknown(manifest: &Manifest, ids: &[&RunId]) -> Result<()> {
    match ids.iter().find(|id| manifest.find(id).is_none()) {
        Some(id) => Err(Error::unknown_id(
            id,
            manifest.worktrees.iter().map(|e| e.id.as_str()),
        )),
        None => Ok(()),
    }
}
