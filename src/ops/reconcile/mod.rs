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

//!
//! # Phases
//!
//! [`run`] takes the locks and reads the manifest ([`open`]), surveys what
//! is there ([`Survey`]: orphans, strays, half-removed runs), checks every
//! name given before anything changes ([`check_named`], [`plan_adoptions`]),
//! removes registrations ([`drop_gone`], [`remove_orphans`]), and last
//! applies the [`Plan`] to the manifest under the mutex ([`apply`]), logging
//! the events built from the [`Outcome`]. The report is built from the
//! outcome by the command.

mod adopt;
mod apply;

pub use apply::Plan;

use std::collections::HashSet;
use std::ffi::{OsStr, OsString};

use crate::ctx::Ctx;
use crate::error::{Error, Result};
use crate::git::cmd::Git;
use crate::git::repo::Worktree;
use crate::lock::OpsLock;
use crate::manifest::{Entry, Manifest};
use crate::output::Out;
use crate::runid;
use crate::worktree::{Removal, Remover, Skip, SkipCode, SkippedEntry, remove_worktree};

/// What reconcile is asked to do.
#[derive(Debug, Clone)]
pub struct Request<'a> {
    /// `--remove-orphan`, in the order given (repeats allowed).
    pub remove_orphan: Vec<&'a str>,
    /// `--adopt`, in the order given.
    pub adopt: Vec<&'a str>,
    /// `--min-age`, and its text as given (for the reason).
    pub min_age: jiff::SignedDuration,
    pub min_age_text: &'a str,
    pub dry_run: bool,
}

impl Request<'_> {
    fn names_any(&self) -> bool {
        !self.remove_orphan.is_empty() || !self.adopt.is_empty()
    }
}

/// A worktree registered with git under `.loop-worktrees/` that no entry
/// records.
#[derive(Debug, Clone)]
pub struct Orphan {
    pub id: String,
    pub branch: Option<String>,
}

