//! The registrations reconcile removes (never forced, through the
//! worktree removal and its skip codes): those of entries whose directory
//! is gone, and the orphans named by `--remove-orphan`.

use std::collections::HashSet;
use std::ffi::OsStr;

use super::ReconcileRequest;
use super::min_age::too_young;
use super::survey::Survey;
use crate::ctx::Ctx;
use crate::error::Result;
use crate::manifest::{Entry, Manifest};
use crate::runid;
use crate::worktree::{Removal, Remover, Skip, SkipCode, SkippedEntry, remove_worktree};

/// A registration removed (or, in a dry run, that would be).
#[derive(Debug, Clone)]
pub struct Removed {
    pub id: String,
    pub path: String,
    /// What git-loop finished itself (see [`crate::worktree::leftover`]).
    pub note: Option<String>,
}
/// Remove the registrations of the entries whose directory is gone (a
/// locked one is kept, with its entry). Returns the entries dropped, the
/// ones kept, and the entries the plan drops from the manifest.
pub(super) fn drop_gone(
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
                    id: entry.id.to_string(),
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
pub(super) fn remove_orphans(
    ctx: &Ctx,
    req: &ReconcileRequest<'_>,
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
