//! `git loop reconcile [--remove-orphan <ID>]... [--dry-run]`
//!
//! Compares git's registered worktrees under `.loop-worktrees/` (read with
//! gix: the same set `git worktree list --porcelain` shows; direct children
//! only) with the manifest:
//! - **orphans** — registered with git, absent from the manifest — are
//!   reported, and removed only when named with `--remove-orphan`, without
//!   `--force`. A name that is not an orphan is refused before anything
//!   changes.
//! - **dropped** — manifest entries whose directory no longer exists. A missing
//!   path is absent, not an error (rm -rf, a crash mid-cleanup, a container
//!   wipe). If git still has a registration for it, that one registration is
//!   removed with `git worktree remove <path>` (never a bare `git worktree
//!   prune`). A *locked* registration is kept, with its entry, and reported as
//!   skipped: a locked worktree is typically on a volume that is not mounted
//!   right now.
//!
//! - **half-removed** runs — recorded, their directory there, but git no
//!   longer knows them (a `git worktree remove` that failed part way, see
//!   [`crate::leftover`]) — are reported (code `half-removed`); cleanup and
//!   remove finish them.
//!
//! A named orphan younger than `--min-age` (default 2h: the younger of its
//! directory's and its git admin directory's modification times) is skipped
//! with code `too-young`: a create that has run `git worktree add` but not yet
//! recorded the run looks exactly like an orphan. `--min-age 0` disables it.
//!
//! Nothing outside `.loop-worktrees/` is ever touched, the main worktree
//! included. The JSON `orphans` list holds every orphan found, including the
//! ones removed on request (which also appear in `removedOrphans`).

mod adopt;
mod report;

pub use report::{IdPath, Orphan, ReconcileReport};

use crate::cli::{MinAge, ReconcileArgs};
use crate::ctx::Ctx;
use crate::error::{Error, Result};
use crate::git::cmd::Git;
use crate::lock::{ManifestMutex, OpsLock};
use crate::manifest::Entry;
use crate::output::Out;
use crate::runid;
use crate::worktree::{Removal, Remover, Skip, SkipCode, SkippedEntry, remove_worktree};

/// How long ago the orphan's directory or its git admin directory last
/// changed — the younger of the two. `None` when neither can be read.
fn orphan_age(ctx: &Ctx, id: &str, remover: &Remover<'_>) -> Option<jiff::SignedDuration> {
    let admin = remover.registration(id).map(|wt| wt.admin_dir.clone());
    let newest = [Some(ctx.worktree_path(id)), admin]
        .into_iter()
        .flatten()
        .filter_map(|p| std::fs::symlink_metadata(p).and_then(|m| m.modified()).ok())
        .max()?;
    let newest = jiff::Timestamp::try_from(newest).ok()?;
    Some(crate::time::now().duration_since(newest))
}

/// Why the orphan `id` is too young to remove or adopt under `--min-age`: a
/// worktree that changed moments ago may be a create not recorded yet.
fn too_young(ctx: &Ctx, id: &str, remover: &Remover<'_>, min_age: &MinAge) -> Option<String> {
    let age = orphan_age(ctx, id, remover).filter(|age| *age < min_age.age)?;
    Some(format!(
        "too young: changed {}s ago, under --min-age {} (a create may still be recording it; --min-age 0 overrides)",
        age.as_secs(),
        min_age.text
    ))
}

