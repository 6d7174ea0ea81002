//! The trash's operations (`git loop trash [list]`, `git loop trash restore
//! <NAME> [--as <BRANCH>]`, `git loop trash empty [--older-than <AGE>]
//! [--dry-run]`, and cleanup's expiry): what the safety kernel kept before
//! a destroying step (see [`crate::safety::trash`] for the ref names),
//! brought back, or dropped.
//!
//! - `restore` recreates a deleted branch at its tip — only when no branch
//!   of that name exists (created with a compare-and-swap on "no such ref":
//!   an existing branch is never moved), then drops the entry. A kept tip
//!   that was not a branch (a removed worktree's HEAD or own ref, a replaced
//!   salvage) comes back as the branch `--as` names, or, without `--as`, as
//!   `trash/<run>/<ref>` (`trash/x/worktree/experiment`); a salvage dropped
//!   by `restore --drop` comes back, without `--as`, as the salvage
//!   `refs/loop/salvage/<run>` again when that run has none now (so `git
//!   loop restore` takes it), created by the same compare-and-swap.
//! - `empty` drops every entry, or those kept before now − AGE; `--dry-run`
//!   lists what it would drop. Each drop is a compare-and-swap on the tip.
//!   Later cleanups drop the entries older than `trash.keep` by themselves.
//!
//! Each restore and drop is logged (`trash-restore`, `trash-expire`) under
//! the manifest mutex, with the worktree-operation lock held.

use crate::ctx::Ctx;
use crate::ctx::Transaction;
use crate::error::{Error, Result};
use crate::lock::OpsLock;
use crate::output::Notes;
use crate::safety::trash::{self, Entry, Kind};

/// Every entry, as the kernel lists them.
pub fn list(ctx: &Ctx) -> Result<Vec<Entry>> {
    trash::list(ctx.repo.gix())
}

/// The branch a kept tip comes back as without `--as`.
fn default_branch(e: &Entry) -> String {
    match e.kind {
        Kind::Branch => e
            .original
            .strip_prefix("refs/heads/")
            .unwrap_or(&e.original)
            .to_owned(),
        _ => {
            let run = e.run.as_deref().unwrap_or("unknown");
            let what = e.original.strip_prefix("refs/").unwrap_or(&e.original);
            let what = what.strip_prefix("loop/").unwrap_or(what);
            format!("trash/{run}/{what}")
        }
    }
}

/// A kept tip brought back.
#[derive(Debug)]
pub struct Restored {
    pub entry: Entry,
    /// The branch it was restored as (a dropped salvage: its full ref,
    /// `refs/loop/salvage/<run>`).
    pub branch: String,
}

/// Bring the entry `name` back as `as_branch` (or its default branch).
pub fn restore(
    ctx: &Ctx,
    name: &str,
    as_branch: Option<&str>,
    out: &mut Notes<'_>,
) -> Result<Restored> {
    let entries = trash::list(ctx.repo.gix())?;
    let Some(entry) = trash::find(&entries, name).cloned() else {
        return Err(Error::TrashNotFound {
            name: name.to_owned(),
        });
    };
    let branch = branch_for(&entry, as_branch)?;
    let tip = kept_commit(ctx, &entry)?;
    ctx.ensure_loop_dir()?;
    let _ops = OpsLock::acquire(&ctx.loop_dir(), |waiting| {
        out.note(format_args!("{waiting}"))
    })?;
    let mut tx = ctx.start_transaction()?;
    // A dropped salvage comes back as the salvage `git loop restore` takes,
    // when no `--as` is given and that run has no salvage now.
    let salvage = match (&entry.run, as_branch) {
        (Some(run), None) if entry.reason == trash::Reason::SalvageDropped.as_str() => {
            let name = crate::worktree::salvage::ref_name(run);
            let free = crate::git::refs::find(ctx.repo.gix(), &name)
                .map_err(|e| Error::Repository(format!("{name}: {e}")))?
                .is_none();
            free.then_some(name)
        }
        _ => None,
    };
    let branch = match salvage {
        Some(name) => {
            create_ref(ctx, &name, tip, &entry)?;
            name
        }
        None => {
            if ctx.repo.branch_exists(&branch)? {
                return Err(Error::RestoreOverBranch {
                    branch: branch.clone(),
                    entry: entry.name.clone(),
                });
            }
            create_ref(ctx, &format!("refs/heads/{branch}"), tip, &entry)?;
            branch
        }
    };
    // The branch (or salvage) holds it now: the entry is not needed.
    let dropped = trash::drop_entry(ctx.repo.gix(), &entry);
    if let Err(e) = &dropped {
        out.note(format_args!("warning: {e}; the entry stays in the trash"));
    }
    let mut event = crate::events::Event::new(
        crate::events::EventKind::TrashRestore,
        entry.run.as_deref().unwrap_or(&entry.name),
    );
    event.detail = Some(format!(
        "{} restored as {branch} at {}",
        entry.name, entry.tip
    ));
    tx.log(event);
    tx.commit(out)?;
    Ok(Restored { entry, branch })
}

