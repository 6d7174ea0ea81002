//! What reconcile reports: orphans, dropped entries, removed and adopted
//! orphans, skipped ones, and an error part way; rendered as text or JSON.

use serde::Serialize;

use crate::ops::reconcile::{ReconcileOutcome, Removed};
use crate::output::{Out, Report};
use crate::runid;
use crate::worktree::SkippedEntry;

#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct Orphan {
    pub id: String,
    pub path: String,
    pub branch: Option<String>,
}

#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct IdPath {
    pub id: String,
    pub path: String,
    /// What git-loop finished itself: a removal git refused only for
    /// git's own files, or one an interruption left half done.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

#[derive(Debug, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReconcileReport {
    pub dry_run: bool,
    pub orphans: Vec<Orphan>,
    pub dropped: Vec<IdPath>,
    pub removed_orphans: Vec<IdPath>,
    /// Orphans recorded as active runs (`--adopt`).
    pub adopted: Vec<IdPath>,
    pub skipped: Vec<SkippedEntry>,
    /// `--remove-orphan` named at least one orphan.
    #[serde(skip)]
    pub named_orphans: bool,
    /// Set when reconcile failed part way (say, the manifest write): what it
    /// did before is still listed; exit 1.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<crate::error::Failure>,
}

impl From<Removed> for IdPath {
    fn from(r: Removed) -> IdPath {
        IdPath {
            id: r.id,
            path: r.path,
            note: r.note,
        }
    }
}

impl From<ReconcileOutcome> for ReconcileReport {
    /// Strays first in `skipped`, then what was kept, as found.
    fn from(o: ReconcileOutcome) -> ReconcileReport {
        ReconcileReport {
            dry_run: o.dry_run,
            orphans: o
                .orphans
                .into_iter()
                .map(|orphan| Orphan {
                    path: runid::rel_path(&orphan.id),
                    id: orphan.id,
                    branch: orphan.branch,
                })
                .collect(),
            dropped: o.dropped.into_iter().map(IdPath::from).collect(),
            removed_orphans: o.removed_orphans.into_iter().map(IdPath::from).collect(),
            adopted: o
                .adopted
                .into_iter()
                .map(|id| IdPath {
                    path: runid::rel_path(&id),
                    id,
                    note: None,
                })
                .collect(),
            skipped: o.strays.iter().map(|s| s.skipped()).chain(o.kept).collect(),
            named_orphans: o.named_orphans,
            error: o.error.as_ref().map(crate::error::Failure::from),
        }
    }
}

impl Report for ReconcileReport {
    fn failed_part_way(&self) -> Option<&crate::error::Failure> {
        self.error.as_ref()
    }

    fn human(&self, out: &mut Out<'_>) -> std::io::Result<()> {
        let would = if self.dry_run { "would " } else { "" };
        for o in &self.orphans {
            writeln!(
                out.stdout,
                "orphan {} ({}, {})",
                o.id,
                o.path,
                o.branch.as_deref().unwrap_or("detached")
            )?;
        }
        for d in &self.dropped {
            writeln!(out.stdout, "{would}drop {} ({} is gone)", d.id, d.path)?;
        }
        for r in &self.removed_orphans {
            writeln!(out.stdout, "{would}remove orphan {} ({})", r.id, r.path)?;
            if let Some(note) = &r.note {
                writeln!(out.stdout, "  {note}")?;
            }
        }
        for a in &self.adopted {
            writeln!(
                out.stdout,
                "{would}adopt {} ({}) as an active run",
                a.id, a.path
            )?;
        }
        for s in &self.skipped {
            s.write_human(out.stdout)?;
        }
        let codes: Vec<&str> = self.skipped.iter().map(|s| s.code.as_str()).collect();
        let (drop, remove) = if self.dry_run {
            ("would drop", "would remove")
        } else {
            ("dropped", "removed")
        };
        let orphans = |n: usize| format!("{n} orphan{}", if n == 1 { "" } else { "s" });
        out.note(format_args!(
            "{}, {drop} {}, {remove} {}, skipped {}{}",
            orphans(self.orphans.len()),
            self.dropped.len(),
            orphans(self.removed_orphans.len()),
            self.skipped.len(),
            crate::style::skip_detail(&codes),
        ));
        // The hint only when no orphan was named: after a named one was
        // skipped, its reason already says what to do.
        if !self.orphans.is_empty() && self.removed_orphans.is_empty() && !self.named_orphans {
            out.note(format_args!(
                "hint: remove an orphan with `git loop reconcile --remove-orphan <ID>`"
            ));
        }
        Ok(())
    }
}
