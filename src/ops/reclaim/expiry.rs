//! Trash expiry at cleanup: after its removals (not a dry run), a cleanup
//! drops the trash's entries older than `trash.keep` (see
//! [`crate::safety::trash`]), each logged as `trash-expire`.
//!
//! Moved here from `commands/trash.rs`, whose `trash empty` shares
//! [`drop_entries`] (an operation never calls a command).

use crate::ctx::Ctx;
use crate::error::Result;
use crate::lock::{ManifestMutex, OpsLock};
use crate::output::Out;
use crate::safety::trash::{self, Entry};

/// Drop `entries` (already chosen), logging each as `trash-expire` with
/// `why`. Returns the ones dropped. The caller holds the locks.
pub fn drop_entries(ctx: &Ctx, entries: Vec<Entry>, why: &str, out: &mut Out<'_>) -> Vec<Entry> {
    let mut dropped = Vec::new();
    let mut events = Vec::new();
    // One transaction for them all; one by one when it cannot be had.
    let all = entries.len() > 1 && trash::drop_all(ctx.repo.gix(), &entries).is_ok();
    for e in entries {
        let result = match all {
            true => Ok(()),
            false => trash::drop_entry(ctx.repo.gix(), &e),
        };
        match result {
            Ok(()) => {
                let mut event = crate::events::Event::new(
                    crate::events::EventKind::TrashExpire,
                    e.run.as_deref().unwrap_or(&e.name),
                );
                event.detail = Some(format!("{} at {} dropped ({why})", e.name, e.tip));
                events.push(event);
                dropped.push(e);
            }
            Err(err) => out.note(format_args!("warning: {err}; kept")),
        }
    }
    if !events.is_empty() {
        ctx.log_events(&events, out);
    }
    dropped
}

/// What a cleanup runs after its removals (not a dry run): drop the
/// entries older than `trash.keep`, under the worktree-operation lock and
/// the manifest mutex. A failure to read or drop an entry is a warning: an
/// entry kept too long loses nothing.
pub fn expire(ctx: &Ctx, out: &mut Out<'_>) -> Result<()> {
    let keep = ctx.settings()?.trash_keep.value;
    let Ok(entries) = trash::list(ctx.repo.gix()) else {
        return Ok(());
    };
    if entries.is_empty() || !ctx.loop_dir_exists()? {
        return Ok(());
    }
    let _ops = OpsLock::acquire(&ctx.loop_dir(), |waiting| {
        out.note(format_args!("{waiting}"))
    })?;
    let _mutex = ManifestMutex::acquire(&ctx.loop_dir())?;
    let old: Vec<Entry> = trash::older_than(&entries, crate::time::now(), keep)
        .into_iter()
        .cloned()
        .collect();
    if !old.is_empty() {
        let why = format!("older than trash.keep, {}s", keep.as_secs());
        drop_entries(ctx, old, &why, out);
    }
    Ok(())
}