/// The branch `entry` comes back as: `as_branch`, or its default; refused
/// unless git accepts it as a branch name (`HEAD` never).
fn branch_for(entry: &Entry, as_branch: Option<&str>) -> Result<String> {
    let branch = match as_branch {
        Some(b) => b.to_owned(),
        None => default_branch(entry),
    };
    if !crate::git::refs::valid_branch_name(&branch) {
        return Err(Error::InvalidBranchName { name: branch });
    }
    Ok(branch)
}

/// The commit `entry` keeps (a kept tip that is not a commit cannot be a
/// branch).
fn kept_commit(ctx: &Ctx, entry: &Entry) -> Result<gix::ObjectId> {
    let tip = gix::ObjectId::from_hex(entry.tip.as_bytes())
        .map_err(|e| Error::Repository(e.to_string()))?;
    let is_commit = ctx
        .repo
        .gix()
        .find_header(tip)
        .is_ok_and(|h| h.kind() == gix::object::Kind::Commit);
    if !is_commit {
        return Err(Error::Repository(format!(
            "{} keeps {tip}, which is not a commit: it cannot be a branch; `git show {}` shows it",
            entry.name, entry.refname
        )));
    }
    Ok(tip)
}

/// Create the ref `full` (a branch, or a dropped salvage's ref) at `tip`
/// by a compare-and-swap on "no such ref": an existing ref is never moved.
fn create_ref(ctx: &Ctx, full: &str, tip: gix::ObjectId, entry: &Entry) -> Result<()> {
    let full = full.to_owned();
    let create = crate::git::refs::Edit::Create {
        name: full.clone(),
        new: tip,
    };
    let message = format!("git-loop: trash restore {}", entry.name);
    crate::git::refs::apply(ctx.repo.gix(), &message, false, &[create])
        .map_err(|e| Error::RefWrite(format!("could not create {full}: {e}")))
}

/// Drop `entries` (already chosen), logging each as `trash-expire` with
/// `why` in `tx`. Returns the ones dropped. The caller holds the
/// worktree-operation lock.
fn drop_entries(
    tx: &mut Transaction<'_>,
    entries: Vec<Entry>,
    why: &str,
    out: &mut Notes<'_>,
) -> Vec<Entry> {
    let ctx = tx.ctx();
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
    tx.log_all(events);
    dropped
}

/// Drop every entry, or those kept before now − `older_than`; with
/// `dry_run`, only choose them. Returns the entries dropped (would be).
pub fn empty(
    ctx: &Ctx,
    older_than: Option<jiff::SignedDuration>,
    dry_run: bool,
    out: &mut Notes<'_>,
) -> Result<Vec<Entry>> {
    let choose = |entries: Vec<Entry>| -> Vec<Entry> {
        match older_than {
            Some(age) => trash::older_than(&entries, crate::time::now(), age)
                .into_iter()
                .cloned()
                .collect(),
            None => entries,
        }
    };
    let why = match older_than {
        Some(age) => format!("trash empty --older-than {}s", age.as_secs()),
        None => "trash empty".to_owned(),
    };
    if dry_run {
        return Ok(choose(trash::list(ctx.repo.gix())?));
    }
    ctx.ensure_loop_dir()?;
    let _ops = OpsLock::acquire(&ctx.loop_dir(), |waiting| {
        out.note(format_args!("{waiting}"))
    })?;
    let mut tx = ctx.start_transaction()?;
    let chosen = choose(trash::list(ctx.repo.gix())?);
    let dropped = drop_entries(&mut tx, chosen, &why, out);
    tx.commit(out)?;
    Ok(dropped)
}

/// What a cleanup runs after its removals (not a dry run): drop the
/// entries older than `trash.keep` and made before this command started, under the worktree-operation lock and
/// the manifest mutex. A failure to read or drop an entry is a warning: an
/// entry kept too long loses nothing.
pub fn expire(ctx: &Ctx, out: &mut Notes<'_>) -> Result<()> {
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
    let mut tx = ctx.start_transaction()?;
    // Never an entry this very command made, whatever `trash.keep` says
    // (`0s` would otherwise drop what a removal just kept): only entries
    // from before it started.
    let started = crate::time::started();
    let old: Vec<Entry> = trash::older_than(&entries, crate::time::now(), keep)
        .into_iter()
        .filter(|e| e.trashed < started)
        .cloned()
        .collect();
    if !old.is_empty() {
        let why = format!("older than trash.keep, {}s", keep.as_secs());
        drop_entries(&mut tx, old, &why, out);
    }
    tx.commit(out)
}
