//! The last phase: the manifest changes reconcile planned, made under the
//! manifest mutex, and the events of what it did, logged under it.

use std::collections::HashMap;

use super::{ReconcileOutcome, adopt};
use crate::ctx::{Ctx, Transaction};
use crate::error::Result;
use crate::events::{Event, EventKind};
use crate::manifest::Entry;
use crate::output::Notes;

/// What reconcile changes in the manifest.
#[derive(Debug, Default)]
pub struct Plan {
    /// Entries whose directory is gone and whose registration is gone too:
    /// dropped only if the manifest still holds that very run (same id and
    /// `createdAt`).
    pub drop: Vec<Entry>,
    /// Orphans to record as `active` runs, by id.
    pub adopt: Vec<String>,
    /// The base an adopted run gets (`loop.base`).
    pub base: String,
}

/// Apply `plan` under the manifest mutex, then log the events of
/// `outcome` (the adoptions as recorded).
pub(super) fn apply(
    ctx: &Ctx,
    plan: &Plan,
    outcome: &ReconcileOutcome,
    out: &mut Notes<'_>,
) -> Result<()> {
    let mut tx = ctx.start_transaction()?;
    let adopted = record(&mut tx, plan)?;
    tx.log_all(events(outcome, &adopted, &plan.base));
    tx.commit(out)
}

/// Drop the entries observed gone — in one linear pass — and record the
/// adopted orphans not recorded meanwhile. Returns the ids adopted.
fn record(tx: &mut Transaction<'_>, plan: &Plan) -> Result<Vec<String>> {
    if plan.drop.is_empty() && plan.adopt.is_empty() {
        return Ok(Vec::new());
    }
    let gone: HashMap<&str, &Entry> = plan.drop.iter().map(|e| (e.id.as_str(), e)).collect();
    let is_gone = |e: &Entry| gone.get(e.id.as_str()).is_some_and(|g| g.same_run(e));
    let manifest = tx.manifest()?;
    let drop_any = manifest.worktrees.iter().any(is_gone);
    // Recorded meanwhile (a create that finished late): left alone.
    let mut adopted: Vec<String> = Vec::new();
    for id in &plan.adopt {
        if manifest.find(id).is_none() && !adopted.contains(id) {
            adopted.push(id.clone());
        }
    }
    if drop_any || !adopted.is_empty() {
        let manifest = tx.manifest_mut()?;
        manifest.worktrees.retain(|e| !is_gone(e));
        for id in &adopted {
            manifest.worktrees.push(adopt::entry(id, &plan.base));
        }
    }
    Ok(adopted)
}

/// The events, in order: adoptions, drops, orphans removed, and what was
/// kept (strays are not logged: they are not a change).
fn events(outcome: &ReconcileOutcome, adopted: &[String], base: &str) -> Vec<Event> {
    let mut events = Vec::new();
    for id in adopted {
        let mut e = Event::new(EventKind::Adopt, id);
        e.detail = Some(format!("pattern {:?}, base {base}", adopt::PATTERN));
        events.push(e);
    }
    for d in &outcome.dropped {
        events.push(Event::new(EventKind::Drop, &d.id));
    }
    for r in &outcome.removed_orphans {
        events.push(Event::new(EventKind::OrphanRemove, &r.id));
    }
    events.extend(outcome.kept.iter().map(|k| k.event()));
    events
}