pub fn run(ctx: &Ctx, args: &ReconcileArgs, out: &mut Out<'_>) -> Result<ReconcileReport> {
    let dry_run = args.dry_run;
    let loop_dir_exists = ctx.loop_dir_exists()?;
    // Validated before any lock is taken: a manifest git-loop does not
    // understand refuses the command with no trace left.
    let snapshot = if loop_dir_exists {
        ctx.manifest.load_snapshot()?
    } else {
        None
    };
    let named_any = !args.remove_orphan.is_empty() || !args.adopt.is_empty();
    let _ops = if !dry_run && (loop_dir_exists || named_any) {
        ctx.ensure_loop_dir()?;
        Some(OpsLock::acquire(&ctx.loop_dir(), |waiting| {
            out.note(format_args!("{waiting}"))
        })?)
    } else {
        None
    };

    let git = Git::new(ctx.repo.root());
    let remover = Remover::new(&ctx.repo, &git)?;
    // Parsed again only if another command replaced it meanwhile.
    let manifest = match snapshot {
        Some((parsed, snap)) if snap.is_current(ctx.manifest.path()) => parsed,
        _ if loop_dir_exists => ctx.manifest.load_or_default()?,
        _ => Default::default(),
    };
    let known: std::collections::HashSet<&str> =
        manifest.worktrees.iter().map(|e| e.id.as_str()).collect();

    let mut report = ReconcileReport {
        dry_run,
        orphans: Vec::new(),
        dropped: Vec::new(),
        removed_orphans: Vec::new(),
        skipped: Vec::new(),
        named_orphans: named_any,
        adopted: Vec::new(),
        strays: 0,
        error: None,
    };
    let mut orphans: Vec<(&String, &crate::git::repo::Worktree)> = remover
        .registrations
        .iter()
        .filter(|(name, _)| !known.contains(name.as_str()))
        .collect();
    orphans.sort_by(|a, b| a.0.cmp(b.0));
    for (name, wt) in orphans {
        report.orphans.push(Orphan {
            id: name.clone(),
            path: runid::rel_path(name),
            branch: wt.branch.clone(),
        });
    }
    for id in &args.remove_orphan {
        if !report.orphans.iter().any(|o| o.id == id.as_str()) {
            let reason = if known.contains(id.as_str()) {
                "it is recorded in the manifest (mark it and use cleanup)".to_owned()
            } else {
                format!(
                    "no worktree is registered with git at {}",
                    runid::rel_path(id)
                )
            };
            return Err(Error::NotAnOrphan {
                id: id.to_string(),
                reason,
            });
        }
    }

    // Orphans to adopt: each checked before anything changes.
    let adopt_base = if args.adopt.is_empty() {
        String::new()
    } else {
        ctx.settings()?.base.value.clone()
    };
    for id in &args.adopt {
        if known.contains(id.as_str()) {
            return Err(Error::NotAdoptable {
                id: id.to_string(),
                reason: "it is recorded in the manifest already".into(),
            });
        }
        adopt::check(
            &ctx.loop_dir(),
            id,
            remover.registration(id),
            args.remove_orphan.contains(id),
        )?;
        // As for --remove-orphan: a worktree that changed moments ago may be
        // a create that has not recorded it yet (adopting it would make that
        // create fail and undo its worktree under the new entry).
        if let Some(reason) = too_young(ctx, id, &remover, &args.min_age) {
            return Err(Error::NotAdoptable {
                id: id.to_string(),
                reason,
            });
        }
        if !report.adopted.iter().any(|a| a.id == id.as_str()) {
            report.adopted.push(IdPath {
                id: id.to_string(),
                path: runid::rel_path(id),
                note: None,
            });
        }
    }

    // One directory read instead of a stat per entry (100,000 entries).
    let present: std::collections::HashSet<std::ffi::OsString> = if manifest.worktrees.is_empty() {
        Default::default()
    } else {
        std::fs::read_dir(ctx.loop_dir())
            .map(|dir| dir.flatten().map(|e| e.file_name()).collect())
            .map_err(|e| Error::io("could not read", ctx.loop_dir(), e))?
    };
    // Anything else under `.loop-worktrees/` that is neither a run nor a
    // registered worktree (a plain directory, a symlink, a file): reported,
    // never touched, not logged (it is not a change). git-loop's own files
    // and dot-files (no run id starts with a dot) are not listed.
    let mut strays: Vec<String> = std::fs::read_dir(ctx.loop_dir())
        .map(|dir| {
            dir.flatten()
                .filter_map(|e| e.file_name().into_string().ok())
                .filter(|name| {
                    !name.starts_with('.')
                        && name != crate::manifest::MANIFEST_FILE
                        && name != crate::events::EVENTS_FILE
                        && !known.contains(name.as_str())
                        && remover.registration(name).is_none()
                })
                .collect()
        })
        .unwrap_or_default();
    strays.sort();
    for name in strays {
        let kind = match std::fs::symlink_metadata(ctx.loop_dir().join(&name)) {
            Ok(m) if m.file_type().is_symlink() => "a symlink",
            Ok(m) if m.is_dir() => "a directory",
            _ => "a file",
        };
        report.skipped.push(SkippedEntry::new(
            &name,
            Skip::new(
                format!(
                    "{kind} that is neither a recorded run nor a worktree registered with this repository; left untouched"
                ),
                SkipCode::ForeignClone,
            ),
        ));
        report.strays += 1;
    }

    // Recorded runs git no longer knows whose directory is left: a removal
    // that failed part way. Reported here; cleanup and remove finish them.
    for entry in &manifest.worktrees {
        if !present.contains(std::ffi::OsStr::new(&entry.id))
            || remover.registration(&entry.id).is_some()
        {
            continue;
        }
        let dir = ctx.loop_dir().join(&entry.id);
        if !std::fs::symlink_metadata(&dir).is_ok_and(|m| m.is_dir()) {
            continue;
        }
        if let Some(what) = crate::leftover::half_removed(ctx.repo.common_dir(), &dir) {
            report.skipped.push(SkippedEntry::new(
                &entry.id,
                Skip::new(
                    format!(
                        "{what}; `git loop cleanup` finishes it when every file left is in git"
                    ),
                    SkipCode::HalfRemoved,
                ),
            ));
        }
    }

    let mut dropped: Vec<&Entry> = Vec::new();
    for entry in &manifest.worktrees {
        if present.contains(std::ffi::OsStr::new(&entry.id)) {
            continue;
        }
        match remove_worktree(&remover, &entry.id, dry_run)? {
            Removal::Removed(note) => {
                report.dropped.push(IdPath {
                    id: entry.id.to_string(),
                    path: entry.path(),
                    note,
                });
                dropped.push(entry);
            }
            Removal::Skipped(skip) => report.skipped.push(SkippedEntry::new(&entry.id, skip)),
        }
    }

    let mut seen = std::collections::HashSet::new();
    for id in &args.remove_orphan {
        if !seen.insert(id) {
            continue;
        }
        let path = runid::rel_path(id);
        if let Some(reason) = too_young(ctx, id, &remover, &args.min_age) {
            report
                .skipped
                .push(SkippedEntry::new(id, Skip::new(reason, SkipCode::TooYoung)));
            continue;
        }
        match remove_worktree(&remover, id, dry_run)? {
            Removal::Removed(note) => report.removed_orphans.push(IdPath {
                id: id.to_string(),
                path,
                note,
            }),
            Removal::Skipped(skip) => report.skipped.push(SkippedEntry::new(id, skip)),
        }
    }

    // The mutex is taken even when nothing changed: taking it is what
    // removes a stale one, as the contract says.
    if !dry_run
        && (loop_dir_exists || !report.adopted.is_empty())
        && let Err(e) = apply(ctx, &dropped, &adopt_base, &report, out)
    {
        report.error = Some(super::Failure::from(&e));
    }
    Ok(report)
}