/// Something else under `.loop-worktrees/`: reported, never touched, not
/// logged.
#[derive(Debug, Clone)]
pub struct Stray {
    pub name: String,
    pub kind: StrayKind,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StrayKind {
    Symlink,
    Directory,
    File,
}

impl Stray {
    /// How a stray is reported: a skipped entry, code `foreign-clone`.
    pub fn skipped(&self) -> SkippedEntry {
        let kind = match self.kind {
            StrayKind::Symlink => "a symlink",
            StrayKind::Directory => "a directory",
            StrayKind::File => "a file",
        };
        SkippedEntry::new(
            &self.name,
            Skip::new(
                format!(
                    "{kind} that is neither a recorded run nor a worktree registered with this repository; left untouched"
                ),
                SkipCode::ForeignClone,
            ),
        )
    }
}

/// A registration removed (or, in a dry run, that would be).
#[derive(Debug, Clone)]
pub struct Removed {
    pub id: String,
    pub path: String,
    /// What git-loop finished itself (see [`crate::leftover`]).
    pub note: Option<String>,
}

/// What reconcile found and did.
#[derive(Debug)]
pub struct Outcome {
    pub dry_run: bool,
    /// `--remove-orphan` or `--adopt` named at least one orphan.
    pub named_orphans: bool,
    /// Every orphan found, the ones removed included, by id.
    pub orphans: Vec<Orphan>,
    pub strays: Vec<Stray>,
    /// Left alone, logged as `skip`: half-removed runs, then the entries
    /// whose registration was kept, then the named orphans kept.
    pub kept: Vec<SkippedEntry>,
    /// Entries whose directory is gone, dropped.
    pub dropped: Vec<Removed>,
    pub removed_orphans: Vec<Removed>,
    /// Orphans recorded as active runs (`--adopt`), as planned.
    pub adopted: Vec<String>,
    /// Set when applying the plan failed part way (say, the manifest
    /// write): what was done before is still listed.
    pub error: Option<Error>,
}

pub fn run(ctx: &Ctx, req: &Request<'_>, out: &mut Out<'_>) -> Result<Outcome> {
    let mut opened = open(ctx, req, out)?;
    let git = Git::new(ctx.repo.root());
    let remover = Remover::new(&ctx.repo, &git)?;
    let manifest = opened.manifest(ctx)?;
    let survey = Survey::of(ctx, &manifest, &remover)?;
    check_named(&survey, req)?;
    let adopt = plan_adoptions(ctx, req, &survey, &remover)?;
    let (dropped, mut kept, gone) = drop_gone(&manifest, &survey, &remover, req.dry_run)?;
    let (removed_orphans, orphans_kept) = remove_orphans(ctx, req, &remover)?;
    kept.extend(orphans_kept);
    let plan = Plan {
        drop: gone,
        adopt: adopt.ids,
        base: adopt.base,
    };
    let mut outcome = Outcome {
        dry_run: req.dry_run,
        named_orphans: req.names_any(),
        orphans: survey.orphans,
        strays: survey.strays,
        kept: survey.half_removed.into_iter().chain(kept).collect(),
        dropped,
        removed_orphans,
        adopted: plan.adopt.clone(),
        error: None,
    };
    // The mutex is taken even when nothing changed: taking it is what
    // removes a stale one, as the contract says.
    if !req.dry_run
        && (opened.loop_dir_exists || !plan.adopt.is_empty())
        && let Err(e) = apply::apply(ctx, &plan, &outcome, out)
    {
        outcome.error = Some(e);
    }
    Ok(outcome)
}

/// The manifest as validated before any lock, and the worktree-operation
/// lock (not in a dry run, nor with nothing to reconcile or name).
struct Opened {
    loop_dir_exists: bool,
    snapshot: Option<(Manifest, crate::manifest::Snapshot)>,
    _ops: Option<OpsLock>,
}

fn open(ctx: &Ctx, req: &Request<'_>, out: &mut Out<'_>) -> Result<Opened> {
    let loop_dir_exists = ctx.loop_dir_exists()?;
    // Validated before any lock is taken: a manifest git-loop does not
    // understand refuses the command with no trace left.
    let snapshot = if loop_dir_exists {
        ctx.manifest.load_snapshot()?
    } else {
        None
    };
    let ops = if !req.dry_run && (loop_dir_exists || req.names_any()) {
        ctx.ensure_loop_dir()?;
        Some(OpsLock::acquire(&ctx.loop_dir(), |waiting| {
            out.note(format_args!("{waiting}"))
        })?)
    } else {
        None
    };
    Ok(Opened {
        loop_dir_exists,
        snapshot,
        _ops: ops,
    })
}

impl Opened {
    /// The manifest, parsed again only if another command replaced it
    /// meanwhile.
    fn manifest(&mut self, ctx: &Ctx) -> Result<Manifest> {
        Ok(match self.snapshot.take() {
            Some((parsed, snap)) if snap.is_current(ctx.manifest.path()) => parsed,
            _ if self.loop_dir_exists => ctx.manifest.load_or_default()?,
            _ => Default::default(),
        })
    }
}

/// What is under `.loop-worktrees/`, against the manifest.
struct Survey {
    known: HashSet<String>,
    /// The directory's names (read only when some run is recorded).
    present: HashSet<OsString>,
    orphans: Vec<Orphan>,
    strays: Vec<Stray>,
    half_removed: Vec<SkippedEntry>,
}

impl Survey {
    fn of(ctx: &Ctx, manifest: &Manifest, remover: &Remover<'_>) -> Result<Survey> {
        let known: HashSet<String> = manifest.worktrees.iter().map(|e| e.id.clone()).collect();
        let mut orphans: Vec<Orphan> = remover
            .registrations
            .iter()
            .filter(|(name, _)| !known.contains(name.as_str()))
            .map(|(name, wt)| Orphan {
                id: name.clone(),
                branch: wt.branch.clone(),
            })
            .collect();
        orphans.sort_by(|a, b| a.id.cmp(&b.id));
        // One directory read instead of a stat per entry (100,000 entries).
        let present: HashSet<OsString> = if manifest.worktrees.is_empty() {
            Default::default()
        } else {
            std::fs::read_dir(ctx.loop_dir())
                .map(|dir| dir.flatten().map(|e| e.file_name()).collect())
                .map_err(|e| Error::io("could not read", ctx.loop_dir(), e))?
        };
        let strays = strays(ctx, &known, remover);
        let half_removed = half_removed(ctx, manifest, &present, remover);
        Ok(Survey {
            known,
            present,
            orphans,
            strays,
            half_removed,
        })
    }

