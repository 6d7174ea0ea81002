//! What is under `.loop-worktrees/`, against the manifest: orphans (git
//! knows them, the manifest does not), strays (neither does), and recorded
//! runs left half-removed.

use std::collections::HashSet;
use std::ffi::{OsStr, OsString};

use crate::ctx::Ctx;
use crate::error::{Error, Result};
use crate::manifest::Manifest;
use crate::worktree::{Remover, Skip, SkipCode, SkippedEntry};

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
/// What is under `.loop-worktrees/`, against the manifest.
pub(super) struct Survey {
    pub(super) known: HashSet<String>,
    /// The directory's names (read only when some run is recorded).
    pub(super) present: HashSet<OsString>,
    pub(super) orphans: Vec<Orphan>,
    pub(super) strays: Vec<Stray>,
    pub(super) half_removed: Vec<SkippedEntry>,
}

impl Survey {
    pub(super) fn of(ctx: &Ctx, manifest: &Manifest, remover: &Remover<'_>) -> Result<Survey> {
        let known: HashSet<String> = manifest
            .worktrees
            .iter()
            .map(|e| e.id.to_string())
            .collect();
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

    pub(super) fn is_orphan(&self, id: &str) -> bool {
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
        if let Some(what) = crate::worktree::leftover::half_removed(ctx.repo.common_dir(), &dir) {
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