/// Drop the entries whose directory is gone — only the runs observed (same
/// id and `createdAt`), in one linear pass — and log what happened.
fn apply(
    ctx: &Ctx,
    dropped: &[&Entry],
    base: &str,
    report: &ReconcileReport,
    out: &mut Out<'_>,
) -> Result<()> {
    let mutex = ManifestMutex::acquire(&ctx.loop_dir())?;
    let mut events = Vec::new();
    if !dropped.is_empty() || !report.adopted.is_empty() {
        let mut manifest = ctx.manifest.load_or_default()?;
        let gone: std::collections::HashMap<&str, &Entry> =
            dropped.iter().map(|e| (e.id.as_str(), *e)).collect();
        let before = manifest.worktrees.len();
        manifest
            .worktrees
            .retain(|e| !gone.get(e.id.as_str()).is_some_and(|g| g.same_run(e)));
        let mut changed = manifest.worktrees.len() != before;
        for a in &report.adopted {
            // Recorded meanwhile (a create that finished late): leave it.
            if manifest.find(&a.id).is_none() {
                manifest.worktrees.push(adopt::entry(&a.id, base));
                let mut e = crate::events::Event::new(crate::events::EventKind::Adopt, &a.id);
                e.detail = Some(format!("pattern {:?}, base {base}", adopt::PATTERN));
                events.push(e);
                changed = true;
            }
        }
        if changed {
            ctx.manifest.write(&manifest, &mutex)?;
        }
    }
    for d in &report.dropped {
        events.push(crate::events::Event::new(
            crate::events::EventKind::Drop,
            &d.id,
        ));
    }
    for r in &report.removed_orphans {
        events.push(crate::events::Event::new(
            crate::events::EventKind::OrphanRemove,
            &r.id,
        ));
    }
    events.extend(
        report
            .skipped
            .iter()
            .skip(report.strays)
            .map(SkippedEntry::event),
    );
    ctx.log_events(&events, out);
    drop(mutex);
    Ok(())
}