    fn is_orphan(&self, id: &str) -> bool {
        self.orphans.iter().any(|o| o.id == id)
    }
}

/// Anything else under `.loop-worktrees/` that is neither a run nor a
/// registered worktree (a plain directory, a symlink, a file). git-loop's
/// own files and dot-files (no run id starts with a dot) are not listed.
fn strays(ctx: &Ctx, known: &HashSet<String>, remover: &Remover<'_>) -> Vec<Stray> {
    let mut names: Vec<String> = std::fs::read_dir(ctx.loop_dir())
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
    names.sort();
    names
        .into_iter()
        .map(|name| {
            let kind = match std::fs::symlink_metadata(ctx.loop_dir().join(&name)) {
                Ok(m) if m.file_type().is_symlink() => StrayKind::Symlink,
                Ok(m) if m.is_dir() => StrayKind::Directory,
                _ => StrayKind::File,
            };
            Stray { name, kind }
        })
        .collect()
}

/// Recorded runs git no longer knows whose directory is left: a removal
/// that failed part way. Reported here; cleanup and remove finish them.
fn half_removed(
    ctx: &Ctx,
    manifest: &Manifest,
    present: &HashSet<OsString>,
    remover: &Remover<'_>,
) -> Vec<SkippedEntry> {
    let mut found = Vec::new();
    for entry in &manifest.worktrees {
        if !present.contains(OsStr::new(&entry.id)) || remover.registration(&entry.id).is_some() {
            continue;
        }
        let dir = ctx.loop_dir().join(&entry.id);
        if !std::fs::symlink_metadata(&dir).is_ok_and(|m| m.is_dir()) {
            continue;
        }
        if let Some(what) = crate::leftover::half_removed(ctx.repo.common_dir(), &dir) {
            found.push(SkippedEntry::new(
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
    found
}

/// Every `--remove-orphan` must name an orphan: refused before anything
/// changes.
fn check_named(survey: &Survey, req: &Request<'_>) -> Result<()> {
    for &id in &req.remove_orphan {
        if survey.is_orphan(id) {
            continue;
        }
        let reason = if survey.known.contains(id) {
            "it is recorded in the manifest (mark it and use cleanup)".to_owned()
        } else {
            format!(
                "no worktree is registered with git at {}",
                runid::rel_path(id)
            )
        };
        return Err(Error::NotAnOrphan {
            id: id.to_owned(),
            reason,
        });
    }
    Ok(())
}

/// The orphans to adopt, each checked before anything changes, and the
/// base they get.
struct Adoptions {
    ids: Vec<String>,
    base: String,
}

fn plan_adoptions(
    ctx: &Ctx,
    req: &Request<'_>,
    survey: &Survey,
    remover: &Remover<'_>,
) -> Result<Adoptions> {
    let base = if req.adopt.is_empty() {
        String::new()
    } else {
        ctx.settings()?.base.value.clone()
    };
    let mut ids: Vec<String> = Vec::new();
    for &id in &req.adopt {
        let refuse = |reason: String| Error::NotAdoptable {
            id: id.to_owned(),
            reason,
        };
        if survey.known.contains(id) {
            return Err(refuse("it is recorded in the manifest already".into()));
        }
        adopt::check(
            &ctx.loop_dir(),
            id,
            remover.registration(id),
            req.remove_orphan.contains(&id),
        )?;
        // As for --remove-orphan: a worktree that changed moments ago may be
        // a create that has not recorded it yet (adopting it would make that
        // create fail and undo its worktree under the new entry).
        if let Some(reason) = too_young(ctx, id, remover, req) {
            return Err(refuse(reason));
        }
        if !ids.iter().any(|a| a == id) {
            ids.push(id.to_owned());
        }
    }
    Ok(Adoptions { ids, base })
}

/// Remove the registrations of the entries whose directory is gone (a
/// locked one is kept, with its entry). Returns the entries dropped, the
/// ones kept, and the entries the plan drops from the manifest.
fn drop_gone(
    manifest: &Manifest,
    survey: &Survey,
    remover: &Remover<'_>,
    dry_run: bool,
) -> Result<(Vec<Removed>, Vec<SkippedEntry>, Vec<Entry>)> {
    let (mut dropped, mut kept, mut gone) = (Vec::new(), Vec::new(), Vec::new());
    for entry in &manifest.worktrees {
        if survey.present.contains(OsStr::new(&entry.id)) {
            continue;
        }
        match remove_worktree(remover, &entry.id, dry_run)? {
            Removal::Removed(note) => {
                dropped.push(Removed {
                    id: entry.id.clone(),
                    path: entry.path(),
                    note,
                });
                gone.push(entry.clone());
            }
            Removal::Skipped(skip) => kept.push(SkippedEntry::new(&entry.id, skip)),
        }
    }
    Ok((dropped, kept, gone))
}

/// Remove the orphans named by `--remove-orphan` (each once), unless too
/// young.
fn remove_orphans(
    ctx: &Ctx,
    req: &Request<'_>,
    remover: &Remover<'_>,
) -> Result<(Vec<Removed>, Vec<SkippedEntry>)> {
    let (mut removed, mut kept) = (Vec::new(), Vec::new());
    let mut seen = HashSet::new();
    for &id in &req.remove_orphan {
        if !seen.insert(id) {
            continue;
        }
        if let Some(reason) = too_young(ctx, id, remover, req) {
            kept.push(SkippedEntry::new(id, Skip::new(reason, SkipCode::TooYoung)));
            continue;
        }
        match remove_worktree(remover, id, req.dry_run)? {
            Removal::Removed(note) => removed.push(Removed {
                id: id.to_owned(),
                path: runid::rel_path(id),
                note,
            }),
            Removal::Skipped(skip) => kept.push(SkippedEntry::new(id, skip)),
        }
    }
    Ok((removed, kept))
}

/// How long ago the orphan's directory or its git admin directory last
/// changed — the younger of the two. `None` when neither can be read.
fn orphan_age(ctx: &Ctx, id: &str, remover: &Remover<'_>) -> Option<jiff::SignedDuration> {
    let admin = remover
        .registration(id)
        .map(|wt: &Worktree| wt.admin_dir.clone());
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
fn too_young(ctx: &Ctx, id: &str, remover: &Remover<'_>, req: &Request<'_>) -> Option<String> {
    let age = orphan_age(ctx, id, remover).filter(|age| *age < req.min_age)?;
    Some(format!(
        "too young: changed {}s ago, under --min-age {} (a create may still be recording it; --min-age 0 overrides)",
        age.as_secs(),
        req.min_age_text
    ))
}
