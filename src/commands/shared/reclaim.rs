//! What a reclaim reports — the document `cleanup` and `remove` print, and
//! `claude-hook remove` writes as text to stderr: removed entries (with what
//! happened to their branch), skipped ones, and an error part way; rendered
//! as text or JSON. Built last, from [`crate::ops::reclaim`]'s outcome.
//!
//! Not a command: the report the three commands share (`remove`'s JSON is
//! cleanup's), kept beside them rather than in one of them, so no command
//! imports another.

use serde::Serialize;

use crate::ops::reclaim::{Fate, Reclaimed, Removed};
use crate::output::{Out, Report};
use crate::safety::retire::{KeepCode, Retired};
use crate::worktree::SkippedEntry;

#[derive(Debug, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct RemovedEntry {
    pub id: String,
    pub path: String,
    pub branch: String,
    /// With --delete-merged-branches: whether the branch was deleted.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub branch_deleted: Option<bool>,
    /// With --delete-merged-branches, when deleted: how its work is in the
    /// base (`ancestor`, `squash`, `rebase`; `null`: the run made no commits).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub branch_merged_by: Option<Option<crate::git::merged::MergedBy>>,
    /// With --delete-merged-branches, when deleted: the trash ref that keeps
    /// its tip (`git loop trash restore <branch>` brings it back).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub branch_trash: Option<String>,
    /// With --delete-merged-branches: why the branch was kept.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub branch_kept: Option<KeptBranch>,
    /// What git-loop finished itself: a removal git refused only for
    /// git's own files, or one an interruption left half done.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// With --salvage: where its uncommitted work was saved first.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub salvage: Option<crate::worktree::salvage::Salvaged>,
}

#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct KeptBranch {
    /// Why it was kept: `not-merged`, `checked-out`, `moved`, `refused`
    /// (the safety kernel's one vocabulary for every branch it keeps).
    pub code: KeepCode,
    pub reason: String,
}

#[derive(Debug, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct CleanupReport {
    pub dry_run: bool,
    pub removed: Vec<RemovedEntry>,
    pub skipped: Vec<SkippedEntry>,
    /// Set when the cleanup failed part way (a manifest write on a full disk,
    /// say): what was removed before it is still listed; or, for `remove`,
    /// when none of the named runs was removed (`nothing-removed`); exit 1.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<crate::error::Failure>,
    /// Which command to run again once a skipped worktree is dealt with.
    #[serde(skip)]
    pub again: Again,
}

/// The command a skip hint tells to run again.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Again {
    #[default]
    Cleanup,
    /// `remove`: the hint names the ids it skipped.
    Remove,
}

impl From<Reclaimed> for CleanupReport {
    fn from(reclaimed: Reclaimed) -> CleanupReport {
        CleanupReport {
            dry_run: reclaimed.dry_run,
            removed: reclaimed
                .removed
                .into_iter()
                .map(RemovedEntry::from)
                .collect(),
            skipped: reclaimed.skipped,
            error: reclaimed.error.as_ref().map(crate::error::Failure::from),
            again: Again::Cleanup,
        }
    }
}

impl From<Removed> for RemovedEntry {
    fn from(r: Removed) -> RemovedEntry {
        let mut removed = RemovedEntry {
            id: r.entry.id.to_string(),
            path: r.entry.path(),
            branch: r.entry.branch(),
            branch_deleted: None,
            branch_merged_by: None,
            branch_trash: None,
            branch_kept: None,
            note: r.note,
            salvage: r.salvaged,
        };
        match r.branch {
            Fate::Untouched => {}
            Fate::Retired(Retired::Deleted {
                merged_by,
                trash_ref,
                ..
            }) => {
                removed.branch_deleted = Some(true);
                removed.branch_merged_by = Some(merged_by);
                removed.branch_trash = Some(trash_ref);
            }
            Fate::Retired(Retired::Kept { code, reason }) => {
                removed.branch_deleted = Some(false);
                // No branch: nothing to say why it was kept.
                removed.branch_kept =
                    (code != KeepCode::Gone).then_some(KeptBranch { code, reason });
            }
        }
        removed
    }
}

impl RemovedEntry {
    /// Its line (with its branch's fate), and what was finished or salvaged.
    fn write_human(&self, verb: &str, out: &mut Out<'_>) -> std::io::Result<()> {
        match (&self.branch_deleted, &self.branch_kept) {
            (Some(true), _) => writeln!(
                out.stdout,
                "{verb} {} ({}), branch {} deleted (kept in the trash: `git loop trash restore {}` brings it back)",
                self.id, self.path, self.branch, self.branch
            )?,
            (_, Some(kept)) => writeln!(
                out.stdout,
                "{verb} {} ({}), branch {} kept: {}",
                self.id,
                self.path,
                self.branch,
                crate::style::escape(&kept.reason)
            )?,
            _ => writeln!(out.stdout, "{verb} {} ({})", self.id, self.path)?,
        }
        if let Some(note) = &self.note {
            writeln!(out.stdout, "  {note}")?;
        }
        if let Some(s) = &self.salvage {
            let i = &s.ignored;
            match &s.commit {
                Some(c) => writeln!(out.stdout, "  salvaged to {} ({c})", s.refname)?,
                None => writeln!(out.stdout, "  after saving its changes to {}", s.refname)?,
            }
            if i.count > 0 {
                writeln!(
                    out.stdout,
                    "  not kept: {} ignored file(s), {} bytes",
                    i.count, i.bytes
                )?;
            }
        }
        Ok(())
    }
}

impl Report for CleanupReport {
    fn failed_part_way(&self) -> Option<&crate::error::Failure> {
        self.error.as_ref()
    }

    fn human(&self, out: &mut Out<'_>) -> std::io::Result<()> {
        let verb = if self.dry_run {
            "would remove"
        } else {
            "removed"
        };
        // `-q` silences what went as asked (a dry run's answer is what was
        // asked for); a skip is still said.
        if !out.quiet || self.dry_run {
            for r in &self.removed {
                r.write_human(verb, out)?;
            }
        }
        for s in &self.skipped {
            s.write_human(out.stdout)?;
        }
        let codes: Vec<&str> = self.skipped.iter().map(|s| s.code.as_str()).collect();
        let summary = crate::style::summary(verb, self.removed.len(), &codes);
        if self.removed.is_empty() && self.skipped.is_empty() {
            out.note(format_args!("{summary} (nothing selected)"));
        } else {
            out.note(format_args!("{summary}"));
        }
        if self.error.is_some() && !self.removed.is_empty() {
            out.note(format_args!(
                "note: the worktrees listed as removed are gone; `git loop reconcile` drops their entries once the manifest can be written"
            ));
        }
        let dirty: Vec<String> = self
            .skipped
            .iter()
            .filter(|s| s.code.is_uncommitted_work())
            .map(|s| crate::style::escape(&s.id).into_owned())
            .collect();
        match self.again {
            _ if dirty.is_empty() => {}
            Again::Cleanup => out.note(format_args!(
                "hint: a skipped worktree holds uncommitted or untracked work; commit, stash or move it, then run cleanup again, or add --salvage to save it to refs/loop/salvage/<id> and remove it (git-loop never forces)"
            )),
            Again::Remove => {
                let ids = dirty.join(" ");
                out.note(format_args!(
                    "hint: a skipped worktree holds uncommitted or untracked work; commit, stash or move it, then run `git loop remove {ids}` again, or `git loop remove --salvage {ids}` to save it to refs/loop/salvage/<id> and remove it (git-loop never forces)"
                ))
            }
        }
        Ok(())
    }
}
