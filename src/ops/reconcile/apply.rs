//! The last phase: the manifest changes reconcile planned, made under the
//! manifest mutex, and the events of what it did, logged under it.

use std::collections::HashMap;

use super::{Outcome, adopt};
use crate::ctx::Ctx;
use crate::error::Result;
use crate::events::{Event, EventKind};
use crate::lock::ManifestMutex;
use crate::manifest::Entry;
use crate::output::Out;

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
pub(super) fn apply(ctx: &Ctx, plan: &Plan, outcome: &Outcome, out: &mut Out<'_>) -> Result<()> {
    let mutex = ManifestMutex::acquire(&ctx.loop_dir())?;
    let adopted = record(ctx, plan, &mutex)?;
    ctx.log_events(&events(outcome, &adopted, &plan.base), out);
    drop(mutex);
    Ok(())
}

/// Drop the entries observed gone — in one linear pass — and record the
/// adopted orphans not recorded meanwhile. Returns the ids adopted.
fn record(ctx: &Ctx, plan: &Plan, mutex: &ManifestMutex) -> Result<Vec<String>> {
    if plan.drop.is_empty() && plan.adopt.is_empty() {
        return Ok(Vec::new());
    }
    let mut manifest = ctx.manifest.load_or_default()?;
    let gone: HashMap<&str, &Entry> = plan.drop.iter().map(|e| (e.id.as_str(), e)).collect();
    let before = manifest.worktrees.len();
    manifest
        .worktrees
        .retain(|e| !gone.get(e.id.as_str()).is_some_and(|g| g.same_run(e)));
    let dropped_any = manifest.worktrees.len() != before;
    let mut adopted = Vec::new();
    for id in &plan.adopt {
        // Recorded meanwhile (a create that finished late): leave it.
        if manifest.find(id).is_none() {
            manifest.worktrees.push(adopt::entry(id, &plan.base));
            adopted.push(id.clone());
        }
    }
    if dropped_any || !adopted.is_empty() {
        ctx.manifest.write(&manifest, mutex)?;
    }
    Ok(adopted)
}

/// The events, in order: adoptions, drops, orphans removed, and what was
/// kept (strays are not logged: they are not a change).
fn events(outcome: &Outcome, adopted: &[String], base: &str) -> Vec<Event> {
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
